// Issue 18: a command's output stays in pi's transcript (a custom message with its own
// renderer) rather than in notify, which the next notice replaces; the model never
// receives it. Two consecutive outputs both remain in the session, and the request the
// next prompt sends holds neither.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { outputMessageOf, requestWithUser, sessionFolder, startRpc, withSandbox } from "./harness.ts";

it("two command outputs both stay in the session and neither reaches the model", async () => {
	await withSandbox({}, async (sb) => {
		const rpc = await startRpc(sb);
		try {
			await rpc.command("/decision add Use pnpm for every install");
			const list = await rpc.command("/decision list");
			const status = await rpc.command("/decision status");
			const listed = list.records.map(outputMessageOf).filter((t) => t !== undefined);
			const stated = status.records.map(outputMessageOf).filter((t) => t !== undefined);
			assert.equal(listed.length, 1, `the list is one output message: ${rpc.describe()}`);
			assert.match(listed[0]!, /Use pnpm for every install/);
			assert.equal(stated.length, 1);
			const shown = (list.records.concat(status.records)).filter((r) => r.type === "extension_ui_request" && r.method === "notify");
			assert.deepEqual(shown, [], "output goes to the transcript, not to notify");

			const got = await rpc.request({ type: "get_messages" });
			const messages = (got.data as { messages: Array<{ role: string; customType?: string; content: unknown; details?: { command?: string } }> }).messages;
			const outputs = messages.filter((m) => m.role === "custom" && m.customType === "pi-memory-output");
			assert.equal(outputs.length, 3, "add, list and status all remain in the session");
			assert.deepEqual(
				outputs.map((m) => m.details?.command),
				["/decision add Use pnpm for every install", "/decision list", "/decision status"],
			);

			await rpc.prompt("What next?");
			const body = JSON.stringify(requestWithUser(sb.model, "What next?")?.body ?? null);
			assert.ok(body.includes("What next?"), "the request was recorded");
			for (const m of outputs) {
				const text = String(m.content);
				assert.ok(!body.includes(JSON.stringify(text).slice(1, -1)), `the model received a command's output: ${text}`);
			}
			assert.ok(!body.includes("pi-memory-output"));
		} finally {
			await rpc.close();
		}
	});
});

// h-v93 c7: the line as typed is kept with the output in pi's session file (its
// details); a secret typed in it is kept as the core redacts it, in the file too.
it("a secret typed in a command line is not kept in the output's details", async () => {
	await withSandbox({}, async (sb) => {
		const token = "ghp_" + "Ab3Cd4Ef5Gh6Ij7Kl8Mn9Op0Qr1St2Uv3Wx4";
		const rpc = await startRpc(sb, { session: true });
		try {
			await rpc.command(`/decision add Deploy with ${token} from CI`);
			const got = await rpc.request({ type: "get_messages" });
			const messages = (got.data as { messages: Array<{ role: string; customType?: string; details?: { command?: string } }> }).messages;
			const outputs = messages.filter((m) => m.role === "custom" && m.customType === "pi-memory-output");
			assert.equal(outputs.length, 1, rpc.describe());
			assert.equal(outputs[0]!.details?.command, "/decision add Deploy with [REDACTED:github-token] from CI");
			assert.ok(!JSON.stringify(messages).includes(token), "the token stayed in pi's messages");
			await rpc.prompt("What next?"); // pi writes its session file with the first answer
		} finally {
			await rpc.close();
		}
		const dir = sessionFolder(sb.agentDir, sb.project);
		const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
		assert.ok(files.length > 0, `pi kept a session file in ${dir}`);
		for (const f of files) assert.ok(!readFileSync(path.join(dir, f), "utf8").includes(token), `the token reached ${f}`);
	});
});
