// Scenario 3: decision memory disabled — by the project config
// (.pi/decision-memory.config.json) or by the global one
// (<agentDir>/decision-memory.config.json) — injects nothing and writes
// nothing: the whole sandbox (project, agent dir, home) is byte-identical
// before and after prompts and refused mutating commands.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import {
	addEvent,
	appendedPrompt,
	decisionLines,
	diffTrees,
	requestWithUser,
	runPrint,
	seedLog,
	snapshotTree,
	startRpc,
	systemPromptOf,
	userTextOf,
	withSandbox,
} from "./harness.ts";
import type { Sandbox } from "./harness.ts";

const seeded = "Use PostgreSQL 16 as the primary datastore";

async function provesDisabled(sb: Sandbox, id: string): Promise<void> {
	const before = snapshotTree(sb.root);

	const r = await runPrint(sb, "print-mode question");
	assert.equal(r.code, 0, r.stderr);
	assert.equal(r.requests.length, 1, "the model was called");
	assert.deepEqual(decisionLines(r.systemPrompt), [], r.systemPrompt.slice(-1500));
	assert.ok(!r.systemPrompt.includes(seeded), "nothing injected into the system prompt");
	// Markdown memory is a separate store: its preamble stays unless its own config turns it off.
	assert.ok(!appendedPrompt(r.systemPrompt).includes("## Project decisions"), "no decision section appended to pi's system prompt");
	assert.ok(!userTextOf(r.requests[0]).includes(seeded), "nothing injected into the user message");

	const rpc = await startRpc(sb);
	try {
		for (const cmd of [
			"/decision add Use pnpm for package management",
			`/decision supersede ${id} Use SQLite --reason "smaller"`,
			`/decision edit ${id} Use PostgreSQL 17`,
			`/decision remove ${id}`,
			"/decision purge --yes",
		]) {
			const res = await rpc.commandWithDialogs(cmd, () => null);
			assert.deepEqual(res.dialogs, [], `${cmd}: no dialog while disabled`);
			assert.match(res.notes.join("\n"), /disabled/i, `${cmd}: refused with a message saying memory is disabled; notes: ${JSON.stringify(res.notes)}`);
		}
		await rpc.prompt("rpc question");
		const sp = systemPromptOf(requestWithUser(sb.model, "rpc question"));
		assert.deepEqual(decisionLines(sp), []);
		assert.ok(!sp.includes(seeded));
	} finally {
		await rpc.close();
	}

	assert.deepEqual(diffTrees(before, snapshotTree(sb.root)), { removed: [], added: [] }, "zero writes anywhere in the sandbox");
}

describe("disabled decision memory", () => {
	it("disabled by the project config: no injection, zero writes, mutating commands refuse", async () => {
		await withSandbox({}, async (sb) => {
			const ev = addEvent(sb.project, 1, seeded);
			seedLog(sb.project, [ev]);
			sb.writeProject(".pi/decision-memory.config.json", JSON.stringify({ enabled: false }) + "\n");
			await provesDisabled(sb, ev.i);
		});
	});

	it("disabled by the global config: no injection, zero writes, mutating commands refuse", async () => {
		await withSandbox({}, async (sb) => {
			const ev = addEvent(sb.project, 1, seeded);
			seedLog(sb.project, [ev]);
			fs.writeFileSync(path.join(sb.agentDir, "decision-memory.config.json"), JSON.stringify({ enabled: false }) + "\n");
			await provesDisabled(sb, ev.i);
		});
	});

	it("disabled globally with no project files at all: not even a .pi folder appears", async () => {
		await withSandbox({}, async (sb) => {
			fs.writeFileSync(path.join(sb.agentDir, "decision-memory.config.json"), JSON.stringify({ enabled: false }) + "\n");
			const before = snapshotTree(sb.root);
			const rpc = await startRpc(sb);
			try {
				const res = await rpc.commandWithDialogs("/decision add Use pnpm for package management", () => null);
				assert.match(res.notes.join("\n"), /disabled/i, JSON.stringify(res.notes));
				await rpc.prompt("hello");
			} finally {
				await rpc.close();
			}
			assert.deepEqual(diffTrees(before, snapshotTree(sb.root)), { removed: [], added: [] });
		});
	});
});
