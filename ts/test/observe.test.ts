// The adapter's side of observational memory, on a fake pi with a scripted core
// (fake-pi.ts): the events it forwards (context, agent_settled, session_before_compact,
// session_before_tree), the effects it performs (context_messages, session_entry,
// compact, compaction, branch_summary) and model calls with a model, a timeout or in
// the background. The rules themselves are the core's and are tested there.

import test, { type TestContext } from "node:test";
import assert from "node:assert/strict";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { Envelope } from "../core.ts";
import { FakePi, envelope, fakeContext, scripted, type FakeContextOptions } from "./fake-pi.ts";

type Factory = (pi: ExtensionAPI) => void;

const mod = (await import(new URL("../index.ts?scripted", import.meta.url).href)) as { default: Factory; readRegistry: () => { commands: Array<{ name: string; aliases: string[]; implied?: Array<{ name: string; words: string[] }> }> }; BACKGROUND_BOUND_MS: number };

function started(): FakePi {
	const pi = new FakePi();
	mod.default(pi.api);
	return pi;
}

function quietErrors(t: TestContext): { calls: unknown[][] } {
	const m = t.mock.method(console, "error", () => {});
	return { get calls() { return m.mock.calls.map((c) => c.arguments); } };
}

function inputsOf(exportName: string): unknown[] {
	return scripted.calls.filter((c) => c.exportName === exportName).map((c) => c.input);
}

// A promise and the functions that settle it, for a model call the test finishes.
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
	let resolve!: (v: T) => void;
	const promise = new Promise<T>((r) => (resolve = r));
	return { promise, resolve };
}

const reply = (text: string, usage?: object) => ({ role: "assistant", stopReason: "stop", content: [{ type: "text", text }], ...(usage === undefined ? {} : { usage }) });

// ---- Commands ---------------------------------------------------------------------------

test("every command and alias of registry.json is registered, or typed through input (the short forms), and sends the name it was typed as", async () => {
	scripted.reset();
	const pi = started();
	const commands = mod.readRegistry().commands;
	const short = new Set(commands.flatMap((c) => (c.implied ?? []).map((i) => i.name)));
	const names = commands.flatMap((c) => [c.name, ...c.aliases]);
	assert.ok(short.size > 0);
	assert.deepEqual([...pi.commands.keys()].sort(), names.filter((n) => !short.has(n)).sort());
	const { ctx } = fakeContext();
	for (const name of names) {
		if (short.has(name)) assert.deepEqual(await pi.emit("input", { text: `/${name} help`, source: "interactive" }, ctx), [{ action: "handled" }]);
		else await pi.command(name, "help", ctx);
	}
	assert.deepEqual(
		inputsOf("command").map((i) => (i as { name: string }).name),
		names,
	);
	assert.deepEqual(await pi.emit("input", { text: "/om-nothing", source: "interactive" }, ctx), [{ action: "continue" }], "other slash words go on to pi");
});

// ---- context -------------------------------------------------------------------------------

const conversation = [
	{ role: "compactionSummary", summary: "earlier", tokensBefore: 10, timestamp: 1 },
	{ role: "user", content: "why does search fail?", timestamp: 2 },
];

test("context forwards pi's messages and inserts the core's custom messages at its index", async () => {
	scripted.reset((exportName) =>
		exportName === "context"
			? envelope({
					t: "context_messages",
					index: 1,
					messages: [
						{ customType: "observational-memory-context", content: "<observations>…</observations>", timestamp: 1770000000000 },
						{ customType: "observational-memory-continuation", content: "older turns were dropped" },
					],
				})
			: envelope(),
	);
	const pi = started();
	const [result] = await pi.emit("context", { messages: conversation }, fakeContext().ctx);
	assert.deepEqual(inputsOf("context"), [{ messages: conversation }]);
	assert.deepEqual(result, {
		messages: [
			conversation[0],
			{ role: "custom", customType: "observational-memory-context", content: "<observations>…</observations>", display: false, timestamp: 1770000000000 },
			{ role: "custom", customType: "observational-memory-continuation", content: "older turns were dropped", display: false, timestamp: 0 },
			conversation[1],
		],
	});
});

test("context returns nothing when the core sends no block, and an index out of range is clamped", async () => {
	const cases: [string, Envelope, unknown][] = [
		["nothing", envelope(), undefined],
		["past the end", envelope({ t: "context_messages", index: 99, messages: [{ customType: "x", content: "c" }] }), [...conversation, { role: "custom", customType: "x", content: "c", display: false, timestamp: 0 }]],
		["negative", envelope({ t: "context_messages", index: -3, messages: [{ customType: "x", content: "c" }] }), [{ role: "custom", customType: "x", content: "c", display: false, timestamp: 0 }, ...conversation]],
	];
	for (const [name, env, want] of cases) {
		scripted.reset(() => env);
		const pi = started();
		const [result] = await pi.emit("context", { messages: conversation }, fakeContext().ctx);
		assert.deepEqual(result, want === undefined ? undefined : { messages: want }, name);
	}
});

test("effects that belong to one hook are ignored, saying so, anywhere else", async (t) => {
	const errors = quietErrors(t);
	scripted.reset(() =>
		envelope(
			{ t: "context_messages", index: 0, messages: [{ customType: "x", content: "c" }] },
			{ t: "compaction", summary: "s", firstKeptEntryId: "e1", tokensBefore: 1 },
			{ t: "branch_summary", summary: "b" },
		),
	);
	const pi = started();
	const [result] = await pi.emit("before_agent_start", { messageType: "user", prompt: "p", systemPrompt: "BASE" }, fakeContext().ctx);
	assert.equal(result, undefined);
	assert.deepEqual(
		errors.calls.map((c) => String(c[0])),
		[
			"pi-memory: the core sent context_messages from before_agent_start; only context can apply it, ignored",
			"pi-memory: the core sent compaction from before_agent_start; only session_before_compact can apply it, ignored",
			"pi-memory: the core sent branch_summary from before_agent_start; only session_before_tree can apply it, ignored",
		],
	);
});

// ---- agent_settled and its effects ----------------------------------------------------------

test("agent_settled sends the branch, the context window and whether the run was aborted", async () => {
	scripted.reset();
	const pi = started();
	const branch = [{ type: "message", id: "a1", parentId: null, message: { role: "user", content: "hi" } }];
	await pi.emit("agent_settled", { aborted: true }, fakeContext({ branch, model: { provider: "fake", id: "m", contextWindow: 128000 } }).ctx);
	await pi.emit("agent_settled", { aborted: false }, fakeContext({ model: undefined }).ctx);
	assert.deepEqual(inputsOf("agent_settled"), [
		{ branch, window: 128000, aborted: true },
		{ branch: [], window: 0, aborted: false },
	]);
});

test("session_entry appends a custom entry, status sets the footer line, compact compacts only when pi is idle", async () => {
	const data = { v: 1, op: "observe", t: 1770907000000, from: "a1", through: "a4", tokens: 60, obs: "Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n" };
	scripted.reset(() => envelope({ t: "session_entry", customType: "pi-memory-om", data }, { t: "status", key: "pi-memory", text: "decisions 0 · om 1 obs ~21 tok" }, { t: "compact" }));
	const pi = started();
	const idle = fakeContext();
	await pi.emit("agent_settled", { aborted: false }, idle.ctx);
	assert.deepEqual(pi.entries, [{ customType: "pi-memory-om", data }]);
	assert.deepEqual(idle.ui, [{ method: "setStatus", args: ["pi-memory", "decisions 0 · om 1 obs ~21 tok"] }]);
	assert.equal(idle.compactions.length, 1);
	const busy = fakeContext({ idle: false });
	await pi.emit("agent_settled", { aborted: false }, busy.ctx);
	assert.equal(busy.compactions.length, 0, "ctx.compact() aborts a running turn: skipped while pi is busy");
});

// ---- session_before_compact and session_before_tree ----------------------------------------

function compactEvent(signal = new AbortController().signal): object {
	return {
		preparation: {
			firstKeptEntryId: "k7",
			messagesToSummarize: [],
			turnPrefixMessages: [],
			isSplitTurn: false,
			tokensBefore: 25000,
			previousSummary: "## Observations\n…",
			fileOps: { read: new Set(["README.md", "src/a.go"]), written: new Set(["src/b.go"]), edited: new Set(["src/a.go", "src/b.go"]) },
			settings: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
		},
		branchEntries: [{ type: "message", id: "k1" }],
		reason: "threshold",
		willRetry: false,
		signal,
	};
}

test("session_before_compact sends pi's preparation and returns the core's compaction", async () => {
	const usage = { input: 900, output: 120, totalTokens: 1020 };
	scripted.reset(() => envelope({ t: "compaction", summary: "## Observations\n* 🔴 tabs", details: { schemaVersion: 1 }, firstKeptEntryId: "k7", tokensBefore: 25000, usage }));
	const pi = started();
	const [result] = await pi.emit("session_before_compact", compactEvent(), fakeContext({ model: { provider: "fake", id: "m", contextWindow: 32000 } }).ctx);
	assert.deepEqual(inputsOf("session_before_compact"), [
		{
			branch: [{ type: "message", id: "k1" }],
			firstKeptEntryId: "k7",
			previousSummary: "## Observations\n…",
			fileOps: { read: ["README.md", "src/a.go"], modified: ["src/b.go", "src/a.go"] },
			tokensBefore: 25000,
			reason: "threshold",
			window: 32000,
		},
	]);
	assert.deepEqual(result, { compaction: { summary: "## Observations\n* 🔴 tabs", details: { schemaVersion: 1 }, firstKeptEntryId: "k7", tokensBefore: 25000, usage } });
});

test("session_before_compact leaves pi's own compaction when the core sends none", async () => {
	scripted.reset();
	const pi = started();
	assert.deepEqual(await pi.emit("session_before_compact", compactEvent(), fakeContext().ctx), [undefined]);
});

test("an uncovered compaction waits for its bounded model call, aborted by the compaction's signal", async () => {
	scripted.reset((exportName) =>
		exportName === "session_before_compact"
			? envelope({ t: "complete", id: "o1", system: "You are the observer", prompt: "transcript", maxTokens: 4000, timeoutMs: 60000 })
			: envelope({ t: "session_entry", customType: "pi-memory-om", data: { v: 1 } }, { t: "compaction", summary: "S", details: { schemaVersion: 1 }, firstKeptEntryId: "k7", tokensBefore: 25000 }),
	);
	const pi = started();
	const cancel = new AbortController();
	let seen: AbortSignal | undefined;
	const { ctx } = fakeContext({
		complete: async (_m, _c, options) => {
			seen = (options as { signal: AbortSignal }).signal;
			return reply("* 🔴 (10:00) observed");
		},
	});
	const [result] = await pi.emit("session_before_compact", compactEvent(cancel.signal), ctx);
	assert.deepEqual(inputsOf("resume"), [{ id: "o1", value: { text: "* 🔴 (10:00) observed", stopReason: "stop" } }]);
	assert.deepEqual(pi.entries, [{ customType: "pi-memory-om", data: { v: 1 } }]);
	assert.equal((result as { compaction: { summary: string } }).compaction.summary, "S");
	assert.equal(seen?.aborted, false);
	cancel.abort();
	assert.equal(seen?.aborted, true, "the call's signal follows the compaction's");
});

test("session_before_tree sends the entries to summarize and returns the core's branch summary", async () => {
	scripted.reset(() => envelope({ t: "branch_summary", summary: "## Observations\n…", details: { schemaVersion: 1 } }));
	const pi = started();
	const entries = [{ type: "message", id: "b1" }];
	const event = { preparation: { targetId: "t", oldLeafId: "b1", commonAncestorId: null, entriesToSummarize: entries, userWantsSummary: true }, signal: new AbortController().signal };
	const [result] = await pi.emit("session_before_tree", event, fakeContext().ctx);
	assert.deepEqual(inputsOf("session_before_tree"), [{ entries, userWantsSummary: true }]);
	assert.deepEqual(result, { summary: { summary: "## Observations\n…", details: { schemaVersion: 1 } } });
	scripted.reset();
	assert.deepEqual(await pi.emit("session_before_tree", event, fakeContext().ctx), [undefined]);
});

// ---- complete: model, timeout, usage -------------------------------------------------------

const models = [
	{ provider: "fake", id: "fake-model", contextWindow: 32000 },
	{ provider: "other", id: "small" },
	{ provider: "fake", id: "small" },
	{ provider: "router", id: "vendor/big" },
	{ provider: "anthropic", id: "claude-haiku-4-5", auth: false },
	{ provider: "locked", id: "small", auth: false },
	{ provider: "open", id: "mid" },
	{ provider: "locked", id: "mid", auth: false },
];

async function completeWith(effect: object, options: FakeContextOptions): Promise<{ value: unknown; completions: unknown[][] }> {
	scripted.reset((exportName) => (exportName === "agent_end" ? envelope({ t: "complete", id: "c", prompt: "p", maxTokens: 10, ...effect } as Envelope["effects"][number]) : envelope()));
	const pi = started();
	const f = fakeContext({ models, ...options });
	await pi.emit("agent_end", { messages: [] }, f.ctx);
	return { value: (inputsOf("resume")[0] as { value: unknown } | undefined)?.value, completions: f.completions };
}

test("complete calls the model it names, resolved in pi's registry, and resumes with the text and pi's usage", async () => {
	const usage = { input: 10, output: 2, totalTokens: 12, cost: { total: 0 } };
	const cases: [string, string | undefined, object][] = [
		["the session's model", undefined, { provider: "fake", id: "fake-model" }],
		["empty is the session's model", "", { provider: "fake", id: "fake-model" }],
		["provider/id", "other/small", models[1]!],
		["an id, preferring the session's provider", "small", models[2]!],
		["an id holding a slash, after its provider", "router/vendor/big", models[3]!],
		["an id, of a provider with credentials only", "mid", models[6]!],
	];
	for (const [name, model, want] of cases) {
		const { value, completions } = await completeWith(model === undefined ? {} : { model }, { model: { provider: "fake", id: "fake-model" }, complete: async () => reply("obs", usage) });
		assert.deepEqual(completions[0]?.[0], want, name);
		assert.deepEqual(value, { text: "obs", stopReason: "stop", usage }, name);
	}
});

test("a model pi cannot use resumes with the fact (noModel) for the core to word, and no call is made", async () => {
	const cases: [string, FakeContextOptions, string, object][] = [
		["unknown provider/id", {}, "gemini/gemini-2.5-flash", { error: `no model "gemini/gemini-2.5-flash" in pi's registry`, noModel: "unknown" }],
		["provider/id is exact: no fallback to an id holding a slash", {}, "vendor/big", { error: `no model "vendor/big" in pi's registry`, noModel: "unknown" }],
		["unknown id", {}, "nope", { error: `no model "nope" in pi's registry`, noModel: "unknown" }],
		["provider/id without credentials", {}, "anthropic/claude-haiku-4-5", { error: "no credentials for anthropic", noModel: "no-credentials", provider: "anthropic" }],
		["an id only of a provider without credentials", {}, "claude-haiku-4-5", { error: "no credentials for anthropic", noModel: "no-credentials", provider: "anthropic" }],
		["no session model", { model: undefined }, "", { error: "no model is selected", noModel: "no-model" }],
	];
	for (const [name, options, model, want] of cases) {
		const { value, completions } = await completeWith(model === "" ? {} : { model }, { ...options, complete: async () => reply("x") });
		assert.equal(completions.length, 0, name);
		assert.deepEqual(value, want, name);
	}
});

test("an empty or cut-off reply resumes with its text and stop reason: what it means is the core's to say", async () => {
	const cases: [string, object, object][] = [
		["cut off", { role: "assistant", stopReason: "length", content: [{ type: "text", text: "* 🔴 (10:00) half" }] }, { text: "* 🔴 (10:00) half", stopReason: "length" }],
		["only thinking", { role: "assistant", stopReason: "length", content: [{ type: "thinking", thinking: "hm" }] }, { text: "", stopReason: "length" }],
		["empty", { role: "assistant", stopReason: "stop", content: [] }, { text: "", stopReason: "stop" }],
	];
	for (const [name, answer, want] of cases) {
		const { value } = await completeWith({}, { complete: async () => answer });
		assert.deepEqual(value, want, name);
	}
});

// A model call that answers only when aborted (as pi's complete does, with stopReason
// "aborted"); signal() is the signal it was given.
function hangingComplete(): { complete: NonNullable<FakeContextOptions["complete"]>; signal: () => AbortSignal | undefined } {
	let given: AbortSignal | undefined;
	return {
		complete: (_m, _c, options) =>
			new Promise((resolve) => {
				given = (options as { signal: AbortSignal }).signal;
				given.addEventListener("abort", () => resolve({ role: "assistant", stopReason: "aborted", content: [], errorMessage: "Request was aborted" }));
			}),
		signal: () => given,
	};
}

test("timeoutMs aborts the call and resumes with the time it waited", async () => {
	const { value } = await completeWith({ timeoutMs: 30 }, { complete: hangingComplete().complete });
	assert.deepEqual(value, { error: "timed out after 30 ms" });
});

// ---- background calls ------------------------------------------------------------------------

function observerScript(after: Envelope = envelope({ t: "session_entry", customType: "pi-memory-om", data: { v: 1, op: "observe" } }, { t: "status", key: "pi-memory", text: "decisions 0 · om 1 obs ~21 tok" })): void {
	scripted.reset((exportName) => {
		if (exportName === "agent_settled") return envelope({ t: "status", key: "pi-memory", text: "decisions 0 · om 0 obs ~0 tok" }, { t: "complete", id: "bg1", system: "You are the observer", prompt: "transcript", maxTokens: 4000, background: true });
		if (exportName === "resume") return after;
		return envelope();
	});
}

test("a background call does not hold agent_settled: the answer is resumed later and its effects performed", async () => {
	observerScript();
	const pi = started();
	const answer = deferred<unknown>();
	const f = fakeContext({ complete: () => answer.promise });
	await pi.emit("agent_settled", { aborted: false }, f.ctx);
	assert.equal(f.completions.length, 1, "the call has started");
	assert.deepEqual(inputsOf("resume"), [], "the handler returned before the answer");
	assert.deepEqual(pi.entries, []);
	// Another event runs while the call is out.
	await pi.emit("context", { messages: conversation }, f.ctx);
	answer.resolve(reply("* 🔴 (10:00) observed", { input: 1, output: 1 }));
	await new Promise((r) => setTimeout(r, 10));
	assert.deepEqual(
		scripted.calls.map((c) => c.exportName),
		["agent_settled", "context", "resume"],
	);
	assert.deepEqual(inputsOf("resume"), [{ id: "bg1", value: { text: "* 🔴 (10:00) observed", stopReason: "stop", usage: { input: 1, output: 1 } } }]);
	assert.deepEqual(pi.entries, [{ customType: "pi-memory-om", data: { v: 1, op: "observe" } }]);
	assert.deepEqual(f.ui.at(-1), { method: "setStatus", args: ["pi-memory", "decisions 0 · om 1 obs ~21 tok"] });
});

test("a core failure after a background call is reported like any other, once", async (t) => {
	quietErrors(t);
	scripted.reset((exportName) => {
		if (exportName === "agent_settled") return envelope({ t: "complete", id: "bg1", prompt: "p", maxTokens: 10, background: true });
		throw new Error("resume refused");
	});
	const pi = started();
	const f = fakeContext({ complete: async () => reply("x") });
	await pi.emit("agent_settled", { aborted: false }, f.ctx);
	await pi.emit("session_shutdown", { reason: "quit" }, f.ctx);
	assert.deepEqual(
		f.ui.filter((c) => c.method === "notify").map((c) => c.args),
		[["pi-memory failed (resume refused); the turn goes on without memory. Details are on stderr.", "error"]],
	);
});

test("session_shutdown waits for a background call and its resume before the core's shutdown", async () => {
	observerScript();
	const pi = started();
	const f = fakeContext({ complete: () => new Promise((r) => setTimeout(() => r(reply("late but kept")), 30)) });
	await pi.emit("agent_settled", { aborted: false }, f.ctx);
	await pi.emit("session_shutdown", { reason: "quit" }, f.ctx);
	assert.deepEqual(
		scripted.calls.map((c) => c.exportName),
		["agent_settled", "resume", "session_shutdown"],
	);
	assert.deepEqual(pi.entries.length, 1);
	assert.equal(scripted.closed, 1);
});

test("session_shutdown aborts a background call still out after its bound, hands the error to the core, and goes on", async (t) => {
	const errors = quietErrors(t);
	t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
	observerScript(envelope());
	const pi = started();
	const hanging = hangingComplete();
	const f = fakeContext({ complete: hanging.complete });
	await pi.emit("agent_settled", { aborted: false }, f.ctx);
	const closing = pi.emit("session_shutdown", { reason: "quit" }, f.ctx);
	await new Promise((r) => setImmediate(r));
	assert.deepEqual(inputsOf("session_shutdown"), [], "still waiting within the bound");
	t.mock.timers.tick(mod.BACKGROUND_BOUND_MS);
	await closing;
	assert.equal(hanging.signal()?.aborted, true);
	assert.deepEqual(
		scripted.calls.map((c) => [c.exportName, c.input]),
		[
			["agent_settled", { branch: [], window: 0, aborted: false }],
			["resume", { id: "bg1", value: { error: "Request was aborted" } }],
			["session_shutdown", { reason: "quit", waitedMs: mod.BACKGROUND_BOUND_MS }],
		],
	);
	// (Node may print an ExperimentalWarning for the mock timers through console.error too.)
	assert.ok(
		errors.calls.some((c) => /1 background call\(s\) \(model or Hindsight\) still running after 20000 ms at shutdown; aborted/.test(String(c[0]))),
		JSON.stringify(errors.calls),
	);
});

test("session_shutdown waits for a background call no longer than its exitMs", async (t) => {
	quietErrors(t);
	t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
	scripted.reset((exportName) =>
		exportName === "agent_settled"
			? envelope({ t: "complete", id: "bg1", system: "You are the observer", prompt: "transcript", maxTokens: 4000, background: true, exitMs: 5000 })
			: envelope(),
	);
	const pi = started();
	const hanging = hangingComplete();
	const f = fakeContext({ complete: hanging.complete });
	await pi.emit("agent_settled", { aborted: false }, f.ctx);
	const closing = pi.emit("session_shutdown", { reason: "quit" }, f.ctx);
	await new Promise((r) => setImmediate(r));
	t.mock.timers.tick(5000);
	await closing;
	assert.equal(hanging.signal()?.aborted, true, "aborted at its exitMs, not at the adapter's 20 s");
	assert.deepEqual(scripted.calls.map((c) => c.exportName), ["agent_settled", "resume", "session_shutdown"]);
});

test("session_shutdown also waits for a background call that an answer planned", async () => {
	let n = 0;
	scripted.reset((exportName) => {
		if (exportName === "agent_settled") return envelope({ t: "complete", id: "obs", prompt: "p", maxTokens: 10, background: true });
		if (exportName === "resume" && ++n === 1) return envelope({ t: "complete", id: "refl", prompt: "p", maxTokens: 10, background: true });
		if (exportName === "resume") return envelope({ t: "session_entry", customType: "pi-memory-om", data: { op: "reflect" } });
		return envelope();
	});
	const pi = started();
	const f = fakeContext({ complete: () => new Promise((r) => setTimeout(() => r(reply("x")), 20)) });
	await pi.emit("agent_settled", { aborted: false }, f.ctx);
	await pi.emit("session_shutdown", { reason: "quit" }, f.ctx);
	assert.deepEqual(
		scripted.calls.map((c) => c.exportName),
		["agent_settled", "resume", "resume", "session_shutdown"],
	);
	assert.deepEqual(pi.entries, [{ customType: "pi-memory-om", data: { op: "reflect" } }]);
});

test("an editor dialog (for /om config edit) opens pi's editor with the text and resumes with the edited text, null when dismissed", async () => {
	for (const [edited, want] of [["{\n  \"observerTokens\": 20000\n}", "{\n  \"observerTokens\": 20000\n}"], [undefined, null]] as const) {
		scripted.reset((exportName) => (exportName === "command" ? envelope({ t: "dialog", id: "ed", kind: "editor", title: "Edit .pi/om-config.json", prefill: "{}" }) : envelope()));
		const pi = started();
		const f = fakeContext(edited === undefined ? {} : { editor: edited });
		await pi.command("om", "config edit", f.ctx);
		assert.deepEqual(f.ui, [{ method: "editor", args: ["Edit .pi/om-config.json", "{}"] }]);
		assert.deepEqual(inputsOf("resume"), [{ id: "ed", value: want }]);
	}
});
