// Conflicts visible everywhere (issue 18): after "Keep both and mark the
// conflict", /decision list marks both sides, doctor reports the conflict
// (exit 1) and the model is asked to check with the user instead of being
// given both decisions to follow; /decision resolve settles it.

import assert from "node:assert/strict";
import { it } from "node:test";
import { appendedPrompt, readEvents, requestWithUser, runPrint, startRpc, systemPromptOf, withSandbox } from "./harness.ts";

it("a conflict kept in the dialog is marked in the list, reported by doctor and put to the model as a question until resolved", async () => {
	await withSandbox({}, async (sb) => {
		const rpc = await startRpc(sb);
		let pg = "";
		let my = "";
		try {
			await rpc.command("/decision add Use PostgreSQL for the primary database");
			pg = readEvents(sb.project)[0]!.i;
			const add = await rpc.commandWithDialogs("/decision add Use MySQL for the primary database", (req) => {
				assert.equal(req.method, "select");
				assert.ok(req.options?.includes("Keep both and mark the conflict"), JSON.stringify(req.options));
				return "Keep both and mark the conflict";
			});
			assert.equal(add.dialogs.length, 1);
			my = readEvents(sb.project).find((e) => e.e === "a" && e.d?.tx === "Use MySQL for the primary database")!.i;

			const footer = rpc.records
				.filter((r) => r.type === "extension_ui_request" && r.method === "setStatus" && r.statusKey === "pi-memory")
				.map((r) => String(r.statusText));
			assert.match(footer[footer.length - 1] ?? "", /^decisions 2, 1 conflict( · |$)/, "the footer counts it");

			const list = await rpc.command("/decision list");
			const listed = list.notes.join("\n");
			assert.ok(listed.includes(`| ⚠ conflicts with ${pg}`) && listed.includes(`| ⚠ conflicts with ${my}`), `both sides marked:\n${listed}`);

			await rpc.prompt("Which database do we use?");
			const sp = appendedPrompt(systemPromptOf(requestWithUser(sb.model, "Which database do we use?")));
			assert.match(sp, /ask the user which holds/);
			assert.ok(sp.includes(`${pg} | Use PostgreSQL for the primary database <-> ${my} | Use MySQL for the primary database`), sp);
			const orders = sp.split("\n").filter((l) => !l.includes(" <-> "));
			assert.ok(!orders.some((l) => l.includes(pg) || l.includes(my)), `neither is a line to follow:\n${sp}`);
		} finally {
			await rpc.close();
		}

		const doctor = await runPrint(sb, "/decision doctor");
		assert.equal(doctor.code, 1, `doctor exits 1 on an unresolved conflict:\n${doctor.stderr}`);
		assert.match(doctor.stderr, new RegExp(`unresolved conflict: ${my} ↔ ${pg}`));
		assert.ok(!doctor.stderr.includes("No problems found."), doctor.stderr);

		const resolve = await runPrint(sb, `/decision resolve ${my.slice(-4)} rejected`);
		assert.equal(resolve.code, 0, resolve.stderr);
		const clean = await runPrint(sb, "/decision doctor");
		assert.equal(clean.code, 0, clean.stderr);
		assert.match(clean.stderr, /No problems found\./);

		const after = await runPrint(sb, "Which database now?");
		const sp = appendedPrompt(after.systemPrompt);
		assert.ok(!sp.includes("ask the user which holds"), sp);
		assert.ok(sp.split("\n").some((l) => l.startsWith(`${pg} | Use PostgreSQL`)), `the kept side is a decision to follow again:\n${sp}`);
	});
});
