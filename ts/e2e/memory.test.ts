// Scenario 10: markdown memory (docs/decisions/005-markdown-memory.md) in the
// real pi. Each case checks what pi sent to the model (the recorded system
// prompt) and what landed on disk:
// - seeded global and project MEMORY.md files are injected after pi's prompt:
//   preamble, then global, then project, each file as written;
// - an untrusted project's memory is neither read nor mentioned, global
//   memory still is;
// - with pageTableInjection off, maxInjectLines cuts at a line boundary and a
//   marker names the file to read;
// - an edit to MEMORY.md shows on the next prompt of the same session
//   (no /reload), and an unchanged file gives a byte-identical prompt;
// - /memory remember writes exactly one bullet under its section at once
//   (no flush; the scope is optional), and the next prompt carries it;
// - a folder without memory is untouched by prompts and read-only /memory
//   commands: no .pi/memory, no pi-memory/notes in the agent dir;
// - /memory last is the receipt of exactly what the previous turn appended;
// - the agent corrects memory with pi's own edit tool (how memory is meant to be kept):
//   the model saw the old fact, the edit lands, the next prompt carries it.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import {
	appendedPrompt,
	diffTrees,
	globalMemoryFile,
	notesBlock,
	projectMemoryFile,
	requestWithUser,
	runPrint,
	seedFile,
	snapshotTree,
	startRpc,
	systemPromptOf,
	userTextOf,
	withSandbox,
} from "./harness.ts";
import type { Sandbox } from "./harness.ts";

const PREAMBLE = "## Persistent memory\n";
const PROJECT_HEADER = "### Project MEMORY.md (.pi/memory/MEMORY.md)\n";
const globalHeader = (sb: Sandbox) => `### Global MEMORY.md (${globalMemoryFile(sb.agentDir)})\n`;

const GLOBAL_TEXT = "## Style\n\n- Prefer small pull requests\n- Write commit messages in the imperative mood\n";
const PROJECT_TEXT = "## Build\n\n- Run make test before pushing\n- The core is built with TinyGo 0.34\n";

/** The tail of a system prompt, for failure messages. */
function tail(sp: string, n = 2500): string {
	return `--- system prompt (last ${n} chars) ---\n${sp.slice(-n)}\n---`;
}

describe("markdown memory", () => {
	it("seeded global and project MEMORY.md reach the system prompt: preamble, global, project, as written", async () => {
		await withSandbox({}, async (sb) => {
			seedFile(globalMemoryFile(sb.agentDir), GLOBAL_TEXT);
			seedFile(projectMemoryFile(sb.project), PROJECT_TEXT);

			const r = await runPrint(sb, "What do you remember about this project?");
			assert.equal(r.code, 0, r.stderr);
			assert.equal(r.requests.length, 1, "one model call");
			const sp = r.systemPrompt;
			const appended = appendedPrompt(sp);

			// Memory follows pi's own prompt, on a fresh paragraph, preamble first.
			assert.ok(appended.startsWith("\n\n" + PREAMBLE), `the appended text starts with the preamble:\n${tail(sp)}`);
			const pre = sp.indexOf(PREAMBLE);
			const g = sp.indexOf(globalHeader(sb) + GLOBAL_TEXT);
			const p = sp.indexOf(PROJECT_HEADER + PROJECT_TEXT);
			assert.ok(pre >= 0 && g > pre && p > g, `preamble (${pre}) < global header + file (${g}) < project header + file (${p}):\n${tail(sp)}`);
			// The preamble names both scopes' folders.
			const preamble = sp.slice(pre, g);
			assert.ok(preamble.includes(path.join(sb.agentDir, "memory") + "/"), `the preamble names the global folder:\n${preamble}`);
			assert.ok(preamble.includes(".pi/memory/"), `the preamble names the project folder:\n${preamble}`);
			// Both indexes fit whole, so each is injected exactly as written, and
			// the project's is the last thing in the prompt (no decisions here).
			assert.ok(appended.endsWith(PROJECT_HEADER + PROJECT_TEXT), `the prompt ends with the project index:\n${tail(sp)}`);
			assert.equal(notesBlock(sp), appended.slice(2), "the whole appended text is the notes block");
			// Memory goes to the system prompt, not into the user message.
			assert.ok(!userTextOf(r.requests[0]).includes("Run make test before pushing"), "nothing injected into the user message");
		});
	});

	async function provesUntrustedIsInert(sb: Sandbox, args: string[]): Promise<void> {
		seedFile(globalMemoryFile(sb.agentDir), GLOBAL_TEXT);
		seedFile(projectMemoryFile(sb.project), "## Plans\n\n- Project secret plan: migrate to Rust in Q3\n");
		const before = snapshotTree(sb.project);

		const r = await runPrint(sb, "untrusted question", { args });
		assert.equal(r.code, 0, r.stderr);
		assert.equal(r.requests.length, 1, "the model was called");
		const sp = r.systemPrompt;
		assert.ok(!sp.includes("Project secret plan"), `the untrusted project's MEMORY.md is not injected:\n${tail(sp)}`);
		assert.ok(!sp.includes(".pi/memory"), `.pi/memory is not mentioned:\n${tail(sp)}`);
		assert.ok(!sp.includes("### Project MEMORY.md") && !sp.includes("Project memory"), `no project scope in the preamble:\n${tail(sp)}`);
		assert.ok(!userTextOf(r.requests[0]).includes("Project secret plan"), "nor in the user message");
		assert.ok(sp.includes(PREAMBLE), `the preamble is still there:\n${tail(sp)}`);
		assert.ok(sp.includes(globalHeader(sb) + GLOBAL_TEXT), `global memory is still injected:\n${tail(sp)}`);

		// Remembering into the untrusted project is refused, naming trust.
		const rem = await runPrint(sb, "/memory remember project Use tabs", { args });
		assert.equal(rem.code, 1, `refused with exit 1; stderr:\n${rem.stderr}`);
		assert.match(rem.stderr, /not trusted/i, rem.stderr);
		assert.deepEqual(diffTrees(before, snapshotTree(sb.project)), { removed: [], added: [] }, "nothing in the project changed");
	}

	it("an untrusted project (defaultProjectTrust never + .pi/settings.json): its memory is neither read nor mentioned", async () => {
		await withSandbox({ untrusted: true }, (sb) => provesUntrustedIsInert(sb, []));
	});

	it("an untrusted project (--no-approve): its memory is neither read nor mentioned", async () => {
		await withSandbox({}, (sb) => provesUntrustedIsInert(sb, ["--no-approve"]));
	});

	it("with pageTableInjection off, maxInjectLines 3 keeps the first 2 whole lines plus the marker", async () => {
		await withSandbox({}, async (sb) => {
			seedFile(path.join(sb.project, ".pi", "memory", "config.json"), `{"pageTableInjection": false, "maxInjectLines": 3}\n`);
			const lines = Array.from({ length: 10 }, (_, i) => `- Fact ${String(i + 1).padStart(2, "0")}: the build step number ${i + 1} needs attention`);
			seedFile(projectMemoryFile(sb.project), lines.map((l) => l + "\n").join(""));

			const r = await runPrint(sb, "capped question");
			assert.equal(r.code, 0, r.stderr);
			const sp = r.systemPrompt;
			const marker = "[8 more lines not shown: read .pi/memory/MEMORY.md]";
			const want = `${PROJECT_HEADER}${lines[0]}\n${lines[1]}\n${marker}\n`;
			assert.ok(appendedPrompt(sp).endsWith(want), `want the prompt to end with:\n${want}\n${tail(sp)}`);
			// Nothing past line 2, not even part of a line.
			for (const l of lines.slice(2)) assert.ok(!sp.includes(l.slice(0, 10)), `"${l}" must not appear, in part or whole:\n${tail(sp)}`);
			const section = sp.slice(sp.indexOf(PROJECT_HEADER) + PROJECT_HEADER.length).split("\n").filter((l) => l !== "");
			assert.deepEqual(section, [lines[0], lines[1], marker], "every injected line is a whole line of the file, or the marker");
		});
	});

	it("over RPC, an edit to MEMORY.md shows on the next prompt without /reload; unchanged, the prompt is byte-identical", async () => {
		await withSandbox({}, async (sb) => {
			const file = seedFile(projectMemoryFile(sb.project), "## Build\n\n- Run make test before pushing\n");
			const rpc = await startRpc(sb);
			try {
				await rpc.prompt("first question");
				const sp1 = systemPromptOf(requestWithUser(sb.model, "first question"));
				assert.ok(appendedPrompt(sp1).endsWith(PROJECT_HEADER + "## Build\n\n- Run make test before pushing\n"), tail(sp1));

				// As the agent's edit tool would: a new line, so the size changes.
				const edited = "## Build\n\n- Run make test before pushing\n- Use Go 1.25 for the core\n";
				fs.writeFileSync(file, edited);
				await rpc.prompt("second question");
				const sp2 = systemPromptOf(requestWithUser(sb.model, "second question"));
				assert.notEqual(sp2, sp1, "the second prompt differs from the first");
				assert.ok(appendedPrompt(sp2).endsWith(PROJECT_HEADER + edited), `the edit is injected:\n${tail(sp2)}`);

				await rpc.prompt("third question");
				const sp3 = systemPromptOf(requestWithUser(sb.model, "third question"));
				assert.equal(sp3, sp2, "the file is unchanged: the system prompt is byte-identical");
				assert.deepEqual(rpc.problems(), [], "no warning or error was shown");
			} finally {
				await rpc.close();
			}
		});
	});

	it("/memory remember I always use pnpm over RPC writes at once into the project, says where; the next prompt carries it", async () => {
		await withSandbox({}, async (sb) => {
			const file = projectMemoryFile(sb.project);
			const rpc = await startRpc(sb);
			try {
				const rem = await rpc.command("/memory remember I always use pnpm");
				const remText = rem.notes.join("\n");
				assert.match(remText, /Remembered in project memory: \.pi\/memory\/MEMORY\.md, line 3, section "Notes"\./, `remember: ${JSON.stringify(rem.notes)}`);
				assert.doesNotMatch(remText, /W-|unknown scope/, "no internal id, no scope error");
				assert.equal(fs.readFileSync(file, "utf8"), "## Notes\n\n- I always use pnpm\n", "written at once");

				const flush = await rpc.command("/memory flush");
				assert.match(flush.notes.join("\n"), /Nothing to flush/, `flush: ${JSON.stringify(flush.notes)}`);

				await rpc.prompt("after the remember");
				const sp = systemPromptOf(requestWithUser(sb.model, "after the remember"));
				assert.ok(appendedPrompt(sp).endsWith(PROJECT_HEADER + "## Notes\n\n- I always use pnpm\n"), `the bullet is injected:\n${tail(sp)}`);
				assert.deepEqual(rpc.problems(), [], "no warning or error was shown");
			} finally {
				await rpc.close();
			}
			assert.equal(fs.readFileSync(file, "utf8"), "## Notes\n\n- I always use pnpm\n");
		});
	});

	it("/memory remember project … --section Build in print mode writes before the process ends, not at its session end", async () => {
		await withSandbox({}, async (sb) => {
			const file = projectMemoryFile(sb.project);
			const rem = await runPrint(sb, "/memory remember project Run make test before pushing --section Build");
			assert.equal(rem.code, 0, rem.stderr);
			assert.equal(rem.requests.length, 0, "a command does not call the model");
			assert.match(rem.stderr, /Remembered in project memory: \.pi\/memory\/MEMORY\.md, line 3, section "Build"\./, rem.stderr);
			assert.doesNotMatch(rem.stderr, /Session end flushed/, rem.stderr);
			assert.equal(fs.readFileSync(file, "utf8"), "## Build\n\n- Run make test before pushing\n");
			const r = await runPrint(sb, "print question after the remember");
			assert.ok(appendedPrompt(r.systemPrompt).endsWith(PROJECT_HEADER + "## Build\n\n- Run make test before pushing\n"), tail(r.systemPrompt));
		});
	});

	it("the agent keeps memory with pi's own edit tool: a correction lands in MEMORY.md and the next prompt carries it", async () => {
		await withSandbox({}, async (sb) => {
			const file = seedFile(projectMemoryFile(sb.project), PROJECT_TEXT);
			// The model answers the correction with pi's edit tool, then with text.
			sb.model.enqueue({ tool: "edit", args: { path: ".pi/memory/MEMORY.md", edits: [{ oldText: "TinyGo 0.34", newText: "TinyGo 0.41" }] } }, "Noted: the core is built with TinyGo 0.41.");
			const r = await runPrint(sb, "Correction: the core is built with TinyGo 0.41 now, remember that.");
			assert.equal(r.code, 0, r.stderr);
			assert.equal(r.requests.length, 2, "the tool call, then the answer after its result");
			// The model saw the memory it was correcting (recall), and pi ran the edit.
			assert.ok(systemPromptOf(r.requests[0]).includes(PROJECT_HEADER + PROJECT_TEXT), tail(systemPromptOf(r.requests[0])));
			const toolResult = (r.requests[1]!.body?.messages ?? []).find((m) => m.role === "tool");
			assert.ok(toolResult !== undefined, `pi sent the edit's result back: ${r.requests[1]!.raw.slice(-600)}`);
			const corrected = PROJECT_TEXT.replace("TinyGo 0.34", "TinyGo 0.41");
			assert.equal(fs.readFileSync(file, "utf8"), corrected, "the edit landed in MEMORY.md");
			const next = await runPrint(sb, "Which TinyGo builds the core?");
			assert.equal(next.code, 0, next.stderr);
			assert.ok(appendedPrompt(next.systemPrompt).endsWith(PROJECT_HEADER + corrected), tail(next.systemPrompt));
		});
	});

	it("a folder without memory stays untouched by a prompt, /memory and /memory recall", async () => {
		await withSandbox({}, async (sb) => {
			const before = snapshotTree(sb.root);

			const r = await runPrint(sb, "hello in a random folder");
			assert.equal(r.code, 0, r.stderr);
			// The store is on: the preamble is injected, no index (none exists).
			assert.ok(r.systemPrompt.includes(PREAMBLE), tail(r.systemPrompt));
			assert.ok(!r.systemPrompt.includes("### Global MEMORY.md") && !r.systemPrompt.includes("### Project MEMORY.md"), tail(r.systemPrompt));
			const status = await runPrint(sb, "/memory");
			assert.equal(status.code, 0, status.stderr);
			assert.match(status.stderr, /Markdown memory: on/, `print-mode status answered on stderr: ${status.stderr}`);
			assert.match(status.stderr, /absent: created on the first write/, status.stderr);
			assert.deepEqual(diffTrees(before, snapshotTree(sb.root)), { removed: [], added: [] }, "print mode wrote nothing");

			const rpc = await startRpc(sb);
			try {
				await rpc.prompt("hello over rpc");
				const st = await rpc.command("/memory");
				assert.ok(st.notes.join("\n").includes(projectMemoryFile(sb.project)) || st.notes.join("\n").includes(".pi/memory"), `status names the project memory: ${JSON.stringify(st.notes)}`);
				const rec = await rpc.command("/memory recall x");
				assert.match(rec.notes.join("\n"), /recall: unavailable/, `recall answers unavailable: ${JSON.stringify(rec.notes)}`);
			} finally {
				await rpc.close();
			}
			assert.deepEqual(diffTrees(before, snapshotTree(sb.root)), { removed: [], added: [] }, "rpc mode wrote nothing");
			assert.ok(!fs.existsSync(path.join(sb.project, ".pi")), "no .pi folder in the project");
			assert.ok(!fs.existsSync(path.join(sb.agentDir, "memory")), "no memory folder in the agent dir");
			assert.ok(!fs.existsSync(path.join(sb.agentDir, "pi-memory")), "no pi-memory/notes folder in the agent dir");
		});
	});

	it("/memory last over RPC shows exactly the notes block the previous prompt appended", async () => {
		await withSandbox({}, async (sb) => {
			seedFile(globalMemoryFile(sb.agentDir), GLOBAL_TEXT);
			seedFile(projectMemoryFile(sb.project), PROJECT_TEXT);
			const rpc = await startRpc(sb);
			try {
				const none = await rpc.command("/memory last");
				assert.match(none.notes.join("\n"), /No turn has run in this session yet/, JSON.stringify(none.notes));

				await rpc.prompt("question for the receipt");
				const sp = systemPromptOf(requestWithUser(sb.model, "question for the receipt"));
				const block = notesBlock(sp);
				assert.ok(block.includes(PROJECT_TEXT) && block.includes(GLOBAL_TEXT), tail(sp));

				const last = await rpc.command("/memory last");
				const text = last.notes.join("\n");
				const bytes = Buffer.byteLength(block);
				const head = new RegExp(`--- notes: ${bytes} bytes ≈ ${Math.ceil(bytes / 4)} tokens \\(cap \\d+ tokens\\) ---\\n`);
				const m = head.exec(text);
				assert.ok(m, `the receipt names the notes store with ${bytes} bytes:\n${text}\n${tail(sp)}`);
				const shown = text.slice(m.index + m[0].length).split("\n\n--- decisions:")[0];
				assert.equal(shown, block.trimEnd(), "the receipt shows the notes block byte for byte");
				assert.match(text, /--- decisions: 0 bytes[^\n]*---\n\(nothing\)/, `no decisions were injected:\n${text}`);

				const json = await rpc.command("/memory last --json");
				const parsed = JSON.parse(json.notes.join("\n")) as { turn: boolean; stores: Array<{ store: string; bytes: number; text: string }> };
				assert.equal(parsed.turn, true);
				const notes = parsed.stores.find((s) => s.store === "notes");
				assert.equal(notes?.text, block, "the JSON receipt's text is the notes block exactly");
				assert.equal(notes?.bytes, bytes);
				// The receipt is of what was sent: together with the separator it is
				// everything pi-memory appended.
				assert.equal(appendedPrompt(sp), "\n\n" + block);
			} finally {
				await rpc.close();
			}
		});
	});
});
