// Scenario 7: two pi processes (RPC) add decisions to the same project at the
// same time, 20 each, interleaved. Every add survives, no id repeats, every
// line parses (no torn or merged line).

import assert from "node:assert/strict";
import { it } from "node:test";
import { distinctTexts as texts, readEvents, readLines, decisionLog, startRpc, withSandbox } from "./harness.ts";
import type { Rpc, UiRequest } from "./harness.ts";

const PER_PROCESS = 20;

async function addAll(rpc: Rpc, list: string[], dialogs: UiRequest[]): Promise<void> {
	for (const t of list) {
		await rpc.commandWithDialogs(`/decision add ${t}`, (d) => {
			dialogs.push(d);
			return null; // cancel: a dialog here is a test failure reported below
		});
	}
}

it("two pi processes adding at once lose nothing and never repeat an id", async (t) => {
	await withSandbox({}, async (sb) => {
		const [ta, tb] = [texts(1, PER_PROCESS), texts(2, PER_PROCESS)];
		const a = await startRpc(sb);
		let b: Rpc | undefined;
		try {
			b = await startRpc(sb);
			const dialogs: UiRequest[] = [];
			await Promise.all([addAll(a, ta, dialogs), addAll(b, tb, dialogs)]);
			assert.deepEqual(dialogs, [], "no add asked a question");
		} finally {
			await Promise.all([a.close(), b?.close()]);
		}

		const raw = readLines(decisionLog(sb.project));
		const events = readEvents(sb.project); // throws on any line that does not parse
		assert.equal(raw.length, 2 * PER_PROCESS, "one line per add");
		const adds = events.filter((e) => e.e === "a");
		assert.equal(adds.length, 2 * PER_PROCESS, "every add survived");
		const ids = adds.map((e) => e.i);
		assert.equal(new Set(ids).size, ids.length, `no id repeats: ${ids.join(" ")}`);
		const stored = new Set(adds.map((e) => e.d?.tx));
		for (const x of [...ta, ...tb]) assert.ok(stored.has(x), `"${x}" was stored`);
		// How much the two writers overlapped (informational: scheduling decides it).
		const fromA = new Set(ta);
		let switches = 0;
		adds.forEach((e, i) => {
			if (i > 0 && fromA.has(e.d?.tx ?? "") !== fromA.has(adds[i - 1]!.d?.tx ?? "")) switches++;
		});
		t.diagnostic(`writer switches in the log: ${switches} (1 means no overlap)`);
	});
});
