// Row 16 of `make bench` (issue 20): `pimem mcp` measured from outside, as an MCP
// client sees it, with a JSON-RPC client of a few lines over the child's stdio (no
// SDK, so nothing of a client's own is timed):
//
//   start   spawn `pimem mcp` in a project whose decision log has 100k events and
//           time until the answer to the first tools/call (memory_status, which needs
//           the decisions' state: their count, conflicts):
//           once cold (no snapshot, no compiled-code cache: that start writes both),
//           then `starts` times with both;
//   search  memory_search over row 15's project (100k decisions, a 5,000-line index,
//           200 earlier sessions) through one server: the first search alone, then
//           `calls` more, each timed from request to answer.

import { type ChildProcess, spawn } from "node:child_process";

/** A running `pimem mcp` and a minimal JSON-RPC client of it. */
class McpChild {
	readonly child: ChildProcess;
	private buf = "";
	private next = 1;
	private readonly waiting = new Map<number, (m: Record<string, unknown>) => void>();
	private stderr = "";

	constructor(pimem: string, args: string[], env: NodeJS.ProcessEnv) {
		this.child = spawn(pimem, [...args, "mcp"], { env, stdio: ["pipe", "pipe", "pipe"] });
		this.child.stdout!.setEncoding("utf8");
		this.child.stdout!.on("data", (d: string) => {
			this.buf += d;
			for (let i = this.buf.indexOf("\n"); i >= 0; i = this.buf.indexOf("\n")) {
				const line = this.buf.slice(0, i);
				this.buf = this.buf.slice(i + 1);
				if (line.trim() === "") continue;
				const m = JSON.parse(line) as Record<string, unknown>;
				const w = typeof m.id === "number" ? this.waiting.get(m.id) : undefined;
				if (w !== undefined) {
					this.waiting.delete(m.id as number);
					w(m);
				}
			}
		});
		this.child.stderr!.setEncoding("utf8");
		this.child.stderr!.on("data", (d: string) => {
			this.stderr += d;
		});
	}

	request(method: string, params: unknown): Promise<Record<string, unknown>> {
		const id = this.next++;
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`pimem mcp: no answer to ${method} in 10 minutes; stderr: ${this.stderr.slice(-500)}`)), 600_000);
			this.waiting.set(id, (m) => {
				clearTimeout(timer);
				if (m.error !== undefined) reject(new Error(`pimem mcp: ${method}: ${JSON.stringify(m.error)}`));
				else resolve(m.result as Record<string, unknown>);
			});
			this.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
		});
	}

	notify(method: string): void {
		this.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
	}

	async init(): Promise<void> {
		const ready = this.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pimem-bench", version: "1" } });
		this.notify("notifications/initialized");
		await ready;
	}

	/** Closes its input and waits for it to end (it writes what can wait then). */
	close(): Promise<void> {
		return new Promise((resolve) => {
			if (this.child.exitCode !== null) return resolve();
			this.child.once("exit", () => resolve());
			this.child.stdin!.end();
		});
	}
}

function toolText(r: Record<string, unknown>): string {
	const c = (r.content as Array<{ text?: string }> | undefined)?.[0];
	return c?.text ?? "";
}

export interface McpStart {
	coldMs: number;
	ms: number[];
	firstAnswer: string;
}

/** Spawn to the first tool answer, cold once, then `starts` times warm. */
export async function mcpStart(pimem: string, module: string, project: string, agent: string, cache: string, starts: number): Promise<McpStart> {
	const env = { PATH: process.env.PATH, HOME: agent, XDG_CACHE_HOME: cache, PI_CODING_AGENT_DIR: agent };
	const once = async (): Promise<{ ms: number; text: string }> => {
		const t0 = performance.now();
		const c = new McpChild(pimem, ["--wasm", module, "--project", project], env);
		await c.init();
		const r = await c.request("tools/call", { name: "memory_status", arguments: {} });
		const ms = performance.now() - t0;
		await c.close();
		return { ms, text: toolText(r) };
	};
	const cold = await once();
	const ms: number[] = [];
	for (let i = 0; i < starts; i++) ms.push((await once()).ms);
	return { coldMs: cold.ms, ms, firstAnswer: cold.text.split("\n")[1] ?? "" };
}

export interface McpSearch {
	firstMs: number;
	ms: number[];
}

/** memory_search through one server: the first call alone, then `calls` more. */
export async function mcpSearch(pimem: string, module: string, project: string, agent: string, cache: string, queries: string[], calls: number): Promise<McpSearch> {
	const env = { PATH: process.env.PATH, HOME: agent, XDG_CACHE_HOME: cache, PI_CODING_AGENT_DIR: agent };
	const c = new McpChild(pimem, ["--wasm", module, "--project", project], env);
	try {
		await c.init();
		let t0 = performance.now();
		const first = await c.request("tools/call", { name: "memory_search", arguments: { query: queries[0] } });
		const firstMs = performance.now() - t0;
		if (first.isError === true) throw new Error(`memory_search failed: ${toolText(first)}`);
		const ms: number[] = [];
		for (let i = 0; i < calls; i++) {
			t0 = performance.now();
			await c.request("tools/call", { name: "memory_search", arguments: { query: queries[(i + 1) % queries.length] } });
			ms.push(performance.now() - t0);
		}
		return { firstMs, ms };
	} finally {
		await c.close();
	}
}
