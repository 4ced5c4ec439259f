// Row 19 of `make bench` (issue 26, item 6): memory_search's recall on the
// conversation relevance set (testdata/search/conversations), per kind of
// question, beside BM25 over the same turns computed in the same run. The Go
// benchmark host measures (`host/cmd/bench conversations`, the compiled module
// on wazero); this step turns its report into rows: one per kind of question
// for the shipped build, and one for the other build saying whether it found
// the same. A kind passes when none of its three figures (answer turn in the
// top 5 and the top 10, answer session in the top 5) is under either BM25's.

import type { RowInput } from "./row.ts";

export interface ConvBench {
	builds: Array<{ name: string; module: string }>;
	/** Runs `host/cmd/bench SUB args`; resolves with the JSON it printed. */
	gobench(sub: string, args: string[], timeoutMs: number, label: string): Promise<unknown>;
	progress(msg: string): void;
	row(r: RowInput): void;
}

interface Score {
	n: number;
	top5: number;
	top10: number;
	session5: number;
}
interface Report {
	kinds: Array<Score & { kind: string }>;
	all: Score;
}
interface Result {
	sessions: number;
	turns: number;
	questions: number;
	ours: Report;
	bm25: Report;
	bm25NoStop: Report;
	table: string;
}

const N = "19";
const TARGET = "≥ BM25, each figure";

const f = (x: number) => x.toFixed(2);
const figures = (s: Score) => `top-5 ${f(s.top5)}, top-10 ${f(s.top10)}, session ${f(s.session5)}`;

/** The figures of ours under either baseline's, named. */
function losses(ours: Score, bm25: Score, noStop: Score): string[] {
	const out: string[] = [];
	for (const [name, base] of [["BM25", bm25], ["BM25 without stop words", noStop]] as const) {
		for (const [label, k] of [["top-5", "top5"], ["top-10", "top10"], ["session top-5", "session5"]] as const) {
			if (ours[k] < base[k]) out.push(`${label} under ${name} (${f(base[k])})`);
		}
	}
	return out;
}

function kindRows(bench: ConvBench, b: string, r: Result): void {
	const lines = [...r.ours.kinds.map((k, i) => ({ kind: k.kind, ours: k as Score, bm25: r.bm25.kinds[i]!, noStop: r.bm25NoStop.kinds[i]! })), { kind: "all questions", ours: r.ours.all, bm25: r.bm25.all, noStop: r.bm25NoStop.all }];
	for (const l of lines) {
		const lost = losses(l.ours, l.bm25, l.noStop);
		bench.row({
			n: N,
			what: `conversation recall: ${l.kind} (${l.ours.n} questions)`,
			build: b,
			host: "Go host",
			result: figures(l.ours),
			target: TARGET,
			verdict: lost.length === 0 ? "PASS" : "MISS",
			note: [...lost, `BM25 ${figures(l.bm25)}; without stop words ${figures(l.noStop)}`].join("; "),
		});
	}
}

export async function stepConversations(bench: ConvBench): Promise<void> {
	let first: { build: string; r: Result } | undefined;
	for (const b of bench.builds) {
		bench.progress(`${N} conversation recall: testdata/search/conversations through memory_search (${b.name}), Go host, beside BM25`);
		let r: Result;
		try {
			r = (await bench.gobench("conversations", ["-module", b.module], 5 * 60_000, `conversations ${b.name}`)) as Result;
		} catch (err) {
			const msg = err instanceof Error ? err.message : String(err);
			bench.progress(`ERROR ${msg}`);
			bench.row({ n: N, what: "conversation recall (testdata/search/conversations)", build: b.name, host: "Go host", result: "—", target: TARGET, verdict: "ERROR", note: msg });
			continue;
		}
		if (first === undefined) {
			first = { build: b.name, r };
			bench.progress(`${r.sessions} sessions, ${r.turns} turns, ${r.questions} questions:\n${r.table}`);
			kindRows(bench, b.name, r);
			continue;
		}
		const same = JSON.stringify(r.ours) === JSON.stringify(first.r.ours);
		bench.row({
			n: N,
			what: "conversation recall: all kinds, beside the first build's",
			build: b.name,
			host: "Go host",
			result: same ? `the same as ${first.build} on every kind` : `all questions ${figures(r.ours.all)}`,
			verdict: same ? "info" : "MISS",
			note: same ? "" : `differs from ${first.build} (${figures(first.r.ours.all)}); the builds should rank alike`,
		});
	}
}

/** Row 19's entry in the report's "How each figure is taken". */
export function methodLine(): string {
	return `${N}. **Conversation recall** (issue 26) — \`host/cmd/bench conversations\`: the \`testdata/search/conversations\` sessions (one project over eight weeks: decisions argued and reversed, bugs chased, commands run, ordinary chat) written into an in-memory project where pi keeps that project's sessions, the module's clock at the set's "now"; every question asked through \`/memory search --json --limit 10\` (the ranking \`memory_search\` uses), and BM25 (k1 1.2, b 0.75; plain words, and without English stop words) over the same turns in the same process. Per kind of question: the answer turn in the top 5 and the top 10, the answer's session in the top 5 (any answer turn, or the share of them for a question that needs two). A kind passes when no figure is under either BM25's (docs/search.md, "The conversation set").`;
}
