// Off means off, in the real pi, for every switch: --no-memory, /memory off, both
// stores disabled by config, an untrusted project. Each runs the same session: a
// prompt holding a "Decision:" line and sentences worth remembering, with
// auto-capture set to save without asking through the model classifier. The control
// (memory on) proves the session would inject, call the classifier and write; every
// switch must show nothing injected, no classifier call, no dialog, and both trees
// (project and agent dir) byte-identical before and after.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import {
	addEvent,
	appendedPrompt,
	diffTrees,
	globalMemoryFile,
	projectMemoryFile,
	seedFile,
	seedLog,
	snapshotTree,
	startRpc,
	systemPromptOf,
	withSandbox,
} from "./harness.ts";
import type { RecordedRequest, Sandbox, SandboxOptions } from "./harness.ts";

const seeded = "Use PostgreSQL 16 as the primary datastore";
const projectFact = "Run make test before pushing";
const globalFact = "Prefer small commits";
const prompt = "Decision: Use tabs for indentation\nFrom now on we squash-merge every pull request. Remember that the build needs Go 1.26.";

function isClassifier(r: RecordedRequest): boolean {
	return systemPromptOf(r).includes("You classify sentences");
}

function seed(sb: Sandbox): void {
	seedLog(sb.project, [addEvent(sb.project, 1, seeded)]);
	seedFile(projectMemoryFile(sb.project), `## Build\n\n- ${projectFact}\n`);
	seedFile(globalMemoryFile(sb.agentDir), `## Habits\n\n- ${globalFact}\n`);
	// Capture would call the model and save without asking: the worst case for "off".
	fs.writeFileSync(path.join(sb.agentDir, "decision-memory.config.json"), JSON.stringify({ autoCapture: { confirm: false, classifier: "llm" } }) + "\n");
}

interface Session {
	requests: RecordedRequest[];
	dialogs: number;
	added: string[];
	removed: string[];
	notes: string[];
}

async function session(sb: Sandbox, opts: { args?: string[]; first?: string } = {}): Promise<Session> {
	const before = snapshotTree(sb.root);
	const rpc = await startRpc(sb, { args: opts.args });
	let dialogs = 0;
	const since = sb.model.requests.length;
	try {
		if (opts.first !== undefined) await rpc.command(opts.first);
		await rpc.prompt(prompt, {
			onDialog: () => {
				dialogs++;
				return null;
			},
		});
		await rpc.command("/memory flush");
	} finally {
		await rpc.close();
	}
	const diff = diffTrees(before, snapshotTree(sb.root));
	return { requests: sb.model.requests.slice(since), dialogs, ...diff, notes: rpc.notes() };
}

function provesOff(s: Session, what: string): void {
	const chats = s.requests.filter((r) => r.body !== null);
	assert.equal(chats.filter(isClassifier).length, 0, `${what}: no classifier call`);
	assert.equal(chats.length, 1, `${what}: only the turn itself reached the model`);
	const appended = appendedPrompt(systemPromptOf(chats[0]));
	for (const text of [seeded, projectFact, globalFact, "## Persistent memory", "## Project decisions"]) {
		assert.ok(!appended.includes(text), `${what}: ${JSON.stringify(text)} was injected:\n${appended.slice(0, 1500)}`);
	}
	assert.equal(s.dialogs, 0, `${what}: no dialog`);
	assert.deepEqual({ added: s.added, removed: s.removed }, { added: [], removed: [] }, `${what}: zero writes in the project and the agent dir`);
}

async function sandboxed(opts: SandboxOptions, f: (sb: Sandbox) => Promise<void>): Promise<void> {
	await withSandbox(opts, async (sb) => {
		seed(sb);
		await f(sb);
	});
}

describe("off means off", () => {
	it("control: with memory on, the same session injects, calls the classifier and writes", async () => {
		await sandboxed({}, async (sb) => {
			const s = await session(sb);
			const chats = s.requests.filter((r) => r.body !== null);
			assert.equal(chats.filter(isClassifier).length, 1, "the classifier was called");
			const appended = appendedPrompt(systemPromptOf(chats[0]));
			assert.ok(appended.includes(seeded) && appended.includes(projectFact) && appended.includes(globalFact), appended);
			assert.ok(s.added.length > 0, `memory on writes (log, traces, page tables): ${JSON.stringify(s)}`);
			assert.match(fs.readFileSync(path.join(sb.project, ".pi", "decision-memory", "decisions.jsonl"), "utf8"), /Use tabs for indentation/);
		});
	});

	it("--no-memory", async () => {
		await sandboxed({}, async (sb) => provesOff(await session(sb, { args: ["--no-memory"] }), "--no-memory"));
	});

	it("/memory off", async () => {
		await sandboxed({}, async (sb) => provesOff(await session(sb, { first: "/memory off" }), "/memory off"));
	});

	it("both stores disabled by the project's configs", async () => {
		await sandboxed({}, async (sb) => {
			sb.writeProject(".pi/decision-memory.config.json", '{"enabled": false}\n');
			sb.writeProject(".pi/memory/config.json", '{"enabled": false}\n');
			// Global memory is the user's, not the project's: a project config turns off
			// decisions everywhere in it and markdown memory (both scopes) for it.
			provesOff(await session(sb), "disabled");
		});
	});

	it("an untrusted project: its memory is neither read nor written, and nothing is captured", async () => {
		await sandboxed({ untrusted: true }, async (sb) => {
			fs.rmSync(globalMemoryFile(sb.agentDir));
			const s = await session(sb);
			const chats = s.requests.filter((r) => r.body !== null);
			assert.equal(chats.filter(isClassifier).length, 0, "no classifier call");
			const appended = appendedPrompt(systemPromptOf(chats[0]));
			assert.ok(!appended.includes(seeded) && !appended.includes(projectFact), appended);
			assert.equal(s.dialogs, 0);
			assert.deepEqual({ added: s.added, removed: s.removed }, { added: [], removed: [] }, "zero writes");
		});
	});
});
