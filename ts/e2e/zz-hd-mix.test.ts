import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { promisify } from "node:util";
import { startRpc, withSandbox } from "./harness.ts";
import type { Rpc } from "./harness.ts";

const run = promisify(execFile);
const PIMEM = path.resolve("build/out/pimem");

it("pi + pimem remembering and forgetting at once", async (t) => {
	await withSandbox({ git: true }, async (sb) => {
		const a = await startRpc(sb);
		const b = await startRpc(sb);
		const ok = new Set<string>();
		const forgot = new Set<string>();
		const viaPi = async (rpc: Rpc, k: number) => {
			for (let i = 0; i < 12; i++) {
				const txt = `pi${k} n${i} numbat`;
				const r = await rpc.command(`/memory remember project ${txt}`);
				const said = r.notes.map((n) => n.message ?? "").join(" ") + JSON.stringify(r.records.slice(-3));
				if (said.includes("Remembered")) ok.add(txt);
				if (i % 4 === 3) {
					const f = `pi${k} n${i - 2} numbat`;
					const r2 = await rpc.command(`/memory forget ${f}`);
					if (JSON.stringify(r2.records).includes("Forgot")) forgot.add(f);
				}
			}
		};
		const viaCli = async (k: number) => {
			for (let i = 0; i < 12; i++) {
				const txt = `cli${k} n${i} numbat`;
				try {
					const r = await run(PIMEM, ["--project", sb.project, "--agent-dir", sb.agentDir, "memory", "remember", "project", txt], { env: sb.env });
					if (r.stdout.includes("Remembered")) ok.add(txt);
				} catch (e) {
					t.diagnostic(`cli failed: ${String(e).slice(0, 300)}`);
				}
			}
		};
		try {
			await Promise.all([viaPi(a, 1), viaPi(b, 2), viaCli(1), viaCli(2)]);
		} finally {
			await Promise.all([a.close(), b.close()]);
		}
		const data = fs.readFileSync(path.join(sb.project, ".pi/memory/MEMORY.md"), "utf8");
		const lost = [...ok].filter((x) => !data.includes(x) && !forgot.has(x));
		const stay = [...forgot].filter((x) => data.includes(x));
		t.diagnostic(`ok ${ok.size} forgot ${forgot.size} present ${data.split("numbat").length - 1} lost ${lost.length} stayed ${stay.length} dir ${fs.readdirSync(path.join(sb.project, ".pi/memory")).join(",")}`);
		assert.deepEqual(lost, []);
		assert.deepEqual(stay, []);
	});
});
