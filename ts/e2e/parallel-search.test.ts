// Several memory tools in one assistant message: pi runs them in parallel, and a
// search goes on in slices (decision 018), so the searches take turns in one core.
// Each tool result must answer its own call: its own query's hits, none of another's.

import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { contentText, projectMemoryFile, runPrint, seedFile, seedSessions, startRpc, withSandbox } from "./harness.ts";

const WORDS = ["zebra", "walrus", "ocelot", "narwhal", "gecko"];

describe("parallel memory tools", () => {
	it("answers each of several searches in one message with its own hits, in print mode and over RPC", async () => {
		await withSandbox({ git: true }, async (sb) => {
			const project = fs.realpathSync(sb.project);
			seedFile(projectMemoryFile(project), "# Memory\n\n- The zebra build runs nightly\n- The walrus cache is flushed on deploy\n");
			seedSessions(
				sb,
				1200,
				(i) => `session ${i} talks about the ${WORDS[i % WORDS.length]} service and its queue`,
				(i) => `noted for ${WORDS[i % WORDS.length]} ${i}`,
			);
			const calls = { tools: WORDS.map((w) => ({ tool: "memory_search", args: { query: w } })) };
			const check = (results: string[], where: string): void => {
				assert.equal(results.length, WORDS.length, `${where}: one result per call: ${JSON.stringify(results).slice(0, 400)}`);
				results.forEach((text, i) => {
					const own = WORDS[i]!;
					assert.match(text, new RegExp(`matches for "${own}"`), `${where}: result ${i} answers its own query: ${text.slice(0, 300)}`);
					for (const other of WORDS.filter((w) => w !== own)) assert.ok(!text.includes(other), `${where}: result ${i} (${own}) holds ${other}: ${text.slice(0, 600)}`);
				});
			};

			sb.model.enqueue(calls, "Found them.");
			const r = await runPrint(sb, "What do we know about the animals?");
			assert.equal(r.code, 0, r.stderr);
			check(r.requests.at(-1)!.body!.messages!.filter((m) => m.role === "tool").map(contentText), "print");

			const rpc = await startRpc(sb);
			try {
				for (let round = 0; round < 2; round++) {
					sb.model.enqueue(calls, "Found them.");
					await rpc.prompt(`Round ${round}: what about the animals?`, { timeoutMs: 300_000 });
					const msgs = sb.model.requests.at(-1)!.body!.messages!;
					check(msgs.filter((m) => m.role === "tool").slice(-WORDS.length).map(contentText), `rpc round ${round}`);
				}
				// A search, a remember and a forget in one message: each answers its own call,
				// and the file holds the remembered fact and not the forgotten one.
				sb.model.enqueue(
					{
						tools: [
							{ tool: "memory_search", args: { query: "zebra" } },
							{ tool: "memory_remember", args: { text: "The gecko queue drains every hour" } },
							{ tool: "memory_forget", args: { query: "walrus cache flushed" } },
							{ tool: "memory_search", args: { query: "walrus" } },
						],
					},
					"Done.",
				);
				await rpc.prompt("Remember the gecko queue, forget the walrus cache.", { timeoutMs: 300_000 });
				const [search, remembered, forgot] = sb.model.requests.at(-1)!.body!.messages!.filter((m) => m.role === "tool").slice(-4).map(contentText);
				assert.match(search!, /matches for "zebra"/);
				assert.match(remembered!, /^Remembered in project memory/);
				assert.match(forgot!, /Forgot “The walrus cache is flushed on deploy”/);
				const file = fs.readFileSync(projectMemoryFile(project), "utf8");
				assert.ok(file.includes("The gecko queue drains every hour") && file.includes("The zebra build runs nightly"), file);
				assert.ok(!file.includes("walrus"), file);
			} finally {
				await rpc.close();
			}
		});
	});
});
