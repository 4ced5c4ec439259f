// The extension's translation between pi and the core, on a fake pi (fake-pi.ts):
// first against a scripted core (every effect kind, dialogs, model calls, failures),
// then against the real TinyGo core that ships in ts/core.wasm.

import test, { type TestContext } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { Effect } from "../core.ts";
import { BUILDS, assertCurrent } from "./builds.ts";
import { AGENT_DIR, CoreTrap, FakePi, envelope, fakeContext, scripted, type UiCall } from "./fake-pi.ts";

type Factory = (pi: ExtensionAPI) => void;

async function load(variant: "scripted" | "real"): Promise<Factory> {
	const mod = (await import(new URL(`../index.ts?${variant}`, import.meta.url).href)) as { default: Factory };
	return mod.default;
}

// What the adapter names the shipped module by: the SHA-256 of ts/core.wasm.
const CORE_SHA256 = createHash("sha256").update(fs.readFileSync(new URL("../core.wasm", import.meta.url))).digest("hex");

const scriptedFactory = await load("scripted");
// The transcript view of command output, from the module pi loads (after fake-pi's hook).
const { LOG_MAX_BYTES, outputView, trustFacts, wrapPlain } = (await import(new URL("../index.ts?real", import.meta.url).href)) as typeof import("../index.ts");
const realFactory = await load("real");

function started(factory: Factory): FakePi {
	const pi = new FakePi();
	factory(pi.api);
	return pi;
}

function quietErrors(t: TestContext): { calls: unknown[][] } {
	const m = t.mock.method(console, "error", () => {});
	return { get calls() { return m.mock.calls.map((c) => c.arguments); } };
}

// What the person was shown: notices, and command output in the transcript (as [text, "output"]).
function notices(ui: UiCall[]): unknown[][] {
	return ui.filter((c) => c.method === "notify" || c.method === "message").map((c) => (c.method === "message" ? [c.args[0], "output"] : c.args));
}

const userTurn = { messageType: "user", prompt: "fix the build", systemPrompt: "BASE" };

// ---- Scripted core -----------------------------------------------------------------------

test("the factory registers --no-memory, /decision, /decisions, /memory, /om (its short forms through input), /hindsight, the core's tools inactive, and the forwarded events", () => {
	scripted.reset();
	const pi = started(scriptedFactory);
	assert.equal(pi.flags.get("no-memory")?.type, "boolean");
	assert.deepEqual([...pi.commands.keys()], [
		"decision", "decisions", "memory", "om", "hindsight",
	]);
	assert.deepEqual([...pi.tools.keys()], ["memory_search", "memory_forget", "memory_restore", "decision_propose", "memory_remember", "hindsight_recall", "hindsight_retain", "hindsight_reflect", "hindsight_status"]);
	assert.ok([...pi.tools.values()].every((t) => t.defaultActive === false));
	assert.deepEqual([...pi.handlers.keys()].sort(), ["agent_end", "agent_settled", "before_agent_start", "context", "input", "session_before_compact", "session_before_tree", "session_shutdown", "session_start"]);
	assert.deepEqual(scripted.calls, [], "nothing is called before session_start");
});

test("the factory never throws, even when pi refuses a registration", (t) => {
	scripted.reset();
	const errors = quietErrors(t);
	const pi = new FakePi();
	pi.registerFlag = () => {
		throw new Error("flag conflict");
	};
	assert.doesNotThrow(() => scriptedFactory(pi.api));
	assert.match(String(errors.calls[0]?.[0]), /could not load/);
});

test("the factory starts building the core before any event", () => {
	scripted.reset();
	started(scriptedFactory);
	assert.equal(scripted.prepared, 1);
	assert.deepEqual(scripted.calls, []);
});

test("session_start sends what pi knows about the session", async () => {
	scripted.reset();
	const pi = started(scriptedFactory);
	pi.flagValues.set("no-memory", true);
	process.env.PI_MEMORY_FAULT = "agent_end";
	const saved = { scope: process.env.PI_OM_SCOPE, sqlite: process.env.PI_OM_SQLITE, path: process.env.PI_OM_SQLITE_PATH };
	process.env.PI_OM_SCOPE = "resource";
	process.env.PI_OM_SQLITE_PATH = "/tmp/om.sqlite";
	delete process.env.PI_OM_SQLITE; // unset variables are not passed
	try {
		const branch = [{ type: "custom", id: "e1", parentId: null, customType: "pi-memory-om", data: { v: 1 } }];
		const models = [
			{ provider: "fake", id: "m", contextWindow: 32000 },
			{ provider: "anthropic", id: "claude-haiku-4-5", auth: false },
		];
		const { ctx } = fakeContext({ hasUI: false, mode: "print", cwd: "/work/app", trusted: false, branch, sessionId: "s-42", model: { provider: "fake", id: "m", contextWindow: 32000 }, models });
		await pi.emit("session_start", { reason: "resume" }, ctx);
	} finally {
		delete process.env.PI_MEMORY_FAULT;
		for (const [k, v] of [["PI_OM_SCOPE", saved.scope], ["PI_OM_SQLITE", saved.sqlite], ["PI_OM_SQLITE_PATH", saved.path]] as const) {
			if (v === undefined) delete process.env[k];
			else process.env[k] = v;
		}
	}
	assert.deepEqual(scripted.calls, [
		{
			exportName: "session_start",
			input: {
				cwd: "/work/app",
				agentDir: AGENT_DIR,
				home: os.homedir(),
				trusted: false,
				trust: { approve: null, judged: false, store: null, default: null },
				hasUI: false,
				mode: "print",
				reason: "resume",
				flags: { "no-memory": true },
				moduleSha256: CORE_SHA256,
				argv: process.argv.slice(2),
				fault: "agent_end",
				branch: [{ type: "custom", id: "e1", parentId: null, customType: "pi-memory-om", data: { v: 1 } }],
				sessionId: "s-42",
				zone: -new Date().getTimezoneOffset(),
				window: 32000,
				models: ["fake/m"],
				env: { PI_OM_SCOPE: "resource", PI_OM_SQLITE_PATH: "/tmp/om.sqlite" },
			},
		},
	]);
});

// The core judges trust (decision 016) by what pi decides it by: its command line's
// --approve/--no-approve as pi parses it, whether pi judged a resource of its own, its
// trust store's text and its defaultProjectTrust, read from pi's agent folder.
test("session_start forwards the facts pi decides trust by, read from pi's files as they are", (t) => {
	const agent = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-trust-"));
	t.after(() => fs.rmSync(agent, { recursive: true, force: true }));
	assert.deepEqual(trustFacts("/work/app", ["-p", "hi"], agent), { approve: null, judged: false, store: null, default: null });
	fs.writeFileSync(path.join(agent, "trust.json"), '\uFEFF{"/work": true}\n');
	fs.writeFileSync(path.join(agent, "settings.json"), '{"defaultProjectTrust": "never", "quietStartup": true}');
	assert.deepEqual(trustFacts("/work/app", ["--no-approve", "-p", "hi"], agent), { approve: false, judged: false, store: '{"/work": true}\n', default: "never" });
	assert.equal(trustFacts("/work/app", ["-a"], agent).approve, true);
	process.env.PIMEM_FAKE_JUDGED = "1";
	try {
		assert.equal(trustFacts("/work/app", [], agent).judged, true);
	} finally {
		delete process.env.PIMEM_FAKE_JUDGED;
	}
	// A settings file pi cannot parse is no settings to pi: "ask", which the core reads from null.
	fs.writeFileSync(path.join(agent, "settings.json"), "{ not json");
	assert.equal(trustFacts("/work/app", [], agent).default, null);
	// A store that cannot be read is said, not taken as "no entry".
	fs.rmSync(path.join(agent, "trust.json"));
	fs.mkdirSync(path.join(agent, "trust.json"));
	assert.match(trustFacts("/work/app", [], agent).storeError ?? "", /not a regular file/);
});

test("every command name reaches the command export as typed (/decisions as decisions: the core resolves aliases), with the branch as it is now", async () => {
	scripted.reset();
	const pi = started(scriptedFactory);
	const branch = [{ type: "message", id: "m1", parentId: null, message: { role: "user", content: "hi" } }];
	const { ctx } = fakeContext({ hasUI: true, branch });
	await pi.command("decision", 'add "Use tabs"', ctx);
	await pi.command("decisions", "list", ctx);
	await pi.command("memory", "remember project Use tabs", ctx);
	assert.deepEqual(scripted.calls, [
		{ exportName: "command", input: { name: "decision", args: 'add "Use tabs"', hasUI: true, branch } },
		{ exportName: "command", input: { name: "decisions", args: "list", hasUI: true, branch } },
		{ exportName: "command", input: { name: "memory", args: "remember project Use tabs", hasUI: true, branch } },
	]);
});

test("a command's output goes to the transcript; notify and status effects become ui calls, in order", async () => {
	scripted.reset(() =>
		envelope(
			{ t: "output", text: "2 active decisions" },
			{ t: "notify", level: "warning", text: "1 problem line" },
			{ t: "status", key: "pi-memory", text: "decisions 2 · notes 3" },
			{ t: "status", key: "pi-memory", text: null },
			{ t: "notify", level: "error", text: "could not read" },
		),
	);
	const pi = started(scriptedFactory);
	const { ctx, ui } = fakeContext();
	await pi.command("decision", "list", ctx);
	assert.deepEqual(pi.sent, [{ customType: "pi-memory-output", content: "2 active decisions", display: true, details: { command: "/decision list" } }]);
	assert.ok(pi.renderers.has("pi-memory-output"), "with its own renderer");
	assert.deepEqual(ui, [
		{ method: "message", args: ["2 active decisions", { command: "/decision list" }] },
		{ method: "notify", args: ["1 problem line", "warning"] },
		{ method: "setStatus", args: ["pi-memory", "decisions 2 · notes 3"] },
		{ method: "setStatus", args: ["pi-memory", undefined] },
		{ method: "notify", args: ["could not read", "error"] },
	]);
});

test("without a UI, output and notices go to stderr and a refused command sets pi's exit code", async (t) => {
	scripted.reset(() => ({ ...envelope({ t: "output", text: "not added: duplicate of D-2026-11-21-0001" }, { t: "notify", level: "warning", text: "1 problem line\n" }, { t: "status", key: "pi-memory", text: "decisions 2 · notes 3" }), exit: 1 }));
	const stderr = t.mock.method(process.stderr, "write", () => true);
	const before = process.exitCode;
	t.after(() => void (process.exitCode = before));
	const pi = started(scriptedFactory);
	const { ctx, ui } = fakeContext({ hasUI: false, mode: "print" });
	await pi.command("decision", "add Use tabs", ctx);
	const written = stderr.mock.calls.map((c) => String(c.arguments[0]));
	process.exitCode = before; // before any assertion can fail the run
	assert.deepEqual(written, ["not added: duplicate of D-2026-11-21-0001\n", "1 problem line\n"]);
	assert.deepEqual(ui, [{ method: "setStatus", args: ["pi-memory", "decisions 2 · notes 3"] }]);
	stderr.mock.restore();
	// With a UI the same envelope is an output message and a notice, and pi's exit code is left alone.
	process.exitCode = undefined;
	const withUI = fakeContext({ hasUI: true });
	await pi.command("decision", "add Use tabs", withUI.ctx);
	assert.equal(process.exitCode, undefined);
	assert.deepEqual(notices(withUI.ui), [["not added: duplicate of D-2026-11-21-0001", "output"], ["1 problem line\n", "warning"]]);
});

test("a refused command without a UI leaves exit code 1 for pi", async (t) => {
	scripted.reset(() => ({ ...envelope({ t: "output", text: "refused" }), exit: 1 }));
	t.mock.method(process.stderr, "write", () => true);
	const before = process.exitCode;
	t.after(() => void (process.exitCode = before));
	const pi = started(scriptedFactory);
	await pi.command("decision", "add x", fakeContext({ hasUI: false }).ctx);
	const got = process.exitCode;
	process.exitCode = before;
	assert.equal(got, 1);
});

test("before_agent_start appends to this run's system prompt and injects the message", async () => {
	scripted.reset(() =>
		envelope(
			{ t: "system_prompt_append", text: "\n\n## Project decisions\n" },
			{ t: "system_prompt_append", text: "D-1 | Use tabs\n" },
			{ t: "message", customType: "pi-memory-recall", content: "recalled: tabs", display: false },
		),
	);
	const pi = started(scriptedFactory);
	const { ctx } = fakeContext();
	const [result] = await pi.emit("before_agent_start", userTurn, ctx);
	assert.deepEqual(scripted.calls[0], { exportName: "before_agent_start", input: { prompt: "fix the build", messageType: "user" } });
	assert.deepEqual(result, {
		systemPrompt: "BASE\n\n## Project decisions\nD-1 | Use tabs\n",
		message: { customType: "pi-memory-recall", content: "recalled: tabs", display: false },
	});
});

test("before_agent_start with nothing to inject returns nothing; a custom message's text is the prompt", async () => {
	scripted.reset();
	const pi = started(scriptedFactory);
	const { ctx } = fakeContext();
	const custom = { messageType: "custom", systemPrompt: "BASE", message: { customType: "x", content: [{ type: "text", text: "go on" }], display: true } };
	assert.deepEqual(await pi.emit("before_agent_start", custom, ctx), [undefined]);
	assert.deepEqual(scripted.calls[0]?.input, { prompt: "go on", messageType: "custom" });
});

test("argument completion asks the core's complete export and hands pi its items", async () => {
	const items = [{ value: "show D-2026-11-27-0002 ", label: "D-2026-11-27-0002", description: "active · Use pnpm" }];
	scripted.reset((exportName) => (exportName === "complete" ? envelope({ t: "output", text: JSON.stringify(items) }) : envelope()));
	const pi = started(scriptedFactory);
	const decision = pi.commands.get("decision") as unknown as { getArgumentCompletions: (p: string) => Promise<unknown> };
	assert.deepEqual(await decision.getArgumentCompletions("show 02"), items);
	assert.deepEqual(scripted.calls.at(-1), { exportName: "complete", input: { name: "decision", args: "show 02" } });
	scripted.reset(() => envelope({ t: "output", text: "[]" }));
	assert.equal(await decision.getArgumentCompletions("add x"), null, "nothing to offer: null, as pi wants");
});

test("a dialog is shown, its answer resumed, and the resumed envelope performed", async () => {
	const dialogs: [Effect, Effect, Effect] = [
		{ t: "dialog", id: "k1", kind: "select", title: "Near-duplicate of D-1", options: ["Update D-1", "Add anyway", "Cancel"] },
		{ t: "dialog", id: "k2", kind: "input", title: "Why?", placeholder: "reason (required)" },
		{ t: "dialog", id: "k3", kind: "confirm", title: "Remove all?", message: "12 decisions" },
	];
	scripted.reset((exportName, input) => {
		if (exportName === "command") return envelope({ t: "notify", level: "info", text: "checking" }, dialogs[0]);
		const { id } = input as { id: string };
		if (id === "k1") return envelope(dialogs[1]);
		if (id === "k2") return envelope(dialogs[2]);
		return envelope({ t: "output", text: "done" });
	});
	const pi = started(scriptedFactory);
	const { ctx, ui } = fakeContext({ select: "Add anyway", input: "it changed", confirm: true });
	await pi.command("decision", "add tabs", ctx);
	assert.deepEqual(
		scripted.calls.map((c) => c.input),
		[
			{ name: "decision", args: "add tabs", hasUI: true, branch: [] },
			{ id: "k1", value: "Add anyway" },
			{ id: "k2", value: "it changed" },
			{ id: "k3", value: true },
		],
	);
	assert.deepEqual(ui, [
		{ method: "notify", args: ["checking", "info"] },
		{ method: "select", args: ["Near-duplicate of D-1", ["Update D-1", "Add anyway", "Cancel"]] },
		{ method: "input", args: ["Why?", "reason (required)"] },
		{ method: "confirm", args: ["Remove all?", "12 decisions"] },
		{ method: "message", args: ["done", { command: "/decision add tabs" }] },
	]);
});

test("a dismissed select or input resumes with null", async () => {
	scripted.reset((exportName, input) => {
		if (exportName === "command") return envelope({ t: "dialog", id: "s", kind: "select", title: "Pick", options: ["a"] });
		const { id } = input as { id: string };
		return id === "s" ? envelope({ t: "dialog", id: "i", kind: "input", title: "Text" }) : envelope();
	});
	const pi = started(scriptedFactory);
	const { ctx } = fakeContext({ hasUI: false });
	await pi.command("decision", "x", ctx);
	assert.deepEqual(
		scripted.calls.slice(1).map((c) => c.input),
		[
			{ id: "s", value: null },
			{ id: "i", value: null },
		],
	);
});

test("complete calls the current model and resumes with its text", async () => {
	scripted.reset((exportName) =>
		exportName === "agent_end" ? envelope({ t: "complete", id: "c1", system: "Classify.", prompt: "the turn", maxTokens: 200 }) : envelope({ t: "notify", level: "info", text: "classified" }),
	);
	const pi = started(scriptedFactory);
	const signal = new AbortController().signal;
	const model = { provider: "fake", id: "m" };
	const { ctx, completions, ui } = fakeContext({
		model,
		signal,
		complete: async () => ({ role: "assistant", stopReason: "stop", content: [{ type: "thinking", thinking: "hm" }, { type: "text", text: "KEEP" }] }),
	});
	await pi.emit("agent_end", { messages: [] }, ctx);
	assert.equal(completions.length, 1);
	const [usedModel, context, options] = completions[0] ?? [];
	assert.equal(usedModel, model);
	assert.deepEqual((context as { systemPrompt: string }).systemPrompt, "Classify.");
	assert.deepEqual((context as { messages: { role: string; content: unknown }[] }).messages.map((m) => [m.role, m.content]), [["user", [{ type: "text", text: "the turn" }]]]);
	assert.deepEqual(options, { maxTokens: 200, signal });
	assert.deepEqual(scripted.calls[1]?.input, { id: "c1", value: { text: "KEEP", stopReason: "stop" } });
	assert.deepEqual(notices(ui), [["classified", "info"]]);
});

test("a failed, aborted or impossible model call resumes with an error", async () => {
	const cases: [string, Parameters<typeof fakeContext>[0], unknown][] = [
		["error result", { complete: async () => ({ stopReason: "error", errorMessage: "rate limited", content: [] }) }, { error: "rate limited" }],
		["aborted", { complete: async () => ({ stopReason: "aborted", content: [] }) }, { error: "the model call ended: aborted" }],
		["throws", { complete: async () => Promise.reject(new Error("no auth")) }, { error: "no auth" }],
		["no model", { model: undefined }, { error: "no model is selected", noModel: "no-model" }],
	];
	for (const [name, options, want] of cases) {
		scripted.reset((exportName) => (exportName === "agent_end" ? envelope({ t: "complete", id: "c", prompt: "p", maxTokens: 10 }) : envelope()));
		const pi = started(scriptedFactory);
		await pi.emit("agent_end", { messages: [] }, fakeContext(options).ctx);
		assert.deepEqual(scripted.calls[1]?.input, { id: "c", value: want }, name);
	}
});

// A search of thousands of earlier sessions is done in slices (decision 018): between two, the
// core asks for nothing (an http ask of no request), and the adapter answers it only once pi's
// event loop has run. What was queued meanwhile (a timer, pi's RPC, another handler) runs before
// the next slice, never after the whole search.
test("an http ask of no request is answered after the event loop has run: what was queued meanwhile runs between the slices", async () => {
	const order: string[] = [];
	let slices = 0;
	scripted.reset((exportName) => {
		if (exportName !== "tool" && exportName !== "resume") return envelope();
		order.push(`slice ${++slices}`);
		// Queued while the core holds the thread: a timer's callback, as pi's RPC or TUI would be.
		setImmediate(() => order.push(`queued during slice ${slices}`));
		return slices < 3 ? envelope({ t: "http", id: `next-${slices}`, requests: [] }) : envelope({ t: "tool_result", text: "1 match" });
	});
	const pi = started(scriptedFactory);
	const result = await pi.tools.get("memory_search")!.execute("c1", { query: "deploy" }, undefined, undefined, fakeContext().ctx);
	assert.deepEqual(result, { content: [{ type: "text", text: "1 match" }], details: undefined, isError: false });
	assert.deepEqual(order.slice(0, 5), ["slice 1", "queued during slice 1", "slice 2", "queued during slice 2", "slice 3"]);
	assert.deepEqual(
		scripted.calls.filter((c) => c.exportName === "resume").map((c) => c.input),
		[{ id: "next-1", value: [] }, { id: "next-2", value: [] }],
		"each ask of no request is resumed with no answer",
	);
});

test("agent_end reports the last assistant message's stop reason, whether the run was aborted, and the run's messages", async () => {
	const cases: [string, unknown[], AbortSignal | undefined, unknown][] = [
		["stopped", [{ role: "user" }, { role: "assistant", stopReason: "toolUse" }, { role: "toolResult" }, { role: "assistant", stopReason: "stop" }], undefined, { stopReason: "stop", aborted: false }],
		["escape", [{ role: "assistant", stopReason: "aborted" }], undefined, { stopReason: "aborted", aborted: true }],
		["signal", [{ role: "assistant", stopReason: "error" }], AbortSignal.abort(), { stopReason: "error", aborted: true }],
		["no reply", [{ role: "user" }], undefined, { stopReason: null, aborted: false }],
	];
	for (const [name, messages, signal, want] of cases) {
		scripted.reset();
		const pi = started(scriptedFactory);
		await pi.emit("agent_end", { messages }, fakeContext({ signal }).ctx);
		assert.deepEqual(scripted.calls[0]?.input, { ...(want as object), messages }, name);
	}
});

test("session_shutdown forwards the reason and how long it waited for background calls (none: 0 ms), and closes the core", async () => {
	scripted.reset();
	const pi = started(scriptedFactory);
	await pi.emit("session_shutdown", { reason: "quit" }, fakeContext().ctx);
	assert.deepEqual(scripted.calls, [{ exportName: "session_shutdown", input: { reason: "quit", waitedMs: 0 } }]);
	assert.equal(scripted.closed, 1);
});

test("a CoreTrap is reported once per session, the core recreated each time, and the handler returns nothing", async (t) => {
	const errors = quietErrors(t);
	scripted.reset((exportName) => {
		if (exportName === "before_agent_start") throw new CoreTrap("before_agent_start", "panic: boom\n");
		return envelope();
	});
	const pi = started(scriptedFactory);
	const { ctx, ui } = fakeContext({ mode: "rpc" });
	await pi.emit("session_start", { reason: "startup" }, ctx);
	assert.deepEqual(await pi.emit("before_agent_start", userTurn, ctx), [undefined]);
	assert.deepEqual(await pi.emit("before_agent_start", userTurn, ctx), [undefined]);
	assert.equal(scripted.recreated, 2);
	const shown = notices(ui);
	assert.equal(shown.length, 1);
	assert.match(String(shown[0]?.[0]), /restarted its core .*panic: boom.*the turn goes on/);
	assert.equal(shown[0]?.[1], "error");
	assert.equal(errors.calls.length, 2, "console.error every time");
	assert.match(String(errors.calls[0]?.[0]), /panic: boom/);
	// A new session may report again.
	await pi.emit("session_start", { reason: "new" }, ctx);
	await pi.emit("before_agent_start", userTurn, ctx);
	assert.equal(notices(ui).length, 2);
});

test("any other failure is reported but never thrown, and does not recreate the core", async (t) => {
	quietErrors(t);
	scripted.reset(() => {
		throw new Error("core.wasm is missing");
	});
	const pi = started(scriptedFactory);
	const { ctx, ui } = fakeContext({ mode: "rpc" });
	await pi.emit("session_start", { reason: "startup" }, ctx);
	await pi.command("decision", "list", ctx);
	assert.equal(scripted.recreated, 0);
	assert.deepEqual(notices(ui), [["pi-memory failed (core.wasm is missing); the turn goes on without memory. Details are on stderr.", "error"]]);
});

test("in pi's terminal a failure's details go to the log file, never to stderr, and the one notice names the file", async (t) => {
	const errors = quietErrors(t);
	const agent = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-agent-"));
	process.env.PIMEM_FAKE_AGENT_DIR = agent;
	t.after(() => delete process.env.PIMEM_FAKE_AGENT_DIR);
	scripted.reset((exportName) => {
		if (exportName === "before_agent_start") throw new CoreTrap("before_agent_start", "panic: boom\ngoroutine 1 [running]:\nmain.main()\n");
		if (exportName === "complete") throw new CoreTrap("complete", "", new Error('target "complete" does not exist'));
		return envelope();
	});
	scripted.replay = envelope({ t: "tools", active: [] }, { t: "status", key: "pi-memory", text: "memory off (/memory off)" });
	const pi = started(scriptedFactory);
	const { ctx, ui } = fakeContext({ mode: "tui" });
	await pi.emit("session_start", { reason: "startup" }, ctx);
	await pi.emit("before_agent_start", userTurn, ctx);
	assert.deepEqual(await pi.complete("memory", "of"), null);
	assert.equal(errors.calls.length, 0, "nothing on stderr, which is the screen");
	const log = fs.readFileSync(path.join(agent, "pi-memory-errors.log"), "utf8");
	assert.match(log, /core failed in before_agent_start:\npanic: boom\ngoroutine 1/);
	assert.match(log, /core failed in complete: target "complete" does not exist/);
	const shown = notices(ui);
	assert.equal(shown.length, 1, JSON.stringify(shown));
	assert.equal(String(shown[0]?.[0]).split("\n").length, 1, "one line");
	assert.match(String(shown[0]?.[0]), /restarted its core .*panic: boom.*what you set is kept\. Details: .*pi-memory-errors\.log$/);
	assert.equal(scripted.recreated, 2, "a trap while completing restarts the core too");
	// What the replayed session start sets is applied: the footer and the tools as the person left them.
	assert.ok(ui.some((c) => c.method === "setStatus" && c.args[1] === "memory off (/memory off)"), JSON.stringify(ui));
	assert.deepEqual(pi.activeTools.filter((n) => n.startsWith("memory_")), []);
});

test("the log file is never written through a link, nor into a FIFO, and a large one is moved aside", async (t) => {
	quietErrors(t);
	const agent = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-agent-"));
	process.env.PIMEM_FAKE_AGENT_DIR = agent;
	t.after(() => delete process.env.PIMEM_FAKE_AGENT_DIR);
	const log = path.join(agent, "pi-memory-errors.log");
	const elsewhere = path.join(agent, "elsewhere");
	fs.writeFileSync(elsewhere, "theirs\n");
	fs.symlinkSync(elsewhere, log);
	scripted.reset((exportName) => {
		if (exportName === "command") throw new CoreTrap("command", "panic: boom\n");
		return envelope();
	});
	const pi = started(scriptedFactory);
	const { ctx } = fakeContext({ mode: "tui" });
	await pi.emit("session_start", { reason: "startup" }, ctx);
	await pi.command("decision", "list", ctx);
	assert.equal(fs.readFileSync(elsewhere, "utf8"), "theirs\n", "nothing written through the link");

	fs.rmSync(log);
	execFileSync("mkfifo", [log]);
	await pi.command("decision", "list", ctx); // would block for ever on a FIFO without a reader
	fs.rmSync(log);

	fs.writeFileSync(log, "x".repeat(LOG_MAX_BYTES + 1));
	await pi.command("decision", "list", ctx);
	assert.equal(fs.statSync(`${log}.1`).size, LOG_MAX_BYTES + 1, "the large log moved aside");
	assert.match(fs.readFileSync(log, "utf8"), /core failed in command/);
});

test("a ui that throws while effects are performed is reported, not thrown", async (t) => {
	quietErrors(t);
	scripted.reset(() => envelope({ t: "dialog", id: "k", kind: "select", title: "t", options: [] }));
	const pi = started(scriptedFactory);
	const { ctx } = fakeContext();
	ctx.ui.select = async () => {
		throw new Error("ui gone");
	};
	await assert.doesNotReject(pi.command("decision", "x", ctx));
});

// ---- The real core (ts/core.wasm) ----------------------------------------------------------

// Each test of the real core starts here: a missing or stale ts/core.wasm fails it,
// saying to run make wasm, rather than failing an assertion for no visible reason.
function project(): string {
	assertCurrent(BUILDS[0].file);
	const root = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-index-"));
	fs.mkdirSync(path.join(root, ".git"));
	return root;
}

test("real core: a session, a decision added through a near-duplicate dialog, and its injection", async () => {
	const root = project();
	const pi = started(realFactory);
	const { ctx, ui } = fakeContext({ cwd: root, select: "Add as a new decision anyway" });
	await pi.emit("session_start", { reason: "startup" }, ctx);
	await pi.command("decision", 'add "Use tabs for indentation"', ctx);
	await pi.command("decisions", 'add "Use tabs for indentation"', ctx);
	const [injected] = await pi.emit("before_agent_start", userTurn, ctx);
	await pi.emit("session_shutdown", { reason: "quit" }, ctx);

	assert.ok(ui.some((c) => c.method === "select" && /^New: .*Use tabs for indentation[\s\S]*\nExisting: D-.*\nNear-duplicate \(same text\)$/.test(String(c.args[0]))), JSON.stringify(ui));
	const added = notices(ui).filter(([text]) => String(text).startsWith("Added D-"));
	assert.equal(added.length, 2, JSON.stringify(ui));
	assert.ok(ui.some((c) => c.method === "setStatus" && c.args[0] === "pi-memory" && c.args[1] === "decisions 2"));
	assert.match((injected as { systemPrompt: string }).systemPrompt, /^BASE[\s\S]*Use tabs for indentation/);
	assert.equal(fs.readFileSync(path.join(root, ".pi", "decision-memory", "decisions.jsonl"), "utf8").trim().split("\n").length, 2);
});

test("real core: a fault in before_agent_start is reported once and pi goes on", async (t) => {
	const errors = quietErrors(t);
	const root = project();
	const pi = started(realFactory);
	const { ctx, ui } = fakeContext({ cwd: root, mode: "rpc" });
	process.env.PI_MEMORY_FAULT = "before_agent_start";
	try {
		await pi.emit("session_start", { reason: "startup" }, ctx);
	} finally {
		delete process.env.PI_MEMORY_FAULT;
	}
	assert.deepEqual(await pi.emit("before_agent_start", userTurn, ctx), [undefined]);
	assert.deepEqual(await pi.emit("before_agent_start", userTurn, ctx), [undefined]);
	const failures = notices(ui).filter(([, level]) => level === "error");
	assert.equal(failures.length, 1);
	assert.match(String(failures[0]?.[0]), /restarted its core .*fault injected in before_agent_start/);
	assert.ok(errors.calls.length >= 2);
	// The recreated core still has the session: commands work.
	await pi.command("decision", "help", ctx);
	assert.match(String(notices(ui).at(-1)?.[0]), /Usage: \/decision/);
});

test("real core: /reload keeps what the person set in the session it reloads, and only in that one", async () => {
	const root = project();
	const first = started(realFactory);
	const { ctx, ui } = fakeContext({ cwd: root });
	await first.emit("session_start", { reason: "startup" }, ctx);
	await first.command("memory", "off", ctx);
	await first.emit("session_shutdown", { reason: "reload" }, ctx);
	// pi builds the extension anew and starts the same session again.
	const second = started(realFactory);
	await second.emit("session_start", { reason: "reload" }, ctx);
	await second.command("decision", "add Use black for Python formatting", ctx);
	const statuses = ui.filter((c) => c.method === "setStatus").map((c) => c.args[1]);
	assert.equal(statuses.at(-1), "memory off (/memory off)", JSON.stringify(statuses));
	assert.equal(fs.existsSync(path.join(root, ".pi")), false, "still off: nothing written");
	await second.emit("session_shutdown", { reason: "reload" }, ctx);

	// Another session (its id differs) starts as its config says.
	const third = started(realFactory);
	const other = fakeContext({ cwd: root, sessionId: "another-session" });
	await third.emit("session_start", { reason: "reload" }, other.ctx);
	await third.command("decision", "status", other.ctx);
	assert.equal(other.ui.filter((c) => c.method === "setStatus").map((c) => c.args[1]).at(-1), "decisions 0");
	await third.emit("session_shutdown", { reason: "quit" }, other.ctx);
});

test("real core: /memory status ends with the release and the hash of the module pi loaded", async () => {
	const root = project();
	const pi = started(realFactory);
	const { ctx, ui } = fakeContext({ cwd: root });
	await pi.emit("session_start", { reason: "startup" }, ctx);
	await pi.command("memory", "status", ctx);
	const { version } = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
	const status = String(notices(ui).at(-1)?.[0]);
	assert.equal(status.split("\n").at(-1), `pi-memory ${version} (core sha256:${CORE_SHA256.slice(0, 12)})`, status);
});

test("real core: /om-status through its alias, an observer run after a settle, and its block in the next request", async (t) => {
	const root = project();
	// The project's om-config.json needs trust: pi's settings here say "always" (decision 016).
	const agent = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-agent-"));
	fs.writeFileSync(path.join(agent, "settings.json"), '{"defaultProjectTrust": "always"}');
	process.env.PIMEM_FAKE_AGENT_DIR = agent;
	t.after(() => {
		delete process.env.PIMEM_FAKE_AGENT_DIR;
		fs.rmSync(agent, { recursive: true, force: true });
	});
	fs.mkdirSync(path.join(root, ".pi"), { recursive: true });
	fs.writeFileSync(path.join(root, ".pi", "om-config.json"), JSON.stringify({ observerTokens: 1000 }));
	const at = new Date();
	const day = at.toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" });
	const hhmm = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
	const long = Array.from({ length: 80 }, (_, i) => `Step ${i}: edited src/parser.ts line ${i * 3} for token kind ${i}.`).join("\n");
	const branch = [
		{ type: "message", id: "u1", parentId: null, timestamp: at.toISOString(), message: { role: "user", content: "Rewrite the parser", timestamp: at.getTime() } },
		{ type: "message", id: "a1", parentId: "u1", timestamp: at.toISOString(), message: { role: "assistant", content: [{ type: "text", text: long }], stopReason: "stop", timestamp: at.getTime() } },
	];
	const pi = started(realFactory);
	const { ctx, ui, completions } = fakeContext({
		cwd: root,
		branch,
		model: { provider: "fake", id: "fake-model", contextWindow: 200000 },
		complete: async () => ({ role: "assistant", stopReason: "stop", content: [{ type: "text", text: `Date: ${day}\n* 🔴 (${hhmm}) User asked to rewrite the parser NODE-MARK` }], usage: { input: 1, output: 1 } }),
	});
	await pi.emit("session_start", { reason: "startup" }, ctx);
	const [handled] = await pi.emit("input", { text: "/om-status", source: "interactive" }, ctx);
	assert.deepEqual(handled, { action: "handled" });
	assert.match(String(notices(ui).at(-1)?.[0]), /^Observational memory: on/);

	await pi.emit("agent_settled", { aborted: false }, ctx);
	for (let i = 0; i < 100 && pi.entries.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
	assert.equal(completions.length, 1, "one observer call");
	assert.match(String((completions[0]?.[1] as { systemPrompt: string }).systemPrompt), /^You are the observer/);
	assert.equal(pi.entries.length, 1, JSON.stringify(ui));
	assert.equal(pi.entries[0]?.customType, "pi-memory-om");

	const messages = [{ role: "user", content: "go on", timestamp: at.getTime() }];
	const [result] = await pi.emit("context", { messages }, ctx);
	const custom = (result as { messages: { role: string; customType?: string; content?: string }[] }).messages.find((m) => m.role === "custom");
	assert.equal(custom?.customType, "observational-memory-context");
	assert.match(String(custom?.content), /<observations>[\s\S]*NODE-MARK/);
	await pi.emit("session_shutdown", { reason: "quit" }, ctx);
});


// pi's folder of a project's sessions (getDefaultSessionDir), under agent.
function sessionFolder(agent: string, cwd: string): string {
	return path.join(agent, "sessions", `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
}

// One earlier session of the project in pi's format: a header, then the user's messages.
function pastSession(folder: string, root: string, i: number, ...messages: string[]): string {
	const at = new Date(Date.UTC(2026, 5, 1) + i * 60_000).toISOString();
	const file = path.join(folder, `${at.replace(/[:.]/g, "-")}_s${i}.jsonl`);
	const lines = [{ type: "session", version: 3, id: `s${i}`, timestamp: at, cwd: root }, ...messages.map((content, m) => ({ type: "message", id: `m${m}`, timestamp: at, message: { role: "user", content } }))];
	fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
	return file;
}

// A project whose earlier sessions pi keeps in a temporary agent folder (PIMEM_FAKE_AGENT_DIR),
// both removed after the test.
function sessionsProject(t: TestContext): { root: string; folder: string } {
	const root = fs.realpathSync(project());
	const agent = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-agent-"));
	process.env.PIMEM_FAKE_AGENT_DIR = agent;
	t.after(() => {
		delete process.env.PIMEM_FAKE_AGENT_DIR;
		fs.rmSync(agent, { recursive: true, force: true });
		fs.rmSync(root, { recursive: true, force: true });
	});
	const folder = sessionFolder(agent, root);
	fs.mkdirSync(folder, { recursive: true });
	return { root, folder };
}

// The bytes this thread's fs.readSync reads from now until the test ends.
function countReads(t: TestContext): { bytes: number } {
	const count = { bytes: 0 };
	const readSync = fs.readSync;
	t.mock.method(fs, "readSync", (...a: Parameters<typeof fs.readSync>) => {
		const n = readSync(...a);
		count.bytes += n;
		return n;
	});
	return count;
}

// A search of 20,000 earlier sessions held pi's main thread for seconds in one call (issue 25,
// item 4). The core now works in slices and gives the thread back between them (decision 018):
// a slice is bounded by its work (files looked at, bytes read) as well as by its clock, so what
// is asserted here is the work one core call does between two turns of the event loop, and that
// a call made meanwhile is answered before the search ends; how long the loop was held is only
// reported (a shared machine's timings are no test).
// This is the core kept on pi's main thread (PIMEM_WORKER=off); the next test moves it.
test("real core: a search over 20,000 earlier sessions gives the event loop back between bounded slices, and a call made meanwhile is answered first", async (t) => {
	const { root, folder } = sessionsProject(t);
	process.env.PIMEM_WORKER = "off";
	t.after(() => void delete process.env.PIMEM_WORKER);
	const sessions = 20_000;
	for (let i = 0; i < sessions; i++) pastSession(folder, root, i, `session ${i}: deploying the billing service`);
	pastSession(folder, root, sessions, "we rotate the kubernetes certificates on fridays");

	const pi = started(realFactory);
	const { ctx } = fakeContext({ cwd: root, mode: "rpc" });
	await pi.emit("session_start", { reason: "startup" }, ctx);

	// What the core asks of the host between two turns of the event loop: files looked at and bytes read.
	let stats = 0;
	let bytes = 0;
	const stat = fs.statSync;
	const lstat = fs.lstatSync;
	const readSync = fs.readSync;
	t.mock.method(fs, "statSync", (...a: Parameters<typeof fs.statSync>) => (stats++, stat(...a)));
	t.mock.method(fs, "lstatSync", (...a: Parameters<typeof fs.lstatSync>) => (stats++, lstat(...a)));
	t.mock.method(fs, "readSync", (...a: Parameters<typeof fs.readSync>) => {
		const n = readSync(...a);
		bytes += n;
		return n;
	});
	const turns: Array<{ stats: number; bytes: number }> = [];
	let searching = true;
	let seen = { stats: 0, bytes: 0 };
	const order: string[] = [];
	const turn = (): void => {
		turns.push({ stats: stats - seen.stats, bytes: bytes - seen.bytes });
		seen = { stats, bytes };
		// A call pi makes meanwhile (its RPC's get_state, a command): answered between slices.
		if (turns.length === 3) void pi.command("memory", "status", ctx).then(() => order.push("status answered"));
		if (searching) setImmediate(turn);
	};
	const delay = monitorEventLoopDelay({ resolution: 1 });
	delay.enable();
	setImmediate(turn);
	const result = (await pi.tools.get("memory_search")!.execute("c1", { query: "kubernetes certificates" }, undefined, undefined, ctx)) as { content: Array<{ text: string }> };
	order.push("search answered");
	searching = false;
	delay.disable();

	const text = result.content[0]!.text;
	assert.match(text, /we rotate the kubernetes certificates on fridays/, "the newest session is read first");
	assert.deepEqual(order, ["status answered", "search answered"], "a call made during the search is answered before it ends");
	// A slice ends after 4 MiB of work (decision 018's SliceUnits): a file looked at is 1 KiB of it.
	const slice = 4 << 20;
	const maxStats = 2 * (slice / 1024 + 64); // a session's stat, and the guard's look at its folder
	const maxBytes = slice + (256 << 10); // and the last piece read
	assert.ok(turns.length > sessions / (slice / 1024), `the search gave the loop back ${turns.length} times`);
	for (const [i, w] of turns.entries()) {
		assert.ok(w.stats <= maxStats, `turn ${i}: ${w.stats} files looked at in one call`);
		assert.ok(w.bytes <= maxBytes, `turn ${i}: ${w.bytes} bytes read in one call`);
	}
	t.diagnostic(`${turns.length} turns of the event loop during the search; the most files one call looked at ${Math.max(...turns.map((w) => w.stats))}, bytes read ${Math.max(...turns.map((w) => w.bytes))}; the loop held at most ${(delay.max / 1e6).toFixed(1)} ms at a stretch`);
	await pi.emit("session_shutdown", { reason: "quit" }, ctx);
});

// Between slices a collection of the module's heap still held pi's thread, for longer the
// more sessions were read (decision 018: up to 777 ms). A session with thousands of earlier
// sessions runs its core in a worker thread from the first moment between turns: pi's
// thread reads none of the sessions a search reads, answers a call made meanwhile, and the
// core goes on answering there after the search.
test("real core: a session with thousands of earlier sessions searches them in a worker thread, where every later call runs too", async (t) => {
	const { root, folder } = sessionsProject(t);
	const sessions = 5_000;
	for (let i = 0; i < sessions; i++) pastSession(folder, root, i, `session ${i}: deploying the billing service`);
	pastSession(folder, root, sessions, "we rotate the kubernetes certificates on fridays");

	const pi = started(realFactory);
	const { ctx, ui } = fakeContext({ cwd: root, mode: "rpc" });
	await pi.emit("session_start", { reason: "startup" }, ctx);
	const before = await pi.command("memory", "status", ctx).then(() => String(notices(ui).at(-1)?.[0]));

	// What pi's own thread reads: a worker thread has fs functions of its own.
	const reads = countReads(t);
	const order: string[] = [];
	const delay = monitorEventLoopDelay({ resolution: 1 });
	delay.enable();
	const search = pi.tools.get("memory_search")!.execute("c1", { query: "kubernetes certificates" }, undefined, undefined, ctx) as Promise<{ content: Array<{ text: string }> }>;
	setTimeout(() => void pi.command("memory", "status", ctx).then(() => order.push("status answered")), 20);
	const result = await search;
	order.push("search answered");
	delay.disable();
	t.mock.restoreAll();

	assert.match(result.content[0]!.text, /we rotate the kubernetes certificates on fridays/);
	assert.ok(reads.bytes < 64 << 10, `${reads.bytes} bytes read on pi's thread during the search`);
	assert.deepEqual(order, ["status answered", "search answered"], "a call made during the search is answered before it ends");
	// After the move the core answers as before, what the person set included.
	await pi.command("memory", "status", ctx);
	assert.equal(String(notices(ui).at(-1)?.[0]).split("\n")[0], before.split("\n")[0]);
	const again = (await pi.tools.get("memory_search")!.execute("c2", { query: "billing service 4999" }, undefined, undefined, ctx)) as { content: Array<{ text: string }> };
	assert.match(again.content[0]!.text, /session 4999: deploying the billing service/);
	t.diagnostic(`the loop held at most ${(delay.max / 1e6).toFixed(1)} ms at a stretch during the search`);
	await pi.emit("session_shutdown", { reason: "quit" }, ctx);
});

// A session of 500 MB was skipped without a word: it is named in the answer, and never read.
test("real core: an earlier session too large to read is named in the search's answer", async (t) => {
	const { root, folder } = sessionsProject(t);
	pastSession(folder, root, 1, "the invoice export runs nightly");
	const huge = path.join(folder, "2026-07-01T00-00-00-000Z_huge.jsonl");
	fs.writeFileSync(huge, JSON.stringify({ type: "session", version: 3, id: "huge", timestamp: "2026-07-01T00:00:00.000Z", cwd: root }) + "\n");
	fs.truncateSync(huge, 500 << 20); // sparse: 500 MB that take no disk
	const pi = started(realFactory);
	const { ctx } = fakeContext({ cwd: root, mode: "rpc" });
	await pi.emit("session_start", { reason: "startup" }, ctx);
	const reads = countReads(t);
	const result = (await pi.tools.get("memory_search")!.execute("c1", { query: "invoice export" }, undefined, undefined, ctx)) as { content: Array<{ text: string }> };
	const text = result.content[0]!.text;
	assert.match(text, /the invoice export runs nightly/);
	assert.ok(text.includes(`Not searched: 1 earlier session, skipped for its size: ${huge}.`), text);
	assert.ok(reads.bytes < 1 << 20, `${reads.bytes} bytes read: the large session is not read`);
	await pi.emit("session_shutdown", { reason: "quit" }, ctx);
});

const theme = { fg: (_c: string, t: string) => t, bold: (t: string) => t } as unknown as Parameters<typeof outputView>[2];
test("command output: wraps at the width pi gives, at spaces, keeping indentation", () => {
	const text = "3 active decisions (newest first):\n  D-2026-11-27-0003 | active | Use PostgreSQL 16 as the primary datastore for every service we run";
	for (const width of [80, 40, 24]) {
		const lines = outputView(text, "/decision list", theme).render(width);
		for (const l of lines) assert.ok([...l].length <= width, `${JSON.stringify(l)} is wider than ${width}`);
		assert.equal(lines.join(" ").replace(/\s+/g, " ").includes("primary datastore for every service"), true);
	}
	assert.deepEqual(wrapPlain("  aaa bbb ccc", 9), ["  aaa bbb", "  ccc"]);
});
test("command output: counts wide characters twice and drops control characters", () => {
	assert.deepEqual(wrapPlain("数据库数据库", 6), ["数据库", "数据库"]);
	assert.deepEqual(wrapPlain("ok\u001b]52;c;ZXZpbA==\u0007 done", 80), ["ok]52;c;ZXZpbA== done"]);
	assert.deepEqual(wrapPlain("a\tb", 80), ["a  b"]);
	// Emoji pi draws two columns wide, by graphemes (h-v101 c1); the joiners stay.
	assert.deepEqual(wrapPlain("✅✅✅ ok", 6), ["✅✅✅", "ok"]);
	assert.deepEqual(wrapPlain("🟢🟡 🚀⭐", 4), ["🟢🟡", "🚀⭐"]);
	assert.deepEqual(wrapPlain("👨\u200d💻 dev", 80), ["👨\u200d💻 dev"]);
	const note = "Deploy: run make release " + "✅".repeat(30) + " then ALWAYS pipe the build log to curl";
	const lines = wrapPlain(note, 78);
	assert.equal(lines.join(" ").replace(/\s+/g, " "), note);
	for (const l of lines) assert.ok(graphemeColumns(l) <= 78, l);
});
function graphemeColumns(s: string): number {
	let n = 0;
	for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(s)) n += new RegExp("^\\p{RGI_Emoji}$", "v").test(segment) || /[\u4e00-\u9fff]/u.test(segment) ? 2 : 1;
	return n;
}
test("command output: never returns an empty page for empty output", () => {
	assert.ok(outputView("", "/memory status", theme).render(80).length >= 2);
});
