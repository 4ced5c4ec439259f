// `pimem hindsight import` against the real Hindsight server (issue 9: "import of a
// pi session directory is idempotent (a second run adds nothing) and resumes from its
// checkpoint after being killed"). Session files are written as pi writes them; the
// server's documents are listed through its API: one per session, never two. Needs
// `make hindsight` and `make wasm` (pimem is built here from the clone).

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { REPO, waitUntil } from "./harness.ts";
import { startHindsight } from "./hindsight.ts";
import type { Hindsight } from "./hindsight.ts";

let hs: Hindsight;
let bin: string;
let tmp: string;

before(async () => {
	tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pimem-e2e-import-")));
	bin = path.join(tmp, "pimem");
	execFileSync("go", ["build", "-o", bin, "./host/cmd/pimem"], { cwd: REPO, stdio: "inherit" });
	hs = await startHindsight();
});

after(async () => {
	await hs?.stop();
	if (process.env.PIMEM_E2E_KEEP !== "1") fs.rmSync(tmp, { recursive: true, force: true });
});

interface Agent {
	agentDir: string;
	project: string;
	sessionsDir: string;
	ids: string[];
}

/** An agent folder whose sessions/ holds n sessions of project, pi's file names and layout. */
function makeAgent(name: string, n: number): Agent {
	const root = path.join(tmp, name);
	const agentDir = path.join(root, "agent");
	const project = path.join(root, "project");
	fs.mkdirSync(project, { recursive: true });
	const sessionsDir = path.join(agentDir, "sessions", `--${project.slice(1).replaceAll("/", "-")}--`);
	fs.mkdirSync(sessionsDir, { recursive: true });
	const ids: string[] = [];
	for (let i = 0; i < n; i++) {
		const id = `${name}-${String(i).padStart(4, "0")}`;
		const at = Date.UTC(2026, 10, 1, 9, 0, i);
		const t = (k: number) => new Date(at + k * 1000).toISOString();
		const lines = [
			{ type: "session", version: 3, id, timestamp: t(0), cwd: project },
			{ type: "message", id: "a", parentId: null, timestamp: t(1), message: { role: "user", content: `Session ${i}: the build target number ${i} is named target${i}.`, timestamp: at } },
			{ type: "message", id: "b", parentId: "a", timestamp: t(2), message: { role: "assistant", content: [{ type: "text", text: `Noted: target${i}.` }], timestamp: at } },
		];
		fs.writeFileSync(path.join(sessionsDir, `${t(0).replaceAll(":", "-").replace(".", "-")}_${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
		ids.push(id);
	}
	return { agentDir, project, sessionsDir, ids };
}

function env(a: Agent): Record<string, string> {
	return {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		HOME: path.dirname(a.agentDir),
		PIMEM_WASM: path.join(REPO, "ts", "core.wasm"),
		HINDSIGHT_API_URL: hs.url,
		XDG_CACHE_HOME: path.join(tmp, "cache"),
	};
}

/**
 * Runs pimem in the agent's project. Never synchronously: the proxy and the fake
 * memory model live in this process, and a blocked event loop would stall the server.
 */
function pimem(a: Agent, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		const child = spawn(bin, ["--project", a.project, "--agent-dir", a.agentDir, ...args], { env: env(a), stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
		child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
		child.on("close", (code) => resolve({ code, stdout, stderr }));
	});
}

/** The project bank pimem names for the agent's project. */
async function bankOf(a: Agent): Promise<string> {
	const out = (await pimem(a, "hindsight", "bank")).stdout;
	const m = /project bank (\S+):/.exec(out);
	assert.ok(m, `no project bank in: ${out}`);
	return m[1]!;
}

/** The ids of every document of bank, as the server lists them. */
async function documents(bank: string): Promise<string[]> {
	const res = await fetch(`${hs.directUrl}/v1/default/banks/${encodeURIComponent(bank)}/documents?limit=1000`);
	if (res.status === 404) return [];
	assert.equal(res.status, 200, await res.clone().text());
	const page = (await res.json()) as { items: Array<{ id: string }> };
	return page.items.map((d) => d.id).sort();
}

/** Waits until the server lists exactly want as bank's documents (an async retain writes them a little later). */
async function documentsBecome(bank: string, want: string[], timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let got: string[] = [];
	while (Date.now() < deadline) {
		got = await documents(bank);
		if (JSON.stringify(got) === JSON.stringify(want)) return;
		await new Promise((r) => setTimeout(r, 250));
	}
	assert.deepEqual(got, want, `the documents of ${bank} after ${timeoutMs} ms`);
}

function retainsTo(bank: string): number {
	return hs.requestsFor(bank).filter((r) => r.method === "POST" && r.url.endsWith("/memories")).length;
}

function checkpointLines(a: Agent): string[] {
	const dir = path.join(a.agentDir, "pi-memory", "hindsight");
	const f = fs.readdirSync(dir).find((n) => n.startsWith("import-"));
	assert.ok(f, `no checkpoint in ${dir}`);
	return fs.readFileSync(path.join(dir, f), "utf8").split("\n").filter((l) => l !== "");
}

describe("pimem hindsight import against the real server", () => {
	it("sends one document per session; a second run sends nothing", async () => {
		const a = makeAgent("twice", 5);
		const bank = await bankOf(a);
		const dry = await pimem(a, "hindsight", "import", "--dry-run");
		assert.equal(dry.code, 0, dry.stderr);
		assert.match(dry.stdout, /dry run: 5 session files; 5 would be sent/);
		assert.equal(retainsTo(bank), 0, "a dry run sends nothing");

		const first = await pimem(a, "hindsight", "import");
		assert.equal(first.code, 0, first.stderr + first.stdout);
		assert.match(first.stdout, /5 session files; 5 sent \(10 messages/);
		assert.equal(retainsTo(bank), 5);
		const want = a.ids.map((id) => `pimem-import:${id}`).sort();
		await documentsBecome(bank, want, 60_000);

		const second = await pimem(a, "hindsight", "import");
		assert.equal(second.code, 0, second.stderr + second.stdout);
		assert.match(second.stdout, /5 session files; 0 sent \(0 messages, 0 characters\), 5 already imported\./);
		assert.equal(retainsTo(bank), 5, "the second run sent nothing");
		assert.deepEqual(await documents(bank), want);
		assert.equal(checkpointLines(a).length, 5);
	});

	it("killed mid-import, resumes from its checkpoint; the server holds each session once", async () => {
		const n = 48;
		const a = makeAgent("killed", n);
		const bank = await bankOf(a);
		// Slow enough that the run is still going when it is killed after its first progress line.
		hs.delayBank(bank, 400);
		const child = spawn(bin, ["--project", a.project, "--agent-dir", a.agentDir, "hindsight", "import"], { env: env(a), stdio: ["ignore", "pipe", "pipe"] });
		let out = "";
		child.stdout.on("data", (b: Buffer) => (out += b.toString()));
		const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
		await waitUntil(() => /imported \d+\/48 sessions/.test(out), "the first progress line", 120_000);
		child.kill("SIGKILL");
		assert.equal(await exited, null, "killed, not finished");
		hs.healBank(bank);
		const done = checkpointLines(a).length;
		assert.ok(done >= 8 && done < n, `the checkpoint holds ${done} of ${n} sessions`);

		const again = await pimem(a, "hindsight", "import");
		assert.equal(again.code, 0, again.stderr + again.stdout);
		assert.match(again.stdout, /resuming after \S+ \(\d+ already imported\)/);
		assert.match(again.stdout, new RegExp(`${n} session files; ${n - done} sent .*, ${done} already imported\\.`));
		const want = a.ids.map((id) => `pimem-import:${id}`).sort();
		await documentsBecome(bank, want, 120_000);
		const docs = await documents(bank);
		assert.equal(docs.length, n);
		assert.equal(new Set(docs).size, n, "each session once");
		assert.equal(checkpointLines(a).length, n);
	});
});
