// What a benchmark reads from its environment and from the JSON arguments a probe
// process is started with: one definition for main.ts, probe.ts and hindsight.ts.

/** An environment variable holding a whole number ≥ min, else dflt; throws on anything else. */
export function envInt(name: string, dflt: number, min: number): number {
	const v = process.env[name];
	if (v === undefined || v === "") return dflt;
	const n = Number.parseInt(v, 10);
	if (!Number.isFinite(n) || n < min) throw new Error(`${name}=${v}: expected a whole number ≥ ${min}`);
	return n;
}

/** A probe's arguments, as main.ts passes them (one JSON object). */
export type Args = Record<string, unknown>;

/** A required string argument; throws naming it when absent or empty. */
export function str(a: Args, k: string): string {
	const v = a[k];
	if (typeof v !== "string" || v === "") throw new Error(`argument ${k} (a string) is required`);
	return v;
}

/** A number argument, or dflt. */
export function num(a: Args, k: string, dflt: number): number {
	const v = a[k];
	return typeof v === "number" ? v : dflt;
}
