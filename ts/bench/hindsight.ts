// The Hindsight lifecycle's figures for `make bench` (issue 9, "Measures"), rows 12
// and 13, taken through the compiled module the way the pi adapter drives it, against
// the real Hindsight server that the end-to-end tests start (ts/e2e/hindsight.ts:
// build/hindsight.sh, its model and embeddings pointed at the fake memory model).
//
//   row 12  what recall adds to a turn: the `context` export, the `fetch` of its recall
//           request and the `resume`, for distinct user messages against a seeded bank;
//           and what a retry of the same message adds (network calls and time).
//   row 13  the outbox append: the time of the `agent_end` export, which queues the turn
//           under the outbox's lock (its background flush is not part of the time); and
//           the flush throughput: N queued jobs, then `/hindsight flush` until the outbox
//           holds no pending job.
//
// ts/bench/main.ts calls stepHindsight, which starts the server once (in main's
// process, so the fake model answers while a probe waits), seeds the recall bank and
// runs `ts/bench/probe.ts hindsight` per part and build; the probe runs the module in
// a fresh process with hindsightProbe below. Knobs:
//
//   BENCH_HS_MEMORIES=300  memories seeded into the recall bank
//   BENCH_HS_MESSAGES=60   distinct user messages recalled for (at least 50)
//   BENCH_HS_RETRIES=10    retries of each (half the same request, half a tool-loop step)
//   BENCH_HS_JOBS=200      turns queued for the append figures and the flush

import fs from "node:fs";
import path from "node:path";
import { Core, compileCore, type Effect, type Envelope, type ExportName, type HttpAnswer, type HttpRequest } from "../core.ts";
import { startHindsight, type Hindsight, type RetainItem } from "../e2e/hindsight.ts";
import { envInt, num, str, type Args } from "./args.ts";
import type { RowInput, Verdict } from "./row.ts";
import { fmtBytes, fmtMs, max, median, quantile } from "./stats.ts";

// ---- What main.ts lends this step ----------------------------------------------------

export interface HsBench {
	builds: Array<{ name: string; module: string }>;
	/** A fresh folder under the run's temp folder (main removes the whole run's). */
	tmpDir(name: string): string;
	/** Runs `probe.ts MODE args` in a fresh process; rejects on failure or timeout. */
	probe(mode: string, args: object, timeoutMs: number, label: string): Promise<unknown>;
	progress(msg: string): void;
	row(r: RowInput): void;
	judge(value: number, limit: number, inclusive?: boolean): { verdict: Verdict; note: string };
	/** Which rows to measure (BENCH_ONLY may ask for one). */
	rows: { recall: boolean; outbox: boolean };
}

export const HS_CFG = {
	memories: envInt("BENCH_HS_MEMORIES", 300, 1),
	messages: envInt("BENCH_HS_MESSAGES", 60, 50),
	retries: envInt("BENCH_HS_RETRIES", 10, 2),
	jobs: envInt("BENCH_HS_JOBS", 200, 10),
};

const MIN = 60_000;
/** The repository the bench's projects belong to (their .git/config's origin). */
const REMOTE = "https://bench.example/pi-memory/hsbench.git";
const REPO_KEY = "bench.example/pi-memory/hsbench";
/** Warm-up messages before the measured ones: the server's first calls import and cache. */
const WARMUP = 5;
/** Warm-up turns before the timed `agent_end` calls: V8 compiles wasm functions lazily. */
const WARMUP_TURNS = 10;

// ---- The seeded memories and the user messages ------------------------------------------

const COMPONENTS = [
	"billing service", "auth gateway", "search indexer", "mobile app", "admin console",
	"payment webhook", "email worker", "image resizer", "report builder", "feature flag store",
	"rate limiter", "session cache", "audit log", "export job", "notification hub",
	"checkout flow", "pricing engine", "inventory sync", "onboarding wizard", "metrics pipeline",
];
const FACTS = [
	"stores its data in PostgreSQL 16 with one schema per tenant",
	"is deployed on Fridays only after the freeze window closes",
	"logs to Loki with a retention of fourteen days",
	"is written in Go and built with Bazel",
	"runs its integration tests with Playwright against a staging copy",
	"reads its secrets from Vault through the sidecar agent",
	"has an on-call rotation owned by the platform team",
	"caches responses in Redis for five minutes",
	"publishes events to Kafka on the orders topic",
	"was migrated from MySQL in March",
	"signs its webhooks with HMAC SHA-256",
	"exposes metrics to Prometheus on port 9102",
	"needs a database migration reviewed by two people",
	"uses pnpm workspaces for its frontend packages",
	"depends on the legacy SOAP client for invoices",
];
const QUESTIONS = [
	(c: string) => `Where does the ${c} store its data, and which database version is it on?`,
	(c: string) => `When can we deploy the ${c}, and who is on call for it?`,
	(c: string) => `How are the ${c} tests run, and where do its logs go?`,
];
const WARMUP_QUESTIONS = ["What do we know about this repository?", "Which services use Kafka?", "How are secrets handled?", "What runs on Fridays?", "Which tools build the frontend?"];

/** n memories, one sentence each: a component and a fact about it. */
function seedItems(n: number): RetainItem[] {
	const out: RetainItem[] = [];
	for (let i = 0; i < n; i++) {
		const c = COMPONENTS[i % COMPONENTS.length]!;
		const f = FACTS[Math.floor(i / COMPONENTS.length) % FACTS.length]!;
		const round = Math.floor(i / (COMPONENTS.length * FACTS.length));
		out.push({ content: `The ${c} ${f}${round > 0 ? ` (noted ${round + 1} times)` : ""}.`, context: "bench seed", document_id: `bench-seed-${i}`, tags: [`project:${REPO_KEY}`] });
	}
	return out;
}

/** The measured user messages: distinct, each about one component. */
function questions(n: number): string[] {
	const out: string[] = [];
	for (let i = 0; i < n; i++) {
		const q = QUESTIONS[Math.floor(i / COMPONENTS.length) % QUESTIONS.length]!(COMPONENTS[i % COMPONENTS.length]!);
		const round = Math.floor(i / (COMPONENTS.length * QUESTIONS.length));
		out.push(round > 0 ? `${q} (asked again, ${round + 1})` : q);
	}
	return out;
}

// ---- main.ts's step ----------------------------------------------------------------------

/** Rows 12 and 13: starts the server, seeds the recall bank, runs the probes, stops the server. */
export async function stepHindsight(b: HsBench): Promise<void> {
	b.progress("12–13 Hindsight: starting the real server (build/hindsight.sh start, 20–60 s)");
	let hs: Hindsight;
	try {
		hs = await startHindsight();
	} catch (err) {
		const msg = err instanceof Error ? err.message : String(err);
		if (/is not installed/.test(msg)) {
			b.row({ n: "12", what: "Hindsight recall and outbox (rows 12–13)", result: "not measured", verdict: "skipped", note: "the real Hindsight server is not installed: run `make hindsight` (minutes, once), then the bench again" });
			return;
		}
		for (const n of ["12", "13"]) b.row({ n, what: "Hindsight: the real server did not start", result: "—", verdict: "ERROR", note: msg.split("\n").slice(0, 3).join(" | ") });
		return;
	}
	try {
		if (b.rows.recall) await recallStep(b, hs);
		if (b.rows.outbox) await outboxStep(b, hs);
	} finally {
		b.progress("12–13 Hindsight: stopping the server (by the PIDs it recorded)");
		await hs.stop();
	}
}

async function recallStep(b: HsBench, hs: Hindsight): Promise<void> {
	const bank = `bench-recall-${process.pid}`;
	b.progress(`12 seeding ${HS_CFG.memories} memories into bank ${bank}`);
	const t0 = performance.now();
	const items = seedItems(HS_CFG.memories);
	let stored = 0;
	try {
		for (let i = 0; i < items.length; i += 25) await hs.retain(bank, items.slice(i, i + 25));
		stored = (await hs.listMemories(bank)).length;
	} catch (err) {
		const msg = `seeding the recall bank failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500);
		for (const build of b.builds) recallRows(b, build.name, { ok: false, err: msg }, "");
		return;
	}
	const seedNote = `bank of ${stored} memories (${HS_CFG.memories} sentences retained, seeded in ${fmtMs(performance.now() - t0)})`;
	for (const build of b.builds) {
		b.progress(`12 recall: ${HS_CFG.messages} distinct messages, ${HS_CFG.retries} retries each (${build.name}), Node`);
		const dir = b.tmpDir(`hs-recall-${build.name}`);
		const r = await gotOr<RecallResult>(b.probe("hindsight", { part: "recall", module: build.module, url: hs.directUrl, bank, dir, messages: HS_CFG.messages, retries: HS_CFG.retries }, 10 * MIN, `hindsight recall ${build.name}`));
		fs.rmSync(dir, { recursive: true, force: true });
		recallRows(b, build.name, r, seedNote);
	}
}

async function outboxStep(b: HsBench, hs: Hindsight): Promise<void> {
	for (const build of b.builds) {
		b.progress(`13 outbox: ${HS_CFG.jobs} turns flushed as they go, ${HS_CFG.jobs} queued, then /hindsight flush (${build.name}), Node`);
		const dir = b.tmpDir(`hs-outbox-${build.name}`);
		const r = await gotOr<OutboxResult>(b.probe("hindsight", { part: "outbox", module: build.module, url: hs.directUrl, bank: `bench-retain-${build.name.toLowerCase()}-${process.pid}`, dir, jobs: HS_CFG.jobs }, 15 * MIN, `hindsight outbox ${build.name}`));
		fs.rmSync(dir, { recursive: true, force: true });
		outboxRows(b, build.name, r);
	}
}

type Got<T> = { ok: true; v: T } | { ok: false; err: string };

async function gotOr<T>(p: Promise<unknown>): Promise<Got<T>> {
	try {
		return { ok: true, v: (await p) as T };
	} catch (err) {
		return { ok: false, err: err instanceof Error ? err.message : String(err) };
	}
}

const pcts = (xs: number[], qs: number[]) => qs.map((q) => `${q === 0.5 ? "p50" : `p${Math.round(q * 100)}`} ${fmtMs(quantile(xs, q))}`).join(", ");

function recallRows(b: HsBench, build: string, r: Got<RecallResult>, seedNote: string): void {
	const host = "Node";
	const missWhat = `recall on a turn: \`context\` + fetch + \`resume\`, ${HS_CFG.messages} distinct messages, 1 bank`;
	const retryWhat = "a retry or tool-loop step of the same message: `context` again";
	if (!r.ok) {
		b.row({ n: "12", what: missWhat, build, host, result: "—", verdict: "ERROR", note: r.err });
		b.row({ n: "12", what: retryWhat, build, host, result: "—", target: "0 network calls; p99 < 1 ms", verdict: "ERROR", note: r.err });
		return;
	}
	const v = r.v;
	b.row({
		n: "12",
		what: missWhat,
		build,
		host,
		result: pcts(v.miss, [0.5, 0.95]),
		note: `${seedNote}; the core's share (both export calls) p50 ${fmtMs(median(v.core))}, p95 ${fmtMs(quantile(v.core, 0.95))}; max ${fmtMs(max(v.miss))}; ${v.missFetches} requests for ${v.miss.length} messages; ${median(v.memories)} memories (${fmtBytes(median(v.blockBytes))}) per block, median; after ${WARMUP} warm-up messages`,
	});
	const p99 = quantile(v.retry, 0.99);
	const j = b.judge(p99, 1);
	const calls = v.retryFetches === 0 && v.identical;
	b.row({
		n: "12",
		what: `${retryWhat} (${v.retry.length} calls)`,
		build,
		host,
		result: `${v.retryFetches} network calls; ${pcts(v.retry, [0.5, 0.95, 0.99])}`,
		target: "0 network calls; p99 < 1 ms",
		verdict: calls ? j.verdict : "MISS",
		note: [calls ? "" : v.identical ? `${v.retryFetches} network calls (counted by wrapping fetch)` : "a retry got a block that differs from the first one's bytes", j.note, `max ${fmtMs(max(v.retry))}; each retry right after its message's first request, block byte-identical every time: ${v.identical ? "yes" : "no"}; the same \`context\` calls without Hindsight configured: p50 ${fmtMs(median(v.off))}, p99 ${fmtMs(quantile(v.off, 0.99))}`].filter((s) => s !== "").join("; "),
	});
}

function outboxRows(b: HsBench, build: string, r: Got<OutboxResult>): void {
	const host = "Node";
	const steadyWhat = `outbox append: \`agent_end\` while the flush keeps up (${HS_CFG.jobs} turns)`;
	const backlogWhat = `outbox append: \`agent_end\` while jobs wait (${HS_CFG.jobs} turns, flush not performed)`;
	const flushWhat = "outbox flush: the queued jobs, `/hindsight flush` until none is pending";
	if (!r.ok) {
		for (const what of [steadyWhat, backlogWhat]) b.row({ n: "13", what, build, host, result: "—", target: "p99 < 1 ms", verdict: "ERROR", note: r.err });
		b.row({ n: "13", what: flushWhat, build, host, result: "—", verdict: "ERROR", note: r.err });
		return;
	}
	const v = r.v;
	const off = `the same turns' \`agent_end\` without Hindsight configured: p50 ${fmtMs(median(v.off))}, p99 ${fmtMs(quantile(v.off, 0.99))}; an export that does nothing (\`debug ping\`) after the same ${MODEL_MS} ms pause: p50 ${fmtMs(median(v.idle))}, p99 ${fmtMs(quantile(v.idle, 0.99))}`;
	const steady = quantile(v.steady, 0.99);
	b.row({ n: "13", what: steadyWhat, build, host, result: pcts(v.steady, [0.5, 0.99]), target: "p99 < 1 ms", ...withNote(b.judge(steady, 1), `max ${fmtMs(max(v.steady))}; each turn \`before_agent_start\` and \`context\` (recall answered by the server), then at least ${MODEL_MS} ms for the model's answer, in which the server finished extracting the last turn's facts, then \`agent_end\` (timed), then its background flush performed (untimed); ${off}; outbox ${fmtBytes(v.steadyBytes)} at the end, ${v.steadyPending} pending; one turn's job ${fmtBytes(v.turnBytes)}; after ${WARMUP_TURNS} warm-up turns`) });
	const backlog = quantile(v.backlog, 0.99);
	b.row({
		n: "13",
		what: backlogWhat,
		build,
		host,
		result: pcts(v.backlog, [0.5, 0.99]),
		target: "p99 < 1 ms",
		...withNote(b.judge(backlog, 1), `max ${fmtMs(max(v.backlog))}; first 10% of calls p50 ${fmtMs(median(v.backlog.slice(0, Math.ceil(v.backlog.length / 10))))}, last 10% p50 ${fmtMs(median(v.backlog.slice(-Math.ceil(v.backlog.length / 10))))}; ${v.queued} jobs pending after them (${WARMUP_TURNS} warm-up turns' included), outbox ${fmtBytes(v.backlogBytes)}`),
	});
	b.row({
		n: "13",
		what: flushWhat,
		build,
		host,
		result: `${Math.round(v.queued / (v.flushMs / 1000)).toLocaleString("en-US")} jobs/s`,
		note: `${v.queued} jobs in ${fmtMs(v.flushMs)}: ${v.flushRounds} flush command(s), ${v.flushRequests} requests of ≤ 20 items at once; ${v.leftPending} pending after; the server accepts them (\`async: true\`) and extracts their facts afterwards: ${Number.isFinite(v.extractedMs) ? `all done ${fmtMs(v.extractedMs)} after the flush began (${Math.round(v.queued / (v.extractedMs / 1000)).toLocaleString("en-US")} jobs/s)` : `not all done within ${DRAIN_MS / 1000} s, or the server did not say`}`,
	});
}

function withNote(j: { verdict: Verdict; note: string }, extra: string): { verdict: Verdict; note: string } {
	return { verdict: j.verdict, note: [j.note, extra].filter((s) => s !== "").join("; ") };
}

/** The method section's items for docs/benchmarks.md (main.ts writes them after item 11). */
export function methodLines(): string[] {
	return [
		`12. **Hindsight recall** — \`ts/bench/hindsight.ts\`: the real server as the end-to-end tests start it (\`build/hindsight.sh start\`, the fake memory model's hashed bag-of-words embeddings; \`make hindsight\` installs it, and without it the bench prints one skipped row). One bank is seeded with ${HS_CFG.memories} one-sentence memories (20 services × 15 facts), tagged with the project's repo key. Then \`ts/bench/probe.ts hindsight\`, one fresh process per build: a trusted project whose origin names that repo, \`HINDSIGHT_API_URL\` (the server itself, no proxy) and \`HINDSIGHT_BANK_ID\` in session_start's \`env\`, so one bank (the project's) is asked. ${WARMUP} warm-up messages, then ${HS_CFG.messages} distinct user messages (questions about one service each): each turn is \`context\` with that message, the foreground \`http\` ask performed as the adapter does (\`fetch\`, every request at once, each with its \`timeoutMs\`), then \`resume\` with the answers; the time is all three, wall clock. *The core's share* is the two export calls alone. Right after each message's first request come ${HS_CFG.retries} retries: the same request again, alternating with a tool-loop step (the message, an assistant tool call and its result); each is timed alone, \`fetch\` is wrapped to count every network call, and each block must be byte-identical to the first. The target is 0 calls and p99 < 1 ms. For comparison, the note gives the same \`context\` calls in a session with no Hindsight configured.`,
		`13. **Hindsight outbox** — the same probe, one fresh process per build, each phase with a bank and an agent folder of its own. Every phase starts with ${WARMUP_TURNS} untimed warm-up turns. *Without Hindsight* (for comparison, in the note): the same ${HS_CFG.jobs} turns with no Hindsight configured, \`agent_end\` after the same pause as below (what the other stores cost), then another pause of ${MODEL_MS} ms and an export that does nothing (\`debug ping\`): what any call costs the module after idle. *Append while the flush keeps up*: ${HS_CFG.jobs} turns (a user message, an assistant tool call with a 2.2 KB result, of which the retain keeps 2,000 characters, a closing answer), each run as pi runs it: \`before_agent_start\` and \`context\` with the user message, whose recall the server answers (untimed), then the model's answer, which here is the time the server takes to finish extracting the facts of the last turn's flush (until it lists no retain operation pending or processing, \`GET …/operations\`), at least ${MODEL_MS} ms, so the extraction does not compete with the timing for the machine's cores; then \`agent_end\`, timed alone (it serializes and redacts the turn, appends its job under the outbox's lock, and returns a background ask of no request); that ask is then answered, its resume builds the background flush, and the flush is performed and resumed, all untimed, as the adapter does after its handler returned. The module is idle between \`context\` and \`agent_end\`, as in pi, and a call after idle costs about twice one right after another. *Append while jobs wait*: a new session, ${HS_CFG.jobs} turns whose background flush is never performed (as while the server is down; the first turn's ask of no request is answered, so the flush is out), so each call appends to a growing queue. *Flush*: then \`/hindsight flush\` (the \`command\` export; every due job in requests of at most 20 items, all at once, \`async: true\`), repeated until no job is pending (read from \`outbox.jsonl\`: jobs without a \`done\`); jobs/s is the queued jobs over that time. The server extracts facts from the accepted jobs afterwards; the note says when it had finished (no retain operation pending or processing), counted from the flush's start.`,
	];
}

// ---- The probe (a fresh process: ts/bench/probe.ts hindsight) ------------------------------

/** Network calls the probe made: fetch is wrapped once, the count read around each call. */
let fetches = 0;

function countFetches(): void {
	const real = globalThis.fetch;
	globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
		fetches++;
		return real(...args);
	}) as typeof fetch;
}

// The adapter's answerHttp (ts/index.ts): every request at once, each aborted after its
// timeoutMs, answered in order; a status is never read.
async function fetchOne(r: HttpRequest): Promise<HttpAnswer> {
	const timeoutMs = r.timeoutMs ?? 0;
	const timer = new AbortController();
	const clock = timeoutMs > 0 ? setTimeout(() => timer.abort(), timeoutMs) : undefined;
	try {
		const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body, signal: timer.signal });
		return { status: res.status, body: await res.text() };
	} catch (err) {
		if (timer.signal.aborted) return { error: `timed out after ${timeoutMs} ms` };
		const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : "";
		return { error: cause || (err instanceof Error ? err.message : String(err)) };
	} finally {
		clearTimeout(clock);
	}
}

function answerHttp(requests: HttpRequest[]): Promise<HttpAnswer[]> {
	return Promise.all(requests.map(fetchOne));
}

type Http = Extract<Effect, { t: "http" }>;

function check(exportName: string, env: Envelope): Envelope {
	const bad = env.effects.find((e) => e.t === "notify" && e.level === "error");
	if (bad !== undefined || env.exit !== 0) throw new Error(`${exportName}: exit ${env.exit}: ${JSON.stringify(env.effects).slice(0, 500)}`);
	return env;
}

/** What one export call and its foreground asks gave, with the background asks left unperformed. */
interface Driven {
	effects: Effect[];
	background: Http[];
	/** Wall time of the export calls alone (the first and every resume). */
	coreMs: number;
}

/** Calls an export and answers its foreground `http` asks through `resume` until it asks nothing more. */
async function drive(core: Core, exportName: ExportName, input: unknown): Promise<Driven> {
	const got: Driven = { effects: [], background: [], coreMs: 0 };
	let t0 = performance.now();
	let env = check(exportName, await core.call(exportName, input));
	got.coreMs += performance.now() - t0;
	for (;;) {
		let ask: Http | undefined;
		for (const e of env.effects) {
			got.effects.push(e);
			if (e.t === "http" && e.background === true) got.background.push(e);
			else if (e.t === "http") ask = e;
			else if (e.t === "complete" || e.t === "dialog") throw new Error(`${exportName}: the core asked for ${e.t}, which this bench does not answer`);
		}
		if (ask === undefined) return got;
		const value = await answerHttp(ask.requests);
		t0 = performance.now();
		env = check(exportName, await core.call("resume", { id: ask.id, value }));
		got.coreMs += performance.now() - t0;
	}
}

interface Project {
	cwd: string;
	agent: string;
}

/** A trusted project whose origin is REMOTE, and an agent folder, under dir/name. */
function project(dir: string, name: string): Project {
	const root = path.join(dir, name);
	const cwd = path.join(root, "project");
	fs.mkdirSync(path.join(cwd, ".git"), { recursive: true });
	fs.writeFileSync(path.join(cwd, ".git", "config"), `[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ${REMOTE}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
	const agent = path.join(root, "agent");
	fs.mkdirSync(agent, { recursive: true });
	return { cwd: fs.realpathSync(cwd), agent: fs.realpathSync(agent) };
}

/** A session on p with Hindsight at url, bank (url "": Hindsight not configured). */
async function startSession(module: string, p: Project, url: string, bank: string, sessionId: string): Promise<Core> {
	const core = new Core(module);
	const got = await drive(core, "session_start", {
		cwd: p.cwd,
		agentDir: p.agent,
		home: p.agent,
		trusted: true,
		hasUI: false,
		mode: "print",
		reason: "startup",
		flags: { "no-memory": false },
		fault: "",
		branch: [],
		sessionId,
		zone: 0,
		window: 128000,
		env: url === "" ? {} : { HINDSIGHT_API_URL: url, HINDSIGHT_BANK_ID: bank },
	});
	const tools = got.effects.find((e) => e.t === "tools");
	const on = tools !== undefined && tools.t === "tools" && tools.active.includes("hindsight_recall");
	if (on !== (url !== "")) {
		await core.close();
		throw new Error(`session_start ${url === "" ? "turned Hindsight on without a URL" : "did not turn Hindsight on (no tools effect naming hindsight_recall)"}: ${JSON.stringify(got.effects).slice(0, 500)}`);
	}
	return core;
}

/** What the recall part measures (ms unless named). */
export interface RecallResult {
	miss: number[]; // context + fetch + resume, per distinct message
	core: number[]; // the export calls of those turns alone
	missFetches: number;
	memories: number[]; // memory lines per block
	blockBytes: number[];
	retry: number[]; // each retry's context call
	retryFetches: number;
	identical: boolean; // every retry got its message's block, byte for byte
	off: number[]; // the same retries' context calls with Hindsight not configured
}

function appended(effects: Effect[]): string | undefined {
	const a = effects.filter((e) => e.t === "context_append");
	return a.length === 0 ? undefined : a.map((e) => (e.t === "context_append" ? e.text : "")).join("");
}

async function recallPart(a: Args): Promise<RecallResult> {
	const module = str(a, "module");
	await compileCore(module);
	countFetches();
	const p = project(str(a, "dir"), "recall");
	const core = await startSession(module, p, str(a, "url"), str(a, "bank"), `bench-recall-${process.pid}`);
	const out: RecallResult = { miss: [], core: [], missFetches: 0, memories: [], blockBytes: [], retry: [], retryFetches: 0, identical: true, off: [] };
	try {
		const retries = num(a, "retries", 10);
		let ts = Date.UTC(2026, 10, 20, 9, 0, 0);
		const all = [...WARMUP_QUESTIONS.slice(0, WARMUP), ...questions(num(a, "messages", 60))];
		for (let i = 0; i < all.length; i++) {
			ts += 60_000;
			const user = { role: "user", content: all[i], timestamp: ts };
			const step = [user, { role: "assistant", content: [{ type: "toolCall", id: `c${i}`, name: "read", arguments: { path: "README.md" } }], timestamp: ts + 1 }, { role: "toolResult", toolCallId: `c${i}`, toolName: "read", content: [{ type: "text", text: "# hsbench\n" }], isError: false, timestamp: ts + 2 }];
			const before = fetches;
			const t0 = performance.now();
			const got = await drive(core, "context", { messages: [user] });
			const ms = performance.now() - t0;
			const block = appended(got.effects);
			if (i < WARMUP) continue;
			if (block === undefined) throw new Error(`no block was recalled for "${all[i]}": ${JSON.stringify(got.effects).slice(0, 500)}`);
			out.miss.push(ms);
			out.core.push(got.coreMs);
			out.missFetches += fetches - before;
			out.memories.push(block.split("\n").filter((l) => l.startsWith("- ")).length);
			out.blockBytes.push(Buffer.byteLength(block));
			for (let k = 0; k < retries; k++) {
				const f0 = fetches;
				const r0 = performance.now();
				const env = await core.call("context", { messages: k % 2 === 0 ? [user] : step });
				const rms = performance.now() - r0;
				check("context", env);
				out.retry.push(rms);
				out.retryFetches += fetches - f0;
				if (env.effects.some((e) => e.t === "http") || appended(env.effects) !== block) out.identical = false;
			}
		}
	} finally {
		await core.close();
	}

	// The same retries with Hindsight not configured: what `context` costs without it.
	const off = await startSession(module, project(str(a, "dir"), "off"), "", "", `bench-recall-off-${process.pid}`);
	try {
		let ts = Date.UTC(2026, 10, 20, 9, 0, 0);
		for (const q of [...WARMUP_QUESTIONS.slice(0, WARMUP), ...questions(num(a, "messages", 60))]) {
			ts += 60_000;
			const user = { role: "user", content: q, timestamp: ts };
			for (let k = 0; k < num(a, "retries", 10); k++) {
				const r0 = performance.now();
				check("context", await off.call("context", { messages: [user] }));
				out.off.push(performance.now() - r0);
			}
		}
		return out;
	} finally {
		await off.close();
	}
}

/** What the outbox part measures (ms unless named). */
export interface OutboxResult {
	turnBytes: number;
	off: number[]; // agent_end with Hindsight not configured: what the other stores cost
	idle: number[]; // an export that does nothing (debug ping) after the same pause
	steady: number[];
	steadyBytes: number;
	steadyPending: number;
	backlog: number[];
	backlogBytes: number;
	queued: number;
	flushMs: number;
	/** From the flush's start until the server had no retain operation pending or processing; NaN: not within DRAIN_MS. */
	extractedMs: number;
	flushRounds: number;
	flushRequests: number;
	leftPending: number;
}

const TOOL_OUTPUT = Array.from({ length: 30 }, (_, i) => `func handler${i}(w http.ResponseWriter, r *http.Request) { serve(w, r, ${i}) }`).join("\n");

/** The messages of one run, as pi's agent_end event carries them. */
function turn(i: number, ts: number): unknown[] {
	const c = COMPONENTS[((i % COMPONENTS.length) + COMPONENTS.length) % COMPONENTS.length]!;
	return [
		{ role: "user", content: `Turn ${i}: the ${c} returns 500 on an empty cart; find why and fix it.`, timestamp: ts },
		{ role: "assistant", content: [{ type: "text", text: `I will read the ${c} handlers first.` }, { type: "toolCall", id: `t${i}`, name: "read", arguments: { path: `services/${c.replace(/ /g, "-")}/handlers.go` } }], stopReason: "toolUse", timestamp: ts + 1000 },
		{ role: "toolResult", toolCallId: `t${i}`, toolName: "read", content: [{ type: "text", text: TOOL_OUTPUT }], isError: false, timestamp: ts + 2000 },
		{ role: "assistant", content: [{ type: "text", text: `The ${c} indexed the first cart item without checking the length. I added the check and a test for the empty cart; go test passes.` }], stopReason: "stop", timestamp: ts + 3000 },
	];
}

/** How long the bench waits for the server to work through the retains it accepted. */
const DRAIN_MS = 180_000;

/**
 * Waits until bank has no retain operation pending or processing (GET …/operations,
 * parent batch operations left out); the ms waited, or NaN after timeoutMs or when the
 * server does not say.
 */
async function drained(url: string, bank: string, timeoutMs: number, pollMs = 200): Promise<number> {
	const t0 = performance.now();
	const open = async (status: string): Promise<number> => {
		const res = await fetch(`${url}/v1/default/banks/${encodeURIComponent(bank)}/operations?status=${status}&type=retain&exclude_parents=true&limit=1`);
		const body = (await res.json()) as { total?: unknown };
		if (res.status !== 200 || typeof body.total !== "number") throw new Error(`operations of ${bank} answered ${res.status}`);
		return body.total;
	};
	try {
		while (performance.now() - t0 < timeoutMs) {
			if ((await open("pending")) + (await open("processing")) === 0) return performance.now() - t0;
			await pause(pollMs);
		}
	} catch {
		// the server does not list operations: unknown
	}
	return Number.NaN;
}

/** Jobs without a done record in an outbox file, and its size. */
function outboxState(agent: string): { pending: number; bytes: number } {
	const file = path.join(agent, "pi-memory", "hindsight", "outbox.jsonl");
	let text = "";
	try {
		text = fs.readFileSync(file, "utf8");
	} catch {
		return { pending: 0, bytes: 0 };
	}
	const open = new Set<string>();
	for (const line of text.split("\n")) {
		if (line.trim() === "") continue;
		const r = JSON.parse(line) as { op: string; id: string; bank: string };
		const key = `${r.bank}\n${r.id}`;
		if (r.op === "job") open.add(key);
		else if (r.op === "done") open.delete(key);
	}
	return { pending: open.size, bytes: Buffer.byteLength(text) };
}

/**
 * How long the model takes to answer in the outbox part: pi calls `context` before the
 * request and `agent_end` after the answer, so the module sits idle between them, and a
 * call after idle costs about twice one right after another (docs/benchmarks.md, row 13).
 */
const MODEL_MS = 100;

function pause(ms: number): Promise<void> {
	return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

/**
 * The start of a run as pi sends it, untimed: `before_agent_start` with the prompt, then
 * `context` with the user message (with Hindsight, its recall answered by the server).
 */
async function runStart(core: Core, messages: unknown[]): Promise<void> {
	const user = messages[0] as { content: string };
	await drive(core, "before_agent_start", { prompt: user.content, systemPrompt: "You are pi.", messageType: "user" });
	await drive(core, "context", { messages: [user] });
}

async function agentEnd(core: Core, messages: unknown[]): Promise<{ ms: number; background: Http[] }> {
	const t0 = performance.now();
	const env = await core.call("agent_end", { stopReason: "stop", aborted: false, messages });
	const ms = performance.now() - t0;
	check("agent_end", env);
	const background = env.effects.filter((e): e is Http => e.t === "http" && e.background === true);
	if (env.effects.some((e) => e.t === "http" && e.background !== true)) throw new Error(`agent_end asked for a foreground http request: ${JSON.stringify(env.effects).slice(0, 300)}`);
	return { ms, background };
}

async function outboxPart(a: Args): Promise<OutboxResult> {
	const module = str(a, "module");
	const url = str(a, "url");
	const bank = str(a, "bank");
	const jobs = num(a, "jobs", 200);
	await compileCore(module);
	let ts = Date.UTC(2026, 10, 21, 9, 0, 0);
	const out: OutboxResult = { turnBytes: 0, off: [], idle: [], steady: [], steadyBytes: 0, steadyPending: 0, backlog: [], backlogBytes: 0, queued: 0, flushMs: 0, extractedMs: 0, flushRounds: 0, flushRequests: 0, leftPending: 0 };

	// The same turns without Hindsight: what agent_end costs the other stores, and what
	// an export that does nothing costs after the same pause.
	const off = project(str(a, "dir"), "off");
	let core = await startSession(module, off, "", "", `bench-off-${process.pid}`);
	try {
		for (let i = -WARMUP_TURNS; i < jobs; i++) {
			ts += 60_000;
			const messages = turn(i, ts);
			await runStart(core, messages);
			await pause(MODEL_MS);
			const r = await agentEnd(core, messages);
			if (r.background.length > 0) throw new Error("agent_end asked for a flush with Hindsight not configured");
			await pause(MODEL_MS);
			const t0 = performance.now();
			check("debug", await core.call("debug", { op: "ping" }));
			if (i >= 0) {
				out.off.push(r.ms);
				out.idle.push(performance.now() - t0);
			}
		}
	} finally {
		await core.close();
	}

	// The flush keeps up: each turn as pi runs it, its background flush performed after it.
	const steady = project(str(a, "dir"), "steady");
	core = await startSession(module, steady, url, `${bank}-steady`, `bench-steady-${process.pid}`);
	try {
		let flushed = false;
		for (let i = -WARMUP_TURNS; i < jobs; i++) {
			ts += 60_000;
			const messages = turn(i, ts);
			// The run starts (its recall answered by the server), then the model answers: the
			// time the server takes to extract the facts of the last turn's flush, at least
			// MODEL_MS, so the extraction does not compete with agent_end for the cores.
			await runStart(core, messages);
			const answered = performance.now() + MODEL_MS;
			if (flushed) await drained(url, `${bank}-steady`, DRAIN_MS, 20);
			await pause(answered - performance.now());
			const r = await agentEnd(core, messages);
			if (i >= 0) out.steady.push(r.ms);
			if (i === -WARMUP_TURNS) out.turnBytes = outboxState(steady.agent).bytes;
			// The adapter performs these after its handler returned, and the asks their resumes
			// bring (agent_end's ask of no request resumes into the flush).
			flushed = false;
			for (let asks = r.background; asks.length > 0; ) {
				const next: Http[] = [];
				for (const ask of asks) {
					flushed ||= ask.requests.length > 0;
					const value = await answerHttp(ask.requests);
					next.push(...(await drive(core, "resume", { id: ask.id, value })).background);
				}
				asks = next;
			}
		}
		if (flushed) await drained(url, `${bank}-steady`, DRAIN_MS, 20);
		const st = outboxState(steady.agent);
		out.steadyBytes = st.bytes;
		out.steadyPending = st.pending;
	} finally {
		await core.close();
	}

	// Jobs wait: no background flush is performed, so every turn adds to the queue.
	const backlog = project(str(a, "dir"), "backlog");
	core = await startSession(module, backlog, url, `${bank}-backlog`, `bench-backlog-${process.pid}`);
	try {
		for (let i = -WARMUP_TURNS; i < jobs; i++) {
			ts += 60_000;
			const r = await agentEnd(core, turn(i, ts));
			if (i >= 0) out.backlog.push(r.ms);
			// An ask of no request is answered at once, as the adapter does; the flush it
			// resumes into is never performed.
			for (const ask of r.background) if (ask.requests.length === 0) await drive(core, "resume", { id: ask.id, value: [] });
		}
		const st = outboxState(backlog.agent);
		out.backlogBytes = st.bytes;
		out.queued = st.pending;
		if (st.pending !== jobs + WARMUP_TURNS) throw new Error(`${jobs + WARMUP_TURNS} turns left ${st.pending} pending jobs in the outbox`);

		// The flush: /hindsight flush until nothing is pending (each round sends what is due).
		const t0 = performance.now();
		for (let round = 0; round < 5; round++) {
			const got = await drive(core, "command", { name: "hindsight", argv: ["flush"], hasUI: false });
			out.flushRounds++;
			out.flushRequests += got.effects.filter((e): e is Http => e.t === "http").reduce((n, e) => n + e.requests.length, 0);
			if (outboxState(backlog.agent).pending === 0) break;
		}
		out.flushMs = performance.now() - t0;
		out.leftPending = outboxState(backlog.agent).pending;
		if (out.leftPending > 0) throw new Error(`${out.leftPending} of ${jobs} jobs still pending after ${out.flushRounds} /hindsight flush commands`);
		const wait = await drained(url, `${bank}-backlog`, DRAIN_MS);
		out.extractedMs = Number.isNaN(wait) ? Number.NaN : performance.now() - t0;
		return out;
	} finally {
		await core.close();
	}
}

/** probe.ts hindsight {part: "recall"|"outbox", module, url, bank, dir, …}. */
export function hindsightProbe(a: Args): Promise<object> {
	switch (a.part) {
		case "recall":
			return recallPart(a);
		case "outbox":
			return outboxPart(a);
		default:
			throw new Error(`hindsight: part must be "recall" or "outbox", not ${JSON.stringify(a.part)}`);
	}
}
