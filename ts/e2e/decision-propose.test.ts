// decision_propose end to end (issue 18): the fake model calls the tool; in RPC
// mode the test answers pi's confirm dialog yes or no and reads the log on disk
// and the tool result pi sent back to the model; in print mode (no UI) nothing
// is written and the result gives the command; with memory off the tool is not
// offered at all.

import assert from "node:assert/strict";
import fs from "node:fs";
import { it } from "node:test";
import { contentText, decisionLog, readEvents, runPrint, startRpc, toolsOf, withSandbox } from "./harness.ts";
import type { Sandbox } from "./harness.ts";

/** The newest tool result pi sent the model: the last one of its last request. */
function lastToolResult(sb: Sandbox): string {
	const chats = sb.model.chats();
	const results = (chats[chats.length - 1]?.body?.messages ?? []).filter((m) => m.role === "tool");
	return contentText(results[results.length - 1]);
}

const TEXT = "Use pnpm as the package manager";

it("decision_propose in RPC mode: the user's yes records the decision, no writes nothing; a supersede dialog names the old decision", async () => {
	await withSandbox({}, async (sb) => {
		const rpc = await startRpc(sb);
		try {
			const before = sb.model.chats().length;
			sb.model.enqueue({ tool: "decision_propose", args: { text: TEXT, reason: "fast installs" } }, "Noted.");
			const yes = await rpc.prompt("We always use pnpm.", {
				onDialog: (req) => {
					assert.equal(req.method, "confirm");
					assert.match(String(req.message), /Use pnpm as the package manager/);
					return true;
				},
			});
			assert.equal(rpc.dialogs(0).length, 1, "one dialog");
			assert.ok(toolsOf(sb.model.chats()[before]).includes("decision_propose"), "the tool is offered");
			const added = readEvents(sb.project).filter((e) => e.e === "a");
			assert.equal(added.length, 1, decisionLog(sb.project));
			assert.equal(added[0]!.d?.tx, TEXT);
			const id = added[0]!.i;
			assert.equal(lastToolResult(sb), `Recorded ${id}: ${TEXT}.`, JSON.stringify(yes.notes));

			const size = fs.statSync(`${sb.project}/.pi/decision-memory/decisions.jsonl`).size;
			sb.model.enqueue({ tool: "decision_propose", args: { text: "Deploy on Fridays" } }, "Fine.");
			await rpc.prompt("Maybe we deploy on Fridays?", { onDialog: () => false });
			assert.equal(fs.statSync(`${sb.project}/.pi/decision-memory/decisions.jsonl`).size, size, "declined: nothing written");
			assert.match(lastToolResult(sb), /^The user declined; nothing was written/);

			let message = "";
			sb.model.enqueue({ tool: "decision_propose", args: { text: "Use Yarn as the package manager", reason: "workspaces", supersedes: id.slice(-4) } }, "Switched.");
			await rpc.prompt("Switch to Yarn for workspaces.", {
				onDialog: (req) => {
					message = String(req.message);
					return true;
				},
			});
			assert.match(message, new RegExp(`supersedes ${id}: ${TEXT}`), "the dialog shows the decision it supersedes");
			const events = readEvents(sb.project);
			const yarn = events.find((e) => e.e === "a" && e.d?.tx === "Use Yarn as the package manager");
			assert.ok(yarn, decisionLog(sb.project));
			assert.equal(yarn.d?.sp, id);
			assert.ok(events.some((e) => e.e === "su" && e.i === id), "the old decision is superseded");
			assert.equal(lastToolResult(sb), `Recorded ${yarn.i}: Use Yarn as the package manager (supersedes ${id}).`);
		} finally {
			await rpc.close();
		}
	});
});

it("decision_propose in print mode writes nothing and tells the model the command; with --no-memory the tool is absent", async () => {
	await withSandbox({}, async (sb) => {
		sb.model.enqueue({ tool: "decision_propose", args: { text: TEXT, reason: "fast installs" } }, "I asked.");
		const run = await runPrint(sb, "We always use pnpm.");
		assert.equal(run.code, 0, run.stderr);
		assert.ok(toolsOf(run.requests[0]).includes("decision_propose"), "offered in print mode");
		assert.equal(fs.existsSync(`${sb.project}/.pi/decision-memory`), false, "nothing written, no folder");
		const results = run.requests.flatMap((r) => r.body?.messages ?? []).filter((m) => m.role === "tool").map(contentText);
		assert.deepEqual(results, [`Not recorded: decisions come from the user, and this session cannot ask them. Ask the user to run:\n/decision add ${TEXT} --reason "fast installs"`]);

		const off = await runPrint(sb, "Hello.", { args: ["--no-memory"] });
		assert.equal(off.code, 0, off.stderr);
		assert.ok(off.requests.length > 0, "control: the model was asked");
		assert.ok(!toolsOf(off.requests[0]).includes("decision_propose"), `--no-memory: not offered (${toolsOf(off.requests[0]).join(", ")})`);
	});
});

it("decision_propose is withdrawn by /memory off and offered again by /memory on", async () => {
	await withSandbox({}, async (sb) => {
		const rpc = await startRpc(sb);
		try {
			await rpc.command("/memory off");
			let before = sb.model.chats().length;
			await rpc.prompt("First.");
			assert.ok(!toolsOf(sb.model.chats()[before]).includes("decision_propose"), "/memory off: not offered");
			await rpc.command("/memory on");
			before = sb.model.chats().length;
			await rpc.prompt("Second.");
			assert.ok(toolsOf(sb.model.chats()[before]).includes("decision_propose"), "/memory on: offered again");
		} finally {
			await rpc.close();
		}
	});
});
