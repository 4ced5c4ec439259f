// End-to-end harness: runs the real pi CLI with an extension loaded against a
// fake OpenAI-compatible model server on 127.0.0.1, and records what pi sent
// to the model and what landed on disk. Only erasable TypeScript, so Node 22
// runs it without a build step (`node --test 'ts/e2e/*.test.ts'`).
//
// Everything a test starts (servers, pi processes, temp folders) is owned by
// the test: close() ends its own child by PID, cleanup() removes its own
// folders. PIMEM_E2E_KEEP=1 keeps the sandboxes for debugging.

import { spawn, execFileSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BUILDS, assertCurrent } from "../test/builds.ts";

// ---------------------------------------------------------------------------
// Locations

/** The repository's extension entry (ts/index.ts). */
export const EXTENSION = fileURLToPath(new URL("../index.ts", import.meta.url));

/**
 * The extension a run loads: `ext`, else ours, whose ts/core.wasm must then be built
 * and current (a stale one would put old rules under test; `make test-e2e` rebuilds it).
 */
function extensionOf(ext: string | undefined): string {
	if (ext !== undefined) return ext;
	assertCurrent(BUILDS[0].file);
	return EXTENSION;
}

/** The repository root. */
export const REPO = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The pi launcher: $PI_BIN, else the one build/pi.sh puts in the cache
 * ($PIMEM_CACHE or ~/.cache/pi-memory, then pi-1.6.0/pi).
 */
export function piBin(): string {
	if (process.env.PI_BIN) return process.env.PI_BIN;
	const cache = process.env.PIMEM_CACHE ?? path.join(os.homedir(), ".cache", "pi-memory");
	const bin = path.join(cache, "pi-1.6.0", "pi");
	if (!fs.existsSync(bin)) {
		throw new Error(`pi launcher not found at ${bin}; run build/pi.sh (or set PI_BIN)`);
	}
	return bin;
}

/** Generous, bounded default timeouts. No test asserts on speed. */
export const TIMEOUT = {
	print: 60_000,
	rpcStart: 30_000,
	wait: 30_000,
	close: 10_000,
};

const KEEP = process.env.PIMEM_E2E_KEEP === "1";

// Every child we start, so a crashing test run still ends them (by PID).
const children = new Set<ChildProcess>();
process.on("exit", () => {
	for (const c of children) {
		if (c.exitCode === null && c.signalCode === null && c.pid !== undefined) {
			try {
				process.kill(c.pid, "SIGKILL");
			} catch {
				// already gone
			}
		}
	}
});

// ---------------------------------------------------------------------------
// The fake model

/** One request pi sent to the fake server. */
export interface RecordedRequest {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	/** The parsed JSON body (null when it did not parse). */
	body: ChatRequest | null;
	raw: string;
	/** What the server answered: a text reply, a tool call or a failure status. */
	answered: { text: string } | { tool: string } | { status: number };
	/** When it arrived (Date.now()). */
	at: number;
}

/** The parts of an OpenAI chat-completions request the tests look at. */
export interface ChatRequest {
	model?: string;
	stream?: boolean;
	messages?: ChatMessage[];
	[key: string]: unknown;
}

export interface ChatMessage {
	role: string;
	content?: string | Array<{ type: string; text?: string }> | null;
	[key: string]: unknown;
}

/** A call of one of pi's tools, as the model would ask for it. */
export interface ToolCallReply {
	tool: string;
	args: Record<string, unknown>;
}

/** Several tool calls in one assistant message (pi runs them in parallel). */
export interface ToolCallsReply {
	tools: ToolCallReply[];
}

/** A scripted reply: text (`finish: "length"`: cut off at the output limit), a tool call, several, or a failure (HTTP status with an error body). */
export type Reply = string | { text: string; finish?: "stop" | "length" } | ToolCallReply | ToolCallsReply | { status: number; message?: string };

/** A reply sent only after delayMs. */
export interface Delayed {
	delayMs: number;
	reply: Reply;
}

export interface FakeModel {
	/** http://127.0.0.1:PORT/v1, the baseUrl for models.json. */
	baseUrl: string;
	/** Every request received, in order. */
	requests: RecordedRequest[];
	/** Text used when the queue is empty. */
	defaultReply: string;
	/** Queue replies for the next requests, in order. */
	enqueue(...replies: Reply[]): void;
	/** Make the next n requests fail with status (default 500). */
	failNext(n?: number, status?: number): void;
	/**
	 * Answers a request before the queue does: a reply (or a delayed one) takes it,
	 * undefined leaves it to the queue. Observational-memory tests route the observer's
	 * and the reflector's requests here (isMemoryModelRequest), so the actor's queue
	 * is not consumed by them.
	 */
	route: ((body: ChatRequest | null) => Reply | Delayed | undefined) | undefined;
	/**
	 * The prompt_tokens the usage chunk reports for a request; undefined: its size / 4.
	 * pi's auto-compaction reads this usage, so it decides when the threshold is crossed.
	 */
	promptTokens: ((body: ChatRequest | null) => number | undefined) | undefined;
	/** Chat requests only (POST /v1/chat/completions with a parsed body). */
	chats(): RecordedRequest[];
	close(): Promise<void>;
}

/** The names of the tools a request declared to the model. */
export function toolsOf(req: RecordedRequest | undefined): string[] {
	const tools = (req?.body?.tools ?? []) as Array<{ function?: { name?: string } }>;
	return tools.map((t) => t.function?.name ?? "");
}

/** The text of a message's content (string or array of text parts). */
export function contentText(m: ChatMessage | undefined): string {
	if (!m || m.content == null) return "";
	if (typeof m.content === "string") return m.content;
	return m.content.map((p) => (typeof p.text === "string" ? p.text : "")).join("");
}

/**
 * The system prompt of a request: the first message with role "system"
 * (or "developer", which pi uses for reasoning models). "" when absent.
 */
export function systemPromptOf(req: RecordedRequest | undefined): string {
	const msgs = req?.body?.messages ?? [];
	const m = msgs.find((x) => x.role === "system" || x.role === "developer");
	return contentText(m);
}

/**
 * What extensions appended to pi's system prompt: the text after pi's own
 * closing "</cwd>" (pi 1.5.x ends its prompt with the working folder).
 */
export function appendedPrompt(systemPrompt: string): string {
	const i = systemPrompt.lastIndexOf("</cwd>");
	return i < 0 ? systemPrompt : systemPrompt.slice(i + "</cwd>".length);
}

/** All user-message texts of a request, joined by "\n". */
export function userTextOf(req: RecordedRequest | undefined): string {
	const msgs = req?.body?.messages ?? [];
	return msgs
		.filter((x) => x.role === "user")
		.map(contentText)
		.join("\n");
}

/**
 * Whether a request is pi-memory's observer or reflector (their system prompts open
 * with these words, wasm/observe/prompts.go) rather than the agent's own turn.
 */
export function isMemoryModelRequest(body: ChatRequest | null): boolean {
	const system = systemPromptOf({ body } as RecordedRequest);
	return system.startsWith("You are the observer of a coding agent's memory") || system.startsWith("You are the reflector of a coding agent's memory");
}

/** The last chat request whose user messages contain needle. */
export function requestWithUser(model: FakeModel, needle: string): RecordedRequest | undefined {
	const all = model.chats().filter((r) => userTextOf(r).includes(needle));
	return all[all.length - 1];
}

function sse(res: http.ServerResponse, obj: unknown): void {
	res.write(`data: ${JSON.stringify(obj)}\n\n`);
}

/**
 * Start the fake model on 127.0.0.1:0. POST /v1/chat/completions answers
 * with streaming SSE (role delta, content deltas, finish_reason, a usage
 * chunk, [DONE]) or plain JSON when stream is false; every request body is
 * recorded. Replies come from the queue, else defaultReply.
 */
export async function startFakeModel(opts: { defaultReply?: string } = {}): Promise<FakeModel> {
	const queue: Reply[] = [];
	const requests: RecordedRequest[] = [];
	let seq = 0;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => {
			const at = Date.now();
			const raw = Buffer.concat(chunks).toString("utf8");
			let body: ChatRequest | null = null;
			try {
				body = raw ? (JSON.parse(raw) as ChatRequest) : null;
			} catch {
				body = null;
			}
			const isChat = req.method === "POST" && (req.url ?? "").split("?")[0]!.endsWith("/chat/completions");
			if (!isChat) {
				requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, raw, answered: { status: 404 }, at });
				res.writeHead(404, { "content-type": "application/json" });
				res.end(JSON.stringify({ error: { message: `fake model: no route ${req.method} ${req.url}`, type: "not_found" } }));
				return;
			}
			const routed = model.route?.(body);
			const picked: Reply | Delayed = routed ?? (queue.length > 0 ? (queue.shift() as Reply) : model.defaultReply);
			if (typeof picked === "object" && "delayMs" in picked) {
				setTimeout(() => {
					if (!res.destroyed) answer(picked.reply);
				}, picked.delayMs);
			} else {
				answer(picked);
			}
			function answer(next: Reply): void {
				if (typeof next === "object" && "status" in next) {
					requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, raw, answered: { status: next.status }, at });
					res.writeHead(next.status, { "content-type": "application/json" });
					res.end(JSON.stringify({ error: { message: next.message ?? "fake model: scripted failure", type: "server_error" } }));
					return;
				}
				const id = `chatcmpl-fake-${++seq}`;
				const created = Math.floor(Date.now() / 1000);
				if (typeof next === "object" && ("tool" in next || "tools" in next)) {
					const each = "tools" in next ? next.tools : [next];
					requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, raw, answered: { tool: each.map((c) => c.tool).join(",") }, at });
					const calls = each.map((c, i) => ({ id: `call_fake_${seq}_${i}`, type: "function", function: { name: c.tool, arguments: JSON.stringify(c.args) } }));
					const promptTokens = model.promptTokens?.(body) ?? Math.ceil(raw.length / 4);
					const usage = { prompt_tokens: promptTokens, completion_tokens: 20, total_tokens: promptTokens + 20 };
					if (body?.stream === false) {
						res.writeHead(200, { "content-type": "application/json" });
						res.end(JSON.stringify({ id, object: "chat.completion", created, model: body?.model ?? "fake-model", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: calls }, finish_reason: "tool_calls" }], usage }));
						return;
					}
					res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
					const base = { id, object: "chat.completion.chunk", created, model: body?.model ?? "fake-model" };
					sse(res, { ...base, choices: [{ index: 0, delta: { role: "assistant", content: null, tool_calls: calls.map((c, i) => ({ index: i, ...c })) }, finish_reason: null }] });
					sse(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
					sse(res, { ...base, choices: [], usage });
					res.write("data: [DONE]\n\n");
					res.end();
					return;
				}
				const text = typeof next === "string" ? next : next.text;
				const finish = typeof next === "string" ? "stop" : (next.finish ?? "stop");
				requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, raw, answered: { text }, at });
				const promptTokens = model.promptTokens?.(body) ?? Math.ceil(raw.length / 4);
				const completionTokens = Math.max(1, Math.ceil(text.length / 4));
				const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
				if (body?.stream === false) {
					res.writeHead(200, { "content-type": "application/json" });
					res.end(
						JSON.stringify({
							id,
							object: "chat.completion",
							created,
							model: body?.model ?? "fake-model",
							choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: finish }],
							usage,
						}),
					);
					return;
				}
				res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
				const base = { id, object: "chat.completion.chunk", created, model: body?.model ?? "fake-model" };
				sse(res, { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
				// A few deltas, so pi exercises its streaming path.
				const parts = text.match(/[\s\S]{1,16}/g) ?? [];
				for (const p of parts) sse(res, { ...base, choices: [{ index: 0, delta: { content: p }, finish_reason: null }] });
				sse(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
				sse(res, { ...base, choices: [], usage });
				res.write("data: [DONE]\n\n");
				res.end();
			}
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	const model: FakeModel = {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		defaultReply: opts.defaultReply ?? "OK from the fake model.",
		enqueue(...replies: Reply[]) {
			queue.push(...replies);
		},
		failNext(n = 1, status = 500) {
			for (let i = 0; i < n; i++) queue.push({ status });
		},
		route: undefined,
		promptTokens: undefined,
		chats() {
			return requests.filter((r) => r.body !== null && r.url.split("?")[0]!.endsWith("/chat/completions"));
		},
		close() {
			return new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			});
		},
	};
	return model;
}

// ---------------------------------------------------------------------------
// The sandbox

export interface SandboxOptions {
	/**
	 * defaultProjectTrust in the agent settings (default "always"). pi only
	 * consults it when the project holds a protected resource (.pi/settings.json,
	 * .pi/extensions, …): without one, ctx.isProjectTrusted() is true whatever
	 * this says. Use untrusted, or run with args ["--no-approve"].
	 */
	trust?: "always" | "never" | "ask";
	/** An untrusted project: trust "never" plus a protected .pi/settings.json ("{}"). */
	untrusted?: boolean;
	/** git init the project folder (default false). */
	git?: boolean;
	/** Extra agent settings, merged over the defaults. */
	settings?: Record<string, unknown>;
}

export interface Sandbox {
	root: string;
	home: string;
	agentDir: string;
	project: string;
	model: FakeModel;
	/** The environment pi runs with (nothing inherited but PATH and locale). */
	env: Record<string, string>;
	/** Write a file under the project (folders created). */
	writeProject(rel: string, text: string): string;
	/** Remove the folders (kept when PIMEM_E2E_KEEP=1). */
	cleanup(): void;
}

/**
 * A temp HOME, a temp agent dir (models.json pointing at model, settings.json
 * with defaultProjectTrust), and a temp project folder (git-initialised on
 * request). Pi runs offline with retries off, so a model failure is final.
 */
export function makeSandbox(model: FakeModel, opts: SandboxOptions = {}): Sandbox {
	// realpath: /tmp may be a symlink; pi and the core see canonical paths.
	const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pimem-e2e-")));
	const home = path.join(root, "home");
	const agentDir = path.join(root, "agent");
	const project = path.join(root, "project");
	for (const d of [home, agentDir, project]) fs.mkdirSync(d, { recursive: true });
	const models = {
		providers: {
			fake: {
				baseUrl: model.baseUrl,
				api: "openai-completions",
				apiKey: "dummy",
				models: [{ id: "fake-model", name: "Fake model", contextWindow: 32000, maxTokens: 1024 }],
			},
		},
	};
	fs.writeFileSync(path.join(agentDir, "models.json"), JSON.stringify(models, null, 2));
	const settings = {
		defaultProjectTrust: opts.untrusted ? "never" : (opts.trust ?? "always"),
		retry: { enabled: false },
		quietStartup: true,
		...(opts.settings ?? {}),
	};
	fs.writeFileSync(path.join(agentDir, "settings.json"), JSON.stringify(settings, null, 2));
	// pi creates these on its first run in an agent dir; made here so that a
	// before/after snapshot of the sandbox shows only what the extension wrote.
	for (const f of ["auth.json", "models-store.json"]) fs.writeFileSync(path.join(agentDir, f), "{}", { mode: 0o600 });
	if (opts.untrusted) {
		fs.mkdirSync(path.join(project, ".pi"), { recursive: true });
		fs.writeFileSync(path.join(project, ".pi", "settings.json"), "{}\n");
	}
	if (opts.git) {
		execFileSync("git", ["init", "-q", project], { env: { PATH: process.env.PATH ?? "", HOME: home } });
	}
	const env: Record<string, string> = {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		HOME: home,
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		PI_SKIP_VERSION_CHECK: "1",
		PI_TELEMETRY: "0",
		TMPDIR: os.tmpdir(),
		LANG: process.env.LANG ?? "C.UTF-8",
		NO_COLOR: "1",
	};
	return {
		root,
		home,
		agentDir,
		project,
		model,
		env,
		writeProject(rel: string, text: string) {
			const p = path.join(project, rel);
			fs.mkdirSync(path.dirname(p), { recursive: true });
			fs.writeFileSync(p, text);
			return p;
		},
		cleanup() {
			if (KEEP) {
				process.stderr.write(`[e2e] kept sandbox ${root}\n`);
				return;
			}
			fs.rmSync(root, { recursive: true, force: true });
		},
	};
}

// ---------------------------------------------------------------------------
// Print mode

export interface RunOptions {
	/** Extension to load with -e (default ts/index.ts); null: no -e, only what pi has installed. */
	ext?: string | null;
	/** Extra CLI arguments, after the standard ones. */
	args?: string[];
	/** The end of runPrint's command line instead of `-p PROMPT` (the order a person typed). */
	tail?: string[];
	/** Extra environment. */
	env?: Record<string, string>;
	/** Working folder (default the sandbox project). */
	cwd?: string;
	timeoutMs?: number;
}

export interface PrintResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	/** Chat requests the fake model received during this run. */
	requests: RecordedRequest[];
	/** System prompt of the last chat request of this run ("" when none). */
	systemPrompt: string;
}

/**
 * One turn in print mode: `pi -e EXT --model fake/fake-model --no-session -p PROMPT`
 * in the sandbox. Never rejects on a non-zero exit; rejects on timeout (after
 * killing the child).
 */
export async function runPrint(sb: Sandbox, prompt: string, opts: RunOptions = {}): Promise<PrintResult> {
	const before = sb.model.requests.length;
	const ext = opts.ext === null ? [] : ["-e", extensionOf(opts.ext)];
	const args = [...ext, "--model", "fake/fake-model", "--no-session", ...(opts.args ?? []), ...(opts.tail ?? ["-p", prompt])];
	const child = spawn(piBin(), args, {
		cwd: opts.cwd ?? sb.project,
		env: { ...sb.env, ...(opts.env ?? {}) },
		stdio: ["ignore", "pipe", "pipe"],
	});
	children.add(child);
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
	child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
	const timeoutMs = opts.timeoutMs ?? TIMEOUT.print;
	try {
		const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
			const timer = setTimeout(() => {
				killChild(child);
				reject(new Error(`pi -p timed out after ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
			}, timeoutMs);
			child.once("error", (err) => {
				clearTimeout(timer);
				reject(err);
			});
			child.once("close", (c, s) => {
				clearTimeout(timer);
				resolve({ code: c, signal: s });
			});
		});
		const requests = sb.model.requests.slice(before).filter((r) => r.body !== null);
		return { code, signal, stdout, stderr, requests, systemPrompt: systemPromptOf(requests[requests.length - 1]) };
	} finally {
		children.delete(child);
	}
}

/**
 * A pi command that starts no session (`pi install DIR`, `pi list`), run to its
 * end in the sandbox's environment plus env. Never rejects on a non-zero exit.
 */
export async function runPiCommand(sb: Sandbox, args: string[], opts: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
	const child = spawn(piBin(), args, { cwd: sb.root, env: { ...sb.env, ...(opts.env ?? {}) }, stdio: ["ignore", "pipe", "pipe"] });
	children.add(child);
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
	child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
	const timeoutMs = opts.timeoutMs ?? TIMEOUT.print;
	try {
		const code = await new Promise<number | null>((resolve, reject) => {
			const timer = setTimeout(() => {
				killChild(child);
				reject(new Error(`pi ${args.join(" ")} timed out after ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
			}, timeoutMs);
			child.once("error", (err) => {
				clearTimeout(timer);
				reject(err);
			});
			child.once("close", (c) => {
				clearTimeout(timer);
				resolve(c);
			});
		});
		return { code, stdout, stderr };
	} finally {
		children.delete(child);
	}
}

function killChild(child: ChildProcess): void {
	if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
		try {
			process.kill(child.pid, "SIGKILL");
		} catch {
			// already gone
		}
	}
}

// ---------------------------------------------------------------------------
// RPC mode

/** Any JSON record pi printed on stdout. */
export type RpcRecord = { type: string; [key: string]: unknown };

/** An extension_ui_request for a dialog (select, confirm, input, editor). */
export interface UiRequest {
	type: "extension_ui_request";
	id: string;
	method: string;
	title?: string;
	message?: string;
	options?: string[];
	placeholder?: string;
	notifyType?: string;
	timeout?: number;
	[key: string]: unknown;
}

export const DIALOG_METHODS = new Set(["select", "confirm", "input", "editor"]);

export interface RpcOptions extends RunOptions {
	/** Keep pi's session files (default: --no-session). */
	session?: boolean;
}

export interface CommandResult {
	/** The prompt response (disposition "handled" for an extension command). */
	response: RpcRecord;
	/** What the command showed, in order: notify messages and its output messages. */
	notes: string[];
	/** Every record emitted while the command ran. */
	records: RpcRecord[];
}

export interface PromptResult {
	response: RpcRecord;
	/** Records from the prompt until agent_settled (inclusive). */
	records: RpcRecord[];
	notes: string[];
}

/**
 * A pi process in RPC mode with a JSON-lines client. Records are split on
 * "\n" only (readline would also split on U+2028/U+2029).
 */
export class Rpc {
	readonly child: ChildProcess;
	readonly records: RpcRecord[] = [];
	stderr = "";
	private buf = "";
	private seq = 0;
	private waiters: Array<() => void> = [];
	private exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
	private exitPromise: Promise<void>;

	constructor(child: ChildProcess) {
		this.child = child;
		child.stdout?.setEncoding("utf8").on("data", (d: string) => this.onData(d));
		child.stderr?.setEncoding("utf8").on("data", (d: string) => {
			this.stderr += d;
		});
		child.stdin?.on("error", () => {
			// EPIPE after pi exited: surfaced through exited/timeouts instead
		});
		this.exitPromise = new Promise<void>((resolve) => {
			child.once("close", (code, signal) => {
				this.exited = { code, signal };
				this.wake();
				resolve();
			});
		});
	}

	private onData(d: string): void {
		this.buf += d;
		let nl: number;
		while ((nl = this.buf.indexOf("\n")) >= 0) {
			let line = this.buf.slice(0, nl);
			this.buf = this.buf.slice(nl + 1);
			if (line.endsWith("\r")) line = line.slice(0, -1);
			if (line.trim() === "") continue;
			try {
				this.records.push(JSON.parse(line) as RpcRecord);
			} catch {
				this.records.push({ type: "unparsed_stdout", line });
			}
		}
		this.wake();
	}

	private wake(): void {
		const w = this.waiters;
		this.waiters = [];
		for (const f of w) f();
	}

	/** Exit status once the process has ended, else null. */
	get exit(): { code: number | null; signal: NodeJS.Signals | null } | null {
		return this.exited;
	}

	/** Write one JSON record to pi's stdin. */
	send(obj: Record<string, unknown>): void {
		this.child.stdin?.write(JSON.stringify(obj) + "\n");
	}

	/**
	 * Wait until a record at index >= since matches pred; returns it with its
	 * index. Rejects on timeout or when pi exits first.
	 */
	async waitFor(
		pred: (r: RpcRecord) => boolean,
		opts: { since?: number; timeoutMs?: number; what?: string; cancelled?: () => boolean } = {},
	): Promise<{ record: RpcRecord; index: number }> {
		const since = opts.since ?? 0;
		const timeoutMs = opts.timeoutMs ?? TIMEOUT.wait;
		const deadline = Date.now() + timeoutMs;
		let i = since;
		for (;;) {
			for (; i < this.records.length; i++) {
				const record = this.records[i]!;
				if (pred(record)) return { record, index: i };
			}
			if (opts.cancelled?.()) throw new Error(`stopped waiting for ${opts.what ?? "a record"}`);
			if (this.exited) throw new Error(`pi exited (${JSON.stringify(this.exited)}) while waiting for ${opts.what ?? "a record"}\n${this.describe(since)}`);
			const left = deadline - Date.now();
			if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${opts.what ?? "a record"}\n${this.describe(since)}`);
			await new Promise<void>((resolve) => {
				const t = setTimeout(resolve, left);
				this.waiters.push(() => {
					clearTimeout(t);
					resolve();
				});
			});
		}
	}

	/** Records since index, abbreviated, plus stderr: for failure messages. */
	describe(since = 0): string {
		const recs = this.records
			.slice(since)
			.filter((r) => r.type !== "message_update")
			.map((r) => {
				const s = JSON.stringify(r);
				return s.length > 400 ? s.slice(0, 400) + "…" : s;
			});
		return `records since ${since}:\n${recs.join("\n")}\nstderr:\n${this.stderr.slice(-4000)}`;
	}

	/** Send a command with a fresh id and wait for its response. */
	async request(cmd: Record<string, unknown>, timeoutMs = TIMEOUT.wait): Promise<RpcRecord> {
		const id = `t${++this.seq}`;
		const since = this.records.length;
		this.send({ ...cmd, id });
		const { record } = await this.waitFor((r) => r.type === "response" && r.id === id, { since, timeoutMs, what: `the response to ${String(cmd.type)} ${id}` });
		return record;
	}

	/**
	 * Run a slash command (e.g. "/decision list"). Resolves when pi answers
	 * the prompt, which for an extension command is after its handler finished
	 * (so answer its dialogs while this is pending). Throws if pi did not treat
	 * it as an extension command (disposition other than "handled").
	 */
	async command(text: string, timeoutMs = TIMEOUT.wait): Promise<CommandResult> {
		const since = this.records.length;
		const response = await this.request({ type: "prompt", message: text }, timeoutMs);
		const data = response.data as { disposition?: string } | undefined;
		if (response.success !== true || data?.disposition !== "handled") {
			throw new Error(`"${text}" was not handled as an extension command: ${JSON.stringify(response)}\n${this.describe(since)}`);
		}
		const records = this.records.slice(since);
		return { response, records, notes: notesOf(records) };
	}

	/**
	 * Send a user prompt and wait until pi settles (agent_settled). Dialogs
	 * raised meanwhile must be answered by the caller (or by onDialog).
	 */
	async prompt(text: string, opts: { timeoutMs?: number; onDialog?: (req: UiRequest) => DialogAnswer | undefined } = {}): Promise<PromptResult> {
		const since = this.records.length;
		const timeoutMs = opts.timeoutMs ?? TIMEOUT.wait;
		const stopAnswering = opts.onDialog ? this.answerDialogs(opts.onDialog, since) : () => {};
		try {
			const response = await this.request({ type: "prompt", message: text }, timeoutMs);
			if (response.success !== true) throw new Error(`prompt rejected: ${JSON.stringify(response)}\n${this.describe(since)}`);
			const data = response.data as { disposition?: string } | undefined;
			if (data?.disposition === "started") {
				await this.waitFor((r) => r.type === "agent_settled", { since, timeoutMs, what: "agent_settled" });
			}
			this.throwDialogError();
			const records = this.records.slice(since);
			return { response, records, notes: notesOf(records) };
		} finally {
			stopAnswering();
		}
	}

	/** Dialog requests (select/confirm/input/editor) since index. */
	dialogs(since = 0): UiRequest[] {
		return this.records.slice(since).filter(isDialog) as UiRequest[];
	}

	/** Wait for the next dialog request at index >= since. */
	async waitForDialog(opts: { since?: number; timeoutMs?: number } = {}): Promise<UiRequest> {
		const { record } = await this.waitFor(isDialog, { ...opts, what: "an extension dialog" });
		return record as UiRequest;
	}

	/**
	 * Answer a dialog in the shape rpc-extension-ui.md gives: confirm takes
	 * {confirmed}, select/input/editor take {value}; null or undefined cancels.
	 */
	answer(req: UiRequest, answer: DialogAnswer): void {
		this.send(uiResponse(req, answer));
	}

	/**
	 * Answer every dialog from since on with f (undefined: leave it to the
	 * caller), until the returned stop(). If f throws, the dialog is cancelled
	 * so pi goes on, and the error is kept in dialogError for the caller.
	 */
	answerDialogs(f: (req: UiRequest) => DialogAnswer | undefined, since = this.records.length): () => void {
		let stopped = false;
		let i = since;
		const loop = async () => {
			while (!stopped) {
				let found: { record: RpcRecord; index: number };
				try {
					found = await this.waitFor(isDialog, { since: i, timeoutMs: 3_600_000, what: "a dialog", cancelled: () => stopped });
				} catch {
					return; // stopped, or pi exited
				}
				if (stopped) return;
				i = found.index + 1;
				const req = found.record as UiRequest;
				let a: DialogAnswer | undefined;
				try {
					a = f(req);
				} catch (err) {
					this.dialogError ??= err instanceof Error ? err : new Error(String(err));
					a = null;
				}
				if (a !== undefined) this.answer(req, a);
			}
		};
		void loop();
		return () => {
			stopped = true;
			this.wake();
		};
	}

	/** The first error an automatic dialog answerer raised, if any. */
	dialogError: Error | undefined;

	/**
	 * Run a slash command, answering its dialogs with f meanwhile (see
	 * answerDialogs). Returns the command result and the dialogs it raised.
	 */
	async commandWithDialogs(text: string, f: (req: UiRequest) => DialogAnswer | undefined, timeoutMs = TIMEOUT.wait): Promise<CommandResult & { dialogs: UiRequest[] }> {
		const since = this.records.length;
		const stop = this.answerDialogs(f, since);
		try {
			const r = await this.command(text, timeoutMs);
			this.throwDialogError();
			return { ...r, dialogs: this.dialogs(since) };
		} finally {
			stop();
		}
	}

	private throwDialogError(): void {
		const e = this.dialogError;
		if (e) {
			this.dialogError = undefined;
			throw e;
		}
	}

	/** notify messages since index. */
	notes(since = 0): string[] {
		return notesOf(this.records.slice(since));
	}

	/** Warning and error notify messages since index. */
	problems(since = 0): string[] {
		return this.records
			.slice(since)
			.filter((r) => r.type === "extension_ui_request" && r.method === "notify" && (r.notifyType === "warning" || r.notifyType === "error"))
			.map((r) => String(r.message ?? ""));
	}

	/**
	 * End pi: close stdin (orderly shutdown), then SIGTERM, then SIGKILL,
	 * each by this child's PID only. Resolves once it has exited.
	 */
	async close(timeoutMs = TIMEOUT.close): Promise<void> {
		children.delete(this.child);
		if (this.exited) return;
		this.child.stdin?.end();
		if (await this.exitWithin(timeoutMs)) return;
		if (this.child.pid !== undefined && !this.exited) {
			try {
				process.kill(this.child.pid, "SIGTERM");
			} catch {
				// gone
			}
		}
		if (await this.exitWithin(timeoutMs)) return;
		killChild(this.child);
		await this.exitWithin(timeoutMs);
	}

	private async exitWithin(ms: number): Promise<boolean> {
		if (this.exited) return true;
		let t: NodeJS.Timeout | undefined;
		const timedOut = new Promise<boolean>((resolve) => {
			t = setTimeout(() => resolve(false), ms);
		});
		const r = await Promise.race([this.exitPromise.then(() => true), timedOut]);
		clearTimeout(t);
		return r;
	}
}

/** true/false for confirm, a string for select/input/editor, null to cancel. */
export type DialogAnswer = boolean | string | null;

/** The extension_ui_response record that answers req. */
export function uiResponse(req: UiRequest, answer: DialogAnswer): Record<string, unknown> {
	if (answer === null) return { type: "extension_ui_response", id: req.id, cancelled: true };
	if (req.method === "confirm") {
		const yes = typeof answer === "boolean" ? answer : /^(y|yes|true|ok|confirm)$/i.test(answer);
		return { type: "extension_ui_response", id: req.id, confirmed: yes };
	}
	if (typeof answer === "boolean") {
		// A yes/no given for a select: pick the first option that reads as yes or no.
		const opts = req.options ?? [];
		const re = answer ? /^(yes|y|ok|confirm|accept|save|add|keep|purge|proceed|apply)\b/i : /^(no|n|cancel|skip|discard|reject|don'?t)\b/i;
		const pick = opts.find((o) => re.test(o.trim()));
		if (pick === undefined) throw new Error(`no option of select "${req.title}" reads as ${answer ? "yes" : "no"}: ${JSON.stringify(opts)}`);
		return { type: "extension_ui_response", id: req.id, value: pick };
	}
	return { type: "extension_ui_response", id: req.id, value: answer };
}

function isDialog(r: RpcRecord): boolean {
	return r.type === "extension_ui_request" && DIALOG_METHODS.has(String(r.method));
}

// What a person sees of a command in the order it came: notices (notify) and the
// command's output, which stays in the transcript as a custom message.
function notesOf(records: RpcRecord[]): string[] {
	const notes: string[] = [];
	for (const r of records) {
		if (r.type === "extension_ui_request" && r.method === "notify") notes.push(String(r.message ?? ""));
		const m = outputMessageOf(r);
		if (m !== undefined) notes.push(m);
	}
	return notes;
}

/** The text of a command's output message (customType pi-memory-output) an RPC record ends, if it is one. */
export function outputMessageOf(r: RpcRecord): string | undefined {
	if (r.type !== "message_end") return undefined;
	const m = r.message as { role?: string; customType?: string; content?: unknown } | undefined;
	if (m?.role !== "custom" || m.customType !== "pi-memory-output") return undefined;
	return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
}

/**
 * Start `pi --mode rpc -e EXT --model fake/fake-model [--no-session]` in the
 * sandbox and wait until it answers get_state (so a failed start surfaces
 * here, with pi's stderr).
 */
export async function startRpc(sb: Sandbox, opts: RpcOptions = {}): Promise<Rpc> {
	const args = ["--mode", "rpc", ...(opts.ext === null ? [] : ["-e", extensionOf(opts.ext)]), "--model", "fake/fake-model", ...(opts.session ? [] : ["--no-session"]), ...(opts.args ?? [])];
	const child = spawn(piBin(), args, {
		cwd: opts.cwd ?? sb.project,
		env: { ...sb.env, ...(opts.env ?? {}) },
		stdio: ["pipe", "pipe", "pipe"],
	});
	children.add(child);
	const rpc = new Rpc(child);
	try {
		await new Promise<void>((resolve, reject) => {
			child.once("spawn", () => resolve());
			child.once("error", reject);
		});
		const state = await rpc.request({ type: "get_state" }, opts.timeoutMs ?? TIMEOUT.rpcStart);
		if (state.success !== true) throw new Error(`get_state failed: ${JSON.stringify(state)}`);
	} catch (err) {
		await rpc.close(2_000);
		throw err;
	}
	return rpc;
}

// ---------------------------------------------------------------------------
// Files

/**
 * Every file and folder under dir, as sorted lines: "rel/ dir" for folders,
 * "rel file SIZE SHA256" for files, "rel -> TARGET" for symlinks. [] when dir
 * does not exist. Compare two snapshots to prove "zero writes".
 */
export function snapshotTree(dir: string): string[] {
	const out: string[] = [];
	if (!fs.existsSync(dir)) return out;
	const walk = (abs: string, rel: string) => {
		for (const name of fs.readdirSync(abs).sort()) {
			const a = path.join(abs, name);
			const r = rel ? `${rel}/${name}` : name;
			const st = fs.lstatSync(a);
			if (st.isSymbolicLink()) out.push(`${r} -> ${fs.readlinkSync(a)}`);
			else if (st.isDirectory()) {
				out.push(`${r}/ dir`);
				walk(a, r);
			} else {
				const sha = createHash("sha256").update(fs.readFileSync(a)).digest("hex");
				out.push(`${r} file ${st.size} ${sha}`);
			}
		}
	};
	walk(dir, "");
	return out;
}

/** Lines only in a (removed) and only in b (added): readable in assertions. */
export function diffTrees(a: string[], b: string[]): { removed: string[]; added: string[] } {
	const sa = new Set(a);
	const sb = new Set(b);
	return { removed: a.filter((x) => !sb.has(x)), added: b.filter((x) => !sa.has(x)) };
}

/** The decision log path for a project. */
export function decisionLog(project: string): string {
	return path.join(project, ".pi", "decision-memory", "decisions.jsonl");
}

/** The log's lines ([] when missing). A torn last line is returned as is. */
export function readLines(file: string): string[] {
	if (!fs.existsSync(file)) return [];
	const text = fs.readFileSync(file, "utf8");
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines;
}

/** One decoded event line (the compact on-disk shape of docs/formats.md). */
export interface DecisionEvent {
	v: number;
	t: string;
	p?: string;
	e: string;
	i: string;
	d?: { ti?: string; tx?: string; tg?: string[]; s?: string; r?: string; sp?: string | null; c?: string[]; [k: string]: unknown };
	u?: string;
	[k: string]: unknown;
}

/** Every line of the log parsed; throws naming the line that does not parse. */
export function readEvents(project: string): DecisionEvent[] {
	return readLines(decisionLog(project)).map((l, i) => {
		try {
			return JSON.parse(l) as DecisionEvent;
		} catch {
			throw new Error(`decisions.jsonl line ${i + 1} does not parse: ${l}`);
		}
	});
}

/** One compact event line, for seeding a log. */
export function eventLine(ev: DecisionEvent): string {
	return JSON.stringify(ev);
}

/**
 * The project id stored in events ("p"): the first 16 hex digits of the
 * SHA-1 of the project root, as pi-decision-memory computes it.
 */
export function projectHash(root: string): string {
	return createHash("sha1").update(root).digest("hex").slice(0, 16);
}

/**
 * An add event for seeding a log: decision id made from the event time and
 * n ("D-<day of t>-000n"), the given status (default active).
 */
export function addEvent(project: string, n: number, text: string, opts: { t?: string; status?: string; tags?: string[] } = {}): DecisionEvent {
	const t = opts.t ?? new Date().toISOString();
	return {
		v: 1,
		t,
		p: projectHash(project),
		e: "a",
		i: `D-${t.slice(0, 10)}-${String(n).padStart(4, "0")}`,
		d: { tx: text, tg: opts.tags ?? [], s: opts.status ?? "active", sp: null, c: [] },
		u: "user",
	};
}

/** pi's folder of a project's sessions under agentDir (its getDefaultSessionDir), created. */
export function sessionFolder(agentDir: string, cwd: string): string {
	const folder = path.join(agentDir, "sessions", `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
	fs.mkdirSync(folder, { recursive: true });
	return folder;
}

/**
 * Writes earlier sessions 0 to count of the sandbox's project, a minute apart from
 * 2026-06-01, each a header and one user message: text(i). Returns their folder.
 */
export function seedSessions(sb: Sandbox, count: number, text: (i: number) => string, answer?: (i: number) => string | undefined): string {
	const project = fs.realpathSync(sb.project);
	const folder = sessionFolder(sb.agentDir, project);
	for (let i = 0; i <= count; i++) {
		const at = new Date(Date.UTC(2026, 5, 1) + i * 60_000).toISOString();
		const lines: object[] = [
			{ type: "session", version: 3, id: `s${i}`, timestamp: at, cwd: project },
			{ type: "message", id: "m1", parentId: null, timestamp: at, message: { role: "user", content: text(i) } },
		];
		const said = answer?.(i);
		if (said) lines.push({ type: "message", id: "m2", parentId: "m1", timestamp: at, message: { role: "assistant", content: [{ type: "text", text: said }], timestamp: Date.parse(at) } });
		fs.writeFileSync(path.join(folder, `${at.replace(/[:.]/g, "-")}_s${i}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
	}
	return folder;
}

/** Write a log (folders created) from events and raw lines, "\n"-terminated. */
export function seedLog(project: string, lines: Array<DecisionEvent | string>, opts: { torn?: string } = {}): string {
	const file = decisionLog(project);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	const text = lines.map((l) => (typeof l === "string" ? l : eventLine(l)) + "\n").join("") + (opts.torn ?? "");
	fs.writeFileSync(file, text);
	return file;
}

/**
 * n texts of four made-up words each that share no words, so neither duplicate
 * nor conflict detection has anything to say about them (a dialog would stall a
 * run). Words are pronounceable letters only, so no secret pattern matches them.
 * The same seed gives the same texts.
 */
export function distinctTexts(seed: number, n: number): string[] {
	let x = seed >>> 0;
	const rnd = () => {
		x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
		return x;
	};
	const cons = "bdfgklmnprstvz";
	const vow = "aeiou";
	const word = () => {
		let w = "";
		for (let i = 0; i < 3; i++) w += cons[rnd() % cons.length]! + vow[rnd() % vow.length]!;
		return w;
	};
	const out: string[] = [];
	for (let i = 0; i < n; i++) out.push(`${word()} ${word()} ${word()} ${word()}`);
	return out;
}

/** The id shape D-YYYY-MM-DD-NNNN. */
export const DECISION_ID = /D-\d{4}-\d{2}-\d{2}-\d{4,}/g;

/** The decision ids found in text, in order. */
export function idsIn(text: string): string[] {
	return text.match(DECISION_ID) ?? [];
}

/**
 * The injected decision lines of a system prompt: lines that start with a
 * decision id ("D-… | text | #tags").
 */
export function decisionLines(systemPrompt: string): string[] {
	return systemPrompt.split("\n").filter((l) => /^D-\d{4}-\d{2}-\d{2}-\d{4,} \|/.test(l));
}

/** Run f with a fake model and a sandbox, cleaning both up afterwards. */
export async function withSandbox<T>(opts: SandboxOptions, f: (sb: Sandbox) => Promise<T>): Promise<T> {
	const model = await startFakeModel();
	const sb = makeSandbox(model, opts);
	try {
		return await f(sb);
	} finally {
		sb.cleanup();
		await model.close();
	}
}

/**
 * Poll f until it returns a value other than undefined/false (files written
 * by another process, an event that comes after a dialog). Bounded.
 */
export async function waitUntil<T>(f: () => T | undefined | false, what: string, timeoutMs = TIMEOUT.wait): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const v = f();
		if (v !== undefined && v !== false) return v;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

/** ISO time n days before now. */
export function daysAgo(n: number): string {
	return new Date(Date.now() - n * 86_400_000).toISOString();
}

// ---------------------------------------------------------------------------
// Markdown memory (docs/decisions/005-markdown-memory.md)

/** The project's committed memory index: <project>/.pi/memory/MEMORY.md. */
export function projectMemoryFile(project: string): string {
	return path.join(project, ".pi", "memory", "MEMORY.md");
}

/** The global memory index: <agent dir>/memory/MEMORY.md. */
export function globalMemoryFile(agentDir: string): string {
	return path.join(agentDir, "memory", "MEMORY.md");
}

/** Write a file anywhere in the sandbox, folders created; returns its path. */
export function seedFile(file: string, text: string): string {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, text);
	return file;
}

/**
 * The notes block pi-memory appended to a system prompt: from its
 * "## Persistent memory" line to the decisions section ("## Project
 * decisions") or the end, newline-terminated. "" when there is none.
 */
export function notesBlock(systemPrompt: string): string {
	const appended = appendedPrompt(systemPrompt);
	const start = appended.indexOf("## Persistent memory\n");
	if (start < 0) return "";
	const rest = appended.slice(start);
	const end = rest.indexOf("\n## Project decisions\n");
	return end < 0 ? rest : rest.slice(0, end);
}

/** Poll an async condition until it holds; the last value is in the failure message. */
export async function eventually<T>(f: () => Promise<T | undefined | false>, what: string, timeoutMs = 60_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	for (;;) {
		const v = await f();
		if (v !== undefined && v !== false) return v;
		last = v;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
		await new Promise((r) => setTimeout(r, 250));
	}
}
