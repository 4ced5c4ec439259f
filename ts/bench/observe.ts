// Observational memory's figures for `make bench` (issue 8, "Measures"), taken
// through the compiled module the way pi drives it: session_start with a branch,
// `context` before every model request, `agent_settled` after every turn with the
// model calls answered through `resume`, and pi's compaction asked for by a
// `compact` effect answered with `session_before_compact`.
//
// The session is testdata/observe/session-200.jsonl; its model calls are answered by
// the scripted observer and reflector that testdata/observe/README.md describes
// (ported from wasm/observe/fixture_test.go), so every build gets the same answers.
// ts/bench/probe.ts runs `observe` in a fresh process and prints what this returns.

import fs from "node:fs";
import { Core, compileCore, type Envelope } from "../core.ts";

type Entry = Record<string, unknown> & { type: string; id: string; parentId: string | null; timestamp: string };
type Message = Record<string, unknown> & { role: string };

const WINDOW = 128000;
/** pi's default keepRecentTokens: what its preparation keeps after a compaction. */
const KEEP_RECENT_TOKENS = 20000;

function fail(exportName: string, env: Envelope): never {
	throw new Error(`${exportName}: exit ${env.exit}: ${JSON.stringify(env.effects).slice(0, 500)}`);
}

function check(exportName: string, env: Envelope): Envelope {
	if (env.exit !== 0 || env.effects.some((e) => e.t === "notify" && e.level === "error")) fail(exportName, env);
	return env;
}

// ---- The scripted observer and reflector (testdata/observe/README.md) ----------------

function scriptedObserver(prompt: string): string {
	const i = prompt.indexOf("<transcript>\n");
	const j = prompt.lastIndexOf("\n</transcript>");
	if (i < 0 || j < i) return "";
	const out: string[] = [];
	let steps: string[] = [];
	let stepAt = "";
	const flush = () => {
		if (steps.length > 0) {
			out.push(`* 🟡 (${stepAt}) Agent ran ${steps.length} tool call(s)`);
			for (const s of steps) out.push(`  * -> ${s}`);
		}
		steps = [];
	};
	const lines = prompt.slice(i + "<transcript>\n".length, j).split("\n");
	lines.forEach((l, k) => {
		if (l.startsWith("--- ") && l.endsWith(" ---")) {
			flush();
			const d = l.slice(4, -4);
			if (d.length > 4) out.push(`Date: ${d.slice(4)}`);
		} else if (l.length > 8 && l[0] === "[" && l[6] === "]") {
			const at = l.slice(1, 6);
			const rest = l.slice(8);
			if (rest.startsWith("User: ")) {
				flush();
				let text = rest.slice("User: ".length);
				const e = text.search(/[.?!]/);
				if (e > 0) text = text.slice(0, e);
				out.push(`* 🔴 (${at}) User: ${text}`);
			} else if (rest.startsWith("Assistant calls ")) {
				if (steps.length === 0) stepAt = at;
				steps.push(rest.slice("Assistant calls ".length));
			} else if (rest.startsWith("Result of ") && rest.endsWith(" (error):") && k + 1 < lines.length) {
				flush();
				out.push(`* 🔴 (${at}) ${rest.slice("Result of ".length, -" (error):".length)} failed: ${lines[k + 1]!.trim()}`);
			}
		}
	});
	flush();
	return out.map((l) => `${l}\n`).join("");
}

function scriptedReflector(prompt: string): string {
	const i = prompt.indexOf("<observations>\n");
	const j = prompt.indexOf("</observations>");
	const seen = new Set<string>();
	let out = "<observations>\n";
	for (const l of prompt.slice(i + "<observations>\n".length, j).split("\n")) {
		if (l.startsWith("Date: ")) out += `${l}\n`;
		else if (l.startsWith("* 🔴") || l.startsWith("* 🟡")) {
			const p = l.indexOf(")");
			const key = p > 0 ? l.slice(p) : l;
			if (!seen.has(key)) {
				seen.add(key);
				out += `${l}\n`;
			}
		}
	}
	return `${out}</observations>\n`;
}

// ---- A pi session, as far as the core sees it ----------------------------------------

/** The branch pi's session manager would return, and the context it would build from it. */
class Branch {
	entries: Entry[] = [];
	#n = 0;

	add(e: Entry): void {
		this.entries.push(e);
	}

	/** Appends an entry pi writes (a custom entry, a compaction) after the newest one. */
	append(fields: Record<string, unknown> & { type: string }, ms: number): Entry {
		const last = this.entries[this.entries.length - 1];
		const e = { ...fields, id: `bench-${++this.#n}`, parentId: last?.id ?? null, timestamp: new Date(ms).toISOString() } as Entry;
		this.entries.push(e);
		return e;
	}

	/** The messages of pi's context event: the latest compaction's summary, then what it kept and what followed. */
	messages(): Message[] {
		let from = 0;
		let summary: Message | undefined;
		for (let i = this.entries.length - 1; i >= 0; i--) {
			const e = this.entries[i]!;
			if (e.type !== "compaction") continue;
			summary = { role: "compactionSummary", summary: e.summary, tokensBefore: e.tokensBefore, timestamp: Date.parse(e.timestamp) };
			const kept = this.entries.findIndex((x) => x.id === e.firstKeptEntryId);
			from = kept >= 0 ? kept : i + 1;
			break;
		}
		const out: Message[] = summary === undefined ? [] : [summary];
		for (const e of this.entries.slice(from)) if (e.type === "message") out.push(e.message as Message);
		return out;
	}

	/** pi's preparation: the first kept entry is the user message that starts the newest KEEP_RECENT_TOKENS tokens. */
	firstKept(): string {
		let tokens = 0;
		let kept = "";
		for (let i = this.entries.length - 1; i >= 0; i--) {
			const e = this.entries[i]!;
			if (e.type === "compaction") break;
			if (e.type !== "message") continue;
			tokens += Math.ceil(JSON.stringify(e.message).length / 4);
			if ((e.message as Message).role === "user") kept = e.id;
			if (tokens >= KEEP_RECENT_TOKENS && kept !== "") break;
		}
		return kept;
	}
}

interface Counts {
	observer: number;
	reflector: number;
	compactions: number;
	updates: number; // ledger records appended
}

/** Performs one envelope's effects the way ts/index.ts does, answering model calls at once. */
async function drive(core: Core, exportName: string, env: Envelope, branch: Branch, now: () => number, counts: Counts): Promise<Envelope[]> {
	const seen: Envelope[] = [];
	for (;;) {
		check(exportName, env);
		seen.push(env);
		let ask: { id: string; prompt: string } | undefined;
		for (const e of env.effects) {
			if (e.t === "session_entry") {
				branch.append({ type: "custom", customType: e.customType, data: e.data }, now());
				counts.updates++;
			} else if (e.t === "complete") ask = { id: e.id, prompt: e.prompt };
		}
		if (ask === undefined) return seen;
		const observer = ask.prompt.includes("<transcript>\n");
		if (observer) counts.observer++;
		else counts.reflector++;
		const text = observer ? scriptedObserver(ask.prompt) : scriptedReflector(ask.prompt);
		env = await core.call("resume", { id: ask.id, value: { text, usage: { input: 0, output: 0, totalTokens: 0 } } });
	}
}

function compactInput(branch: Branch, firstKept: string): object {
	return { branch: branch.entries, firstKeptEntryId: firstKept, previousSummary: "", fileOps: { read: [], modified: [] }, tokensBefore: 0, reason: "threshold", window: WINDOW };
}

function statusLine(text: string): { text: string; items: number[]; tokens: number; unobserved: number } {
	const m = /Observations: (\d+) \(🔴 (\d+), 🟡 (\d+), 🟢 (\d+)\), ~(\d+) tokens/.exec(text);
	if (m === null) throw new Error(`/om status printed no observation counts: ${text.slice(0, 300)}`);
	const u = /~(\d+) unobserved tokens/.exec(text);
	return { text, items: m.slice(1, 5).map(Number), tokens: Number(m[5]), unobserved: u === null ? 0 : Number(u[1]) };
}

async function omStatus(core: Core): Promise<string> {
	const env = check("command", await core.call("command", { name: "om", argv: ["status"], hasUI: false }));
	return env.effects.map((e) => (e.t === "output" ? e.text : "")).join("\n");
}

function startInput(cwd: string, agent: string, branch: Entry[]): object {
	return { cwd, agentDir: agent, trusted: true, hasUI: false, mode: "print", reason: "startup", flags: { "no-memory": false }, fault: "", branch, sessionId: "s-1", zone: 0, window: WINDOW };
}

/** What `observe` measures; ts/bench/main.ts turns it into rows. */
export interface ObserveResult {
	entries: number;
	turns: number;
	tokensBefore: number; // the store's estimate of the conversation's tokens
	tokensAfter: number; // the observations', after the replay
	items: number[]; // [all, 🔴, 🟡, 🟢]
	observer: number;
	reflector: number;
	compactions: number;
	blockTurns: number; // turns whose requests were counted for distinct blocks
	blocks: number; // distinct injected blocks in them
	blockUpdates: number; // ledger records appended in them
	blockDays: number; // calendar days (UTC) they span
	requests: number; // context calls in them
	compact: number[]; // ms per covered session_before_compact
	contextItems: number;
	context: number[]; // ms per context call with contextItems observations
	contextFirstMs: number;
	contextBytes: number; // the injected block's size
}

/**
 * observe {module, session, dir, calls}: replays the session turn by turn, then times
 * covered compactions on its final branch and `context` on a branch holding 1,200
 * observations. dir holds the project and agent folders (empty: no om-config.json).
 */
export async function observeBench(module: string, sessionFile: string, dir: string, calls: number): Promise<ObserveResult> {
	const lines = fs.readFileSync(sessionFile, "utf8").trim().split("\n");
	const fixture = lines.slice(1).map((l) => JSON.parse(l) as Entry);
	const cwd = `${dir}/project`;
	const agent = `${dir}/agent`;
	fs.mkdirSync(cwd, { recursive: true });
	fs.mkdirSync(agent, { recursive: true });
	await compileCore(module);

	// The conversation's size as the store counts it: /om status on the whole branch, nothing observed yet.
	let clock = Date.parse(fixture[fixture.length - 1]!.timestamp);
	const now = () => clock;
	let core = new Core(module, { now });
	let tokensBefore: number;
	try {
		check("session_start", await core.call("session_start", startInput(cwd, agent, fixture)));
		tokensBefore = statusLine(await omStatus(core)).unobserved;
	} finally {
		await core.close();
	}

	// The replay: context before every model request, agent_settled after every turn.
	const branch = new Branch();
	const counts: Counts = { observer: 0, reflector: 0, compactions: 0, updates: 0 };
	const turns = fixture.filter((e) => e.type === "message" && (e.message as Message).role === "user").length;
	const blockFrom = turns - 100; // distinct blocks are counted over the last 100 turns
	const blocks = new Set<string>();
	const days = new Set<string>(); // calendar days of those requests: the block must not change with the day (relative dates count from the last memory change)
	let requests = 0;
	let updatesBefore = 0;
	let turn = -1;
	clock = Date.parse(fixture[0]!.timestamp);
	core = new Core(module, { now });
	try {
		check("session_start", await core.call("session_start", startInput(cwd, agent, [])));
		const settle = async () => {
			const envs = await drive(core, "agent_settled", await core.call("agent_settled", { branch: branch.entries, window: WINDOW, aborted: false }), branch, now, counts);
			if (!envs.some((env) => env.effects.some((e) => e.t === "compact"))) return;
			// pi compacts (it is idle after a settle) and asks for the summary.
			const firstKept = branch.firstKept();
			const got = (await drive(core, "session_before_compact", await core.call("session_before_compact", compactInput(branch, firstKept)), branch, now, counts)).flatMap((env) => env.effects);
			const c = got.find((e) => e.t === "compaction");
			if (c === undefined || c.t !== "compaction") return; // pi's own compaction would run; the bench leaves the branch as it is
			branch.append({ type: "compaction", summary: c.summary, firstKeptEntryId: c.firstKeptEntryId, tokensBefore: c.tokensBefore, details: c.details }, now());
			counts.compactions++;
		};
		for (const e of fixture) {
			const msg = e.type === "message" ? (e.message as Message) : undefined;
			if (msg?.role === "user") {
				if (turn >= 0) await settle();
				turn++;
				if (turn === blockFrom) updatesBefore = counts.updates;
			}
			if (msg?.role === "assistant") {
				// A model request: pi's context event, then the reply arrives.
				const env = check("context", await core.call("context", { messages: branch.messages() }));
				if (turn >= blockFrom) {
					requests++;
					days.add(new Date(clock).toISOString().slice(0, 10));
					for (const eff of env.effects) if (eff.t === "context_messages") for (const m of core.contextMessages(eff)) if (m.customType === "observational-memory-context") blocks.add(m.content);
				}
			}
			clock = Date.parse(e.timestamp);
			branch.add(e);
		}
		await settle();
		const blockUpdates = counts.updates - updatesBefore;
		const st = statusLine(await omStatus(core));

		// Covered compactions on the final branch: pi keeps everything after the newest
		// entry the observations cover (the tail under the observer's threshold): the
		// `through` of the newest observe record in the branch (/om status names the turn,
		// not the entry's id).
		const through = branch.entries
			.map((e) => (e.type === "custom" && e.customType === "pi-memory-om" ? (e.data as { op?: string; through?: string }) : undefined))
			.filter((d) => d?.op === "observe" && typeof d.through === "string")
			.at(-1)?.through;
		const at = branch.entries.findIndex((e) => e.id === through);
		const keep = branch.entries.slice(at + 1).find((e) => e.type === "message");
		if (at < 0 || keep === undefined) throw new Error(`/om status names no covered entry with a message after it: ${st.text.slice(0, 300)}`);
		const compact: number[] = [];
		const n = Math.max(10, Math.floor(calls / 10));
		for (let i = 0; i < 10 + n; i++) {
			const t0 = performance.now();
			const env = check("session_before_compact", await core.call("session_before_compact", compactInput(branch, keep.id)));
			const ms = performance.now() - t0;
			if (!env.effects.some((e) => e.t === "compaction")) throw new Error(`session_before_compact on the replayed branch is not covered: ${JSON.stringify(env.effects).slice(0, 300)}`);
			if (i >= 10) compact.push(ms);
		}
		const ctx = await contextBench(module, cwd, agent, fixture, calls);
		return {
			entries: fixture.length,
			turns,
			tokensBefore,
			tokensAfter: st.tokens,
			items: st.items,
			observer: counts.observer,
			reflector: counts.reflector,
			compactions: counts.compactions,
			blockTurns: turns - blockFrom,
			blocks: blocks.size,
			blockUpdates,
			blockDays: days.size,
			requests,
			compact,
			...ctx,
		};
	} finally {
		await core.close();
	}
}

/** 40 days of 30 observations each (🔴🟡🟢 in turn), as ledger records on a branch. */
function ledgerOf1200(start: number): Array<Record<string, unknown>> {
	const out: Array<Record<string, unknown>> = [];
	const day = 86400000;
	const marks = ["🔴", "🟡", "🟢"];
	for (let d = 0; d < 40; d++) {
		const date = new Date(start + d * day).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
		let obs = `Date: ${date}\n`;
		for (let i = 0; i < 30; i++) {
			const hh = String(9 + Math.floor(i / 4)).padStart(2, "0");
			const mm = String((i % 4) * 15).padStart(2, "0");
			obs += `* ${marks[i % 3]} (${hh}:${mm}) observation ${d * 30 + i} about src/pkg${i}/file.go and its tests\n  * -> ran go test ./pkg${i}\n`;
		}
		out.push({ v: 1, op: "observe", t: start + d * day + 18 * 3600000, from: "e1", through: "e1", tokens: 3000, obs });
	}
	return out;
}

async function contextBench(module: string, cwd: string, agent: string, fixture: Entry[], calls: number): Promise<{ contextItems: number; context: number[]; contextFirstMs: number; contextBytes: number }> {
	const branch = new Branch();
	for (const e of fixture.slice(0, 40)) branch.add(e);
	const start = Date.parse(fixture[0]!.timestamp) - 40 * 86400000;
	for (const rec of ledgerOf1200(start)) branch.append({ type: "custom", customType: "pi-memory-om", data: rec }, start);
	const clock = Date.parse(fixture[39]!.timestamp);
	const core = new Core(module, { now: () => clock });
	try {
		check("session_start", await core.call("session_start", startInput(cwd, agent, branch.entries)));
		const items = statusLine(await omStatus(core)).items[0]!;
		const input = { messages: branch.messages() };
		const times: number[] = [];
		let first = 0;
		let bytes = 0;
		for (let i = 0; i < 50 + calls; i++) {
			const t0 = performance.now();
			const env = check("context", await core.call("context", input));
			const ms = performance.now() - t0;
			const eff = env.effects.find((e) => e.t === "context_messages");
			if (eff === undefined || eff.t !== "context_messages") throw new Error(`context injected nothing with ${items} observations`);
			bytes = core.contextMessages(eff).reduce((n, m) => n + Buffer.byteLength(m.content), 0);
			if (i === 0) first = ms;
			if (i >= 50) times.push(ms);
		}
		return { contextItems: items, context: times, contextFirstMs: first, contextBytes: bytes };
	} finally {
		await core.close();
	}
}
