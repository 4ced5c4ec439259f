// The two builds of the core that the Node tests run, and the check that each is
// built and current. On a missing module every test would fail for a reason it does
// not name; on a module older than its sources they would pass on code that is no
// longer the core's. `make test` rebuilds first, so this trips only hand runs.
// host/internal/testmod makes the same check for the Go tests.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** ts/core.wasm (TinyGo, what ships) and build/out/core-go.wasm (standard Go). */
export const BUILDS = [
	{ name: "tinygo", file: path.join(REPO, "ts", "core.wasm") },
	{ name: "go", file: path.join(REPO, "build", "out", "core-go.wasm") },
] as const;

/**
 * Why the module at `file` must not be tested, or undefined when it may: missing, or
 * older than the newest of the sources make rebuilds it from (the non-test .go files
 * under wasm/, go.mod, go.sum).
 */
export function staleness(file: string, root: string = REPO): string | undefined {
	let built: number;
	try {
		built = fs.statSync(file).mtimeMs;
	} catch {
		return `${file} is missing: run \`make wasm\` in ${root}`;
	}
	const sources = fs
		.readdirSync(path.join(root, "wasm"), { recursive: true, encoding: "utf8" })
		.filter((rel) => rel.endsWith(".go") && !rel.endsWith("_test.go"))
		.map((rel) => path.join(root, "wasm", rel));
	sources.push(path.join(root, "go.mod"), path.join(root, "go.sum"));
	let newest = "";
	let changed = -Infinity;
	for (const source of sources) {
		const t = fs.statSync(source).mtimeMs;
		if (t > changed) [newest, changed] = [source, t];
	}
	if (built < changed) return `${file} is older than ${newest} (changed ${new Date(changed).toISOString()}): run \`make wasm\` in ${root}`;
	return undefined;
}

/** Throws, saying what to run, unless the module at `file` is built and current. */
export function assertCurrent(file: string): void {
	const why = staleness(file);
	if (why !== undefined) throw new Error(why);
}
