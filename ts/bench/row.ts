// The report's rows: what main.ts prints and what each step hands it.

export type Verdict = "PASS" | "MISS" | "info" | "not implemented" | "skipped" | "ERROR";

/** A row of the report. */
export interface Row {
	n: string; // the item number
	what: string;
	build: string;
	host: string;
	result: string;
	target: string;
	verdict: Verdict;
	note: string;
}

/** A row as main.ts's row() takes it: what is not given is blank, and the verdict "info". */
export type RowInput = Partial<Row> & Pick<Row, "n" | "what" | "result">;
