// What the extension adds to a whole `pi -p` run: the same prompt, the same fake
// model server, the same project (a log of `log`'s events), run with and without
// `-e ts/index.ts`, plus a third arm with an empty extension (what pi itself
// spends loading any `-e` extension through jiti). Our own share is the difference
// with − empty of each round; the three runs of a round go in one of the six orders
// in turn, so drift on a shared machine falls on every side alike. Started by
// ts/bench/main.ts:
//
//   node ts/bench/pi.ts '{"log": FILE, "pairs": 20, "warmup": 2}'
//
// prints one "BENCH-RESULT {…}" line with every run's wall time (spawn to exit),
// and what pi's process reports about itself at exit (a preload passed in
// NODE_OPTIONS writes it): its CPU time, its peak RSS, and on Linux the CPU time of
// its main thread (/proc/self/task/PID/schedstat). pi's main thread is busy from
// loading extensions to the model call, so what an extension adds to that thread's
// CPU time is what it adds to the run; unlike wall time, a busy shared machine
// barely disturbs it.
// Each run is checked: exit 0, the model's reply on stdout, and the decisions in
// the system prompt exactly when the extension is loaded, so a broken extension
// cannot pass for a fast one. Reuses the end-to-end harness (ts/e2e/harness.ts).

import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { EXTENSION, appendedPrompt, decisionLines, decisionLog, makeSandbox, piBin, startFakeModel, systemPromptOf, type Sandbox } from "../e2e/harness.ts";

const RUN_TIMEOUT_MS = 60_000;
const REPLY = "OK from the fake model.";

// Our own pi processes, ended by PID if we are stopped or fail, and the sandbox
// folder to remove then.
const running = new Set<ChildProcess>();
let sandboxRoot = "";

function killAll(): void {
	for (const c of running) {
		if (c.pid !== undefined && c.exitCode === null && c.signalCode === null) {
			try {
				process.kill(c.pid, "SIGKILL");
			} catch {
				// already gone
			}
		}
	}
}

process.on("exit", killAll);
for (const sig of ["SIGTERM", "SIGINT"] as const) {
	process.on(sig, () => {
		killAll();
		if (sandboxRoot !== "") fs.rmSync(sandboxRoot, { recursive: true, force: true });
		process.exit(sig === "SIGINT" ? 130 : 143);
	});
}

interface Run {
	ms: number;
	cpuMs: number;
	mainCpuMs: number;
	maxRss: number;
	decisionLines: number;
}

// Loaded into pi's own Node process with --require: at exit, that process (and
// not a child it may start) writes its CPU time (all threads) and peak RSS.
const PRELOAD = `"use strict";
process.on("exit", () => {
	if (String(process.ppid) !== process.env.PIMEM_BENCH_PARENT) return;
	const fs = require("node:fs");
	const u = process.cpuUsage();
	let mainCpuMs = null;
	try {
		mainCpuMs = Number(fs.readFileSync("/proc/self/task/" + process.pid + "/schedstat", "utf8").split(" ")[0]) / 1e6;
	} catch {}
	fs.writeFileSync(process.env.PIMEM_BENCH_USAGE, JSON.stringify({ cpuMs: (u.user + u.system) / 1000, mainCpuMs, maxRss: process.resourceUsage().maxRSS * 1024 }));
});
`;

let runs = 0;

type Arm = "with" | "without" | "empty";

async function runOnce(sb: Sandbox, arm: Arm, emptyExtension: string, preload: string): Promise<Run> {
	const withExtension = arm === "with";
	const before = sb.model.requests.length;
	const ext = arm === "with" ? ["-e", EXTENSION] : arm === "empty" ? ["-e", emptyExtension] : [];
	const args = [...ext, "--model", "fake/fake-model", "--no-session", "-p", "Summarise the project's conventions in one line."];
	const usageFile = path.join(sb.root, `usage-${++runs}.json`);
	const env = { ...sb.env, NODE_OPTIONS: `--require ${preload}`, PIMEM_BENCH_PARENT: String(process.pid), PIMEM_BENCH_USAGE: usageFile };
	const t0 = performance.now();
	const child = spawn(piBin(), args, { cwd: sb.project, env, stdio: ["ignore", "pipe", "pipe"] });
	running.add(child);
	let stdout = "";
	let stderr = "";
	child.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
	child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
	try {
		const code = await new Promise<number | null>((resolve, reject) => {
			const timer = setTimeout(() => {
				if (child.pid !== undefined) process.kill(child.pid, "SIGKILL");
				reject(new Error(`pi -p timed out after ${RUN_TIMEOUT_MS} ms\nstderr:\n${stderr.slice(-2000)}`));
			}, RUN_TIMEOUT_MS);
			child.once("error", (err) => {
				clearTimeout(timer);
				reject(err);
			});
			child.once("close", (c) => {
				clearTimeout(timer);
				resolve(c);
			});
		});
		const ms = performance.now() - t0;
		const what = arm === "with" ? "with the extension" : arm === "empty" ? "with an empty extension" : "without the extension";
		if (code !== 0 || !stdout.includes(REPLY)) throw new Error(`pi -p ${what} exited ${code}\nstdout:\n${stdout.slice(-1000)}\nstderr:\n${stderr.slice(-2000)}`);
		const chats = sb.model.requests.slice(before).filter((r) => r.body !== null);
		if (chats.length === 0) throw new Error(`pi -p ${what} never called the model`);
		const lines = decisionLines(appendedPrompt(systemPromptOf(chats[chats.length - 1]))).length;
		if (withExtension && lines === 0) throw new Error(`pi -p with the extension injected no decision: is ts/core.wasm built?\nstderr:\n${stderr.slice(-2000)}`);
		if (!withExtension && lines !== 0) throw new Error(`pi -p ${what} still injected decisions: is the extension installed in the sandbox?`);
		let usage = { cpuMs: Number.NaN, mainCpuMs: Number.NaN, maxRss: Number.NaN };
		try {
			usage = JSON.parse(fs.readFileSync(usageFile, "utf8")) as typeof usage;
			fs.rmSync(usageFile);
		} catch {
			// The launcher did not exec node directly: wall time only.
		}
		return { ms, cpuMs: usage.cpuMs, mainCpuMs: usage.mainCpuMs ?? Number.NaN, maxRss: usage.maxRss, decisionLines: lines };
	} finally {
		running.delete(child);
	}
}

async function main(): Promise<void> {
	const args = JSON.parse(process.argv[2] ?? "{}") as { log?: string; pairs?: number; warmup?: number };
	if (typeof args.log !== "string") throw new Error("argument log is required");
	const pairs = args.pairs ?? 20;
	const warmup = args.warmup ?? 2;
	const model = await startFakeModel({ defaultReply: REPLY });
	const sb = makeSandbox(model);
	sandboxRoot = sb.root;
	try {
		const log = decisionLog(sb.project);
		fs.mkdirSync(path.dirname(log), { recursive: true });
		fs.copyFileSync(args.log, log);
		const emptyExtension = path.join(sb.root, "empty-extension.ts");
		fs.writeFileSync(emptyExtension, "export default function (): void {}\n");
		const preload = path.join(sb.root, "usage-preload.cjs");
		fs.writeFileSync(preload, PRELOAD);
		const orders: Arm[][] = [
			["with", "without", "empty"],
			["without", "empty", "with"],
			["empty", "with", "without"],
			["with", "empty", "without"],
			["without", "with", "empty"],
			["empty", "without", "with"],
		];
		const ms: Record<Arm, number[]> = { with: [], without: [], empty: [] };
		const diffs: number[] = [];
		const emptyDiffs: number[] = [];
		const ownDiffs: number[] = [];
		const cpuDiffs: number[] = [];
		const ownCpuDiffs: number[] = [];
		const ownMainCpuDiffs: number[] = [];
		const rssDiffs: number[] = [];
		let injected = 0;
		for (let i = 0; i < warmup + pairs; i++) {
			const round: Partial<Record<Arm, Run>> = {};
			for (const arm of orders[i % orders.length]!) {
				const r = await runOnce(sb, arm, emptyExtension, preload);
				round[arm] = r;
				if (arm === "with") injected = r.decisionLines;
			}
			if (i < warmup) continue;
			const w = round.with?.ms ?? Number.NaN;
			const wo = round.without?.ms ?? Number.NaN;
			const e = round.empty?.ms ?? Number.NaN;
			cpuDiffs.push((round.with?.cpuMs ?? Number.NaN) - (round.without?.cpuMs ?? Number.NaN));
			ownCpuDiffs.push((round.with?.cpuMs ?? Number.NaN) - (round.empty?.cpuMs ?? Number.NaN));
			ownMainCpuDiffs.push((round.with?.mainCpuMs ?? Number.NaN) - (round.empty?.mainCpuMs ?? Number.NaN));
			rssDiffs.push((round.with?.maxRss ?? Number.NaN) - (round.without?.maxRss ?? Number.NaN));
			ms.with.push(w);
			ms.without.push(wo);
			ms.empty.push(e);
			diffs.push(w - wo);
			emptyDiffs.push(e - wo);
			ownDiffs.push(w - e);
		}
		process.stdout.write(`BENCH-RESULT ${JSON.stringify({ with: ms.with, without: ms.without, empty: ms.empty, diffs, emptyDiffs, ownDiffs, cpuDiffs, ownCpuDiffs, ownMainCpuDiffs, rssDiffs, injectedLines: injected })}\n`);
	} finally {
		sb.cleanup();
		await model.close();
	}
}

main().catch((err: unknown) => {
	process.stderr.write(`pi overhead: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
	killAll();
	process.exit(1);
});
