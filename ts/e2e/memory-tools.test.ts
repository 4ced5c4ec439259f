// Markdown memory's tool for the model, end to end: the real pi CLI with the
// extension and the fake model (harness.ts), whose scripted replies call
// memory_remember. Each case checks what pi offered the model (the tools of
// the recorded request), what the tool answered (the tool message of the next
// request) and what landed on disk:
// - memory_remember writes the fact into the trusted project's MEMORY.md at
//   once and answers in one line where it went, with no internal id;
// - a secret and a near-duplicate are refused (nothing written), the secret
//   reaching neither the disk nor the answer;
// - with --no-memory (before -p) or after /memory off, the tool is absent
//   from the model's request, and nothing is written.

import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { contentText, globalMemoryFile, projectMemoryFile, runPrint, seedFile, startRpc, toolsOf, withSandbox } from "./harness.ts";
import type { RecordedRequest } from "./harness.ts";

/** The tool results pi sent back to the model in req, as text. */
function toolResults(req: RecordedRequest | undefined): string[] {
	return (req?.body?.messages ?? []).filter((m) => m.role === "tool").map(contentText);
}

describe("memory tools", () => {
	it("memory_remember writes at once into the trusted project and says where in one line", async () => {
		await withSandbox({}, async (sb) => {
			sb.model.enqueue({ tool: "memory_remember", args: { text: "I always use pnpm" } }, "Noted: pnpm.");
			const r = await runPrint(sb, "I always use pnpm, remember that.");
			assert.equal(r.code, 0, r.stderr);
			assert.equal(r.requests.length, 2, "the tool call, then the answer after its result");
			assert.ok(toolsOf(r.requests[0]).includes("memory_remember"), `offered: ${toolsOf(r.requests[0]).join(", ")}`);
			assert.deepEqual(toolResults(r.requests[1]), ['Remembered in project memory: .pi/memory/MEMORY.md, line 3, section "Notes".']);
			assert.equal(fs.readFileSync(projectMemoryFile(sb.project), "utf8"), "## Notes\n\n- I always use pnpm\n");
			assert.ok(!fs.existsSync(globalMemoryFile(sb.agentDir)), "global memory is untouched");
			assert.doesNotMatch(r.stderr, /Session end flushed/, "nothing was left for the session end");
			// The next run injects it.
			const next = await runPrint(sb, "Which package manager?");
			assert.ok(next.systemPrompt.includes("- I always use pnpm\n"), "the fact is injected on the next prompt");
		});
	});

	it("memory_remember refuses a secret and a near-duplicate without a dialog, and writes nothing", async () => {
		await withSandbox({}, async (sb) => {
			const file = seedFile(projectMemoryFile(sb.project), "## Build\n\n- Run make test before pushing\n");
			const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB";
			sb.model.enqueue(
				{ tool: "memory_remember", args: { text: `Push with ${secret}`, scope: "project" } },
				{ tool: "memory_remember", args: { text: "run the tests with make test before pushing", section: "Build" } },
				"Both were refused.",
			);
			const r = await runPrint(sb, "Remember how we push and test.");
			assert.equal(r.code, 0, r.stderr);
			assert.equal(r.requests.length, 3, "two tool calls, then the answer");
			const results = toolResults(r.requests[2]);
			assert.equal(results.length, 2, JSON.stringify(results));
			assert.match(results[0]!, /^Not remembered \(secret\): /);
			assert.ok(!results.some((t) => t.includes(secret)), "the answer does not echo the secret");
			assert.equal(results[1], "Already remembered in .pi/memory/MEMORY.md, line 3: “Run make test before pushing”. Nothing was written.");
			assert.equal(fs.readFileSync(file, "utf8"), "## Build\n\n- Run make test before pushing\n", "the file is as it was");
			const agentFiles = fs.readdirSync(sb.agentDir, { recursive: true }).map(String);
			for (const f of agentFiles) {
				const p = `${sb.agentDir}/${f}`;
				if (fs.statSync(p).isFile()) assert.ok(!fs.readFileSync(p, "utf8").includes(secret), `${f} keeps the secret`);
			}
		});
	});

	it("with --no-memory before -p the tool is not offered; after /memory off neither; nothing is written", async () => {
		await withSandbox({}, async (sb) => {
			const off = await runPrint(sb, "I always use pnpm, remember that.", { args: ["--no-memory"] });
			assert.equal(off.code, 0, off.stderr);
			assert.ok(off.requests.length >= 1, "control: the model was asked");
			assert.ok(!toolsOf(off.requests[0]).includes("memory_remember"), `--no-memory offers: ${toolsOf(off.requests[0]).join(", ")}`);
			assert.ok(toolsOf(off.requests[0]).includes("read"), "control: pi's own tools are offered");

			const rpc = await startRpc(sb);
			try {
				await rpc.prompt("first question");
				const on = sb.model.chats();
				assert.ok(toolsOf(on[on.length - 1]).includes("memory_remember"), "control: offered while memory is on");
				await rpc.command("/memory off");
				const before = sb.model.chats().length;
				await rpc.prompt("second question");
				const after = sb.model.chats().slice(before);
				assert.ok(after.length >= 1 && !toolsOf(after[0]).includes("memory_remember"), `after /memory off: ${toolsOf(after[0]).join(", ")}`);
			} finally {
				await rpc.close();
			}
			assert.ok(!fs.existsSync(projectMemoryFile(sb.project)), "no project memory was written");
		});
	});
});
