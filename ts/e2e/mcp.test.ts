// Issue 20, "Done when": `pimem mcp` driven by a real MCP client that no one
// here wrote, the official TypeScript SDK's (@modelcontextprotocol/sdk), over
// stdio as Claude Code, Codex or Cursor would start it. The tests list the
// tools and call each, read the resources and the prompt, and check the files
// on disk; they compare memory_search through MCP with the same search made by
// the real pi; they send what a broken or hostile client sends (a line that is
// not JSON, a message that is not JSON-RPC, an unknown tool, wrong argument
// types, a 10 MB argument, a client gone mid-call); and they have pi, the pimem
// CLI and two MCP servers write one project at once.
//
// Needs build/out/pimem and the core beside it (`make pimem`; make test-e2e
// builds it first). Every server this file starts runs in its sandbox with a
// temp HOME, PI_CODING_AGENT_DIR naming the sandbox's agent dir, no network,
// and one compile cache for the file (XDG_CACHE_HOME), so the core compiles once.

import assert from "node:assert/strict";
import { execFile, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, McpError, ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import {
	REPO,
	Rpc,
	addEvent,
	contentText,
	decisionLog,
	distinctTexts,
	globalMemoryFile,
	projectMemoryFile,
	readEvents,
	readLines,
	runPrint,
	seedFile,
	seedLog,
	snapshotTree,
	startRpc,
	waitUntil,
	withSandbox,
} from "./harness.ts";
import type { RpcRecord, Sandbox } from "./harness.ts";
import { BUILDS, assertCurrent } from "../test/builds.ts";

const PIMEM = path.join(REPO, "build", "out", "pimem");

/** A GitHub token of the documented shape; EXAMPLE marks it as no real one. */
const SECRET = "ghp_" + "EXAMPLEexampleEXAMPLEexample01234567";

// One wazero compile cache for every pimem this file starts.
let cacheHome = "";

before(() => {
	assertCurrent(BUILDS[0].file);
	if (!fs.existsSync(PIMEM)) throw new Error(`${PIMEM} is missing: run \`make pimem\` in ${REPO}`);
	const beside = path.join(path.dirname(PIMEM), "core.wasm");
	if (!fs.existsSync(beside) || !fs.readFileSync(beside).equals(fs.readFileSync(BUILDS[0].file))) {
		throw new Error(`${beside} is not ts/core.wasm: run \`make pimem\` in ${REPO}`);
	}
	cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-e2e-mcp-cache-"));
});

after(() => {
	if (cacheHome !== "") fs.rmSync(cacheHome, { recursive: true, force: true });
});

/** The environment of every pimem here: the sandbox's (temp HOME, its agent dir, offline) and the shared cache. */
function pimemEnv(sb: Sandbox): Record<string, string> {
	return { ...sb.env, XDG_CACHE_HOME: cacheHome };
}

/** The flags that name the sandbox's project and agent dir. */
function where(sb: Sandbox): string[] {
	return ["--project", sb.project, "--agent-dir", sb.agentDir];
}

/** The pimem CLI in the sandbox, run to its end; rejects on a non-zero exit. */
function pimem(sb: Sandbox, args: string[]): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile(PIMEM, [...where(sb), ...args], { cwd: sb.project, env: pimemEnv(sb), timeout: 30_000 }, (err, stdout, stderr) => {
			if (err) reject(new Error(`pimem ${args.join(" ")}: ${err.message}\n${stderr}`));
			else resolve(stdout);
		});
	});
}

type Elicit = (req: ElicitRequest) => ElicitResult | Promise<ElicitResult>;

interface Session {
	client: Client;
	transport: StdioClientTransport;
	/** What the server wrote on stderr so far. */
	stderr(): string;
	close(): Promise<void>;
}

/**
 * `pimem mcp` in the sandbox, connected to the SDK's client. With elicit the
 * client declares elicitation and answers the server's questions with it;
 * without, it declares no capability (a client with no UI).
 */
async function connect(sb: Sandbox, elicit?: Elicit): Promise<Session> {
	const transport = new StdioClientTransport({ command: PIMEM, args: ["mcp", ...where(sb)], env: pimemEnv(sb), cwd: sb.project, stderr: "pipe" });
	let stderr = "";
	transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
	const client = new Client({ name: "pimem-e2e", version: "1.0.0" }, elicit ? { capabilities: { elicitation: {} } } : {});
	if (elicit) client.setRequestHandler(ElicitRequestSchema, async (req) => elicit(req));
	try {
		await client.connect(transport);
	} catch (err) {
		await transport.close();
		throw new Error(`pimem mcp did not start: ${String(err)}\n${stderr}`);
	}
	return { client, transport, stderr: () => stderr, close: () => client.close() };
}

/** Run f with a connected client; the server is closed afterwards, also on failure. */
async function withClient<T>(sb: Sandbox, elicit: Elicit | undefined, f: (s: Session) => Promise<T>): Promise<T> {
	const s = await connect(sb, elicit);
	try {
		return await f(s);
	} finally {
		await s.close();
	}
}

/** A tool call's one text and whether it is an error. */
async function call(c: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
	const r = await c.callTool({ name, arguments: args });
	const content = r.content as Array<{ type: string; text?: string }>;
	assert.equal(content.length, 1, `${name}: one content item: ${JSON.stringify(r)}`);
	assert.equal(content[0]!.type, "text", `${name}: text content: ${JSON.stringify(r)}`);
	return { text: content[0]!.text ?? "", isError: r.isError === true };
}

/** A tool call that must succeed; its text. */
async function ok(c: Client, name: string, args: Record<string, unknown>): Promise<string> {
	const r = await call(c, name, args);
	assert.equal(r.isError, false, `${name} ${JSON.stringify(args).slice(0, 200)} failed: ${r.text}`);
	return r.text;
}

/** Every file under the dirs, relative to root, that a crash could leave: a lock, a lock's breaker, a temp file. */
function leftovers(sb: Sandbox): string[] {
	const found: string[] = [];
	for (const dir of [sb.project, sb.agentDir]) {
		for (const rel of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
			const base = path.basename(rel);
			if (/\.lock$|\.lock\.break$|\.tmp-\d+$/.test(base)) found.push(path.join(path.basename(dir), rel));
		}
	}
	return found;
}

/** Every line of every .jsonl under project and agent dir parses; returns how many lines were checked. */
function assertEveryJsonlLineParses(sb: Sandbox): number {
	let n = 0;
	for (const dir of [sb.project, sb.agentDir]) {
		for (const rel of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
			if (!rel.endsWith(".jsonl")) continue;
			const file = path.join(dir, rel);
			const text = fs.readFileSync(file, "utf8");
			if (text !== "") assert.ok(text.endsWith("\n"), `${file} ends inside a line: ${JSON.stringify(text.slice(-80))}`);
			readLines(file).forEach((l, i) => {
				assert.doesNotThrow(() => JSON.parse(l), `${file}:${i + 1} does not parse: ${l}`);
				n++;
			});
		}
	}
	return n;
}

/** The registry's mcpTools (ts/registry.json, written by make wasm from the core). */
function registryTools(): Array<{ name: string; parameters: unknown; annotations: unknown }> {
	const reg = JSON.parse(fs.readFileSync(path.join(REPO, "ts", "registry.json"), "utf8")) as {
		mcpTools?: Array<{ name: string; parameters: unknown; annotations: unknown }>;
	};
	assert.ok(reg.mcpTools && reg.mcpTools.length > 0, "ts/registry.json lists mcpTools");
	return reg.mcpTools;
}

/** `pimem mcp` as a raw child that this test writes lines to; the harness's JSON-lines reader reads its answers. */
async function rawServer(sb: Sandbox, capabilities: Record<string, unknown> = {}): Promise<Rpc> {
	const child = spawn(PIMEM, ["mcp", ...where(sb)], { cwd: sb.project, env: pimemEnv(sb), stdio: ["pipe", "pipe", "pipe"] });
	const rpc = new Rpc(child);
	try {
		await new Promise<void>((resolve, reject) => {
			child.once("spawn", () => resolve());
			child.once("error", reject);
		});
		rpc.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities, clientInfo: { name: "raw", version: "1" } } });
		await answerTo(rpc, 0);
		rpc.send({ jsonrpc: "2.0", method: "notifications/initialized" });
	} catch (err) {
		await rpc.close(2_000);
		throw err;
	}
	return rpc;
}

/** The server's answer to the request with id, from index since on. */
async function answerTo(rpc: Rpc, id: number | string, since = 0): Promise<RpcRecord> {
	const { record } = await rpc.waitFor((r) => r.id === id && ("result" in r || "error" in r), { since, what: `the answer to request ${id}` });
	return record;
}

/** Send a line as it is (a test of what a broken client sends). */
function sendLine(rpc: Rpc, line: string): void {
	rpc.child.stdin?.write(line + "\n");
}

/** Resolves once the child has exited (at once if it has); rejects after ms. */
function exited(rpc: Rpc, ms = 10_000): Promise<void> {
	return waitUntil(() => rpc.exit !== null, "pimem mcp to exit", ms).then(() => undefined);
}

describe("pimem mcp with the official MCP TypeScript SDK client", () => {
	it("offers exactly the registry's mcpTools; each answers, and each write lands on disk as it says", async () => {
		await withSandbox({}, async (sb) => {
			const answers: ElicitResult[] = [];
			const asked: ElicitRequest[] = [];
			const elicit: Elicit = (req) => {
				asked.push(req);
				const a = answers.shift();
				assert.ok(a !== undefined, `an elicitation nobody expected: ${JSON.stringify(req.params)}`);
				return a;
			};
			await withClient(sb, elicit, async ({ client }) => {
				// The tools: the registry's mcpTools, names and input schemas as the core declares them.
				const want = registryTools();
				const { tools } = await client.listTools();
				assert.deepEqual(tools.map((t) => t.name).sort(), want.map((t) => t.name).sort(), "the same tools as the registry's mcpTools");
				for (const w of want) {
					assert.deepEqual(tools.find((t) => t.name === w.name)?.inputSchema, w.parameters, `${w.name}: the registry's input schema`);
					assert.deepEqual(tools.find((t) => t.name === w.name)?.annotations, w.annotations, `${w.name}: the registry's annotations`);
				}
				const hints = (name: string) => tools.find((t) => t.name === name)?.annotations;
				for (const name of ["memory_search", "decision_list", "memory_status"]) assert.equal(hints(name)?.readOnlyHint, true, `${name} is read-only`);
				assert.equal(hints("memory_forget")?.destructiveHint, true, "memory_forget is destructive");
				assert.ok(tools.every((t) => t.annotations?.openWorldHint === false), "every tool touches only memory files");
				const called = new Set<string>();
				const use = async (name: string, args: Record<string, unknown>) => {
					called.add(name);
					return ok(client, name, args);
				};

				const status = await use("memory_status", {});
				assert.match(status, /^pi-memory \S+ \(core [0-9a-f]{12}\) for /, status);
				assert.ok(status.includes(sb.project), `names the project: ${status}`);
				assert.match(status, /^decisions: on$/m, status);
				assert.match(status, /^notes: on$/m, status);
				assert.deepEqual(fs.readdirSync(sb.project), [], "memory_status wrote nothing");

				// memory_remember writes the project's MEMORY.md at once, and says where.
				const notes = projectMemoryFile(sb.project);
				const remembered = await use("memory_remember", { text: "I always use pnpm" });
				assert.match(remembered, /^Remembered in project memory: \.pi\/memory\/MEMORY\.md, line 3/, remembered);
				assert.equal(fs.readFileSync(notes, "utf8"), "## Notes\n\n- I always use pnpm\n");

				// memory_search finds it, cited by file (relative to the project), line and id.
				const found = await use("memory_search", { query: "pnpm" });
				assert.match(found, /^1 match for "pnpm"/, found);
				assert.ok(found.includes("note .pi/memory/MEMORY.md:3#P-") && found.endsWith(": Notes — I always use pnpm"), found);

				// memory_forget removes the line; memory_restore brings it back.
				const forgot = await use("memory_forget", { query: "pnpm" });
				assert.match(forgot, /Forgot “I always use pnpm”/, forgot);
				const ref = /F-[0-9a-f]{8}/.exec(forgot)?.[0];
				assert.ok(ref !== undefined, `the answer names what restores it: ${forgot}`);
				assert.ok(!fs.readFileSync(notes, "utf8").includes("pnpm"), "the line is gone from MEMORY.md");
				await use("memory_restore", { id: ref });
				assert.equal(fs.readFileSync(notes, "utf8"), "## Notes\n\n- I always use pnpm\n", "restored in its section");

				// decision_propose asks through elicitation: a form with one boolean field "answer".
				const log = decisionLog(sb.project);
				answers.push({ action: "accept", content: { answer: true } });
				const text = "Use PostgreSQL 16 for the primary database";
				const recorded = await use("decision_propose", { text });
				assert.equal(asked.length, 1, "one question to the person");
				const q = asked[0]!.params as { message: string; requestedSchema: { properties: Record<string, { type: string }>; required?: string[] } };
				assert.ok(q.message.includes(text), `the question names the decision: ${q.message}`);
				assert.deepEqual(Object.keys(q.requestedSchema.properties), ["answer"]);
				assert.equal(q.requestedSchema.properties.answer!.type, "boolean");
				const id = /D-\d{4}-\d{2}-\d{2}-\d{4,}/.exec(recorded)?.[0];
				assert.ok(id !== undefined, `the answer names the new id: ${recorded}`);
				const events = readEvents(sb.project);
				assert.equal(events.length, 1, "accepted: one event");
				assert.equal(events[0]!.e, "a", "an add event");
				assert.equal(events[0]!.i, id);
				assert.equal(events[0]!.d?.tx, text);

				// Declined, cancelled or accepted with false: nothing is written.
				const before = fs.readFileSync(log, "utf8");
				const proposals = ["Deploy only on Tuesdays", "Squash commits before merging", "Indent with tabs in Go files"];
				for (const [i, a] of ([{ action: "decline" }, { action: "cancel" }, { action: "accept", content: { answer: false } }] as ElicitResult[]).entries()) {
					answers.push(a);
					const r = await call(client, "decision_propose", { text: proposals[i]! });
					assert.ok(!/Recorded/.test(r.text), `${JSON.stringify(a)}: ${r.text}`);
					assert.equal(fs.readFileSync(log, "utf8"), before, `${JSON.stringify(a)}: the log is unchanged`);
				}
				assert.equal(asked.length, 4, "each proposal asked once");
				// What the person declined is not put to them again this session.
				const again = await call(client, "decision_propose", { text: "deploy only on Tuesdays" });
				assert.match(again.text, /declined this decision earlier/, again.text);
				assert.equal(asked.length, 4, "not asked again");

				const list = await use("decision_list", {});
				assert.ok(list.includes(`${id} | active | ${text}`), list);
				assert.match(await use("memory_status", {}), /^decisions 1\b/m);

				assert.deepEqual([...called].sort(), want.map((t) => t.name).sort(), "every tool was called");
				// A MEMORY.md written during the session is a resource at once.
				const { resources } = await client.listResources();
				assert.ok(
					resources.some((r) => r.uri === "pimem://notes/project/MEMORY.md"),
					`the project's MEMORY.md is listed: ${JSON.stringify(resources.map((r) => r.uri))}`,
				);
			});
			assertEveryJsonlLineParses(sb);
			assert.deepEqual(leftovers(sb), [], "no lock or temp file is left");
		});
	});

	it("without elicitation, decision_propose writes nothing and answers with the pimem command that records it", async () => {
		await withSandbox({}, async (sb) => {
			const text = "Use PostgreSQL 16 for the primary database";
			const before = snapshotTree(sb.root);
			const answer = await withClient(sb, undefined, async ({ client }) => ok(client, "decision_propose", { text }));
			assert.deepEqual(snapshotTree(sb.root), before, "nothing written anywhere");
			assert.match(answer, /^Not recorded/, answer);
			const cmd = answer.split("\n").find((l) => l.startsWith("pimem decision add -- "));
			assert.ok(cmd !== undefined, `a pimem decision add command: ${answer}`);
			// The command works as given, in the project, with pimem on PATH.
			execFileSync("/bin/sh", ["-c", cmd], { cwd: sb.project, env: { ...pimemEnv(sb), PATH: `${path.dirname(PIMEM)}:${sb.env.PATH}` } });
			assert.deepEqual(
				readEvents(sb.project).map((e) => [e.e, e.d?.tx]),
				[["a", text]],
			);
		});
	});

	it("lists the active decisions and each MEMORY.md as resources, redacted, the files unchanged", async () => {
		await withSandbox({}, async (sb) => {
			const d = addEvent(sb.project, 1, "Use PostgreSQL 16 for the primary database");
			seedLog(sb.project, [d]);
			const project = seedFile(projectMemoryFile(sb.project), `# Memory\n\n## Build\n- The CI bot token is ${SECRET} for now\n- Tests need Docker running\n`);
			const global = seedFile(globalMemoryFile(sb.agentDir), "## Preferences\n- I prefer tabs\n");
			const before = snapshotTree(sb.project);
			const globalBefore = fs.readFileSync(global, "utf8");
			await withClient(sb, undefined, async ({ client }) => {
				const { resources } = await client.listResources();
				assert.deepEqual(resources.map((r) => r.uri).sort(), ["pimem://decisions/active", "pimem://notes/global/MEMORY.md", "pimem://notes/project/MEMORY.md"]);
				const read = async (uri: string) => {
					const r = await client.readResource({ uri });
					assert.equal(r.contents.length, 1, uri);
					const c = r.contents[0]! as { uri: string; text?: string; mimeType?: string };
					assert.equal(c.uri, uri);
					return c;
				};
				const decisions = await read("pimem://decisions/active");
				assert.ok(decisions.text?.includes(`${d.i} | active | Use PostgreSQL 16 for the primary database`), decisions.text);
				const g = await read("pimem://notes/global/MEMORY.md");
				assert.equal(g.mimeType, "text/markdown");
				assert.equal(g.text, fs.readFileSync(global, "utf8"), "the global MEMORY.md as it is");
				const p = await read("pimem://notes/project/MEMORY.md");
				assert.equal(p.text, fs.readFileSync(project, "utf8").replace(SECRET, "[REDACTED:github-token]"), "the project's MEMORY.md, the token redacted");
				await assert.rejects(client.readResource({ uri: "pimem://notes/nowhere/MEMORY.md" }), (err: unknown) => err instanceof McpError && /not found/i.test(err.message));
			});
			assert.ok(fs.readFileSync(project, "utf8").includes(SECRET), "the file keeps its text");
			// (The session's end may write derived page tables under the agent dir, as pimem's commands do.)
			assert.deepEqual(snapshotTree(sb.project), before, "reading wrote nothing in the project");
			assert.equal(fs.readFileSync(global, "utf8"), globalBefore, "nor in the global MEMORY.md");
		});
	});

	it("the memory prompt's text is `pimem inject --prompt TASK`'s output byte for byte", async () => {
		await withSandbox({}, async (sb) => {
			seedLog(sb.project, [addEvent(sb.project, 1, "Use PostgreSQL 16 for the primary database"), addEvent(sb.project, 2, "Run the linters before every commit")]);
			seedFile(projectMemoryFile(sb.project), "# Memory\n\n## Build\n- Databases are migrated with goose\n- Tests need Docker running\n");
			seedFile(globalMemoryFile(sb.agentDir), "## Preferences\n- I prefer tabs\n");
			await withClient(sb, undefined, async ({ client }) => {
				const { prompts } = await client.listPrompts();
				assert.deepEqual(prompts.map((p) => [p.name, p.arguments?.map((a) => a.name)]), [["memory", ["task"]]]);
				for (const task of ["migrate the database", ""]) {
					const r = await client.getPrompt({ name: "memory", arguments: task === "" ? {} : { task } });
					assert.equal(r.messages.length, 1);
					const m = r.messages[0]!;
					assert.equal(m.content.type, "text");
					const injected = await pimem(sb, ["inject", ...(task === "" ? [] : ["--prompt", task])]);
					assert.ok(injected.includes("D-") && injected.includes("goose"), `inject shows the seeded memory: ${injected}`);
					assert.equal((m.content as { text: string }).text, injected, `task ${JSON.stringify(task)}`);
				}
			});
		});
	});

	it("memory_search through MCP answers the same text as pi's memory_search for the same project and query", async () => {
		await withSandbox({ git: true }, async (sb) => {
			const project = fs.realpathSync(sb.project);
			seedLog(project, [
				addEvent(project, 1, "Use PostgreSQL 16 for the primary database", { t: "2026-11-20T09:00:00.000Z" }),
				addEvent(project, 2, "Run the linters before every commit", { t: "2026-11-20T09:05:00.000Z" }),
			]);
			seedFile(projectMemoryFile(project), "# Memory\n\n## Build\n- Databases are migrated with goose\n- Tests need Docker running\n");
			seedFile(globalMemoryFile(sb.agentDir), "## Preferences\n- Database dumps go to the backup disk\n");
			const args = { query: "databases", limit: 5 };
			sb.model.enqueue({ tool: "memory_search", args }, "Found them.");
			const r = await runPrint(sb, "What do we know about our databases?");
			assert.equal(r.code, 0, r.stderr);
			const results = r.requests[r.requests.length - 1]!.body!.messages!.filter((m) => m.role === "tool").map(contentText);
			assert.equal(results.length, 1, `one tool result: ${JSON.stringify(results)}`);
			const inPi = results[0]!;
			assert.match(inPi, /^\d+ matches for "databases"/, inPi);

			const viaMcp = await withClient(sb, undefined, async ({ client }) => ok(client, "memory_search", args));
			assert.equal(viaMcp, inPi);
		});
	});

	it("a line that is not JSON, or not JSON-RPC, gets an error and the session goes on", async () => {
		await withSandbox({}, async (sb) => {
			const rpc = await rawServer(sb);
			try {
				let id = 1;
				for (const [line, code] of [
					["this is not json", -32700],
					['{"jsonrpc":"2.0","id":', -32700],
					['{"foo":1}', -32600],
					["[1,2]", -32600],
					['"a string"', -32600],
					['{"jsonrpc":"1.0","id":5,"method":"tools/list"}', -32600],
					['{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}', -32600],
				] as Array<[string, number]>) {
					const since = rpc.records.length;
					sendLine(rpc, line);
					const { record } = await rpc.waitFor((r) => "error" in r, { since, what: `the error for ${line}` });
					assert.equal(record.id, null, line);
					assert.equal((record.error as { code: number }).code, code, `${line}: ${JSON.stringify(record)}`);
					assert.match((record.error as { message: string }).message, /pimem mcp received .+; it was skipped and the session goes on/, line);
					// The session goes on: the next request is answered.
					const n = id++;
					rpc.send({ jsonrpc: "2.0", id: n, method: "tools/list" });
					const next = await answerTo(rpc, n, since);
					assert.ok("result" in next, `${line}: the next request is answered: ${JSON.stringify(next)}`);
				}
				// A request with an unknown method or bad params is answered with its id.
				rpc.send({ jsonrpc: "2.0", id: 90, method: "no/such/method" });
				assert.equal(((await answerTo(rpc, 90)).error as { code: number }).code, -32601);
				rpc.send({ jsonrpc: "2.0", id: 91, method: "tools/call", params: "x" });
				assert.equal(((await answerTo(rpc, 91)).error as { code: number }).code, -32602);
				rpc.send({ jsonrpc: "2.0", id: 92, method: "tools/call", params: { name: "memory_search", arguments: [1] } });
				const arr = (await answerTo(rpc, 92)).result as { isError?: boolean; content: Array<{ text: string }> };
				assert.equal(arr.isError, true);
				assert.match(arr.content[0]!.text, /arguments must be an object/);
			} finally {
				await rpc.close();
			}
			assert.equal(rpc.exit?.code, 0, `pimem mcp ends cleanly at the end of its input: ${rpc.stderr}`);
		});
	});

	it("an unknown tool, wrong argument types and a 10 MB argument each get a clear error, and nothing is written", async () => {
		await withSandbox({}, async (sb) => {
			const before = snapshotTree(sb.root);
			await withClient(sb, undefined, async ({ client }) => {
				await assert.rejects(client.callTool({ name: "memory_nope", arguments: {} }), (err: unknown) => {
					assert.ok(err instanceof McpError, String(err));
					assert.equal(err.code, -32602);
					assert.match(err.message, /unknown tool "memory_nope"/);
					return true;
				});
				const bad: Array<[string, Record<string, unknown>, RegExp]> = [
					["memory_search", { query: 5 }, /"query" must be a string, got a number/],
					["memory_search", { query: "x", limit: "ten" }, /"limit" must be an? (integer|number)/],
					["memory_search", {}, /"query" is missing/],
					["memory_search", { query: "x", bogus: true }, /unknown argument "bogus"/],
					["memory_remember", { text: ["a", "b"] }, /"text" must be a string, got an array/],
					["memory_remember", { text: "x", scope: "everywhere" }, /"scope"/],
					["decision_list", { status: 7 }, /"status" must be a string/],
					["decision_propose", { text: { nested: true } }, /"text" must be a string, got an object/],
					["memory_remember", { text: "y".repeat(10 * 1024 * 1024) }, /memory_remember: its arguments are \d+ bytes; at most 65536 are read/],
				];
				for (const [name, args, want] of bad) {
					const r = await call(client, name, args);
					assert.equal(r.isError, true, `${name} ${JSON.stringify(args).slice(0, 80)}: ${r.text}`);
					assert.match(r.text, want, `${name} ${JSON.stringify(args).slice(0, 80)}`);
					assert.ok(r.text.startsWith(`${name}: `), `the error names the tool: ${r.text}`);
				}
				// The session is intact.
				assert.match(await ok(client, "memory_status", {}), /^notes: on$/m);
			});
			assert.deepEqual(snapshotTree(sb.root), before, "nothing written");
		});
	});

	it("a person who answers after the client gave up on the call (its request timed out) records nothing, and the next call is answered at once", async () => {
		await withSandbox({}, async (sb) => {
			// The SDK's default request timeout is 60 s; a person slower than that meets this.
			let asked = 0;
			const elicit: Elicit = async () => {
				asked++;
				await new Promise((r) => setTimeout(r, 1_500));
				return { action: "accept", content: { answer: true } };
			};
			const errors: string[] = [];
			await withClient(sb, elicit, async ({ client }) => {
				client.onerror = (err) => errors.push(String(err));
				await assert.rejects(
					client.callTool({ name: "decision_propose", arguments: { text: "Deploy only on Tuesdays" } }, undefined, { timeout: 500 }),
					(err: unknown) => err instanceof McpError && /timed out/i.test(err.message),
				);
				await waitUntil(() => asked === 1, "the question", 5_000);
				await new Promise((r) => setTimeout(r, 2_000)); // the person has answered
				const started = Date.now();
				assert.match(await ok(client, "decision_list", {}), /No active decisions/);
				assert.ok(Date.now() - started < 5_000, `the next call waited ${Date.now() - started} ms`);
				// The call was cancelled: it counted as dismissed, and it is not put to the person again.
				const again = await ok(client, "decision_propose", { text: "Deploy only on Tuesdays" });
				assert.match(again, /declined this decision earlier/, again);
			});
			assert.equal(asked, 1);
			assert.ok(!fs.existsSync(decisionLog(sb.project)), "nothing recorded");
			assert.deepEqual(errors, [], "no answer came for the cancelled request");
		});
	});

	it("a client that listed the resources is told when memory_remember creates the project's MEMORY.md", async () => {
		await withSandbox({}, async (sb) => {
			let changed = 0;
			await withClient(sb, undefined, async ({ client }) => {
				client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
					changed++;
				});
				assert.equal(client.getServerCapabilities()?.resources?.listChanged, true, "the server says it tells");
				const before = await client.listResources();
				assert.deepEqual(before.resources.map((r) => r.uri), ["pimem://decisions/active"]);
				await ok(client, "memory_remember", { text: "I always use pnpm" });
				await waitUntil(() => changed > 0, "notifications/resources/list_changed", 5_000);
				const after = await client.listResources();
				assert.deepEqual(after.resources.map((r) => r.uri).sort(), ["pimem://decisions/active", "pimem://notes/project/MEMORY.md"]);
				// A note in the file that is there changes no list.
				await ok(client, "memory_remember", { text: "Run the linters before every commit" });
				await ok(client, "memory_status", {});
			});
			assert.equal(changed, 1, "told once, for the one change");
		});
	});

	it("a client gone mid-call leaves no torn line, no lock and no temp file, and the next server works", async () => {
		await withSandbox({}, async (sb) => {
			seedLog(sb.project, [addEvent(sb.project, 1, "Use PostgreSQL 16 for the primary database")]);
			const log = fs.readFileSync(decisionLog(sb.project), "utf8");

			// Gone while decision_propose waits for the person: the input closed, then (another client) SIGTERM.
			for (const how of ["close", "SIGTERM"] as const) {
				const rpc = await rawServer(sb, { elicitation: {} });
				try {
					rpc.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "decision_propose", arguments: { text: `Deploy only on Tuesdays (${how})` } } });
					await rpc.waitFor((r) => r.method === "elicitation/create", { what: "the question" });
					if (how === "close") rpc.child.stdin?.end();
					else rpc.child.kill("SIGTERM");
					await exited(rpc);
				} finally {
					await rpc.close();
				}
				assert.equal(fs.readFileSync(decisionLog(sb.project), "utf8"), log, `${how}: nothing recorded`);
				assert.deepEqual(leftovers(sb), [], `${how}: no lock or temp file`);
			}

			// Gone while memory_remember runs: the client ends the server with SIGTERM (as the SDK's
			// close() does when the input's end is not enough) at moments spread over the write.
			const facts = distinctTexts(20, 16);
			for (const [i, fact] of facts.entries()) {
				const rpc = await rawServer(sb);
				try {
					rpc.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "memory_remember", arguments: { text: fact } } });
					await new Promise((r) => setTimeout(r, i % 8));
					rpc.child.kill("SIGTERM");
					await exited(rpc);
				} finally {
					await rpc.close();
				}
				assert.deepEqual(leftovers(sb), [], `SIGTERM ${i % 8} ms into memory_remember: no lock or temp file`);
			}
			assertEveryJsonlLineParses(sb);
			const notes = projectMemoryFile(sb.project);
			const kept = fs.existsSync(notes) ? fs.readFileSync(notes, "utf8") : "";
			for (const line of kept.split("\n")) {
				assert.ok(line === "" || line === "## Notes" || facts.some((f) => line === `- ${f}`), `a whole line: ${JSON.stringify(line)}`);
			}

			// A new server works at once: no lock to wait for, and what landed is there.
			await withClient(sb, undefined, async ({ client }) => {
				const r = await ok(client, "memory_remember", { text: "I always use pnpm" });
				assert.match(r, /^Remembered in project memory/, r);
				for (const f of facts.filter((f) => kept.includes(`- ${f}\n`))) {
					assert.match(await ok(client, "memory_search", { query: f }), /^1 match/, f);
				}
			});
			assert.deepEqual(leftovers(sb), []);
			assertEveryJsonlLineParses(sb);
		});
	});

	it("pi, the pimem CLI and two MCP clients writing one project at once lose nothing", async () => {
		await withSandbox({}, async (sb) => {
			const [mcpNotes, cliNotes, piNotes] = [distinctTexts(1, 10), distinctTexts(2, 6), distinctTexts(3, 3)];
			const [mcpDecisions, cliDecisions, piDecisions] = [distinctTexts(4, 4), distinctTexts(5, 6), distinctTexts(6, 2)];
			const rpc = await startRpc(sb);
			const a = await connect(sb);
			const b = await connect(sb, () => ({ action: "accept", content: { answer: true } }));
			try {
				const answers = await Promise.all([
					// One client sends its calls at once: the server takes them in turn.
					Promise.all(mcpNotes.map((t) => ok(a.client, "memory_remember", { text: t }))),
					(async () => {
						const out: string[] = [];
						for (const t of mcpDecisions) out.push(await ok(b.client, "decision_propose", { text: t }));
						return out;
					})(),
					Promise.all([
						...cliNotes.map((t) => pimem(sb, ["memory", "remember", "project", t])),
						...cliDecisions.map((t) => pimem(sb, ["decision", "add", "--", t])),
					]),
					(async () => {
						const out: string[] = [];
						for (const t of piNotes) out.push((await rpc.command(`/memory remember project ${t}`)).notes.join("\n"));
						for (const t of piDecisions) out.push((await rpc.command(`/decision add ${t}`)).notes.join("\n"));
						return out;
					})(),
				]);
				for (const t of answers[0]) assert.match(t, /^Remembered in project memory/, t);
				for (const t of answers[1]) assert.match(t, /^Recorded D-/, t);
			} finally {
				await Promise.all([a.close(), b.close(), rpc.close()]);
			}
			const notes = fs.readFileSync(projectMemoryFile(sb.project), "utf8");
			for (const t of [...mcpNotes, ...cliNotes, ...piNotes]) {
				assert.equal(notes.split("\n").filter((l) => l === `- ${t}`).length, 1, `"${t}" is in MEMORY.md once:\n${notes}`);
			}
			const events = readEvents(sb.project);
			const added = events.filter((e) => e.e === "a");
			assert.deepEqual(added.map((e) => e.d?.tx).sort(), [...mcpDecisions, ...cliDecisions, ...piDecisions].sort(), "every decision once");
			assert.equal(new Set(added.map((e) => e.i)).size, added.length, "no id repeats");
			assertEveryJsonlLineParses(sb);
			assert.deepEqual(leftovers(sb), []);
		});
	});
});
