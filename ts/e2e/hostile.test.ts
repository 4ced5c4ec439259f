// Nothing lost, nothing leaked, in the real pi: files that are not what they claim to
// be (a committed link, a FIFO), secrets written into memory files by hand, a config
// whose intent is unclear, and a log saved with a byte-order mark.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import {
	addEvent,
	appendedPrompt,
	decisionLog,
	diffTrees,
	eventLine,
	globalMemoryFile,
	projectMemoryFile,
	runPrint,
	seedFile,
	seedLog,
	snapshotTree,
	startRpc,
	withSandbox,
} from "./harness.ts";

function secretsOf(n: number): Array<{ kind: string; text: string; secret: string }> {
	const file = new URL("../../testdata/secrets/secrets.jsonl", import.meta.url);
	const all = fs
		.readFileSync(file, "utf8")
		.split("\n")
		.filter((l) => l !== "")
		.map((l) => JSON.parse(l) as { kind: string; text: string; secret: string });
	return all.filter((s) => !s.text.includes("\n")).slice(0, n);
}

describe("hostile files and hand-written secrets", () => {
	it("a committed link in place of decisions.jsonl and MEMORY.md: nothing outside is injected or written", async () => {
		await withSandbox({}, async (sb) => {
			const outside = path.join(sb.root, "outside");
			fs.mkdirSync(outside);
			const log = path.join(outside, "log.jsonl");
			const notes = path.join(outside, "notes.md");
			fs.writeFileSync(log, eventLine(addEvent(sb.project, 1, "Outside decision text")) + "\n");
			fs.writeFileSync(notes, "- Outside note text\n");
			fs.mkdirSync(path.dirname(decisionLog(sb.project)), { recursive: true });
			fs.symlinkSync(log, decisionLog(sb.project));
			fs.mkdirSync(path.dirname(projectMemoryFile(sb.project)), { recursive: true });
			fs.symlinkSync(notes, projectMemoryFile(sb.project));
			const before = { log: fs.readFileSync(log, "utf8"), notes: fs.readFileSync(notes, "utf8") };

			const r = await runPrint(sb, "what do we use?");
			assert.equal(r.code, 0, r.stderr);
			const appended = appendedPrompt(r.systemPrompt);
			assert.ok(!appended.includes("Outside decision text") && !appended.includes("Outside note text"), appended);
			assert.match(r.stderr, /decisions\.jsonl is a symbolic link/);

			const rpc = await startRpc(sb);
			try {
				const add = await rpc.command("/decision add Use Go for services");
				assert.match(add.notes.join("\n"), /symbolic link/, JSON.stringify(add.notes));
				const remember = await rpc.command("/memory remember project Lint before pushing");
				assert.match(remember.notes.join("\n"), /MEMORY\.md is a symbolic link/, JSON.stringify(remember.notes));
			} finally {
				await rpc.close();
			}
			assert.deepEqual({ log: fs.readFileSync(log, "utf8"), notes: fs.readFileSync(notes, "utf8") }, before, "the files outside are untouched");
		});
	});

	it("a FIFO as the log: pi answers, nothing hangs, the add is refused", async () => {
		await withSandbox({}, async (sb) => {
			fs.mkdirSync(path.dirname(decisionLog(sb.project)), { recursive: true });
			execFileSync("mkfifo", [decisionLog(sb.project)]);
			const r = await runPrint(sb, "hello", { timeoutMs: 30_000 });
			assert.equal(r.code, 0, r.stderr);
			assert.match(r.stderr, /not a regular file/);
			const add = await runPrint(sb, "/decision add Use Go for services", { timeoutMs: 30_000 });
			assert.equal(add.code, 1, add.stderr);
			assert.ok(!fs.existsSync(`${decisionLog(sb.project)}.lock`), "no lock left behind");
		});
	});

	it("secrets written by hand into the log and MEMORY.md reach neither the model nor a derived file", async () => {
		await withSandbox({}, async (sb) => {
			const secrets = secretsOf(12);
			seedLog(
				sb.project,
				secrets.map((s, i) => addEvent(sb.project, i + 1, `Rule ${i}: ${s.text}`, { tags: [s.text.split(" ")[0] ?? "x"] })),
			);
			seedFile(projectMemoryFile(sb.project), `## Notes\n\n${secrets.map((s) => `- ${s.text}`).join("\n")}\n`);
			seedFile(globalMemoryFile(sb.agentDir), `- Global: ${secrets[0]?.text ?? ""}\n`);
			const r = await runPrint(sb, "what do you remember?");
			assert.equal(r.code, 0, r.stderr);
			assert.ok(appendedPrompt(r.systemPrompt).includes("[REDACTED:"), "the redacted memory is still injected");
			const rpc = await startRpc(sb);
			try {
				await rpc.prompt("and now?");
				await rpc.command("/decision list --all --json");
				await rpc.command("/memory pages");
				await rpc.command("/memory verify");
			} finally {
				await rpc.close();
			}
			const shown = JSON.stringify(rpc.records);
			for (const s of secrets) {
				for (const req of sb.model.requests) assert.ok(!req.raw.includes(s.secret), `${s.kind}: the model received ${s.secret}`);
				assert.ok(!shown.includes(s.secret) && !shown.includes(JSON.stringify(s.secret).slice(1, -1)), `${s.kind}: a command showed ${s.secret}`);
				for (const f of fs.readdirSync(sb.agentDir, { recursive: true, encoding: "utf8" })) {
					const p = path.join(sb.agentDir, f);
					// memory/ holds the person's own global MEMORY.md: it keeps what they wrote.
					if (!f.startsWith("memory") && fs.statSync(p).isFile()) assert.ok(!fs.readFileSync(p, "utf8").includes(s.secret), `${s.kind}: ${f} keeps the secret`);
				}
			}
		});
	});

	it("a config whose intent is unclear turns memory off, names the file and the problem, and writes nothing", async () => {
		await withSandbox({}, async (sb) => {
			seedLog(sb.project, [addEvent(sb.project, 1, "Use PostgreSQL 16 as the primary datastore")]);
			sb.writeProject(".pi/decision-memory.config.json", '{"enabled": false,}\n');
			const before = snapshotTree(sb.root);
			const r = await runPrint(sb, "Decision: Use tabs for indentation");
			assert.equal(r.code, 0, r.stderr);
			assert.ok(!appendedPrompt(r.systemPrompt).includes("PostgreSQL"), "nothing injected");
			assert.match(r.stderr, /decision-memory\.config\.json is not valid JSON: line 1, column \d+: trailing comma/);
			assert.deepEqual(diffTrees(before, snapshotTree(sb.root)), { removed: [], added: [] }, "zero writes");
		});
	});

	it("a log saved with a byte-order mark keeps its first decision", async () => {
		await withSandbox({}, async (sb) => {
			const log = decisionLog(sb.project);
			fs.mkdirSync(path.dirname(log), { recursive: true });
			fs.writeFileSync(log, "\ufeff" + eventLine(addEvent(sb.project, 1, "Use PostgreSQL 16 as the primary datastore")) + "\n");
			const r = await runPrint(sb, "which database?");
			assert.equal(r.code, 0, r.stderr);
			assert.ok(appendedPrompt(r.systemPrompt).includes("Use PostgreSQL 16 as the primary datastore"), appendedPrompt(r.systemPrompt));
		});
	});
});
