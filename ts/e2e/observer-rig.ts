// What the observational-memory scenarios share (observe.test.ts, faults.test.ts): pi's
// compaction settings that leave the first turns to summarize, a scripted observer behind
// the fake model's route, long agent replies and observer answers in wasm/observe's format.

import assert from "node:assert/strict";
import { type ChatRequest, type Delayed, type Reply, type Rpc, type RpcRecord, type Sandbox, contentText, isMemoryModelRequest } from "./harness.ts";

// pi compacts when the last reply's usage passes contextWindow (32000) − reserveTokens
// (16384); it keeps the newest keepRecentTokens raw, so a small value leaves the first
// turns to summarize.
export const settings = { compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 1000 } };
export const BIG_USAGE = 20000;
/** A user message carrying it makes the fake model report BIG_USAGE: pi compacts after it. */
export const BIG = "[report a big context]";

/**
 * `.pi/om-config.json`: the observer at 1,000 unobserved tokens (the lowest it takes); our
 * own compaction only after 5,000 new tokens, which small turns never reach; no reflector.
 */
export function omConfig(extra: Record<string, unknown> = {}): string {
	return JSON.stringify({ observerTokens: 1000, retainTokens: 4000, enableReflection: false, ...extra });
}

/** One long agent reply: about 1,400 tokens, over the observer's threshold on its own. */
export function longReply(turn: number): string {
	const lines: string[] = [];
	for (let i = 1; i <= 60; i++) lines.push(`Turn ${turn} step ${i}: edited src/parser_${turn}.ts at line ${i * 7} so token kind ${i} is read; the unit test parser_${i} passes.`);
	return lines.join("\n");
}

/** Today's date and time as observations carry them (UTC, the zone pi runs in here). */
export function today(): { day: string; time: string } {
	const now = new Date();
	return { day: now.toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }), time: now.toISOString().slice(11, 16) };
}

/** An observer answer in the format wasm/observe reads, dated today. */
export function observation(marker: string): string {
	const { day, time } = today();
	return `Date: ${day}\n* 🔴 (${time}) User asked for the parser rewrite ${marker}\n* 🟡 (${time}) Agent edited src/parser_1.ts; the parser tests pass\n<current-task>\nRewrite the parser (${marker})\n</current-task>`;
}

/** Observer traffic as the fake model saw it on arrival, and the actor's arrivals. */
export interface Traffic {
	memory: { at: number; body: ChatRequest | null }[];
	actor: { at: number; body: ChatRequest | null }[];
}

export function lastUserText(body: ChatRequest | null | undefined): string {
	const users = (body?.messages ?? []).filter((m) => m.role === "user");
	return contentText(users[users.length - 1]);
}

/**
 * Routes the observer's and the reflector's requests to `answer`, reports a big usage for
 * the actor's request carrying BIG, records arrivals, and writes the project's om-config.
 */
export function observe(sb: Sandbox, answer: (n: number) => Reply | Delayed, config = omConfig()): Traffic {
	const traffic: Traffic = { memory: [], actor: [] };
	sb.model.route = (body) => {
		if (isMemoryModelRequest(body)) {
			traffic.memory.push({ at: Date.now(), body });
			return answer(traffic.memory.length);
		}
		traffic.actor.push({ at: Date.now(), body });
		return undefined;
	};
	sb.model.promptTokens = (body) => (!isMemoryModelRequest(body) && lastUserText(body).includes(BIG) ? BIG_USAGE : undefined);
	sb.writeProject(".pi/om-config.json", config);
	return traffic;
}

/** The session's entries, as pi's RPC get_entries gives them. */
export async function entries(rpc: Rpc): Promise<RpcRecord[]> {
	const r = await rpc.request({ type: "get_entries" });
	assert.equal(r.success, true, JSON.stringify(r));
	return (r.data as { entries: RpcRecord[] }).entries;
}

/** The observer's records in the session (custom entries pi-memory-om). */
export const omRecords = (all: RpcRecord[]) => all.filter((e) => e.type === "custom" && e.customType === "pi-memory-om");
export const compactions = (all: RpcRecord[]) => all.filter((e) => e.type === "compaction");
/** How many observer requests the fake model has answered. */
export const answeredMemory = (sb: Sandbox) => sb.model.requests.filter((r) => isMemoryModelRequest(r.body) && "text" in r.answered).length;

/** Waits until every observer request has been answered and its record appended. */
export async function memoryQuiet(rpc: Rpc, sb: Sandbox, traffic: Traffic): Promise<void> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const answered = answeredMemory(sb);
		if (answered === traffic.memory.length && omRecords(await entries(rpc)).length >= answered) return;
		if (Date.now() > deadline) throw new Error(`observer records missing: ${answered} answered of ${traffic.memory.length}\n${rpc.describe()}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

/** The text of the observations message in an actor request ("" when absent). */
export function observationsBlock(body: ChatRequest | null | undefined): string {
	const m = (body?.messages ?? []).find((x) => x.role === "user" && contentText(x).includes("<observations>"));
	return m === undefined ? "" : contentText(m);
}
