// The loader against both builds of the real core: ts/core.wasm (TinyGo, what ships)
// and build/out/core-go.wasm (standard Go). `make wasm` builds both.

import test, { after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { Core, CoreTrap, EXPORTS, Host, compileCore, inputJSON, instantiate, type Effect, type Envelope } from "../core.ts";
import { BUILDS, staleness } from "./builds.ts";

test("a core that cannot be built reports it at the first call, not in prepare", async () => {
	const core = new Core(path.join(os.tmpdir(), "pimem-no-such-core.wasm"));
	assert.doesNotThrow(() => core.prepare());
	await assert.rejects(core.call("session_start", {}), /ENOENT|no such file/);
});

function sessionInput(cwd: string, extra: object = {}): object {
	return { cwd, agentDir: path.join(cwd, "agent"), trusted: true, hasUI: false, mode: "print", reason: "startup", flags: { "no-memory": false }, fault: "", ...extra };
}

// The core's answers grow as stores land; these tests only need "a session exists and
// nothing failed": exit 0 and no error notice.
function assertFine(env: Envelope): void {
	assert.equal(env.v, 1);
	assert.equal(env.exit, 0, JSON.stringify(env));
	assert.deepEqual(
		env.effects.filter((e) => e.t === "notify" && e.level === "error"),
		[],
	);
}

// Every project a test makes is removed when the file's tests are done.
const made: string[] = [];
if (isMainThread) after(() => made.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

function tempProject(): { root: string; cwd: string } {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-core-"));
	made.push(root);
	fs.mkdirSync(path.join(root, ".git"));
	const cwd = path.join(root, "src", "app");
	fs.mkdirSync(cwd, { recursive: true });
	return { root, cwd };
}

// ---- Two pi processes writing one project: each worker thread runs its own core ------

interface AddJob {
	file: string;
	cwd: string;
	who: string;
	count: number;
}

async function addWorker(job: AddJob): Promise<string[]> {
	const core = new Core(job.file);
	const failures: string[] = [];
	await core.call("session_start", sessionInput(job.cwd));
	for (let i = 0; i < job.count; i++) {
		// --force skips the near-duplicate check: these texts are alike on purpose.
		const env = await core.call("command", { name: "decision", args: `add "Rule ${i} of ${job.who}" --force`, hasUI: false });
		if (env.exit !== 0) failures.push(JSON.stringify(env));
	}
	await core.close();
	return failures;
}

function runAddWorker(job: AddJob): Promise<string[]> {
	return new Promise((resolve, reject) => {
		const w = new Worker(new URL(import.meta.url), { workerData: job });
		w.once("message", (r: string[]) => resolve(r));
		w.once("error", reject);
	});
}

if (!isMainThread && parentPort !== null) {
	const port = parentPort;
	addWorker(workerData as AddJob).then(
		(failures) => port.postMessage(failures),
		(err: unknown) => port.postMessage([String(err)]),
	);
} else {
	tests();
}

function tests(): void {
	for (const build of BUILDS) {
		test(`${build.name}: the module is built and newer than its sources`, () => {
			assert.equal(staleness(build.file), undefined);
		});

		test(`${build.name}: a large envelope crosses whole, and one identical to the last is the same frozen Envelope`, async () => {
			const { cwd } = tempProject();
			const core = new Core(build.file);
			try {
				assertFine(await core.call("session_start", sessionInput(cwd)));
				const pad = "x".repeat(700 << 10);
				const big = await core.call("registry", { pad });
				const text = big.effects[0]?.t === "output" ? big.effects[0].text : "";
				assert.ok(text.length > 4096 && JSON.parse(text).version !== undefined, "the registry arrives whole through pm_output");
				assert.equal(await core.call("registry", {}), big, "the same bytes give the same Envelope, not a second parse");
				assert.ok(Object.isFrozen(big) && Object.isFrozen(big.effects) && Object.isFrozen(big.effects[0]));
				const small = await core.call("debug", { op: "ping", pad });
				assert.deepEqual(small.effects, [{ t: "output", text: "pong" }], "a 700 KiB input arrives whole through pm_input");
				assert.ok(!Object.isFrozen(small), "small envelopes are parsed each time");
				assert.notEqual(await core.call("registry", {}), big, "after another envelope, the large one is parsed again");
			} finally {
				await core.close();
			}
		});

		test(`${build.name}: the observations block crosses once; later requests name it and contextMessages gives it, until the core restarts`, async () => {
			const { cwd } = tempProject();
			const now = Date.parse("2026-02-27T09:00:00.000Z");
			const obs = "Date: Feb 27, 2026\n* 🔴 (08:00) User wants the parser to accept trailing commas\n";
			const branch = [
				{ type: "message", id: "u1", parentId: null, timestamp: "2026-02-27T08:00:00.000Z", message: { role: "user", content: "Fix it" } },
				{ type: "custom", id: "c1", parentId: "u1", timestamp: "2026-02-27T08:10:00.000Z", customType: "pi-memory-om", data: { v: 1, op: "observe", t: now - 3000000, from: "u1", through: "u1", tokens: 900, obs } },
			];
			const core = new Core(build.file, { now: () => now });
			const block = async () => {
				const env = await core.call("context", { messages: [{ role: "user", content: "and the tests?" }] });
				assertFine(env);
				const e = env.effects.find((x) => x.t === "context_messages");
				assert.ok(e !== undefined && e.t === "context_messages", JSON.stringify(env));
				return e;
			};
			try {
				assertFine(await core.call("session_start", sessionInput(cwd, { branch, sessionId: "s1", zone: 0, window: 200000 })));
				const first = await block();
				assert.ok(first.id !== undefined && first.messages !== undefined && first.messages[0]!.content.includes("trailing commas"), JSON.stringify(first));
				const again = await block();
				assert.deepEqual(again, { t: "context_messages", index: 0, same: first.id }, "the same block is named, not sent");
				assert.equal(core.contextMessages(again), core.contextMessages(first), "and is the messages the first effect carried");
				await core.recreate();
				const restarted = await block();
				assert.ok(restarted.messages !== undefined, "a new instance sends its block again");
				assert.deepEqual(restarted.messages, first.messages);
			} finally {
				await core.close();
			}
		});

		test(`${build.name}: every import is Extism's, the contract's or in the WASI shim`, async () => {
			const module = await compileCore(build.file);
			const host = new Host();
			for (const imp of WebAssembly.Module.imports(module)) {
				if (imp.module === "extism:host/env") continue;
				const known = imp.module === "extism:host/user" ? host.user : imp.module === "wasi_snapshot_preview1" ? host.wasi : {};
				assert.ok(imp.name in known, `${imp.module}.${imp.name} has no host function`);
			}
		});

		test(`${build.name}: starts without Node's WASI, prints nothing and answers ping`, async (t) => {
			// Loading Extism imports node:wasi, which queues an ExperimentalWarning at import
			// time whenever the runner gets to print it (pi silences warnings). That one is
			// not ours; anything else printed while a core starts would be.
			const extismImport = /ExperimentalWarning: WASI is an experimental feature/;
			const warnings: string[] = [];
			const onWarning = (w: Error) => void warnings.push(`${w.name}: ${w.message}`);
			process.on("warning", onWarning);
			t.after(() => void process.off("warning", onWarning));
			const stderr = t.mock.method(process.stderr, "write");
			const core = new Core(build.file);
			const env = await core.call("debug", { op: "ping" });
			await new Promise((r) => setImmediate(r)); // warnings are emitted on a later tick
			assert.deepEqual(env, { v: 1, effects: [{ t: "output", text: "pong" }], exit: 0 });
			assert.deepEqual(warnings.filter((w) => !extismImport.test(w)), []);
			assert.deepEqual(stderr.mock.calls.map((c) => String(c.arguments[0])).filter((s) => !extismImport.test(s)), []);
			await core.close();
		});

		test(`${build.name}: session_start's stat probes cross guest memory`, async (t) => {
			const { root, cwd } = tempProject();
			const core = new Core(build.file);
			const stats = t.mock.method(fs, "statSync");
			assertFine(await core.call("session_start", sessionInput(cwd)));
			const probed = stats.mock.calls.map((c) => String(c.arguments[0]));
			// Not found at src/app and src (error path, pm_last_error), found at the root.
			for (const p of [path.join(cwd, ".git"), path.join(root, "src", ".git"), path.join(root, ".git")]) assert.ok(probed.includes(p), `${p} was not probed: ${probed.join(", ")}`);
			await core.close();
		});

		test(`${build.name}: a panic is a CoreTrap with the panic text; recreate brings the session back`, async () => {
			const { cwd } = tempProject();
			const core = new Core(build.file);
			await core.call("session_start", sessionInput(cwd));
			await assert.rejects(core.call("debug", { op: "panic" }), (err: unknown) => {
				assert.ok(err instanceof CoreTrap);
				assert.equal(err.exportName, "debug");
				assert.match(err.panic, /panic requested by debug export/);
				assert.match(err.message, /core failed in debug: .*panic requested by debug export/);
				return true;
			});
			const replay = await core.recreate();
			assert.ok(replay !== undefined, "session_start replayed");
			assertFine(replay);
			// Without the replay the core would answer "arrived before session_start" with an error.
			assertFine(await core.call("before_agent_start", { prompt: "hi", messageType: "user" }));
			assert.deepEqual((await core.call("debug", { op: "ping" })).effects, [{ t: "output", text: "pong" }]);
			await core.close();
		});

		test(`${build.name}: it exports every export the adapter calls`, async () => {
			const exported = new Set(WebAssembly.Module.exports(await compileCore(build.file)).map((e) => e.name));
			for (const name of EXPORTS) assert.ok(exported.has(name), `${build.file} does not export ${name}, which the adapter calls`);
		});

		test(`${build.name}: a branch entry nested deeper than JSON.stringify can go starts the session all the same (h-v95 a1)`, async () => {
			const { cwd } = tempProject();
			let deep: unknown = "bottom";
			for (let i = 0; i < 20000; i++) deep = { d: deep };
			const branch = [
				{ type: "custom", id: "c1", parentId: null, timestamp: "2026-12-03T10:00:00.000Z", customType: "other-extension", data: deep },
				{ type: "message", id: "m1", parentId: "c1", timestamp: "2026-12-03T10:01:00.000Z", message: { role: "user", content: "hello", timestamp: 1 } },
			];
			const core = new Core(build.file, { branch: () => branch, worker: false });
			assertFine(await core.call("session_start", sessionInput(cwd, { branch })));
			assertFine(await core.call("before_agent_start", { prompt: "hi", messageType: "user" }));
			assert.equal((await core.call("command", { name: "decision", args: "add Use pnpm for workspace installs" })).exit, 0);
			await core.close();
		});

		test(`${build.name}: an instance whose memory grew past recycleBytes and twice its start is replaced between turns, the session replayed, and not again (h-v94 a2, h-v96 a1)`, async () => {
			const { root, cwd } = tempProject();
			// A bound of 4 MiB: the 16 MB turn grows past it; a command before the
			// turn does not (at a bound of 1 byte, the first command's own few pages
			// were "twice the start" of a start of 320 KiB, as the core's rules grew).
			const core = new Core(build.file, { branch: () => [], recycleBytes: 4 << 20, worker: false });
			await core.call("session_start", sessionInput(cwd, { hasUI: true }));
			await core.call("command", { name: "memory", args: "off" });
			// A turn of a pasted 16 MB grows the memory to more than twice what the
			// session took to start; the context hook inside the turn runs on it.
			const big = "2026-11-20T09:00:00 INFO request id=7 status=200\n".repeat(16 << 14);
			const turn = await core.call("before_agent_start", { prompt: big, messageType: "user" });
			assert.ok(!turn.effects.some((e) => e.t === "status"), "the first turn's instance is the session's own");
			const context = await core.call("context", { messages: [{ role: "user", content: big, timestamp: 1 }] });
			assert.ok(!context.effects.some((e) => e.t === "status"), "no replay inside a turn");
			await core.call("agent_settled", {});
			// Between turns, the instance is replaced, and the replay's footer comes first.
			const next = await core.call("before_agent_start", { prompt: "hi", messageType: "user" });
			assert.deepEqual(next.effects[0], { t: "tools", active: [] });
			assert.deepEqual(next.effects[1], { t: "status", key: "pi-memory", text: "memory off (/memory off)" });
			await core.call("agent_settled", {});
			// A fresh instance is not replaced again (h-v96 a1: a session that starts
			// past the limit was replaced at every prompt, each a whole start).
			const again = await core.call("before_agent_start", { prompt: "hi again", messageType: "user" });
			assert.ok(!again.effects.some((e) => e.t === "status"), "not replaced again");
			await core.call("agent_settled", {});
			const add = await core.call("command", { name: "decision", args: "add Use black for Python formatting" });
			assert.equal(add.exit, 1, "off is kept across the replacement");
			assert.equal(fs.existsSync(path.join(root, ".pi")), false);
			await core.close();
		});

		test(`${build.name}: a restart after a trap keeps memory off, and a trap inside /memory on leaves it off`, async () => {
			const { root, cwd } = tempProject();
			const branch: unknown[] = [];
			const core = new Core(build.file, { branch: () => branch });
			await core.call("session_start", sessionInput(cwd, { hasUI: true }));
			await core.call("command", { name: "memory", args: "off" });
			await assert.rejects(core.call("debug", { op: "panic" }), (err: unknown) => err instanceof CoreTrap);
			const replayed = await core.recreate();
			assert.deepEqual(replayed?.effects, [
				{ t: "tools", active: [] },
				{ t: "status", key: "pi-memory", text: "memory off (/memory off)" },
			]);
			const add = await core.call("command", { name: "decision", args: "add Use black for Python formatting" });
			assert.equal(add.exit, 1);
			assert.equal(fs.existsSync(path.join(root, ".pi")), false, "off stays off: nothing written");

			const on = await core.call("command", { name: "memory", args: "on" });
			assert.ok(on.effects.some((e) => e.t === "tools" && e.active.includes("decision_propose")), "on again: the tools come back");
			await core.close();

			// A trap inside /memory on (every command traps here): the restarted core cannot
			// tell whether it took effect, so memory stays off.
			const faulty = new Core(build.file, { branch: () => branch });
			await faulty.call("session_start", sessionInput(cwd, { hasUI: true, fault: "command" }));
			await assert.rejects(faulty.call("command", { name: "memory", args: "on" }), (err: unknown) => err instanceof CoreTrap);
			const again = await faulty.recreate();
			assert.deepEqual(again?.effects.at(-1), { t: "status", key: "pi-memory", text: "memory off (pi-memory restarted after an error)" });
			await faulty.close();
		});

		test(`${build.name}: a prepared core answers its first call from the instance built in the background`, async () => {
			const { cwd } = tempProject();
			const core = new Core(build.file);
			core.prepare();
			core.prepare(); // idempotent
			assertFine(await core.call("session_start", sessionInput(cwd)));
			assertFine(await core.call("before_agent_start", { prompt: "hi", messageType: "user" }));
			await core.close();
		});

		test(`${build.name}: the call after a trap builds a new instance by itself`, async () => {
			const { cwd } = tempProject();
			const core = new Core(build.file);
			await core.call("session_start", sessionInput(cwd, { fault: "before_agent_start" }));
			await assert.rejects(core.call("before_agent_start", { prompt: "hi", messageType: "user" }), (err: unknown) => {
				assert.ok(err instanceof CoreTrap);
				assert.equal(err.exportName, "before_agent_start");
				assert.match(err.panic, /fault injected in before_agent_start/);
				return true;
			});
			assertFine(await core.call("command", { name: "decision", args: "status" })); // session replayed into the new instance
			await core.close();
		});

		test(`${build.name}: a trap in session_start itself is survived by the next call`, async () => {
			const { cwd } = tempProject();
			const core = new Core(build.file);
			// The core arms a fault only once a session exists, so the second session_start traps.
			const input = sessionInput(cwd, { fault: "session_start" });
			await core.call("session_start", input);
			await assert.rejects(core.call("session_start", input), (err: unknown) => err instanceof CoreTrap && err.exportName === "session_start");
			// The call that brings the new instance carries what its replayed session start sets.
			const effects = (await core.call("debug", { op: "ping" })).effects;
			assert.deepEqual(effects.at(-1), { t: "output", text: "pong" });
			assert.deepEqual(
				effects.slice(0, -1).map((e) => e.t),
				["tools", "status"],
			);
			await core.close();
		});

		test(`${build.name}: /decision add writes through the imports (mkdir, lock, append, read, now)`, async () => {
			const { root, cwd } = tempProject();
			const core = new Core(build.file, { now: () => Date.UTC(2026, 10, 21, 12, 0, 0) });
			assertFine(await core.call("session_start", sessionInput(cwd)));
			const dir = path.join(root, ".pi", "decision-memory");
			assert.equal(fs.existsSync(dir), false, "nothing is created at startup");
			assertFine(await core.call("command", { name: "decision", args: 'add "Use tabs for indentation" --tag style', hasUI: false }));
			const lines = fs.readFileSync(path.join(dir, "decisions.jsonl"), "utf8").trim().split("\n");
			assert.equal(lines.length, 1);
			assert.match(lines[0]!, /"t":"2026-11-21T12:00:00.000Z".*"i":"D-2026-11-21-0001".*Use tabs for indentation/);
			assert.deepEqual(fs.readdirSync(dir), ["decisions.jsonl"], "the lock was released");
			const list = await core.call("command", { name: "decision", args: "list", hasUI: false });
			assert.match(JSON.stringify(list.effects), /D-2026-11-21-0001 \| active \| Use tabs for indentation/);
			// A fresh instance reads the log back from disk.
			await core.recreate();
			const inject = await core.call("before_agent_start", { prompt: "indent this", messageType: "user" });
			assert.match(JSON.stringify(inject.effects), /system_prompt_append.*Use tabs for indentation/);
			await core.close();
		});

		test(`${build.name}: two instances adding to one project at once keep every line and unique ids`, async () => {
			const { root, cwd } = tempProject();
			const count = 12;
			const failures = await Promise.all(["A", "B"].map((who) => runAddWorker({ file: build.file, cwd, who, count })));
			assert.deepEqual(failures, [[], []]);
			const dir = path.join(root, ".pi", "decision-memory");
			const ids = fs
				.readFileSync(path.join(dir, "decisions.jsonl"), "utf8")
				.trim()
				.split("\n")
				.map((l) => (JSON.parse(l) as { i: string }).i);
			assert.equal(ids.length, 2 * count);
			assert.equal(new Set(ids).size, ids.length, `duplicate ids: ${ids.join(" ")}`);
			assert.deepEqual(fs.readdirSync(dir), ["decisions.jsonl"], "no lock left behind");
		});

		test(`${build.name}: createPlugin needs only the compiled module; _initialize runs once`, async () => {
			const module = await compileCore(build.file);
			const a = await instantiate(module);
			const b = await instantiate(module);
			assert.notEqual(a.instance, b.instance);
			const out = await a.plugin.call("debug", JSON.stringify({ op: "ping" }));
			assert.equal(out?.text(), '{"v":1,"effects":[{"t":"output","text":"pong"}],"exit":0}');
			await a.plugin.close();
			await b.plugin.close();
		});
	}

	test("the worker thread's script is built and newer than worker.ts and core.ts (make wasm)", () => {
		const built = fs.statSync(new URL("../dist/worker.js", import.meta.url), { throwIfNoEntry: false });
		assert.ok(built !== undefined, "ts/dist/worker.js is missing: run make wasm");
		for (const src of ["../worker.ts", "../core.ts", "../tsconfig.worker.json"]) {
			assert.ok(fs.statSync(new URL(src, import.meta.url)).mtimeMs <= built.mtimeMs, `ts/dist/worker.js is older than ts/${src.slice(3)}: run make wasm`);
		}
	});

	// A project with a thousand earlier sessions or more asks for a worker thread at
	// session_start (decision 001's addendum 3 of 2026-11-29): the Core moves its instance
	// there at the next moment between turns, replaying the session; answers are the same
	// as on this thread, what a turn holds is kept (a decision said in the prompt is still
	// offered after a search in that turn), a trap there is recovered there, and with no
	// worker it stays here, saying so once.
	for (const build of BUILDS) {
		test(`${build.name}: a session with thousands of earlier sessions runs its core in a worker thread from the first moment between turns, with the same answers`, async (t) => {
			const { root } = tempProject();
			const folder = path.join(root, "agent", "sessions", `--${root.replace(/^\//, "").replace(/[/\\:]/g, "-")}--`);
			fs.mkdirSync(folder, { recursive: true });
			for (let i = 0; i <= 5_000; i++) {
				const at = new Date(Date.UTC(2026, 5, 1) + i * 60_000).toISOString();
				const text = i === 5_000 ? "we rotate the kubernetes certificates on fridays" : `session ${i}: deploying the billing service`;
				const lines = [{ type: "session", version: 3, id: `s${i}`, timestamp: at, cwd: root }, { type: "message", id: "m1", timestamp: at, message: { role: "user", content: text } }];
				fs.writeFileSync(path.join(folder, `${at.replace(/[:.]/g, "-")}_s${i}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
			}
			// As the adapter drives a tool call: each yield is answered after the event loop has run.
			const searchOnce = async (core: Core, query: string): Promise<string> => {
				let env = await core.call("tool", { name: "memory_search", params: { query } });
				for (;;) {
					const r = env.effects.find((e) => e.t === "tool_result");
					if (r !== undefined && r.t === "tool_result") return r.text;
					const ask = env.effects.find((e) => e.t === "http");
					assert.ok(ask !== undefined && ask.t === "http" && ask.requests.length === 0, JSON.stringify(env));
					await new Promise((r) => setImmediate(r));
					env = await core.call("resume", { id: ask.id, value: [] });
				}
			};
			// A search is bounded in time (3 s): on a loaded machine one may leave sessions for
			// the next, which goes on with them (decision 018). Searched again until all are read,
			// the answers compare whatever the machine's load.
			const search = async (core: Core, query: string): Promise<string> => {
				for (let i = 0; ; i++) {
					const text = await searchOnce(core, query);
					if (!/not read within this search's budget/.test(text) || i === 20) return text;
				}
			};
			const input = sessionInput(root, { mode: "rpc", hasUI: true });
			const here = new Core(build.file, { worker: false });
			const moving = new Core(build.file);
			const logged: string[] = [];
			const stuck = new Core(build.file, { worker: path.join(root, "no-such-worker.js"), log: (_l, m) => void logged.push(m) });
			t.after(() => Promise.all([here.close(), moving.close(), stuck.close()]));
			for (const c of [here, moving, stuck]) {
				const started = await c.call("session_start", input);
				assertFine(started);
				assert.ok(started.effects.some((e) => e.t === "worker"), "a thousand earlier sessions or more: the core asks for a worker thread");
				assert.equal(c.thread, "main", "nothing moves within session_start");
			}

			// A turn: a decision said in the prompt, a search, the end of the run.
			const turn = async (core: Core): Promise<{ text: string; offered: boolean }> => {
				assertFine(await core.call("before_agent_start", { prompt: "Decision: Use pnpm for every package in this repository", messageType: "user" }));
				const text = await search(core, "kubernetes certificates");
				const end = await core.call("agent_end", { stopReason: "stop", aborted: false, messages: [] });
				const offered = end.effects.some((e) => e.t === "dialog" && /Use pnpm for every package/.test(`${e.title} ${e.message ?? ""}`));
				for (const e of end.effects) if (e.t === "dialog") await core.call("resume", { id: e.id, value: null });
				return { text, offered };
			};
			const want = await turn(here);
			assert.match(want.text, /we rotate the kubernetes certificates on fridays/);
			assert.ok(want.offered, "the decision said in the prompt is offered at the end of the run");
			assert.equal(here.thread, "main");
			assert.deepEqual(await turn(moving), want, "the same answers, and the turn's decision still offered");
			assert.equal(moving.thread, "worker");
			assert.ok(moving.memoryBytes() > 0, "the worker says how large the module's memory is");

			await assert.rejects(moving.call("debug", { op: "panic" }), (err: unknown) => err instanceof CoreTrap && /panic requested by debug export/.test(err.panic));
			const replay = await moving.recreate();
			assert.ok(replay !== undefined, "session_start replayed");
			assertFine(replay);
			assert.equal(moving.thread, "worker", "a trap in the worker is recovered there");
			assert.equal(await search(moving, "kubernetes certificates"), want.text);

			assert.deepEqual(await turn(stuck), want);
			assert.equal(stuck.thread, "main");
			assert.equal(logged.filter((m) => /stays on pi's main thread: no worker thread/.test(m)).length, 1, logged.join("\n"));

			// A session that needs no worker after one that asked for it: the worker started
			// for the move is ended, and the core stays here.
			const switched = new Core(build.file);
			t.after(() => switched.close());
			assertFine(await switched.call("session_start", input));
			assertFine(await switched.call("session_start", sessionInput(tempProject().root, { mode: "rpc" })));
			assertFine(await switched.call("debug", { op: "ping" }));
			assert.equal(switched.thread, "main");

			// Closed, the session is over: a call fails and nothing is started again.
			await moving.close();
			await assert.rejects(moving.call("debug", { op: "ping" }), /after the core was closed/);
			assert.equal(await moving.recreate(), undefined);
		});

		// A session_start of a long branch (16 KiB of input or more) would hold pi's thread
		// 70-190 ms a megabyte (h-v56): the session starts in a worker thread at once, where
		// the core stays, with the answers it gives here; a short one starts here.
		test(`${build.name}: a session_start of a long branch starts the session in a worker thread, with the same answers`, async (t) => {
			const { root } = tempProject();
			const at = (i: number) => new Date(Date.UTC(2026, 5, 1) + i * 1000).toISOString();
			const branch = Array.from({ length: 1_200 }, (_, i) => ({
				type: "message",
				id: `m${i}`,
				parentId: i === 0 ? null : `m${i - 1}`,
				timestamp: at(i),
				message: { role: i % 2 === 0 ? "user" : "assistant", content: [{ type: "text", text: `step ${i}: ${"the billing service deploys on fridays ".repeat(6)}` }], timestamp: Date.parse(at(i)) },
			}));
			const input = { ...sessionInput(root, { mode: "rpc", hasUI: true }), branch };
			assert.ok(JSON.stringify(input).length >= 256 << 10, "a long branch");
			const here = new Core(build.file, { worker: false });
			const off = new Core(build.file);
			const short = new Core(build.file);
			t.after(() => Promise.all([here.close(), off.close(), short.close()]));
			const kept = (env: Envelope) => env.effects.filter((e) => e.t === "status" || e.t === "tools");
			const want = await here.call("session_start", input);
			assertFine(want);
			const got = await off.call("session_start", input);
			assertFine(got);
			assert.equal(here.thread, "main");
			assert.equal(off.thread, "worker", "the session started in the worker");
			assert.deepEqual(kept(got), kept(want));
			const status = async (core: Core) => (await core.call("command", { name: "memory", args: "status", branch })).effects.filter((e) => e.t === "output");
			assert.deepEqual(await status(off), await status(here));
			assert.equal(off.thread, "worker");
			assertFine(await short.call("session_start", sessionInput(tempProject().root, { mode: "rpc" })));
			assert.equal(short.thread, "main", "a short session starts here");
			const print = new Core(build.file);
			t.after(() => print.close());
			assertFine(await print.call("session_start", { ...input, mode: "print" }));
			assert.equal(print.thread, "main", "pi -p has no terminal to keep free");
		});
	}

	// A session of an interactive pi on a project whose MEMORY.md is small (no worker yet).
	async function smallMemorySession(file: string, t: { after: (fn: () => unknown) => void }): Promise<{ core: Core; notes: string; started: Envelope }> {
		const { root } = tempProject();
		const notes = path.join(root, ".pi", "memory", "MEMORY.md");
		fs.mkdirSync(path.dirname(notes), { recursive: true });
		fs.writeFileSync(notes, "## Notes\n\n- Use pnpm\n");
		const core = new Core(file);
		t.after(() => core.close());
		const started = await core.call("session_start", sessionInput(root, { mode: "rpc", hasUI: true }));
		assertFine(started);
		return { core, notes, started };
	}

	// Memory that grows bulky while a session runs (a git pull brings a MEMORY.md of
	// thousands of lines) asks for the worker when pi is idle after the run, and a command
	// typed then runs there: pi has settled, so it is a moment between turns (h-v31, h-v33:
	// /memory forget held pi's thread 161 + 304 ms until the next prompt).
	for (const build of BUILDS) {
		test(`${build.name}: memory grown bulky mid-session moves the core to a worker before the next command`, async (t) => {
			const { core, notes, started } = await smallMemorySession(build.file, t);
			assert.ok(!started.effects.some((e) => e.t === "worker"), "small memory: no worker");
			assertFine(await core.call("before_agent_start", { prompt: "hello", messageType: "user" }));
			assertFine(await core.call("agent_end", { stopReason: "stop", aborted: false, messages: [] }));
			fs.writeFileSync(notes, "## Notes\n\n" + "- Keep the billing retries behind one interface so it can be swapped\n".repeat(300));
			const settled = await core.call("agent_settled", {});
			assert.ok(settled.effects.some((e) => e.t === "worker"), "grown past 8 KiB: the core asks for a worker");
			assertFine(await core.call("command", { name: "memory", args: "status" }));
			assert.equal(core.thread, "worker", "the command after the settle runs in the worker");
		});
	}

	// A command typed while another one's work goes on in slices (its asks of no request,
	// answered on the next turn of pi's event loop) is no moment between turns: an ask is
	// open. Memory grown bulky during a turn asked for the worker at the settle while a
	// /memory search typed during that turn was still reading in slices; /memory forget
	// typed next ran between two of them, whole, on pi's thread (issue 25, h-v35 B1: 9 to 40 s
	// on a 3.9 MiB MEMORY.md). It waits for the slices to end, then moves and runs there.
	for (const build of BUILDS) {
		test(`${build.name}: a command typed while another's slices go on waits for them, then runs in the worker asked for`, async (t) => {
			const { core, notes } = await smallMemorySession(build.file, t);
			assertFine(await core.call("before_agent_start", { prompt: "hello", messageType: "user" }));
			fs.writeFileSync(notes, "## Notes\n\n" + "- Keep the billing retries behind one interface so it can be swapped\n".repeat(60_000));
			// During the turn: a command whose work goes on in slices.
			const slice = (env: Envelope) => env.effects.find((e): e is Extract<Effect, { t: "http" }> => e.t === "http" && e.requests.length === 0);
			let first = await core.call("command", { name: "memory", args: "search pnpm" });
			let ask = slice(first);
			assert.ok(ask !== undefined, `4 MiB of notes are read in slices: ${JSON.stringify(first.effects.map((e) => e.t))}`);
			assertFine(await core.call("agent_end", { stopReason: "stop", aborted: false, messages: [] }));
			const settled = await core.call("agent_settled", {});
			assert.ok(settled.effects.some((e) => e.t === "worker"), "grown bulky: the core asks for a worker");
			// Typed between two slices.
			let where: string | undefined;
			const next = core.call("command", { name: "memory", args: "status" }).then((env) => ((where = core.thread), env));
			let slices = 0;
			while (ask !== undefined) {
				await new Promise((r) => setImmediate(r));
				first = await core.call("resume", { id: ask.id, value: [] });
				ask = slice(first);
				slices++;
			}
			assertFine(first);
			let env = await next;
			assert.equal(where, "worker", `the command typed between two slices ran on pi's thread (${slices} slices after it)`);
			for (let a = slice(env); a !== undefined; a = slice(env)) env = await core.call("resume", { id: a.id, value: [] });
			assertFine(env);
		});
	}

	// The worker's session is started as soon as the worker is, so the move between turns
	// need not wait for it (a session_start of 100,000 decisions takes 50-200 ms); a session
	// that is not the one started there by the move is started there again. A decision log
	// over 8 MiB asks for the worker, once the project is trusted (an answer to the dialog).
	for (const build of BUILDS) {
		test(`${build.name}: a large decision log asks for the worker once trusted, and the core moves with the session as it is at the move`, async (t) => {
			const lines: string[] = [];
			for (let i = 1; i <= 36_000; i++) {
				const d = { tx: `Decision ${i}: keep the billing service's retries behind one interface so it can be swapped later, and revisit when traffic grows.`, tg: ["billing"], s: "active", r: "", sp: null, c: [] };
				lines.push(JSON.stringify({ v: 1, t: "2026-01-02T09:00:00.000Z", p: "5f1c2a9be07d43aa", e: "a", i: `D-2026-01-02-${String(i).padStart(4, "0")}`, d, u: "user" }));
			}
			const project = (note: string): string => {
				const { root } = tempProject();
				fs.mkdirSync(path.join(root, ".pi", "memory"), { recursive: true });
				fs.writeFileSync(path.join(root, ".pi", "memory", "MEMORY.md"), `# Project memory\n\n- ${note}\n`);
				fs.mkdirSync(path.join(root, ".pi", "decision-memory"), { recursive: true });
				fs.writeFileSync(path.join(root, ".pi", "decision-memory", "decisions.jsonl"), lines.join("\n") + "\n");
				return root;
			};
			const a = project("We rotate the kubernetes certificates on fridays");
			const b = project("We deploy the billing service on tuesdays");
			const injected = async (core: Core): Promise<string> => {
				const turn = await core.call("before_agent_start", { prompt: "When do we do things?", messageType: "user" });
				const block = turn.effects.find((e) => e.t === "system_prompt_append");
				return block !== undefined && block.t === "system_prompt_append" ? block.text : "";
			};

			// Untrusted, then trusted by the person's answer: the answer's envelope asks for the worker.
			const asked = new Core(build.file);
			t.after(() => asked.close());
			const started = await asked.call("session_start", sessionInput(b, { mode: "interactive", hasUI: true, trusted: false, trust: { approve: null, judged: false, store: null, default: "ask" } }));
			assert.ok(!started.effects.some((e) => e.t === "worker"), "untrusted, the log is not read");
			const dialog = started.effects.find((e) => e.t === "dialog");
			assert.ok(dialog !== undefined && dialog.t === "dialog" && /Trust this project's memory/.test(dialog.title), JSON.stringify(started.effects));
			const answered = await asked.call("resume", { id: dialog.id, value: "Trust this project's memory (this session only)" });
			assertFine(answered);
			assert.ok(answered.effects.some((e) => e.t === "worker"), "trusted, a decision log over 8 MiB asks for a worker thread");
			assert.equal(asked.thread, "main", "an answer is no moment between turns");
			assert.match(await injected(asked), /We deploy the billing service on tuesdays/, "the moved session is trusted");
			assert.equal(asked.thread, "worker");

			// The worker's session started for one project; the move comes in another's.
			const moving = new Core(build.file);
			t.after(() => moving.close());
			assert.ok((await moving.call("session_start", sessionInput(a, { mode: "rpc" }))).effects.some((e) => e.t === "worker"));
			await new Promise((r) => setTimeout(r, 1500)); // the worker and its session start meanwhile
			assert.ok((await moving.call("session_start", sessionInput(b, { mode: "rpc" }))).effects.some((e) => e.t === "worker"));
			const text = await injected(moving);
			assert.equal(moving.thread, "worker");
			assert.match(text, /We deploy the billing service on tuesdays/);
			assert.doesNotMatch(text, /kubernetes/, "not the session the worker started first");
		});
	}

	// A session that does not start in the worker thread stays on this one, and says so;
	// the next session_start tries a worker again (what failed may have been that session's).
	test("a session that does not start in the worker stays here, and the next session tries the worker again", async (t) => {
		const { root } = tempProject();
		const line = (i: number): string => JSON.stringify({ v: 1, t: "2026-01-02T09:00:00.000Z", p: "5f1c2a9be07d43aa", e: "a", i: `D-2026-01-02-${String(i).padStart(4, "0")}`, d: { tx: `Decision ${i}: keep the billing service's retries behind one interface so it can be swapped later, and revisit when traffic grows.`, tg: ["billing"], s: "active", r: "", sp: null, c: [] }, u: "user" });
		fs.mkdirSync(path.join(root, ".pi", "decision-memory"), { recursive: true });
		fs.writeFileSync(path.join(root, ".pi", "decision-memory", "decisions.jsonl"), Array.from({ length: 36_000 }, (_, i) => line(i + 1)).join("\n") + "\n");
		// A worker thread that starts and traps on every call.
		const fake = path.join(root, "trapping-worker.mjs");
		fs.writeFileSync(fake, `import { parentPort } from "node:worker_threads";
parentPort.on("message", (m) => parentPort.postMessage(m.t === "start" ? { t: "started" } : m.t === "drop" ? { t: "dropped" } : { t: "trapped", panic: "", error: new Error("fake trap") }));\n`);
		const logged: string[] = [];
		const core = new Core(BUILDS[0]!.file, { worker: fake, log: (_l, m) => void logged.push(m) });
		t.after(() => core.close());
		const said = () => logged.filter((m) => /stays on pi's main thread for this session: it did not start in the worker thread \(fake trap\)/.test(m)).length;
		for (let session = 1; session <= 2; session++) {
			const started = await core.call("session_start", sessionInput(root, { mode: "rpc" }));
			assert.ok(started.effects.some((e) => e.t === "worker"), JSON.stringify(started.effects));
			for (let i = 0; i < 100 && said() < session; i++) await new Promise((r) => setTimeout(r, 50));
			assertFine(await core.call("before_agent_start", { prompt: "hello", messageType: "user" }));
			assert.equal(core.thread, "main");
			assert.equal(said(), session, logged.join("\n"));
		}
	});

	test("starting a core does not load Node's fetch stack (Extism would, given a manifest object)", () => {
		const core = new URL("../core.ts", import.meta.url).href;
		const wasm = new URL("../core.wasm", import.meta.url).pathname;
		const script = `import { Core } from ${JSON.stringify(core)};
			await new Core(${JSON.stringify(wasm)}).call("debug", { op: "ping" });
			console.log(process.moduleLoadList.filter((m) => m.includes("undici")).length);`;
		const out = execFileSync(process.execPath, ["--disable-warning=ExperimentalWarning", "--input-type=module", "-e", script], { encoding: "utf8" });
		assert.equal(out.trim(), "0");
	});

	test("an unreadable module file fails the first call, not the constructor", async () => {
		const core = new Core(path.join(os.tmpdir(), "pimem-no-such-core.wasm"));
		await assert.rejects(core.call("debug", { op: "ping" }), /ENOENT/);
	});
}

test("inputJSON writes an entry too deep for JSON.stringify as its own flat fields", () => {
	let deep: unknown = 1;
	for (let i = 0; i < 20000; i++) deep = [deep];
	const got = JSON.parse(inputJSON({ cwd: "/p", branch: [{ type: "custom", id: "a", data: deep }, { type: "message", id: "b" }], n: 2 }));
	assert.deepEqual(got, { cwd: "/p", branch: [{ tooDeep: true, type: "custom", id: "a" }, { type: "message", id: "b" }], n: 2 });
	assert.equal(inputJSON({ a: [1, "x"] }), '{"a":[1,"x"]}');
});
