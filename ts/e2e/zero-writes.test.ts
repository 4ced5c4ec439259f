// Scenario 8: memory is written lazily, never behind the user's back.
// - A random folder (no .pi, not a git repo) is untouched by a normal prompt
//   and by read-only commands: no file, no folder, anywhere in the sandbox.
// - An untrusted project is inert: its decisions are not injected, nothing is
//   written, and a mutating command refuses. Two ways to be untrusted in pi:
//   defaultProjectTrust "never" with a protected .pi resource, or --no-approve.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
	addEvent,
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

describe("zero writes", () => {
	it("a random folder stays untouched after a prompt and read-only commands", async () => {
		await withSandbox({}, async (sb) => {
			const before = snapshotTree(sb.root);
			const r = await runPrint(sb, "hello in a random folder");
			assert.equal(r.code, 0, r.stderr);
			assert.equal(r.requests.length, 1);
			assert.deepEqual(diffTrees(before, snapshotTree(sb.root)), { removed: [], added: [] }, "print mode wrote nothing");

			const rpc = await startRpc(sb);
			try {
				await rpc.prompt("hello over rpc");
				await rpc.command("/decision list");
				// The core is alive and on (else zero writes would prove nothing).
				const status = await rpc.command("/decision status");
				assert.ok(status.notes.length > 0, "status answered");
				assert.ok(status.notes.join("\n").includes(sb.project), `status names the project folder: ${JSON.stringify(status.notes)}`);
				await rpc.command("/decision search postgres");
				await rpc.command("/decision doctor");
				assert.deepEqual(rpc.problems(), [], "no warning or error was shown");
			} finally {
				await rpc.close();
			}
			assert.deepEqual(diffTrees(before, snapshotTree(sb.root)), { removed: [], added: [] }, "rpc mode wrote nothing");
		});
	});

	async function provesInert(sb: Sandbox, args: string[]): Promise<void> {
		seedLog(sb.project, [addEvent(sb.project, 1, seeded)]);
		const before = snapshotTree(sb.root);

		const r = await runPrint(sb, "untrusted print question", { args });
		assert.equal(r.code, 0, r.stderr);
		assert.equal(r.requests.length, 1, "the model was called");
		assert.deepEqual(decisionLines(r.systemPrompt), [], r.systemPrompt.slice(-1500));
		assert.ok(!r.systemPrompt.includes(seeded), "the untrusted project's decisions are not injected");
		assert.ok(!userTextOf(r.requests[0]).includes(seeded));

		const rpc = await startRpc(sb, { args });
		try {
			const add = await rpc.commandWithDialogs("/decision add Use pnpm for package management", () => null);
			assert.deepEqual(add.dialogs, []);
			assert.match(add.notes.join("\n"), /trust/i, `refused naming trust: ${JSON.stringify(add.notes)}`);
			await rpc.prompt("untrusted rpc question");
			const sp = systemPromptOf(requestWithUser(sb.model, "untrusted rpc question"));
			assert.ok(!sp.includes(seeded));
		} finally {
			await rpc.close();
		}
		assert.deepEqual(diffTrees(before, snapshotTree(sb.root)), { removed: [], added: [] }, "zero writes");
	}

	it("an untrusted project (defaultProjectTrust never + .pi/settings.json) is not read or written", async () => {
		await withSandbox({ untrusted: true }, (sb) => provesInert(sb, []));
	});

	it("an untrusted project (--no-approve) is not read or written", async () => {
		await withSandbox({}, (sb) => provesInert(sb, ["--no-approve"]));
	});
});
