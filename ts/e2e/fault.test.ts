// Scenario 9: a core failure never breaks pi. With PI_MEMORY_FAULT set to an
// export name the core traps in that export (fault injection); pi still
// completes the turn — exit 0, the model was called — and the user is told
// once. The next turn works too (the instance was recreated).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runPrint, startRpc, withSandbox } from "./harness.ts";

const env = { PI_MEMORY_FAULT: "before_agent_start" };

describe("a trap in the core", () => {
	it("print mode: the turn completes with exit 0 and the model is called", async () => {
		await withSandbox({}, async (sb) => {
			sb.model.enqueue("reply despite the fault");
			const r = await runPrint(sb, "hello with a fault", { env });
			assert.equal(r.code, 0, `exit 0 expected\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
			assert.equal(r.requests.length, 1, "the model was called");
			assert.match(r.stdout, /reply despite the fault/);
			assert.match(r.stderr, /before_agent_start/, "the trap was real and logged on stderr");
		});
	});

	it("rpc: the user is notified once and the next turn still works", async () => {
		await withSandbox({}, async (sb) => {
			const rpc = await startRpc(sb, { env });
			try {
				const p1 = await rpc.prompt("first turn with a fault");
				assert.equal(sb.model.chats().length, 1, "the model was called");
				assert.ok(p1.records.some((r) => r.type === "agent_end"), "the turn ended normally");
				const problems = rpc.problems(rpc.records.indexOf(p1.records[0]!));
				assert.equal(problems.length, 1, `one warning/error notification: ${JSON.stringify(problems)}\n${rpc.describe()}`);
				assert.ok(!p1.records.some((r) => r.type === "extension_error"), "the adapter caught the trap; pi saw no extension error");

				const p2 = await rpc.prompt("second turn");
				assert.equal(sb.model.chats().length, 2, "the model was called again");
				assert.ok(p2.records.some((r) => r.type === "agent_settled"));
			} finally {
				await rpc.close();
			}
			assert.ok(rpc.exit, "pi exited when asked");
		});
	});
});
