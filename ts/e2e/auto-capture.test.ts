// Scenario 4: auto-capture over RPC. A prompt with a `Decision: <text>` line
// raises a review dialog (confirm, or a select sequence) once the run ends;
// yes appends an add event with that text to the log, no writes nothing.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { diffTrees, readEvents, snapshotTree, startRpc, waitUntil, withSandbox } from "./harness.ts";
import type { UiRequest } from "./harness.ts";

const decisionText = "Use pnpm for package management";
const prompt = `Please set up the repository for the team.\nDecision: ${decisionText}`;

describe("auto-capture of `Decision:` lines", () => {
	it("answering yes lands an add event with the text in the log", async () => {
		await withSandbox({}, async (sb) => {
			const rpc = await startRpc(sb);
			try {
				const dialogs: UiRequest[] = [];
				const since = rpc.records.length;
				const stop = rpc.answerDialogs((d) => {
					dialogs.push(d);
					return true;
				}, since);
				try {
					await rpc.prompt(prompt);
					assert.equal(sb.model.chats().length, 1, "the model was called once");
					// The review may come at agent_end or just after pi settles.
					const ev = await waitUntil(
						() => readEvents(sb.project).find((e) => e.e === "a" && (e.d?.tx === decisionText || e.d?.ti === decisionText)),
						`an add event for "${decisionText}" (dialogs so far: ${JSON.stringify(dialogs)})\n${rpc.describe(since)}`,
					);
					assert.match(ev.i, /^D-\d{4}-\d{2}-\d{2}-\d{4}$/);
				} finally {
					stop();
				}
				assert.ok(dialogs.length >= 1, "the person was asked");
				assert.ok(
					dialogs.some((d) => `${d.title ?? ""} ${d.message ?? ""} ${(d.options ?? []).join(" ")}`.includes(decisionText)),
					`the dialog shows the candidate: ${JSON.stringify(dialogs)}`,
				);
				const adds = readEvents(sb.project).filter((e) => e.e === "a");
				assert.equal(adds.length, 1, "exactly one decision captured (the assistant's reply is never a source)");
			} finally {
				await rpc.close();
			}
		});
	});

	it("answering no writes nothing", async () => {
		await withSandbox({}, async (sb) => {
			const before = snapshotTree(sb.project);
			const rpc = await startRpc(sb);
			try {
				const dialogs: UiRequest[] = [];
				const since = rpc.records.length;
				const stop = rpc.answerDialogs((d) => {
					dialogs.push(d);
					return false;
				}, since);
				try {
					await rpc.prompt(prompt);
					await waitUntil(() => dialogs.length > 0, `a review dialog\n${rpc.describe(since)}`);
					// A command round trip after the answer: the core has handled it.
					const list = await rpc.command("/decision list");
					assert.ok(!list.notes.join("\n").includes(decisionText), `not listed: ${JSON.stringify(list.notes)}`);
				} finally {
					stop();
				}
			} finally {
				await rpc.close();
			}
			assert.deepEqual(diffTrees(before, snapshotTree(sb.project)), { removed: [], added: [] }, "zero writes in the project");
		});
	});
});
