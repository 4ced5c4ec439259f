// Every host function of the contract, driven from inside a real WebAssembly instance.
// The core today imports only pm_fs_stat and pm_last_error (the rest are not linked in
// yet), so this file builds a tiny module that imports every `extism:host/user` and
// WASI function and re-exports each one unchanged. Calls go through Extism exactly as
// the core's do, and every path, buffer and result crosses guest memory.

import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { fileID, Host, instantiate, type HostOptions, type Instance } from "../core.ts";

// ---- A pass-through module, assembled by hand --------------------------------------

const I32 = 0x7f;
const I64 = 0x7e;

interface Sig {
	params: number[];
	results: number[];
}

const USER: Record<string, Sig> = {
	pm_fs_read: { params: [I32, I32, I64, I32, I32], results: [I64] },
	pm_fs_stat: { params: [I32, I32, I32], results: [I32] },
	pm_fs_lstat: { params: [I32, I32, I32], results: [I32] },
	pm_fs_append: { params: [I32, I32, I32, I32], results: [I32] },
	pm_fs_write_atomic: { params: [I32, I32, I32, I32], results: [I32] },
	pm_fs_rename: { params: [I32, I32, I32, I32], results: [I32] },
	pm_fs_list: { params: [I32, I32, I32, I32], results: [I64] },
	pm_fs_mkdir: { params: [I32, I32], results: [I32] },
	pm_fs_remove: { params: [I32, I32], results: [I32] },
	pm_lock: { params: [I32, I32, I32, I32], results: [I32] },
	pm_unlock: { params: [I32, I32], results: [I32] },
	pm_now: { params: [], results: [I64] },
	pm_random: { params: [I32, I32], results: [I32] },
	pm_log: { params: [I32, I32, I32], results: [] },
	pm_last_error: { params: [I32, I32], results: [I32] },
	pm_input: { params: [I32, I32], results: [I64] },
	pm_output: { params: [I32, I32], results: [I32] },
};

const WASI: Record<string, Sig> = {
	fd_write: { params: [I32, I32, I32, I32], results: [I32] },
	fd_close: { params: [I32], results: [I32] },
	fd_seek: { params: [I32, I64, I32, I32], results: [I32] },
	fd_fdstat_get: { params: [I32, I32], results: [I32] },
	fd_fdstat_set_flags: { params: [I32, I32], results: [I32] },
	fd_prestat_get: { params: [I32, I32], results: [I32] },
	fd_prestat_dir_name: { params: [I32, I32, I32], results: [I32] },
	args_sizes_get: { params: [I32, I32], results: [I32] },
	args_get: { params: [I32, I32], results: [I32] },
	environ_sizes_get: { params: [I32, I32], results: [I32] },
	environ_get: { params: [I32, I32], results: [I32] },
	clock_time_get: { params: [I32, I64, I32], results: [I32] },
	random_get: { params: [I32, I32], results: [I32] },
	proc_exit: { params: [I32], results: [] },
	sched_yield: { params: [], results: [I32] },
	poll_oneoff: { params: [I32, I32, I32, I32], results: [I32] },
};

function uleb(n: number): number[] {
	const out: number[] = [];
	do {
		let b = n & 0x7f;
		n >>>= 7;
		if (n !== 0) b |= 0x80;
		out.push(b);
	} while (n !== 0);
	return out;
}

function str(s: string): number[] {
	const b = [...new TextEncoder().encode(s)];
	return [...uleb(b.length), ...b];
}

function vec(items: number[][]): number[] {
	return [...uleb(items.length), ...items.flat()];
}

function section(id: number, body: number[]): number[] {
	return [id, ...uleb(body.length), ...body];
}

/** A module importing every host function and exporting each as `name` (WASI ones as `wasi_name`), plus memory. */
function passThroughModule() {
	const imports = [
		...Object.entries(USER).map(([name, sig]) => ({ ns: "extism:host/user", name, exportName: name, sig })),
		...Object.entries(WASI).map(([name, sig]) => ({ ns: "wasi_snapshot_preview1", name, exportName: `wasi_${name}`, sig })),
	];
	const n = imports.length;
	const types = imports.map((i) => [0x60, ...vec(i.sig.params.map((p) => [p])), ...vec(i.sig.results.map((r) => [r]))]);
	const importEntries = imports.map((i, idx) => [...str(i.ns), ...str(i.name), 0x00, ...uleb(idx)]);
	const funcs = imports.map((_, idx) => uleb(idx));
	const memory = [[0x00, ...uleb(4)]]; // 4 pages: room for a 100 KB buffer
	const exports = [...imports.map((i, idx) => [...str(i.exportName), 0x00, ...uleb(n + idx)]), [...str("memory"), 0x02, 0x00]];
	const bodies = imports.map((i, idx) => {
		const code = [0x00]; // no locals
		i.sig.params.forEach((_, p) => code.push(0x20, ...uleb(p))); // local.get p
		code.push(0x10, ...uleb(idx), 0x0b); // call the import; end
		return [...uleb(code.length), ...code];
	});
	return new Uint8Array([
		0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
		...section(1, vec(types)),
		...section(2, vec(importEntries)),
		...section(3, vec(funcs)),
		...section(5, vec(memory)),
		...section(7, vec(exports)),
		...section(10, vec(bodies)),
	]);
}

const moduleBytes = passThroughModule();

// ---- Driving it ------------------------------------------------------------------------

type Fn = (...args: (number | bigint)[]) => number | bigint | undefined;

// Guest addresses used by the tests.
const P1 = 0;
const P2 = 4096;
const BUF = 8192;
const BIG = 65536;

/** One instance of the pass-through module and helpers over its memory. */
class Guest {
	readonly live: Instance;

	constructor(live: Instance) {
		this.live = live;
	}

	static async start(options: HostOptions = {}): Promise<Guest> {
		return new Guest(await instantiate(await WebAssembly.compile(moduleBytes), options));
	}

	get host(): Host {
		return this.live.host;
	}

	get memory(): WebAssembly.Memory {
		const m = this.live.instance.exports.memory;
		if (!(m instanceof WebAssembly.Memory)) throw new Error("no memory");
		return m;
	}

	bytes(ptr: number, len: number): Uint8Array {
		return new Uint8Array(this.memory.buffer, ptr, len).slice();
	}

	/** Writes s (text or bytes) at ptr; returns [ptr, length]. */
	put(ptr: number, s: string | Uint8Array): [number, number] {
		const b = typeof s === "string" ? new TextEncoder().encode(s) : s;
		new Uint8Array(this.memory.buffer).set(b, ptr);
		return [ptr, b.length];
	}

	fill(ptr: number, len: number, value: number): void {
		new Uint8Array(this.memory.buffer, ptr, len).fill(value);
	}

	call(name: string, ...args: (number | bigint)[]): number | bigint | undefined {
		const f = this.live.instance.exports[name];
		if (typeof f !== "function") throw new Error(`no export ${name}`);
		return (f as Fn)(...args);
	}

	/** Calls a path-taking import with the path written at P1. */
	onPath(name: string, p: string, ...rest: (number | bigint)[]): number | bigint | undefined {
		return this.call(name, ...this.put(P1, p), ...rest);
	}

	/** The last error, read back through pm_last_error into guest memory. */
	lastError(): string {
		const n = Number(this.call("pm_last_error", BUF, 1024));
		return new TextDecoder().decode(this.bytes(BUF, Math.min(n, 1024)));
	}

	u32(ptr: number): number {
		return new DataView(this.memory.buffer).getUint32(ptr, true);
	}

	u64(ptr: number): bigint {
		return new DataView(this.memory.buffer).getBigUint64(ptr, true);
	}
}

function tempDir(): string {
	return fs.mkdtempSync(path.join(os.tmpdir(), "pimem-imports-"));
}

// ---- Lock contention runs in worker threads: one plugin instance per thread ---------

interface LockJob {
	lock: string;
	counter: string;
	inside: string;
	rounds: number;
}

interface LockReport {
	failures: string[];
	doubles: number;
}

async function lockWorker(job: LockJob): Promise<LockReport> {
	const g = await Guest.start();
	const failures: string[] = [];
	let doubles = 0;
	for (let i = 0; i < job.rounds; i++) {
		const rc = g.onPath("pm_lock", job.lock, 10_000, 5_000);
		if (rc !== 0) {
			failures.push(`lock: ${rc} ${g.lastError()}`);
			continue;
		}
		// Nobody else may be inside: creating the marker exclusively proves it.
		try {
			fs.closeSync(fs.openSync(job.inside, "wx"));
		} catch {
			doubles++;
		}
		const n = Number(fs.readFileSync(job.counter, "utf8"));
		fs.writeFileSync(job.counter, String(n + 1));
		fs.rmSync(job.inside, { force: true });
		const un = g.onPath("pm_unlock", job.lock);
		if (un !== 0) failures.push(`unlock: ${un} ${g.lastError()}`);
	}
	return { failures, doubles };
}

// ---- Calls that could block run in a child process under a watchdog -----------------
//
// A host that waits on a FIFO blocks its thread for good, and a watchdog on that same
// thread never fires; a child process can be killed. So these calls run in a fresh
// Node process (this file, told by PIMEM_IMPORTS_JOB what to do), which answers one
// line per call and is killed, failing the test, when a call has not answered after
// WATCHDOG_MS. Every call returns at once or never, so this is no speed limit; nor is
// START_MS, the generous time the child has to start and instantiate the module.

const WATCHDOG_MS = 5_000;
const START_MS = 60_000;

type Step =
	| { fn: "read"; path: string; n?: number }
	| { fn: "stat" | "lstat" | "list" | "unlock"; path: string }
	| { fn: "append" | "write"; path: string; data: string }
	| { fn: "lock"; path: string; wait: number; stale: number }
	| { fn: "rm" | "mkfifo"; path: string }; // done by the child itself, between calls

interface Outcome {
	rc: number;
	err?: string;
	data?: string;
	kind?: number;
	size?: number;
}

async function runJob(steps: Step[]): Promise<void> {
	const g = await Guest.start();
	process.stdout.write("ready\n");
	for (const s of steps) {
		let out: Outcome;
		switch (s.fn) {
			case "read": {
				const rc = Number(g.onPath("pm_fs_read", s.path, 0n, BUF, s.n ?? 64));
				out = rc >= 0 ? { rc, data: new TextDecoder().decode(g.bytes(BUF, rc)) } : { rc };
				break;
			}
			case "stat":
			case "lstat": {
				const rc = Number(g.onPath(`pm_fs_${s.fn}`, s.path, BUF));
				out = rc === 0 ? { rc, kind: g.u32(BUF + 16), size: Number(g.u64(BUF)) } : { rc };
				break;
			}
			case "list":
				out = { rc: Number(g.onPath("pm_fs_list", s.path, BUF, 1024)) };
				break;
			case "append":
			case "write":
				out = { rc: Number(g.call(s.fn === "append" ? "pm_fs_append" : "pm_fs_write_atomic", ...g.put(P1, s.path), ...g.put(BUF, s.data))) };
				break;
			case "lock":
				out = { rc: Number(g.onPath("pm_lock", s.path, s.wait, s.stale)) };
				break;
			case "unlock":
				out = { rc: Number(g.onPath("pm_unlock", s.path)) };
				break;
			case "rm":
				fs.rmSync(s.path);
				out = { rc: 0 };
				break;
			case "mkfifo":
				execFileSync("mkfifo", [s.path]);
				out = { rc: 0 };
				break;
		}
		if (out.rc < 0) out.err = g.lastError();
		// One line per step: if a later step hangs, the parent still sees how far it got.
		process.stdout.write(`${JSON.stringify(out)}\n`);
	}
}

/** Runs the steps in a child process; fails the test if any of them blocks. */
function inChild(steps: Step[]): Promise<Outcome[]> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
			env: { ...process.env, PIMEM_IMPORTS_JOB: JSON.stringify(steps) },
			stdio: ["ignore", "pipe", "pipe"],
		});
		const done: Outcome[] = [];
		let pending = "";
		let stderr = "";
		let hung: string | undefined;
		let timer = setTimeout(() => kill(`the child did not start within ${START_MS} ms`), START_MS);
		function kill(why: string): void {
			hung = why;
			child.kill("SIGKILL");
		}
		function arm(): void {
			clearTimeout(timer);
			timer = setTimeout(() => kill(`${JSON.stringify(steps[done.length])} has not returned after ${WATCHDOG_MS} ms: the host is blocked`), WATCHDOG_MS);
		}
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => void (stderr += chunk));
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			pending += chunk;
			for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
				const line = pending.slice(0, nl);
				pending = pending.slice(nl + 1);
				if (line !== "ready") done.push(JSON.parse(line) as Outcome);
				arm();
			}
		});
		child.on("close", (code) => {
			clearTimeout(timer);
			if (hung !== undefined) reject(new assert.AssertionError({ message: hung }));
			else if (code !== 0) reject(new Error(`the child failed (exit ${code}): ${stderr}`));
			else resolve(done);
		});
	});
}

/** Makes a unix socket file at p; the returned function closes (and removes) it. */
async function makeSocket(p: string): Promise<() => Promise<void>> {
	const server = net.createServer();
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(p, resolve);
	});
	return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

const job = process.env.PIMEM_IMPORTS_JOB;
if (job !== undefined) {
	runJob(JSON.parse(job) as Step[]).then(
		() => process.exit(0),
		(err: unknown) => {
			process.stderr.write(`${String(err)}\n`);
			process.exit(1);
		},
	);
} else if (!isMainThread && parentPort !== null) {
	const port = parentPort;
	lockWorker(workerData as LockJob).then(
		(report) => port.postMessage(report),
		(err: unknown) => port.postMessage({ failures: [String(err)], doubles: 0 }),
	);
} else {
	tests();
}

function runWorker(job: LockJob): Promise<LockReport> {
	return new Promise((resolve, reject) => {
		const w = new Worker(new URL(import.meta.url), { workerData: job });
		w.once("message", (r: LockReport) => resolve(r));
		w.once("error", reject);
	});
}

// ---- The tests -------------------------------------------------------------------------

function tests(): void {
	test("pm_fs_read fills guest memory from an offset and answers 0 at the end", async () => {
		const dir = tempDir();
		const file = path.join(dir, "log.jsonl");
		fs.writeFileSync(file, "hello world");
		const g = await Guest.start();
		assert.equal(g.onPath("pm_fs_read", file, 6n, BUF, 100), 5n);
		assert.equal(new TextDecoder().decode(g.bytes(BUF, 5)), "world");
		assert.equal(g.onPath("pm_fs_read", file, 11n, BUF, 100), 0n);
		assert.equal(g.onPath("pm_fs_read", file, 0n, BUF, 5), 5n);
		assert.equal(new TextDecoder().decode(g.bytes(BUF, 5)), "hello");
	});

	test("pm_fs_read maps failures to the contract's codes and explains them", async () => {
		const dir = tempDir();
		const g = await Guest.start();
		assert.equal(g.onPath("pm_fs_read", path.join(dir, "missing"), 0n, BUF, 10), -1n);
		assert.match(g.lastError(), /^ENOENT: no such file or directory, open .*missing/);
		assert.equal(g.onPath("pm_fs_read", dir, 0n, BUF, 10), -4n);
		assert.equal(g.onPath("pm_fs_read", "relative/path", 0n, BUF, 10), -7n);
		assert.match(g.lastError(), /absolute/);
		assert.equal(g.onPath("pm_fs_read", path.join(dir, "x"), -1n, BUF, 10), -7n);
		assert.equal(g.call("pm_fs_read", 0x7fff_fff0, 64, 0n, BUF, 10), -7n, "a path outside memory is a bad argument");
	});

	test("host functions see memory that grew after the instance started", async () => {
		const dir = tempDir();
		const file = path.join(dir, "f");
		fs.writeFileSync(file, "grown");
		const g = await Guest.start();
		const before = g.memory.buffer.byteLength;
		g.memory.grow(1);
		assert.equal(g.onPath("pm_fs_read", file, 0n, before + 10, 5), 5n);
		assert.equal(new TextDecoder().decode(g.bytes(before + 10, 5)), "grown");
	});

	test("fileID folds device and inode as hostio.FileID does", () => {
		assert.equal(fileID(0n, 0n), 1768495365);
		assert.equal(fileID(2049n, 1234567n), 1176686271);
		assert.equal(fileID((1n << 63n) | 5n, (1n << 40n) + 7n), 1455615452);
	});

	test("pm_fs_stat writes size, mtime in ms, kind and the file's identity", async () => {
		const dir = tempDir();
		const file = path.join(dir, "f");
		fs.writeFileSync(file, "12345");
		fs.utimesSync(file, 1_700_000_000.5, 1_700_000_000.5); // seconds; .5 is exact in binary
		const g = await Guest.start();
		g.fill(BUF, 24, 0xaa);
		assert.equal(g.onPath("pm_fs_stat", file, BUF), 0);
		assert.equal(g.u64(BUF), 5n);
		assert.equal(g.u64(BUF + 8), 1_700_000_000_500n);
		// Before 1970, floored as the Go host floors it (h-v95 a4).
		execFileSync("touch", ["-d", "@-1.0005", file]); // fs.utimes takes a time before 1970 for now
		assert.equal(g.onPath("pm_fs_stat", file, BUF), 0);
		assert.equal(g.u64(BUF + 8), BigInt.asUintN(64, -1001n));
		fs.utimesSync(file, 1_700_000_000.5, 1_700_000_000.5);
		assert.equal(g.u32(BUF + 16), 1);
		const st = fs.statSync(file, { bigint: true });
		assert.equal(g.u32(BUF + 20), fileID(st.dev, st.ino));
		fs.appendFileSync(file, "6");
		assert.equal(g.onPath("pm_fs_stat", file, BUF), 0);
		assert.equal(g.u32(BUF + 20), fileID(st.dev, st.ino), "an append keeps the file");
		fs.writeFileSync(file + ".new", "123456");
		fs.renameSync(file + ".new", file);
		assert.equal(g.onPath("pm_fs_stat", file, BUF), 0);
		assert.notEqual(g.u32(BUF + 20), fileID(st.dev, st.ino), "a file renamed over the path is another");
		assert.equal(g.onPath("pm_fs_stat", dir, BUF), 0);
		assert.equal(g.u32(BUF + 20), 0, "only files carry one");
		assert.equal(g.u64(BUF), fs.statSync(dir, { bigint: true }).size, "a folder's size as the file system counts its entries, as in the Go host");
		assert.equal(g.u32(BUF + 16), 2);
		assert.equal(g.onPath("pm_fs_stat", path.join(dir, "missing"), BUF), -1);
		assert.match(g.lastError(), /^ENOENT: no such file or directory, stat .*missing/);
		assert.equal(g.onPath("pm_fs_stat", path.join(file, "below"), BUF), -4, "a file is not a folder");
	});

	test("pm_fs_stat and pm_fs_lstat tell a missing entry from a path through a file, as the thrown errors do", async () => {
		const dir = tempDir();
		const file = path.join(dir, "f");
		fs.writeFileSync(file, "12345");
		const g = await Guest.start();
		const cases: [string, string, number, RegExp][] = [
			["missing in a folder", path.join(dir, "missing"), -1, /^ENOENT: no such file or directory, (l?stat) '.*missing'$/],
			["below a missing folder", path.join(dir, "no", "missing"), -1, /^ENOENT: no such file or directory, (l?stat) '.*missing'$/],
			["below a file", path.join(file, "below"), -4, /^ENOTDIR: not a directory, (l?stat) '.*below'$/],
			["a file with a trailing slash", `${file}/`, -4, /^ENOTDIR: not a directory, (l?stat) '.*f\/'$/],
		];
		for (const op of ["pm_fs_stat", "pm_fs_lstat"]) {
			for (const [name, p, code, message] of cases) {
				assert.equal(g.onPath(op, p, BUF), code, `${op}: ${name}`);
				const m = message.exec(g.lastError());
				assert.ok(m !== null && m[1] === op.slice("pm_fs_".length), `${op}: ${name}: ${g.lastError()}`);
			}
		}
	});

	test("pm_fs_append creates the file, never its folder, and appends", async () => {
		const dir = tempDir();
		const file = path.join(dir, "log.jsonl");
		const g = await Guest.start();
		assert.equal(g.call("pm_fs_append", ...g.put(P1, file), ...g.put(BUF, "one\n")), 0);
		assert.equal(g.call("pm_fs_append", ...g.put(P1, file), ...g.put(BUF, "two\n")), 0);
		assert.equal(fs.readFileSync(file, "utf8"), "one\ntwo\n");
		const orphan = path.join(dir, "no", "such", "log.jsonl");
		assert.equal(g.call("pm_fs_append", ...g.put(P1, orphan), ...g.put(BUF, "x\n")), -1);
		assert.equal(fs.existsSync(path.join(dir, "no")), false);
	});

	test("pm_fs_append is one write on a descriptor opened for appending", async (t) => {
		const dir = tempDir();
		const file = path.join(dir, "log.jsonl");
		fs.writeFileSync(file, "first\n");
		const g = await Guest.start();
		const line = new Uint8Array(100_000).fill(0x61);
		line[line.length - 1] = 0x0a;
		const opens = t.mock.method(fs, "openSync");
		const writes = t.mock.method(fs, "writeSync");
		assert.equal(g.call("pm_fs_append", ...g.put(P1, file), ...g.put(BIG, line)), 0);
		assert.deepEqual(
			opens.mock.calls.map((c) => c.arguments.slice(0, 2)),
			[[file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY]],
		);
		assert.equal(writes.mock.callCount(), 1);
		assert.equal(fs.statSync(file).size, 6 + line.length);
	});

	test("pm_fs_write_atomic replaces the file and leaves no temp file behind", async () => {
		const dir = tempDir();
		const file = path.join(dir, "MEMORY.md");
		fs.writeFileSync(file, "old");
		const g = await Guest.start();
		assert.equal(g.call("pm_fs_write_atomic", ...g.put(P1, file), ...g.put(BUF, "new content")), 0);
		assert.equal(fs.readFileSync(file, "utf8"), "new content");
		assert.deepEqual(fs.readdirSync(dir), ["MEMORY.md"]);
		const orphan = path.join(dir, "missing", "f");
		assert.equal(g.call("pm_fs_write_atomic", ...g.put(P1, orphan), ...g.put(BUF, "x")), -1);
		assert.deepEqual(fs.readdirSync(dir), ["MEMORY.md"]);
	});

	test("pm_fs_rename replaces the file and keeps its mode, as an atomic write does", async () => {
		const dir = tempDir();
		const file = path.join(dir, "MEMORY.md");
		const staged = path.join(dir, ".MEMORY.md.tmp-1");
		fs.writeFileSync(file, "old");
		fs.chmodSync(file, 0o600);
		const g = await Guest.start();
		assert.equal(g.call("pm_fs_write_atomic", ...g.put(P1, staged), ...g.put(BUF, "new content")), 0);
		assert.equal(g.call("pm_fs_rename", ...g.put(P1, staged), ...g.put(P2, file)), 0, g.lastError());
		assert.equal(fs.readFileSync(file, "utf8"), "new content");
		assert.equal(fs.statSync(file).mode & 0o777, 0o600);
		assert.deepEqual(fs.readdirSync(dir), ["MEMORY.md"]);
	});

	test("a read-only file (chmod a-w) is replaced neither by pm_fs_write_atomic nor by pm_fs_rename, root or not (the Go host does the same)", async () => {
		const dir = tempDir();
		const file = path.join(dir, "MEMORY.md");
		fs.writeFileSync(file, "locked by its owner");
		fs.chmodSync(file, 0o444);
		const g = await Guest.start();
		assert.equal(g.call("pm_fs_write_atomic", ...g.put(P1, file), ...g.put(BUF, "new content")), -3);
		assert.equal(g.lastError(), "is read-only (no one may write it), so nothing replaces it; chmod u+w lets pi-memory change it");
		const staged = path.join(dir, ".MEMORY.md.tmp-7");
		assert.equal(g.call("pm_fs_write_atomic", ...g.put(P1, staged), ...g.put(BUF, "new content")), 0, g.lastError());
		assert.equal(g.call("pm_fs_rename", ...g.put(P1, staged), ...g.put(P2, file)), -3);
		assert.match(g.lastError(), /is read-only/);
		assert.equal(fs.readFileSync(file, "utf8"), "locked by its owner");
		assert.equal(fs.statSync(file).mode & 0o777, 0o444);
		fs.chmodSync(file, 0o644);
		assert.equal(g.call("pm_fs_rename", ...g.put(P1, staged), ...g.put(P2, file)), 0, g.lastError());
		assert.equal(fs.readFileSync(file, "utf8"), "new content");
	});

	test("nothing is appended to a read-only file (chmod a-w) by pm_fs_append either, root or not (the Go host does the same)", async () => {
		const dir = tempDir();
		const file = path.join(dir, "decisions.jsonl");
		fs.writeFileSync(file, "{}\n");
		fs.chmodSync(file, 0o444);
		const g = await Guest.start();
		assert.equal(g.call("pm_fs_append", ...g.put(P1, file), ...g.put(BUF, '{"added":1}\n')), -3);
		assert.equal(g.lastError(), "is read-only (no one may write it), so nothing is added to it; chmod u+w lets pi-memory change it");
		assert.equal(fs.readFileSync(file, "utf8"), "{}\n");
		fs.chmodSync(file, 0o644);
		assert.equal(g.call("pm_fs_append", ...g.put(P1, file), ...g.put(BUF, '{"added":1}\n')), 0, g.lastError());
		assert.equal(fs.readFileSync(file, "utf8"), '{}\n{"added":1}\n');
	});

	test("a read-only folder (chmod a-w) gets nothing created, replaced, renamed or removed in it, root or not (the Go host does the same)", async () => {
		const root = tempDir();
		const dir = path.join(root, "memory");
		fs.mkdirSync(dir);
		const file = path.join(dir, "MEMORY.md");
		fs.writeFileSync(file, "kept");
		fs.writeFileSync(path.join(dir, "decisions.jsonl"), "{}\n");
		fs.writeFileSync(path.join(root, "outside"), "x");
		fs.chmodSync(dir, 0o555);
		try {
			const g = await Guest.start();
			const refused = "is in a read-only folder (no one may write it), so nothing is created, replaced or removed in it; chmod u+w on the folder lets pi-memory change it";
			const calls: [string, () => number | bigint | undefined][] = [
				["write", () => g.call("pm_fs_write_atomic", ...g.put(P1, file), ...g.put(BUF, "new"))],
				["write a new file", () => g.call("pm_fs_write_atomic", ...g.put(P1, path.join(dir, "new.md")), ...g.put(BUF, "new"))],
				["append creating", () => g.call("pm_fs_append", ...g.put(P1, path.join(dir, "new.jsonl")), ...g.put(BUF, "{}\n"))],
				["remove", () => g.onPath("pm_fs_remove", file)],
				["rename in", () => g.call("pm_fs_rename", ...g.put(P1, path.join(root, "outside")), ...g.put(P2, file))],
				["rename out", () => g.call("pm_fs_rename", ...g.put(P1, file), ...g.put(P2, path.join(root, "moved")))],
				["lock", () => g.onPath("pm_lock", `${file}.lock`, 0, 0)],
				["mkdir", () => g.onPath("pm_fs_mkdir", path.join(dir, "sub", "deeper"))],
			];
			for (const [name, call] of calls) {
				assert.equal(Number(call()), -3, name);
				assert.equal(g.lastError(), refused, name);
			}
			assert.deepEqual(fs.readdirSync(dir).sort(), ["MEMORY.md", "decisions.jsonl"]);
			assert.equal(fs.readFileSync(file, "utf8"), "kept");
			// Appending to a file that is there writes no entry of the folder; a folder
			// that is there is made again without a write.
			assert.equal(g.call("pm_fs_append", ...g.put(P1, path.join(dir, "decisions.jsonl")), ...g.put(BUF, '{"added":1}\n')), 0, g.lastError());
			assert.equal(g.onPath("pm_fs_mkdir", dir), 0, g.lastError());
			fs.chmodSync(dir, 0o755);
			assert.equal(g.call("pm_fs_write_atomic", ...g.put(P1, file), ...g.put(BUF, "new")), 0, g.lastError());
			assert.equal(g.onPath("pm_fs_mkdir", path.join(dir, "sub", "deeper")), 0, g.lastError());
		} finally {
			fs.chmodSync(dir, 0o755);
		}
	});

	test("pm_fs_rename of a link over a file changes no mode through it (the Go host does the same)", async () => {
		const dir = tempDir();
		const elsewhere = path.join(dir, "elsewhere");
		fs.writeFileSync(elsewhere, "x");
		fs.chmodSync(elsewhere, 0o644);
		const file = path.join(dir, "MEMORY.md");
		fs.writeFileSync(file, "private");
		fs.chmodSync(file, 0o600);
		fs.symlinkSync(elsewhere, path.join(dir, "link"));
		const g = await Guest.start();
		assert.equal(g.call("pm_fs_rename", ...g.put(P1, path.join(dir, "link")), ...g.put(P2, file)), 0, g.lastError());
		assert.equal(fs.statSync(elsewhere).mode & 0o777, 0o644);
	});

	test("pm_fs_write_atomic keeps the mode of the file it replaces, and a staged write is no more readable than the file it will replace", async () => {
		const dir = tempDir();
		const file = path.join(dir, "MEMORY.md");
		fs.writeFileSync(file, "private");
		fs.chmodSync(file, 0o600);
		const g = await Guest.start();
		assert.equal(g.call("pm_fs_write_atomic", ...g.put(P1, file), ...g.put(BUF, "still private")), 0, g.lastError());
		assert.equal(fs.statSync(file).mode & 0o777, 0o600, "replaced");
		const staged = path.join(dir, ".MEMORY.md.tmp-77");
		assert.equal(g.call("pm_fs_write_atomic", ...g.put(P1, staged), ...g.put(BUF, "private too")), 0, g.lastError());
		assert.equal(fs.statSync(staged).mode & 0o777, 0o600, "staged");
	});

	test("pm_fs_rename of a staged write sweeps what killed staged writes left beside the file", async () => {
		const dir = tempDir();
		const old = new Date(Date.now() - 3_600_000);
		fs.writeFileSync(path.join(dir, ".MEMORY.md.tmp-123"), "killed");
		fs.utimesSync(path.join(dir, ".MEMORY.md.tmp-123"), old, old);
		const g = await Guest.start();
		const staged = path.join(dir, ".MEMORY.md.tmp-456");
		assert.equal(g.call("pm_fs_write_atomic", ...g.put(P1, staged), ...g.put(BUF, "# Memory\n")), 0, g.lastError());
		assert.equal(g.call("pm_fs_rename", ...g.put(P1, staged), ...g.put(P2, path.join(dir, "MEMORY.md"))), 0, g.lastError());
		assert.deepEqual(fs.readdirSync(dir), ["MEMORY.md"]);
	});

	test("pm_fs_list returns names sorted bytewise, folders with a slash, and its full length", async () => {
		const dir = tempDir();
		fs.writeFileSync(path.join(dir, "b"), "");
		fs.writeFileSync(path.join(dir, "B"), "");
		fs.writeFileSync(path.join(dir, "é"), "");
		fs.mkdirSync(path.join(dir, "a"));
		fs.symlinkSync(path.join(dir, "a"), path.join(dir, "link"));
		const want = "B\na/\nb\nlink/\né\n";
		const wantLen = BigInt(new TextEncoder().encode(want).length);
		const g = await Guest.start();
		assert.equal(g.onPath("pm_fs_list", dir, BUF, 1024), wantLen);
		assert.equal(new TextDecoder().decode(g.bytes(BUF, Number(wantLen))), want);
		g.fill(BUF, 64, 0xaa);
		assert.equal(g.onPath("pm_fs_list", dir, BUF, 4), wantLen, "too small: the length, nothing written");
		assert.deepEqual([...g.bytes(BUF, 4)], [0xaa, 0xaa, 0xaa, 0xaa]);
		assert.equal(g.onPath("pm_fs_list", path.join(dir, "missing"), BUF, 1024), -1n);
		assert.equal(g.onPath("pm_fs_list", path.join(dir, "b"), BUF, 1024), -4n);
		// h-v93 a2: a link that cannot be followed (a loop) is an entry like any other,
		// listed as a file; it does not make the whole listing fail.
		fs.symlinkSync("loop", path.join(dir, "loop"));
		const withLoop = "B\na/\nb\nlink/\nloop\né\n";
		const loopLen = BigInt(new TextEncoder().encode(withLoop).length);
		assert.equal(g.onPath("pm_fs_list", dir, BUF, 1024), loopLen);
		assert.equal(new TextDecoder().decode(g.bytes(BUF, Number(loopLen))), withLoop);
	});

	test("pm_fs_list quotes a name that cannot travel as a line after a slash, as the Go host does", async () => {
		const dir = tempDir();
		fs.writeFileSync(path.join(dir, "a\nb.md"), "");
		fs.writeFileSync(path.join(dir, "b.md"), "");
		fs.writeFileSync(path.join(dir, "ok\uFFFD.md"), "");
		fs.mkdirSync(path.join(dir, "d\nir"));
		fs.writeFileSync(Buffer.concat([Buffer.from(`${dir}/bad`), Buffer.from([0xff]), Buffer.from(".md")]), "");
		const want = '/"a\\nb.md"\n/"bad\uFFFD.md"\n/"d\\nir"/\nb.md\nok\uFFFD.md\n';
		const wantLen = new TextEncoder().encode(want).length;
		const g = await Guest.start();
		assert.equal(g.onPath("pm_fs_list", dir, BUF, 1024), BigInt(wantLen));
		assert.equal(new TextDecoder().decode(g.bytes(BUF, wantLen)), want);
	});

	test("pm_fs_mkdir creates parents; pm_fs_remove takes files and empty folders only", async () => {
		const dir = tempDir();
		const deep = path.join(dir, "x", "y", "z");
		const g = await Guest.start();
		assert.equal(g.onPath("pm_fs_mkdir", deep), 0);
		assert.equal(g.onPath("pm_fs_mkdir", deep), 0, "an existing folder is fine");
		assert.ok(fs.statSync(deep).isDirectory());
		fs.writeFileSync(path.join(deep, "f"), "");
		assert.equal(g.onPath("pm_fs_mkdir", path.join(deep, "f", "sub")), -4);
		assert.equal(g.onPath("pm_fs_remove", path.join(dir, "x", "y")), -4, "not empty");
		assert.equal(g.onPath("pm_fs_remove", path.join(deep, "f")), 0);
		assert.equal(g.onPath("pm_fs_remove", deep), 0);
		assert.equal(fs.existsSync(deep), false);
		assert.equal(g.onPath("pm_fs_remove", deep), -1);
	});

	test("pm_lock excludes a second instance until pm_unlock; only the holder may unlock", async () => {
		const dir = tempDir();
		const lock = path.join(dir, "decisions.lock");
		const a = await Guest.start();
		const b = await Guest.start();
		assert.equal(a.onPath("pm_lock", lock, 0, 60_000), 0);
		assert.equal(b.onPath("pm_lock", lock, 30, 60_000), -5);
		assert.match(b.lastError(), /held by another process/);
		assert.equal(b.onPath("pm_unlock", lock), -7);
		assert.ok(fs.existsSync(lock), "a non-holder's unlock removed nothing");
		assert.equal(a.onPath("pm_unlock", lock), 0);
		assert.equal(fs.existsSync(lock), false);
		assert.equal(b.onPath("pm_lock", lock, 0, 60_000), 0);
	});

	test("pm_lock breaks a stale lock, and the displaced holder's unlock leaves the new lock alone", async () => {
		const dir = tempDir();
		const lock = path.join(dir, "decisions.lock");
		const a = await Guest.start();
		const b = await Guest.start();
		assert.equal(a.onPath("pm_lock", lock, 0, 60_000), 0);
		const old = new Date(Date.now() - 120_000);
		fs.utimesSync(lock, old, old);
		assert.equal(b.onPath("pm_lock", lock, 0, 1_000), 0, "older than stale_ms: broken and taken");
		assert.equal(a.onPath("pm_unlock", lock), -5, "busy, as in the Go host: someone else holds it now");
		assert.match(a.lastError(), /broken as stale/);
		assert.ok(fs.existsSync(lock), "b still holds it");
		assert.equal(b.onPath("pm_unlock", lock), 0);
		assert.deepEqual(fs.readdirSync(dir), []);
	});

	test("pm_lock takes at once a lock whose holder was killed on this host; an uncertain holder waits for its age", async (t) => {
		let link = "";
		try {
			link = fs.readlinkSync("/proc/self/ns/pid");
		} catch {}
		const pidns = /^pid:\[(\d+)\]$/.exec(link)?.[1];
		if (pidns === undefined) return t.skip("no /proc/self/ns/pid: locks are broken by age alone");
		let boot = "";
		try {
			boot = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
		} catch {
			return t.skip("no boot id: locks are broken by age alone");
		}
		const ns = `${pidns} boot=${boot}`;
		const dead = spawnSync("true").pid;
		const line = (pid: number, host: string, pidns?: string) =>
			`pid=${pid} host=${host}${pidns === undefined ? "" : ` pidns=${pidns}`} time=2026-11-29T00:00:00.000Z holder=0123456789abcdef\n`;
		const me = os.hostname();
		const cases: [string, string, boolean][] = [
			["holder exited on this host (the Go host's line)", line(dead, me, ns), true],
			["holder alive", line(process.ppid, me, ns), false],
			["holder is this process", line(process.pid, me, ns), false],
			["another host", line(dead, `${me}-other`, ns), false],
			["another pid namespace", line(dead, me, `${pidns}1 boot=${boot}`), false],
			// Every Linux machine's first pid namespace has one number: another machine of
			// this name on a shared folder differs only in its boot.
			["another machine of this name", line(dead, me, `${pidns} boot=00000000-0000-4000-8000-000000000000`), false],
			["no boot (an older line)", line(dead, me, pidns), false],
			["no namespace", line(dead, me), false],
			["empty", "", false],
		];
		const g = await Guest.start();
		for (const [name, content, taken] of cases) {
			const dir = tempDir();
			const lock = path.join(dir, "memory.lock");
			fs.writeFileSync(lock, content);
			assert.equal(g.onPath("pm_lock", lock, 0, 30_000), taken ? 0 : -5, name);
			if (!taken) continue;
			const written = fs.readFileSync(lock, "utf8");
			assert.match(written, new RegExp(`^pid=${process.pid} host=\\S+ pidns=${ns} time=\\S+ holder=[0-9a-f]{16}\\n$`), "the line the Go host writes too");
			assert.equal(g.onPath("pm_unlock", lock), 0);
			assert.deepEqual(fs.readdirSync(dir), [], `${name}: files left behind`);
		}
		const dir = tempDir();
		fs.writeFileSync(path.join(dir, "memory.lock"), line(dead, me, ns));
		assert.equal(g.onPath("pm_lock", path.join(dir, "memory.lock"), 0, 0), -5, "stale 0 never breaks");
	});

	test("pm_lock removes a .break whose holder was killed, and takes the lock within its wait; a live or unnamed one waits for its age", async (t) => {
		let pidns: string | undefined;
		let boot = "";
		try {
			pidns = /^pid:\[(\d+)\]$/.exec(fs.readlinkSync("/proc/self/ns/pid"))?.[1];
			boot = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
		} catch {}
		if (pidns === undefined || boot === "") return t.skip("no pid namespace or boot id: locks are broken by age alone");
		const dead = spawnSync("true").pid;
		const line = (pid: number) => `pid=${pid} host=${os.hostname()} pidns=${pidns} boot=${boot} time=2026-11-29T00:00:00.000Z holder=break\n`;
		const g = await Guest.start();
		for (const [name, brk, taken] of [
			["its holder is gone", line(dead), true],
			["its holder lives", line(process.ppid), false],
			["it names no holder", "", false],
		] as const) {
			const dir = tempDir();
			const lock = path.join(dir, "memory.lock");
			fs.writeFileSync(lock, line(dead));
			fs.writeFileSync(`${lock}.break`, brk);
			assert.equal(g.onPath("pm_lock", lock, 1_000, 30_000), taken ? 0 : -5, name);
			if (!taken) continue;
			assert.equal(g.onPath("pm_unlock", lock), 0);
			assert.deepEqual(fs.readdirSync(dir), [], `${name}: files left behind`);
		}
	});

	test("pm_lock names a .break that is not a regular file, at once, and leaves it and the stale lock alone (as the Go host does)", async () => {
		const g = await Guest.start();
		for (const [name, what, make] of [
			["an empty folder", "is a folder", (p: string) => fs.mkdirSync(p)],
			["a folder with a file in it", "is a folder", (p: string) => { fs.mkdirSync(p); fs.writeFileSync(path.join(p, "x"), ""); }],
			["a link to a regular file", "is a symbolic link, not a regular file", (p: string) => { fs.writeFileSync(`${p}-target`, ""); fs.symlinkSync(`${p}-target`, p); }],
			["a FIFO", "is a FIFO, not a regular file", (p: string) => execFileSync("mkfifo", [p])],
		] as const) {
			const dir = tempDir();
			const lock = path.join(dir, "memory.lock");
			fs.writeFileSync(lock, "pid=1 host=elsewhere time=2026-01-01T00:00:00.000Z holder=x\n");
			make(`${lock}.break`);
			const old = new Date(Date.now() - 3_600_000);
			fs.utimesSync(lock, old, old);
			if (what === "is a folder") fs.utimesSync(`${lock}.break`, old, old);
			assert.equal(g.onPath("pm_lock", lock, 2_000, 30_000), -4, name);
			assert.equal(g.lastError(), `the lock is stale but cannot be broken: ${lock}.break ${what}, where only a breaker's regular file may be; remove it by hand`, name);
			assert.ok(fs.lstatSync(`${lock}.break`, { throwIfNoEntry: false }) !== undefined, `${name}: the .break was removed`);
			assert.ok(fs.existsSync(lock), `${name}: the lock was broken`);
		}
	});

	// A holder may unlock while its lock is judged, and another process take the lock in that
	// instant: the lock found then is someone else's, alive, and is left alone. The holder
	// unlocks while its pid is looked up: judged gone (the second look, by the one breaking
	// it), or alive but past the age.
	test("pm_lock never breaks a lock taken while the old one was judged", async (t) => {
		let link = "";
		let boot = "";
		try {
			link = fs.readlinkSync("/proc/self/ns/pid");
			boot = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
		} catch {}
		const pidns = /^pid:\[(\d+)\]$/.exec(link)?.[1];
		if (pidns === undefined || boot === "") return t.skip("no pid namespace or boot id: locks are broken by age alone");
		for (const [name, aged, alive, at] of [
			["its holder exited", false, false, 2],
			["a slow holder past the age", true, true, 1],
		] as const) {
			const dir = tempDir();
			const lock = path.join(dir, "memory.lock");
			// The first holder, another process of this host (the test's parent).
			fs.writeFileSync(lock, `pid=${process.ppid} host=${os.hostname()} pidns=${pidns} boot=${boot} time=2026-11-29T00:00:00.000Z holder=0123456789abcdef\n`);
			if (aged) fs.utimesSync(lock, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
			const next = `pid=${process.ppid} host=${os.hostname()} time=2026-11-29T00:00:01.000Z holder=fedcba9876543210\n`;
			const kill = process.kill;
			let looks = 0;
			process.kill = ((pid: number, signal?: string | number) => {
				if (signal !== 0 || pid !== process.ppid) return kill.call(process, pid, signal);
				if (++looks === at) {
					fs.rmSync(lock);
					fs.writeFileSync(lock, next, { flag: "wx" });
				}
				if (alive) return true;
				throw Object.assign(new Error("kill ESRCH"), { code: "ESRCH" });
			}) as typeof process.kill;
			const g = await Guest.start();
			try {
				assert.equal(g.onPath("pm_lock", lock, 0, 30_000), -5, `${name}: a live holder's lock was broken`);
			} finally {
				process.kill = kill;
			}
			assert.equal(fs.readFileSync(lock, "utf8"), next, name);
		}
	});

	test("pm_fs_write_atomic sweeps the temp files of killed writes, either host's, once older than any write takes", async () => {
		const dir = tempDir();
		const old = new Date(Date.now() - 3_600_000);
		for (const n of [".MEMORY.md.tmp-123", ".MEMORY.md.4242.9f86d081884c.tmp", ".MEMORY.md.tmp-456", ".MEMORY.md.backup.tmp", ".other.md.tmp-1", "..MEMORY.md.tmp-9.1.9f86d081884c.tmp", "..MEMORY.md.tmp-9x.1.9f86d081884c.tmp", "..MEMORY.md.tmp-9.backup.tmp"]) {
			fs.writeFileSync(path.join(dir, n), "half");
			if (n !== ".MEMORY.md.tmp-456") fs.utimesSync(path.join(dir, n), old, old);
		}
		const g = await Guest.start();
		assert.equal(g.call("pm_fs_write_atomic", ...g.put(P1, path.join(dir, "MEMORY.md")), ...g.put(BUF, "# Memory\n")), 0, g.lastError());
		assert.deepEqual(fs.readdirSync(dir).sort(), ["..MEMORY.md.tmp-9.backup.tmp", "..MEMORY.md.tmp-9x.1.9f86d081884c.tmp", ".MEMORY.md.backup.tmp", ".MEMORY.md.tmp-456", ".other.md.tmp-1", "MEMORY.md"]);
	});

	test("locks held by a lost instance are released with it", async () => {
		const dir = tempDir();
		const lock = path.join(dir, "notes.lock");
		const a = await Guest.start();
		assert.equal(a.onPath("pm_lock", lock, 0, 60_000), 0);
		assert.deepEqual(a.host.heldLocks(), [lock]);
		a.host.releaseAll();
		assert.equal(fs.existsSync(lock), false);
	});

	test("two plugin instances contending for one lock never both hold it, and break a stale one once", async () => {
		const dir = tempDir();
		const job: LockJob = {
			lock: path.join(dir, "x.lock"),
			counter: path.join(dir, "counter"),
			inside: path.join(dir, "inside"),
			rounds: 40,
		};
		fs.writeFileSync(job.counter, "0");
		fs.writeFileSync(job.lock, "a crashed process\n");
		const old = new Date(Date.now() - 60_000);
		fs.utimesSync(job.lock, old, old);
		const reports = await Promise.all([runWorker(job), runWorker(job)]);
		for (const r of reports) {
			assert.deepEqual(r.failures, []);
			assert.equal(r.doubles, 0);
		}
		assert.equal(fs.readFileSync(job.counter, "utf8"), String(2 * job.rounds));
		assert.deepEqual(fs.readdirSync(dir).sort(), ["counter"]);
	});

	test("pm_now, pm_random and the WASI clock and randomness come from the injected sources", async () => {
		const g = await Guest.start({ now: () => 1_700_000_000_000, random: (dst) => dst.fill(7) });
		assert.equal(g.call("pm_now"), 1_700_000_000_000n);
		g.fill(BUF, 16, 0);
		assert.equal(g.call("pm_random", BUF, 8), 0);
		assert.deepEqual([...g.bytes(BUF, 9)], [7, 7, 7, 7, 7, 7, 7, 7, 0]);
		assert.equal(g.call("wasi_clock_time_get", 0, 1n, BUF), 0);
		assert.equal(g.u64(BUF), 1_700_000_000_000n * 1_000_000n);
		assert.equal(g.call("wasi_random_get", BUF + 32, 4), 0);
		assert.deepEqual([...g.bytes(BUF + 32, 4)], [7, 7, 7, 7]);
	});

	test("pm_log hands the message and level to the log sink", async () => {
		const seen: [number, string][] = [];
		const g = await Guest.start({ log: (level, message) => void seen.push([level, message]) });
		g.call("pm_log", 2, ...g.put(BUF, "replay: 1 torn line kept aside"));
		g.call("pm_log", 0, ...g.put(BUF, "debug"));
		assert.deepEqual(seen, [
			[2, "replay: 1 torn line kept aside"],
			[0, "debug"],
		]);
	});

	test("pm_last_error returns the full length and writes only what fits", async () => {
		const dir = tempDir();
		const g = await Guest.start();
		g.onPath("pm_fs_read", path.join(dir, "missing"), 0n, BUF, 10);
		const full = g.host.lastError;
		g.fill(BUF, 64, 0xaa);
		assert.equal(g.call("pm_last_error", BUF, 5), new TextEncoder().encode(full).length);
		assert.equal(new TextDecoder().decode(g.bytes(BUF, 5)), full.slice(0, 5));
		assert.equal(g.bytes(BUF + 5, 1)[0], 0xaa);
	});

	test("pm_input copies the call's whole input only when it fits, and returns its length; pm_output takes the envelope", async () => {
		const g = await Guest.start();
		const input = new TextEncoder().encode(`{"branch":"${"x".repeat(5000)}"}`);
		g.host.input = input;
		g.fill(BUF, 64, 0xaa);
		assert.equal(g.call("pm_input", BUF, 10), BigInt(input.length), "too small: the length, nothing written");
		assert.equal(g.bytes(BUF, 1)[0], 0xaa);
		assert.equal(g.call("pm_input", 0, 0), BigInt(input.length));
		assert.equal(g.call("pm_input", BUF, input.length), BigInt(input.length));
		assert.deepEqual(g.bytes(BUF, input.length), input);
		assert.equal(g.call("pm_input", 0xffff_fff0, input.length), -7n, "a buffer outside memory is invalid");

		assert.equal(g.host.envelope, undefined);
		assert.equal(g.call("pm_output", ...g.put(BUF, '{"v":1,"effects":[],"exit":0}')), 0);
		assert.equal(new TextDecoder().decode(g.host.envelope), '{"v":1,"effects":[],"exit":0}');
		assert.equal(g.call("pm_output", 0xffff_fff0, 100), -7);
	});

	test("the WASI shim captures stdout and stderr and grants no files, args or environment", async () => {
		const g = await Guest.start();
		// One iovec at BUF pointing at the text at BUF + 64.
		const [textPtr, textLen] = g.put(BUF + 64, "panic: boom\n");
		const iov = new DataView(g.memory.buffer, BUF, 8);
		iov.setUint32(0, textPtr, true);
		iov.setUint32(4, textLen, true);
		assert.equal(g.call("wasi_fd_write", 2, BUF, 1, BUF + 32), 0);
		assert.equal(g.u32(BUF + 32), textLen);
		assert.equal(g.host.takeOutput(), "panic: boom\n");
		assert.equal(g.call("wasi_fd_write", 5, BUF, 1, BUF + 32), 8, "no other descriptors");
		assert.equal(g.call("wasi_fd_prestat_get", 3, BUF), 8, "no preopened folders");
		assert.equal(g.call("wasi_fd_prestat_dir_name", 3, BUF, 16), 8);
		g.fill(BUF, 8, 0xaa);
		assert.equal(g.call("wasi_args_sizes_get", BUF, BUF + 4), 0);
		assert.deepEqual([g.u32(BUF), g.u32(BUF + 4)], [0, 0]);
		g.fill(BUF, 8, 0xaa);
		assert.equal(g.call("wasi_environ_sizes_get", BUF, BUF + 4), 0);
		assert.deepEqual([g.u32(BUF), g.u32(BUF + 4)], [0, 0]);
		assert.equal(g.call("wasi_args_get", BUF, BUF + 4), 0);
		assert.equal(g.call("wasi_environ_get", BUF, BUF + 4), 0);
		assert.equal(g.call("wasi_fd_fdstat_get", 1, BUF), 0);
		assert.equal(g.bytes(BUF, 1)[0], 2, "stdout is a character device");
		assert.equal(g.call("wasi_fd_fdstat_get", 3, BUF), 8);
		assert.equal(g.call("wasi_fd_fdstat_set_flags", 1, 0), 0);
		assert.equal(g.call("wasi_fd_close", 7), 8);
		assert.equal(g.call("wasi_fd_seek", 1, 0n, 0, BUF), 70);
		assert.equal(g.call("wasi_sched_yield"), 0);
		assert.throws(() => g.call("wasi_proc_exit", 2), /exited with code 2/);
	});

	test("poll_oneoff answers a relative clock subscription", async () => {
		const g = await Guest.start();
		const sub = new DataView(g.memory.buffer, BUF, 48);
		sub.setBigUint64(0, 42n, true); // userdata
		sub.setUint8(8, 0); // clock
		sub.setUint32(16, 1, true); // monotonic
		sub.setBigUint64(24, 1_000_000n, true); // 1 ms
		sub.setUint16(40, 0, true); // relative
		assert.equal(g.call("wasi_poll_oneoff", BUF, BUF + 64, 1, BUF + 128), 0);
		assert.equal(g.u32(BUF + 128), 1);
		assert.equal(g.u64(BUF + 64), 42n);
		assert.equal(new DataView(g.memory.buffer).getUint16(BUF + 64 + 8, true), 0);
	});

	// The same kinds, codes and words as the Go host (host/imports_special_unix_test.go).
	for (const kind of ["FIFO", "socket", "character device"] as const) {
		test(`no import blocks on or writes to a ${kind}`, async (t) => {
			const dir = tempDir();
			const p = path.join(dir, "decisions.jsonl");
			const link = path.join(dir, "MEMORY.md");
			let close = async () => {};
			if (kind === "FIFO") execFileSync("mkfifo", [p]);
			if (kind === "socket") close = await makeSocket(p);
			if (kind === "character device") {
				try {
					// /dev/null's numbers: a host that wrongly wrote to it would write nowhere.
					execFileSync("mknod", [p, "c", "1", "3"], { stdio: "ignore" });
				} catch {
					t.skip("cannot make a character device here: mknod needs CAP_MKNOD, which this test does not try to get");
					return;
				}
			}
			fs.symlinkSync("decisions.jsonl", link);
			try {
				const refused = { rc: -4, err: `is a ${kind}, not a regular file` };
				const other = { rc: 0, kind: 0, size: 0 };
				const got = await inChild([
					{ fn: "read", path: p },
					{ fn: "read", path: link },
					{ fn: "read", path: p, n: 0 },
					{ fn: "append", path: p, data: "{}\n" },
					{ fn: "append", path: link, data: "{}\n" },
					{ fn: "append", path: p, data: "" },
					{ fn: "write", path: p, data: "x" },
					{ fn: "lock", path: p, wait: 60_000, stale: 1 },
					{ fn: "stat", path: p },
					{ fn: "stat", path: link },
					{ fn: "lstat", path: p },
				]);
				assert.deepEqual(got, [refused, refused, refused, refused, refused, refused, refused, refused, other, other, other]);
				const [list] = await inChild([{ fn: "list", path: p }]);
				assert.equal(list?.rc, -4);
				assert.match(list?.err ?? "", /ENOTDIR/);
				assert.deepEqual(fs.readdirSync(dir).sort(), ["MEMORY.md", "decisions.jsonl"], "nothing created beside it");
			} finally {
				await close();
			}
		});
	}

	test("pm_fs_append refuses a FIFO that has a reader, before writing a byte", async () => {
		const dir = tempDir();
		const p = path.join(dir, "decisions.jsonl");
		execFileSync("mkfifo", [p]);
		// With a reader, opening for writing succeeds at once: only fstat can refuse.
		const reader = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
		try {
			assert.deepEqual(await inChild([{ fn: "append", path: p, data: "{}\n" }]), [{ rc: -4, err: "is a FIFO, not a regular file" }]);
			let n = 0;
			try {
				n = fs.readSync(reader, Buffer.alloc(8));
			} catch (err) {
				assert.equal((err as NodeJS.ErrnoException).code, "EAGAIN");
			}
			assert.equal(n, 0, "bytes reached the FIFO's reader");
		} finally {
			fs.closeSync(reader);
		}
	});

	test("pm_unlock leaves alone a lock that was replaced by a FIFO", async () => {
		const dir = tempDir();
		const lock = path.join(dir, "decisions.jsonl.lock");
		const got = await inChild([
			{ fn: "lock", path: lock, wait: 0, stale: 0 },
			{ fn: "rm", path: lock },
			{ fn: "mkfifo", path: lock },
			{ fn: "unlock", path: lock },
			{ fn: "lstat", path: lock },
			{ fn: "unlock", path: lock },
		]);
		assert.deepEqual(got.slice(3, 5), [
			{ rc: -4, err: "is a FIFO, not a regular file; this is not the lock file this instance wrote, so it was left alone" },
			{ rc: 0, kind: 0, size: 0 },
		]);
		assert.equal(got[5]?.rc, -7, "the lock is forgotten");
	});

	test("pm_fs_lstat sees links that pm_fs_stat and the reads follow; writes replace them", async () => {
		const dir = tempDir();
		const at = (name: string) => path.join(dir, name);
		fs.writeFileSync(at("target"), "data");
		fs.mkdirSync(at("dir"));
		execFileSync("mkfifo", [at("fifo")]);
		for (const [target, name] of [
			["target", "to-file"],
			["dir", "to-dir"],
			["missing", "dangling"],
			["fifo", "to-fifo"],
		] as const) {
			fs.symlinkSync(target, at(name));
		}
		const info = (kind: number, size: number) => ({ rc: 0, kind, size });
		// A folder's size is the file system's, what its entries take.
		const dirSize = Number(fs.statSync(at("dir")).size);
		const steps: [Step, Outcome][] = [
			[{ fn: "stat", path: at("target") }, info(1, 4)],
			[{ fn: "lstat", path: at("target") }, info(1, 4)],
			[{ fn: "stat", path: at("dir") }, info(2, dirSize)],
			[{ fn: "lstat", path: at("dir") }, info(2, dirSize)],
			[{ fn: "lstat", path: at("fifo") }, info(0, 0)],
			[{ fn: "stat", path: at("to-file") }, info(1, 4)],
			[{ fn: "lstat", path: at("to-file") }, info(3, 6)],
			[{ fn: "stat", path: at("to-dir") }, info(2, dirSize)],
			[{ fn: "lstat", path: at("to-dir") }, info(3, 3)],
			[{ fn: "stat", path: at("to-fifo") }, info(0, 0)],
			[{ fn: "lstat", path: at("to-fifo") }, info(3, 4)],
			[{ fn: "stat", path: at("dangling") }, { rc: -1, err: `ENOENT: no such file or directory, stat '${at("dangling")}'` }],
			[{ fn: "lstat", path: at("dangling") }, info(3, 7)],
			[{ fn: "lstat", path: at("none") }, { rc: -1, err: `ENOENT: no such file or directory, lstat '${at("none")}'` }],
			[{ fn: "read", path: at("to-file") }, { rc: 4, data: "data" }],
			[{ fn: "read", path: at("to-dir") }, { rc: -4, err: "is a folder" }],
			[{ fn: "append", path: at("to-file"), data: "+" }, { rc: 0 }],
			[{ fn: "read", path: at("target") }, { rc: 5, data: "data+" }],
			[{ fn: "append", path: at("dangling"), data: "x" }, { rc: -4, err: "is a symbolic link to a missing file; append creates a missing file, but never through a link" }],
			[{ fn: "lstat", path: at("missing") }, { rc: -1, err: `ENOENT: no such file or directory, lstat '${at("missing")}'` }],
			[{ fn: "lock", path: at("to-file"), wait: 0, stale: 0 }, { rc: -4, err: "is a symbolic link, not a regular file" }],
			[{ fn: "write", path: at("to-file"), data: "new" }, { rc: 0 }],
			[{ fn: "lstat", path: at("to-file") }, info(1, 3)],
			[{ fn: "read", path: at("target") }, { rc: 5, data: "data+" }],
			[{ fn: "write", path: at("dangling"), data: "x" }, { rc: 0 }],
			[{ fn: "lstat", path: at("missing") }, { rc: -1, err: `ENOENT: no such file or directory, lstat '${at("missing")}'` }],
		];
		const got = await inChild(steps.map(([step]) => step));
		steps.forEach(([step, want], i) => assert.deepEqual(got[i], want, JSON.stringify(step)));
	});

	test("bad pointers are invalid arguments, never exceptions", async () => {
		const g = await Guest.start();
		const far = 0x7fff_0000;
		assert.equal(g.call("pm_fs_stat", ...g.put(P1, "/tmp"), far), -7);
		assert.equal(g.call("pm_random", far, 16), -7);
		assert.equal(g.call("pm_fs_append", ...g.put(P1, "/tmp/x"), far, 16), -7);
		assert.equal(g.call("pm_fs_mkdir", 0, 0), -7, "empty path");
		assert.equal(g.call("pm_fs_list", ...g.put(P2, "/tmp"), far, 16), -7n);
	});
}
