// Scenario 2: `/decision supersede <id> <new text> --reason R` takes the old
// decision out of the next system prompt and puts the new one in; the log
// keeps the history (old add, new add, the reason).

import assert from "node:assert/strict";
import { it } from "node:test";
import { decisionLines, readEvents, requestWithUser, startRpc, systemPromptOf, withSandbox } from "./harness.ts";

it("/decision supersede hides the old line from the next system prompt and shows the new one", async () => {
	await withSandbox({}, async (sb) => {
		const oldText = "Use PostgreSQL 16 as the primary datastore";
		const newText = "Use SQLite as the embedded datastore";
		const reason = "the tool ships as a single-user binary";
		const rpc = await startRpc(sb);
		try {
			await rpc.command(`/decision add ${oldText}`);
			const oldId = readEvents(sb.project)[0]!.i;

			await rpc.prompt("first question");
			const before = decisionLines(systemPromptOf(requestWithUser(sb.model, "first question")));
			assert.ok(before.some((l) => l.startsWith(`${oldId} | ${oldText}`)), before.join("\n"));

			const sup = await rpc.command(`/decision supersede ${oldId} ${newText} --reason "${reason}"`);

			const events = readEvents(sb.project);
			const added = events.filter((e) => e.e === "a" && e.d?.tx === newText);
			assert.equal(added.length, 1, `the new decision is added once: ${JSON.stringify(events)}\nnotes: ${sup.notes.join("\n")}`);
			const newId = added[0]!.i;
			assert.notEqual(newId, oldId);
			assert.ok(
				events.some((e) => JSON.stringify(e).includes(reason)),
				`the reason is kept in the log: ${JSON.stringify(events)}`,
			);
			assert.ok(events.some((e) => e.i === oldId && e.e !== "a"), "an event changes the old decision");

			await rpc.prompt("second question");
			const sp = systemPromptOf(requestWithUser(sb.model, "second question"));
			const after = decisionLines(sp);
			assert.ok(!sp.includes(oldId), `the old id is gone from the system prompt:\n${after.join("\n")}`);
			assert.ok(!sp.includes(oldText), "the old text is gone from the system prompt");
			assert.ok(after.some((l) => l.startsWith(`${newId} | ${newText}`)), after.join("\n"));
		} finally {
			await rpc.close();
		}
	});
});
