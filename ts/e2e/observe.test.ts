// Observational memory in the real pi (issue 8): the observer runs after a run has
// settled, in the background; pi's threshold compaction (driven by the fake model's
// reported usage) gets our summary; the observations block rides in every request,
// byte for byte the same while memory is unchanged; a slow observer never stalls a
// turn; a fork sees its own branch's observations. What a failing, garbage, hostile
// or switched-off observer does is in faults.test.ts (issue 19).
//
// The fake model answers the observer's and the reflector's requests (told apart by
// their system prompts) through its route, so the agent's own replies stay queued.
// .pi/om-config.json sets small thresholds so that one long reply is enough to observe.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
	isMemoryModelRequest,
	runPrint,
	startRpc,
	userTextOf,
	waitUntil,
	withSandbox,
} from "./harness.ts";
import {
	BIG,
	compactions,
	entries,
	longReply,
	memoryQuiet,
	observation,
	observationsBlock,
	observe,
	omConfig,
	omRecords as ledger,
	settings,
} from "./observer-rig.ts";

const COMPACTED = "The conversation history before this point was compacted into the following summary:";





describe("observational memory in pi", () => {
	it("observes between turns, replaces pi's threshold compaction with our summary once, and injects the same block while memory is unchanged", async () => {
		await withSandbox({ settings }, async (sb) => {
			const traffic = observe(sb, (n) => observation(`OBS-${n}`));
			const rpc = await startRpc(sb);
			try {
				sb.model.enqueue(longReply(1));
				await rpc.prompt("Turn 1: rewrite the parser");
				await waitUntil(() => traffic.memory.length >= 1, "the observer's request after turn 1");
				await memoryQuiet(rpc, sb, traffic);
				assert.ok(ledger(await entries(rpc)).length >= 1, "the observation is recorded in the session");
				assert.equal(compactions(await entries(rpc)).length, 0);

				// pi's threshold compaction, from the usage the fake reports.
				sb.model.enqueue(longReply(2));
				const turn2 = await rpc.prompt(`Turn 2: go on ${BIG}`);
				assert.ok(!turn2.records.some((r) => r.type === "extension_error"), rpc.describe());
				const all = await entries(rpc);
				const [compaction, ...more] = compactions(all);
				assert.ok(compaction !== undefined && more.length === 0, `exactly one compaction entry\n${rpc.describe()}`);
				const summary = String(compaction.summary);
				assert.match(summary, /^## Observations\n/);
				assert.match(summary, /OBS-1/);
				assert.equal((compaction.details as { schemaVersion?: unknown }).schemaVersion, 1);
				// pi's own cut: with keepRecentTokens 1000 it keeps turn 2's long reply and
				// summarizes everything before it (turn 2's prompt as a split-turn prefix).
				const kept = all.find((e) => e.id === compaction.firstKeptEntryId) as { type: string; message?: { role: string; content: unknown } } | undefined;
				assert.equal(kept?.type, "message");
				assert.equal(kept?.message?.role, "assistant");
				assert.match(JSON.stringify(kept?.message?.content), /Turn 2 step 1:/);
				assert.equal(compaction.fromHook, true, "pi marks a summary an extension gave");
				await memoryQuiet(rpc, sb, traffic);

				// The next request starts from our summary.
				await rpc.prompt("Turn 3: what next?");
				const next = traffic.actor.at(-1)!.body;
				const users = userTextOf({ body: next } as never);
				assert.ok(users.includes(`${COMPACTED}\n\n<summary>\n## Observations`), users.slice(0, 600));

				// Five small turns: no compaction, and the block is byte-identical from one request to the next.
				await memoryQuiet(rpc, sb, traffic);
				const blocks: string[] = [];
				for (let i = 4; i <= 8; i++) {
					await rpc.prompt(`Turn ${i}: ok`);
					blocks.push(observationsBlock(traffic.actor.at(-1)!.body));
				}
				assert.equal(compactions(await entries(rpc)).length, 1, "small turns add no compaction");
				assert.match(blocks[0]!, /<observations>[\s\S]*OBS-/);
				for (const b of blocks) assert.equal(b, blocks[0], "unchanged memory, unchanged bytes");

				// RPC compact: our summary too (one more long turn first: pi compacts only
				// what lies before its kept part).
				// Turn 9's long reply is observed in the background after the turn; a compact
				// while that call is out leaves the summary to pi (planCompaction), so wait
				// for the request to be made before waiting for its answer.
				const asked = traffic.memory.length;
				sb.model.enqueue(longReply(9));
				await rpc.prompt("Turn 9: the lexer now");
				await waitUntil(() => traffic.memory.length > asked, "the observer's request after turn 9");
				await memoryQuiet(rpc, sb, traffic);
				const r = await rpc.request({ type: "compact" }, 60_000);
				assert.equal(r.success, true, JSON.stringify(r));
				assert.match(String((r.data as { summary: string }).summary), /^## Observations\n/);
			} finally {
				await rpc.close();
			}
		});
	});

	it("observerModel: a model of a provider without credentials is refused with what to do and no request; \"fake/fake-model\" is used", async () => {
		await withSandbox({ settings }, async (sb) => {
			const traffic = observe(sb, (n) => observation(`MODEL-${n}`));
			const config = (model: string) => JSON.stringify({ observerTokens: 1000, retainTokens: 4000, enableReflection: false, mode: "blocking", observerModel: model });
			sb.writeProject(".pi/om-config.json", config("anthropic/claude-haiku-4-5"));
			const rpc = await startRpc(sb);
			try {
				sb.model.enqueue(longReply(1));
				await rpc.prompt("Turn 1: rewrite the parser");
				const refused = await rpc.command("/om observe");
				assert.match(refused.notes.join("\n"), /observerModel "anthropic\/claude-haiku-4-5" is a model of anthropic, which has no credentials here: log in to it \(\/login\) or set its API key, or choose a model that pi --list-models shows/, rpc.describe());
				assert.equal(traffic.memory.length, 0, "no request for a model without credentials");
				assert.equal(ledger(await entries(rpc)).length, 0);

				// The config is followed at the next command (a different size: a new file).
				sb.writeProject(".pi/om-config.json", config("fake/fake-model") + "\n\n\n\n\n\n\n\n\n\n");
				const ok = await rpc.command("/om observe");
				assert.match(ok.notes.join("\n"), /Observed in 1 call/, rpc.describe());
				assert.equal(traffic.memory.length, 1);
				assert.equal(traffic.memory[0]?.body?.model, "fake-model");
			} finally {
				await rpc.close();
			}
		});
	});

	it("a slow observer (5 s) does not hold the next turn: its request reaches the model at once", async () => {
		await withSandbox({ settings }, async (sb) => {
			const traffic = observe(sb, (n) => ({ delayMs: 5000, reply: observation(`SLOW-${n}`) }));
			const rpc = await startRpc(sb);
			try {
				sb.model.enqueue(longReply(1));
				await rpc.prompt("Turn 1: rewrite the parser");
				await waitUntil(() => traffic.memory.length >= 1, "the observer's request after turn 1");
				const observerAt = traffic.memory[0]!.at;
				const sent = Date.now();
				const before = traffic.actor.length;
				const turn2 = rpc.prompt("Turn 2: carry on");
				await waitUntil(() => traffic.actor.length > before, "turn 2's request", 10_000);
				const arrived = traffic.actor[before]!.at;
				assert.ok(arrived < observerAt + 5000, "turn 2 reached the model while the observer's answer was still held back");
				// The bound; the check above is what shows nothing waited for the observer.
				assert.ok(arrived - sent < 300, `turn 2's request arrived ${arrived - sent} ms after the prompt`);
				await turn2;
			} finally {
				await rpc.close(); // waits for the observer's answer (session_shutdown)
			}
			assert.equal(sb.model.requests.filter((r) => isMemoryModelRequest(r.body) && "text" in r.answered).length, 1, "pi stayed up for the observer's answer");
		});
	});

	it("pi -p waits for the observer at shutdown instead of exiting in the middle of its call", async () => {
		await withSandbox({ settings }, async (sb) => {
			observe(sb, (n) => ({ delayMs: 1500, reply: observation(`PRINT-${n}`) }));
			sb.model.enqueue(longReply(1));
			const r = await runPrint(sb, "Turn 1: rewrite the parser");
			assert.equal(r.code, 0, r.stderr);
			const answered = sb.model.requests.filter((q) => isMemoryModelRequest(q.body) && "text" in q.answered);
			assert.equal(answered.length, 1, `the observer's answer was taken before pi exited\n${r.stderr}`);
		});
	});

	it("a fork has its own branch's observations: those recorded after the fork point are not in its requests", async () => {
		await withSandbox({ settings }, async (sb) => {
			const traffic = observe(sb, (n) => observation(`FORK-${n}`));
			const rpc = await startRpc(sb, { session: true });
			try {
				sb.model.enqueue(longReply(1));
				await rpc.prompt("Turn 1: rewrite the parser");
				await waitUntil(() => traffic.memory.length >= 1, "the observer's request after turn 1");
				await memoryQuiet(rpc, sb, traffic);
				sb.model.enqueue(longReply(2));
				await rpc.prompt("Turn 2: now the lexer");
				await waitUntil(() => traffic.memory.length >= 2, "the observer's request after turn 2");
				await memoryQuiet(rpc, sb, traffic);
				const all = await entries(rpc);
				assert.equal(ledger(all).length, 2, rpc.describe());
				const turn2 = all.find((e) => e.type === "message" && JSON.stringify((e as { message?: unknown }).message).includes("Turn 2: now the lexer"));
				assert.ok(turn2 !== undefined);

				const fork = await rpc.request({ type: "fork", entryId: turn2.id });
				assert.equal(fork.success, true, JSON.stringify(fork));
				await rpc.prompt("Turn 3 on the fork: what do you remember?");
				const block = observationsBlock(traffic.actor.at(-1)!.body);
				assert.match(block, /FORK-1/, rpc.describe());
				assert.doesNotMatch(block, /FORK-2/, "turn 2's observation belongs to the other branch");
			} finally {
				await rpc.close();
			}
		});
	});
});
