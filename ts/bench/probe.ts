// One benchmark measurement in a fresh Node process: ts/bench/main.ts starts
// `node ts/bench/probe.ts MODE 'JSON-ARGS'` for every sample that must not
// inherit a warm JIT, heap or page of memory from an earlier one, and reads
// the single "BENCH-RESULT {…}" line it prints. Samples only: medians,
// percentiles and targets are the report's business.
//
// Modes:
//   lowerbound {log}               read + split + JSON.parse of every line, nothing else
//   anchor     {log}               JSON.parse + replay into Maps, the way a TypeScript store would
//   cold       {module, log, dir}  a new project in dir holding a copy of log; Core → session_start
//   warm       {module, dir}       session_start again on a project a `cold` run left behind
//   hooks      {module, log, dir, calls}        before_agent_start, each call timed
//   first      {module, log, dir, warm}        session_start, then the first and the second
//                                               before_agent_start, each timed (the first pays
//                                               for what the core builds lazily); warm: on the
//                                               project a `cold` run left (its snapshot)
//   load       {module, n}        instantiate() (createPlugin from a compiled module), n times
//   bigsearch  {module, project, agent, queries, calls, maxFirst, worker}  memory_search over many or large
//                                               earlier sessions, driven through its yields as the
//                                               adapter does: until one has read every session, then
//                                               calls more
//   search     {module, log, dir, reps, words}  /decision search WORDS, each query timed
//   notes      {module, dir, calls, reps}       markdown memory: before_agent_start with a
//                                               200-line index and 50 topic files, unchanged and
//                                               after each change; /memory verify of a 5,000-line index
//                                               (PIMEM_PROBE_CMD=pages times /memory pages instead;
//                                               PIMEM_PROBE_MEM=1 prints memory after each)
//   observe    {module, session, dir, calls}    observational memory: the scripted session replayed
//                                               turn by turn, covered compactions, context with
//                                               1,200 observations (ts/bench/observe.ts)
//   hindsight  {part, module, url, bank, dir, …}   the Hindsight lifecycle against a running
//                                               server: recall per turn and per retry, or the
//                                               outbox append and flush (ts/bench/hindsight.ts)
//
// Everything goes through ts/core.ts's Core, as the pi adapter does.

import fs from "node:fs";
import path from "node:path";
import { Core, compileCore, instantiate, type CoreOptions, type Envelope, type ExportName } from "../core.ts";
import { num, str, type Args } from "./args.ts";
import { hindsightProbe } from "./hindsight.ts";
import { observeBench } from "./observe.ts";

// ---- Helpers ----------------------------------------------------------------------

interface Project {
	root: string;
	project: string;
	agent: string;
	log: string;
}

function projectIn(dir: string): Project {
	const root = fs.realpathSync(dir);
	const project = path.join(root, "project");
	return { root, project, agent: path.join(root, "agent"), log: path.join(project, ".pi", "decision-memory", "decisions.jsonl") };
}

/** A fresh project in dir (which must be new or empty) with a copy of log. */
function newProject(dir: string, log: string): Project {
	fs.mkdirSync(dir, { recursive: true });
	const p = projectIn(dir);
	fs.mkdirSync(path.dirname(p.log), { recursive: true });
	fs.mkdirSync(p.agent, { recursive: true });
	fs.copyFileSync(log, p.log);
	return p;
}

function startInput(p: Project): object {
	return { cwd: p.project, agentDir: p.agent, trusted: true, hasUI: false, mode: "print", reason: "startup", flags: { "no-memory": false }, fault: "" };
}

/** A failure the core reports in its envelope is a failed sample, never a fast one. exit is the code the call must end with. */
function check(exportName: string, env: Envelope, exit = 0): Envelope {
	const bad = env.effects.find((e) => e.t === "notify" && e.level === "error");
	if (bad !== undefined || env.exit !== exit) throw new Error(`${exportName}: exit ${env.exit}: ${JSON.stringify(env.effects).slice(0, 500)}`);
	return env;
}

function outputText(env: Envelope): string {
	return env.effects.map((e) => (e.t === "output" ? e.text : "")).join("\n");
}

async function timed(core: Core, exportName: ExportName, input: unknown, exit = 0): Promise<{ ms: number; env: Envelope }> {
	const t0 = performance.now();
	const env = await core.call(exportName, input);
	const ms = performance.now() - t0;
	return { ms, env: check(exportName, env, exit) };
}

/** `decision status --json` as an object, or {} when it is not JSON. */
async function status(core: Core): Promise<Record<string, unknown>> {
	const env = check("command", await core.call("command", { name: "decision", argv: ["status", "--json"], hasUI: false }));
	try {
		return JSON.parse(outputText(env)) as Record<string, unknown>;
	} catch {
		return {};
	}
}

async function memstats(core: Core): Promise<Record<string, unknown>> {
	try {
		const env = await core.call("debug", { op: "memstats" });
		return JSON.parse(outputText(env)) as Record<string, unknown>;
	} catch {
		return {};
	}
}

/** Files under root other than the log: what a session wrote (a snapshot, say). */
function writtenFiles(p: Project): string[] {
	const out: string[] = [];
	const walk = (abs: string, rel: string) => {
		if (!fs.existsSync(abs)) return;
		for (const name of fs.readdirSync(abs).sort()) {
			const a = path.join(abs, name);
			const r = rel === "" ? name : `${rel}/${name}`;
			if (fs.statSync(a).isDirectory()) walk(a, r);
			else if (a !== p.log) out.push(`${r} (${fs.statSync(a).size} bytes)`);
		}
	};
	walk(p.root, "");
	return out;
}

function maxRssBytes(): number {
	return process.resourceUsage().maxRSS * 1024;
}

function cpuMs(since: NodeJS.CpuUsage): number {
	const u = process.cpuUsage(since);
	return (u.user + u.system) / 1000;
}

const PROMPTS = [
	"Fix the failing test in the parser package",
	"Add pagination to the orders endpoint",
	"Why is the build slow on CI?",
	"Rename the config loader and update its callers",
	"Explain how the cache invalidation works here",
];

// ---- Modes ------------------------------------------------------------------------

function lowerBound(a: Args): object {
	const log = str(a, "log");
	const cpu = process.cpuUsage();
	const t0 = performance.now();
	const lines = fs.readFileSync(log, "utf8").split("\n");
	let parsed = 0;
	for (const line of lines) {
		if (line === "") continue;
		if (JSON.parse(line) !== null) parsed++;
	}
	const ms = performance.now() - t0;
	return { ms, cpuMs: cpuMs(cpu), lines: parsed, maxRss: maxRssBytes() };
}

interface AnchorDecision {
	id: string;
	title: string;
	text: string;
	tags: string[];
	status: string;
	reason: string;
	supersededBy: string;
	created: string;
	updated: string;
}

interface AnchorEvent {
	t?: string;
	e?: string;
	i?: string;
	d?: { ti?: string; tx?: string; tg?: string[]; s?: string; r?: string; sb?: string };
}

// A store a TypeScript extension would write: parse every line, replay it into
// an id map plus status and tag indexes. Written for this benchmark.
function anchor(a: Args): object {
	const log = str(a, "log");
	const cpu = process.cpuUsage();
	const t0 = performance.now();
	const byId = new Map<string, AnchorDecision>();
	const byStatus = new Map<string, Set<string>>();
	const byTag = new Map<string, Set<string>>();
	const index = (m: Map<string, Set<string>>, key: string, id: string, on: boolean) => {
		let s = m.get(key);
		if (s === undefined) {
			if (!on) return;
			s = new Set();
			m.set(key, s);
		}
		if (on) s.add(id);
		else s.delete(id);
	};
	const indexAll = (d: AnchorDecision, on: boolean) => {
		index(byStatus, d.status, d.id, on);
		for (const t of d.tags) index(byTag, t, d.id, on);
	};
	let bad = 0;
	for (const line of fs.readFileSync(log, "utf8").split("\n")) {
		if (line === "") continue;
		let ev: AnchorEvent;
		try {
			ev = JSON.parse(line) as AnchorEvent;
		} catch {
			bad++;
			continue;
		}
		const id = ev.i ?? "";
		const d = ev.d ?? {};
		const cur = byId.get(id);
		switch (ev.e) {
			case "a":
				if (cur !== undefined) break;
				{
					const nd: AnchorDecision = {
						id,
						title: d.ti ?? "",
						text: d.tx ?? "",
						tags: d.tg ?? [],
						status: d.s ?? "active",
						reason: d.r ?? "",
						supersededBy: "",
						created: ev.t ?? "",
						updated: ev.t ?? "",
					};
					byId.set(id, nd);
					indexAll(nd, true);
				}
				break;
			case "ed":
			case "st":
			case "su":
				if (cur === undefined) break;
				indexAll(cur, false);
				if (d.ti !== undefined) cur.title = d.ti;
				if (d.tx !== undefined) cur.text = d.tx;
				if (d.tg !== undefined) cur.tags = d.tg;
				if (d.s !== undefined) cur.status = d.s;
				if (d.r !== undefined) cur.reason = d.r;
				if (d.sb !== undefined) cur.supersededBy = d.sb;
				if (ev.t !== undefined && ev.t > cur.updated) cur.updated = ev.t;
				indexAll(cur, true);
				break;
			case "rm":
				if (cur === undefined) break;
				indexAll(cur, false);
				byId.delete(id);
				break;
			default:
				bad++;
		}
	}
	const ms = performance.now() - t0;
	return { ms, cpuMs: cpuMs(cpu), decisions: byId.size, active: byStatus.get("active")?.size ?? 0, bad, maxRss: maxRssBytes() };
}

async function compiled(module: string, options: CoreOptions = {}): Promise<{ core: Core; compileMs: number }> {
	const t0 = performance.now();
	const core = new Core(module, options);
	await compileCore(module);
	return { core, compileMs: performance.now() - t0 };
}

async function cold(a: Args): Promise<object> {
	const p = newProject(str(a, "dir"), str(a, "log"));
	const { core, compileMs } = await compiled(str(a, "module"));
	try {
		const cpu = process.cpuUsage();
		const start = await timed(core, "session_start", startInput(p));
		const startCpu = cpuMs(cpu);
		const mem = core.memoryBytes();
		const heap = await memstats(core);
		const st = await status(core);
		// The rest of a short session, so a core that writes its snapshot at the
		// end of a turn or of the session has done so before `warm` runs.
		await timed(core, "before_agent_start", { prompt: PROMPTS[0], messageType: "user" });
		await timed(core, "session_shutdown", { reason: "quit" });
		return { compileMs, ms: start.ms, cpuMs: startCpu, memBytes: mem, heap, status: st, written: writtenFiles(p), maxRss: maxRssBytes() };
	} finally {
		await core.close();
	}
}

async function warm(a: Args): Promise<object> {
	const p = projectIn(str(a, "dir"));
	const before = fs.statSync(p.log);
	const { core, compileMs } = await compiled(str(a, "module"));
	try {
		const start = await timed(core, "session_start", startInput(p));
		const mem = core.memoryBytes();
		const st = await status(core);
		await timed(core, "session_shutdown", { reason: "quit" });
		const after = fs.statSync(p.log);
		if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) throw new Error(`the log changed during a warm start: ${p.log}`);
		return { compileMs, ms: start.ms, memBytes: mem, status: st, written: writtenFiles(p) };
	} finally {
		await core.close();
	}
}

async function hooks(a: Args): Promise<object> {
	const p = newProject(str(a, "dir"), str(a, "log"));
	const calls = num(a, "calls", 2000);
	const warmup = 50;
	const { core } = await compiled(str(a, "module"));
	try {
		const start = await timed(core, "session_start", startInput(p));
		const bas: number[] = [];
		for (let i = 0; i < warmup + calls; i++) {
			const r = await timed(core, "before_agent_start", { prompt: PROMPTS[i % PROMPTS.length], messageType: "user" });
			if (i >= warmup) bas.push(r.ms);
		}
		return { replayMs: start.ms, memBytes: core.memoryBytes(), before_agent_start: bas };
	} finally {
		await core.close();
	}
}

async function first(a: Args): Promise<object> {
	// warm: the project a `cold` run left behind, with its snapshot.
	const p = a.warm === true ? projectIn(str(a, "dir")) : newProject(str(a, "dir"), str(a, "log"));
	const { core, compileMs } = await compiled(str(a, "module"));
	try {
		const start = await timed(core, "session_start", startInput(p));
		const turn = { prompt: PROMPTS[0], messageType: "user" };
		let cpu = process.cpuUsage();
		const one = await timed(core, "before_agent_start", turn);
		const firstCpu = cpuMs(cpu);
		cpu = process.cpuUsage();
		const two = await timed(core, "before_agent_start", turn);
		const secondCpu = cpuMs(cpu);
		return { compileMs, startMs: start.ms, firstMs: one.ms, firstCpuMs: firstCpu, secondMs: two.ms, secondCpuMs: secondCpu };
	} finally {
		await core.close();
	}
}

async function load(a: Args): Promise<object> {
	const module = str(a, "module");
	const n = num(a, "n", 30);
	const t0 = performance.now();
	const mod = await compileCore(module);
	const compileMs = performance.now() - t0;
	const ms: number[] = [];
	for (let i = 0; i < n; i++) {
		const t = performance.now();
		const inst = await instantiate(mod);
		ms.push(performance.now() - t);
		await inst.plugin.close();
	}
	return { compileMs, ms, fileBytes: fs.statSync(module).size };
}

async function search(a: Args): Promise<object> {
	const p = newProject(str(a, "dir"), str(a, "log"));
	const reps = num(a, "reps", 7);
	const words = a.words;
	if (!Array.isArray(words) || words.length === 0) throw new Error("argument words (a list) is required");
	const { core } = await compiled(str(a, "module"));
	try {
		const start = await timed(core, "session_start", startInput(p));
		const queries: Array<{ word: string; ms: number[]; lines: number }> = [];
		for (const w of words) {
			const q = { word: String(w), ms: [] as number[], lines: 0 };
			for (let r = 0; r < reps; r++) {
				const got = await timed(core, "command", { name: "decision", argv: ["search", ...String(w).split(" ")], hasUI: false });
				q.ms.push(got.ms);
				q.lines = outputText(got.env).split("\n").length;
			}
			queries.push(q);
		}
		return { replayMs: start.ms, queries };
	} finally {
		await core.close();
	}
}

/**
 * Row 15: memory_search over the project `host/cmd/bench memsearch-data` made (args: the
 * JSON it printed, module, calls). The first search builds the index and is timed alone;
 * then calls searches rotate over its queries.
 */
async function memsearch(a: Args): Promise<object> {
	const project = str(a, "project");
	const agent = str(a, "agent");
	const queries = a.queries;
	if (!Array.isArray(queries) || queries.length === 0) throw new Error("argument queries (a list) is required");
	const calls = num(a, "calls", 200);
	// worker false: the core stays on this thread (PIMEM_WORKER=off), for the comparison.
	const { core } = await compiled(str(a, "module"), a.worker === false ? { worker: false } : {});
	try {
		// As pi in its terminal or over RPC (a worker thread when the project asks for one);
		// the first prompt comes right after the start, where a person would take seconds.
		const start = await timed(core, "session_start", { cwd: project, agentDir: agent, trusted: true, hasUI: false, mode: "rpc", reason: "startup", sessionId: "bench-now" });
		const prompt = await timed(core, "before_agent_start", { prompt: "How do we run database migrations?", messageType: "user" });
		const memStartBytes = core.memoryBytes();
		const heapStart = await memstats(core);
		const search = async (q: unknown) => {
			const got = await searchInSlices(core, String(q));
			if (!got.text.includes("matches for")) throw new Error(`memory_search found nothing: ${got.text.slice(0, 300)}`);
			return { ms: got.ms, hits: got.text.split("\n").length - 1 };
		};
		const loop = heldLoop();
		const first = await search(queries[0]);
		const firstHeldMs = loop.stop();
		const memFirstBytes = core.memoryBytes();
		const heapFirst = await memstats(core);
		const ms: number[] = [];
		let hits = 0;
		for (let i = 0; i < calls; i++) {
			const got = await search(queries[i % queries.length]);
			ms.push(got.ms);
			hits = got.hits;
		}
		const heap = await memstats(core);
		return {
			startMs: start.ms,
			promptMs: prompt.ms,
			firstMs: first.ms,
			firstHeldMs,
			thread: core.thread,
			ms,
			hits,
			indexLines: num(a, "indexLines", 0),
			sessions: num(a, "sessions", 0),
			messages: num(a, "messages", 0),
			memBytes: core.memoryBytes(),
			heapBytes: Number(heap.heapAlloc ?? 0),
			memStartBytes,
			heapStartBytes: Number(heapStart.heapAlloc ?? 0),
			memFirstBytes,
			heapFirstBytes: Number(heapFirst.heapAlloc ?? 0),
		};
	} finally {
		await core.close();
	}
}

/**
 * One memory_search driven as the adapter drives a tool call (decision 018): every http ask of
 * no request the core returns (its next slice) is answered after a macrotask (setImmediate, as
 * ts/index.ts does) and resumed, until the tool result. ms is the whole search; longestMs the
 * longest core call; calls how many core calls it took.
 */
async function searchInSlices(core: Core, query: string): Promise<{ text: string; ms: number; longestMs: number; calls: number }> {
	const t0 = performance.now();
	let longestMs = 0;
	let calls = 0;
	const step = async (exportName: ExportName, input: unknown): Promise<Envelope> => {
		const t = performance.now();
		const env = await core.call(exportName, input);
		const d = performance.now() - t;
		if (process.env.PIMEM_PROBE_CALLS) process.stderr.write(`${calls}:${d.toFixed(0)} `); // each call's ms, to find the long ones
		longestMs = Math.max(longestMs, d);
		calls++;
		return env;
	};
	let env = await step("tool", { name: "memory_search", params: { query } });
	for (;;) {
		const r = env.effects.find((e) => e.t === "tool_result");
		if (r !== undefined && r.t === "tool_result") return { text: r.text, ms: performance.now() - t0, longestMs, calls };
		const ask = env.effects.find((e) => e.t === "http" && e.background !== true);
		if (ask === undefined || ask.t !== "http" || ask.requests.length > 0) throw new Error(`memory_search: no tool result and no empty ask: ${JSON.stringify(env.effects).slice(0, 300)}`);
		await new Promise((r) => setImmediate(r));
		env = await step("resume", { id: ask.id, value: [] });
	}
}

/**
 * How long this thread's event loop is held at a stretch from now until stop(): the largest
 * gap between the ticks of a 1 ms interval (what pi's RPC answers, its terminal and its
 * timers would wait at most).
 */
function heldLoop(): { stop: () => number } {
	let last = performance.now();
	let held = 0;
	const tick = setInterval(() => {
		const now = performance.now();
		held = Math.max(held, now - last);
		last = now;
	}, 1);
	return {
		stop: () => {
			held = Math.max(held, performance.now() - last);
			clearInterval(tick);
			return held;
		},
	};
}

/**
 * Row 17: memory_search over the earlier sessions `host/cmd/bench bigsearch-data` made (args:
 * the JSON it printed, module, calls, query). Each search is driven as the adapter drives a
 * tool call: every foreground ask the core returns is answered and resumed (an http ask of no
 * request after a macrotask, as ts/index.ts does), until the tool result. For each search:
 * its wall time, the longest single core call, the core calls it took, and the longest the
 * event loop was held at a stretch meanwhile (the largest gap between the ticks of a 1 ms
 * interval: what pi's RPC answers, its TUI and its timers waited at most).
 */
async function bigsearch(a: Args): Promise<object> {
	const project = str(a, "project");
	const agent = str(a, "agent");
	const queries = (Array.isArray(a.queries) ? a.queries : []).map(String);
	if (typeof a.query === "string") queries.unshift(a.query);
	if (queries.length === 0) throw new Error("argument queries (a list) or query is required");
	const calls = num(a, "calls", 20);
	// worker false: the core stays on this thread and the search runs in slices here.
	const { core } = await compiled(str(a, "module"), a.worker === false ? { worker: false } : {});
	try {
		const start = await timed(core, "session_start", { cwd: project, agentDir: agent, trusted: true, hasUI: false, mode: "rpc", reason: "startup", sessionId: "bench-now" });
		const memStartBytes = core.memoryBytes();
		const searches: Array<{ ms: number; longestMs: number; coreCalls: number; heldMs: number; unread: string; hits: number }> = [];
		// Until a search has read every session (at most maxFirst searches), then calls more.
		const maxFirst = num(a, "maxFirst", 40);
		let settled = -1;
		for (let i = 0; settled < 0 ? i < maxFirst : i < settled + calls; i++) {
			const q = queries[i % queries.length]!;
			const loop = heldLoop();
			const { text, ms, longestMs: longest, calls: n } = await searchInSlices(core, q);
			const held = loop.stop();
			const unread = /Not searched: .*$/m.exec(text)?.[0] ?? "";
			// A search that read nothing within its slices (a loaded machine) says so and
			// finds nothing yet: the next one reads on. Nothing found with everything read is
			// the probe's failure.
			if (!text.includes("matches for") && !/earlier sessions?, not read/.test(unread)) throw new Error(`memory_search found nothing: ${text.slice(0, 300)}`);
			searches.push({ ms, longestMs: longest, coreCalls: n, heldMs: held, unread, hits: text.match(/^\d+\. /gm)?.length ?? 0 });
			if (settled < 0 && !/earlier sessions?, not read/.test(unread)) settled = i + 1;
			// Let the interval's ticks settle before the next search.
			await new Promise((r) => setTimeout(r, 5));
		}
		const heap = await memstats(core);
		return { startMs: start.ms, searches, settled, memStartBytes, memBytes: core.memoryBytes(), heapBytes: Number(heap.heapAlloc ?? 0), maxRss: maxRssBytes(), sessions: num(a, "sessions", 0), bigBytes: num(a, "bigBytes", 0), thread: core.thread };
	} finally {
		await core.close();
	}
}

// ---- Markdown memory ----------------------------------------------------------------

const TOPICS = ["build", "deploy", "testing", "style", "database", "api", "security", "release", "ci", "observability"];

/** A realistic index: `lines` lines in sections of bullets, some pointing at topic files. */
function memoryIndex(lines: number, topics: number): string {
	const out: string[] = ["# Project memory", ""];
	let n = 0;
	while (out.length < lines) {
		const topic = TOPICS[n % TOPICS.length]!;
		out.push(`## ${topic[0]!.toUpperCase()}${topic.slice(1)} ${Math.floor(n / TOPICS.length) + 1}`);
		for (let i = 0; i < 8 && out.length < lines - 1; i++, n++) {
			out.push(
				n % 5 === 0 && topics > 0
					? `- [${topic} notes ${n}](topic-${n % topics}.md) — the ${topic} details for case ${n}, read when touching it`
					: `- Fact ${n} about ${topic}: run \`make ${topic}\` before pushing; it checks item ${n} and its ${i} neighbours`,
			);
		}
		out.push("");
	}
	return `${out.slice(0, lines).join("\n")}\n`;
}

async function notesBench(a: Args): Promise<object> {
	fs.mkdirSync(str(a, "dir"), { recursive: true });
	const root = fs.realpathSync(str(a, "dir"));
	const project = path.join(root, "project");
	const agent = path.join(root, "agent");
	const mem = path.join(project, ".pi", "memory");
	fs.mkdirSync(path.join(project, ".git"), { recursive: true });
	fs.mkdirSync(mem, { recursive: true });
	fs.mkdirSync(agent, { recursive: true });
	const topics = 50;
	for (let i = 0; i < topics; i++) fs.writeFileSync(path.join(mem, `topic-${i}.md`), `# Topic ${i}\n\n${memoryIndex(30, 0)}`);
	if (process.env.PIMEM_PROBE_CONFIG) fs.writeFileSync(path.join(mem, "config.json"), process.env.PIMEM_PROBE_CONFIG);
	const index = path.join(mem, "MEMORY.md");
	const base = memoryIndex(200, topics);
	fs.writeFileSync(index, base);
	const calls = num(a, "calls", 500);
	const reps = num(a, "reps", 15);
	const { core } = await compiled(str(a, "module"));
	try {
		await timed(core, "session_start", { cwd: project, agentDir: agent, home: root, trusted: true, hasUI: false, mode: "print", reason: "startup", flags: {} });
		const turn = { prompt: "How do I release?", messageType: "user" };
		const first = await timed(core, "before_agent_start", turn);
		const block = first.env.effects.find((e) => e.t === "system_prompt_append");
		const blockBytes = block !== undefined && block.t === "system_prompt_append" ? Buffer.byteLength(block.text) : 0;
		if (!(block !== undefined && block.t === "system_prompt_append" && block.text.includes("### Project MEMORY.md"))) throw new Error("the index was not injected");
		for (let i = 0; i < 20; i++) await timed(core, "before_agent_start", turn);
		const cached: number[] = [];
		for (let i = 0; i < calls; i++) cached.push((await timed(core, "before_agent_start", turn)).ms);
		// After a change: every call sees a different index (one line more or less).
		const changed: number[] = [];
		const extra = "- A line that comes and goes, so the size changes\n";
		for (let i = 0; i < calls; i++) {
			fs.writeFileSync(index, i % 2 === 0 ? base + extra : base);
			changed.push((await timed(core, "before_agent_start", turn)).ms);
			if (process.env.PIMEM_PROBE_MEM && i % 250 === 249) process.stderr.write(`changed ${i + 1}: memory ${core.memoryBytes() >> 20} MiB, heap ${JSON.stringify(await memstats(core))}\n`);
		}
		// Page-table rebuild of a 5,000-line index: read, parse, build, encode, write.
		const big = memoryIndex(5000, topics);
		const rebuild: number[] = [];
		for (let i = 0; i < reps; i++) {
			fs.writeFileSync(index, i % 2 === 0 ? big : big + extra);
			// verify exits 1 on purpose here: the index is far over its injection caps,
			// which it reports as its one problem after rebuilding the table.
			const verify = !process.env.PIMEM_PROBE_CMD;
			const r = await timed(core, "command", { name: "memory", argv: [process.env.PIMEM_PROBE_CMD ?? "verify"], hasUI: false }, verify ? 1 : 0);
			if (verify) {
				const text = outputText(r.env);
				const problems = text.split("\n").filter((l) => l.startsWith("problem: "));
				if (!text.includes("Rebuilt the page tables") || problems.length !== 1 || !problems[0]!.includes("only part of it is injected")) throw new Error(`verify: ${text}`);
			}
			rebuild.push(r.ms);
			if (process.env.PIMEM_PROBE_MEM) process.stderr.write(`rep ${i}: ${r.ms.toFixed(0)} ms, memory ${core.memoryBytes() >> 20} MiB, heap ${JSON.stringify(await memstats(core))}\n`);
		}
		return { blockBytes, indexBytes: Buffer.byteLength(base), bigBytes: Buffer.byteLength(big), cached, changed, rebuild, memBytes: core.memoryBytes(), heap: await memstats(core) };
	} finally {
		await core.close();
	}
}

/** A build log of about `bytes` bytes, the shape of a pasted one. */
function buildLog(bytes: number, kind: string): string {
	if (kind.startsWith("repeat:")) return kind.slice("repeat:".length).repeat(Math.ceil(bytes / (kind.length - 7))).slice(0, bytes);
	const lines: string[] = [];
	let n = 0;
	for (let i = 0; n < bytes; i++) {
		const l =
			kind === "env"
				? `SERVICE_${i}_API_KEY=k${i}x${(i * 7919) % 100000} url=https://h${i % 13}.example/?key=&token=${i}`
				: `2026-11-20T09:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")} INFO request id=${i} user=u${i % 97} path=/api/v1/items?page=${i % 13} status=200 dur=${i % 500}ms`;
		lines.push(l);
		n += l.length + 1;
	}
	return lines.join("\n").slice(0, bytes);
}

// A turn whose prompt is a big pasted text, in a small project (the core on pi's thread):
// each export a turn calls, timed, with the text in its messages as pi hands them.
async function paste(a: Args): Promise<object> {
	fs.mkdirSync(str(a, "dir"), { recursive: true });
	const root = fs.realpathSync(str(a, "dir"));
	const project = path.join(root, "project");
	const agent = path.join(root, "agent");
	fs.mkdirSync(path.join(project, ".git"), { recursive: true });
	fs.mkdirSync(agent, { recursive: true });
	const text = buildLog(num(a, "bytes", 8 << 20), typeof a.kind === "string" ? a.kind : "log");
	const { core } = await compiled(str(a, "module"), { worker: false });
	const ms: Record<string, number> = {};
	try {
		await timed(core, "session_start", { cwd: project, agentDir: agent, home: root, trusted: true, hasUI: false, mode: "print", reason: "startup", flags: {}, sessionId: "paste" });
		// parts > 1: the text as that many tool results of one turn (a long session's reads).
		const parts = num(a, "parts", 1);
		const size = Math.ceil(text.length / parts);
		const prompt = parts === 1 ? text : "why did the build fail?";
		const user = { role: "user", content: [{ type: "text", text: prompt }], timestamp: 1 };
		const messages: object[] = [user];
		for (let i = 0; parts > 1 && i < parts; i++) {
			messages.push({ role: "assistant", content: [{ type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `f${i}.log` } }], stopReason: "toolUse", timestamp: 2 + i });
			messages.push({ role: "toolResult", toolCallId: `c${i}`, toolName: "read", content: [{ type: "text", text: text.slice(i * size, (i + 1) * size) }], isError: false, timestamp: 2 + i });
		}
		messages.push({ role: "assistant", content: [{ type: "text", text: "fine" }], stopReason: "stop", timestamp: 3 + parts });
		const branch = messages.map((message, i) => ({ type: "message", id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}`, timestamp: "2026-12-03T10:00:00.000Z", message }));
		ms.before_agent_start = (await timed(core, "before_agent_start", { prompt, messageType: "user" })).ms;
		ms.context = (await timed(core, "context", { messages: messages.slice(0, -1) })).ms;
		ms.agent_end = (await timed(core, "agent_end", { stopReason: "stop", aborted: false, messages })).ms;
		ms.agent_settled = (await timed(core, "agent_settled", { branch, window: 200000, aborted: false })).ms;
		return { bytes: text.length, ms, memBytes: core.memoryBytes() };
	} finally {
		await core.close();
	}
}

// ---- Main -------------------------------------------------------------------------

const MODES: Record<string, (a: Args) => object | Promise<object>> = { lowerbound: lowerBound, anchor, cold, warm, hooks, first, load, search, memsearch, bigsearch, notes: notesBench, paste, observe: (a) => observeBench(str(a, "module"), str(a, "session"), str(a, "dir"), num(a, "calls", 2000)), hindsight: hindsightProbe };

async function main(): Promise<void> {
	const mode = process.argv[2] ?? "";
	const run = MODES[mode];
	if (run === undefined) {
		process.stderr.write(`usage: node ts/bench/probe.ts ${Object.keys(MODES).join("|")} 'JSON-ARGS'\n`);
		process.exit(2);
	}
	const args = JSON.parse(process.argv[3] ?? "{}") as Args;
	const result = await run(args);
	process.stdout.write(`BENCH-RESULT ${JSON.stringify(result)}\n`);
}

main().catch((err: unknown) => {
	process.stderr.write(`probe ${process.argv[2] ?? ""}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
	process.exit(1);
});
