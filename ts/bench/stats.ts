// Order statistics for the benchmark report: every median and percentile in
// docs/benchmarks.md comes from here, whichever process took the samples.

/** The q-quantile (0..1) of xs by linear interpolation between order statistics; NaN when empty. */
export function quantile(xs: readonly number[], q: number): number {
	if (xs.length === 0) return Number.NaN;
	const s = [...xs].sort((a, b) => a - b);
	const pos = (s.length - 1) * Math.min(1, Math.max(0, q));
	const lo = Math.floor(pos);
	const hi = Math.ceil(pos);
	return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

export function median(xs: readonly number[]): number {
	return quantile(xs, 0.5);
}

/** The largest value; NaN when empty. */
export function max(xs: readonly number[]): number {
	return xs.length === 0 ? Number.NaN : Math.max(...xs);
}

/** Milliseconds for a table: 3 significant digits below 10, whole numbers above 1000. */
export function fmtMs(x: number): string {
	if (!Number.isFinite(x)) return "–";
	if (Math.abs(x) >= 1000) return `${Math.round(x).toLocaleString("en-US")} ms`;
	if (Math.abs(x) >= 100) return `${x.toFixed(0)} ms`;
	if (Math.abs(x) >= 10) return `${x.toFixed(1)} ms`;
	if (Math.abs(x) >= 1) return `${x.toFixed(2)} ms`;
	return `${(x * 1000).toFixed(0)} µs`;
}

/** Bytes as MiB (or KiB below one MiB). */
export function fmtBytes(x: number): string {
	if (!Number.isFinite(x) || x <= 0) return "–";
	if (x < 1 << 20) return `${(x / 1024).toFixed(0)} KiB`;
	return `${(x / (1 << 20)).toFixed(x < 10 << 20 ? 2 : 0)} MiB`;
}

/** Bytes as decimal megabytes (module files are quoted in MB). */
export function fmtMB(x: number): string {
	return Number.isFinite(x) ? `${(x / 1e6).toFixed(2)} MB` : "–";
}

export function fmtRatio(x: number): string {
	return Number.isFinite(x) ? `${x.toFixed(2)}×` : "–";
}
