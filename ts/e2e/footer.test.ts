// The footer in the real pi (issue 18): pi shows every extension's status on one
// line, keys sorted and joined by a space. pi-memory sets one key, pi-memory, whose
// text names each store's piece separated by " · ", says when a store is off and
// why, and says when memory is off for the whole session. Three states in one
// session: on with a decision and a note, the notes store disabled by its config
// file, and /memory off (then on again).

import assert from "node:assert/strict";
import path from "node:path";
import { it } from "node:test";
import { addEvent, projectMemoryFile, seedFile, seedLog, startRpc, withSandbox } from "./harness.ts";
import type { Rpc } from "./harness.ts";

/** Every footer status pi-memory set, in order, with its key. */
function statuses(rpc: Rpc): Array<{ key: string; text: string }> {
	return rpc.records
		.filter((r) => r.type === "extension_ui_request" && r.method === "setStatus")
		.map((r) => ({ key: String(r.statusKey), text: String(r.statusText ?? "") }));
}

function footer(rpc: Rpc): string {
	return statuses(rpc).at(-1)?.text ?? "";
}

it("the footer separates the stores, says which is off and why, and says when memory is off", async () => {
	await withSandbox({ git: true }, async (sb) => {
		seedLog(sb.project, [addEvent(sb.project, 1, "Use PostgreSQL 16 as the primary datastore")]);
		seedFile(projectMemoryFile(sb.project), "## Build\n\n- Run make test before pushing\n");
		const rpc = await startRpc(sb);
		try {
			await rpc.prompt("What do we use for the database?");
			assert.equal(footer(rpc), "decisions 1 · notes 1", "on: each store's piece, separated");

			seedFile(path.join(sb.project, ".pi", "memory", "config.json"), '{"enabled": false}\n');
			await rpc.prompt("And for the build?");
			assert.equal(footer(rpc), "decisions 1 · notes off (disabled)", "a store disabled by its config file says so, at the next prompt");

			await rpc.command("/memory off");
			assert.equal(footer(rpc), "memory off (/memory off)");
			await rpc.command("/memory on");
			assert.equal(footer(rpc), "decisions 1 · notes off (disabled)");

			const keys = new Set(statuses(rpc).map((s) => s.key));
			assert.deepEqual([...keys], ["pi-memory"], "one status key for every store");
		} finally {
			await rpc.close();
		}
	});
});
