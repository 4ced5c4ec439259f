// Scenario 1: `/decision add` over RPC lands an add event in the project's
// JSONL log, and the next prompt's system prompt carries the decision line
// (`D-YYYY-MM-DD-NNNN | text | #tag`), byte-identical on the turn after, and
// in a fresh pi process too (the log is the source of truth). In a git work
// tree the log lives at the git root, wherever in the tree pi was started.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { decisionLines, readEvents, requestWithUser, runPrint, startRpc, systemPromptOf, withSandbox } from "./harness.ts";

it("/decision add over RPC is written to the log and injected into the next system prompt", async () => {
	await withSandbox({}, async (sb) => {
		const text = "Use PostgreSQL 16 as the primary datastore";
		const rpc = await startRpc(sb);
		try {
			const add = await rpc.command(`/decision add ${text} --tag db`);

			const events = readEvents(sb.project);
			assert.equal(events.length, 1, `one event expected, got ${JSON.stringify(events)}`);
			const ev = events[0]!;
			assert.equal(ev.v, 1);
			assert.equal(ev.e, "a");
			assert.match(ev.i, /^D-\d{4}-\d{2}-\d{2}-\d{4}$/);
			assert.equal(ev.i.slice(2, 12), ev.t.slice(0, 10), "the id carries the UTC day of the event");
			assert.equal(ev.d?.tx, text);
			assert.deepEqual(ev.d?.tg, ["db"]);
			assert.ok(add.notes.join("\n").includes(ev.i), `the command names the new id; notes: ${JSON.stringify(add.notes)}`);

			await rpc.prompt("Which database do we use?");
			const sp1 = systemPromptOf(requestWithUser(sb.model, "Which database do we use?"));
			const lines = decisionLines(sp1);
			assert.equal(lines.length, 1, `one decision line expected in:\n${sp1.slice(-1500)}`);
			assert.ok(lines[0]!.startsWith(`${ev.i} | ${text}`), lines[0]);
			assert.match(lines[0]!, /#db\b/);

			// Unchanged memory: the next turn's system prompt is byte-identical.
			await rpc.prompt("And which version?");
			const sp2 = systemPromptOf(requestWithUser(sb.model, "And which version?"));
			assert.equal(sp2, sp1);
		} finally {
			await rpc.close();
		}

		// A new pi process reads it back from the log.
		const r = await runPrint(sb, "New session: what is our datastore?");
		assert.equal(r.code, 0, r.stderr);
		assert.ok(decisionLines(r.systemPrompt).some((l) => l.includes(text)), r.systemPrompt.slice(-1500));
	});
});

it("in a git work tree, pi started in a subfolder writes the log at the git root", async () => {
	await withSandbox({ git: true }, async (sb) => {
		const sub = path.join(sb.project, "packages", "api");
		fs.mkdirSync(sub, { recursive: true });
		const rpc = await startRpc(sb, { cwd: sub });
		try {
			await rpc.command("/decision add Keep every service behind the API gateway");
		} finally {
			await rpc.close();
		}
		assert.equal(readEvents(sb.project).length, 1, "the log is at <git root>/.pi/decision-memory/decisions.jsonl");
		assert.ok(!fs.existsSync(path.join(sub, ".pi")), "nothing is created in the subfolder");
		const r = await runPrint(sb, "From the root: which rules?");
		assert.ok(decisionLines(r.systemPrompt).some((l) => l.includes("Keep every service behind the API gateway")));
	});
});
