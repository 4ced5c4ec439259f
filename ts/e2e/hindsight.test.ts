// The Hindsight lifecycle end to end: the real pi CLI with the extension, the real
// Hindsight server (build/hindsight.sh, docs/hindsight.md) behind the fault proxy of
// hindsight.ts, pi's fake model (harness.ts) and Hindsight's fake memory model. One
// server for the file; each test has its own sandbox (agent folder, outbox) and its
// own banks. What the server holds is read through its API, never through our code.
// Needs `make hindsight` once (make test-e2e depends on it). The faults of issue 19 (a
// wrong URL's web page, a 50 MB answer, credentials in the URL, a hanging server at exit,
// and the rest) are in faults.test.ts.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { contentText, eventually, runPrint, startRpc, toolsOf, withSandbox } from "./harness.ts";
import type { ChatMessage, RecordedRequest, Rpc, Sandbox } from "./harness.ts";
import { startHindsight } from "./hindsight.ts";
import type { Hindsight, ProxiedRequest } from "./hindsight.ts";

const OPEN = "<pi-memory-recall>";
const CLOSE = "</pi-memory-recall>";

let hs: Hindsight;

before(async () => {
	hs = await startHindsight();
});

after(async () => {
	await hs?.stop();
});

// ---- Helpers ---------------------------------------------------------------------------------

/** The environment that points pi-memory at the server (through the proxy). */
function hsEnv(bank?: string): Record<string, string> {
	return { HINDSIGHT_API_URL: hs.url, ...(bank === undefined ? {} : { HINDSIGHT_BANK_ID: bank }) };
}

/** A bank id of its own for one test. */
function bankFor(name: string): string {
	return `e2e-${name}-${process.pid}-${Date.now().toString(36)}`;
}

/** The agent folder's hindsight.json. */
function writeConfig(sb: Sandbox, config: Record<string, unknown>): void {
	fs.writeFileSync(path.join(sb.agentDir, "hindsight.json"), JSON.stringify(config, null, 2) + "\n");
}

/** The project bank id the contract derives from a repo key (docs/hindsight.md, identity). */
function projectBankOf(repoKey: string): string {
	const last = repoKey.slice(repoKey.lastIndexOf("/") + 1).toLowerCase();
	const slug = last.replace(/[^a-z0-9]+/g, "-").replace(/^-+/, "").slice(0, 32).replace(/-+$/, "");
	return `pimem-${slug}-${createHash("sha1").update(repoKey).digest("hex").slice(0, 10)}`;
}

function git(dir: string, ...args: string[]): void {
	execFileSync("git", ["-C", dir, ...args], { env: { PATH: process.env.PATH ?? "", HOME: dir } });
}

/** A git project at dir whose origin is remote. */
function gitProject(dir: string, remote: string): void {
	fs.mkdirSync(dir, { recursive: true });
	execFileSync("git", ["init", "-q", dir], { env: { PATH: process.env.PATH ?? "", HOME: dir } });
	git(dir, "remote", "add", "origin", remote);
}

const pathOf = (r: ProxiedRequest) => r.url.split("?")[0]!;
const isRecall = (r: ProxiedRequest) => r.method === "POST" && pathOf(r).endsWith("/memories/recall");
const isRetain = (r: ProxiedRequest) => r.method === "POST" && pathOf(r).endsWith("/memories");

/** Requests through the proxy since index `since` that named bank and match kind. */
function sent(bank: string, since: number, kind: (r: ProxiedRequest) => boolean): ProxiedRequest[] {
	return hs.requests.slice(since).filter((r) => r.bank === bank && kind(r));
}

/** The newest user message of a request pi sent its model, as text. */
function lastUserText(req: RecordedRequest | undefined): string {
	const users = (req?.body?.messages ?? []).filter((m: ChatMessage) => m.role === "user");
	return contentText(users[users.length - 1]);
}

const HS_TOOLS = ["hindsight_recall", "hindsight_retain", "hindsight_reflect", "hindsight_status"];

/** The recalled block in a text ("" when none). */
function blockOf(text: string): string {
	const i = text.indexOf(OPEN);
	if (i < 0) return "";
	const j = text.indexOf(CLOSE, i);
	return j < 0 ? text.slice(i) : text.slice(i, j + CLOSE.length);
}


/** Memory texts of bank containing needle. */
async function memoriesWith(bank: string, needle: string): Promise<string[]> {
	return (await hs.listMemories(bank)).map((m) => m.text).filter((t) => t.includes(needle));
}

interface OutboxState {
	jobs: Array<{ id: string; bank: string; item: { content: string; context: string } }>;
	pending: Array<{ id: string; bank: string; item: { content: string; context: string } }>;
	fails: number;
}

/** The sandbox's outbox, folded as the contract says (a job without done is pending). */
function outbox(sb: Sandbox): OutboxState {
	const file = path.join(sb.agentDir, "pi-memory", "hindsight", "outbox.jsonl");
	const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "") : [];
	const records = lines.map((l) => JSON.parse(l) as { op: string; id: string; bank: string; item?: { content: string; context: string } });
	const jobs = records.filter((r) => r.op === "job").map((r) => ({ id: r.id, bank: r.bank, item: r.item! }));
	const done = new Set(records.filter((r) => r.op === "done").map((r) => `${r.bank}\n${r.id}`));
	const pending = jobs.filter((j) => !done.has(`${j.bank}\n${j.id}`));
	return { jobs, pending, fails: records.filter((r) => r.op === "fail").length };
}

/** Hindsight's pieces of the footers pi-memory set, in order ("" where a footer had none). */
function footers(rpc: Rpc, since = 0): string[] {
	return rpc.records
		.slice(since)
		.filter((r) => r.type === "extension_ui_request" && r.method === "setStatus" && r.statusKey === "pi-memory")
		.map((r) => String(r.statusText ?? "").split(" · ").find((p) => p.startsWith("hindsight ")) ?? "");
}

/** Single-line secrets the redactor must catch (testdata/secrets). */
function secrets(n: number): Array<{ kind: string; text: string; secret: string }> {
	const file = new URL("../../testdata/secrets/secrets.jsonl", import.meta.url);
	return fs
		.readFileSync(file, "utf8")
		.split("\n")
		.filter((l) => l !== "")
		.map((l) => JSON.parse(l) as { kind: string; text: string; secret: string })
		.filter((s) => !s.text.includes("\n"))
		.slice(0, n);
}

// ---- The lifecycle -------------------------------------------------------------------------------

describe("Hindsight with the real server", () => {
	it("a fact retained in one session is recalled into a later session of the same project (another clone too), and not into another project's", async () => {
		await withSandbox({}, async (sb) => {
			gitProject(sb.project, "git@github.com:acme/orion-app.git");
			const clone = path.join(sb.root, "clone");
			gitProject(clone, "https://me@github.com/acme/orion-app.git/");
			const other = path.join(sb.root, "other");
			gitProject(other, "git@github.com:acme/billing.git");
			const bank = projectBankOf("github.com/acme/orion-app");
			const otherBank = projectBankOf("github.com/acme/billing");

			const first = await runPrint(sb, "Remember this: the staging database is called orion.", { env: hsEnv() });
			assert.equal(first.code, 0, first.stderr);
			assert.equal(blockOf(lastUserText(first.requests[0])), "", "nothing to recall yet");
			assert.deepEqual(toolsOf(first.requests[0]).filter((t) => t.startsWith("hindsight_")), HS_TOOLS, "the tools are active while Hindsight is on");
			const stored = await eventually(async () => (await memoriesWith(bank, "orion")).length > 0 && memoriesWith(bank, "orion"), `the fact in ${bank}`);
			assert.ok(stored.some((t) => t.includes("the staging database is called orion")), JSON.stringify(stored));

			const later = await runPrint(sb, "What is the staging database called?", { env: hsEnv(), cwd: clone });
			assert.equal(later.code, 0, later.stderr);
			const block = blockOf(lastUserText(later.requests[0]));
			assert.match(block, /the staging database is called orion/, `the later session's request:\n${lastUserText(later.requests[0])}`);
			assert.ok(!JSON.stringify(later.requests[0]?.body?.messages?.filter((m) => m.role === "system")).includes("orion"), "recalled memory goes in the user message, never the system prompt");

			const since = hs.requests.length;
			const elsewhere = await runPrint(sb, "What is the staging database called?", { env: hsEnv(), cwd: other });
			assert.equal(elsewhere.code, 0, elsewhere.stderr);
			assert.ok(!JSON.stringify(elsewhere.requests.map((r) => r.body)).includes("orion"), "another project's session never sees the fact");
			assert.equal(sent(otherBank, since, isRecall).length, 1, "the other project recalled from its own bank");
			assert.equal(sent(bank, since, isRecall).length, 0, "and never from this one");
		});
	});

	it("retries and tool-loop steps of one user message send byte-identical recalled blocks and make one recall call", async () => {
		const settings = { retry: { enabled: true, maxRetries: 2, baseDelayMs: 10, provider: { maxRetries: 0 } } };
		await withSandbox({ settings }, async (sb) => {
			const bank = bankFor("loop");
			await hs.retain(bank, [{ content: "Deploys run on Fridays after the freeze.", tags: [`project:${sb.project}`] }]);
			const rpc = await startRpc(sb, { env: hsEnv(bank) });
			try {
				const since = hs.requests.length;
				const before = sb.model.requests.length;
				sb.model.enqueue({ tool: "bash", args: { command: "echo checked" } }, { status: 500, message: "overloaded, try again" }, "Deploys run on Fridays.");
				await rpc.prompt("When do deploys run?", { timeoutMs: 60_000 });
				const chats = sb.model.requests.slice(before).filter((r) => r.body !== null);
				assert.ok(chats.length >= 3, `a tool step and a retry: ${chats.length} model requests`);
				assert.deepEqual(chats.map((r) => "status" in r.answered ? r.answered.status : "tool" in r.answered ? "tool" : "text"), ["tool", 500, "text"]);
				const texts = chats.map(lastUserText);
				assert.match(texts[0]!, /Deploys run on Fridays after the freeze\./);
				for (const t of texts) assert.equal(t, texts[0], "the same bytes in every request of the message");
				assert.equal(sent(bank, since, isRecall).length, 1, "one recall for the message");
			} finally {
				await rpc.close();
			}
		});
	});

	it("with the server stopped, turns go on without recall and jobs wait in the outbox; once it is back the queue flushes and every memory is there once", async () => {
		await withSandbox({}, async (sb) => {
			const bank = bankFor("outage");
			writeConfig(sb, { recall: { timeoutMs: 1500 } });
			const rpc = await startRpc(sb, { env: hsEnv(bank) });
			let stopped = false;
			try {
				await rpc.prompt("First: the cache lives in redis.");
				await eventually(async () => (await memoriesWith(bank, "redis")).length > 0, "the first turn on the server");

				await hs.stopApi();
				stopped = true;
				const since = hs.requests.length;
				const mark = rpc.records.length;
				const before = sb.model.requests.length;
				await rpc.prompt("Second: the queue runs on rabbitmq.");
				const chats = sb.model.requests.slice(before).filter((r) => r.body !== null);
				assert.equal(chats.length, 1, "the turn reached the model");
				assert.equal(blockOf(lastUserText(chats[0])), "", "without a recalled block");
				assert.ok(sent(bank, since, isRecall).every((r) => r.status === 0), "the recall found no server");
				assert.ok(footers(rpc, mark).some((f) => /project bank/.test(f)), `the footer names the bank that failed: ${JSON.stringify(footers(rpc, mark))}`);
				await eventually(async () => outbox(sb).fails > 0, "the background flush to fail");
				assert.ok(outbox(sb).pending.some((j) => j.item.content.includes("rabbitmq")), "the turn waits in the outbox");
			} finally {
				await rpc.close();
				if (stopped) await hs.startApi();
			}
			const waiting = outbox(sb).pending;
			assert.ok(waiting.some((j) => j.item.content.includes("rabbitmq")), `still waiting after the session: ${JSON.stringify(waiting)}`);

			// The server is back: the next session's turn flushes what is due (backoff is
			// seconds; the API took longer than that to come back).
			const again = await runPrint(sb, "Third: logs go to loki.", { env: hsEnv(bank) });
			assert.equal(again.code, 0, again.stderr);
			for (const word of ["redis", "rabbitmq", "loki"]) {
				const found = await eventually(async () => (await memoriesWith(bank, word)).length > 0 && memoriesWith(bank, word), `${word} on the server`);
				assert.equal(found.length, 1, `${word} stored once: ${JSON.stringify(found)}`);
			}
			assert.deepEqual(outbox(sb).pending, [], "nothing waits any more");
		});
	});

	it("one bank answering 500, or too slow, does not remove the other bank's recall, and the footer names it", async () => {
		await withSandbox({}, async (sb) => {
			const project = bankFor("p500");
			const user = bankFor("u500");
			writeConfig(sb, { banks: ["project", "user"], userBank: user });
			await hs.retain(project, [{ content: "The staging database is called orion.", tags: [`project:${sb.project}`] }]);
			await hs.retain(user, [{ content: "The user prefers tabs for indentation.", tags: ["scope:user"] }]);
			const rpc = await startRpc(sb, { env: hsEnv(project) });
			try {
				const before = sb.model.requests.length;
				await rpc.prompt("Is the staging database called orion, and does the user prefer tabs for indentation?");
				const both = blockOf(lastUserText(sb.model.chats().slice(before)[0]));
				assert.match(both, /orion/, "control: the project bank answers");
				assert.match(both, /prefers tabs/, "control: the user bank answers");

				hs.failBank(project, 500);
				const mark = rpc.records.length;
				const next = sb.model.requests.length;
				await rpc.prompt("Again: is the staging database called orion, and does the user prefer tabs for indentation?");
				const one = blockOf(lastUserText(sb.model.chats().slice(next)[0]));
				assert.match(one, /prefers tabs/, "the user bank's memories are still recalled");
				assert.ok(!one.includes("called orion."), `the failing bank gives nothing: ${one}`);
				assert.ok(footers(rpc, mark).some((f) => f.includes("project bank") && f.includes("500")), JSON.stringify(footers(rpc, mark)));

				// A slow bank is left out after recall.timeoutMs (1500 ms by default): the
				// turn goes on with the other bank's memories, and the footer says so.
				hs.healBank(project);
				hs.delayBank(project, 6_000);
				const slowMark = rpc.records.length;
				const slow = sb.model.requests.length;
				await rpc.prompt("Once more: is the staging database called orion, and does the user prefer tabs for indentation?");
				const partial = blockOf(lastUserText(sb.model.chats().slice(slow)[0]));
				assert.match(partial, /prefers tabs/, "the user bank's memories are still recalled");
				assert.ok(!partial.includes("called orion."), `the slow bank gives nothing: ${partial}`);
				assert.ok(footers(rpc, slowMark).some((f) => f.includes("project bank timed out after 1500 ms")), JSON.stringify(footers(rpc, slowMark)));
			} finally {
				hs.healBank(project);
				await rpc.close();
			}
		});
	});

	it("a secret in a tool result or in a retain's context field reaches neither the server nor its model", async () => {
		const [, inFile, inContext] = secrets(3);
		assert.ok(inFile && inContext, "single-line secrets in testdata/secrets");
		await withSandbox({}, async (sb) => {
			const bank = bankFor("secret");
			sb.writeProject("deploy.env", `DEPLOY=${inFile.text}\n`);
			const rpc = await startRpc(sb, { env: hsEnv(bank) });
			const since = hs.requests.length;
			const modelSince = hs.model.requests.length;
			try {
				sb.model.enqueue(
					{ tool: "read", args: { path: "deploy.env" } },
					{ tool: "hindsight_retain", args: { content: "Deploy settings live in deploy.env.", context: `read from deploy.env: ${inContext.text}` } },
					"Done.",
				);
				await rpc.prompt("Check deploy.env for the deploy and remember where the settings live.", { timeoutMs: 60_000 });
				const results = sb.model.requests.flatMap((r) => r.body?.messages ?? []).filter((m) => m.role === "tool");
				assert.ok(results.some((m) => contentText(m).includes(inFile.secret)), "control: the tool result held the secret");
				assert.ok(results.some((m) => /^(Retained|Queued)/.test(contentText(m))), `the retain tool answered: ${JSON.stringify(results.map(contentText))}`);
			} finally {
				await rpc.close();
			}
			await eventually(async () => (await memoriesWith(bank, "Deploy settings live in deploy.env")).length > 0, "the explicit retain on the server");
			await eventually(async () => (await memoriesWith(bank, "Check deploy.env")).length > 0, "the turn on the server");
			const stored = await hs.storedText(bank);
			const wire = sent(bank, since, () => true);
			assert.ok(wire.some((r) => isRetain(r) && r.raw.includes("read from deploy.env")), "control: the context field was sent");
			const asked = hs.model.requests.slice(modelSince).map((r) => r.raw).join("\n");
			for (const s of [inFile, inContext]) {
				const holding = wire.filter((r) => r.raw.includes(s.secret)).map((r) => `${r.method} ${pathOf(r)}`);
				assert.deepEqual(holding, [], `${s.kind} was sent to the server`);
				assert.ok(!stored.includes(s.secret), `${s.kind} is stored on the server`);
				assert.ok(!asked.includes(s.secret), `${s.kind} reached the server's model`);
			}
			const queued = fs.readFileSync(path.join(sb.agentDir, "pi-memory", "hindsight", "outbox.jsonl"), "utf8");
			for (const s of [inFile, inContext]) assert.ok(!queued.includes(s.secret), `${s.kind} is in the outbox`);
		});
	});

	it("a secret in the user's message is sent neither in the retained turn nor as the recall query", async () => {
		const [inPrompt] = secrets(1);
		assert.ok(inPrompt, "a single-line secret in testdata/secrets");
		await withSandbox({}, async (sb) => {
			const bank = bankFor("query");
			const since = hs.requests.length;
			const r = await runPrint(sb, `Note for the deploy: ${inPrompt.text} is the service account line.`, { env: hsEnv(bank) });
			assert.equal(r.code, 0, r.stderr);
			const wire = sent(bank, since, () => true);
			assert.ok(wire.some(isRecall) && wire.some(isRetain), `control: a recall and a retain were sent: ${JSON.stringify(wire.map((q) => q.url))}`);
			const holding = wire.filter((q) => q.raw.includes(inPrompt.secret)).map((q) => `${q.method} ${pathOf(q)}`);
			assert.deepEqual(holding, [], `${inPrompt.kind} was sent to the server`);
		});
	});

	it("recalled text never comes back in a retain", async () => {
		await withSandbox({}, async (sb) => {
			const bank = bankFor("echo");
			await hs.retain(bank, [{ content: "The release codename is zephyr.", tags: [`project:${sb.project}`] }]);
			const since = hs.requests.length;
			const r = await runPrint(sb, "What is the release codename?", { env: hsEnv(bank) });
			assert.equal(r.code, 0, r.stderr);
			assert.match(blockOf(lastUserText(r.requests[0])), /zephyr/, "control: it was recalled");
			const retains = sent(bank, since, isRetain);
			assert.ok(retains.length > 0, "the turn was retained");
			for (const q of retains) {
				assert.ok(q.raw.includes("What is the release codename?"), "the turn itself is there");
				assert.ok(!q.raw.includes("zephyr") && !q.raw.includes("pi-memory-recall"), `a retain carried recalled text: ${q.raw.slice(0, 2000)}`);
			}
		});
	});

	it("read-only, ignored, next-opt-out, /memory off and --no-memory: the server receives nothing from those turns", async () => {
		await withSandbox({}, async (sb) => {
			const bank = bankFor("modes");
			const retainsHolding = (since: number, word: string) => sent(bank, since, isRetain).filter((r) => r.raw.includes(word));

			let since = hs.requests.length;
			let rpc = await startRpc(sb, { env: hsEnv(bank) });
			try {
				await rpc.command("/hindsight mode read-only");
				await rpc.prompt("Read-only turn about alpaca.");
			} finally {
				await rpc.close();
			}
			assert.equal(sent(bank, since, isRecall).length, 1, "read-only still recalls");
			assert.deepEqual(sent(bank, since, isRetain), [], "read-only retains nothing");

			since = hs.requests.length;
			rpc = await startRpc(sb, { env: hsEnv(bank) });
			try {
				await rpc.command("/hindsight mode ignored");
				await rpc.prompt("Ignored turn about bison.");
			} finally {
				await rpc.close();
			}
			assert.deepEqual(sent(bank, since, () => true), [], "ignored: neither recall nor retain");

			since = hs.requests.length;
			rpc = await startRpc(sb, { env: hsEnv(bank) });
			try {
				await rpc.command("/hindsight next-opt-out");
				await rpc.prompt("Opted-out turn about caribou.");
				await rpc.prompt("Ordinary turn about dingo.");
			} finally {
				await rpc.close();
			}
			assert.deepEqual(retainsHolding(since, "caribou"), [], "the opted-out run is not retained");
			assert.ok(retainsHolding(since, "dingo").length > 0, "control: the run after it is");

			since = hs.requests.length;
			rpc = await startRpc(sb, { env: hsEnv(bank) });
			const before = sb.model.requests.length;
			try {
				await rpc.command("/memory off");
				await rpc.prompt("Memory-off turn about ferret.");
			} finally {
				await rpc.close();
			}
			assert.deepEqual(hs.requests.slice(since), [], "/memory off: no request at all");
			assert.deepEqual(toolsOf(sb.model.chats().slice(before)[0]).filter((t) => t.startsWith("hindsight_")), [], "/memory off: no Hindsight tool offered");

			since = hs.requests.length;
			const off = await runPrint(sb, "No-memory turn about emu.", { env: hsEnv(bank), args: ["--no-memory"] });
			assert.equal(off.code, 0, off.stderr);
			assert.deepEqual(hs.requests.slice(since), [], "--no-memory: no request at all");
			assert.equal(blockOf(lastUserText(off.requests[0])), "");
			assert.deepEqual(toolsOf(off.requests[0]).filter((t) => t.startsWith("hindsight_")), [], "--no-memory: no Hindsight tool offered");

			const queued = outbox(sb).jobs.map((j) => j.item.content).join("\n");
			for (const word of ["alpaca", "bison", "caribou", "emu", "ferret"]) assert.ok(!queued.includes(word), `${word} was queued`);
			assert.match(queued, /dingo/);
			await eventually(async () => (await memoriesWith(bank, "dingo")).length > 0, "the ordinary turn on the server");
			const stored = await hs.storedText(bank);
			for (const word of ["alpaca", "bison", "caribou", "emu", "ferret"]) assert.ok(!stored.includes(word), `${word} is on the server`);
		});
	});
});

// ---- What configuration allows ------------------------------------------------------------------

describe("Hindsight configuration, followed by every path", () => {
	it("retain.enabled false: hindsight_retain is not offered, a call to it stores nothing, and the turn is not retained", async () => {
		await withSandbox({}, async (sb) => {
			const bank = bankFor("noretain");
			writeConfig(sb, { retain: { enabled: false } });
			const since = hs.requests.length;
			const before = sb.model.requests.length;
			const rpc = await startRpc(sb, { env: hsEnv(bank) });
			try {
				sb.model.enqueue({ tool: "hindsight_retain", args: { content: "The build cache lives in /srv/cache/quokka." } }, "Done.");
				await rpc.prompt("Remember where the build cache lives.", { timeoutMs: 60_000 });
			} finally {
				await rpc.close();
			}
			const chats = sb.model.chats().slice(before);
			assert.ok(chats.length >= 2, "control: the model was asked again after its tool call");
			assert.deepEqual(
				toolsOf(chats[0]).filter((t) => t.startsWith("hindsight_")).sort(),
				["hindsight_recall", "hindsight_reflect", "hindsight_status"],
				"every Hindsight tool but retain is offered",
			);
			const results = chats.flatMap((r) => r.body?.messages ?? []).filter((m) => m.role === "tool").map(contentText);
			assert.ok(results.length > 0 && !results.some((t) => /^(Retained|Queued)/.test(t)), `the call was refused: ${JSON.stringify(results)}`);
			assert.ok(sent(bank, since, isRecall).length > 0, "control: recall still runs");
			assert.deepEqual(sent(bank, since, isRetain), [], "nothing was sent to be retained");
			assert.deepEqual(outbox(sb).jobs, [], "nothing was queued");
			assert.deepEqual(await memoriesWith(bank, "quokka"), [], "the server holds nothing of it");
		});
	});

	it("a .pi/hindsight.json that is a symbolic link is refused: named in a warning, no request, no tool", async () => {
		await withSandbox({}, async (sb) => {
			const bank = bankFor("link");
			const target = path.join(sb.root, "elsewhere.json");
			fs.writeFileSync(target, JSON.stringify({ url: hs.url, projectBank: bank }) + "\n");
			fs.mkdirSync(path.join(sb.project, ".pi"), { recursive: true });
			const link = path.join(sb.project, ".pi", "hindsight.json");
			fs.symlinkSync(target, link);
			const since = hs.requests.length;
			const before = sb.model.requests.length;
			const rpc = await startRpc(sb);
			let problems: string[];
			try {
				await rpc.prompt("Where does the build cache live?");
				problems = rpc.problems(0);
			} finally {
				await rpc.close();
			}
			assert.ok(
				problems.some((p) => p.includes(link) && /symbolic link/.test(p)),
				`a warning names the link: ${JSON.stringify(problems)}`,
			);
			assert.deepEqual(hs.requests.slice(since).filter((r) => r.bank === bank), [], "no request reached the server");
			assert.deepEqual(toolsOf(sb.model.chats().slice(before)[0]).filter((t) => t.startsWith("hindsight_")), [], "no Hindsight tool offered");
			assert.ok(!fs.existsSync(path.join(sb.agentDir, "pi-memory", "hindsight")), "no outbox folder was made");
		});
	});
});
