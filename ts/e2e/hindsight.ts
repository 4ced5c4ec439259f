// The real Hindsight server for end-to-end tests (docs/hindsight.md): build/hindsight.sh
// starts it on 127.0.0.1 with its model and embeddings pointed at a fake memory model
// served from this process, and a fault proxy in front of it lets a test fail one
// bank, slow one down, refuse every connection, or stop the real API process and
// bring it back. Nothing here stands in for Hindsight itself.
//
//   const hs = await startHindsight();
//   // point the code under test at hs.url (the proxy); inspect with hs.listMemories(bank)
//   await hs.stop();
//
// Everything started is owned by the test: stop() ends the server by the PIDs the
// script recorded, and a watchdog ends it too if this process dies without stopping
// it. PIMEM_HINDSIGHT_KEEP=1 keeps the server's folder (logs, database) after stop.

import { execFile, execFileSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/** build/hindsight.sh: install, start, stop, api-stop, api-start. */
export const SCRIPT = fileURLToPath(new URL("../../build/hindsight.sh", import.meta.url));

/** Length of every embedding the fake returns; the server is told the same. */
export const EMBEDDING_DIMENSIONS = 384;

// ---------------------------------------------------------------------------
// The fake memory model: what Hindsight's own model and embedding calls reach.

/** What a request to the fake memory model was, as the fake understood it. */
export type MemoryModelKind = "extract" | "reflect" | "chat" | "embeddings" | "other";

export interface MemoryModelRequest {
	kind: MemoryModelKind;
	method: string;
	url: string;
	/** The parsed JSON body (null when it did not parse). */
	body: Record<string, unknown> | null;
	raw: string;
	/** The HTTP status answered. */
	status: number;
}

/** One fact as Hindsight's retain extraction expects it (concise mode). */
export interface ExtractedFact {
	what: string;
	when: string;
	where: string;
	who: string;
	why: string;
	fact_kind: "conversation";
	fact_type: "world";
	entities: string[];
}

export interface MemoryModel {
	/** http://127.0.0.1:PORT/v1: the OpenAI-compatible base URL for chat and embeddings. */
	baseUrl: string;
	/** Every request received, in order. */
	requests: MemoryModelRequest[];
	/** Make the next n requests of kind (default: any chat request) fail with status (default 500). */
	failNext(n?: number, status?: number, kind?: MemoryModelKind): void;
	/** Requests of one kind. */
	of(kind: MemoryModelKind): MemoryModelRequest[];
	close(): Promise<void>;
}

/** 32-bit FNV-1a of a string's UTF-8 bytes. */
function fnv1a(s: string): number {
	let h = 0x811c9dc5;
	for (const b of Buffer.from(s, "utf8")) {
		h ^= b;
		h = Math.imul(h, 0x01000193) >>> 0;
	}
	return h;
}

/**
 * The fake's embedding: a hashed bag of words. Each lower-cased word (letters and
 * digits) adds 1 to dimension fnv1a(word) mod dims; the vector is then scaled to
 * length 1. Texts sharing words are near, texts sharing none are orthogonal, so
 * recall ranks by shared words. Never all zeros: a text without words gets a unit
 * vector on dimension 0.
 *
 *   embed("Use pnpm") and embed("we use pnpm here") share "use" and "pnpm": cosine 0.71
 */
export function embed(text: string, dims = EMBEDDING_DIMENSIONS): number[] {
	const v = new Array<number>(dims).fill(0);
	for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) v[fnv1a(w) % dims]! += 1;
	const norm = Math.hypot(...v);
	if (norm === 0) {
		v[0] = 1;
		return v;
	}
	return v.map((x) => x / norm);
}

/**
 * The text Hindsight asked facts of: after "Content:\n" in the extraction prompt of
 * 1.1.0 ("Text:\n" in older releases), else the whole message.
 */
export function chunkOf(userMessage: string): string {
	for (const marker of ["\nContent:\n", "Text:\n"]) {
		const i = userMessage.lastIndexOf(marker);
		if (i >= 0) return userMessage.slice(i + marker.length);
	}
	return userMessage;
}

/**
 * The fake's fact extraction: one fact per sentence or line of the chunk, its text
 * kept word for word (so what the server stores is exactly what it was sent), every
 * other field "N/A".
 *
 *   factsOf("Use pnpm. Deploys run on Fridays!") → facts "Use pnpm." and "Deploys run on Fridays!"
 */
export function factsOf(chunk: string): ExtractedFact[] {
	return chunk
		.split(/\n+|(?<=[.!?])\s+/)
		.map((s) => s.trim())
		.filter((s) => /[\p{L}\p{N}]/u.test(s))
		.map((what) => ({ what, when: "N/A", where: "N/A", who: "N/A", why: "N/A", fact_kind: "conversation", fact_type: "world", entities: [] }));
}

type Json = Record<string, unknown>;

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (Array.isArray(content)) return content.map((p) => (p && typeof (p as Json).text === "string" ? ((p as Json).text as string) : "")).join("");
	return "";
}

function messagesOf(body: Json | null): Json[] {
	return Array.isArray(body?.messages) ? (body.messages as Json[]) : [];
}

/** What a chat request asks for: facts (retain), a tool call (reflect) or plain text. */
function classify(body: Json | null): MemoryModelKind {
	if (Array.isArray(body?.tools) && body.tools.length > 0) return "reflect";
	const format = body?.response_format as Json | undefined;
	const schema = (format?.json_schema as Json | undefined)?.schema as Json | undefined;
	if (schema && typeof schema.properties === "object" && schema.properties !== null && "facts" in schema.properties) return "extract";
	// Soft JSON mode: the schema is appended to the system message.
	const system = messagesOf(body).find((m) => m.role === "system");
	if (format?.type === "json_object" && /"facts"/.test(textOf(system?.content))) return "extract";
	return "chat";
}

/** Every "text" and "id" value inside a tool result (JSON when it parses). */
function recalled(messages: Json[]): { texts: string[]; ids: string[] } {
	const texts: string[] = [];
	const ids: string[] = [];
	const walk = (x: unknown): void => {
		if (Array.isArray(x)) x.forEach(walk);
		else if (x && typeof x === "object") {
			for (const [k, v] of Object.entries(x)) {
				if (k === "text" && typeof v === "string") texts.push(v);
				else if (k === "id" && typeof v === "string") ids.push(v);
				else walk(v);
			}
		}
	};
	for (const m of messages) {
		if (m.role !== "tool") continue;
		const t = textOf(m.content);
		try {
			walk(JSON.parse(t));
		} catch {
			if (t.trim()) texts.push(t.trim());
		}
	}
	return { texts, ids };
}

/**
 * The reflect agent's next step. Hindsight 1.1.0 forces a tool by offering only that
 * one (tool_choice "required"); a named tool_choice is honoured too. With a choice,
 * recall comes first, then `done`, its answer quoting what the tools returned.
 */
function reflectStep(body: Json): { name: string; args: Json } {
	const messages = messagesOf(body);
	const tools = (body.tools as Json[]).map((t) => ((t.function as Json | undefined)?.name as string) ?? "");
	const question = textOf(messages.find((m) => m.role === "user")?.content);
	const choice = body.tool_choice as Json | string | undefined;
	const named = typeof choice === "object" ? ((choice.function as Json | undefined)?.name as string | undefined) : undefined;
	const called = messages.flatMap((m) => (Array.isArray(m.tool_calls) ? (m.tool_calls as Json[]).map((c) => (c.function as Json | undefined)?.name) : []));
	let name: string;
	if (named !== undefined) name = named;
	else if (tools.length === 1) name = tools[0]!;
	else if (tools.includes("recall") && !called.includes("recall")) name = "recall";
	else name = tools.includes("done") ? "done" : tools[0]!;
	if (name === "done") {
		const found = recalled(messages);
		const answer = found.texts.length > 0 ? `From memory: ${found.texts.join(" ")}` : "Nothing is known about that.";
		return { name, args: { answer, answer_found: found.texts.length > 0, memory_ids: found.ids } };
	}
	return { name, args: { reason: "fake memory model", query: question } };
}

function completion(body: Json | null, message: Json, finish: string): Json {
	const raw = JSON.stringify(body ?? {});
	return {
		id: `chatcmpl-memory-${Date.now()}`,
		object: "chat.completion",
		created: Math.floor(Date.now() / 1000),
		model: (body?.model as string | undefined) ?? "fake-memory-model",
		choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
		usage: { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: 20, total_tokens: Math.ceil(raw.length / 4) + 20 },
	};
}

function chatAnswer(kind: MemoryModelKind, body: Json | null): Json {
	if (kind === "extract") {
		const users = messagesOf(body).filter((m) => m.role === "user");
		const facts = factsOf(chunkOf(textOf(users[0]?.content)));
		return completion(body, { content: JSON.stringify({ facts }) }, "stop");
	}
	if (kind === "reflect" && body) {
		const step = reflectStep(body);
		const call = { id: `call_memory_${Date.now()}`, type: "function", function: { name: step.name, arguments: JSON.stringify(step.args) } };
		return completion(body, { content: null, tool_calls: [call] }, "tool_calls");
	}
	// A plain completion (reflect's final synthesis without tools): the tools' findings.
	const found = recalled(messagesOf(body));
	return completion(body, { content: found.texts.length > 0 ? `From memory: ${found.texts.join(" ")}` : "OK from the fake memory model." }, "stop");
}

function embeddingsAnswer(body: Json | null): Json {
	const input = body?.input;
	const texts = Array.isArray(input) ? input.map((x) => (typeof x === "string" ? x : JSON.stringify(x))) : [typeof input === "string" ? input : ""];
	const base64 = body?.encoding_format === "base64";
	return {
		object: "list",
		model: (body?.model as string | undefined) ?? "fake-embed",
		data: texts.map((t, index) => {
			const v = embed(t);
			return { object: "embedding", index, embedding: base64 ? Buffer.from(new Float32Array(v).buffer).toString("base64") : v };
		}),
		usage: { prompt_tokens: texts.join(" ").length, total_tokens: texts.join(" ").length },
	};
}

/**
 * Start the fake memory model on 127.0.0.1:0: POST /v1/chat/completions (retain's
 * fact extraction, reflect's tool calls, plain text; JSON or a one-chunk SSE stream)
 * and POST /v1/embeddings (floats or base64, as asked). Every request is recorded.
 */
export async function startMemoryModel(): Promise<MemoryModel> {
	const requests: MemoryModelRequest[] = [];
	const failures: Array<{ status: number; kind: MemoryModelKind | undefined }> = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => {
			const raw = Buffer.concat(chunks).toString("utf8");
			let body: Json | null = null;
			try {
				body = raw ? (JSON.parse(raw) as Json) : null;
			} catch {
				body = null;
			}
			const url = (req.url ?? "").split("?")[0]!;
			const kind: MemoryModelKind =
				req.method === "POST" && url.endsWith("/chat/completions") ? classify(body) : req.method === "POST" && url.endsWith("/embeddings") ? "embeddings" : "other";
			const reply = (status: number, answer: Json) => {
				requests.push({ kind, method: req.method ?? "", url: req.url ?? "", body, raw, status });
				if (status === 200 && body?.stream === true && kind !== "embeddings") {
					// One chunk carrying the whole message, then [DONE].
					const choice = (answer.choices as Json[])[0]!;
					const delta = { ...(choice.message as Json) };
					if (Array.isArray(delta.tool_calls)) delta.tool_calls = (delta.tool_calls as Json[]).map((c, index) => ({ index, ...c }));
					res.writeHead(200, { "content-type": "text/event-stream" });
					res.write(`data: ${JSON.stringify({ ...answer, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: choice.finish_reason }] })}\n\n`);
					res.end("data: [DONE]\n\n");
					return;
				}
				res.writeHead(status, { "content-type": "application/json" });
				res.end(JSON.stringify(answer));
			};
			if (kind === "other") {
				reply(404, { error: { message: `fake memory model: no route ${req.method} ${req.url}`, type: "not_found" } });
				return;
			}
			const f = failures.findIndex((x) => (x.kind === undefined ? kind !== "embeddings" : x.kind === kind));
			if (f >= 0) {
				const [failure] = failures.splice(f, 1);
				reply(failure!.status, { error: { message: "fake memory model: scripted failure", type: "server_error" } });
				return;
			}
			reply(200, kind === "embeddings" ? embeddingsAnswer(body) : chatAnswer(kind, body));
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		failNext(n = 1, status = 500, kind?: MemoryModelKind) {
			for (let i = 0; i < n; i++) failures.push({ status, kind });
		},
		of(kind: MemoryModelKind) {
			return requests.filter((r) => r.kind === kind);
		},
		close() {
			return new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			});
		},
	};
}

// ---------------------------------------------------------------------------
// The fault proxy: what the code under test talks to.

/** One request that went through the proxy, with what the client got back. */
export interface ProxiedRequest {
	method: string;
	/** Path and query, e.g. /v1/default/banks/b1/memories/recall. */
	url: string;
	/** The bank the path names, or "" (health, bank list). */
	bank: string;
	raw: string;
	/** The status the client got; 0 when the server could not be reached. */
	status: number;
	/** True when the proxy answered itself (an injected failure). */
	injected: boolean;
}

/** The bank id in a path /v1/default/banks/{bank}/…, decoded; "" when none. */
export function bankOf(url: string): string {
	const m = /^\/v1\/[^/]+\/banks\/([^/?]+)/.exec(url);
	return m ? decodeURIComponent(m[1]!) : "";
}

/**
 * An answer the proxy gives in the server's place (interceptBank): it writes res
 * itself, holds it (a server that never answers), or calls pass() to forward the
 * request as usual.
 */
export type Intercept = (req: ProxiedRequest, res: http.ServerResponse, pass: () => void) => void;

interface Proxy {
	url: string;
	requests: ProxiedRequest[];
	failures: Map<string, number>;
	delays: Map<string, number>;
	intercepts: Map<string, Intercept>;
	setDown(down: boolean): Promise<void>;
	close(): Promise<void>;
}

async function startProxy(target: number): Promise<Proxy> {
	const requests: ProxiedRequest[] = [];
	const failures = new Map<string, number>();
	const delays = new Map<string, number>();
	const intercepts = new Map<string, Intercept>();
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => {
			const raw = Buffer.concat(chunks).toString("utf8");
			const url = req.url ?? "/";
			const bank = bankOf(url);
			const record: ProxiedRequest = { method: req.method ?? "", url, bank, raw, status: 0, injected: false };
			requests.push(record);
			const status = failures.get(bank);
			const intercept = intercepts.get(bank);
			const forward = () => {
				if (intercept !== undefined) {
					record.injected = true;
					intercept(record, res, () => {
						record.injected = false;
						pass();
					});
					if (res.headersSent) record.status = res.statusCode;
					return;
				}
				pass();
			};
			const pass = () => {
				if (status !== undefined) {
					record.status = status;
					record.injected = true;
					res.writeHead(status, { "content-type": "application/json" });
					res.end(JSON.stringify({ detail: `fault injected by the test proxy for bank ${bank}` }));
					return;
				}
				const headers = { ...req.headers, host: `127.0.0.1:${target}` };
				const up = http.request({ host: "127.0.0.1", port: target, method: req.method, path: url, headers }, (upRes) => {
					record.status = upRes.statusCode ?? 0;
					res.writeHead(upRes.statusCode ?? 502, upRes.headers);
					upRes.pipe(res);
				});
				up.on("error", () => {
					// The server is gone (stopped API): the client sees the connection reset.
					res.destroy();
				});
				up.end(chunks.length > 0 ? Buffer.concat(chunks) : undefined);
			};
			const delay = delays.get(bank);
			if (delay !== undefined) setTimeout(forward, delay);
			else forward();
		});
	});
	const listen = (port: number) =>
		new Promise<void>((resolve, reject) => {
			server.once("error", reject);
			server.listen(port, "127.0.0.1", () => {
				server.off("error", reject);
				resolve();
			});
		});
	await listen(0);
	const port = (server.address() as AddressInfo).port;
	let down = false;
	const close = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		failures,
		delays,
		intercepts,
		async setDown(d: boolean) {
			if (d === down) return;
			down = d;
			if (d) await close();
			else await listen(port);
		},
		close: () => (down ? Promise.resolve() : close()),
	};
}

// ---------------------------------------------------------------------------
// The server

/** One memory unit as GET …/memories/list returns it (other fields pass through). */
export interface MemoryUnit {
	id: string;
	text: string;
	context: string;
	fact_type: string | null;
	document_id: string | null;
	tags: string[];
	metadata: Record<string, unknown>;
	[key: string]: unknown;
}

/** One retain item (POST …/memories). */
export interface RetainItem {
	content: string;
	context?: string;
	timestamp?: string;
	document_id?: string;
	tags?: string[];
	metadata?: Record<string, string>;
}

export interface HindsightOptions {
	/** The fake memory model to point the server at (default: a new one, closed by stop()). */
	model?: MemoryModel;
	/** How long the server may take to answer /health (default 240 s). */
	startTimeoutMs?: number;
}

export interface Hindsight {
	/** The proxy in front of the server: give this to the code under test. */
	url: string;
	/** The server itself, bypassing the proxy's faults and log. */
	directUrl: string;
	/** Where the server's logs and database live (removed by stop()). */
	dir: string;
	model: MemoryModel;
	/** Every request that went through the proxy, in order. */
	requests: ProxiedRequest[];
	/** Requests through the proxy that named bank. */
	requestsFor(bank: string): ProxiedRequest[];
	/** Every request naming bank gets status (default 500) from the proxy, until healBank. */
	failBank(bank: string, status?: number): void;
	/** Every request naming bank waits ms before it is forwarded, until healBank. */
	delayBank(bank: string, ms: number): void;
	/** Every request naming bank goes to answer instead of the server, until healBank. */
	interceptBank(bank: string, answer: Intercept): void;
	/** Undo failBank, delayBank and interceptBank for bank. */
	healBank(bank: string): void;
	/** Refuse (true) or accept again (false) every connection to url, as a server that is down. */
	setDown(down: boolean): Promise<void>;
	/** Stop the real API process (the database stays up; the proxy resets connections). */
	stopApi(): Promise<void>;
	/** Start the API process again on the same port, with the same database. */
	startApi(): Promise<void>;
	/** REST helpers on directUrl. Each throws, naming the request, on a status other than 2xx. */
	createBank(bank: string, body?: Record<string, unknown>): Promise<unknown>;
	retain(bank: string, items: RetainItem[]): Promise<unknown>;
	recall(bank: string, query: string, body?: Record<string, unknown>): Promise<{ results: MemoryUnit[]; [key: string]: unknown }>;
	reflect(bank: string, query: string, body?: Record<string, unknown>): Promise<{ text: string; [key: string]: unknown }>;
	/** Every memory unit of bank (all pages); [] when the bank does not exist. */
	listMemories(bank: string): Promise<MemoryUnit[]>;
	/**
	 * Everything the server holds for bank as one string (memory units, documents with
	 * their original text and retain parameters, chunks): what "never reaches the
	 * server" is checked against.
	 */
	storedText(bank: string): Promise<string>;
	/** Stop the server (API, then database), the proxy and the model it started. */
	stop(): Promise<void>;
}

function runScript(args: string[]): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile(SCRIPT, args, { maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
			if (err) reject(new Error(`build/hindsight.sh ${args[0]} failed: ${err.message}\n${stderr}`));
			else resolve(stdout);
		});
	});
}

// Servers not stopped yet, stopped synchronously if this process exits first.
const running = new Set<string>();
process.on("exit", () => {
	for (const dir of running) {
		try {
			execFileSync(SCRIPT, ["stop", "--dir", dir], { stdio: "ignore" });
		} catch {
			// the watchdog ends it within seconds anyway
		}
	}
});

async function call(base: string, method: string, route: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }> {
	const res = await fetch(base + route, {
		method,
		headers: body === undefined ? {} : { "content-type": "application/json" },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let json: unknown = null;
	try {
		json = JSON.parse(text);
	} catch {
		json = null;
	}
	return { status: res.status, json, text };
}

async function ok(base: string, method: string, route: string, body?: unknown): Promise<unknown> {
	const r = await call(base, method, route, body);
	if (r.status < 200 || r.status > 299) throw new Error(`${method} ${route} answered ${r.status}: ${r.text.slice(0, 2000)}`);
	return r.json;
}

const bankPath = (bank: string) => `/v1/default/banks/${encodeURIComponent(bank)}`;

/**
 * Start a real Hindsight server (build/hindsight.sh start; `make hindsight` installs
 * it) against the fake memory model, behind a fault proxy. Rejects with the server's
 * log when it does not come up.
 */
export async function startHindsight(opts: HindsightOptions = {}): Promise<Hindsight> {
	const model = opts.model ?? (await startMemoryModel());
	const ownModel = opts.model === undefined;
	let started: { url: string; port: number; dir: string };
	try {
		const timeout = String(Math.ceil((opts.startTimeoutMs ?? 240_000) / 1000));
		const out = await runScript(["start", "--llm", model.baseUrl, "--owner", String(process.pid), "--timeout", timeout]);
		started = JSON.parse(out.trim().split("\n").pop()!) as typeof started;
	} catch (err) {
		if (ownModel) await model.close();
		throw err;
	}
	running.add(started.dir);
	const proxy = await startProxy(started.port);
	const direct = started.url;
	let stopped = false;
	const hs: Hindsight = {
		url: proxy.url,
		directUrl: direct,
		dir: started.dir,
		model,
		requests: proxy.requests,
		requestsFor: (bank) => proxy.requests.filter((r) => r.bank === bank),
		failBank(bank, status = 500) {
			proxy.failures.set(bank, status);
		},
		delayBank(bank, ms) {
			proxy.delays.set(bank, ms);
		},
		interceptBank(bank, answer) {
			proxy.intercepts.set(bank, answer);
		},
		healBank(bank) {
			proxy.failures.delete(bank);
			proxy.delays.delete(bank);
			proxy.intercepts.delete(bank);
		},
		setDown: (down) => proxy.setDown(down),
		async stopApi() {
			await runScript(["api-stop", "--dir", started.dir]);
		},
		async startApi() {
			await runScript(["api-start", "--dir", started.dir]);
		},
		createBank: (bank, body = {}) => ok(direct, "PUT", bankPath(bank), body),
		retain: (bank, items) => ok(direct, "POST", `${bankPath(bank)}/memories`, { items, async: false }),
		recall: async (bank, query, body = {}) => (await ok(direct, "POST", `${bankPath(bank)}/memories/recall`, { query, ...body })) as { results: MemoryUnit[] },
		reflect: async (bank, query, body = {}) => (await ok(direct, "POST", `${bankPath(bank)}/reflect`, { query, ...body })) as { text: string },
		async listMemories(bank) {
			const all: MemoryUnit[] = [];
			for (let offset = 0; ; ) {
				const r = await call(direct, "GET", `${bankPath(bank)}/memories/list?limit=500&offset=${offset}`);
				if (r.status === 404) return all;
				if (r.status !== 200) throw new Error(`listing the memories of ${bank} answered ${r.status}: ${r.text.slice(0, 2000)}`);
				const page = r.json as { items: MemoryUnit[]; total: number };
				all.push(...page.items);
				offset += page.items.length;
				if (page.items.length === 0 || offset >= page.total) return all;
			}
		},
		async storedText(bank) {
			const parts: unknown[] = [await hs.listMemories(bank)];
			const docs = await call(direct, "GET", `${bankPath(bank)}/documents?limit=1000`);
			if (docs.status === 200) {
				for (const d of (docs.json as { items: Array<{ id: string }> }).items) {
					const id = encodeURIComponent(d.id);
					parts.push(await ok(direct, "GET", `${bankPath(bank)}/documents/${id}`));
					parts.push(await ok(direct, "GET", `${bankPath(bank)}/documents/${id}/chunks`));
				}
			}
			return JSON.stringify(parts);
		},
		async stop() {
			if (stopped) return;
			stopped = true;
			await proxy.close();
			if (running.delete(started.dir)) await runScript(["stop", "--dir", started.dir]);
			if (ownModel) await model.close();
		},
	};
	return hs;
}
