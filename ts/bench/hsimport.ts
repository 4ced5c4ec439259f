// Import speed (issue 9's measure): `pimem hindsight import DIR` of a generated
// 1,000-session agent dir against the real Hindsight server on this machine, with
// the peak resident memory of the pimem process. Started by ts/bench/main.ts:
//
//   node ts/bench/hsimport.ts '{"pimem": BIN, "module": WASM, "dir": TMP, "sessions": 1000}'
//
// The agent dir comes from wasm/hsimport's generator (go test … -hsimport.gen DIR):
// 20 projects, realistic sessions (tool results up to 24 KB, branches, compactions,
// recalled blocks, a corrupt line now and then). The server is started as the
// end-to-end tests start it (ts/e2e/hindsight.ts: its model and embeddings answered
// by the fake in this process), so its extraction work in the background competes
// with the import for the same two cores, as it would on a laptop. pimem runs once,
// with a fresh checkpoint; the wall time is spawn to exit, the peak RSS is
// /usr/bin/time's "Maximum resident set size". Prints one "BENCH-RESULT {…}" line.

import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startHindsight } from "../e2e/hindsight.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

interface Args {
	pimem: string;
	module: string;
	dir: string;
	sessions: number;
}

export interface ImportResult {
	sessions: number;
	messages: number;
	chars: number;
	ms: number;
	maxRssKiB: number;
	cpuMs: number;
	requests: number;
	summary: string;
}

async function main(): Promise<void> {
	const a = JSON.parse(process.argv[2] ?? "{}") as Args;
	const agent = path.join(a.dir, "agent");
	const project = path.join(a.dir, "project");
	fs.mkdirSync(project, { recursive: true });
	execFileSync("go", ["test", "./wasm/hsimport", "-run", "^TestGenerateAgentDir$", "-count=1", "-hsimport.gen", agent, "-hsimport.sessions", String(a.sessions)], { cwd: REPO, stdio: "ignore" });
	const hs = await startHindsight();
	try {
		const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: a.dir, PIMEM_WASM: a.module, HINDSIGHT_API_URL: hs.url, XDG_CACHE_HOME: path.join(a.dir, "cache") };
		const t0 = performance.now();
		const { code, stdout, stderr } = await run("/usr/bin/time", ["-v", a.pimem, "--project", project, "--agent-dir", agent, "hindsight", "import", path.join(agent, "sessions")], env);
		const ms = performance.now() - t0;
		if (code !== 0) throw new Error(`pimem hindsight import exited ${code}: ${stderr.slice(-2000)}`);
		const summary = stdout.trim().split("\n").pop() ?? "";
		const m = /; ([\d,]+) sent \(([\d,]+) messages?, ([\d,]+) characters?\)/.exec(summary);
		const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
		const cpu = [/User time \(seconds\): ([\d.]+)/, /System time \(seconds\): ([\d.]+)/].map((re) => Number(re.exec(stderr)?.[1] ?? Number.NaN));
		if (m === null || rss === null) throw new Error(`no summary or no RSS in: ${summary} | ${stderr.slice(-500)}`);
		const n = (s: string) => Number(s.replaceAll(",", ""));
		const result: ImportResult = {
			sessions: n(m[1]!),
			messages: n(m[2]!),
			chars: n(m[3]!),
			ms,
			maxRssKiB: Number(rss[1]),
			cpuMs: (cpu[0]! + cpu[1]!) * 1000,
			requests: hs.requests.filter((r) => r.method === "POST" && r.url.endsWith("/memories")).length,
			summary,
		};
		process.stdout.write(`BENCH-RESULT ${JSON.stringify(result)}\n`);
	} finally {
		await hs.stop();
	}
}

/** Runs a child without blocking this process's event loop: the server's fake model and proxy live here. */
function run(cmd: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
		child.stderr.on("data", (b: Buffer) => (stderr = (stderr + b.toString()).slice(-20000)));
		child.on("close", (code) => resolve({ code, stdout, stderr }));
	});
}

main().catch((err: unknown) => {
	process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
	process.exit(1);
});
