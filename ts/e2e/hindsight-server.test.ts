// Proves the Hindsight harness (hindsight.ts) against the real server, before any
// client of ours talks to it: a bank is created, a retained fact is stored word for
// word and recalled, banks are apart, a document id retained twice is stored once,
// reflect answers from memory, and each fault the lifecycle tests need (one bank
// failing, slow or answered in the server's place, the server refusing connections,
// the API process stopped and back) does
// what it says. When a Hindsight scenario fails and this passes, the fault is not in
// the harness. Needs `make hindsight` (build/hindsight.sh install) once.

import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { waitUntil } from "./harness.ts";
import { SCRIPT, bankOf, chunkOf, embed, factsOf, startHindsight, startMemoryModel } from "./hindsight.ts";
import type { Hindsight } from "./hindsight.ts";

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** PIDs of the processes whose command line names dir or that run inside it. */
function processesIn(dir: string): string[] {
	return fs
		.readdirSync("/proc")
		.filter((p) => /^\d+$/.test(p))
		.filter((p) => {
			try {
				return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(dir) || fs.readlinkSync(`/proc/${p}/cwd`).startsWith(dir);
			} catch {
				return false; // gone, or not ours to read
			}
		});
}

/** A running process (not a zombie: its command line is readable and not empty). */
function running(pid: number): boolean {
	try {
		return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").length > 0;
	} catch {
		return false;
	}
}

describe("the fake memory model's pure parts", () => {
	it("embeds a hashed bag of words: unit length, near when words are shared, never all zeros", () => {
		const a = embed("The staging database is called orion");
		assert.equal(a.length, 384);
		assert.ok(Math.abs(cosine(a, a) - 1) < 1e-9);
		assert.ok(cosine(a, embed("what is the staging database called")) > 0.5);
		assert.equal(cosine(embed("orion"), embed("pnpm")), 0);
		assert.deepEqual(embed("ORION"), embed("orion"));
		const empty = embed("  !! ");
		assert.equal(empty[0], 1);
		assert.equal(Math.hypot(...empty), 1);
	});

	it("extracts one fact per sentence or line, word for word", () => {
		const facts = factsOf("Use pnpm. Deploys run on Fridays!\nThe token is abc-123\n\n  ...  ");
		assert.deepEqual(
			facts.map((f) => f.what),
			["Use pnpm.", "Deploys run on Fridays!", "The token is abc-123"],
		);
		assert.deepEqual(facts[0], { what: "Use pnpm.", when: "N/A", where: "N/A", who: "N/A", why: "N/A", fact_kind: "conversation", fact_type: "world", entities: [] });
	});

	it("finds the chunk after Content: (1.1.0), after Text: (older), else takes the whole message", () => {
		assert.equal(chunkOf("Extract facts.\n\nChunk: 1/1\nContext: none\n\nContent:\nUse pnpm."), "Use pnpm.");
		assert.equal(chunkOf("Extract facts from\nText:\nUse pnpm."), "Use pnpm.");
		assert.equal(chunkOf("Use pnpm."), "Use pnpm.");
	});

	it("names the bank of a path, decoded", () => {
		assert.equal(bankOf("/v1/default/banks/proj%20a/memories/recall"), "proj a");
		assert.equal(bankOf("/v1/default/banks/b1"), "b1");
		assert.equal(bankOf("/health"), "");
	});

	it("answers fact extraction (strict or soft JSON mode) as JSON, or as one SSE chunk when a stream is asked", async () => {
		const model = await startMemoryModel();
		try {
			const post = (body: unknown) =>
				fetch(`${model.baseUrl}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
			const user = { role: "user", content: "Extract facts from the following chunk.\n\nChunk: 1/1\nContext: none\n\nContent:\nUse pnpm. Deploy on Fridays." };
			const strict = {
				model: "m",
				messages: [{ role: "system", content: "Extract facts." }, user],
				response_format: { type: "json_schema", json_schema: { name: "response", schema: { type: "object", properties: { facts: { type: "array" } } } } },
			};
			const soft = {
				model: "m",
				messages: [{ role: "system", content: 'Extract facts.\n\nYou must respond with valid JSON matching this schema:\n{"properties": {"facts": {}}}' }, user],
				response_format: { type: "json_object" },
			};
			const whats = (content: string) => (JSON.parse(content) as { facts: Array<{ what: string }> }).facts.map((f) => f.what);
			for (const body of [strict, soft]) {
				const json = (await (await post(body)).json()) as { choices: Array<{ message: { content: string } }> };
				assert.deepEqual(whats(json.choices[0]!.message.content), ["Use pnpm.", "Deploy on Fridays."]);
			}
			const sse = await (await post({ ...strict, stream: true })).text();
			assert.ok(sse.endsWith("data: [DONE]\n\n"), sse);
			const chunk = JSON.parse(sse.split("\n\n")[0]!.slice("data: ".length)) as { choices: Array<{ delta: { content: string } }> };
			assert.deepEqual(whats(chunk.choices[0]!.delta.content), ["Use pnpm.", "Deploy on Fridays."]);
			const plain = (await (await post({ model: "m", messages: [user] })).json()) as { choices: Array<{ message: { content: string } }> };
			assert.equal(plain.choices[0]!.message.content, "OK from the fake memory model.");
			assert.deepEqual(
				model.requests.map((r) => r.kind),
				["extract", "extract", "extract", "chat"],
			);
		} finally {
			await model.close();
		}
	});

	it("answers embeddings as floats or base64, and scripted failures by kind", async () => {
		const model = await startMemoryModel();
		try {
			const post = (route: string, body: unknown) =>
				fetch(model.baseUrl + route, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
			const floats = (await (await post("/embeddings", { model: "m", input: ["use pnpm"] })).json()) as { data: Array<{ embedding: number[] }> };
			assert.deepEqual(floats.data[0]!.embedding, embed("use pnpm"));
			const b64 = (await (await post("/embeddings", { model: "m", input: "use pnpm", encoding_format: "base64" })).json()) as { data: Array<{ embedding: string }> };
			const raw = Buffer.from(b64.data[0]!.embedding, "base64");
			const decoded = Array.from(new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4));
			assert.deepEqual(decoded, embed("use pnpm").map((x) => Math.fround(x)));
			model.failNext(1, 503, "embeddings");
			assert.equal((await post("/embeddings", { input: "x" })).status, 503);
			assert.equal((await post("/embeddings", { input: "x" })).status, 200);
			assert.deepEqual(
				model.requests.map((r) => [r.kind, r.status]),
				[["embeddings", 200], ["embeddings", 200], ["embeddings", 503], ["embeddings", 200]],
			);
		} finally {
			await model.close();
		}
	});
});

describe("a real Hindsight server behind the fault proxy", () => {
	let hs: Hindsight;
	const timings: string[] = [];
	const FACT = "The staging database is called orion.";

	before(async () => {
		const t0 = Date.now();
		hs = await startHindsight();
		timings.push(`start ${Date.now() - t0} ms`);
	});
	after(async () => {
		await hs?.stop();
		// Timings for docs/hindsight.md; no test asserts on them.
		process.stderr.write(`[hindsight] ${timings.join(", ")}\n`);
	});

	it("creates a bank, stores a retained fact word for word and recalls it first", async () => {
		await hs.createBank("proj-a");
		const t0 = Date.now();
		await hs.retain("proj-a", [{ content: `We deploy with pnpm on Fridays. ${FACT}`, context: "pi session", document_id: "session-1", tags: ["project:a"] }]);
		const t1 = Date.now();
		const recall = await hs.recall("proj-a", "what is the staging database called?");
		timings.push(`retain ${t1 - t0} ms`, `recall ${Date.now() - t1} ms`);
		assert.equal(recall.results[0]?.text.includes("orion"), true, JSON.stringify(recall.results));
		const memories = await hs.listMemories("proj-a");
		assert.equal(memories.filter((m) => m.text.includes(FACT)).length, 1, JSON.stringify(memories));
		assert.ok(memories.every((m) => m.document_id === "session-1" && m.context === "pi session" && m.tags.includes("project:a")));
		// Hindsight's own model calls reached the fake: one extraction, embeddings of 384.
		assert.equal(hs.model.of("extract").length, 1);
		assert.ok(hs.model.of("embeddings").length >= 1);
	});

	it("keeps banks apart: another bank recalls none of it", async () => {
		await hs.retain("proj-b", [{ content: "The build uses make.", document_id: "session-2" }]);
		const recall = await hs.recall("proj-b", "what is the staging database called?");
		assert.ok(recall.results.every((r) => !r.text.includes("orion")), JSON.stringify(recall.results));
		assert.deepEqual(
			(await hs.listMemories("proj-b")).map((m) => m.text),
			["The build uses make."],
		);
		assert.deepEqual(await hs.listMemories("no-such-bank"), []);
	});

	it("stores a document retained twice under one id once", async () => {
		const before = (await hs.listMemories("proj-a")).length;
		await hs.retain("proj-a", [{ content: `We deploy with pnpm on Fridays. ${FACT}`, context: "pi session", document_id: "session-1", tags: ["project:a"] }]);
		const memories = await hs.listMemories("proj-a");
		assert.equal(memories.length, before);
		assert.equal(memories.filter((m) => m.text.includes(FACT)).length, 1);
	});

	it("reflects: the answer quotes the recalled fact", async () => {
		const t0 = Date.now();
		const r = await hs.reflect("proj-a", "What is the staging database called?");
		timings.push(`reflect ${Date.now() - t0} ms`);
		assert.match(r.text, /orion/);
		assert.ok(hs.model.of("reflect").length >= 2, "the reflect agent called the model for a tool, then done");
	});

	it("shows everything stored for a bank, the context field included", async () => {
		await hs.retain("proj-c", [{ content: "Marker CONTENT-7f3a in the text.", context: "marker CONTEXT-9b1c", document_id: "session-3" }]);
		const stored = await hs.storedText("proj-c");
		assert.match(stored, /CONTENT-7f3a/);
		assert.match(stored, /CONTEXT-9b1c/);
		assert.doesNotMatch(await hs.storedText("proj-a"), /CONTENT-7f3a|CONTEXT-9b1c/);
	});

	it("fails one bank with the status asked for and leaves the others answering", async () => {
		const recall = (bank: string) =>
			fetch(`${hs.url}/v1/default/banks/${bank}/memories/recall`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "staging database" }) });
		hs.failBank("proj-b");
		assert.equal((await recall("proj-b")).status, 500);
		const a = await recall("proj-a");
		assert.equal(a.status, 200);
		assert.match(await a.text(), /orion/);
		hs.healBank("proj-b");
		assert.equal((await recall("proj-b")).status, 200);
		assert.deepEqual(
			hs.requestsFor("proj-b").map((r) => [r.status, r.injected]),
			[[500, true], [200, false]],
		);
	});

	it("delays one bank by the time asked for", async () => {
		hs.delayBank("proj-b", 400);
		const t0 = Date.now();
		const r = await fetch(`${hs.url}/v1/default/banks/proj-b/memories/list`);
		assert.equal(r.status, 200);
		assert.ok(Date.now() - t0 >= 400);
		hs.healBank("proj-b");
	});

	it("answers one bank's requests in the server's place, passes on those it chooses, and forwards all again once healed", async () => {
		const recall = (bank: string) =>
			fetch(`${hs.url}/v1/default/banks/${bank}/memories/recall`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "staging database" }) });
		hs.interceptBank("proj-a", (req, res, pass) => {
			if (!req.url.endsWith("/memories/recall")) return pass();
			res.writeHead(200, { "content-type": "text/html" });
			res.end("<html>not Hindsight</html>");
		});
		const page = await recall("proj-a");
		assert.equal(await page.text(), "<html>not Hindsight</html>");
		assert.equal((await fetch(`${hs.url}/v1/default/banks/proj-a/memories/list`)).status, 200, "passed on to the server");
		assert.match(await (await recall("proj-b")).text(), /results/, "another bank is not intercepted");
		hs.healBank("proj-a");
		assert.match(await (await recall("proj-a")).text(), /orion/);
		assert.deepEqual(
			hs.requestsFor("proj-a").slice(-3).map((r) => [r.status, r.injected]),
			[[200, true], [200, false], [200, false]],
		);
	});

	it("refuses connections while down, and forwards again once up", async () => {
		await hs.setDown(true);
		await assert.rejects(fetch(`${hs.url}/health`));
		await hs.setDown(false);
		assert.equal((await fetch(`${hs.url}/health`)).status, 200);
	});

	it("stops the API process and starts it again with every memory kept", async () => {
		const before = (await hs.listMemories("proj-a")).map((m) => m.id).sort();
		await hs.stopApi();
		await assert.rejects(fetch(`${hs.url}/health`));
		const t0 = Date.now();
		await hs.startApi();
		timings.push(`API restart ${Date.now() - t0} ms`);
		assert.equal((await fetch(`${hs.url}/health`)).status, 200);
		assert.deepEqual((await hs.listMemories("proj-a")).map((m) => m.id).sort(), before);
	});

	it("stop ends the server and removes its folder", async () => {
		const dir = hs.dir;
		assert.ok(fs.existsSync(dir));
		await hs.stop();
		assert.equal(fs.existsSync(dir), false);
		assert.deepEqual(processesIn(dir), []);
		await assert.rejects(fetch(`${hs.directUrl}/health`));
	});
});

describe("a Hindsight server that does not come up", () => {
	it("fails naming the log, and leaves no process and no folder behind", async () => {
		const err = await startHindsight({ startTimeoutMs: 1 }).then(
			() => assert.fail("started within 1 s"),
			(e: Error) => e,
		);
		assert.match(err.message, /no healthy answer on 127\.0\.0\.1:\d+\/health within 1s/);
		assert.match(err.message, /did not come up \(the end of its log is above; PIMEM_HINDSIGHT_KEEP=1 would keep \S+ with api\.log/);
		const dir = /would keep (\S+) with/.exec(err.message)?.[1];
		assert.ok(dir, err.message);
		assert.equal(fs.existsSync(dir), false);
		assert.deepEqual(processesIn(dir), []);
	});
});

describe("a Hindsight server whose owner dies without stopping it", () => {
	it("is stopped by its watchdog: API, database and folder gone", async () => {
		const model = await startMemoryModel();
		const owner = spawn("sleep", ["600"], { stdio: "ignore" });
		try {
			const { stdout } = await promisify(execFile)(SCRIPT, ["start", "--llm", model.baseUrl, "--owner", String(owner.pid)]);
			const started = JSON.parse(stdout.trim()) as { dir: string; apiPid: number; postgresPid: number };
			assert.ok(running(started.apiPid) && running(started.postgresPid));
			owner.kill("SIGKILL");
			await waitUntil(() => !fs.existsSync(started.dir), "the watchdog to remove the server's folder", 60_000);
			assert.equal(running(started.apiPid), false);
			assert.equal(running(started.postgresPid), false);
			// A child of the database may still be exiting as the folder goes (seen once, on a
			// loaded machine): none may be left a few seconds later.
			await waitUntil(() => processesIn(started.dir).length === 0, "every process of the server to exit", 10_000);
		} finally {
			owner.kill("SIGKILL");
			await model.close();
		}
	});
});
