// `make bench`: every performance figure we track, for both builds of the
// core, measured in one run, printed as a table and written to
// docs/benchmarks.md. build/bench.sh prepares the toolchains, the modules, the
// datasets and the Go benchmark binary, then runs:
//
//   node ts/bench/main.ts --data DIR --gobench BIN [--tinygo BIN] [--out docs/benchmarks.md]
//
// Each sample runs in a child process (ts/bench/probe.ts, ts/bench/pi.ts, the
// Go host's host/cmd/bench) with a timeout; a failed step is reported as ERROR
// and the run goes on. Ratios compare figures taken in this same run, never a
// single absolute time. Nothing here asserts on speed: a missed target prints
// MISS, and the exit code is non-zero only when a measurement could not be
// taken. Environment:
//
//   BENCH_QUICK=1      skip the 1M-event steps (replay, memory, snapshot start)
//   BENCH_REPS=9       fresh-process repetitions of the 100k cold replay
//   BENCH_REPS_1M=3    … of the 1M cold replay
//   BENCH_WARM_REPS=5  fresh-process session starts on a project with a snapshot
//   BENCH_PI_PAIRS=20  paired `pi -p` rounds (row 1's target needs at least 20)
//   BENCH_CALLS=2000   calls per hook for the p50/p99 figures
//   BENCH_IMPORT_SESSIONS=1000  sessions in the generated agent dir of the import row
//   BENCH_ONLY=12,13   only the steps of these rows (the table is printed, the report left as it is)
//   BENCH_HS_*         the Hindsight rows' knobs (ts/bench/hindsight.ts)

import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { envInt } from "./args.ts";
import type { ImportResult } from "./hsimport.ts";
import { methodLines as hindsightMethod, stepHindsight } from "./hindsight.ts";
import { methodLine as conversationsMethod, stepConversations } from "./conversations.ts";
import type { ObserveResult } from "./observe.ts";
import { type McpSearch, type McpStart, mcpSearch, mcpStart } from "./mcp.ts";
import type { Row, RowInput, Verdict } from "./row.ts";
import { fmtBytes, fmtMB, fmtMs, fmtRatio, max, median, quantile } from "./stats.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const HERE = fileURLToPath(new URL("./", import.meta.url));

// ---- Configuration ----------------------------------------------------------------

function flag(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 ? process.argv[i + 1] : undefined;
}

/** `/memory verify` runs of the 5,000-line index (row 10). */
const NOTES_REBUILDS = 15;

const CFG = {
	data: flag("data") ?? path.join(os.homedir(), ".cache", "pi-memory", "bench-data"),
	gobench: flag("gobench") ?? "",
	tinygo: flag("tinygo") ?? "",
	pimem: flag("pimem") ?? "",
	hindsightHome: flag("hindsight-home") ?? "",
	out: path.resolve(REPO, flag("out") ?? "docs/benchmarks.md"),
	quick: process.env.BENCH_QUICK === "1",
	reps: envInt("BENCH_REPS", 9, 1),
	reps1m: envInt("BENCH_REPS_1M", 3, 1),
	warmReps: envInt("BENCH_WARM_REPS", 5, 1),
	piPairs: envInt("BENCH_PI_PAIRS", 20, 1),
	calls: envInt("BENCH_CALLS", 2000, 10),
	importSessions: envInt("BENCH_IMPORT_SESSIONS", 1000, 1),
	only: onlyRows(process.env.BENCH_ONLY),
};

/** BENCH_ONLY=12,13: the rows whose steps run; undefined runs them all. */
function onlyRows(v: string | undefined): Set<string> | undefined {
	if (v === undefined || v.trim() === "") return undefined;
	const ns = v.split(/[\s,]+/).filter((x) => x !== "");
	const bad = ns.find((x) => !/^([1-9]|1[0-9]|20)$/.test(x));
	if (bad !== undefined) throw new Error(`BENCH_ONLY=${v}: expected row numbers 1–20, separated by commas`);
	return new Set(ns);
}

/** Whether a step measuring any of these rows runs. */
function wants(...ns: string[]): boolean {
	return CFG.only === undefined || ns.some((n) => CFG.only!.has(n));
}

const BUILDS = [
	{ name: "TinyGo", module: path.join(REPO, "ts", "core.wasm") },
	{ name: "Go", module: path.join(REPO, "build", "out", "core-go.wasm") },
];

const DATA = {
	log1k: path.join(CFG.data, "events-1k.jsonl"),
	log100k: path.join(CFG.data, "events-100k.jsonl"),
	log1m: path.join(CFG.data, "events-1m.jsonl"),
	adds100k: path.join(CFG.data, "adds-100k.jsonl"),
};

const SEARCH_QUERIES = ["PostgreSQL", "cache", "Playwright tests", "migrations", "webhooks signed", "Vault tag:security", "onboarding", "nonexistentword"];

// ---- Child processes --------------------------------------------------------------

const running = new Set<ChildProcess>();
let tmpRoot = "";
let stopping = false; // a signal arrived: start nothing more

function cleanup(): void {
	for (const c of running) {
		if (c.pid !== undefined && c.exitCode === null && c.signalCode === null) {
			try {
				process.kill(c.pid, "SIGKILL");
			} catch {
				// already gone
			}
		}
	}
	if (tmpRoot !== "") fs.rmSync(tmpRoot, { recursive: true, force: true });
}

process.on("exit", cleanup);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
	process.on(sig, () => {
		stopping = true;
		process.stderr.write(`\n[bench] ${sig}: stopping the children and removing ${tmpRoot}\n`);
		// SIGTERM first: pi.ts ends its own pi processes on it.
		for (const c of running) if (c.pid !== undefined) tryKill(c.pid, "SIGTERM");
		setTimeout(() => process.exit(sig === "SIGINT" ? 130 : 143), 1500).unref();
	});
}

function tryKill(pid: number, sig: NodeJS.Signals): void {
	try {
		process.kill(pid, sig);
	} catch {
		// already gone
	}
}

const NODE_FLAGS = ["--disable-warning=ExperimentalWarning"];

/**
 * Runs a child to completion and returns the JSON it printed: the line after
 * "BENCH-RESULT ", else its whole stdout. Rejects on a non-zero exit or a
 * timeout (the child gets SIGTERM, then SIGKILL 5 s later, by PID).
 */
function runChild(cmd: string, args: string[], timeoutMs: number, label: string): Promise<unknown> {
	return new Promise((resolve, reject) => {
		if (stopping) return reject(new Error(`${label}: not started, the run is stopping`));
		const child = spawn(cmd, args, { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
		running.add(child);
		let stdout = "";
		let stderr = "";
		let timedOut = false;
		child.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
		child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr = (stderr + d).slice(-8000)));
		const timer = setTimeout(() => {
			timedOut = true;
			if (child.pid !== undefined) {
				tryKill(child.pid, "SIGTERM");
				const pid = child.pid;
				setTimeout(() => tryKill(pid, "SIGKILL"), 5000).unref();
			}
		}, timeoutMs);
		child.once("error", (err) => {
			clearTimeout(timer);
			running.delete(child);
			reject(new Error(`${label}: could not start ${cmd}: ${err.message}`));
		});
		child.once("close", (code, signal) => {
			clearTimeout(timer);
			running.delete(child);
			if (timedOut) return reject(new Error(`${label}: timed out after ${Math.round(timeoutMs / 1000)} s`));
			if (code !== 0) return reject(new Error(`${label}: exited ${code ?? signal}: ${lastLines(stderr, 6)}`));
			const marked = stdout.split("\n").find((l) => l.startsWith("BENCH-RESULT "));
			try {
				resolve(JSON.parse(marked !== undefined ? marked.slice("BENCH-RESULT ".length) : stdout));
			} catch {
				reject(new Error(`${label}: printed no result: ${lastLines(stdout + stderr, 6)}`));
			}
		});
	});
}

function lastLines(s: string, n: number): string {
	return s.trim().split("\n").slice(-n).join(" | ");
}

function probe(mode: string, args: object, timeoutMs: number, label: string): Promise<unknown> {
	return runChild(process.execPath, [...NODE_FLAGS, path.join(HERE, "probe.ts"), mode, JSON.stringify(args)], timeoutMs, label);
}

function gobench(sub: string, args: string[], timeoutMs: number, label: string): Promise<unknown> {
	if (CFG.gobench === "") return Promise.reject(new Error(`${label}: no Go benchmark binary (--gobench)`));
	// One wazero compilation cache per run: the first call of a build compiles, the others reuse it.
	return runChild(CFG.gobench, [sub, "-cache", path.join(tmpRoot, "wazero-cache"), ...args], timeoutMs, label);
}

function progress(msg: string): void {
	const t = ((performance.now() - T0) / 1000).toFixed(0).padStart(4);
	process.stderr.write(`[bench ${t}s] ${msg}\n`);
}

function errText(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}

// ---- Result shapes (what the children print) --------------------------------------

interface LowerBound {
	ms: number;
	cpuMs: number;
	lines: number;
	maxRss: number;
}
interface Anchor extends LowerBound {
	decisions: number;
	active: number;
}
interface Cold {
	compileMs: number;
	ms: number;
	cpuMs: number;
	memBytes: number;
	heap: Record<string, number>;
	status: Record<string, unknown>;
	written: string[];
	maxRss: number;
}
interface Warm {
	ms: number;
	memBytes: number;
	status: Record<string, unknown>;
	written: string[];
}
interface Paste {
	bytes: number;
	ms: Record<string, number>;
	memBytes: number;
}
interface Hooks {
	replayMs: number;
	memBytes: number;
	before_agent_start: number[];
}
interface Load {
	compileMs: number;
	ms: number[];
}
interface Search {
	replayMs: number;
	queries: Array<{ word: string; ms: number[]; lines: number }>;
}
interface MemSearch {
	startMs: number;
	firstMs: number;
	/** pi's host only: the first prompt's call (where the core moves to a worker thread). */
	promptMs?: number;
	/** pi's host only: the longest its event loop was held at a stretch during the first search. */
	firstHeldMs?: number;
	thread?: string;
	ms: number[];
	hits: number;
	indexLines: number;
	sessions: number;
	messages: number;
	memBytes: number;
	heapFirstBytes: number;
}
/** memory_search calls of row 15, after the first (which builds the index). */
const MEMSEARCH_CALLS = 200;
interface BigSearch {
	startMs: number;
	searches: Array<{ ms: number; longestMs: number; coreCalls: number; heldMs: number; unread: string; hits: number }>;
	settled: number;
	memBytes: number;
	heapBytes: number;
	maxRss: number;
	sessions: number;
	bigBytes: number;
	/** Where the core ran at the end: "worker" once a search moved it there. */
	thread: string;
}
/** Row 17: earlier sessions, and searches after the one that has read them all. */
const BIG_SESSIONS = 20_000;
const BIG_CALLS = 20;
interface First {
	startMs: number;
	firstMs: number;
	secondMs: number;
	firstCpuMs: number;
	secondCpuMs: number;
}
interface GoReplay {
	compileMs: number;
	samples: Array<{ ms: number; memBytes: number }>;
}
interface PiRuns {
	with: number[];
	without: number[];
	empty: number[];
	diffs: number[];
	emptyDiffs: number[];
	ownDiffs: number[];
	cpuDiffs: number[];
	ownCpuDiffs: number[];
	ownMainCpuDiffs: number[];
	rssDiffs: number[];
	injectedLines: number;
}
interface Notes {
	blockBytes: number;
	indexBytes: number;
	bigBytes: number;
	cached: number[];
	changed: number[];
	rebuild: number[];
	memBytes: number;
	heap: Record<string, number>;
}
interface SimSplit {
	pairs: number;
	duplicate: { precision: number; recall: number; f1: number };
	conflict: { precision: number; recall: number; f1: number };
	line: string;
}

/** A measurement: its value, or why it is missing. */
type Got<T> = { ok: true; v: T } | { ok: false; err: string };

async function got<T>(p: Promise<unknown>): Promise<Got<T>> {
	try {
		return { ok: true, v: (await p) as T };
	} catch (err) {
		progress(`ERROR ${errText(err)}`);
		return { ok: false, err: errText(err) };
	}
}

function gotAll<T>(xs: Array<Got<T>>): Got<T[]> {
	const bad = xs.find((x) => !x.ok);
	if (bad !== undefined && !bad.ok) return { ok: false, err: bad.err };
	return { ok: true, v: xs.map((x) => (x as { ok: true; v: T }).v) };
}

// ---- The report's rows ------------------------------------------------------------

const rows: Row[] = [];
let errors = 0;

function row(r: RowInput): void {
	const full: Row = { build: "", host: "", target: "", verdict: "info", note: "", ...r };
	if (full.verdict === "ERROR") errors++;
	rows.push(full);
}

function errorRow(n: string, what: string, build: string, host: string, target: string, err: string): void {
	row({ n, what, build, host, target, result: "—", verdict: "ERROR", note: err });
}

/** PASS when value is under (or at, if inclusive) the limit; the note says by how much it missed. */
function judge(value: number, limit: number, inclusive = false): { verdict: Verdict; note: string } {
	if (!Number.isFinite(value)) return { verdict: "ERROR", note: "no value" };
	const pass = inclusive ? value <= limit : value < limit;
	return { verdict: pass ? "PASS" : "MISS", note: pass ? "" : `${fmtRatio(value / limit)} the target` };
}

/** PASS when value is at least the floor. */
function judgeAtLeast(value: number, floor: number): { verdict: Verdict; note: string } {
	if (!Number.isFinite(value)) return { verdict: "ERROR", note: "no value" };
	return value >= floor ? { verdict: "PASS", note: "" } : { verdict: "MISS", note: `${(floor - value).toFixed(2)} below the target` };
}

// ---- Machine ----------------------------------------------------------------------

const T0 = performance.now();
const loadSamples: number[] = [];

function cmdOut(cmd: string, args: string[]): string {
	try {
		return execFileSync(cmd, args, { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 }).trim();
	} catch (err) {
		return `unknown (${errText(err).split("\n")[0]})`;
	}
}

function machine(): Record<string, string> {
	const cpus = os.cpus();
	let distro = "";
	try {
		distro = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(fs.readFileSync("/etc/os-release", "utf8"))?.[1] ?? "";
	} catch {
		// not Linux, or no os-release
	}
	const piLauncher = process.env.PI_BIN ?? path.join(process.env.PIMEM_CACHE ?? path.join(os.homedir(), ".cache", "pi-memory"), "pi-1.6.0", "pi");
	const dirty = cmdOut("git", ["status", "--porcelain", "--untracked-files=no"]) === "" ? "" : " + uncommitted changes";
	return {
		CPU: cpus[0]?.model ?? "unknown",
		Cores: String(cpus.length),
		Memory: `${(os.totalmem() / (1 << 30)).toFixed(1)} GiB`,
		OS: `${distro || os.type()} (${os.type()} ${os.release()}, ${os.arch()})`,
		Node: process.version,
		Go: cmdOut("go", ["version"]).replace(/^go version /, ""),
		TinyGo: CFG.tinygo === "" ? "unknown (--tinygo not given)" : cmdOut(CFG.tinygo, ["version"]).replace(/^tinygo version /, ""),
		pi: cmdOut(piLauncher, ["--version"]),
		Commit: `${cmdOut("git", ["rev-parse", "--short", "HEAD"])}${dirty}`,
		Date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
	};
}

// ---- The steps --------------------------------------------------------------------

function tmpDir(name: string): string {
	return path.join(tmpRoot, name);
}

function rm(dir: string): void {
	fs.rmSync(dir, { recursive: true, force: true });
}

const MIN = 60_000;

async function stepSimilarity(): Promise<void> {
	progress("8 similarity: precision and recall on testdata/similarity/pairs.jsonl");
	const r = await got<Record<string, SimSplit>>(gobench("similarity", ["-pairs", path.join(REPO, "testdata", "similarity", "pairs.jsonl")], 2 * MIN, "similarity"));
	const what = "near-duplicate detection, labelled pairs";
	if (!r.ok) return errorRow("8", what, "—", "native Go", "duplicate precision ≥ 0.90", r.err);
	for (const [split, label] of [
		["all", "all pairs"],
		["test", "held-out pairs"],
	] as const) {
		const s = r.v[split];
		if (s === undefined || s.pairs === 0) continue;
		const j = judgeAtLeast(s.duplicate.precision, 0.9);
		row({
			n: "8",
			what: `${what} (${label}, ${s.pairs})`,
			build: "—",
			host: "native Go",
			result: `duplicate P ${s.duplicate.precision.toFixed(2)} R ${s.duplicate.recall.toFixed(2)}; conflict P ${s.conflict.precision.toFixed(2)} R ${s.conflict.recall.toFixed(2)}`,
			target: "duplicate precision ≥ 0.90",
			...j,
		});
	}
}

async function stepLoad(): Promise<void> {
	for (const b of BUILDS) {
		const size = fs.statSync(b.module).size;
		if (b.name === "TinyGo") row({ n: "6", what: "module file size", build: b.name, host: "file", result: fmtMB(size), target: "< 2 MB", ...judge(size, 2e6) });
		else row({ n: "6", what: "module file size", build: b.name, host: "file", result: fmtMB(size), target: "", note: "not shipped" });
	}
	for (const b of BUILDS) {
		progress(`6 module load (${b.name}): instantiate from a compiled module, Node`);
		const r = await got<Load>(probe("load", { module: b.module, n: 30 }, 3 * MIN, `load ${b.name}`));
		const what = "module load: instantiate from compiled module (median/30)";
		if (!r.ok) errorRow("6", what, b.name, "Node", "< 10 ms", r.err);
		else row({ n: "6", what, build: b.name, host: "Node", result: fmtMs(median(r.v.ms)), target: "< 10 ms", ...judge(median(r.v.ms), 10), note: `compile ${fmtMs(r.v.compileMs)}, first instance ${fmtMs(r.v.ms[0]!)}` });
	}
	for (const b of BUILDS) {
		progress(`6 module load (${b.name}): instance from a compiled module, Go host`);
		const r = await got<Load>(gobench("load", ["-module", b.module, "-n", "30"], 3 * MIN, `go load ${b.name}`));
		const what = "module load: NewInstance from compiled module (median/30)";
		if (!r.ok) errorRow("6", what, b.name, "Go host", "< 10 ms", r.err);
		else row({ n: "6", what, build: b.name, host: "Go host", result: fmtMs(median(r.v.ms)), target: "< 10 ms", ...judge(median(r.v.ms), 10), note: `compile ${fmtMs(r.v.compileMs)} (wazero, first of this run)` });
	}
}

/** Paired `pi -p` rounds the target of row 1 needs; fewer are reported, and marked. */
const PI_PAIRS_TARGET = 20;

async function stepPi(): Promise<void> {
	progress(`1 pi -p without, with an empty and with our extension, 1k events: ${CFG.piPairs} rounds (+2 warm-up)`);
	const what = `extension overhead: ours − empty, median of ${CFG.piPairs} paired rounds (\`pi -p\`, 1k events)`;
	const r = await got<PiRuns>(runChild(process.execPath, [...NODE_FLAGS, path.join(HERE, "pi.ts"), JSON.stringify({ log: DATA.log1k, pairs: CFG.piPairs, warmup: 2 })], 30 * MIN, "pi overhead"));
	if (!r.ok) return errorRow("1", what, "TinyGo", "pi", "≤ 10 ms", r.err);
	const own = r.v.ownDiffs;
	const few = CFG.piPairs < PI_PAIRS_TARGET ? `; fewer than ${PI_PAIRS_TARGET} rounds (BENCH_PI_PAIRS)` : "";
	row({
		n: "1",
		what,
		build: "TinyGo",
		host: "pi",
		result: fmtMs(median(own)),
		target: "≤ 10 ms",
		...withNote(
			judge(median(own), 10, true),
			`IQR ${fmtMs(quantile(own, 0.25))} … ${fmtMs(quantile(own, 0.75))}; pi's CPU time +${fmtMs(median(r.v.ownCpuDiffs))} (median of the rounds); ` +
				`run with ours ${fmtMs(median(r.v.with))}, with the empty one ${fmtMs(median(r.v.empty))}; ${r.v.injectedLines} decisions injected${few}`,
		),
	});
	const main = r.v.ownMainCpuDiffs;
	row({
		n: "1",
		what: "…the same as CPU time of pi's main thread: ours − empty",
		build: "TinyGo",
		host: "pi",
		result: fmtMs(median(main)),
		note: `IQR ${fmtMs(quantile(main, 0.25))} … ${fmtMs(quantile(main, 0.75))}; what we add to the thread that is busy from loading extensions to the model call, which a busy machine disturbs far less than wall time`,
	});
	const d = r.v.diffs;
	row({
		n: "1",
		what: "time added to `pi -p` by our extension, pi's loading of it included (ours − no extension)",
		build: "TinyGo",
		host: "pi",
		result: fmtMs(median(d)),
		note: `IQR ${fmtMs(quantile(d, 0.25))} … ${fmtMs(quantile(d, 0.75))}; run without ${fmtMs(median(r.v.without))}; pi's CPU time +${fmtMs(median(r.v.cpuDiffs))}, peak RSS +${fmtBytes(median(r.v.rssDiffs))} (medians of the rounds)`,
	});
	const e = r.v.emptyDiffs;
	row({
		n: "1",
		what: "…of which pi loading any `-e` extension (empty − no extension)",
		build: "—",
		host: "pi",
		result: fmtMs(median(e)),
		note: `IQR ${fmtMs(quantile(e, 0.25))} … ${fmtMs(quantile(e, 0.75))}`,
	});
}

interface ReplayStep {
	lower: Got<LowerBound[]>;
	anchor: Got<Anchor[]>;
	cold: Map<string, Got<Cold[]>>;
	keep: Map<string, string>; // build → project dir of the last cold run, for the warm start
}

async function stepReplay(log: string, reps: number, label: string, withAnchor: boolean, timeoutMs: number): Promise<ReplayStep> {
	const lower: Array<Got<LowerBound>> = [];
	const anchor: Array<Got<Anchor>> = [];
	const cold = new Map<string, Array<Got<Cold>>>(BUILDS.map((b) => [b.name, []]));
	const keep = new Map<string, string>();
	for (let i = 0; i < reps; i++) {
		progress(`${label} cold replay, repetition ${i + 1}/${reps}: Node lower bound${withAnchor ? ", TypeScript store" : ""}, TinyGo, Go (fresh processes)`);
		lower.push(await got<LowerBound>(probe("lowerbound", { log }, timeoutMs, `lower bound ${label}`)));
		if (withAnchor) anchor.push(await got<Anchor>(probe("anchor", { log }, timeoutMs, `TypeScript store ${label}`)));
		for (const b of BUILDS) {
			const dir = tmpDir(`cold-${label}-${b.name}-${i}`);
			cold.get(b.name)?.push(await got<Cold>(probe("cold", { module: b.module, log, dir }, timeoutMs, `cold replay ${label} ${b.name}`)));
			const prev = keep.get(b.name);
			if (prev !== undefined) rm(prev);
			keep.set(b.name, dir);
		}
	}
	const out: ReplayStep = { lower: gotAll(lower), anchor: gotAll(anchor), cold: new Map(), keep };
	for (const [k, v] of cold) out.cold.set(k, gotAll(v));
	return out;
}

// Rows for a cold-replay step: the references, our time per build (item n) and the
// linear memory after it (item memN: 6 at 100k, 3 at 1M).
function replayRows(r: ReplayStep, n: string, memN: string, label: string, memTarget: number, memTargetText: string, ratioTarget: boolean): void {
	const what = `cold replay ${label}, no snapshot: session_start via Core (median)`;
	const lbWhat = `Node lower bound ${label}: read + split + JSON.parse (median)`;
	let lb = Number.NaN;
	if (r.lower.ok) {
		lb = median(r.lower.v.map((x) => x.ms));
		row({ n, what: lbWhat, build: "—", host: "Node", result: fmtMs(lb), note: `peak RSS ${fmtBytes(max(r.lower.v.map((x) => x.maxRss)))}` });
	} else errorRow(n, lbWhat, "—", "Node", "", r.lower.err);
	if (r.anchor.ok && r.anchor.v.length > 0) {
		const a = median(r.anchor.v.map((x) => x.ms));
		row({ n, what: `TypeScript store ${label}: JSON.parse + replay into Maps (median)`, build: "—", host: "Node", result: `${fmtMs(a)} (${fmtRatio(a / lb)} lower bound)`, note: `peak RSS ${fmtBytes(max(r.anchor.v.map((x) => x.maxRss)))}` });
	} else if (!r.anchor.ok) errorRow(n, `TypeScript store, ${label}`, "—", "Node", "", r.anchor.err);
	for (const b of BUILDS) {
		const c = r.cold.get(b.name);
		if (c === undefined || !c.ok) {
			errorRow(n, what, b.name, "Node", ratioTarget ? "≤ 1.00× lower bound" : "", c?.err ?? "not run");
			errorRow(memN, `linear memory after the ${label} replay`, b.name, "Node", memTargetText, c?.err ?? "not run");
			continue;
		}
		const ms = median(c.v.map((x) => x.ms));
		const ratio = ms / lb;
		const lines = c.v[0]?.status.lines;
		const cpu = median(c.v.map((x) => x.cpuMs));
		const lbCpu = r.lower.ok ? median(r.lower.v.map((x) => x.cpuMs)) : Number.NaN;
		const note = `CPU ${fmtMs(cpu)} = ${fmtRatio(cpu / lbCpu)} the lower bound's CPU; compile ${fmtMs(median(c.v.map((x) => x.compileMs)))} before it; peak RSS ${fmtBytes(max(c.v.map((x) => x.maxRss)))}; ${typeof lines === "number" ? `${lines} lines replayed` : "line count unknown"}`;
		if (ratioTarget) {
			const j = judge(ratio, 1.0, true);
			row({ n, what, build: b.name, host: "Node", result: `${fmtMs(ms)} = ${fmtRatio(ratio)} lower bound`, target: "≤ 1.00× lower bound", verdict: j.verdict, note: `${j.note ? `${j.note}; ` : ""}${note}` });
		} else row({ n, what, build: b.name, host: "Node", result: `${fmtMs(ms)} = ${fmtRatio(ratio)} lower bound`, note });
		const mem = max(c.v.map((x) => x.memBytes));
		const heap = c.v[c.v.length - 1]?.heap ?? {};
		const heapNote = typeof heap.heapAlloc === "number" ? `heap in use ${fmtBytes(heap.heapAlloc)} of ${fmtBytes(heap.heapSys!)}` : "";
		if (mem > 0) row({ n: memN, what: `linear memory after the ${label} replay`, build: b.name, host: "Node", result: fmtBytes(mem), target: memTargetText, ...withNote(judge(mem, memTarget, memTargetText.startsWith("≤")), heapNote) });
		else errorRow(memN, `linear memory after the ${label} replay`, b.name, "Node", memTargetText, "the probe could not read the module's memory");
	}
}

function withNote(j: { verdict: Verdict; note: string }, extra: string): { verdict: Verdict; note: string } {
	return { verdict: j.verdict, note: [j.note, extra].filter((s) => s !== "").join("; ") };
}

async function stepGoReplay(lb: number): Promise<void> {
	for (const b of BUILDS) {
		progress(`2 cold replay 100k (${b.name}), Go host: ${CFG.reps} fresh instances`);
		const r = await got<GoReplay>(gobench("replay", ["-module", b.module, "-log", DATA.log100k, "-reps", String(CFG.reps), "-tmp", tmpRoot], 20 * MIN, `go replay ${b.name}`));
		const what = "cold replay 100k, no snapshot: session_start (median)";
		if (!r.ok) {
			errorRow("2", what, b.name, "Go host", "≤ 1.00× lower bound", r.err);
			continue;
		}
		const ms = median(r.v.samples.map((s) => s.ms));
		const j = judge(ms / lb, 1.0, true);
		row({ n: "2", what, build: b.name, host: "Go host", result: `${fmtMs(ms)} = ${fmtRatio(ms / lb)} Node lower bound`, target: "≤ 1.00× lower bound", ...j });
		const mem = max(r.v.samples.map((s) => s.memBytes));
		if (mem > 0) row({ n: "6", what: "linear memory after the 100k replay", build: b.name, host: "Go host", result: fmtBytes(mem), target: "< 64 MiB", ...judge(mem, 64 << 20) });
		else row({ n: "6", what: "linear memory after the 100k replay", build: b.name, host: "Go host", result: "—", verdict: "ERROR", note: "host.Instance exposes no memory size: it needs a MemorySize() accessor" });
	}
}

/** Did the cold session leave a snapshot behind? From `status --json` and the files it wrote. */
function snapshotSeen(c: Cold | undefined, w: Warm[] | undefined): string {
	const key = (s: Record<string, unknown> | undefined) => (s !== undefined && "snapshot" in s ? JSON.stringify(s.snapshot) : "");
	const fromStatus = key(w?.[0]?.status) || key(c?.status);
	// The run's temp folder is gone once the report is read; keep what names the snapshot.
	const short = (x: string) => x.split(tmpRoot).join("<tmp>");
	if (fromStatus !== "" && fromStatus !== "null" && fromStatus !== "false") return `status snapshot: ${short(fromStatus).slice(0, 120)}`;
	if (c !== undefined && c.written.length > 0) return `files written: ${short(c.written.join(", ")).slice(0, 160)}`;
	return "";
}

async function stepWarm(r: ReplayStep, label: string, n: string, primary: boolean): Promise<void> {
	const what = `session start with a valid snapshot, ${label} (median)`;
	for (const b of BUILDS) {
		const dir = r.keep.get(b.name);
		const c = r.cold.get(b.name);
		if (dir === undefined || c === undefined || !c.ok) {
			errorRow(n, what, b.name, "Node", primary ? "< 30 ms" : "", c !== undefined && !c.ok ? c.err : "no cold run to start from");
			continue;
		}
		progress(`${n} session start on the project a ${label} cold run left (${b.name}): ${CFG.warmReps} fresh processes`);
		const ws: Array<Got<Warm>> = [];
		for (let i = 0; i < CFG.warmReps; i++) {
			const w = await got<Warm>(probe("warm", { module: b.module, dir }, 30 * MIN, `warm start ${label} ${b.name}`));
			ws.push(w);
			// Without a snapshot every further start is one more cold replay: one is enough to say so.
			if (!w.ok || snapshotSeen(c.v[c.v.length - 1], [w.v]) === "") break;
		}
		if (label === "100k" && wants("18")) await stepFirstPrompt(b.name, b.module, dir);
		rm(dir);
		const all = gotAll(ws);
		if (!all.ok) {
			errorRow(n, what, b.name, "Node", primary ? "< 30 ms" : "", all.err);
			continue;
		}
		const ms = median(all.v.map((x) => x.ms));
		const coldMs = median(c.v.map((x) => x.ms));
		const seen = snapshotSeen(c.v[c.v.length - 1], all.v);
		if (seen === "") {
			row({ n, what, build: b.name, host: "Node", result: "not implemented", target: primary ? "< 30 ms" : "", verdict: "not implemented", note: `no snapshot written (status --json has no "snapshot", no new files); a second start took ${fmtMs(ms)} vs ${fmtMs(coldMs)} cold` });
		} else {
			const j = primary ? judge(ms, 30) : { verdict: "info" as Verdict, note: "" };
			const mem = `linear memory after it ${fmtBytes(max(all.v.map((x) => x.memBytes)))}`;
			row({ n, what, build: b.name, host: "Node", result: `${fmtMs(ms)} (cold ${fmtMs(coldMs)})`, target: primary ? "< 30 ms" : "", ...withNote(j, `${mem}; ${seen}`) });
		}
	}
}

/**
 * Row 20 (h-v93 a1): a turn whose prompt is a pasted log, in a small project (the core on
 * pi's thread): before_agent_start, context, agent_end and agent_settled with the log in
 * their messages, each timed, in fresh processes. The slowest of the four at 2 and at 8 MB,
 * and their ratio: 4× is linear (each store reads a message's ends, store.MaxRead), 16×
 * quadratic (what a pasted 8 MB log cost before: 5.4 s per hook).
 */
async function stepPaste(): Promise<void> {
	for (const b of BUILDS) {
		for (const kind of ["log", "env"]) {
			const what = `a turn whose prompt is a pasted ${kind === "log" ? "build log" : "file of secrets (.env lines)"}: the slowest of its four hooks, 2 and 8 MB (median of ${CFG.warmReps} processes)`;
			progress(`20 pasted ${kind} of 2 and 8 MB (${b.name}): ${CFG.warmReps} fresh processes each`);
			const at: Record<number, Paste[]> = {};
			let err = "";
			for (const mb of [2, 8]) {
				at[mb] = [];
				for (let i = 0; i < CFG.warmReps && err === ""; i++) {
					const dir = tmpDir(`paste-${b.name}-${kind}-${mb}-${i}`);
					const r = await got<Paste>(probe("paste", { module: b.module, dir, bytes: mb << 20, kind }, 10 * MIN, `paste ${b.name}`));
					rm(dir);
					if (r.ok) at[mb]!.push(r.v);
					else err = r.err;
				}
			}
			if (err !== "") {
				errorRow("20", what, b.name, "Node", "8 MB ≤ 4.5× 2 MB", err);
				continue;
			}
			const slowest = (xs: Paste[]) => median(xs.map((x) => Math.max(...Object.values(x.ms))));
			const small = slowest(at[2]!);
			const big = slowest(at[8]!);
			const hooks = Object.keys(at[8]![0]!.ms).map((h) => `${h} ${fmtMs(median(at[8]!.map((x) => x.ms[h]!)))}`);
			row({ n: "20", what, build: b.name, host: "Node", result: `${fmtMs(small)} → ${fmtMs(big)} (${fmtRatio(big / small)})`, target: "≤ 4.5× (linear)", ...withNote(judge(big / small, 4.5, true), `at 8 MB: ${hooks.join(", ")}; linear memory ${fmtBytes(median(at[8]!.map((x) => x.memBytes)))}`) });
		}
	}
}

/**
 * Row 18 (issue 25, item 5): the first and the second before_agent_start of a session, each in
 * a fresh process right after session_start, on the project a 100k cold run left (its
 * snapshot), as pi's adapter sees them.
 */
async function stepFirstPrompt(build: string, module: string, dir: string): Promise<void> {
	const what = "the first `before_agent_start` of a session, beside the second: 100k-event log, with a snapshot (median of fresh processes)";
	progress(`18 first and second prompt of a session on the 100k project with its snapshot (${build}): ${CFG.warmReps} fresh processes`);
	const fs_: Array<Got<First>> = [];
	for (let i = 0; i < CFG.warmReps; i++) fs_.push(await got<First>(probe("first", { module, dir, warm: true }, 10 * MIN, `first prompt ${build}`)));
	const all = gotAll(fs_);
	if (!all.ok) return errorRow("18", what, build, "Node", "", all.err);
	const first = median(all.v.map((x) => x.firstMs));
	const second = median(all.v.map((x) => x.secondMs));
	row({
		n: "18",
		what,
		build,
		host: "Node",
		result: `first ${fmtMs(first)}, second ${fmtMs(second)} (${fmtRatio(first / second)})`,
		note: `session_start before them ${fmtMs(median(all.v.map((x) => x.startMs)))}; CPU first ${fmtMs(median(all.v.map((x) => x.firstCpuMs)))}, second ${fmtMs(median(all.v.map((x) => x.secondCpuMs)))}; ${all.v.length} processes`,
	});
}

function hookRows(host: string, b: string, r: Got<Hooks>): void {
	for (const hook of ["before_agent_start"] as const) {
		const what = `${hook}, 100k events in the log (${CFG.calls} calls)`;
		if (!r.ok) {
			errorRow("5", what, b, host, "p99 < 1 ms", r.err);
			continue;
		}
		const xs = r.v[hook];
		const p99 = quantile(xs, 0.99);
		row({ n: "5", what, build: b, host, result: `p50 ${fmtMs(median(xs))}, p99 ${fmtMs(p99)}`, target: "p99 < 1 ms", ...judge(p99, 1), note: `max ${fmtMs(max(xs))}` });
	}
}

async function stepHooks(): Promise<void> {
	for (const b of BUILDS) {
		progress(`5 before_agent_start, 100k events (${b.name}), Node: ${CFG.calls} calls each`);
		hookRows("Node", b.name, await got<Hooks>(probe("hooks", { module: b.module, log: DATA.log100k, dir: tmpDir(`hooks-${b.name}`), calls: CFG.calls }, 20 * MIN, `hooks ${b.name}`)));
		rm(tmpDir(`hooks-${b.name}`));
	}
	for (const b of BUILDS) {
		progress(`5 before_agent_start, 100k events (${b.name}), Go host`);
		hookRows("Go host", b.name, await got<Hooks>(gobench("hooks", ["-module", b.module, "-log", DATA.log100k, "-calls", String(CFG.calls), "-tmp", tmpRoot], 20 * MIN, `go hooks ${b.name}`)));
	}
}

function searchRows(host: string, b: string, r: Got<Search>): void {
	const what = `\`decision search\`, 100k live decisions (median/${SEARCH_QUERIES.length} queries)`;
	if (!r.ok) return errorRow("7", what, b, host, "< 20 ms", r.err);
	// Each query's median, then the median over queries; the first call of each query is in its samples.
	const perQuery = r.v.queries.map((q) => median(q.ms));
	const all = r.v.queries.flatMap((q) => q.ms);
	const m = median(perQuery);
	row({ n: "7", what, build: b, host, result: fmtMs(m), target: "< 20 ms", ...withNote(judge(m, 20), `slowest query ${fmtMs(max(perQuery))}, p99 of all calls ${fmtMs(quantile(all, 0.99))}`) });
}

async function stepSearch(): Promise<void> {
	for (const b of BUILDS) {
		progress(`7 search over 100k live decisions (${b.name}), Node`);
		searchRows("Node", b.name, await got<Search>(probe("search", { module: b.module, log: DATA.adds100k, dir: tmpDir(`search-${b.name}`), reps: 7, words: SEARCH_QUERIES }, 20 * MIN, `search ${b.name}`)));
		rm(tmpDir(`search-${b.name}`));
	}
	for (const b of BUILDS) {
		progress(`7 search over 100k live decisions (${b.name}), Go host`);
		searchRows("Go host", b.name, await got<Search>(gobench("search", ["-module", b.module, "-log", DATA.adds100k, "-reps", "7", "-tmp", tmpRoot, ...SEARCH_QUERIES], 20 * MIN, `go search ${b.name}`)));
	}
}

/**
 * Rows 15 and 17 run each build with the core as pi's adapter runs it (a worker thread when
 * the project asks for one), and the TinyGo build kept on the main thread in slices
 * (PIMEM_WORKER=off), in the same run.
 */
function workerRuns(): Array<{ b: (typeof BUILDS)[number]; worker: boolean; host: string }> {
	return [...BUILDS.map((b) => ({ b, worker: true, host: "Node" })), ...BUILDS.filter((b) => b.name === "TinyGo").map((b) => ({ b, worker: false, host: "Node, main thread" }))];
}

/** Row 15's p95 on the Node host (pi's) with the TinyGo module, for row 16's ratio. */
let memSearchPiP95: number | undefined;

function memSearchRow(host: string, b: string, r: Got<MemSearch>): void {
	const what = "`memory_search`: 100k decisions, a 5,000-line index, 200 earlier sessions, after the first search";
	if (!r.ok) return errorRow("15", what, b, host, "p95 < 50 ms", r.err);
	const p95 = quantile(r.v.ms, 0.95);
	if (host === "Node" && b === "TinyGo") memSearchPiP95 = p95;
	row({
		n: "15",
		what,
		build: b,
		host,
		result: `p50 ${fmtMs(median(r.v.ms))}, p95 ${fmtMs(p95)}`,
		target: "p95 < 50 ms",
		...withNote(judge(p95, 50), `${r.v.ms.length} calls, max ${fmtMs(max(r.v.ms))}; the first search (builds the index) ${fmtMs(r.v.firstMs)}${r.v.thread === undefined ? "" : ` on the ${r.v.thread === "worker" ? "worker" : "main"} thread, pi's loop held ≤ ${fmtMs(r.v.firstHeldMs ?? 0)} meanwhile; the first prompt, right after the start, ${fmtMs(r.v.promptMs ?? 0)}`}; ${r.v.messages.toLocaleString("en-US")} messages; linear memory ${fmtBytes(r.v.memBytes)}, heap in use after the first search ${fmtBytes(r.v.heapFirstBytes)}`),
	});
}

async function stepMemSearch(): Promise<void> {
	// Its 40 MB log moves the core to a worker thread (workerRuns).
	const runs = workerRuns();
	for (const { b, worker, host } of runs) {
		progress(`15 memory_search over 100k decisions, a 5,000-line index and 200 sessions (${b.name}), ${host}`);
		const dir = tmpDir(`memsearch-${b.name}`);
		fs.mkdirSync(dir, { recursive: true });
		const data = await got<Record<string, unknown>>(gobench("memsearch-data", ["-log", DATA.adds100k, "-tmp", dir], 10 * MIN, `memsearch data ${b.name}`));
		if (!data.ok) memSearchRow(host, b.name, data);
		else memSearchRow(host, b.name, await got<MemSearch>(probe("memsearch", { ...data.v, module: b.module, calls: MEMSEARCH_CALLS, worker }, 20 * MIN, `memsearch ${b.name}`)));
		rm(dir);
	}
	for (const b of BUILDS) {
		progress(`15 memory_search over 100k decisions, a 5,000-line index and 200 sessions (${b.name}), Go host`);
		memSearchRow("Go host", b.name, await got<MemSearch>(gobench("memsearch", ["-module", b.module, "-log", DATA.adds100k, "-calls", String(MEMSEARCH_CALLS), "-tmp", tmpRoot], 20 * MIN, `go memsearch ${b.name}`)));
	}
}

/**
 * Row 17 (issue 25, item 4): memory_search over 20,000 earlier sessions, and over a few with one
 * of 60 MB, driven through its slices as the adapter drives it (`probe.ts bigsearch`): searches
 * until one has read every session, then BIG_CALLS more. The target is how long pi's event loop
 * was held at a stretch (the largest gap of a 1 ms interval), at most 50 ms.
 */
async function stepBigSearch(): Promise<void> {
	const cases = [
		{ label: `${BIG_SESSIONS.toLocaleString("en-US")} earlier sessions`, args: ["-sessions", String(BIG_SESSIONS), "-messages", "4"] },
		{ label: "5 earlier sessions and one of 60 MB", args: ["-sessions", "5", "-messages", "4", "-big-mb", "60"] },
	];
	// A search about to read many sessions moves the core to a worker thread (workerRuns).
	const runs = workerRuns();
	for (const c of cases) {
		const what = `\`memory_search\` over ${c.label}`;
		for (const { b, worker, host } of runs) {
			progress(`17 memory_search over ${c.label} (${b.name}), ${host}`);
			const dir = tmpDir(`bigsearch-${b.name}`);
			fs.mkdirSync(dir, { recursive: true });
			const data = await got<Record<string, unknown>>(gobench("bigsearch-data", [...c.args, "-tmp", dir], 10 * MIN, `bigsearch data ${b.name}`));
			const r = data.ok ? await got<BigSearch>(probe("bigsearch", { ...data.v, module: b.module, calls: BIG_CALLS, worker }, 30 * MIN, `bigsearch ${b.name}`)) : data;
			rm(dir);
			if (!r.ok) {
				errorRow("17", what, b.name, host, "held ≤ 50 ms", r.err);
				continue;
			}
			const v = r.v;
			const all = v.searches;
			const after = v.settled > 0 ? all.slice(v.settled) : [];
			const held = max(all.map((x) => x.heldMs));
			const heldReading = v.settled > 0 ? max(all.slice(0, v.settled).map((x) => x.heldMs)) : held;
			const heldRead = after.length > 0 ? max(after.map((x) => x.heldMs)) : Number.NaN;
			const p95 = after.length > 0 ? quantile(after.map((x) => x.ms), 0.95) : Number.NaN;
			const first = all[0]!;
			const unreadFirst = /(\d[\d,]*) earlier sessions?, not read/.exec(first.unread)?.[1] ?? "0";
			row({
				n: "17",
				what,
				build: b.name,
				host,
				result: `p95 ${fmtMs(p95)} once read; held the loop ≤ ${fmtMs(held)} (≤ ${fmtMs(heldReading)} while reading, ≤ ${fmtMs(heldRead)} once read); linear memory ${fmtBytes(v.memBytes)}, peak RSS ${fmtMB(v.maxRss)}`,
				target: "held ≤ 50 ms",
				...withNote(
					judge(held, 50),
					`the first search ${fmtMs(first.ms)} in ${first.coreCalls} calls (longest ${fmtMs(first.longestMs)}), ${unreadFirst} sessions left for later; ${v.settled > 0 ? `${v.settled} searches to read them all` : `not all read after ${all.length} searches`}; after: p50 ${fmtMs(after.length > 0 ? median(after.map((x) => x.ms)) : Number.NaN)}, ${after.length > 0 ? Math.round(median(after.map((x) => x.coreCalls))) : 0} calls each; longest core call ${fmtMs(max(all.map((x) => x.longestMs)))}; heap in use ${fmtBytes(v.heapBytes)}, peak RSS ${fmtMB(v.maxRss)}; the core ran on the ${v.thread === "worker" ? "worker thread" : "main thread"}${v.bigBytes > 0 ? `; the big session ${fmtMB(v.bigBytes)}` : ""}; the last answer says: ${all[all.length - 1]!.unread || "nothing unread"}`,
				),
			});
		}
	}
}

/** Warm starts of row 16 after the cold one. */
const MCP_STARTS = 10;

async function stepMCP(): Promise<void> {
	const b = BUILDS[0]!; // the module a release binary carries
	const startWhat = "`pimem mcp`: spawn to the first tool answer, 100k-event log, with a snapshot";
	const searchWhat = "`memory_search` through `pimem mcp` (row 15's project), after the first search";
	if (CFG.pimem === "") {
		errorRow("16", startWhat, b.name, "Go host", "< 200 ms", "no pimem binary (--pimem)");
		return;
	}
	progress(`16 pimem mcp: start with a 100k-event log (${b.name})`);
	const dir = tmpDir("mcp-start");
	const project = path.join(dir, "project");
	fs.mkdirSync(path.join(project, ".git"), { recursive: true });
	fs.mkdirSync(path.join(project, ".pi", "decision-memory"), { recursive: true });
	fs.copyFileSync(DATA.log100k, path.join(project, ".pi", "decision-memory", "decisions.jsonl"));
	fs.mkdirSync(path.join(dir, "agent"), { recursive: true });
	const start = await got<McpStart>(mcpStart(CFG.pimem, b.module, project, path.join(dir, "agent"), path.join(dir, "cache"), MCP_STARTS));
	if (!start.ok) errorRow("16", startWhat, b.name, "Go host", "< 200 ms", start.err);
	else {
		const m = median(start.v.ms);
		row({ n: "16", what: startWhat, build: b.name, host: "Go host", result: `${fmtMs(m)} (median of ${start.v.ms.length})`, target: "< 200 ms", ...withNote(judge(m, 200), `max ${fmtMs(max(start.v.ms))}; the cold start (no snapshot, no compiled-code cache; it writes both) ${fmtMs(start.v.coldMs)}; answered "${start.v.firstAnswer}"`) });
	}
	rm(dir);

	progress(`16 pimem mcp: memory_search over row 15's project (${b.name})`);
	const sdir = tmpDir("mcp-search");
	fs.mkdirSync(sdir, { recursive: true });
	const data = await got<{ project: string; agent: string; queries: string[] }>(gobench("memsearch-data", ["-log", DATA.adds100k, "-tmp", sdir], 10 * MIN, "mcp memsearch data"));
	if (!data.ok) errorRow("16", searchWhat, b.name, "Go host", "", data.err);
	else {
		const r = await got<McpSearch>(mcpSearch(CFG.pimem, b.module, data.v.project, data.v.agent, path.join(sdir, "cache"), data.v.queries, MEMSEARCH_CALLS));
		if (!r.ok) errorRow("16", searchWhat, b.name, "Go host", "", r.err);
		else {
			const p95 = quantile(r.v.ms, 0.95);
			const beside = memSearchPiP95 === undefined ? "row 15 did not run in this run" : `in pi (row 15, Node, TinyGo) p95 ${fmtMs(memSearchPiP95)}: MCP/pi ${fmtRatio(p95 / memSearchPiP95)}`;
			row({ n: "16", what: searchWhat, build: b.name, host: "Go host", result: `p50 ${fmtMs(median(r.v.ms))}, p95 ${fmtMs(p95)}`, note: `${r.v.ms.length} calls, max ${fmtMs(max(r.v.ms))}, the first ${fmtMs(r.v.firstMs)}; ${beside}` });
		}
	}
	rm(sdir);
}

async function stepNotes(): Promise<void> {
	for (const b of BUILDS) {
		progress(`9–10 markdown memory injection and page-table rebuild (${b.name}), Node`);
		const dir = tmpDir(`notes-${b.name}`);
		const r = await got<Notes>(probe("notes", { module: b.module, dir, calls: CFG.calls, reps: NOTES_REBUILDS }, 20 * MIN, `notes ${b.name}`));
		rm(dir);
		const inj = "`before_agent_start` with markdown memory: 200-line index, 50 topic files";
		if (!r.ok) {
			errorRow("9", inj, b.name, "Node", "", r.err);
			errorRow("10", "page-table rebuild of a 5,000-line index", b.name, "Node", "", r.err);
			errorRow("10", `linear memory after the ${NOTES_REBUILDS} rebuilds`, b.name, "Node", "≤ 32 MiB", r.err);
			continue;
		}
		const v = r.v;
		const pct = (xs: number[]) => `p50 ${fmtMs(median(xs))}, p99 ${fmtMs(quantile(xs, 0.99))}`;
		row({ n: "9", what: `${inj}, files unchanged`, build: b.name, host: "Node", result: pct(v.cached), note: `${v.cached.length} calls; max ${fmtMs(max(v.cached))}; block ${fmtBytes(v.blockBytes)} from a ${fmtBytes(v.indexBytes)} index` });
		row({ n: "9", what: `${inj}, index changed before every call`, build: b.name, host: "Node", result: pct(v.changed), note: `${v.changed.length} calls (re-read, re-parse, new trace); max ${fmtMs(max(v.changed))}` });
		row({ n: "10", what: `page-table rebuild of a 5,000-line index (\`/memory verify\`, median/${v.rebuild.length})`, build: b.name, host: "Node", result: fmtMs(median(v.rebuild)), note: `index ${fmtBytes(v.bigBytes)}; max ${fmtMs(max(v.rebuild))}` });
		// Memory that grows with the number of rebuilds rather than with the file is the
		// TinyGo failure this row watches (docs/decisions/003-tinygo-heap.md).
		const heapNote = typeof v.heap.heapAlloc === "number" ? `heap in use ${fmtBytes(v.heap.heapAlloc)} of ${fmtBytes(v.heap.heapSys!)}` : "";
		if (v.memBytes > 0) row({ n: "10", what: `linear memory after the ${v.rebuild.length} rebuilds`, build: b.name, host: "Node", result: fmtBytes(v.memBytes), target: "≤ 32 MiB", ...withNote(judge(v.memBytes, 32 << 20, true), heapNote) });
		else errorRow("10", `linear memory after the ${v.rebuild.length} rebuilds`, b.name, "Node", "≤ 32 MiB", "the probe could not read the module's memory");
	}
}

async function stepObserve(): Promise<void> {
	const session = path.join(REPO, "testdata", "observe", "session-200.jsonl");
	for (const b of BUILDS) {
		progress(`11 observational memory: the scripted 200-turn session, covered compactions, context with 1,200 observations (${b.name}), Node`);
		const dir = tmpDir(`observe-${b.name}`);
		const r = await got<ObserveResult>(probe("observe", { module: b.module, session, dir, calls: CFG.calls }, 10 * MIN, `observe ${b.name}`));
		rm(dir);
		const host = "Node";
		if (!r.ok) {
			errorRow("11", "observational memory: compression of the scripted 200-turn session", b.name, host, "", r.err);
			errorRow("11", "covered compaction (p95)", b.name, host, "p95 < 50 ms", r.err);
			errorRow("11", "`context` with 1,200 observations (p99)", b.name, host, "p99 < 2 ms", r.err);
			errorRow("11", "distinct injected blocks over 100 turns", b.name, host, "≤ memory updates + 1", r.err);
			continue;
		}
		const v = r.v;
		const [all, red, yellow, green] = v.items;
		row({
			n: "11",
			what: `observational memory: compression of the scripted ${v.turns}-turn session (transcript → observations)`,
			build: b.name,
			host,
			result: `${Math.round(v.tokensBefore).toLocaleString("en-US")} → ${Math.round(v.tokensAfter).toLocaleString("en-US")} tokens (${(v.tokensBefore / v.tokensAfter).toFixed(1)}×)`,
			note: `${all} observations kept: 🔴 ${red}, 🟡 ${yellow}, 🟢 ${green}; ${v.entries} entries, ${v.compactions} compaction(s) of ours, ${v.reflector} reflection(s)`,
		});
		row({
			n: "11",
			what: "observer calls per 100k tokens of transcript (the same replay)",
			build: b.name,
			host,
			result: ((v.observer / v.tokensBefore) * 100000).toFixed(1),
			note: `${v.observer} observer calls over ~${Math.round(v.tokensBefore).toLocaleString("en-US")} tokens`,
		});
		const p95 = quantile(v.compact, 0.95);
		row({ n: "11", what: `covered compaction: \`session_before_compact\`, no model call (${v.compact.length} calls)`, build: b.name, host, result: `p50 ${fmtMs(median(v.compact))}, p95 ${fmtMs(p95)}`, target: "p95 < 50 ms", ...withNote(judge(p95, 50), `max ${fmtMs(max(v.compact))}; the replayed branch, ${v.entries} entries`) });
		const p99 = quantile(v.context, 0.99);
		row({ n: "11", what: `\`context\` with ${v.contextItems.toLocaleString("en-US")} observations (${v.context.length} calls)`, build: b.name, host, result: `p50 ${fmtMs(median(v.context))}, p99 ${fmtMs(p99)}`, target: "p99 < 2 ms", ...withNote(judge(p99, 2), `max ${fmtMs(max(v.context))}; first call ${fmtMs(v.contextFirstMs)}; block ${fmtBytes(v.contextBytes)}`) });
		row({
			n: "11",
			what: `distinct injected memory blocks over ${v.blockTurns} turns (${v.requests} requests)`,
			build: b.name,
			host,
			result: `${v.blocks} blocks, ${v.blockUpdates} memory updates`,
			target: "≤ memory updates + 1",
			...withNote(judge(v.blocks, v.blockUpdates + 1, true), `the requests span ${v.blockDays} calendar days; relative dates ("2 days ago") count from the day memory last changed`),
		});
	}
}

// ---- Rendering --------------------------------------------------------------------

const COLUMNS: Array<[keyof Row, string]> = [
	["n", "#"],
	["what", "measure"],
	["build", "build"],
	["host", "host"],
	["result", "result"],
	["target", "target"],
	["verdict", "verdict"],
];

function ordered(): Row[] {
	return [...rows].sort((a, b) => Number(a.n) - Number(b.n));
}

function terminalTable(): string {
	const rs = ordered();
	const width = (k: keyof Row, title: string) => Math.min(k === "what" ? 64 : 40, Math.max(title.length, ...rs.map((r) => r[k].length)));
	const ws = COLUMNS.map(([k, t]) => width(k, t));
	const cell = (s: string, w: number) => (s.length > w ? `${s.slice(0, w - 1)}…` : s.padEnd(w));
	const line = (cells: string[]) => cells.map((c, i) => cell(c, ws[i]!)).join("  ");
	const out = [line(COLUMNS.map(([, t]) => t)), ws.map((w) => "-".repeat(w)).join("  ")];
	for (const r of rs) {
		out.push(line(COLUMNS.map(([k]) => r[k])));
		if (r.note !== "" && r.verdict !== "PASS") out.push(`${" ".repeat(ws[0]! + 2)}↳ ${r.note}`);
	}
	return out.join("\n");
}

function mdCell(s: string): string {
	return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

const NOTES_BEGIN = "<!-- notes:begin (kept across runs: explain misses here) -->";
const NOTES_END = "<!-- notes:end -->";

function keptNotes(): string {
	try {
		const old = fs.readFileSync(CFG.out, "utf8");
		const i = old.indexOf(NOTES_BEGIN);
		const j = old.indexOf(NOTES_END);
		if (i >= 0 && j > i) return old.slice(i + NOTES_BEGIN.length, j).trim();
	} catch {
		// first run
	}
	return "_Nothing yet. Write why a target is missed here; `make bench` keeps this section._";
}

function markdown(m: Record<string, string>, loadStart: number[], loadEnd: number[], seconds: number): string {
	const rs = ordered();
	const count = (v: Verdict) => rs.filter((r) => r.verdict === v).length;
	const L = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" / ");
	const lines: string[] = [];
	lines.push("# Benchmarks");
	lines.push("");
	lines.push("Written by `make bench` (`build/bench.sh` → `ts/bench/main.ts`); do not edit by hand except between the notes markers at the end.");
	lines.push("Every figure was measured in the run below, for both builds of the core where it applies; ratios compare figures of this same run.");
	lines.push("");
	lines.push("## Machine");
	lines.push("");
	lines.push("| | |");
	lines.push("|---|---|");
	for (const [k, v] of Object.entries(m)) lines.push(`| ${k} | ${mdCell(v)} |`);
	lines.push(`| Load average (1, 5, 15 min) | start ${L(loadStart)}; end ${L(loadEnd)}; 1-min during the run: median ${median(loadSamples).toFixed(2)}, max ${max(loadSamples).toFixed(2)} |`);
	lines.push(`| Run | ${CFG.quick ? "BENCH_QUICK=1 (1M-event steps skipped)" : "full"}; ${Math.round(seconds)} s; ${CFG.reps} reps at 100k, ${CFG.quick ? 0 : CFG.reps1m} at 1M, ${CFG.warmReps} snapshot starts, ${CFG.piPairs} pi pairs, ${CFG.calls} calls per hook |`);
	lines.push("");
	lines.push("The machine is shared with other builds and tests: compare figures within one run, and read the load average before comparing runs.");
	lines.push("");
	lines.push(`## Results: ${count("PASS")} PASS, ${count("MISS")} MISS, ${count("not implemented")} not implemented, ${count("ERROR")} ERROR`);
	lines.push("");
	lines.push("Rows on the Node host carry the targets (what pi users feel); Go-host rows (wazero, what `pimem` users feel) are secondary.");
	lines.push("");
	lines.push("| # | measure | build | host | result | target | verdict | note |");
	lines.push("|---|---|---|---|---|---|---|---|");
	for (const r of rs) lines.push(`| ${[r.n, r.what, r.build, r.host, r.result, r.target, r.verdict === "PASS" || r.verdict === "MISS" ? `**${r.verdict}**` : r.verdict, r.note].map(mdCell).join(" | ")} |`);
	lines.push("");
	lines.push("## How each figure is taken");
	lines.push("");
	lines.push("Datasets come from `host/cmd/gendata` (seed 1; deterministic, cached in `~/.cache/pi-memory/bench-data`): 1k, 100k and 1M events of all five kinds, and 100k add events (`-adds-only`) for search.");
	lines.push("");
	lines.push("1. **pi overhead** — `ts/bench/pi.ts`: the e2e harness's fake model server and sandbox, a project holding the 1k-event log, `pi --model fake/fake-model --no-session -p …` without an extension, with an empty one and with `-e ts/index.ts`; each round runs the three in one of the six orders in turn, after 2 warm-up rounds. Wall time from spawn to exit. The target figure is our own share: the median of the per-round differences ours − empty, which leaves out what pi spends on loading any `-e` extension (jiti, the extension runner); the rows under it give ours − none and empty − none. A preload given in `NODE_OPTIONS` makes pi's process report its own CPU time, peak RSS and the CPU time of its main thread (`/proc/self/task/PID/schedstat`) at exit; pi's main thread is busy from loading extensions to the model call, so the main-thread CPU time an extension adds is what it adds to the run, and a busy machine disturbs it far less than wall time. Every run is checked (exit 0, the model's reply, decisions in the system prompt exactly when our extension is loaded).");
	lines.push("2. **Cold replay** — `ts/bench/probe.ts cold`: a fresh Node process, a fresh project folder holding a copy of the log (so no snapshot can exist), `new Core(ts/core.wasm)`, compile awaited, then the time of `core.call(\"session_start\")` (V8 compiles wasm functions lazily, so their first compilation falls inside it, as it does for users). The lower bound (`probe.ts lowerbound`: `readFileSync` + `split(\"\\n\")` + `JSON.parse` of every line, nothing kept) and the TypeScript store (`probe.ts anchor`: the same plus a replay into an id map and status/tag indexes, written for this benchmark) run in fresh processes interleaved with ours, repetition by repetition. Ratio = our median / lower-bound median.");
	lines.push("3. **1M events** — the same cold run on the 1M log; linear memory is `memory.buffer.byteLength` of the core's instance right after `session_start` (WebAssembly memory never shrinks, so this is also the peak).");
	lines.push("4. **Snapshot start** — after each cold run the probe finishes a short session (`before_agent_start`, `session_shutdown`); then fresh processes start a session on that same project, log unchanged, and time `session_start`. A snapshot is recognised by a `snapshot` key in `decision status --json` or by files the cold session wrote; without one the row says \"not implemented\".");
	lines.push("5. **Hooks** — one session on the 100k log, 50 warm-up calls, then each call of `before_agent_start` (five ordinary prompts in turn) timed alone through `Core.call` (JSON in, envelope parsed). (`context` was measured here while it was a no-op export; it returns with the first store that recalls per request.)");
	lines.push("6. **Module load** — `instantiate()` of `ts/core.ts` (a `WebAssembly.Instance` of an already compiled `WebAssembly.Module` with the kernel, host functions and WASI shim, plus `_initialize`), 30 fresh instances, median. Go host: `Runtime.NewInstance`.");
	lines.push("7. **Search** — one session on the 100k-adds log, then `command {name:\"decision\", argv:[\"search\", …]}` for each of: " + SEARCH_QUERIES.map((q) => `\`${q}\``).join(", ") + "; 7 runs each; median per query, then the median over queries.");
	lines.push("8. **Near-duplicates** — `similarity.Evaluate` over `testdata/similarity/pairs.jsonl` (`host/cmd/bench similarity`): all pairs, and the held-out (`\"split\":\"test\"`) lines apart.");
	lines.push(`9. **Markdown memory injection** — \`ts/bench/probe.ts notes\`: a trusted project whose \`.pi/memory/\` holds a 200-line \`MEMORY.md\` (sections of bullets, every fifth a pointer) and 50 topic files; 20 warm-up calls, then ${CFG.calls} calls of \`before_agent_start\` with the files unchanged (stat only, cached block), then as many with the index rewritten before each call (one line more or less: re-read, re-parse, residency, a new trace line).`);
	lines.push(`10. **Page-table rebuild** — the same session, the index replaced by a 5,000-line one (one line more or less each time), then \`command {name:\"memory\", argv:[\"verify\"]}\` ${NOTES_REBUILDS} times: read, parse, build the table, encode, write it atomically (it exits 1, as it should: the index is over its injection caps). Linear memory is read after the last run; it must not grow with the number of rebuilds.`);
	lines.push(`11. **Observational memory** — \`ts/bench/probe.ts observe\` (\`ts/bench/observe.ts\`), one fresh process per build, everything through the module's exports as pi calls them. The session is \`testdata/observe/session-200.jsonl\` (200 turns of coding work over six working days) and its model calls are answered by the scripted observer and reflector of \`testdata/observe/README.md\`, ported from \`wasm/observe/fixture_test.go\`. The clock the module reads follows the session's timestamps, and the context window is 128k. Replay: \`session_start\` on an empty branch, then entry by entry: \`context\` with the messages pi would send (the latest compaction's summary, what it kept, what followed) before every assistant entry, which is a model request, and \`agent_settled\` with the branch before every user entry after the first, which ends a turn. \`complete\` effects are answered through \`resume\`, \`session_entry\` effects are appended to the branch as custom entries, and a \`compact\` effect is answered the way pi compacts: \`session_before_compact\` with the first kept entry pi's preparation picks (the user message that starts the newest 20,000 tokens), then its compaction entry is appended. *Compression*: transcript tokens are the \"unobserved tokens\" \`/om status\` reports on the whole session with nothing observed, and observation tokens and items per priority are what \`/om status\` reports after the replay. *Observer calls per 100k tokens* counts the \`complete\` effects of that replay whose prompt holds a transcript. *Distinct blocks*: the distinct \`<observations>\` blocks \`context\` returned over the last 100 turns, against the ledger records appended over those turns. *Covered compaction*: \`session_before_compact\` on the replayed branch with the first kept entry right after the newest observed one, so no model call is needed; 10 warm-up calls, then ${Math.max(10, Math.floor(CFG.calls / 10))} timed calls, each with the whole branch as pi sends it. *\`context\` with 1,200 observations*: a new session whose branch holds 40 ledger records of 30 observations each (🔴🟡🟢 in turn) and the fixture's first 40 entries; 50 warm-up calls, then ${CFG.calls} timed calls with the same messages.`);
	lines.push(...hindsightMethod());
	lines.push(`14. **Hindsight import** (issue 9) — \`ts/bench/hsimport.ts\`, one fresh process and one fresh real Hindsight server per build (\`build/hindsight.sh\` started as the end-to-end tests start it, its model and embeddings answered by the fake in the benchmark process; skipped when \`make hindsight\` has not installed it). The agent dir is \`wasm/hsimport\`'s generator (\`go test ./wasm/hsimport -run '^TestGenerateAgentDir$' -hsimport.gen DIR\`): ${CFG.importSessions.toLocaleString("en-US")} sessions in 20 projects, tool results up to 24 KB, branches left through /tree, compactions, recalled blocks, secrets, torn lines. One run of \`/usr/bin/time -v pimem hindsight import DIR/sessions\` with a fresh checkpoint: every session is read, parsed, redacted and posted (8 sessions per \`http\` ask, one request each, \`async: true\`); sessions/s and messages/s are over the wall time from spawn to exit, the peak RSS is the pimem process's. The server extracts facts in the background meanwhile, on the same cores.`);
	lines.push(`15. **Memory search** (issue 18) — \`host/cmd/bench memsearch\`: one session of a trusted project holding the 100k-adds log, a generated 5,000-line \`MEMORY.md\` (a heading every 50 lines) and 200 generated earlier pi sessions of 50 messages each (each file with the mtime of its last message, as pi leaves it) in the agent dir's \`sessions/--<project>--/\`; the first \`tool {name:"memory_search"}\` builds the index (its time is in the note), then ${MEMSEARCH_CALLS} calls rotate over seven queries, each timed alone. On Node the project is made by \`host/cmd/bench memsearch-data\` and searched by \`ts/bench/probe.ts memsearch\`, as pi in its terminal runs it (mode rpc, a first prompt right after the start, then the searches): the 40 MB log moves the core to a worker thread, whose first search's time and the longest pi's loop was held at a stretch meanwhile are in the note; the row "Node, main thread" keeps it there (PIMEM_WORKER=off) in the same run.`);
	lines.push(`16. **MCP** (issue 20) — \`ts/bench/mcp.ts\`: \`pimem mcp\` (the TinyGo module, the binary \`make bench\` builds) spawned with a JSON-RPC client of a few lines over its stdio (no SDK is timed). Start: a project holding the 100k-event log; from spawn to the answer of the first \`tools/call\` (\`memory_status\`, which needs the decisions' state), once cold (that start writes the snapshot at its \`session_shutdown\` and fills wazero's compiled-code cache), then ${MCP_STARTS} starts with both. Search: row 15's project through one server, the first \`memory_search\` alone, then ${MEMSEARCH_CALLS} more over the same queries, each from request to answer; the ratio is to row 15's Node/TinyGo p95 (pi's host) of the same run.`);
	lines.push(`17. **Search budget** (issue 25, item 4) — \`host/cmd/bench bigsearch-data\` makes a project with ${BIG_SESSIONS.toLocaleString("en-US")} earlier sessions of 4 messages each (no decision log, no notes), or with 5 and one more of 60 MB (messages of 10 KB); \`ts/bench/probe.ts bigsearch\` starts a session in a fresh process and calls \`tool {name:"memory_search"}\` as the adapter does: every http ask of no request the core returns (its next slice, decision 018) is answered after \`setImmediate\` and resumed, until the tool result. Searches go on until one has read every session (its answer names none as left for later), then ${BIG_CALLS} more. A 1 ms interval runs meanwhile; the largest gap between its ticks is how long the event loop was held at a stretch (what pi's RPC answers and TUI waited at most). p95 is over the searches after all were read; linear memory and the heap are read after the last.`);
	lines.push("18. **First prompt** (issue 25, item 5) — on the project a 100k cold run (row 2) left, with its snapshot: `probe.ts first` in fresh processes: `session_start`, then two `before_agent_start` with the same prompt, each timed alone; medians over the processes.");
	lines.push(conversationsMethod());
	lines.push("20. **A pasted log** (h-v93 a1) — `probe.ts paste` in fresh processes: a small project (the core on pi's thread, no worker), then `before_agent_start` with a prompt of 2 or 8 MB (a build log, or `.env` lines full of secrets), `context` with it as the user message, `agent_end` and `agent_settled` with it in their messages, each timed alone through `Core.call` (JSON in, envelope parsed). The slowest of the four, median over the processes, at 2 and at 8 MB, and their ratio: 4× is linear.");
	lines.push("");
	lines.push("p50/p99 are interpolated order statistics (`ts/bench/stats.ts`). Go-host rows come from `host/cmd/bench` with the module compiled once per process and a fresh instance per sample.");
	lines.push("");
	lines.push("## Notes");
	lines.push("");
	lines.push(NOTES_BEGIN);
	lines.push(keptNotes());
	lines.push(NOTES_END);
	lines.push("");
	return lines.join("\n");
}

/**
 * Issue 9's import measure: `pimem hindsight import DIR` of a generated agent dir
 * against the real server (ts/bench/hsimport.ts), one fresh server per build.
 * Skipped, saying why, when `make hindsight` has not installed the server.
 */
async function stepHsImport(): Promise<void> {
	const what = `\`pimem hindsight import\` of a generated ${CFG.importSessions.toLocaleString("en-US")}-session agent dir, real server`;
	const stamp = path.join(CFG.hindsightHome, ".complete");
	const missing =
		CFG.pimem === "" ? "no pimem binary (--pimem)" : CFG.hindsightHome === "" || !fs.existsSync(stamp) ? `the Hindsight server is not installed (no ${stamp}): run \`make hindsight\` first` : "";
	for (const b of BUILDS) {
		if (missing !== "") {
			progress(`14 import: skipped, ${missing}`);
			row({ n: "14", what, build: b.name, host: "Go host", result: "skipped", verdict: "skipped", note: missing });
			continue;
		}
		progress(`14 import: ${CFG.importSessions} sessions through pimem against the real Hindsight server (${b.name})`);
		const dir = tmpDir(`hsimport-${b.name}`);
		fs.mkdirSync(dir, { recursive: true });
		const r = await got<ImportResult>(
			runChild(process.execPath, [...NODE_FLAGS, path.join(HERE, "hsimport.ts"), JSON.stringify({ pimem: CFG.pimem, module: b.module, dir, sessions: CFG.importSessions })], 20 * MIN, `import ${b.name}`),
		);
		rm(dir);
		if (!r.ok) {
			errorRow("12", what, b.name, "Go host", "", r.err);
			continue;
		}
		const v = r.v;
		const s = v.ms / 1000;
		row({
			n: "14",
			what,
			build: b.name,
			host: "Go host",
			result: `${(v.sessions / s).toFixed(1)} sessions/s, ${Math.round(v.messages / s).toLocaleString("en-US")} messages/s; peak RSS ${fmtMB(v.maxRssKiB * 1024)}`,
			note: `${v.sessions.toLocaleString("en-US")} sessions, ${v.messages.toLocaleString("en-US")} messages, ${fmtMB(v.chars)} of content in ${s.toFixed(1)} s (pimem CPU ${(v.cpuMs / 1000).toFixed(1)} s); ${v.requests} retain requests`,
		});
	}
}

// ---- Main -------------------------------------------------------------------------

async function main(): Promise<void> {
	for (const b of BUILDS) if (!fs.existsSync(b.module)) throw new Error(`${b.module} is missing: run \`make wasm\``);
	const needed = [...(wants("1") ? [DATA.log1k] : []), ...(wants("2", "4", "5", "6") ? [DATA.log100k] : []), ...(wants("7", "15") ? [DATA.adds100k] : []), ...(CFG.quick || !wants("3", "4") ? [] : [DATA.log1m])];
	for (const f of needed) if (!fs.existsSync(f)) throw new Error(`dataset ${f} is missing: build/bench.sh generates it`);
	tmpRoot = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pimem-bench-")));
	const loadStart = os.loadavg();
	const sampler = setInterval(() => loadSamples.push(os.loadavg()[0]!), 2000);
	sampler.unref();
	loadSamples.push(loadStart[0]!);
	const m = machine();
	progress(`${CFG.only !== undefined ? `rows ${[...CFG.only].join(", ")} only (BENCH_ONLY)` : CFG.quick ? "quick run (BENCH_QUICK=1: no 1M steps)" : "full run"}; temp folder ${tmpRoot}; load ${loadStart.map((x) => x.toFixed(2)).join(" ")}`);

	if (wants("8")) await stepSimilarity();
	if (wants("6")) await stepLoad();
	if (wants("1")) await stepPi();

	if (wants("2", "4", "6", "18")) {
		const r100k = await stepReplay(DATA.log100k, CFG.reps, "100k", true, 10 * MIN);
		replayRows(r100k, "2", "6", "100k", 64 << 20, "< 64 MiB", true);
		await stepWarm(r100k, "100k", "4", false);
		const lb = r100k.lower.ok ? median(r100k.lower.v.map((x) => x.ms)) : Number.NaN;
		await stepGoReplay(lb);
	}

	if (wants("5")) await stepHooks();
	if (wants("7")) await stepSearch();
	if (wants("9", "10")) await stepNotes();
	if (wants("11")) await stepObserve();
	if (wants("12", "13") && !stopping) {
		await stepHindsight({ builds: BUILDS, tmpDir, probe, progress, row, judge, rows: { recall: wants("12"), outbox: wants("13") } });
	}
	if (wants("14") && !stopping) await stepHsImport();
	if (wants("15") && !stopping) await stepMemSearch();
	if (wants("16") && !stopping) await stepMCP();
	if (wants("17") && !stopping) await stepBigSearch();
	if (wants("19") && !stopping) await stepConversations({ builds: BUILDS, gobench, progress, row });
	if (wants("20") && !stopping) await stepPaste();

	if (wants("3", "4") && CFG.quick) {
		for (const b of BUILDS) {
			row({ n: "3", what: "cold replay 1M and linear memory after it", build: b.name, host: "Node", result: "skipped", target: "≤ 512 MiB", verdict: "skipped", note: "BENCH_QUICK=1" });
			row({ n: "4", what: "session start with a valid snapshot, 1M", build: b.name, host: "Node", result: "skipped", target: "< 30 ms", verdict: "skipped", note: "BENCH_QUICK=1" });
		}
	} else if (wants("3", "4")) {
		const r1m = await stepReplay(DATA.log1m, CFG.reps1m, "1M", false, 30 * MIN);
		replayRows(r1m, "3", "3", "1M", 512 << 20, "≤ 512 MiB", false);
		await stepWarm(r1m, "1M", "4", true);
	}

	// An interrupted run leaves the last complete report in place.
	if (stopping) return;
	const loadEnd = os.loadavg();
	clearInterval(sampler);
	const seconds = (performance.now() - T0) / 1000;
	process.stdout.write(`\n${terminalTable()}\n\n`);
	process.stdout.write(`load average: start ${loadStart.map((x) => x.toFixed(2)).join(" ")}, end ${loadEnd.map((x) => x.toFixed(2)).join(" ")}; ${Math.round(seconds)} s\n`);
	if (CFG.only !== undefined) {
		// The table above cuts its cells; these rows are whole, for a note or a decision record.
		for (const r of ordered()) process.stdout.write(`| ${COLUMNS.map(([k]) => mdCell(r[k])).join(" | ")} | ${mdCell(r.note)} |\n`);
		process.stdout.write(`BENCH_ONLY=${[...CFG.only].join(",")}: ${path.relative(REPO, CFG.out)} left as it is (it holds a whole run)\n`);
		if (errors > 0) process.exitCode = 1;
		return;
	}
	fs.mkdirSync(path.dirname(CFG.out), { recursive: true });
	fs.writeFileSync(CFG.out, markdown(m, loadStart, loadEnd, seconds));
	process.stdout.write(`wrote ${path.relative(REPO, CFG.out)}\n`);
	if (errors > 0) {
		process.stderr.write(`[bench] ${errors} figure(s) could not be measured (ERROR rows above)\n`);
		process.exitCode = 1;
	}
}

main().catch((err: unknown) => {
	process.stderr.write(`[bench] ${err instanceof Error ? err.message : String(err)}\n`);
	process.exitCode = 1;
});
