// Decision 019: embedding fusion in the real pi, against a fake OpenAI-compatible
// /v1/embeddings endpoint on 127.0.0.1 whose vectors are a bag of words' dimensions,
// where "beach", "sea" and "seaside" are one. pi embeds the earlier session in the
// background after it starts (a first run), with the key its apiKeyEnv names; then the
// model's memory_search for "beach", a word no message holds, finds the turn "the
// offsite is by the sea in Porto", cited by its line. With no embeddings.json the same
// search asks the endpoint nothing and finds nothing of it.

import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, it } from "node:test";
import { contentText, runPrint, sessionFolder, withSandbox } from "./harness.ts";

interface Embedder {
	url: string;
	asked: { auth: string; input: string[] }[];
	close: () => Promise<void>;
}

function fakeEmbed(text: string): number[] {
	const v: number[] = new Array<number>(32).fill(0);
	for (const w of text.toLowerCase().split(/[^a-z]+/)) {
		if (w === "") continue;
		if (w === "beach" || w === "sea" || w === "seaside") {
			v[0]! += 1;
			continue;
		}
		let h = 2166136261;
		for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619) >>> 0;
		v[1 + (h % 30)]! += 1;
	}
	v[31]! += 0.01;
	return v;
}

async function startEmbedder(hang?: () => boolean): Promise<Embedder> {
	const asked: Embedder["asked"] = [];
	const server = http.createServer((req, res) => {
		// A server that takes the request and never answers (nor closes).
		if (hang?.() === true) return;
		let body = "";
		req.setEncoding("utf8").on("data", (d: string) => (body += d));
		req.on("end", () => {
			const input = (JSON.parse(body) as { input: string[] }).input;
			asked.push({ auth: req.headers.authorization ?? "", input });
			res.setHeader("content-type", "application/json");
			res.end(JSON.stringify({ object: "list", data: input.map((t, index) => ({ object: "embedding", index, embedding: fakeEmbed(t) })), model: "fake" }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${port}/v1/embeddings`,
		asked,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

describe("embeddings", () => {
	it("a paraphrase finds the turn that shares no word with it once pi embedded the earlier session", async () => {
		const embedder = await startEmbedder();
		try {
			await withSandbox({ git: true }, async (sb) => {
				const project = fs.realpathSync(sb.project);
				const folder = sessionFolder(sb.agentDir, project);
				const past = path.join(folder, "2026-11-18T10-00-00-000Z_0195a3b4-0000-7000-8000-000000000001.jsonl");
				fs.writeFileSync(
					past,
					[
						{ type: "session", version: 3, id: "0195a3b4-0000-7000-8000-000000000001", timestamp: "2026-11-18T10:00:00.000Z", cwd: project },
						{ type: "message", id: "a1", parentId: null, timestamp: "2026-11-18T10:00:05.000Z", message: { role: "user", content: "where is the team offsite this year" } },
						{ type: "message", id: "a2", parentId: "a1", timestamp: "2026-11-18T10:00:09.000Z", message: { role: "assistant", content: [{ type: "text", text: "The offsite is by the sea in Porto." }] } },
						{ type: "message", id: "a3", parentId: "a2", timestamp: "2026-11-18T10:01:00.000Z", message: { role: "user", content: "kiwi harvest is in May" } },
					]
						.map((e) => JSON.stringify(e))
						.join("\n") + "\n",
				);
				const old = new Date(Date.now() - 86_400_000);
				fs.utimesSync(past, old, old);
				const search = async (): Promise<string> => {
					sb.model.enqueue({ tool: "memory_search", args: { query: "beach" } }, "Found it.");
					const r = await runPrint(sb, "Where did we go to the beach?", { env: { PIMEM_E2E_EMBED_KEY: "sk-e2e-embed" } });
					assert.equal(r.code, 0, r.stderr);
					const results = r.requests[r.requests.length - 1]!.body!.messages!.filter((m) => m.role === "tool").map(contentText);
					assert.equal(results.length, 1, JSON.stringify(results));
					return results[0]!;
				};

				// No embeddings.json: the word ranking alone, and no request.
				const words = await search();
				assert.ok(!words.includes("Porto"), words);
				assert.equal(embedder.asked.length, 0);

				const config = path.join(sb.agentDir, "pi-memory", "embeddings.json");
				fs.mkdirSync(path.dirname(config), { recursive: true });
				fs.writeFileSync(config, JSON.stringify({ url: embedder.url, model: "fake", apiKeyEnv: "PIMEM_E2E_EMBED_KEY" }));
				sb.model.enqueue("Hello.");
				const first = await runPrint(sb, "Hello", { env: { PIMEM_E2E_EMBED_KEY: "sk-e2e-embed" } });
				assert.equal(first.code, 0, first.stderr);
				const embedded = embedder.asked.flatMap((a) => a.input);
				assert.ok(embedded.includes("The offsite is by the sea in Porto."), JSON.stringify(embedder.asked));
				assert.ok(embedder.asked.every((a) => a.auth === "Bearer sk-e2e-embed"), "the key its variable holds");
				const vectors = fs.readdirSync(path.join(sb.agentDir, "pi-memory", "vectors")).filter((f) => f.endsWith(".vec"));
				assert.equal(vectors.length, 1, "one cache");

				const fused = await search();
				assert.ok(fused.includes(`${past}:3`) && fused.includes("The offsite is by the sea in Porto."), fused);
			});
		} finally {
			await embedder.close();
		}
	});

	it("an endpoint that never answers holds neither the search past its timeout nor pi's exit", async () => {
		let hang = false;
		const embedder = await startEmbedder(() => hang);
		try {
			await withSandbox({ git: true }, async (sb) => {
				const project = fs.realpathSync(sb.project);
				const folder = sessionFolder(sb.agentDir, project);
				const write = (name: string, id: string, text: string): void => {
					const file = path.join(folder, name);
					fs.writeFileSync(
						file,
						[
							{ type: "session", version: 3, id, timestamp: "2026-11-18T10:00:00.000Z", cwd: project },
							{ type: "message", id: "a1", parentId: null, timestamp: "2026-11-18T10:00:05.000Z", message: { role: "user", content: text } },
						]
							.map((e) => JSON.stringify(e))
							.join("\n") + "\n",
					);
					const old = new Date(Date.now() - 86_400_000);
					fs.utimesSync(file, old, old);
				};
				write("2026-11-18T10-00-00-000Z_0195a3b4-0000-7000-8000-000000000001.jsonl", "0195a3b4-0000-7000-8000-000000000001", "kiwi harvest is in May");
				const config = path.join(sb.agentDir, "pi-memory", "embeddings.json");
				fs.mkdirSync(path.dirname(config), { recursive: true });
				fs.writeFileSync(config, JSON.stringify({ url: embedder.url, model: "fake", timeoutMs: 300 }));
				sb.model.enqueue("Hello.");
				assert.equal((await runPrint(sb, "Hello")).code, 0);
				assert.ok(embedder.asked.length > 0, "embedded");

				// Now it hangs: a session not embedded yet is asked for in the background, and
				// the search's query waits its 300 ms; pi exits without waiting for either.
				hang = true;
				write("2026-11-18T11-00-00-000Z_0195a3b4-0000-7000-8000-000000000002.jsonl", "0195a3b4-0000-7000-8000-000000000002", "plums ripen in August");
				sb.model.enqueue({ tool: "memory_search", args: { query: "kiwi" } }, "Found it.");
				const began = Date.now();
				const r = await runPrint(sb, "When is the kiwi harvest?");
				const took = Date.now() - began;
				assert.equal(r.code, 0, r.stderr);
				const result = r.requests[r.requests.length - 1]!.body!.messages!.filter((m) => m.role === "tool").map(contentText)[0]!;
				assert.ok(result.includes("kiwi harvest is in May") && result.includes("Embeddings unavailable (timed out after 300 ms)"), result);
				assert.ok(took < 8000, `pi took ${took} ms`);
			});
		} finally {
			await embedder.close();
		}
	});
});
