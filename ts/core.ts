// The host side of the core/host contract (docs/decisions/001-core-host-contract.md):
// it compiles the WebAssembly core, instantiates it through Extism without WASI,
// implements every `extism:host/user` import on synchronous node:fs calls that read
// and write the guest's own memory, and turns each export call into a parsed
// envelope. It imports nothing from pi, so plain Node can test it. It never decides
// anything about memory: that is the core's job.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes, randomFillSync } from "node:crypto";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { createPlugin, type CallContext, type Plugin } from "@extism/extism";

// ---- Envelopes -------------------------------------------------------------------

export type NotifyLevel = "info" | "warning" | "error";

export type Effect =
	| { t: "output"; text: string }
	| { t: "notify"; level: NotifyLevel; text: string }
	| { t: "status"; key: string; text: string | null }
	| { t: "system_prompt_append"; text: string }
	| { t: "message"; customType: string; content: string; display: boolean }
	| {
			t: "dialog";
			id: string;
			kind: "select" | "confirm" | "input" | "editor";
			title: string;
			message?: string;
			options?: string[];
			placeholder?: string;
			/** editor: the text the editor opens with. */
			prefill?: string;
	  }
	| {
			t: "complete";
			id: string;
			system?: string;
			prompt: string;
			maxTokens: number;
			/** "provider/id" or an id pi knows; absent or "" for the session's current model. */
			model?: string;
			/** Abort the call after this many ms and resume with an error; absent or 0: no bound. */
			timeoutMs?: number;
			/** Perform the call and its resume after the handler has returned. */
			background?: boolean;
			/** How long session_shutdown waits for this background call before aborting it (default: the adapter's bound). */
			exitMs?: number;
	  }
	// Observational memory (docs/decisions/001-core-host-contract.md).
	/**
	 * `id` and `messages` the first time; later, while the core's block is unchanged,
	 * `same`: the id of that earlier effect, whose messages go in again
	 * (`Core.contextMessages` gives them).
	 */
	| { t: "context_messages"; index: number; id?: string; messages?: ContextMessage[]; same?: string }
	| { t: "session_entry"; customType: string; data: unknown }
	| { t: "compact" }
	| { t: "compaction"; summary: string; details?: unknown; firstKeptEntryId: string; tokensBefore: number; usage?: unknown }
	| { t: "branch_summary"; summary: string; details?: unknown }
	// The Hindsight lifecycle (docs/decisions/001-core-host-contract.md).
	| {
			t: "http";
			id: string;
			/** Performed concurrently; the resume value answers them in this order. */
			requests: HttpRequest[];
			/** Perform the requests and their resume after the handler has returned. */
			background?: boolean;
			/** How long session_shutdown waits for this background ask before aborting it (default: the adapter's bound). */
			exitMs?: number;
	  }
	/** The user message at `index` of the context event's messages gets `text` appended. */
	| { t: "context_append"; index: number; text: string }
	/** Exactly these of the registry's tools are active; the others pi has stay as they are. */
	| { t: "tools"; active: string[] }
	/**
	 * The session's state, which the core needs back if it restarts: `Core` keeps the
	 * newest and hands it back when it replays session_start after a trap.
	 */
	| { t: "state"; state: unknown }
	/**
	 * From session_start: this session's searches may hold a thread for long (a thousand
	 * earlier sessions or more); `Core` runs the instance in a worker thread from the next
	 * moment between turns (decision 001, addendum 3 of 2026-11-29).
	 */
	| { t: "worker" }
	/** The tool export's answer, for pi's tool result. */
	| { t: "tool_result"; text: string; isError?: boolean; details?: unknown };

/** One custom message of a `context_messages` effect. */
export interface ContextMessage {
	customType: string;
	content: string;
	timestamp?: number;
}

type ContextMessages = Extract<Effect, { t: "context_messages" }>;

/** One request of an `http` effect, performed as given: the host never reads the status. */
export interface HttpRequest {
	method: string;
	url: string;
	headers?: Record<string, string>;
	body?: string;
	/** Abort the request after this many ms and answer `{error}` for it; 0 or absent: no bound. */
	timeoutMs?: number;
	/** The most of the body to read (absent: 1 MiB); past it the answer is `truncated` and the rest is not read. */
	maxBytes?: number;
	/** An environment variable whose value, when set, is sent as `Authorization: Bearer …`: the key never enters the core. */
	bearerEnv?: string;
}

/** What one request of an `http` effect gave: the response as it came (its first `maxBytes` bytes, `truncated`, when it was longer), or why there was none. */
export type HttpAnswer = { status: number; body: string; truncated?: true } | { error: string };

/**
 * The core's exports (wasm/lifecycle's Exports; wasm/main.go exports exactly these). The
 * adapter calls only these, which the type checks; a test checks both builds export each.
 */
export const EXPORTS = [
	"session_start",
	"before_agent_start",
	"context",
	"agent_end",
	"agent_settled",
	"session_before_compact",
	"session_before_tree",
	"session_shutdown",
	"command",
	"complete",
	"tool",
	"resources",
	"resume",
	"registry",
	"merge",
	"redact",
	"debug",
] as const;

/** One of the core's exports. */
export type ExportName = (typeof EXPORTS)[number];

/** What every export returns: effects to perform in order, and pimem's exit code. */
export interface Envelope {
	v: 1;
	effects: Effect[];
	exit: number;
}

/**
 * The core failed inside an export (a trap, a Go panic, proc_exit, a thrown host
 * function, or an unreadable envelope). The instance is gone; `Core.recreate()`
 * builds a new one. `panic` is what the module printed on stdout/stderr, where Go
 * and TinyGo write their panic message.
 */
export class CoreTrap extends Error {
	readonly exportName: string;
	readonly panic: string;

	constructor(exportName: string, panic: string, cause?: unknown) {
		const detail = firstLine(panic) || (cause instanceof Error ? cause.message : cause === undefined ? "" : String(cause));
		super(`pi-memory core failed in ${exportName}${detail ? `: ${detail}` : ""}`, { cause });
		this.name = "CoreTrap";
		this.exportName = exportName;
		this.panic = panic;
	}
}

function firstLine(s: string): string {
	const line = s.split("\n").find((l) => l.trim() !== "");
	return line === undefined ? "" : line.trim();
}

// ---- Options ---------------------------------------------------------------------

export type LogLevel = 0 | 1 | 2 | 3;

/** The clock, randomness and log sink the module sees; tests replace them. */
export interface HostOptions {
	/** Wall clock in Unix milliseconds (pm_now and the WASI realtime clock). */
	now?: () => number;
	/** Fills dst with random bytes (pm_random and WASI random_get). */
	random?: (dst: Uint8Array) => void;
	/** Receives pm_log messages: 0 debug, 1 info, 2 warn, 3 error. */
	log?: (level: LogLevel, message: string) => void;
}

// ---- Error codes of the contract -------------------------------------------------

const NOT_FOUND = -1;
const EXISTS = -2;
const PERMISSION = -3;
const KIND = -4;
const BUSY = -5;
const IO = -6;
const INVALID = -7;

function codeFor(err: unknown): number {
	const code = err instanceof Error && "code" in err ? String(err.code) : "";
	switch (code) {
		case "ENOENT":
			return NOT_FOUND;
		case "EEXIST":
			return EXISTS;
		case "EACCES":
		case "EPERM":
			return PERMISSION;
		case "EISDIR":
		case "ENOTDIR":
		case "ENOTEMPTY":
			return KIND;
		default:
			return code.startsWith("ERR_INVALID_ARG") ? INVALID : IO;
	}
}

// Open flags. O_NONBLOCK: opening a FIFO never waits for its other end (it would
// freeze pi's event loop); O_NOCTTY: a terminal never becomes pi's controlling one.
// libuv adds O_CLOEXEC to every open. Windows has none of the first four; a FIFO
// there has no path in the file system to block on.
const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT, O_EXCL } = fs.constants;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_NOCTTY = fs.constants.O_NOCTTY ?? 0;
const O_DIRECTORY = fs.constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

// The contract's kinds (pm_fs_stat, pm_fs_lstat).
const KIND_OTHER = 0;
const KIND_FILE = 1;
const KIND_FOLDER = 2;
const KIND_SYMLINK = 3;

function kindOf(st: fs.Stats | fs.BigIntStats): number {
	if (st.isFile()) return KIND_FILE;
	if (st.isDirectory()) return KIND_FOLDER;
	if (st.isSymbolicLink()) return KIND_SYMLINK;
	return KIND_OTHER;
}

/**
 * A file's identity in the stat record, as every host folds it (hostio.FileID):
 * 32-bit FNV-1a over the device, then the inode, each 8 bytes little-endian;
 * never 0, which means unknown.
 */
export function fileID(dev: bigint, ino: bigint): number {
	let h = 2166136261;
	for (const v of [dev, ino]) {
		for (let i = 0n; i < 64n; i += 8n) {
			h = Math.imul(h ^ Number((v >> i) & 0xffn), 16777619) >>> 0;
		}
	}
	return h === 0 ? 1 : h;
}

/** What a path is when a regular file was needed, in the Go host's words. */
function notRegular(st: fs.Stats | fs.BigIntStats): string {
	if (st.isDirectory()) return "is a folder";
	if (st.isSymbolicLink()) return "is a symbolic link, not a regular file";
	if (st.isFIFO()) return "is a FIFO, not a regular file";
	if (st.isSocket()) return "is a socket, not a regular file";
	if (st.isCharacterDevice()) return "is a character device, not a regular file";
	if (st.isBlockDevice()) return "is a block device, not a regular file";
	return "is not a regular file";
}

const DANGLING_LINK = "is a symbolic link to a missing file; append creates a missing file, but never through a link";
const LOCK_REPLACED = "; this is not the lock file this instance wrote, so it was left alone";

// WASI errno values used by the shim.
const WASI_SUCCESS = 0;
const WASI_EBADF = 8;
const WASI_EFAULT = 21;
const WASI_EINVAL = 28;
const WASI_ESPIPE = 70;

/** proc_exit from the module: Go and TinyGo call it after printing a panic. */
class WasiExit extends Error {
	constructor(code: number) {
		super(`the module exited with code ${code}`);
		this.name = "WasiExit";
	}
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const utf8Lossy = new TextDecoder("utf-8");
const encoder = new TextEncoder();

// Captured module output is only for error reports; keep the tail.
const OUTPUT_CAP = 16 * 1024;

// Lock waits sleep on this; Atomics.wait on the main thread blocks without spinning.
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
	if (ms > 0) Atomics.wait(sleeper, 0, 0, ms);
}

type HostFn = (...args: never[]) => number | bigint | undefined;

// syncDir makes a rename in dir durable. Best effort: not every file system lets
// a folder be fsynced, and the rename itself already happened.
function syncDir(dir: string): void {
	try {
		const dfd = fs.openSync(dir, O_RDONLY | O_DIRECTORY | O_NONBLOCK);
		try {
			fs.fsyncSync(dfd);
		} finally {
			fs.closeSync(dfd);
		}
	} catch {
		// Only crash durability of the rename is weaker.
	}
}

// ---- Temp files of atomic writes killed mid-way --------------------------------

// When a temp file of an atomic write is nobody's: a write takes seconds at most.
const STALE_TEMP_MS = 10 * 60 * 1000;

// Whether name is a temp file of an atomic write of base, as this host
// (`.<base>.<pid>.<12 hex digits>.tmp`) or the Go host (`.<base>.tmp-<digits>`) names it.
function isTempOf(name: string, base: string): boolean {
	// The host's own temp file of a staged write of base (the guard's ".<base>.tmp-<digits>",
	// written atomically like any file) is one too.
	const staged = name.startsWith(`..${base}.tmp-`) ? /^\d+(?=\.)/.exec(name.slice(base.length + 7)) : null;
	if (staged !== null && isTempOf(name, `.${base}.tmp-${staged[0]}`)) return true;
	if (!name.startsWith(`.${base}.`)) return false;
	return /^(?:tmp-\d+|\d+\.[0-9a-f]{12}\.tmp)$/.test(name.slice(base.length + 2));
}

// The file a staged write's name is beside: the guard stages a write under a lock as
// ".<base>.tmp-<digits>" and renames it in.
function stagedFor(name: string): string | undefined {
	const m = /^\.(.+)\.tmp-\d+$/.exec(name);
	return m?.[1];
}

// Removes what atomic writes of base killed mid-way (SIGKILL, a power cut) left beside
// it, older than STALE_TEMP_MS: they sit in folders people commit. Best effort; the Go
// host does the same.
function sweepTemps(dir: string, base: string): void {
	try {
		for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
			if (!d.isFile() || !isTempOf(d.name, base)) continue;
			const at = path.join(dir, d.name);
			const st = fs.lstatSync(at, { throwIfNoEntry: false });
			if (st !== undefined && Date.now() - st.mtimeMs > STALE_TEMP_MS) fs.rmSync(at, { force: true });
		}
	} catch {
		// A folder that cannot be listed keeps its litter; the write itself is done.
	}
}

// ---- Lock files: who holds one, and whether that process is gone ------------------

// The pid namespace this process's pids are counted in (Linux: the number in
// /proc/self/ns/pid's link), or "" where there is none to read.
const PID_NAMESPACE = (() => {
	try {
		return /^pid:\[(\d+)\]$/.exec(fs.readlinkSync("/proc/self/ns/pid"))?.[1] ?? "";
	} catch {
		return "";
	}
})();

// The running kernel, and so the machine, since it started (Linux:
// /proc/sys/kernel/random/boot_id), or "". A namespace number alone does not name a
// machine: every Linux machine's first pid namespace is 4026531836.
const BOOT_ID = (() => {
	try {
		return /^[0-9a-f-]{36}$/.exec(fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim())?.[0] ?? "";
	} catch {
		return "";
	}
})();

// What a lock file says about its holder, the line the Go host writes too:
// `pid=4242 host=ada-laptop pidns=4026531836 boot=ca2146bd-… time=2026-11-21T21:27:00.123Z holder=9f86…`.
function lockLine(holder: string): string {
	const ns = PID_NAMESPACE === "" || BOOT_ID === "" ? "" : ` pidns=${PID_NAMESPACE} boot=${BOOT_ID}`;
	return `pid=${process.pid} host=${os.hostname()}${ns} time=${new Date().toISOString()} holder=${holder}\n`;
}

// What the lock file at p says about its holder (its first 4 KiB), without following a
// link or waiting on a FIFO, or undefined when it cannot be read.
function lockLineOf(p: string): string | undefined {
	try {
		const fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
		try {
			const buf = Buffer.alloc(4096);
			return buf.toString("utf8", 0, fs.readSync(fd, buf, 0, buf.length, 0));
		} finally {
			fs.closeSync(fd);
		}
	} catch {
		return undefined;
	}
}

// Whether a lock line names a process that is certainly no longer running: one on this
// host, counted in this pid namespace of this running kernel, whose pid no process has (a
// holder killed by SIGKILL leaves its file behind; without this every writer waits for it
// to grow stale). Whatever is uncertain (another host or boot, a line without a namespace,
// a pid that exists, an unreadable file) is not gone: the age rule still breaks it.
// The line of the lock file at p when it may be broken: older than staleMs, or its holder
// gone. The line is read before the file's age is looked at, so a lock replaced in between
// is judged by its own, fresh, time. undefined: there is no lock (create it at once);
// false: leave it.
function staleLine(p: string, staleMs: number): string | undefined | false {
	const line = lockLineOf(p);
	if (line === undefined && !fs.existsSync(p)) return undefined;
	const gone = holderGone(line);
	const st = fs.statSync(p, { throwIfNoEntry: false });
	if (st === undefined) return undefined;
	if (!st.isFile()) return false;
	// A lock that cannot be read is judged by its age alone, and read as empty.
	return gone || Date.now() - st.mtimeMs > staleMs ? (line ?? "") : false;
}

function holderGone(line: string | undefined): boolean {
	if (line === undefined) return false;
	const field = (k: string) => new RegExp(`(?:^|\\s)${k}=(\\S+)`).exec(line)?.[1] ?? "";
	const pid = Number(field("pid"));
	if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
	if (PID_NAMESPACE === "" || field("pidns") !== PID_NAMESPACE || field("host") !== os.hostname()) return false;
	if (BOOT_ID === "" || field("boot") !== BOOT_ID) return false;
	try {
		process.kill(pid, 0);
		return false;
	} catch (err) {
		return (err as NodeJS.ErrnoException).code === "ESRCH";
	}
}

// Whether a stat that found nothing at p means ENOENT: the nearest ancestor that exists
// is a folder, so the first missing name is what is missing (a config file in a
// project without a .pi folder: no stat throws). An ancestor that is not a folder, or
// a trailing slash, is left to the stat that throws and names the error.
function inFolder(p: string): boolean {
	if (p.endsWith("/") || p.endsWith(path.sep)) return false;
	for (let at = p, parent = path.dirname(p); parent !== at; at = parent, parent = path.dirname(parent)) {
		const st = fs.statSync(parent, { throwIfNoEntry: false });
		if (st !== undefined) return st.isDirectory();
	}
	return false;
}

// ---- The host functions ----------------------------------------------------------

/**
 * Host is the state behind one module instance: its memory, the last error, the
 * captured stdout/stderr and the locks it holds. `user` and `wasi` are the import
 * objects; each function reads the guest's memory afresh on every call, because
 * memory.grow detaches the previous ArrayBuffer.
 */
export class Host {
	lastError = "";
	output = "";
	/** The input of the export call in progress, which pm_input copies into the guest. */
	input: Uint8Array = new Uint8Array(0);
	/** The envelope pm_output handed over in the call in progress (a copy), if it used it. */
	envelope: Uint8Array | undefined;
	readonly #now: () => number;
	readonly #random: (dst: Uint8Array) => void;
	readonly #log: (level: LogLevel, message: string) => void;
	#memory: WebAssembly.Memory | undefined;
	// Lock path → the lock file this instance created, kept open until unlock: while
	// it is open its inode cannot be reused, so an unlock that finds another inode at
	// the path (another process broke ours as stale and took it, or something replaced
	// it) leaves that file alone, without reading it back.
	readonly #held = new Map<string, { fd: number; dev: bigint; ino: bigint }>();
	// Tells this instance's locks apart from another's in the same process.
	readonly #holder = randomBytes(8).toString("hex");

	constructor(options: HostOptions = {}) {
		this.#now = options.now ?? (() => performance.timeOrigin + performance.now());
		this.#random = options.random ?? ((dst) => void randomFillSync(dst));
		this.#log = options.log ?? (() => {});
	}

	/** Binds the host to the instance's exported memory. */
	attach(memory: WebAssembly.Memory): void {
		this.#memory = memory;
	}

	/** Returns and clears the captured stdout/stderr text. */
	takeOutput(): string {
		const s = this.output;
		this.output = "";
		return s;
	}

	/** Paths of the locks this instance holds. */
	heldLocks(): string[] {
		return [...this.#held.keys()];
	}

	/** Releases every lock this instance still holds (its instance is gone). */
	releaseAll(): void {
		for (const p of [...this.#held.keys()]) this.#release(p);
	}

	// Guest memory views; undefined when the range is outside memory.
	#bytes(ptr: number, len: number): Uint8Array | undefined {
		const memory = this.#memory;
		if (memory === undefined) return undefined;
		const start = ptr >>> 0;
		const n = len >>> 0;
		if (start + n > memory.buffer.byteLength) return undefined;
		return new Uint8Array(memory.buffer, start, n);
	}

	#view(ptr: number, len: number): DataView | undefined {
		const b = this.#bytes(ptr, len);
		return b === undefined ? undefined : new DataView(b.buffer, b.byteOffset, b.byteLength);
	}

	#invalid(op: string, what: string): number {
		this.lastError = `${op}: ${what}`;
		return INVALID;
	}

	// A refusal to replace a regular file no one may write (a person's chmod a-w): a
	// rename would replace it all the same, as root's write would (decision 001).
	#readOnly(added = false): number {
		this.lastError = `is read-only (no one may write it), so nothing ${added ? "is added to it" : "replaces it"}; chmod u+w lets pi-memory change it`;
		return PERMISSION;
	}

	// A refusal to create, replace, rename or remove a file in a folder no one may write
	// (a person's chmod a-w on the folder): root's create, rename and unlink there
	// succeed, anyone else's are refused, so nobody's are (decision 001). A folder that
	// cannot be looked at is left to the operation itself to report. 0 when allowed.
	#inReadOnlyFolder(p: string): number {
		try {
			const st = fs.statSync(path.dirname(p), { throwIfNoEntry: false });
			if (st === undefined || !st.isDirectory() || (st.mode & 0o222) !== 0) return 0;
		} catch {
			return 0;
		}
		return this.#readOnlyFolder();
	}

	#readOnlyFolder(): number {
		this.lastError = "is in a read-only folder (no one may write it), so nothing is created, replaced or removed in it; chmod u+w on the folder lets pi-memory change it";
		return PERMISSION;
	}

	// A refusal of something that is not a regular file: -4 and what it is.
	#notRegular(st: fs.Stats | fs.BigIntStats): number {
		this.lastError = notRegular(st);
		return KIND;
	}

	/**
	 * Opens a file that exists without ever waiting on it, and keeps the descriptor only
	 * if fstat on it says it is a regular file: a check on the descriptor itself, which
	 * nothing can swap between check and use. Opening a FIFO for writing with no reader,
	 * a socket, or a device without a driver fails at once (ENXIO) and is refused the
	 * same way. Opened for writing, a file no one may write (a person's chmod a-w) is
	 * refused as a write and a rename refuse it, root included (root's open succeeds),
	 * and in the same words when the open refused it (the Go host's openRegular).
	 * Returns the descriptor, or a negative contract code.
	 */
	#openRegular(op: string, p: string, flags: number): number {
		const writing = (flags & (O_WRONLY | fs.constants.O_RDWR)) !== 0;
		let fd: number;
		try {
			fd = fs.openSync(p, flags | O_NONBLOCK | O_NOCTTY);
		} catch (err) {
			const code = err instanceof Error && "code" in err ? err.code : "";
			const noFollow = O_NOFOLLOW !== 0 && (flags & O_NOFOLLOW) !== 0;
			if (code === "ENXIO" || (noFollow && code === "ELOOP") || (writing && codeFor(err) === PERMISSION)) {
				try {
					const st = noFollow ? fs.lstatSync(p, { throwIfNoEntry: false }) : fs.statSync(p, { throwIfNoEntry: false });
					if (st !== undefined && !st.isFile()) return this.#notRegular(st);
					if (writing && st !== undefined && (st.mode & 0o222) === 0) return this.#readOnly(true);
				} catch {
					// Report the open's own error below.
				}
			}
			return this.#fail(op, p, err);
		}
		try {
			const st = fs.fstatSync(fd);
			if (st.isFile() && !(writing && (st.mode & 0o222) === 0)) return fd;
			fs.closeSync(fd);
			return st.isFile() ? this.#readOnly(true) : this.#notRegular(st);
		} catch (err) {
			fs.closeSync(fd);
			return this.#fail(op, p, err);
		}
	}

	/**
	 * Opens p for appending, creating it when it is missing. Creating is exclusive
	 * (O_EXCL), which never follows a link: a dangling link at p is refused instead of
	 * creating its target wherever it points. A file another process creates or removes
	 * meanwhile is simply tried again. Returns the descriptor or a negative code.
	 */
	#openAppend(p: string): number {
		for (let attempt = 0; ; attempt++) {
			const fd = this.#openRegular("append", p, O_WRONLY | O_APPEND);
			if (fd !== NOT_FOUND) return fd;
			const refused = this.#inReadOnlyFolder(p);
			if (refused !== 0) return refused;
			try {
				return fs.openSync(p, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NONBLOCK | O_NOCTTY, 0o644);
			} catch (err) {
				if (codeFor(err) !== EXISTS) return this.#fail("append", p, err);
			}
			try {
				if (fs.lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink()) {
					this.lastError = DANGLING_LINK;
					return KIND;
				}
			} catch (err) {
				return this.#fail("append", p, err);
			}
			if (attempt === 3) {
				this.lastError = "another process keeps creating and removing it; try again";
				return IO;
			}
		}
	}

	#fail(op: string, p: string, err: unknown): number {
		// Node's errno messages already name the call and the path ("ENOENT: no such file
		// or directory, open '/x'"); the core adds its own "op path:" in front.
		const errno = err instanceof Error && "syscall" in err;
		this.lastError = errno ? err.message : `${op} ${p}: ${err instanceof Error ? err.message : String(err)}`;
		return codeFor(err);
	}

	// A path argument: UTF-8, absolute, no NUL. Undefined (and lastError set) otherwise.
	#path(op: string, ptr: number, len: number): string | undefined {
		const b = this.#bytes(ptr, len);
		if (b === undefined || b.length === 0) {
			this.#invalid(op, "path is empty or outside guest memory");
			return undefined;
		}
		let p: string;
		try {
			p = utf8.decode(b);
		} catch {
			this.#invalid(op, "path is not valid UTF-8");
			return undefined;
		}
		if (!path.isAbsolute(p) || p.includes("\0")) {
			this.#invalid(op, `path must be absolute: ${JSON.stringify(p)}`);
			return undefined;
		}
		return p;
	}

	readonly user: Record<string, HostFn> = {
		pm_fs_read: (pathPtr: number, pathLen: number, offset: bigint, dstPtr: number, dstLen: number): bigint => {
			const p = this.#path("read", pathPtr, pathLen);
			if (p === undefined) return BigInt(INVALID);
			const dst = this.#bytes(dstPtr, dstLen);
			if (dst === undefined) return BigInt(this.#invalid("read", "buffer outside guest memory"));
			if (offset < 0n || offset > BigInt(Number.MAX_SAFE_INTEGER)) return BigInt(this.#invalid("read", `bad offset ${offset}`));
			const fd = this.#openRegular("read", p, O_RDONLY);
			if (fd < 0) return BigInt(fd);
			try {
				// Fill the buffer unless the file ends first: fewer round trips for the core.
				let done = 0;
				while (done < dst.length) {
					const n = fs.readSync(fd, dst, done, dst.length - done, Number(offset) + done);
					if (n === 0) break;
					done += n;
				}
				return BigInt(done);
			} catch (err) {
				return BigInt(this.#fail("read", p, err));
			} finally {
				fs.closeSync(fd);
			}
		},

		pm_fs_stat: (pathPtr: number, pathLen: number, outPtr: number): number => this.#stat("stat", pathPtr, pathLen, outPtr),

		pm_fs_lstat: (pathPtr: number, pathLen: number, outPtr: number): number => this.#stat("lstat", pathPtr, pathLen, outPtr),

		pm_fs_append: (pathPtr: number, pathLen: number, dataPtr: number, dataLen: number): number => {
			const p = this.#path("append", pathPtr, pathLen);
			if (p === undefined) return INVALID;
			const data = this.#bytes(dataPtr, dataLen);
			if (data === undefined) return this.#invalid("append", "data outside guest memory");
			const fd = this.#openAppend(p);
			if (fd < 0) return fd;
			try {
				if (data.length === 0) return 0;
				// Exactly one write on an O_APPEND descriptor: concurrent appenders never interleave within a line.
				const n = fs.writeSync(fd, data);
				if (n !== data.length) {
					this.lastError = `append ${p}: short write (${n} of ${data.length} bytes)`;
					return IO;
				}
				return 0;
			} catch (err) {
				return this.#fail("append", p, err);
			} finally {
				fs.closeSync(fd);
			}
		},

		pm_fs_write_atomic: (pathPtr: number, pathLen: number, dataPtr: number, dataLen: number): number => {
			const p = this.#path("write", pathPtr, pathLen);
			if (p === undefined) return INVALID;
			const data = this.#bytes(dataPtr, dataLen);
			if (data === undefined) return this.#invalid("write", "data outside guest memory");
			// The rename replaces whatever name p is, never writing through it: a link is
			// replaced by the file. A folder, FIFO, socket or device is refused instead.
			// Checking then renaming can race, harmlessly: rename itself refuses to put a
			// file over a folder, and replacing anything else writes nothing through it.
			const dir = path.dirname(p);
			const refused = this.#inReadOnlyFolder(p);
			if (refused !== 0) return refused;
			// The file keeps its mode; a write the guard stages beside its file, to
			// rename in, is no more readable than that file, even before the rename.
			let mode: number | undefined;
			try {
				const st = fs.lstatSync(p, { throwIfNoEntry: false });
				if (st !== undefined && !st.isFile() && !st.isSymbolicLink()) return this.#notRegular(st);
				if (st?.isFile() && (st.mode & 0o222) === 0) return this.#readOnly();
				const base = st === undefined ? stagedFor(path.basename(p)) : undefined;
				const of = base === undefined ? st : fs.lstatSync(path.join(dir, base), { throwIfNoEntry: false });
				if (of?.isFile()) mode = of.mode & 0o7777;
			} catch {
				// A folder on the way is missing or a file: creating the temp file says so.
			}
			// Beside the target, so the rename stays on one file system.
			const tmp = path.join(dir, `.${path.basename(p)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
			let fd: number | undefined;
			try {
				fd = fs.openSync(tmp, "wx", mode ?? 0o666);
				if (mode !== undefined) fs.fchmodSync(fd, mode);
				let done = 0;
				while (done < data.length) done += fs.writeSync(fd, data, done, data.length - done);
				fs.fsyncSync(fd);
				fs.closeSync(fd);
				fd = undefined;
				fs.renameSync(tmp, p);
			} catch (err) {
				if (fd !== undefined) fs.closeSync(fd);
				fs.rmSync(tmp, { force: true });
				return this.#fail("write", p, err);
			}
			syncDir(dir);
			sweepTemps(dir, path.basename(p));
			return 0;
		},

		pm_fs_list: (pathPtr: number, pathLen: number, dstPtr: number, dstLen: number): bigint => {
			const p = this.#path("list", pathPtr, pathLen);
			if (p === undefined) return BigInt(INVALID);
			if (this.#bytes(dstPtr, dstLen) === undefined) return BigInt(this.#invalid("list", "buffer outside guest memory"));
			let names: Buffer[];
			try {
				names = fs.readdirSync(p, { withFileTypes: true }).map((d) => {
					let folder = d.isDirectory();
					if (d.isSymbolicLink()) folder = linksToFolder(path.join(p, d.name));
					return Buffer.from(`${listEntry(p, d.name)}${folder ? "/" : ""}\n`);
				});
			} catch (err) {
				return BigInt(this.#fail("list", p, err));
			}
			names.sort(Buffer.compare);
			const all = Buffer.concat(names);
			if (all.length <= dstLen >>> 0) {
				const dst = this.#bytes(dstPtr, all.length);
				if (dst === undefined) return BigInt(this.#invalid("list", "buffer outside guest memory"));
				dst.set(all);
			}
			return BigInt(all.length);
		},

		pm_fs_mkdir: (pathPtr: number, pathLen: number): number => {
			const p = this.#path("mkdir", pathPtr, pathLen);
			if (p === undefined) return INVALID;
			try {
				// The first folder missing on the way is made in the nearest one that is
				// there, which must be one that may be written.
				for (let q = p, made = ""; ; made = q, q = path.dirname(q)) {
					const st = fs.statSync(q, { throwIfNoEntry: false });
					if (st !== undefined) {
						if (made !== "" && st.isDirectory() && (st.mode & 0o222) === 0) return this.#readOnlyFolder();
						break;
					}
					if (q === path.dirname(q)) break;
				}
				fs.mkdirSync(p, { recursive: true });
				return 0;
			} catch (err) {
				return this.#fail("mkdir", p, err);
			}
		},

		pm_fs_remove: (pathPtr: number, pathLen: number): number => {
			const p = this.#path("remove", pathPtr, pathLen);
			if (p === undefined) return INVALID;
			const refused = this.#inReadOnlyFolder(p);
			if (refused !== 0) return refused;
			try {
				if (fs.lstatSync(p).isDirectory()) fs.rmdirSync(p);
				else fs.unlinkSync(p);
				return 0;
			} catch (err) {
				return this.#fail("remove", p, err);
			}
		},

		pm_fs_rename: (fromPtr: number, fromLen: number, toPtr: number, toLen: number): number => {
			const from = this.#path("rename", fromPtr, fromLen);
			const to = this.#path("rename", toPtr, toLen);
			if (from === undefined || to === undefined) return INVALID;
			try {
				if (fs.lstatSync(from).isDirectory()) return this.#fail("rename", from, Object.assign(new Error(`${from} is a folder; only files are renamed`), { code: "EISDIR" }));
				const refused = this.#inReadOnlyFolder(from) || this.#inReadOnlyFolder(to);
				if (refused !== 0) return refused;
				// A file replaced keeps its mode, as an atomic write keeps it: the
				// guard stages a locked write beside the file and renames it in.
				// Only a regular file takes it: chmod through a link at from would
				// change the mode of a file elsewhere, which the rename leaves where it is.
				const st = fs.lstatSync(to, { throwIfNoEntry: false });
				if (st?.isFile() && (st.mode & 0o222) === 0) return this.#readOnly();
				if (st?.isFile() && fs.lstatSync(from).isFile()) fs.chmodSync(from, st.mode & 0o7777);
				fs.renameSync(from, to);
				syncDir(path.dirname(to));
				// A staged write renamed in ends an atomic write: what killed ones left
				// beside to goes, as after a direct write.
				sweepTemps(path.dirname(to), path.basename(to));
				return 0;
			} catch (err) {
				return this.#fail("rename", from, err);
			}
		},

		pm_lock: (pathPtr: number, pathLen: number, waitMs: number, staleMs: number): number => {
			const p = this.#path("lock", pathPtr, pathLen);
			if (p === undefined) return INVALID;
			return this.#lock(p, waitMs >>> 0, staleMs >>> 0);
		},

		pm_unlock: (pathPtr: number, pathLen: number): number => {
			const p = this.#path("unlock", pathPtr, pathLen);
			if (p === undefined) return INVALID;
			return this.#release(p);
		},

		pm_now: (): bigint => BigInt(Math.floor(this.#now())),

		pm_random: (dstPtr: number, dstLen: number): number => {
			const dst = this.#bytes(dstPtr, dstLen);
			if (dst === undefined) return this.#invalid("random", "buffer outside guest memory");
			this.#random(dst);
			return 0;
		},

		pm_log: (level: number, ptr: number, len: number): undefined => {
			const b = this.#bytes(ptr, len);
			const lv: LogLevel = level <= 0 ? 0 : level >= 3 ? 3 : level === 1 ? 1 : 2;
			this.#log(lv, b === undefined ? "(log message outside guest memory)" : utf8Lossy.decode(b));
			return undefined;
		},

		// An export's input and output in one call each: Extism's own copy costs a host
		// call per 8 bytes (~14 ns a byte here), 9 ms for pi's 630 KB branch.
		pm_input: (dstPtr: number, dstLen: number): bigint => {
			const input = this.input;
			if (input.length > 0 && input.length <= dstLen >>> 0) {
				const dst = this.#bytes(dstPtr, input.length);
				if (dst === undefined) return BigInt(this.#invalid("input", "buffer outside guest memory"));
				dst.set(input);
			}
			return BigInt(input.length);
		},

		pm_output: (ptr: number, len: number): number => {
			const b = this.#bytes(ptr, len);
			if (b === undefined) return this.#invalid("output", "envelope outside guest memory");
			this.envelope = b.slice();
			return 0;
		},

		pm_last_error: (dstPtr: number, dstLen: number): number => {
			const msg = encoder.encode(this.lastError);
			const dst = this.#bytes(dstPtr, Math.min(msg.length, dstLen >>> 0));
			if (dst === undefined) return INVALID;
			dst.set(msg.subarray(0, dst.length));
			return msg.length;
		},
	};

	// pm_fs_stat and pm_fs_lstat write the same 24 bytes: size u64 (files, a link's
	// target path, a folder's entries as the file system counts them; 0 otherwise),
	// mtime in ms u64, kind u32 (0 other, 1 file, 2 folder, 3 link), the file's
	// identity u32 (fileID; the core tells a file renamed over the path by it).
	#stat(op: "stat" | "lstat", pathPtr: number, pathLen: number, outPtr: number): number {
		const p = this.#path(op, pathPtr, pathLen);
		if (p === undefined) return INVALID;
		if (this.#view(outPtr, 24) === undefined) return this.#invalid(op, "output outside guest memory");
		try {
			// BigInt stats: a float mtimeMs can round a whole millisecond down. A missing
			// file is the common answer (config files nobody wrote, looked for on every
			// request), and a thrown error costs ~90 µs here, where its stack trace walks
			// the module's frames, against ~2 µs for the stat: throwIfNoEntry answers
			// without one. It answers the same for ENOTDIR, which the contract reports as
			// -4: a parent that is a folder rules that out, else the stat runs again and
			// throws whichever it is.
			const quiet = { bigint: true, throwIfNoEntry: false } as const;
			let st = op === "stat" ? fs.statSync(p, quiet) : fs.lstatSync(p, quiet);
			if (st === undefined) {
				if (inFolder(p)) {
					this.lastError = `ENOENT: no such file or directory, ${op} '${p}'`;
					return NOT_FOUND;
				}
				st = op === "stat" ? fs.statSync(p, { bigint: true }) : fs.lstatSync(p, { bigint: true });
			}
			const kind = kindOf(st);
			const out = this.#view(outPtr, 24);
			if (out === undefined) return this.#invalid(op, "output outside guest memory");
			out.setBigUint64(0, kind === KIND_OTHER ? 0n : st.size, true);
			// Floored, as the Go host's UnixMilli is: BigInt division truncates toward
			// zero, and a time before 1970 then differed by a millisecond between the
			// hosts, so each refused the other's snapshot (h-v95 a4).
			const ns = st.mtimeNs;
			out.setBigUint64(8, BigInt.asUintN(64, ns / 1_000_000n - (ns < 0n && ns % 1_000_000n !== 0n ? 1n : 0n)), true);
			out.setUint32(16, kind, true);
			out.setUint32(20, kind === KIND_FILE ? fileID(st.dev, st.ino) : 0, true);
			return 0;
		} catch (err) {
			return this.#fail(op, p, err);
		}
	}

	#lock(p: string, waitMs: number, staleMs: number): number {
		if (this.#held.has(p)) {
			this.lastError = `lock ${p}: already held by this instance; unlock it first`;
			return EXISTS;
		}
		const refused = this.#inReadOnlyFolder(p);
		if (refused !== 0) return refused;
		const deadline = performance.now() + waitMs;
		let pause = 2;
		for (;;) {
			let fd: number | undefined;
			try {
				fd = fs.openSync(p, "wx");
			} catch (err) {
				if (codeFor(err) !== EXISTS) return this.#fail("lock", p, err);
			}
			if (fd !== undefined) {
				try {
					fs.writeSync(fd, lockLine(this.#holder));
					const st = fs.fstatSync(fd, { bigint: true });
					this.#held.set(p, { fd, dev: st.dev, ino: st.ino });
					return 0;
				} catch (err) {
					// A lock file we cannot identify could never be released by us: remove it.
					fs.closeSync(fd);
					fs.rmSync(p, { force: true });
					return this.#fail("lock", p, err);
				}
			}
			let st: fs.Stats | undefined;
			try {
				st = fs.lstatSync(p, { throwIfNoEntry: false });
			} catch (err) {
				return this.#fail("lock", p, err);
			}
			// Only a regular file is a lock; anything else (a folder, a link, a FIFO) was put
			// there by someone else, and waiting would not help.
			if (st !== undefined && !st.isFile()) return this.#notRegular(st);
			// Retry at once after breaking a stale lock, or one whose holder is gone; staleMs 0
			// means never break.
			if (st !== undefined && staleMs > 0 && staleLine(p, staleMs) !== false) {
				const broken = this.#breakStale(p, staleMs);
				if (broken === true) continue;
				if (broken !== false) return broken;
			}
			const left = deadline - performance.now();
			if (left <= 0) {
				this.lastError = `lock ${p}: held by another process (waited ${waitMs} ms); it is broken once older than ${staleMs} ms`;
				return BUSY;
			}
			if (st !== undefined) {
				sleep(Math.min(pause, left));
				pause = Math.min(pause * 2, 50);
			}
		}
	}

	// Breaks a stale lock without ever removing a fresh one. Breaking is serialised by a
	// second lock file, `<lock>.break`, created exclusively: its holder judges the lock
	// again and removes it only while it is still older than staleMs or its holder is
	// gone, which a fresh lock's never is. A `.break` names its holder as a lock does; one
	// left by a process that died inside these few calls is removed once its holder is gone,
	// or once it is older than staleMs (a holder that cannot be judged). The Go host follows
	// the same protocol, so pi and pimem contend safely. True when the caller should try to
	// create the lock at once. Anything but a regular file at `.break` (a folder, a link, a
	// FIFO) is no breaker's: it is never removed, and KIND is returned at once, naming it,
	// since it would hold every writer for good.
	#breakStale(p: string, staleMs: number): boolean | number {
		const brk = `${p}.break`;
		let fd: number;
		try {
			fd = fs.openSync(brk, "wx");
		} catch {
			let kind: fs.Stats | undefined;
			try {
				kind = fs.lstatSync(brk, { throwIfNoEntry: false });
			} catch {
				return false;
			}
			if (kind !== undefined && !kind.isFile()) {
				this.lastError = `the lock is stale but cannot be broken: ${brk} ${notRegular(kind)}, where only a breaker's regular file may be; remove it by hand`;
				return KIND;
			}
			const line = lockLineOf(brk);
			const st = fs.statSync(brk, { throwIfNoEntry: false });
			if (st !== undefined && (holderGone(line) || Date.now() - st.mtimeMs > staleMs)) fs.rmSync(brk, { force: true });
			return false;
		}
		try {
			fs.writeSync(fd, lockLine("break"));
		} catch {
			// A .break that names no holder is removed by its age.
		}
		fs.closeSync(fd);
		try {
			const line = staleLine(p, staleMs);
			if (line === false) return false;
			if (line === undefined) return true;
			// Read once more now that the judgement is done: a holder that unlocked meanwhile
			// (a slow one past the age, or one whose pid was being looked up), and a
			// successor that took the lock, leave another line, and the successor's lock stays.
			if ((lockLineOf(p) ?? "") !== line) return false;
			fs.rmSync(p, { force: true });
			return true;
		} catch {
			return false
		} finally {
			fs.rmSync(brk, { force: true });
		}
	}

	#release(p: string): number {
		const held = this.#held.get(p);
		if (held === undefined) return this.#invalid("unlock", `${p} is not held by this instance`);
		this.#held.delete(p);
		try {
			// lstat: a link put at the path is not our file, whatever it points at.
			const st = fs.lstatSync(p, { bigint: true, throwIfNoEntry: false });
			if (st === undefined) {
				this.lastError = `unlock ${p}: the lock file is gone: another process broke it as stale while this one held it`;
				return NOT_FOUND;
			}
			if (!st.isFile()) {
				this.lastError = notRegular(st) + LOCK_REPLACED;
				return KIND;
			}
			if (st.dev !== held.dev || st.ino !== held.ino) {
				this.lastError = `unlock ${p}: the lock was broken as stale and is now held by someone else`;
				return BUSY;
			}
			fs.unlinkSync(p);
			return 0;
		} catch (err) {
			return this.#fail("unlock", p, err);
		} finally {
			fs.closeSync(held.fd);
		}
	}

	// A WASI preview 1 shim with no file authority: clocks, randomness, stdout/stderr
	// captured into `output`, no preopened folders, empty args and environment.
	readonly wasi: Record<string, HostFn> = {
		fd_write: (fd: number, iovs: number, iovsLen: number, nwrittenPtr: number): number => {
			if (fd !== 1 && fd !== 2) return WASI_EBADF;
			const list = this.#view(iovs, (iovsLen >>> 0) * 8);
			if (list === undefined) return WASI_EFAULT;
			let written = 0;
			const chunks: string[] = [];
			for (let i = 0; i < iovsLen >>> 0; i++) {
				const b = this.#bytes(list.getUint32(i * 8, true), list.getUint32(i * 8 + 4, true));
				if (b === undefined) return WASI_EFAULT;
				chunks.push(utf8Lossy.decode(b));
				written += b.length;
			}
			this.output = (this.output + chunks.join("")).slice(-OUTPUT_CAP);
			const out = this.#view(nwrittenPtr, 4);
			if (out === undefined) return WASI_EFAULT;
			out.setUint32(0, written, true);
			return WASI_SUCCESS;
		},
		fd_close: (fd: number): number => (fd >= 0 && fd <= 2 ? WASI_SUCCESS : WASI_EBADF),
		fd_seek: (fd: number): number => (fd >= 0 && fd <= 2 ? WASI_ESPIPE : WASI_EBADF),
		fd_fdstat_get: (fd: number, statPtr: number): number => {
			if (fd < 0 || fd > 2) return WASI_EBADF;
			const st = this.#view(statPtr, 24);
			if (st === undefined) return WASI_EFAULT;
			st.setUint8(0, 2); // character device
			st.setUint8(1, 0);
			st.setUint16(2, 0, true);
			st.setUint32(4, 0, true);
			st.setBigUint64(8, fd === 0 ? 0x2n : 0x40n, true); // fd_read / fd_write rights
			st.setBigUint64(16, 0n, true);
			return WASI_SUCCESS;
		},
		fd_fdstat_set_flags: (fd: number): number => (fd >= 0 && fd <= 2 ? WASI_SUCCESS : WASI_EBADF),
		fd_prestat_get: (): number => WASI_EBADF, // no preopened folders: the module has no file authority
		fd_prestat_dir_name: (): number => WASI_EBADF,
		args_sizes_get: (argcPtr: number, sizePtr: number): number => this.#zeroSizes(argcPtr, sizePtr),
		args_get: (): number => WASI_SUCCESS,
		environ_sizes_get: (countPtr: number, sizePtr: number): number => this.#zeroSizes(countPtr, sizePtr),
		environ_get: (): number => WASI_SUCCESS,
		clock_time_get: (id: number, _precision: bigint, timePtr: number): number => {
			const out = this.#view(timePtr, 8);
			if (out === undefined) return WASI_EFAULT;
			if (id === 0) out.setBigUint64(0, BigInt(Math.round(this.#now() * 1000)) * 1000n, true);
			else if (id >= 1 && id <= 3) out.setBigUint64(0, process.hrtime.bigint(), true);
			else return WASI_EINVAL;
			return WASI_SUCCESS;
		},
		random_get: (bufPtr: number, bufLen: number): number => {
			const dst = this.#bytes(bufPtr, bufLen);
			if (dst === undefined) return WASI_EFAULT;
			this.#random(dst);
			return WASI_SUCCESS;
		},
		proc_exit: (code: number): undefined => {
			throw new WasiExit(code);
		},
		sched_yield: (): number => WASI_SUCCESS,
		poll_oneoff: (inPtr: number, outPtr: number, nsubs: number, neventsPtr: number): number => this.#poll(inPtr, outPtr, nsubs >>> 0, neventsPtr),
	};

	#zeroSizes(aPtr: number, bPtr: number): number {
		const a = this.#view(aPtr, 4);
		const b = this.#view(bPtr, 4);
		if (a === undefined || b === undefined) return WASI_EFAULT;
		a.setUint32(0, 0, true);
		b.setUint32(0, 0, true);
		return WASI_SUCCESS;
	}

	// Only clock subscriptions can fire: the module has no descriptors to wait on. The
	// runtime uses this to sleep; the core never sleeps, so the wait stays theoretical.
	#poll(inPtr: number, outPtr: number, nsubs: number, neventsPtr: number): number {
		const subs = this.#view(inPtr, nsubs * 48);
		const events = this.#view(outPtr, nsubs * 32);
		const count = this.#view(neventsPtr, 4);
		if (subs === undefined || events === undefined || count === undefined || nsubs === 0) return WASI_EINVAL;
		let waitNs: bigint | undefined;
		for (let i = 0; i < nsubs; i++) {
			if (subs.getUint8(i * 48 + 8) !== 0) continue;
			let timeout = subs.getBigUint64(i * 48 + 24, true);
			if ((subs.getUint16(i * 48 + 40, true) & 1) === 1) {
				const now = BigInt(Math.round(this.#now() * 1000)) * 1000n;
				timeout = timeout > now ? timeout - now : 0n;
			}
			if (waitNs === undefined || timeout < waitNs) waitNs = timeout;
		}
		if (waitNs !== undefined) sleep(Number(waitNs / 1_000_000n));
		for (let i = 0; i < nsubs; i++) {
			const tag = subs.getUint8(i * 48 + 8);
			events.setBigUint64(i * 32, subs.getBigUint64(i * 48, true), true);
			events.setUint16(i * 32 + 8, tag === 0 ? WASI_SUCCESS : WASI_EBADF, true);
			events.setUint8(i * 32 + 10, tag);
			events.setBigUint64(i * 32 + 16, 0n, true);
			events.setUint16(i * 32 + 24, 0, true);
		}
		count.setUint32(0, nsubs, true);
		return WASI_SUCCESS;
	}
}

// ---- Compiling and instantiating -------------------------------------------------

const compiled = new Map<string, Promise<WebAssembly.Module>>();

/**
 * Compiles the module at `file` (a path or file: URL) once per process and returns
 * the shared promise. The promise is pre-handled so an early failure is never an
 * unhandled rejection; it still rejects for whoever awaits it.
 *
 * The compile is synchronous on purpose. V8 compiles wasm functions lazily, so
 * `new WebAssembly.Module` only decodes and validates: ~5 ms for the TinyGo core.
 * `WebAssembly.compile` looks cheaper but its completion waits for pi's main thread,
 * which is busy starting up: in `pi -p` the first prompt then waited ~50 ms for a
 * module that compiles in ~5 (measured; docs/benchmarks.md).
 */
export function compileCore(file: string | URL): Promise<WebAssembly.Module> {
	const key = typeof file === "string" ? path.resolve(file) : file.href;
	let p = compiled.get(key);
	if (p === undefined) {
		try {
			p = Promise.resolve(new WebAssembly.Module(fs.readFileSync(file)));
		} catch (err) {
			p = Promise.reject(err);
		}
		p.catch(() => {});
		compiled.set(key, p);
	}
	return p;
}

/** One live module instance and the host state behind it. */
export interface Instance {
	plugin: Plugin;
	instance: WebAssembly.Instance;
	host: Host;
}

// Extism passes its CallContext first; our imports work on guest memory instead.
function forExtism(fns: Record<string, HostFn>): Record<string, (cc: CallContext, ...args: unknown[]) => unknown> {
	const out: Record<string, (cc: CallContext, ...args: unknown[]) => unknown> = {};
	// The arguments are whatever the import's wasm signature delivers: numbers, and BigInt for i64.
	for (const [name, fn] of Object.entries(fns)) out[name] = (_cc: CallContext, ...args: unknown[]) => fn(...(args as never[]));
	return out;
}

/**
 * Instantiates a compiled module through Extism with WASI off (Node's WASI would
 * grant file authority and print on the module's behalf) and our shim in its place,
 * then runs the module's `_initialize`, which Extism only runs when WASI is on.
 */
export async function instantiate(module: WebAssembly.Module, options: HostOptions = {}): Promise<Instance> {
	const host = new Host(options);
	// The bare module, not { wasm: [{ module }] }: Extism checks a manifest object with
	// `instanceof Response`, and touching Response loads Node's fetch stack (tens of ms
	// at start-up); a WebAssembly.Module is recognised before that check.
	const plugin = await createPlugin(module, {
		useWasi: false,
		functions: {
			"extism:host/user": forExtism(host.user),
			wasi_snapshot_preview1: forExtism(host.wasi),
		},
	});
	const instance = await plugin.getInstance();
	const memory = instance.exports.memory;
	if (!(memory instanceof WebAssembly.Memory)) {
		await plugin.close();
		throw new Error("pi-memory: the core module exports no memory");
	}
	host.attach(memory);
	const init = instance.exports._initialize;
	if (typeof init === "function") {
		try {
			init();
		} catch (err) {
			await plugin.close();
			throw new CoreTrap("_initialize", host.takeOutput(), err);
		}
	}
	return { plugin, instance, host };
}

/** What one export call handed back: its envelope as Extism's output, or the bytes pm_output took (a large one). */
export interface Raw {
	text?: string;
	big?: Uint8Array;
}

/** An export call that failed in the module; `panic` is what the module printed meanwhile. */
export class Trapped extends Error {
	readonly panic: string;

	constructor(panic: string, cause: unknown) {
		super(cause instanceof Error ? cause.message : String(cause), { cause });
		this.name = "Trapped";
		this.panic = panic;
	}
}

/**
 * Runs one export on a live instance, its input through both channels (Extism's, and
 * pm_input for a large one), and hands back what it answered through either. Throws
 * Trapped when the module fails; the instance is then unusable.
 */
export async function callInstance(live: Instance, exportName: string, input: Uint8Array): Promise<Raw> {
	live.host.takeOutput();
	live.host.input = input;
	live.host.envelope = undefined;
	let raw: Raw;
	try {
		const result = await live.plugin.call(exportName, input);
		// (Read through a cast: TypeScript keeps the `undefined` assigned above across the await.)
		const big = live.host.envelope as Uint8Array | undefined;
		raw = big === undefined ? { text: result?.text() } : { big };
	} catch (err) {
		throw new Trapped(live.host.takeOutput(), err);
	} finally {
		live.host.input = new Uint8Array(0);
		live.host.envelope = undefined;
	}
	// Extism keeps every call's input and output blocks until reset; the core keeps
	// its state in its own memory, so dropping them after each call is safe.
	void live.plugin.reset();
	return raw;
}

/** Where a Core's instance lives: on this thread, or in a worker thread (InWorker). */
interface Live {
	call(exportName: string, input: Uint8Array): Promise<Raw>;
	/** The size of the module's linear memory after the last call. */
	memoryBytes(): number;
	/** Releases its locks and ends the instance. */
	drop(): void;
}

/** The size of an instance's linear memory. */
export function memoryOf(live: Instance): number {
	const m = live.instance.exports.memory;
	return m instanceof WebAssembly.Memory ? m.buffer.byteLength : 0;
}

/** Ends an instance whose thread goes on: its locks are released, then Extism's plugin closed. */
export function release(live: Instance): void {
	live.host.releaseAll();
	void live.plugin.close();
}

function here(live: Instance): Live {
	return {
		call: (exportName, input) => callInstance(live, exportName, input),
		memoryBytes: () => memoryOf(live),
		drop: () => release(live),
	};
}

/** What ts/worker.ts and a Core say to each other. */
export type ToWorker = { t: "start"; module: WebAssembly.Module } | { t: "call"; exportName: string; input: Uint8Array } | { t: "drop" };
export type FromWorker =
	| { t: "started" }
	| { t: "dropped" }
	| { t: "failed"; error: unknown }
	| { t: "done"; raw: Raw; memoryBytes: number }
	| { t: "trapped"; panic: string; error: unknown }
	| { t: "log"; level: LogLevel; message: string };

/**
 * The instance in a worker thread (ts/worker.ts, built to dist/worker.js): calls go
 * there one at a time, the host functions run there, and so does the module's garbage
 * collection, which holds no one else's thread. The thread keeps the process alive
 * only while a call is out (unref between calls).
 */
class InWorker implements Live {
	readonly #worker: Worker;
	readonly #waiting: ((m: FromWorker) => void)[] = [];
	#gone: unknown;
	#memoryBytes = 0;

	private constructor(worker: Worker, log: (level: LogLevel, message: string) => void) {
		this.#worker = worker;
		worker.unref();
		worker.on("message", (m: FromWorker) => {
			if (m.t === "log") log(m.level, m.message);
			else this.#waiting.shift()?.(m);
		});
		const end = (error: unknown) => {
			this.#gone ??= error;
			for (const w of this.#waiting.splice(0)) w({ t: "trapped", panic: "", error });
		};
		worker.on("error", end);
		worker.on("exit", (code) => end(new Error(`pi-memory's worker thread exited (code ${code})`)));
		// The thread's stdout and stderr are its own streams, never pi's screen; what it
		// writes there comes as log messages (worker.ts). A listener on them would keep
		// the process alive whatever unref says.
	}

	/** A worker thread holding a new instance of module; rejects when there can be none. */
	static async start(file: URL, module: WebAssembly.Module, log: (level: LogLevel, message: string) => void): Promise<InWorker> {
		// --no-warnings: Node's notice that WASI (which Extism imports) is experimental is
		// no diagnostic of ours.
		const w = new InWorker(new Worker(file, { stdout: true, stderr: true, execArgv: ["--no-warnings"] }), log);
		const m = await w.#ask({ t: "start", module });
		if (m.t !== "started") {
			w.drop();
			throw m.t === "failed" || m.t === "trapped" ? m.error : new Error(`pi-memory's worker thread answered ${m.t}`);
		}
		return w;
	}

	#ask(m: ToWorker, transfer: ArrayBuffer[] = []): Promise<FromWorker> {
		if (this.#gone !== undefined) return Promise.resolve({ t: "trapped", panic: "", error: this.#gone });
		return new Promise((resolve) => {
			this.#waiting.push((answer) => {
				if (this.#waiting.length === 0) this.#worker.unref();
				resolve(answer);
			});
			this.#worker.ref();
			this.#worker.postMessage(m, transfer);
		});
	}

	async call(exportName: string, input: Uint8Array): Promise<Raw> {
		const m = await this.#ask({ t: "call", exportName, input }, [input.buffer as ArrayBuffer]);
		if (m.t === "done") {
			this.#memoryBytes = m.memoryBytes;
			return m.raw;
		}
		throw new Trapped(m.t === "trapped" ? m.panic : "", m.t === "trapped" || m.t === "failed" ? m.error : new Error(`pi-memory's worker thread answered ${m.t}`));
	}

	memoryBytes(): number {
		return this.#memoryBytes;
	}

	drop(): void {
		// The thread releases the instance's locks, then ends.
		void this.#ask({ t: "drop" }).finally(() => void this.#worker.terminate());
	}
}

/**
 * A call's input as JSON. An entry of pi's branch (or a message of the context) nested
 * deeper than V8's stack allows (about 5,000 levels: another extension's custom data)
 * cannot be written whole, and one such entry once made every session that resumed it
 * run without memory (h-v95 a1): it goes as the fields of its own that are not objects
 * (its type, id, parent, time), with `tooDeep: true`, and the rest as they are.
 */
export function inputJSON(input: unknown): string {
	try {
		return JSON.stringify(input);
	} catch (err) {
		if (!(err instanceof RangeError) || typeof input !== "object" || input === null || Array.isArray(input)) throw err;
		const parts: string[] = [];
		for (const [key, value] of Object.entries(input)) {
			if (value === undefined || typeof value === "function") continue;
			let v: string;
			try {
				v = JSON.stringify(value);
			} catch (e) {
				if (!(e instanceof RangeError) || !Array.isArray(value)) throw e;
				v = `[${value.map(entryJSON).join(",")}]`;
			}
			parts.push(`${JSON.stringify(key)}:${v}`);
		}
		return `{${parts.join(",")}}`;
	}
}

function entryJSON(entry: unknown): string {
	try {
		return JSON.stringify(entry) ?? "null";
	} catch (err) {
		if (!(err instanceof RangeError) || typeof entry !== "object" || entry === null) throw err;
		const flat: Record<string, unknown> = { tooDeep: true };
		for (const [k, v] of Object.entries(entry)) if (v === null || typeof v !== "object") flat[k] = v;
		return JSON.stringify(flat);
	}
}

/** Freezes a parsed envelope and everything in it, so a cached one cannot be changed by a reader. */
function deepFreeze<T>(value: T): T {
	if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
		for (const v of Object.values(value)) deepFreeze(v);
		Object.freeze(value);
	}
	return value;
}

function parseEnvelope(exportName: string, text: string): Envelope {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (err) {
		throw new CoreTrap(exportName, "", new Error(`returned an envelope that is not JSON: ${text.slice(0, 200)}`, { cause: err }));
	}
	if (typeof value !== "object" || value === null || !("v" in value) || value.v !== 1 || !("effects" in value) || !Array.isArray(value.effects)) {
		throw new CoreTrap(exportName, "", new Error(`returned an envelope of an unknown shape: ${text.slice(0, 200)}`));
	}
	const exit = "exit" in value && typeof value.exit === "number" ? value.exit : 0;
	return { v: 1, effects: value.effects as Effect[], exit };
}

/** How a Core is built: the host's options, and where the current branch comes from. */
export interface CoreOptions extends HostOptions {
	/**
	 * The session's branch as it is now, for the session_start replayed after a trap:
	 * what the session entries written since then say (a mode) comes back with it.
	 */
	branch?: () => unknown;
	/**
	 * Where the worker thread's script is (dist/worker.js beside this file, which
	 * `make` builds from worker.ts), or false to keep the instance on this thread. A
	 * Core whose clock or randomness is given stays here too: they cannot cross.
	 */
	worker?: URL | string | false;
	/**
	 * The size of the module's linear memory past which the instance is replaced
	 * between turns by a new one, the session replayed there (2 GiB unless given), once
	 * it is also twice what the session took when it started (RECYCLE_BYTES).
	 */
	recycleBytes?: number;
}

// TinyGo's linear memory never shrinks, and a heap that copies pi's growing branch in
// on every hook grows with it: 18 turns of 5 MB took it to 4 GiB, where the module
// traps out of memory (h-v94 a2). Between turns, an instance past this is replaced
// by a new one with the session replayed (decision 001, as after a trap; nothing
// trapped, nothing of a turn is in flight) — once it has also grown to twice what
// the session took when it started: a session that starts at 1.25 GiB (180 MB of
// branch) was replaced at every prompt, each a whole start (2 minutes; h-v96 a1).
const RECYCLE_BYTES = 2 ** 31;

/** The worker thread's script, compiled from worker.ts and core.ts by `make` (ts/tsconfig.worker.json). */
const WORKER_FILE = new URL("./dist/worker.js", import.meta.url);

// The asks among the effects: what the core waits to be resumed for.
function asksOf(env: Envelope): string[] {
	const ids: string[] = [];
	for (const e of env.effects) if (e.t === "http" || e.t === "complete" || e.t === "dialog") ids.push(e.id);
	return ids;
}

// The branch options.branch gives, undefined when there is none or it fails (a stale context).
function currentBranch(branch: (() => unknown) | undefined): unknown {
	try {
		return branch?.();
	} catch {
		return undefined;
	}
}

/**
 * What `restore` says of a call that trapped (decision 001): its export and, for a
 * command, the command as it was sent, so the core can tell whether it was one that
 * switches memory.
 */
function interruptedBy(exportName: string, input: unknown): Record<string, unknown> {
	const what: Record<string, unknown> = { export: exportName };
	if (exportName === "command" && typeof input === "object" && input !== null) {
		const c = input as Record<string, unknown>;
		for (const k of ["name", "args", "argv"]) if (k in c) what[k] = c[k];
	}
	return what;
}

/** The file PIMEM_TRACE names: a line per core call and per move (for diagnosis; unset: none). */
const TRACE = process.env.PIMEM_TRACE || undefined;

/**
 * A session_start input of this many characters or more (a branch of more than a few
 * exchanges) starts the session in a worker thread: on pi's thread a session start
 * costs about 40 ms and then 1-3 ms a kilobyte of branch, the more the denser its
 * secrets (0.5-1 MB: 70-190 ms, h-v56; 58 KB of tokens: 100-120 ms, h-v58).
 */
const START_IN_WORKER = 16 << 10;

/** How long a call waits at most for another's slices to end before it runs where the core is (a safety bound). */
const SLICES_WAIT_MS = 30_000;

/**
 * Core is the running module as the adapter sees it: `call` forwards one export,
 * one call at a time; after a CoreTrap the instance is dropped and `recreate` (or
 * the next call) builds a new one from the compiled module and replays the last
 * session_start, so the core rebuilds its state from the canonical files.
 */
export class Core {
	readonly #module: Promise<WebAssembly.Module>;
	readonly #options: CoreOptions;
	#live: Live | undefined;
	/** The instance is in a worker thread (since a moment between turns after a worker effect). */
	#moved = false;
	/** Why the instance stays on this thread for good, once known (said once in the log). */
	#stays: string | undefined;
	/** This session did not start in a worker thread (said in the log): it stays here until the next session_start. */
	#failed = false;
	/**
	 * An instance being started in a worker thread, for the next moment between turns:
	 * the last session_start asked for one (its worker effect) and none moved yet. Its
	 * session is started there at once (`replayed`: the session_start input it was given).
	 */
	#pending: Promise<{ live: Live; replayed: string } | undefined> | undefined;
	/** A turn has begun since that session_start (before_agent_start) and pi has not settled after it (agent_settled). */
	#turn = false;
	/** close() was called and no session_start since. */
	#closed = false;
	/** The asks returned and not yet resumed. */
	readonly #open = new Set<string>();
	/** Those of them that are slices: an http ask of no request (decision 018). */
	readonly #slices = new Set<string>();
	/** Calls waiting for the slices to end before they move the core to its worker (#waitsForSlices). */
	readonly #waiters: Array<() => void> = [];
	#lastSessionStart: string | undefined;
	/** The module's memory once the session (or its replay) had started: what recycling cannot go below. */
	#started = 0;
	/** The newest state effect's state since that session_start (`restore`). */
	#state: unknown;
	/** The call that trapped, until a replay has handed it to the core. */
	#interrupted: Record<string, unknown> | undefined;
	/** The last large envelope (pm_output) and what it parsed to, frozen. */
	#last: { bytes: Buffer; envelope: Envelope } | undefined;
	/** The messages of the last context_messages effect that carried them, by its id. */
	#block: { id: string; messages: ContextMessage[] } | undefined;
	/** The messages each `same` effect this Core returned stands for. */
	readonly #same = new WeakMap<ContextMessages, ContextMessage[]>();
	#queue: Promise<unknown> = Promise.resolve();

	/** The newest state effect's state since the last session_start (undefined: none yet). */
	get state(): unknown {
		return this.#state;
	}

	/** Starts compiling `file` at once; nothing waits for it until the first call. */
	constructor(file: string | URL, options: CoreOptions = {}) {
		this.#module = compileCore(file);
		this.#options = options;
	}

	/**
	 * Builds the instance in the background (compile, instantiate, `_initialize`), so
	 * the first call runs only the core's own work. A failure here is not reported:
	 * the first call tries again and reports it.
	 */
	prepare(): void {
		this.#serial(async () => {
			if (this.#live === undefined) this.#live = await this.#instantiate();
		}).catch(() => {});
	}

	/** The size of the module's linear memory after the last call (0 with no instance). */
	memoryBytes(): number {
		return this.#live?.memoryBytes() ?? 0;
	}

	/** Where the instance runs: "main" (this thread) or "worker" (after a worker effect). */
	get thread(): "main" | "worker" {
		return this.#moved ? "worker" : "main";
	}

	/**
	 * Forwards `input` (JSON-encoded) to `exportName` and parses the envelope. After a
	 * session_start that asked for a worker thread (its worker effect: a thousand earlier
	 * sessions or more to search, or a large decision log), the instance moves there at the first moment between
	 * turns: a call other than a resume, a completion, a session_start or the shutdown, with no ask open,
	 * before any turn or as the next one begins. What an instance holds then is what a
	 * replay of session_start with the state rebuilds (decision 001), so nothing of the
	 * turn in progress is lost; the searches, and the module's collections, then hold
	 * the worker's thread, not this one (decision 018, addendum).
	 */
	async call(exportName: ExportName, input: unknown): Promise<Envelope> {
		const queued = performance.now();
		for (;;) {
			const got = await this.#serial(async () => {
				// Waiting outside the queue lets the slices' resumes through.
				if (this.#waitsForSlices(exportName) && performance.now() - queued < SLICES_WAIT_MS) return undefined;
				const t0 = TRACE === undefined ? 0 : performance.now();
				this.#trace(`start ${exportName} waited=${(t0 - queued).toFixed(0)}ms`);
				try {
					return await this.#call(exportName, input);
				} finally {
					this.#trace(`end ${exportName} took=${(performance.now() - t0).toFixed(0)}ms`);
				}
			});
			if (got !== undefined) return got;
			this.#trace(`${exportName} waits for the slices`);
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, Math.max(0, SLICES_WAIT_MS - (performance.now() - queued)));
				this.#waiters.push(() => (clearTimeout(timer), resolve()));
			});
		}
	}

	// Whether a call of exportName waits, outside the queue, for the work going on in
	// slices to end: a worker is wanted and this would be a moment between turns but for
	// the asks open, all of them slices (an http ask of no request, answered on the
	// event loop's next turn, which the core resumes at once). Run now, the call would run
	// whole on pi's thread between two slices (on a 3.9 MiB MEMORY.md a forget held it
	// 9-40 s, issue 25); once the slices end it moves the core and runs in the worker. An
	// ask that waits on someone (a dialog, a model, Hindsight) is not waited for.
	#waitsForSlices(exportName: ExportName): boolean {
		if (this.#pending === undefined || this.#live === undefined || this.#open.size === 0) return false;
		for (const id of this.#open) if (!this.#slices.has(id)) return false;
		return this.#between(exportName, true);
	}

	// Wakes the calls waiting for the slices once none is open (or nothing is wanted any more).
	#wake(): void {
		if (this.#waiters.length === 0) return;
		if (this.#pending !== undefined && this.#live !== undefined && this.#open.size > 0 && [...this.#open].every((id) => this.#slices.has(id))) return;
		for (const w of this.#waiters.splice(0)) w();
	}

	// One line of the trace PIMEM_TRACE names (off when unset): the time, what happened,
	// and where the instance is (thread, turn, open asks, a worker pending).
	#trace(what: string): void {
		if (TRACE === undefined) return;
		try {
			fs.appendFileSync(TRACE, `${new Date().toISOString()} ${what} thread=${this.thread} turn=${this.#turn} open=${this.#open.size} pending=${this.#pending !== undefined}\n`);
		} catch {}
	}

	async #call(exportName: ExportName, input: unknown): Promise<Envelope> {
		if (this.#closed && exportName !== "session_start") throw new Error(`pi-memory: ${exportName} after the core was closed`);
		this.#closed = false;
		const text = inputJSON(input ?? {});
		if (exportName === "session_start") {
			this.#lastSessionStart = text;
			this.#state = undefined;
			this.#interrupted = undefined;
			// An ask of the session before is answered no more (the adapter drops them).
			this.#open.clear();
			this.#slices.clear();
			this.#turn = false;
			this.#failed = false;
		}
		if (exportName === "resume" && typeof input === "object" && input !== null && "id" in input) {
			this.#open.delete(String(input.id));
			this.#slices.delete(String(input.id));
		}
		// A session_start of a bulky input (a long branch: about 110 ms a megabyte on
		// pi's thread, issue 25) starts the session in a worker thread, where the core
		// then stays: a /reload or /resume of it too. Not for pi -p, which has no
		// terminal to keep free (the core asks for no worker there either).
		const print = (input as { mode?: unknown } | undefined)?.mode === "print";
		if (exportName === "session_start" && text.length >= START_IN_WORKER && !print && !this.#moved && this.#workerAllowed()) {
			const worker = await this.#startWorker();
			this.#trace(`start in worker=${worker !== undefined}`);
			if (worker !== undefined) {
				this.#unwant();
				this.#drop();
				this.#live = worker;
				this.#moved = true;
			}
		}
		let replayed: Envelope | undefined;
		const memory = this.#live?.memoryBytes() ?? 0;
		if (this.#live !== undefined && this.#pending === undefined && memory >= (this.#options.recycleBytes ?? RECYCLE_BYTES) && memory >= 2 * this.#started && this.#between(exportName)) {
			this.#trace(`recycle memory=${memory} started=${this.#started}`);
			this.#drop();
		}
		if (this.#live === undefined) replayed = await this.#start(exportName !== "session_start");
		else if (this.#pending !== undefined && this.#between(exportName)) await this.#move();
		if (exportName === "before_agent_start") this.#turn = true;
		const env = await this.#invoke(this.#live!, exportName, text, input);
		if (exportName === "session_start" || replayed !== undefined) this.#started = this.#live?.memoryBytes() ?? 0;
		// pi is idle after the run: a command typed now is between turns too.
		if (exportName === "agent_settled") this.#turn = false;
		// A session asks for a worker when it starts, later when it starts again
		// trusted (the answer to the trust dialog: a resume), or when pi is idle
		// after a run and its memory has grown bulky (agent_settled).
		if (env.effects.some((e) => e.t === "worker")) this.#want();
		else if (exportName === "session_start") this.#unwant();
		return replayed === undefined ? env : { ...env, effects: [...replayed.effects, ...env.effects] };
	}

	// Whether a call of exportName comes at a moment between turns: no ask is open (or
	// evenWithAsksOpen), and no turn has begun or this one begins it. A session_start is not one: its own
	// envelope says whether the session wants a worker.
	#between(exportName: ExportName, evenWithAsksOpen = false): boolean {
		if (exportName === "resume" || exportName === "complete" || exportName === "session_start" || exportName === "session_shutdown") return false;
		if (this.#open.size > 0 && !evenWithAsksOpen) return false;
		return !this.#turn || exportName === "before_agent_start";
	}

	// A worker effect: an instance starts in a worker thread now, in the background,
	// unless the instance is there already or cannot be (a host's own clock or
	// randomness cannot cross threads; PIMEM_WORKER=off).
	#want(): void {
		if (this.#moved || this.#failed || !this.#workerAllowed()) return;
		this.#trace("want");
		this.#pending ??= this.#prepareWorker();
	}

	// Whether the instance may live in a worker thread: not when the host's clock or
	// randomness is its own (they cannot cross threads), PIMEM_WORKER=off, or one failed to start.
	#workerAllowed(): boolean {
		const o = this.#options;
		if (this.#stays === undefined && (o.worker === false || o.now !== undefined || o.random !== undefined)) {
			this.#stays = "the host's clock or randomness is its own, or the worker is off";
		}
		return this.#stays === undefined;
	}

	// No move is wanted (a session that needs none, or the end): a worker started for
	// one is ended.
	#unwant(): void {
		const pending = this.#pending;
		this.#pending = undefined;
		void pending?.then((w) => w?.live.drop());
	}

	#workerFile(): URL {
		const w = this.#options.worker;
		return typeof w === "string" ? pathToFileURL(path.resolve(w)) : w instanceof URL ? w : WORKER_FILE;
	}

	// An instance in a new worker thread; undefined, said once in the log, when there
	// can be none (its script missing or failing): the instance then stays here.
	async #startWorker(): Promise<Live | undefined> {
		try {
			return await InWorker.start(this.#workerFile(), await this.#module, this.#options.log ?? (() => {}));
		} catch (err) {
			this.#stays = err instanceof Error ? err.message : String(err);
			this.#options.log?.(2, `the core stays on pi's main thread: no worker thread (${this.#stays})`);
			return undefined;
		}
	}

	// A worker thread's instance for the move, with the session started there at once
	// (session_start replayed with the state as it is now), so that the move between
	// turns does not wait for it: a session_start of 100,000 decisions takes 50–200 ms.
	// Undefined when there can be none (said once in the log).
	async #prepareWorker(): Promise<{ live: Live; replayed: string } | undefined> {
		const live = await this.#startWorker();
		if (live === undefined) return undefined;
		const replayed = inputJSON(this.#replayInput());
		return (await this.#startIn(live, replayed)) ? { live, replayed } : undefined;
	}

	// Starts the session in the worker's instance; false (the worker dropped, said in the
	// log) when it does not start there. That session then stays here; the next one tries again.
	async #startIn(worker: Live, input: string): Promise<boolean> {
		try {
			const raw = await worker.call("session_start", encoder.encode(input));
			const env = parseEnvelope("session_start", raw.text ?? (raw.big === undefined ? "" : utf8Lossy.decode(raw.big)));
			const failure = env.effects.find((e) => e.t === "notify" && e.level === "error");
			if (failure !== undefined) throw new Error(failure.t === "notify" ? failure.text : "");
			return true;
		} catch (err) {
			worker.drop();
			this.#failed = true;
			this.#options.log?.(2, `the core stays on pi's main thread for this session: it did not start in the worker thread (${err instanceof Error ? err.message : String(err)})`);
			return false;
		}
	}

	// Moves the instance to the worker thread, whose session started with the state of
	// then (as after a trap; nothing trapped). When the state, the branch or the session
	// changed since, session_start is replayed there again with today's. Then this
	// thread's instance is dropped. The replay's effects are the session's footer and
	// tools as they are, so none is applied. A worker that cannot start or replay leaves
	// the instance here.
	async #move(): Promise<void> {
		const t0 = TRACE === undefined ? 0 : performance.now();
		const worker = await this.#pending;
		this.#pending = undefined;
		this.#trace(`move waited=${(performance.now() - t0).toFixed(0)}ms worker=${worker !== undefined}`);
		if (worker === undefined) return;
		const input = inputJSON(this.#replayInput());
		if (input !== worker.replayed && !(await this.#startIn(worker.live, input))) return;
		this.#drop();
		this.#live = worker.live;
		this.#moved = true;
	}

	/**
	 * The messages of a context_messages effect this Core returned: its own, or for
	 * `same`, those of the earlier effect it names. The core sends a block once and
	 * then names it while it is unchanged (decision 001, second addendum of 2026-11-24); the
	 * call that returned the effect has checked that this Core holds it.
	 */
	contextMessages(effect: ContextMessages): ContextMessage[] {
		const messages = effect.messages ?? this.#same.get(effect);
		if (messages === undefined) throw new Error(`pi-memory: context_messages names block ${effect.same} that this Core did not return`);
		return messages;
	}

	/**
	 * Drops the current instance (releasing its locks), builds a new one and replays
	 * the last session_start. Returns what the replay sets for the host to apply (the
	 * footer, the active tools), if there was a session to replay.
	 */
	recreate(): Promise<Envelope | undefined> {
		return this.#serial(async () => {
			this.#drop();
			return this.#closed ? undefined : this.#start(true);
		});
	}

	/**
	 * Releases the instance and its locks. Until the next session_start, a call fails
	 * and recreate builds nothing: the session is over.
	 */
	close(): Promise<void> {
		return this.#serial(async () => {
			this.#closed = true;
			this.#unwant();
			this.#drop();
		});
	}

	#serial<T>(work: () => Promise<T>): Promise<T> {
		const next = this.#queue.then(work);
		this.#queue = next.catch(() => {}).then(() => this.#wake());
		return next;
	}

	// A new instance where this Core's lives: on this thread, or (once moved) in a
	// new worker thread.
	async #instantiate(): Promise<Live> {
		const module = await this.#module;
		if (this.#moved) {
			const worker = await this.#startWorker();
			if (worker !== undefined) return worker;
			this.#moved = false;
		}
		return here(await instantiate(module, this.#options));
	}

	// A first instance, or a new one after a trap, replaying session_start when asked.
	async #start(replay: boolean): Promise<Envelope | undefined> {
		const live = await this.#instantiate();
		this.#live = live;
		return replay ? this.#replay(live) : undefined;
	}

	// Replays the last session_start on a new instance (decision 001, "restore"): the
	// session's own input with the current branch (what the session entries written
	// since say), the newest state and the call that trapped, if one did. Returns what
	// the replay sets: its status and tools effects; the notices of a session start
	// were shown when the session began.
	async #replay(live: Live): Promise<Envelope | undefined> {
		if (this.#lastSessionStart === undefined) return undefined;
		const input = this.#replayInput();
		this.#interrupted = undefined;
		const env = await this.#invoke(live, "session_start", inputJSON(input), input);
		// What the replay asks (a trust dialog) is not shown, so nothing answers it.
		for (const id of asksOf(env)) {
			this.#open.delete(id);
			this.#slices.delete(id);
		}
		return { ...env, effects: env.effects.filter((e) => e.t === "status" || e.t === "tools") };
	}

	// The last session_start's input for a new instance: with the current branch (what
	// the session entries written since say), the newest state and the call that
	// trapped, if one did.
	#replayInput(): Record<string, unknown> {
		const input = JSON.parse(this.#lastSessionStart ?? "{}") as Record<string, unknown>;
		const branch = currentBranch(this.#options.branch);
		if (branch !== undefined) input.branch = branch;
		const restore: Record<string, unknown> = {};
		if (this.#state !== undefined) restore.state = this.#state;
		if (this.#interrupted !== undefined) restore.interrupted = this.#interrupted;
		if (Object.keys(restore).length > 0) input.restore = restore;
		return input;
	}

	async #invoke(live: Live, exportName: ExportName, text: string, given: unknown): Promise<Envelope> {
		let raw: Raw;
		try {
			// The core reads a small input through Extism and a large one through
			// pm_input, and answers the same way: both channels carry the call.
			raw = await live.call(exportName, encoder.encode(text));
		} catch (err) {
			this.#drop();
			this.#interrupted = interruptedBy(exportName, given);
			throw err instanceof Trapped ? new CoreTrap(exportName, err.panic, err.cause) : new CoreTrap(exportName, "", err);
		}
		const big = raw.big;
		let out = raw.text;
		if (big !== undefined) {
			// The same large envelope as the last call's (a retry or tool-loop step of one
			// message, whose recalled block is the same bytes) is the same frozen Envelope:
			// decoding and parsing it again cost more than the core's whole call. The
			// observations block no longer repeats here: the core names it (`same`).
			const last = this.#last;
			if (last !== undefined && last.bytes.equals(big)) return this.#blocks(exportName, last.envelope);
			out = utf8Lossy.decode(big);
		}
		if (out === undefined) {
			this.#drop();
			this.#interrupted = interruptedBy(exportName, given);
			throw new CoreTrap(exportName, "", new Error("returned no envelope"));
		}
		let env: Envelope;
		try {
			env = parseEnvelope(exportName, out);
		} catch (err) {
			this.#drop();
			this.#interrupted = interruptedBy(exportName, given);
			throw err;
		}
		this.#last = big === undefined ? undefined : { bytes: Buffer.from(big.buffer, big.byteOffset, big.byteLength), envelope: deepFreeze(env) };
		return this.#blocks(exportName, env);
	}

	// Keeps the newest block a context_messages effect carries and notes what each
	// `same` names. A name this instance did not send means the two sides disagree on
	// what pi was given: the instance is dropped like one that broke the contract, and
	// the restarted core sends its block again.
	#blocks(exportName: string, env: Envelope): Envelope {
		for (const id of asksOf(env)) this.#open.add(id);
		for (const e of env.effects) if (e.t === "http" && Array.isArray(e.requests) && e.requests.length === 0) this.#slices.add(e.id);
		for (const e of env.effects) {
			if (e.t === "state") this.#state = e.state;
			if (e.t !== "context_messages") continue;
			if (e.messages !== undefined) {
				if (e.id !== undefined) this.#block = { id: e.id, messages: e.messages };
			} else if (e.same !== undefined && this.#block?.id === e.same) {
				this.#same.set(e, this.#block.messages);
			} else {
				this.#drop();
				this.#interrupted = { export: exportName };
				throw new CoreTrap(exportName, "", new Error(`named context block ${JSON.stringify(e.same)}, which it has not sent to this host`));
			}
		}
		return env;
	}

	#drop(): void {
		this.#trace("drop");
		const live = this.#live;
		this.#live = undefined;
		this.#last = undefined;
		this.#block = undefined;
		this.#open.clear();
		this.#slices.clear();
		live?.drop();
	}
}

/**
 * Whether a symbolic link leads to a folder. One that cannot be followed (a loop:
 * ELOOP, a target it may not read) is listed as a file, as the Go host lists it, and
 * whoever reads it is told it is unreadable: it never makes the whole folder's
 * listing fail (h-v93 a2: one loop hid every earlier session from memory_search).
 */
export function linksToFolder(p: string): boolean {
	try {
		return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
	} catch {
		return false;
	}
}

/**
 * A folder's entry as pm_fs_list sends it, one line (the Go host's fsys.Entry):
 * the name, or, for a name that cannot travel as a line (it holds a newline,
 * or is not UTF-8: Node read it with U+FFFD in place of its bytes, and no
 * file has that name), "/" and the name as a JSON string. No name starts
 * with "/", so the core can name it and never takes it for a file to open.
 */
export function listEntry(dir: string, name: string): string {
	const lossy = name.includes("\uFFFD") && fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false }) === undefined;
	return name.includes("\n") || lossy ? `/${JSON.stringify(name)}` : name;
}
