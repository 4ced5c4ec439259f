// A store's configuration file edited during a session takes effect at the next prompt,
// for decisions as for the other stores (README, "Configuration"). Over RPC, in one pi
// process: a project config written mid-session turns decision memory off (nothing
// injected, `/decision add` and a `Decision:` line write nothing, `/decision status` says
// off and names the file in force), a cap written after it limits what is injected, and
// removing the file turns it back on.

import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { addEvent, decisionLines, decisionLog, requestWithUser, seedLog, startRpc, systemPromptOf, withSandbox } from "./harness.ts";

describe("decision config edited mid-session", () => {
	it("off at the next prompt (no injection, no write, status says so), a cap applies, removing the file turns it back on", async () => {
		await withSandbox({}, async (sb) => {
			const a = addEvent(sb.project, 1, "Use PostgreSQL 16 as the primary datastore");
			const b = addEvent(sb.project, 2, "Deploy with blue-green releases");
			seedLog(sb.project, [a, b]);
			const log = decisionLog(sb.project);
			const seeded = fs.readFileSync(log, "utf8");
			const rpc = await startRpc(sb);
			try {
				await rpc.prompt("first question");
				const first = decisionLines(systemPromptOf(requestWithUser(sb.model, "first question")));
				assert.equal(first.length, 2, `control: both decisions injected while on: ${JSON.stringify(first)}`);

				const cfg = sb.writeProject(".pi/decision-memory.config.json", JSON.stringify({ enabled: false }) + "\n");
				await rpc.prompt("second question");
				assert.deepEqual(decisionLines(systemPromptOf(requestWithUser(sb.model, "second question"))), [], "nothing injected once the config says off");

				const add = await rpc.commandWithDialogs("/decision add Use pnpm for package management", () => null);
				assert.deepEqual(add.dialogs, [], "no dialog while disabled");
				assert.match(add.notes.join("\n"), /disabled/i, `add refused naming the switch: ${JSON.stringify(add.notes)}`);

				const status = await rpc.command("/decision status");
				const text = status.notes.join("\n");
				assert.match(text, /Decision memory: off/, `status says off: ${text}`);
				assert.ok(text.includes(cfg), `status names the file in force: ${text}`);
				assert.ok(!text.includes(`${cfg} (absent)`), `status does not call the file in force absent: ${text}`);

				const since = rpc.records.length;
				await rpc.prompt("Please set up the repository.\nDecision: Use pnpm for package management", { onDialog: () => true });
				assert.deepEqual(rpc.dialogs(since), [], "no capture dialog while disabled");
				assert.equal(fs.readFileSync(log, "utf8"), seeded, "the log is untouched while disabled");

				fs.writeFileSync(cfg, JSON.stringify({ context: { maxDecisions: 1 } }) + "\n");
				await rpc.prompt("third question");
				const capped = decisionLines(systemPromptOf(requestWithUser(sb.model, "third question")));
				assert.equal(capped.length, 1, `context.maxDecisions 1 written mid-session caps the section: ${JSON.stringify(capped)}`);

				fs.rmSync(cfg);
				await rpc.prompt("fourth question");
				const back = decisionLines(systemPromptOf(requestWithUser(sb.model, "fourth question")));
				assert.equal(back.length, 2, `the file removed, both are injected again: ${JSON.stringify(back)}`);
			} finally {
				await rpc.close();
			}
			assert.equal(fs.readFileSync(log, "utf8"), seeded, "nothing was appended");
		});
	});
});
