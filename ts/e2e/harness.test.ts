// Proves the harness itself against the real pi with a throwaway extension
// (written to a temp folder here), independent of ts/index.ts and the core:
// when a scenario fails and this passes, the fault is not in the harness.

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { diffTrees, makeSandbox, runPrint, snapshotTree, startFakeModel, startRpc } from "./harness.ts";
import type { FakeModel, Sandbox } from "./harness.ts";

const EXT_SOURCE = `
// Throwaway extension for the harness self-test.
import * as fs from "node:fs";
import * as path from "node:path";

export default function (pi) {
	let pending = "";
	pi.on("before_agent_start", (event, ctx) => {
		const m = /^Decision: (.+)$/m.exec(event.prompt ?? "");
		pending = m ? m[1] : "";
		return { systemPrompt: event.systemPrompt + "\\n\\nHELLO-MARKER trusted=" + ctx.isProjectTrusted() };
	});
	pi.on("agent_end", async (event, ctx) => {
		if (!pending) return;
		const text = pending;
		pending = "";
		const ok = await ctx.ui.confirm("Save decision?", text);
		if (ok) fs.appendFileSync(path.join(ctx.cwd, "captured.txt"), text + "\\n");
	});
	pi.registerCommand("hello", {
		description: "say hello",
		handler: async (args, ctx) => { ctx.ui.notify("hello " + args, "info"); },
	});
	pi.registerCommand("ask", {
		description: "ask three questions",
		handler: async (args, ctx) => {
			const ok = await ctx.ui.confirm("Sure?", "really");
			const pick = await ctx.ui.select("Pick one", ["Alpha", "Beta"]);
			const txt = await ctx.ui.input("Name?", "type a name");
			ctx.ui.notify("answers ok=" + ok + " pick=" + pick + " txt=" + txt, "info");
		},
	});
}
`;

describe("harness self-test (throwaway extension)", () => {
	let model: FakeModel;
	let extDir: string;
	let ext: string;
	const sandboxes: Sandbox[] = [];
	const sandbox = (opts = {}) => {
		const sb = makeSandbox(model, opts);
		sandboxes.push(sb);
		return sb;
	};

	before(async () => {
		model = await startFakeModel();
		extDir = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-e2e-ext-"));
		ext = path.join(extDir, "hello.ts");
		fs.writeFileSync(ext, EXT_SOURCE);
	});
	after(async () => {
		for (const sb of sandboxes) sb.cleanup();
		fs.rmSync(extDir, { recursive: true, force: true });
		await model.close();
	});

	it("print mode: the extension's system prompt addition reaches the model", async () => {
		const sb = sandbox();
		model.enqueue("scripted reply");
		const r = await runPrint(sb, "hi there", { ext });
		assert.equal(r.code, 0, r.stderr);
		assert.match(r.stdout, /scripted reply/);
		assert.equal(r.requests.length, 1);
		assert.match(r.systemPrompt, /HELLO-MARKER trusted=true/);
		assert.equal(r.requests[0]!.body?.messages?.[0]?.role, "system");
	});

	it("print mode: a model failure is reported, not hung", async () => {
		const sb = sandbox();
		model.failNext(1, 500);
		const r = await runPrint(sb, "fail please", { ext });
		assert.notEqual(r.code, 0, "a failed model call should fail the print run");
		assert.equal(r.requests.length, 1, "retries are off in the sandbox");
	});

	it("print and rpc mode: pi itself writes nothing in the sandbox (the zero-writes baseline)", async () => {
		const sb = sandbox();
		const before = snapshotTree(sb.root);
		const r = await runPrint(sb, "hello", { ext });
		assert.equal(r.code, 0, r.stderr);
		const rpc = await startRpc(sb, { ext });
		try {
			await rpc.prompt("hello again");
			await rpc.command("/hello there");
		} finally {
			await rpc.close();
		}
		assert.deepEqual(diffTrees(before, snapshotTree(sb.root)), { removed: [], added: [] });
	});

	it("trust: a plain folder is trusted even with defaultProjectTrust never; untrusted and --no-approve are not", async () => {
		const plain = await runPrint(sandbox({ trust: "never" }), "hello", { ext });
		assert.match(plain.systemPrompt, /HELLO-MARKER trusted=true/, "no protected resource: pi never asks, so trusted");
		const untrusted = await runPrint(sandbox({ untrusted: true }), "hello", { ext });
		assert.equal(untrusted.code, 0, untrusted.stderr);
		assert.match(untrusted.systemPrompt, /HELLO-MARKER trusted=false/);
		const noApprove = await runPrint(sandbox(), "hello", { ext, args: ["--no-approve"] });
		assert.match(noApprove.systemPrompt, /HELLO-MARKER trusted=false/);
	});

	it("rpc: commands notify, dialogs are answered, prompts settle", async () => {
		const sb = sandbox();
		const rpc = await startRpc(sb, { ext });
		try {
			const hello = await rpc.command("/hello world");
			assert.deepEqual(hello.notes, ["hello world"]);

			const pending = rpc.command("/ask");
			const c = await rpc.waitForDialog();
			assert.equal(c.method, "confirm");
			rpc.answer(c, true);
			const s = await rpc.waitForDialog({ since: rpc.records.indexOf(c) + 1 });
			assert.equal(s.method, "select");
			assert.deepEqual(s.options, ["Alpha", "Beta"]);
			rpc.answer(s, "Beta");
			const i = await rpc.waitForDialog({ since: rpc.records.indexOf(s) + 1 });
			assert.equal(i.method, "input");
			rpc.answer(i, "Ada");
			const ask = await pending;
			assert.deepEqual(ask.notes, ["answers ok=true pick=Beta txt=Ada"]);

			model.enqueue("fine");
			const p = await rpc.prompt("just chatting");
			assert.ok(p.records.some((r) => r.type === "agent_end"));
			assert.match(JSON.stringify(model.requests[model.requests.length - 1]!.body), /HELLO-MARKER/);

			// A dialog raised at agent_end, answered yes then no.
			await rpc.prompt("Decision: Use pnpm", { onDialog: () => true });
			await rpc.prompt("Decision: Use yarn", { onDialog: () => false });
			assert.equal(fs.readFileSync(path.join(sb.project, "captured.txt"), "utf8"), "Use pnpm\n");
		} finally {
			await rpc.close();
		}
		assert.ok(rpc.exit, "pi exited on close");
	});
});
