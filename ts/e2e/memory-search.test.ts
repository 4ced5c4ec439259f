// Issue 18: memory_search in the real pi. The fake model calls the tool
// over a project holding decisions, a MEMORY.md and an earlier pi session
// of the same project (a session file where pi keeps them); the test reads
// the tool result pi sent back to the model: the hits, best first, each
// with the citation a person opens (the decision id, the note's file
// relative to the project and its line, the session file, its line and
// date). Over 20,000 earlier sessions (issue 25, item 4) the search gives
// pi's thread back between its slices: pi answers get_state while the tool
// runs, and the tool result says what it did not read (a session too large
// to read, by its file). With memory off
// (--no-memory) the memory tools are not offered to the model at all; in a
// project that is not trusted they are, and reach global notes only.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { addEvent, contentText, globalMemoryFile, projectMemoryFile, runPrint, seedFile, seedLog, seedSessions, sessionFolder, startRpc, toolsOf, withSandbox } from "./harness.ts";

const MEMORY_TOOLS = ["memory_search", "memory_forget", "memory_restore", "memory_remember"];

describe("memory_search", () => {
	it("finds decisions, notes and an earlier session's message, each cited, and is absent with --no-memory", async () => {
		await withSandbox({ git: true }, async (sb) => {
			const project = fs.realpathSync(sb.project);
			const d1 = addEvent(project, 1, "Use PostgreSQL 16 for the primary database", { t: "2026-11-20T09:00:00.000Z" });
			const d2 = addEvent(project, 2, "Run the linters before every commit", { t: "2026-11-20T09:05:00.000Z" });
			seedLog(project, [d1, d2]);
			const notes = projectMemoryFile(project);
			seedFile(notes, "# Memory\n\n## Build\n- Databases are migrated with goose\n- Tests need Docker running\n");
			const folder = sessionFolder(sb.agentDir, project);
			const past = path.join(folder, "2026-11-18T10-00-00-000Z_0195a3b4-0000-7000-8000-000000000001.jsonl");
			fs.writeFileSync(
				past,
				[
					{ type: "session", version: 3, id: "0195a3b4-0000-7000-8000-000000000001", timestamp: "2026-11-18T10:00:00.000Z", cwd: project },
					{ type: "message", id: "a1", parentId: null, timestamp: "2026-11-18T10:00:05.000Z", message: { role: "user", content: "the nightly database backup failed again, the disk is full" } },
					{ type: "message", id: "a2", parentId: "a1", timestamp: "2026-11-18T10:00:09.000Z", message: { role: "assistant", content: [{ type: "text", text: "I freed space on the backup disk." }] } },
				]
					.map((e) => JSON.stringify(e))
					.join("\n") + "\n",
			);

			sb.model.enqueue({ tool: "memory_search", args: { query: "databases" } }, "Found them.");
			const r = await runPrint(sb, "What do we know about our databases?");
			assert.equal(r.code, 0, r.stderr);
			assert.ok(r.requests.length >= 2, `the model was asked again after its tool call: ${r.requests.length} requests`);
			assert.deepEqual(toolsOf(r.requests[0]).filter((t) => t.startsWith("memory_")), MEMORY_TOOLS, "the memory tools are offered while memory is on");

			const results = r.requests[r.requests.length - 1]!.body!.messages!.filter((m) => m.role === "tool").map(contentText);
			assert.equal(results.length, 1, `one tool result: ${JSON.stringify(results)}`);
			const text = results[0]!;
			assert.match(text, /^\d+ matches for "databases", best first/);
			assert.ok(text.includes(`decision ${d1.i} (active, 2026-11-20): Use PostgreSQL 16 for the primary database`), text);
			assert.ok(/note \.pi\/memory\/MEMORY\.md:4#P-[0-9a-f]{10}: Build — Databases are migrated with goose/.test(text), text);
			assert.ok(!text.includes(notes), `a project file is cited relative to the project: ${text}`);
			assert.ok(text.includes(`session ${past}:2 (2026-11-18): User: the nightly database backup failed again, the disk is full\n   answered at line 3: Assistant: I freed space on the backup disk.`), text);
			assert.ok(!text.includes("linters"), `a decision without the word is not a hit: ${text}`);
			assert.ok(text.indexOf(d1.i) < text.indexOf(past), "a decision before a message of an earlier session");

			// since: only what was written from then on (the session of 2026-11-18 is not).
			sb.model.enqueue({ tool: "memory_search", args: { query: "databases", since: "2026-11-19" } }, "Found them.");
			const later = await runPrint(sb, "What do we know about our databases lately?");
			assert.equal(later.code, 0, later.stderr);
			const recent = later.requests[later.requests.length - 1]!.body!.messages!.filter((m) => m.role === "tool").map(contentText)[0]!;
			assert.match(recent, /^1 match for "databases since:2026-11-19", best first/);
			assert.ok(recent.includes(`decision ${d1.i} (active, 2026-11-20)`) && !recent.includes(past), recent);

			const off = await runPrint(sb, "And now?", { args: ["--no-memory"] });
			assert.equal(off.code, 0, off.stderr);
			assert.deepEqual(toolsOf(off.requests[0]).filter((t) => t.startsWith("memory_")), [], "--no-memory: no memory tool offered");
		});
	});

	it("over 20,000 earlier sessions pi answers get_state while the search runs, and the answer names what it did not read", async () => {
		await withSandbox({ git: true }, async (sb) => {
			const project = fs.realpathSync(sb.project);
			const sessions = 20_000;
			const folder = seedSessions(sb, sessions, (i) => (i === sessions ? "we rotate the kubernetes certificates on fridays" : `session ${i}: the billing service was deployed again`));
			// 500 MB that take no disk: a session too large to read.
			const huge = path.join(folder, "2026-07-01T00-00-00-000Z_huge.jsonl");
			fs.writeFileSync(huge, JSON.stringify({ type: "session", version: 3, id: "huge", timestamp: "2026-07-01T00:00:00.000Z", cwd: project }) + "\n");
			fs.truncateSync(huge, 500 << 20);

			sb.model.enqueue({ tool: "memory_search", args: { query: "kubernetes certificates" } }, "Found it.");
			const rpc = await startRpc(sb);
			try {
				const since = rpc.records.length;
				const prompted = rpc.prompt("When do we rotate the certificates?", { timeoutMs: 300_000 });
				await rpc.waitFor((r) => r.type === "tool_execution_start" && r.toolName === "memory_search", { since, timeoutMs: 120_000, what: "memory_search starting" });
				const asked = Date.now();
				const state = await rpc.request({ type: "get_state" }, 120_000);
				const waited = Date.now() - asked;
				assert.equal(state.success, true);
				const answered = rpc.records.indexOf(state);
				const { index: ended, record: end } = await rpc.waitFor((r) => r.type === "tool_execution_end" && r.toolName === "memory_search", { since, timeoutMs: 300_000, what: "memory_search ending" });
				assert.ok(answered < ended, `get_state is answered while the search runs (answered at record ${answered}, the search ended at ${ended}, after ${String(end.durationMs)} ms)`);
				await prompted;
				process.stderr.write(`[e2e] get_state answered after ${waited} ms during a search of ${String(end.durationMs)} ms over ${sessions} sessions\n`);

				const r = sb.model.requests.at(-1);
				const text = r!.body!.messages!.filter((m) => m.role === "tool").map(contentText)[0] ?? "";
				assert.ok(text.includes("we rotate the kubernetes certificates on fridays"), `the newest session is read first: ${text.slice(0, 400)}`);
				assert.match(text, /Not searched: 1 earlier session, skipped for its size: \S*2026-07-01T00-00-00-000Z_huge\.jsonl/);
				// The search moved the core to a worker thread (core.ts, Core.call); had there
				// been none, the adapter would have said so on stderr and searched here.
				assert.doesNotMatch(rpc.stderr, /stays on pi's main thread/, rpc.describe());
			} finally {
				await rpc.close();
			}
		});
	});

	it("forgets a note the model names by its words and restores it from the reference the answer gave", async () => {
		await withSandbox({ git: true }, async (sb) => {
			const project = fs.realpathSync(sb.project);
			const notes = projectMemoryFile(project);
			seedFile(notes, "# Memory\n\n## Build\n- Databases are migrated with goose\n- Tests need Docker running\n");

			sb.model.enqueue({ tool: "memory_forget", args: { query: "migrated with goose" } }, "Forgotten.");
			const r = await runPrint(sb, "We no longer use goose, forget that.");
			assert.equal(r.code, 0, r.stderr);
			const forgot = r.requests[r.requests.length - 1]!.body!.messages!.filter((m) => m.role === "tool").map(contentText)[0] ?? "";
			assert.match(forgot, /Forgot “Databases are migrated with goose”/);
			assert.ok(!fs.readFileSync(notes, "utf8").includes("goose"), "the entry is gone from the file");
			const ref = /F-[0-9a-f]{8}/.exec(forgot)?.[0];
			assert.ok(ref !== undefined, `the answer names what restores it: ${forgot}`);

			sb.model.enqueue({ tool: "memory_restore", args: { id: ref } }, "Restored.");
			const back = await runPrint(sb, "Sorry, we do use goose. Bring it back.");
			assert.equal(back.code, 0, back.stderr);
			assert.ok(fs.readFileSync(notes, "utf8").includes("- Databases are migrated with goose"), "restored in its section");
		});
	});

	it("in an untrusted project the tools are offered and find global notes only, never the project's or its sessions", async () => {
		await withSandbox({ untrusted: true }, async (sb) => {
			const project = fs.realpathSync(sb.project);
			const global = globalMemoryFile(sb.agentDir);
			seedFile(global, "# Memory\n\n## Tools\n- I prefer pnpm workspaces everywhere\n");
			seedFile(projectMemoryFile(project), "# Memory\n\n- Project secret: pnpm is pinned to 9.1\n");
			const folder = sessionFolder(sb.agentDir, project);
			fs.writeFileSync(
				path.join(folder, "2026-11-18T10-00-00-000Z_0195a3b4-0000-7000-8000-000000000002.jsonl"),
				[
					{ type: "session", version: 3, id: "0195a3b4-0000-7000-8000-000000000002", timestamp: "2026-11-18T10:00:00.000Z", cwd: project },
					{ type: "message", id: "a1", parentId: null, timestamp: "2026-11-18T10:00:05.000Z", message: { role: "user", content: "pnpm install broke on the CI runner" } },
				]
					.map((e) => JSON.stringify(e))
					.join("\n") + "\n",
			);

			sb.model.enqueue({ tool: "memory_search", args: { query: "pnpm" } }, "Found it.");
			const r = await runPrint(sb, "Which package manager do I like?");
			assert.equal(r.code, 0, r.stderr);
			const offered = toolsOf(r.requests[0]);
			assert.deepEqual(offered.filter((t) => t.startsWith("memory_")), MEMORY_TOOLS, "the memory tools are offered");
			assert.ok(!offered.includes("decision_propose"), `decisions are off in an untrusted project: ${offered.join(", ")}`);
			const text = r.requests[r.requests.length - 1]!.body!.messages!.filter((m) => m.role === "tool").map(contentText)[0] ?? "";
			assert.ok(new RegExp(`note ${global.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:4#P-[0-9a-f]{10}: Tools — I prefer pnpm workspaces everywhere`).test(text), text);
			assert.ok(!text.includes("Project secret") && !text.includes("CI runner"), `nothing of the untrusted project: ${text}`);
		});
	});
	it("names a memory file that is a FIFO or a link in its answer, and waits on no FIFO, session or config", async () => {
		await withSandbox({ git: true }, async (sb) => {
			const project = fs.realpathSync(sb.project);
			const dir = path.dirname(projectMemoryFile(project));
			seedFile(path.join(dir, "deploy.md"), "# Deploy\n\n- Deploys go through Helm charts\n");
			execFileSync("mkfifo", [projectMemoryFile(project)]);
			fs.symlinkSync("/dev/zero", path.join(dir, "runbook.md"));
			const folder = sessionFolder(sb.agentDir, project);
			execFileSync("mkfifo", [path.join(folder, "2026-11-18T10-00-00-000Z_0195a3b4-0000-7000-8000-000000000009.jsonl")]);
			fs.symlinkSync("/dev/zero", path.join(folder, "2026-11-18T11-00-00-000Z_0195a3b4-0000-7000-8000-000000000010.jsonl"));
			execFileSync("mkfifo", [path.join(sb.agentDir, "om-config.json")]);

			sb.model.enqueue({ tool: "memory_search", args: { query: "deploys" } }, "Found it.");
			const r = await runPrint(sb, "How do we deploy?");
			assert.equal(r.code, 0, r.stderr);
			const text = r.requests.at(-1)!.body!.messages!.filter((m) => m.role === "tool").map(contentText)[0] ?? "";
			assert.match(text, /note \.pi\/memory\/deploy\.md:3#P-[0-9a-f]{10}: Deploys go through Helm charts/);
			assert.match(text, /Not searched: 2 memory files that could not be read \(do not take what it holds for absent\): \.pi\/memory\/MEMORY\.md, \.pi\/memory\/runbook\.md\./);
		});
	});
});
