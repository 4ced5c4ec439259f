// Scenario 6: a log with a garbage line in the middle and a torn last line
// (a crash mid-append) still loads: the valid decisions are injected, the
// bad lines stay on disk untouched, `/decision doctor` names them by line
// number, and a later write keeps them (it starts on a fresh line).

import assert from "node:assert/strict";
import fs from "node:fs";
import { it } from "node:test";
import { addEvent, decisionLines, runPrint, seedLog, startRpc, withSandbox } from "./harness.ts";

it("a corrupt log still loads, its bad lines are reported by line number and never dropped", async () => {
	await withSandbox({}, async (sb) => {
		const a = addEvent(sb.project, 1, "Use PostgreSQL 16 as the primary datastore");
		const b = addEvent(sb.project, 2, "Run the linter before every commit");
		const garbage = "{this is not json at all";
		const torn = '{"v":1,"t":"2026-11-21T10:00:00.000Z","e":"a","i":"D-2026-11-21-0009","d":{"tx":"Half a li';
		// line 1: a, line 2: garbage, line 3: b, line 4: torn (no newline)
		const file = seedLog(sb.project, [a, garbage, b], { torn });
		const original = fs.readFileSync(file, "utf8");

		const r = await runPrint(sb, "What are our rules?");
		assert.equal(r.code, 0, r.stderr);
		const lines = decisionLines(r.systemPrompt);
		assert.ok(lines.some((l) => l.startsWith(`${a.i} | `)), `line 1 injected:\n${lines.join("\n")}`);
		assert.ok(lines.some((l) => l.startsWith(`${b.i} | `)), `line 3 injected:\n${lines.join("\n")}`);
		assert.ok(!r.systemPrompt.includes("Half a li"), "the torn line is not injected");
		assert.equal(fs.readFileSync(file, "utf8"), original, "loading leaves the file byte-identical");

		const rpc = await startRpc(sb);
		try {
			const doc = await rpc.command("/decision doctor");
			const report = doc.notes.join("\n");
			const lineNumbers = [...report.matchAll(/\blines?\s+(\d+)/gi)].map((m) => Number(m[1]));
			assert.ok(lineNumbers.includes(2), `doctor names line 2 (garbage):\n${report}`);
			assert.ok(lineNumbers.includes(4), `doctor names line 4 (torn):\n${report}`);
			assert.equal(fs.readFileSync(file, "utf8"), original, "doctor leaves the file byte-identical");

			// A write after a torn line keeps both bad lines and starts on a new line.
			await rpc.command("/decision add Deploy from the main branch only");
		} finally {
			await rpc.close();
		}
		const after = fs.readFileSync(file, "utf8");
		assert.ok(after.startsWith(original), "the bad lines are still on disk, unchanged");
		const tail = after.slice(original.length);
		assert.ok(tail.startsWith("\n") || original.endsWith("\n"), "the new event starts on a line of its own");
		const newLines = tail.split("\n").filter((l) => l !== "");
		assert.equal(newLines.length, 1, `one new line: ${JSON.stringify(tail)}`);
		const ev = JSON.parse(newLines[0]!) as { e: string; d?: { tx?: string } };
		assert.equal(ev.e, "a");
		assert.equal(ev.d?.tx, "Deploy from the main branch only");
	});
});
