// The adapter's side of the Hindsight lifecycle, on a fake pi with a scripted core
// (fake-pi.ts): `http` asks performed with fetch against a local server (all requests
// of one ask at once, each with its time bound, answered in order, statuses never
// read), background asks anywhere in an envelope, `context_append`, `tools`, and the
// registry's tools round-tripping through the core's `tool` export; then once through
// the real core. What to recall, retain or flush is the core's and is tested there.

import test, { type TestContext } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { Effect, HttpAnswer } from "../core.ts";
import { BUILDS, assertCurrent } from "./builds.ts";
import { FakePi, envelope, fakeContext, scripted } from "./fake-pi.ts";
import type { Registry } from "../index.ts";

type Factory = (pi: ExtensionAPI) => void;

const mod = (await import(new URL("../index.ts?scripted", import.meta.url).href)) as {
	withRegistry: (r: () => Registry) => Factory;
	readRegistry: (file?: string) => Registry;
};

const TOOLS: Registry["tools"] = [
	{ name: "hindsight_recall", label: "Hindsight recall", description: "Search memory", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } },
	{ name: "hindsight_status", label: "Hindsight status", description: "Memory status", parameters: { type: "object", properties: {} } },
];
const REGISTRY: Registry = { v: 1, commands: [{ name: "hindsight", aliases: [], description: "Hindsight memory" }], flags: [], tools: TOOLS };

function started(): FakePi {
	const pi = new FakePi();
	mod.withRegistry(() => REGISTRY)(pi.api);
	return pi;
}

function quietErrors(t: TestContext): { calls: unknown[][] } {
	const m = t.mock.method(console, "error", () => {});
	return { get calls() { return m.mock.calls.map((c) => c.arguments); } };
}

function resumes(): Array<{ id: string; value: unknown }> {
	return scripted.calls.filter((c) => c.exportName === "resume").map((c) => c.input as { id: string; value: unknown });
}

// Resolves once cond holds (polling); fails the test after 5 s.
async function until(cond: () => boolean, what: string): Promise<void> {
	const deadline = Date.now() + 5_000;
	while (!cond()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 5));
	}
}

// ---- A local server ----------------------------------------------------------------------

interface Seen {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

interface Server {
	url: string;
	seen: Seen[];
	/** Answers held until release(): requests wait for each other (concurrency). */
	hold: boolean;
	/** MiB a /big answer had left to write when its connection closed. */
	unsent?: number;
	release(): void;
	close(): Promise<void>;
}

// /status/N answers N with "body N"; /slow/MS answers after MS ms; /big/N streams N MiB of "x"
// (and records how many it wrote before the client went away); /echo answers the body.
async function startServer(): Promise<Server> {
	const seen: Seen[] = [];
	const held: Array<() => void> = [];
	const srv: Partial<Server> = { hold: false };
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => {
			const body = Buffer.concat(chunks).toString("utf8");
			seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
			const answer = () => {
				const url = req.url ?? "";
				const status = /^\/status\/(\d+)/.exec(url);
				const slow = /^\/slow\/(\d+)/.exec(url);
				const big = /^\/big\/(\d+)/.exec(url);
				if (big) {
					const mib = Buffer.alloc(1 << 20, "x");
					let left = Number(big[1]);
					const more = (): void => {
						while (left > 0 && !res.destroyed) {
							left--;
							if (!res.write(mib)) return void res.once("drain", more);
						}
						res.end();
					};
					res.on("close", () => (srv.unsent = left));
					more();
				} else if (status) {
					res.writeHead(Number(status[1]), { "content-type": "text/plain" });
					res.end(`body ${status[1]}`);
				} else if (slow) {
					const timer = setTimeout(() => res.end("slow answer"), Number(slow[1]));
					res.on("close", () => clearTimeout(timer));
				} else res.end(body);
			};
			if (srv.hold) held.push(answer);
			else answer();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
	const port = (server.address() as AddressInfo).port;
	return Object.assign(srv, {
		url: `http://127.0.0.1:${port}`,
		seen,
		release() {
			srv.hold = false;
			for (const f of held.splice(0)) f();
		},
		close() {
			return new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			});
		},
	}) as Server;
}

// A port nothing listens on: bound, then closed.
async function deadPort(): Promise<number> {
	const s = http.createServer();
	await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", () => resolve()));
	const port = (s.address() as AddressInfo).port;
	await new Promise<void>((resolve) => s.close(() => resolve()));
	return port;
}

// ---- http ------------------------------------------------------------------------------------

test("an http ask performs every request at once and resumes with each answer in request order, statuses as they came", async (t) => {
	const server = await startServer();
	t.after(() => server.close());
	server.hold = true;
	scripted.reset((exportName) =>
		exportName === "command"
			? envelope({
					t: "http",
					id: "h1",
					requests: [
						{ method: "POST", url: `${server.url}/echo`, headers: { "content-type": "application/json", authorization: "Bearer k1" }, body: '{"query":"pnpm"}', timeoutMs: 5_000 },
						{ method: "GET", url: `${server.url}/status/500`, timeoutMs: 5_000 },
						{ method: "PUT", url: `${server.url}/status/404` },
					],
				})
			: envelope({ t: "output", text: "done" }),
	);
	const pi = started();
	const f = fakeContext();
	const running = pi.command("hindsight", "doctor", f.ctx);
	// The server answers nothing until all three have arrived: one at a time would hang here.
	await until(() => server.seen.length === 3, "all three requests at the server");
	server.release();
	await running;
	assert.deepEqual(resumes(), [
		{
			id: "h1",
			value: [
				{ status: 200, body: '{"query":"pnpm"}' },
				{ status: 500, body: "body 500" },
				{ status: 404, body: "body 404" },
			],
		},
	]);
	const post = server.seen.find((s) => s.method === "POST");
	assert.equal(post?.headers.authorization, "Bearer k1");
	assert.equal(post?.headers["content-type"], "application/json");
	assert.deepEqual(f.ui.at(-1), { method: "message", args: ["done", { command: "/hindsight doctor" }] });
});

test("a request past its timeoutMs resumes with an error saying so, a refused one with the reason, and the others with their answers", async (t) => {
	const server = await startServer();
	t.after(() => server.close());
	const port = await deadPort();
	scripted.reset((exportName) =>
		exportName === "context"
			? envelope({
					t: "http",
					id: "recall",
					requests: [
						{ method: "POST", url: `${server.url}/slow/3000`, body: "{}", timeoutMs: 100 },
						{ method: "POST", url: `${server.url}/echo`, body: "fast", timeoutMs: 2_000 },
						{ method: "POST", url: `http://127.0.0.1:${port}/v1`, body: "{}", timeoutMs: 2_000 },
					],
				})
			: envelope(),
	);
	const pi = started();
	const began = Date.now();
	await pi.emit("context", { messages: [{ role: "user", content: "q", timestamp: 1 }] }, fakeContext().ctx);
	assert.ok(Date.now() - began < 2_500, "the slow request did not hold the others past its bound");
	const [r] = resumes();
	const value = r?.value as HttpAnswer[];
	assert.deepEqual(value.slice(0, 2), [{ error: "timed out after 100 ms" }, { status: 200, body: "fast" }]);
	assert.match((value[2] as { error: string }).error, /ECONNREFUSED/);
});

test("a body past maxBytes (1 MiB when absent) resumes as its first bytes, truncated, and the rest is not read", async (t) => {
	const server = await startServer();
	t.after(() => server.close());
	scripted.reset((exportName) =>
		exportName === "context"
			? envelope({
					t: "http",
					id: "recall",
					requests: [
						{ method: "POST", url: `${server.url}/big/50`, body: "{}", timeoutMs: 20_000, maxBytes: 10 },
						{ method: "POST", url: `${server.url}/echo`, body: "small", timeoutMs: 2_000, maxBytes: 10 },
					],
				})
			: envelope(),
	);
	const pi = started();
	await pi.emit("context", { messages: [{ role: "user", content: "q", timestamp: 1 }] }, fakeContext().ctx);
	const value = resumes()[0]?.value as HttpAnswer[];
	assert.deepEqual(value, [{ status: 200, body: "xxxxxxxxxx", truncated: true }, { status: 200, body: "small" }]);
	for (let i = 0; i < 100 && server.unsent === undefined; i++) await new Promise((r) => setTimeout(r, 10));
	assert.ok((server.unsent ?? 0) > 10, `the server was read to its end (${server.unsent ?? "open"} MiB unsent)`);

	scripted.reset((exportName) =>
		exportName === "context" ? envelope({ t: "http", id: "recall", requests: [{ method: "POST", url: `${server.url}/big/3`, timeoutMs: 20_000 }] }) : envelope(),
	);
	const pi2 = started();
	await pi2.emit("context", { messages: [{ role: "user", content: "q", timestamp: 1 }] }, fakeContext().ctx);
	const [cut] = resumes().at(-1)?.value as Array<{ body: string; truncated?: true }>;
	assert.equal(cut?.body.length, 1 << 20);
	assert.equal(cut?.truncated, true);
});

test("a redirect is an answer, never followed: the body does not reach the host it names", async (t) => {
	const other = await startServer();
	t.after(() => other.close());
	const redirecting = http.createServer((req, res) => {
		req.resume();
		req.on("end", () => {
			res.writeHead(Number((req.url ?? "").slice(1)), { location: `${other.url}/echo` });
			res.end();
		});
	});
	await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", () => resolve()));
	t.after(() => new Promise<void>((resolve) => redirecting.close(() => resolve())));
	const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
	scripted.reset((exportName) =>
		exportName === "command"
			? envelope({
					t: "http",
					id: "h",
					requests: [
						{ method: "POST", url: `${url}/307`, body: '{"items":[]}', timeoutMs: 5_000 },
						{ method: "POST", url: `${url}/302`, body: '{"items":[]}', timeoutMs: 5_000 },
					],
				})
			: envelope({ t: "output", text: "done" }),
	);
	await started().command("hindsight", "import", fakeContext().ctx);
	const value = resumes()[0]?.value as Array<{ status?: number }>;
	assert.deepEqual(
		value.map((a) => a.status),
		[307, 302],
	);
	assert.deepEqual(other.seen, []);
});

test("the event's signal aborts a foreground http ask, which resumes with an error", async (t) => {
	const server = await startServer();
	t.after(() => server.close());
	scripted.reset((exportName) => (exportName === "tool" ? envelope({ t: "http", id: "h", requests: [{ method: "POST", url: `${server.url}/slow/5000`, timeoutMs: 10_000 }] }) : envelope({ t: "tool_result", text: "x" })));
	const pi = started();
	const stop = new AbortController();
	setTimeout(() => stop.abort(), 50);
	await pi.tools.get("hindsight_recall")!.execute("call-1", { query: "q" }, stop.signal, undefined, fakeContext().ctx);
	assert.deepEqual(resumes(), [{ id: "h", value: [{ error: "aborted" }] }]);
});

// ---- background asks ---------------------------------------------------------------------------

test("background asks anywhere in an envelope start at once; the effects after them are performed and the handler does not wait", async (t) => {
	const server = await startServer();
	t.after(() => server.close());
	server.hold = true;
	let answer!: (v: unknown) => void;
	const answered = { promise: new Promise<unknown>((r) => (answer = r)), resolve: (v: unknown) => answer(v) };
	scripted.reset((exportName, input) => {
		if (exportName === "agent_end")
			return envelope(
				{ t: "status", key: "pi-memory", text: "decisions 0 · hindsight 2 waiting" },
				{ t: "http", id: "flush-a", background: true, requests: [{ method: "POST", url: `${server.url}/echo`, body: "a", timeoutMs: 5_000 }] },
				{ t: "complete", id: "obs", prompt: "p", maxTokens: 10, background: true },
				{ t: "http", id: "flush-b", background: true, requests: [{ method: "POST", url: `${server.url}/status/503`, timeoutMs: 5_000 }] },
				{ t: "status", key: "pi-memory", text: "decisions 0 · hindsight project" },
			);
		if (exportName === "resume") {
			const id = (input as { id: string }).id;
			return envelope({ t: "status", key: "pi-memory", text: `resumed ${id}` });
		}
		return envelope();
	});
	const pi = started();
	const f = fakeContext({ complete: () => answered.promise });
	await pi.emit("agent_end", { messages: [] }, f.ctx);
	assert.deepEqual(
		f.ui.map((c) => c.args[1]),
		["decisions 0 · hindsight 2 waiting", "decisions 0 · hindsight project"],
		"every effect of the envelope was performed before the handler returned",
	);
	assert.deepEqual(resumes(), [], "nothing was awaited");
	assert.equal(f.completions.length, 1, "the model call has started");
	await until(() => server.seen.length === 2, "both flushes at the server");
	server.release();
	await until(() => resumes().length === 2, "both flushes resumed");
	answered.resolve({ role: "assistant", stopReason: "stop", content: [{ type: "text", text: "obs" }] });
	await until(() => resumes().length === 3, "the model call resumed");
	const byId = new Map(resumes().map((r) => [r.id, r.value]));
	assert.deepEqual(byId.get("flush-a"), [{ status: 200, body: "a" }]);
	assert.deepEqual(byId.get("flush-b"), [{ status: 503, body: "body 503" }]);
	assert.deepEqual(byId.get("obs"), { text: "obs", stopReason: "stop" });
	assert.deepEqual(
		f.ui.slice(2).map((c) => c.args[1]).sort(),
		["resumed flush-a", "resumed flush-b", "resumed obs"],
		"each resume's effects were performed",
	);
});

test("a foreground ask after background ones is answered within the handler; the background ones are resumed on their own", async (t) => {
	const server = await startServer();
	t.after(() => server.close());
	scripted.reset((exportName, input) => {
		if (exportName === "session_shutdown")
			return envelope(
				{ t: "http", id: "bg", background: true, requests: [{ method: "POST", url: `${server.url}/slow/200`, timeoutMs: 5_000 }] },
				{ t: "http", id: "fg", requests: [{ method: "POST", url: `${server.url}/echo`, body: "flush", timeoutMs: 5_000 }] },
			);
		if (exportName === "resume" && (input as { id: string }).id === "fg") return envelope({ t: "status", key: "pi-memory", text: "decisions 0 · hindsight project" });
		return envelope();
	});
	const pi = started();
	const f = fakeContext();
	await pi.emit("session_shutdown", { reason: "quit" }, f.ctx);
	assert.deepEqual(resumes()[0], { id: "fg", value: [{ status: 200, body: "flush" }] });
	assert.deepEqual(f.ui, [{ method: "setStatus", args: ["pi-memory", "decisions 0 · hindsight project"] }]);
});

test("session_shutdown waits for background http asks as for model calls, before the core's shutdown", async (t) => {
	const server = await startServer();
	t.after(() => server.close());
	scripted.reset((exportName) =>
		exportName === "agent_end"
			? envelope(
					{ t: "http", id: "f1", background: true, requests: [{ method: "POST", url: `${server.url}/slow/100`, timeoutMs: 5_000 }] },
					{ t: "http", id: "f2", background: true, requests: [{ method: "POST", url: `${server.url}/slow/150`, timeoutMs: 5_000 }] },
				)
			: envelope(),
	);
	const pi = started();
	const f = fakeContext();
	await pi.emit("agent_end", { messages: [] }, f.ctx);
	await pi.emit("session_shutdown", { reason: "quit" }, f.ctx);
	assert.deepEqual(
		scripted.calls.map((c) => c.exportName),
		["agent_end", "resume", "resume", "session_shutdown"],
	);
	assert.deepEqual(resumes().map((r) => r.value), [[{ status: 200, body: "slow answer" }], [{ status: 200, body: "slow answer" }]]);
});

test("session_shutdown waits for a background http ask no longer than its exitMs (flush.shutdownMs), then aborts it", async (t) => {
	const server = await startServer();
	t.after(() => server.close());
	quietErrors(t);
	scripted.reset((exportName) =>
		exportName === "agent_end"
			? envelope({ t: "http", id: "f1", background: true, exitMs: 200, requests: [{ method: "POST", url: `${server.url}/slow/5000`, timeoutMs: 10_000 }] })
			: envelope(),
	);
	const pi = started();
	const f = fakeContext();
	await pi.emit("agent_end", { messages: [] }, f.ctx);
	const at = Date.now();
	await pi.emit("session_shutdown", { reason: "quit" }, f.ctx);
	const waited = Date.now() - at;
	assert.ok(waited < 3_000, `shutdown waited ${waited} ms for an ask whose exitMs is 200`);
	assert.deepEqual(scripted.calls.map((c) => c.exportName), ["agent_end", "resume", "session_shutdown"]);
	assert.deepEqual(resumes().map((r) => r.value), [[{ error: "aborted" }]], "the aborted ask is answered before the core's shutdown");
	// The core bounds its last flush by what is left of flush.shutdownMs (issue 19, item 7).
	const told = scripted.calls.at(-1)?.input as { reason?: string; waitedMs?: number };
	assert.equal(told.reason, "quit");
	assert.ok(typeof told.waitedMs === "number" && told.waitedMs >= 200 && told.waitedMs <= waited, `session_shutdown says it waited ${told.waitedMs} ms`);
});


test("effects after a foreground ask are not performed, saying so", async (t) => {
	const errors = quietErrors(t);
	scripted.reset((exportName) =>
		exportName === "command" ? envelope({ t: "dialog", id: "d", kind: "confirm", title: "Sure?" }, { t: "output", text: "never shown" }) : envelope(),
	);
	const pi = started();
	const f = fakeContext({ confirm: true });
	await pi.command("hindsight", "flush", f.ctx);
	assert.deepEqual(f.ui.map((c) => c.method), ["confirm"]);
	assert.match(String(errors.calls[0]?.[0]), /1 effect\(s\) after its dialog d, which must end the envelope; they are ignored/);
});

// ---- context_append ------------------------------------------------------------------------------

const BLOCK = "\n\n<pi-memory-recall>\n[project] Deploys run on Fridays.\n</pi-memory-recall>";

test("context_append ends a user message's string content or its block list with the text, before context_messages inserts, both at pi's indices", async () => {
	const image = { type: "image", data: "AAAA", mimeType: "image/png" };
	const messages = [
		{ role: "user", content: "first question", timestamp: 1 },
		{ role: "assistant", content: [{ type: "text", text: "answer" }], timestamp: 2 },
		{ role: "user", content: [{ type: "text", text: "when do we deploy?" }, image], timestamp: 3 },
	];
	const frozen = JSON.stringify(messages);
	for (const [name, index, want] of [
		["string content", 0, { role: "user", content: `first question${BLOCK}`, timestamp: 1 }],
		["block content", 2, { role: "user", content: [{ type: "text", text: "when do we deploy?" }, image, { type: "text", text: BLOCK }], timestamp: 3 }],
	] as const) {
		scripted.reset((exportName) =>
			exportName === "context"
				? envelope(
						{ t: "context_messages", index: 1, messages: [{ customType: "observational-memory-context", content: "<observations/>", timestamp: 9 }] },
						{ t: "context_append", index, text: BLOCK },
					)
				: envelope(),
		);
		const pi = started();
		const [result] = (await pi.emit("context", { messages }, fakeContext().ctx)) as Array<{ messages: unknown[] }>;
		const expected: unknown[] = [...messages];
		expected[index] = want;
		expected.splice(1, 0, { role: "custom", customType: "observational-memory-context", content: "<observations/>", display: false, timestamp: 9 });
		assert.deepEqual(result?.messages, expected, name);
		assert.equal(JSON.stringify(messages), frozen, `${name}: pi's own messages are not changed`);
	}
});

test("context_append alone returns the messages; one naming no user message, or sent from another export, is ignored saying so", async (t) => {
	const errors = quietErrors(t);
	const messages = [
		{ role: "user", content: "q", timestamp: 1 },
		{ role: "assistant", content: [{ type: "text", text: "a" }], timestamp: 2 },
	];
	scripted.reset((exportName) =>
		exportName === "context"
			? envelope({ t: "context_append", index: 1, text: "x" }, { t: "context_append", index: 7, text: "y" }, { t: "context_append", index: 0, text: BLOCK })
			: envelope({ t: "context_append", index: 0, text: "z" }),
	);
	const pi = started();
	const [result] = await pi.emit("context", { messages }, fakeContext().ctx);
	assert.deepEqual(result, { messages: [{ role: "user", content: `q${BLOCK}`, timestamp: 1 }, messages[1]] });
	await pi.emit("before_agent_start", { messageType: "user", prompt: "p", systemPrompt: "S" }, fakeContext().ctx);
	assert.deepEqual(
		errors.calls.map((c) => String(c[0])),
		[
			"pi-memory: the core sent context_append for message 1, which is not a user message; ignored",
			"pi-memory: the core sent context_append for message 7, which is not a user message; ignored",
			"pi-memory: the core sent context_append from before_agent_start; only context can apply it, ignored",
		],
	);
});

test("a recall ask in context is answered, then its block appended from the resumed envelope", async (t) => {
	const server = await startServer();
	t.after(() => server.close());
	scripted.reset((exportName) => {
		if (exportName === "context") return envelope({ t: "http", id: "r", requests: [{ method: "POST", url: `${server.url}/echo`, body: "recall", timeoutMs: 1_500 }] });
		if (exportName === "resume") return envelope({ t: "context_append", index: 0, text: BLOCK }, { t: "status", key: "pi-memory", text: "decisions 0 · hindsight project" });
		return envelope();
	});
	const pi = started();
	const [result] = await pi.emit("context", { messages: [{ role: "user", content: "q", timestamp: 1 }] }, fakeContext().ctx);
	assert.deepEqual(resumes(), [{ id: "r", value: [{ status: 200, body: "recall" }] }]);
	assert.deepEqual(result, { messages: [{ role: "user", content: `q${BLOCK}`, timestamp: 1 }] });
});

// ---- tools ------------------------------------------------------------------------------------------

test("the registry's tools are registered inactive, with the core's schema as given", () => {
	scripted.reset();
	const pi = started();
	assert.deepEqual([...pi.tools.keys()], ["hindsight_recall", "hindsight_status"]);
	for (const want of TOOLS) {
		const got = pi.tools.get(want.name)!;
		assert.deepEqual({ name: got.name, label: got.label, description: got.description, parameters: got.parameters, defaultActive: got.defaultActive }, { ...want, defaultActive: false });
	}
	assert.deepEqual(pi.activeTools, ["read", "bash", "edit", "write"]);
});

test("tools makes exactly the named registry tools active and leaves every other tool as it was", async () => {
	const steps: string[][] = [["hindsight_recall", "hindsight_status"], ["hindsight_status"], []];
	let i = 0;
	scripted.reset((exportName) => (exportName === "command" ? envelope({ t: "tools", active: steps[i++]! }) : envelope()));
	const pi = started();
	pi.activeTools = ["read", "hindsight_recall", "bash", "other_ext_tool"];
	const { ctx } = fakeContext();
	for (let n = 0; n < steps.length; n++) await pi.command("hindsight", "mode x", ctx);
	assert.deepEqual(pi.setActiveToolsCalls, [
		["read", "bash", "other_ext_tool", "hindsight_recall", "hindsight_status"],
		["read", "bash", "other_ext_tool", "hindsight_status"],
		["read", "bash", "other_ext_tool"],
	]);
});

test("a tool call goes to the core's tool export with its name, params and id, and its tool_result is pi's tool result", async (t) => {
	const server = await startServer();
	t.after(() => server.close());
	scripted.reset((exportName) => {
		if (exportName === "tool") return envelope({ t: "http", id: "t1", requests: [{ method: "POST", url: `${server.url}/echo`, body: '{"query":"deploy"}', timeoutMs: 5_000 }] });
		if (exportName === "resume") return envelope({ t: "tool_result", text: "[project] Deploys run on Fridays.", details: { bank: "pimem-app-0123456789", n: 1 } });
		return envelope();
	});
	const pi = started();
	const result = await pi.tools.get("hindsight_recall")!.execute("call-7", { query: "deploy" }, undefined, undefined, fakeContext().ctx);
	assert.deepEqual(scripted.calls[0], { exportName: "tool", input: { name: "hindsight_recall", params: { query: "deploy" }, toolCallId: "call-7" } });
	assert.deepEqual(resumes(), [{ id: "t1", value: [{ status: 200, body: '{"query":"deploy"}' }] }]);
	assert.deepEqual(result, { content: [{ type: "text", text: "[project] Deploys run on Fridays." }], details: { bank: "pimem-app-0123456789", n: 1 }, isError: false });
});

test("a tool the core refuses, fails in, or leaves unanswered is an error result, never a throw", async (t) => {
	quietErrors(t);
	const cases: Array<[string, () => ReturnType<typeof envelope>, { text: string; isError: boolean; details?: unknown }]> = [
		["refused", () => envelope({ t: "tool_result", text: "Hindsight is off: set hindsight.url", isError: true }), { text: "Hindsight is off: set hindsight.url", isError: true }],
		[
			"failed",
			() => {
				throw new Error("boom");
			},
			{ text: "pi-memory: hindsight_status failed; details are on stderr", isError: true },
		],
		["unanswered", () => envelope(), { text: "pi-memory: hindsight_status gave no answer", isError: true }],
	];
	for (const [name, script, want] of cases) {
		scripted.reset((exportName) => (exportName === "tool" ? script() : envelope()));
		const pi = started();
		const result = await pi.tools.get("hindsight_status")!.execute("c", {}, undefined, undefined, fakeContext().ctx);
		assert.deepEqual(result, { content: [{ type: "text", text: want.text }], details: want.details, isError: want.isError }, name);
	}
});

test("tool_result from any export but tool is ignored, saying so", async (t) => {
	const errors = quietErrors(t);
	scripted.reset(() => envelope({ t: "tool_result", text: "x" } as Effect));
	const pi = started();
	await pi.command("hindsight", "status", fakeContext().ctx);
	assert.equal(String(errors.calls[0]?.[0]), "pi-memory: the core sent tool_result from command; only tool can apply it, ignored");
});

// ---- events ----------------------------------------------------------------------------------------

test("agent_end sends pi's messages of the run", async () => {
	scripted.reset();
	const pi = started();
	const messages = [
		{ role: "user", content: "q", timestamp: 1 },
		{ role: "assistant", content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } }], stopReason: "toolUse", timestamp: 2 },
		{ role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "a b" }], isError: false, timestamp: 3 },
		{ role: "assistant", content: [{ type: "text", text: "done" }], stopReason: "stop", timestamp: 4 },
	];
	await pi.emit("agent_end", { messages }, fakeContext().ctx);
	assert.deepEqual(scripted.calls, [{ exportName: "agent_end", input: { stopReason: "stop", aborted: false, messages } }]);
});

test("session_start forwards the HINDSIGHT_* variables that are set, and no others", async () => {
	const names = ["HINDSIGHT_API_URL", "HINDSIGHT_API_KEY", "HINDSIGHT_BANK_ID", "HINDSIGHT_OTHER"] as const;
	const saved = names.map((n) => process.env[n]);
	process.env.HINDSIGHT_API_URL = "http://127.0.0.1:8888";
	process.env.HINDSIGHT_BANK_ID = "team-bank";
	process.env.HINDSIGHT_OTHER = "not forwarded";
	delete process.env.HINDSIGHT_API_KEY;
	try {
		scripted.reset();
		const pi = started();
		await pi.emit("session_start", { reason: "startup" }, fakeContext().ctx);
		const env = (scripted.calls[0]?.input as { env: Record<string, string> }).env;
		assert.equal(env.HINDSIGHT_API_URL, "http://127.0.0.1:8888");
		assert.equal(env.HINDSIGHT_BANK_ID, "team-bank");
		assert.ok(!("HINDSIGHT_API_KEY" in env) && !("HINDSIGHT_OTHER" in env), JSON.stringify(env));
	} finally {
		names.forEach((n, i) => {
			if (saved[i] === undefined) delete process.env[n];
			else process.env[n] = saved[i];
		});
	}
});

// ---- The real core ---------------------------------------------------------------------------------

test("real core: session_start activates the tools, and the tool-loop steps of one message get one recall's block", async (t) => {
	assertCurrent(BUILDS[0].file);
	const real = (await import(new URL("../index.ts?real", import.meta.url).href)) as { default: Factory };
	const recalls: string[] = [];
	const answer = JSON.stringify({ results: [{ id: "m1", text: "Deploys run on Fridays.", type: "world" }] });
	const root = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-hs-"));
	t.after(() => fs.rmSync(root, { recursive: true, force: true }));
	fs.mkdirSync(path.join(root, ".git"));
	const saved = process.env.HINDSIGHT_API_URL;
	// The recall endpoint as Hindsight answers it (the real server is ts/e2e's).
	const local = http.createServer((req, res) => {
		recalls.push(req.url ?? "");
		res.writeHead(200, { "content-type": "application/json" });
		res.end(answer);
	});
	await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", () => resolve()));
	t.after(() => new Promise<void>((resolve) => local.close(() => resolve())));
	process.env.HINDSIGHT_API_URL = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
	try {
		const pi = new FakePi();
		real.default(pi.api);
		const { ctx, ui } = fakeContext({ cwd: root });
		await pi.emit("session_start", { reason: "startup" }, ctx);
		const step1 = [{ role: "user", content: "When do deploys run?", timestamp: 1_770_000_000_000 }];
		const step2 = [...step1, { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } }], timestamp: 2 }, { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "x" }], timestamp: 3 }];
		const [first] = (await pi.emit("context", { messages: step1 }, ctx)) as Array<{ messages: Array<{ content: string }> }>;
		const [second] = (await pi.emit("context", { messages: step2 }, ctx)) as Array<{ messages: Array<{ content: string }> }>;
		await pi.emit("session_shutdown", { reason: "quit" }, ctx);

		assert.deepEqual(pi.activeTools.filter((n) => n.startsWith("hindsight_")), ["hindsight_recall", "hindsight_retain", "hindsight_reflect", "hindsight_status"]);
		assert.ok(ui.some((c) => c.method === "setStatus" && c.args[0] === "pi-memory" && String(c.args[1]).split(" · ").includes("hindsight project")), JSON.stringify(ui));
		const text = first?.messages[0]?.content ?? "";
		assert.match(text, /^When do deploys run\?\n\n<pi-memory-recall>\n[\s\S]*Deploys run on Fridays\.[\s\S]*<\/pi-memory-recall>$/);
		assert.equal(second?.messages[0]?.content, text, "the same bytes for the tool-loop step");
		assert.equal(recalls.length, 1, `one recall: ${JSON.stringify(recalls)}`);
		assert.match(recalls[0]!, /^\/v1\/default\/banks\/pimem-[a-z0-9-]+\/memories\/recall$/);
		assert.equal(step1[0]?.content, "When do deploys run?", "pi's message is not changed");
	} finally {
		if (saved === undefined) delete process.env.HINDSIGHT_API_URL;
		else process.env.HINDSIGHT_API_URL = saved;
	}
});

// ---- registry.json -----------------------------------------------------------------------------------

test("readRegistry takes tools with a name, label, description and an object schema, and says which one is not", (t) => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-registry-"));
	t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
	const file = path.join(dir, "registry.json");
	fs.writeFileSync(file, JSON.stringify(REGISTRY));
	assert.deepEqual(mod.readRegistry(file), REGISTRY);
	for (const bad of [{ ...TOOLS[0], parameters: { type: "string" } }, { ...TOOLS[0], label: 3 }]) {
		fs.writeFileSync(file, JSON.stringify({ ...REGISTRY, tools: [TOOLS[0], bad] }));
		assert.throws(() => mod.readRegistry(file), /tools\[1\] is not a tool this adapter registers/);
	}
	for (const tools of [{}, undefined]) {
		fs.writeFileSync(file, JSON.stringify({ ...REGISTRY, tools }));
		assert.throws(() => mod.readRegistry(file), /lists no tools \(a core older than this adapter\); rebuild it with make wasm/);
	}
});
