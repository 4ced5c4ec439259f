// The check that keeps the Node tests off a missing or stale core (builds.ts), on
// temp trees with chosen modification times.

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { staleness } from "./builds.ts";

const BASE = Date.UTC(2026, 10, 21, 12, 0, 0);
const MINUTE = 60_000;
const SOURCES: Record<string, number> = { "go.mod": 0, "go.sum": 0, "wasm/main.go": MINUTE, "wasm/decision/snapshot.go": 2 * MINUTE };

/** A temp root holding `files`, each modified at BASE plus its offset in ms. */
function tree(files: Record<string, number>): string {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-builds-"));
	for (const [rel, offset] of Object.entries(files)) {
		const file = path.join(root, rel);
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, "x");
		fs.utimesSync(file, new Date(BASE + offset), new Date(BASE + offset));
	}
	return root;
}

const cases: Array<{ name: string; files: Record<string, number>; want: string | undefined }> = [
	{ name: "newer than every source", files: { "ts/core.wasm": 3 * MINUTE }, want: undefined },
	{ name: "as old as the newest source", files: { "ts/core.wasm": 2 * MINUTE }, want: undefined },
	{ name: "missing", files: {}, want: "$ROOT/ts/core.wasm is missing: run `make wasm` in $ROOT" },
	{
		name: "older than a source in a package",
		files: { "ts/core.wasm": 1.5 * MINUTE },
		want: "$ROOT/ts/core.wasm is older than $ROOT/wasm/decision/snapshot.go (changed 2026-11-21T12:02:00.000Z): run `make wasm` in $ROOT",
	},
	{
		name: "older than go.sum",
		files: { "ts/core.wasm": 3 * MINUTE, "go.sum": 4 * MINUTE },
		want: "$ROOT/ts/core.wasm is older than $ROOT/go.sum (changed 2026-11-21T12:04:00.000Z): run `make wasm` in $ROOT",
	},
	{
		name: "a newer test file or fixture is no source",
		files: { "ts/core.wasm": 3 * MINUTE, "wasm/decision/snapshot_test.go": 60 * MINUTE, "wasm/decision/testdata/x.json": 60 * MINUTE },
		want: undefined,
	},
];

for (const c of cases) {
	test(`a module ${c.name} is ${c.want === undefined ? "current" : "refused, saying to run make wasm"}`, (t) => {
		const root = tree({ ...SOURCES, ...c.files });
		t.after(() => fs.rmSync(root, { recursive: true, force: true }));
		const want = c.want?.replaceAll("$ROOT", root);
		assert.equal(staleness(path.join(root, "ts", "core.wasm"), root), want);
	});
}
