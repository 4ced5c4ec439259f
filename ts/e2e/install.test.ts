// The pi package as a person installs it: no Go, no TinyGo, no build, no clone.
//
// `make package` writes build/out/pimem-<version>.tgz (make test-e2e runs it first).
// The first test copies that tarball out of the repository, unpacks it into the
// sandbox's ~/.local/lib/pimem and installs it with `pi install`; pi then runs with
// PATH holding only Node's folder and /usr/bin:/bin, and must inject a project's
// decisions and MEMORY.md. Then the tarball's copy is deleted and the same run must
// give the same prompt: nothing pi loads refers to the repository or the tarball.
// The second test runs `make install` into a sandbox prefix and agent dir: pi's
// settings name the installed folder, not the clone, and `pimem --version` and
// `/memory status` in pi name the same core; with no pi on PATH it leaves a `pi`
// launcher in the prefix and says how to start pi, and never replaces a pi of one's own.

import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
	REPO,
	addEvent,
	appendedPrompt,
	contentText,
	decisionLines,
	notesBlock,
	projectMemoryFile,
	runPiCommand,
	runPrint,
	seedFile,
	seedLog,
	seedSessions,
	startRpc,
	withSandbox,
	type PrintResult,
	type Sandbox,
} from "./harness.ts";

const REPO_DIR = REPO.replace(/\/+$/, "");
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_DIR, "ts", "package.json"), "utf8")) as { version: string }).version;
const TARBALL = path.join(REPO_DIR, "build", "out", `pimem-${VERSION}.tgz`);

// What a machine without the toolchains has: Node (the one running these tests,
// which is the one pi runs on) and the system's folders.
const BARE = { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` };

const DECISION = "Use PostgreSQL 16 for the primary database";
const FACT = "- Run make test before pushing";

function sha256(file: string): string {
	return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

// The line /memory status ends with and pimem --version starts with.
const ABOUT = /^pi-memory \S+ \(core sha256:[0-9a-f]{12}\)$/m;

function seedMemory(sb: Sandbox): void {
	seedLog(sb.project, [addEvent(sb.project, 1, DECISION, { tags: ["db"] })]);
	seedFile(projectMemoryFile(sb.project), `## Build\n${FACT}\n`);
}

function assertInjected(r: PrintResult, what: string): string {
	assert.equal(r.code, 0, `${what}: pi exited ${r.code}\n${r.stderr}`);
	assert.ok(r.requests.length > 0, `${what}: pi asked the model nothing\n${r.stderr}`);
	const appended = appendedPrompt(r.systemPrompt);
	assert.ok(decisionLines(appended).some((l) => l.includes(DECISION)), `${what}: the decision is not in the system prompt:\n${appended}\n${r.stderr}`);
	assert.ok(notesBlock(r.systemPrompt).includes(FACT), `${what}: MEMORY.md is not in the system prompt:\n${appended}\n${r.stderr}`);
	return appended;
}

// The packages of pi's user settings, as absolute folders (pi stores a local one
// relative to the agent dir).
function installedPackages(sb: Sandbox): { text: string; folders: string[] } {
	const text = fs.readFileSync(path.join(sb.agentDir, "settings.json"), "utf8");
	const packages = ((JSON.parse(text) as { packages?: unknown[] }).packages ?? []).map((p) => (typeof p === "string" ? p : String((p as { source: unknown }).source)));
	return { text, folders: packages.map((p) => path.resolve(sb.agentDir, p)) };
}

// Every file under dir, with no symlink anywhere (a link could lead back to the clone).
function filesUnder(dir: string): string[] {
	const out: string[] = [];
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		assert.ok(!e.isSymbolicLink(), `${p} is a symlink`);
		if (e.isDirectory()) out.push(...filesUnder(p));
		else out.push(p);
	}
	return out;
}

test("the packed tarball installs into pi with no toolchain, and works once its copy is gone", async () => {
	assert.ok(fs.existsSync(TARBALL), `${TARBALL} is missing: run make package (make test-e2e does)`);
	await withSandbox({ git: true }, async (sb) => {
		for (const tool of ["go", "tinygo"]) {
			const found = spawnSync("/bin/sh", ["-c", `command -v ${tool}`], { env: BARE, encoding: "utf8" });
			assert.notEqual(found.status, 0, `${tool} is on the bare PATH (${BARE.PATH}) at ${found.stdout}`);
		}

		// Downloaded somewhere, unpacked where it is to stay, both outside the repository.
		const download = path.join(sb.root, "download");
		fs.mkdirSync(download);
		const tgz = path.join(download, path.basename(TARBALL));
		fs.copyFileSync(TARBALL, tgz);
		const installed = path.join(sb.home, ".local", "lib", "pimem");
		fs.mkdirSync(installed, { recursive: true });
		execFileSync("tar", ["-xzf", tgz, "-C", installed, "--strip-components=1"], { env: BARE });
		assert.equal(sha256(path.join(installed, "core.wasm")), sha256(path.join(REPO_DIR, "ts", "core.wasm")), `${TARBALL} holds an older core than ts/core.wasm: run make package`);

		const inst = await runPiCommand(sb, ["install", installed], { env: BARE });
		assert.equal(inst.code, 0, `pi install ${installed}:\n${inst.stdout}\n${inst.stderr}`);
		const settings = installedPackages(sb);
		assert.deepEqual(settings.folders, [installed], settings.text);
		for (const file of filesUnder(installed)) {
			const bytes = fs.readFileSync(file);
			assert.ok(!bytes.includes(REPO_DIR), `${file} names the repository ${REPO_DIR}`);
			assert.ok(!bytes.includes(download), `${file} names the download folder`);
		}

		seedMemory(sb);
		const first = assertInjected(await runPrint(sb, "Which database do we use?", { ext: null, env: BARE }), "installed package");

		fs.rmSync(download, { recursive: true, force: true });
		const again = assertInjected(await runPrint(sb, "Which database do we use?", { ext: null, env: BARE }), "after the tarball is gone");
		assert.equal(again, first, "the same memory gives the same bytes");
		assert.ok(!installedPackages(sb).text.includes(REPO_DIR), "pi's settings name the repository");

		const status = await runPrint(sb, "/memory status", { ext: null, env: BARE });
		assert.equal(status.code, 0, status.stderr);
		assert.equal(status.stderr.match(ABOUT)?.[0], `pi-memory ${VERSION} (core sha256:${sha256(path.join(installed, "core.wasm")).slice(0, 12)})`, status.stderr);

		// A search about to read many earlier sessions moves the core to a worker thread (over
		// RPC, as in pi's terminal; pi -p asks for none), whose script the package carries as
		// JavaScript (dist/worker.js): it answers, and the adapter does not say the core
		// stayed on pi's thread.
		seedSessions(sb, 5_000, (i) => (i === 5_000 ? "we rotate the kubernetes certificates on fridays" : `session ${i}: the billing service was deployed again`));
		sb.model.enqueue({ tool: "memory_search", args: { query: "kubernetes certificates" } }, "Found it.");
		const rpc = await startRpc(sb, { ext: null, env: BARE });
		try {
			await rpc.prompt("When do we rotate the certificates?", { timeoutMs: 300_000 });
			const answer = sb.model.requests.at(-1)!.body!.messages!.filter((m) => m.role === "tool").map(contentText)[0] ?? "";
			assert.match(answer, /we rotate the kubernetes certificates on fridays/, rpc.describe());
			assert.doesNotMatch(rpc.stderr, /stays on pi's main thread|worker thread/, rpc.describe());
		} finally {
			await rpc.close();
		}
	});
});

test("make install installs the package from outside the clone; pimem --version and /memory status name the same core", async () => {
	await withSandbox({ git: true }, async (sb) => {
		// What an earlier make install left: pi loading the clone's ts/ folder itself.
		const settingsFile = path.join(sb.agentDir, "settings.json");
		const settings = JSON.parse(fs.readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
		fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, packages: [path.join(REPO_DIR, "ts")] }, null, 2));

		const prefix = path.join(sb.root, "prefix");
		// The toolchains and their caches stay the machine's (make may build pimem);
		// pi's settings, pimem's compile cache and the install are the sandbox's. No pi
		// on PATH: someone who built from the clone has only the cached one.
		const goCache = execFileSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).trim();
		const noPi = (process.env.PATH ?? "").split(":").filter((d) => d !== "" && !fs.existsSync(path.join(d, "pi"))).join(":");
		const env: NodeJS.ProcessEnv = { ...process.env, PATH: noPi, GOCACHE: goCache, XDG_CACHE_HOME: path.join(sb.root, "cache"), PI_CODING_AGENT_DIR: sb.agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" };
		delete env.PI;
		const made = spawnSync("make", ["-s", "-C", REPO_DIR, "install", `PREFIX=${prefix}`], { env, encoding: "utf8", timeout: 600_000 });
		assert.equal(made.status, 0, `make install:\n${made.stdout}\n${made.stderr}`);

		// No pi was on PATH: a launcher of the pi the install used, and the command that starts it.
		const launcher = path.join(prefix, "bin", "pi");
		assert.ok(fs.existsSync(launcher), `no ${launcher}:\n${made.stderr}`);
		const piVersion = spawnSync(launcher, ["--version"], { env: { ...BARE, HOME: sb.home, PI_CODING_AGENT_DIR: sb.agentDir, PI_OFFLINE: "1" }, encoding: "utf8" });
		assert.equal(piVersion.status, 0, piVersion.stderr);
		assert.match(piVersion.stdout + piVersion.stderr, /\d+\.\d+\.\d+/);
		assert.ok(made.stderr.includes(`start pi with: ${launcher}`), `make install says how to start pi:\n${made.stderr}`);

		const installed = path.join(prefix, "lib", "pimem");
		assert.deepEqual(installedPackages(sb).folders, [installed], "the package from the prefix, and the clone's ts/ gone");

		const version = spawnSync(path.join(prefix, "bin", "pimem"), ["--version"], { env: { ...BARE, HOME: sb.home, XDG_CACHE_HOME: path.join(sb.root, "cache") }, encoding: "utf8" });
		assert.equal(version.status, 0, version.stderr);
		const about = `pi-memory ${VERSION} (core sha256:${sha256(path.join(installed, "core.wasm")).slice(0, 12)})`;
		assert.equal(version.stdout, `${about}\nmodule: ${path.join(prefix, "bin", "core.wasm")}\n`);

		const status = await runPrint(sb, "/memory status", { ext: null, env: BARE });
		assert.equal(status.code, 0, status.stderr);
		assert.equal(status.stderr.match(ABOUT)?.[0], about, status.stderr);
	});
});

test("make install never replaces a pi of one's own, and names the pi already on PATH", async () => {
	await withSandbox({ git: true }, async (sb) => {
		const pimem = path.join(REPO_DIR, "build", "out", "pimem");
		assert.ok(fs.existsSync(TARBALL) && fs.existsSync(pimem), `${TARBALL} or ${pimem} is missing: run make package pimem`);
		const noPi = (process.env.PATH ?? "").split(":").filter((d) => d !== "" && !fs.existsSync(path.join(d, "pi"))).join(":");
		const env: NodeJS.ProcessEnv = { ...process.env, PATH: noPi, PI_CODING_AGENT_DIR: sb.agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" };
		delete env.PI;
		const install = (prefix: string, extra: NodeJS.ProcessEnv = {}) =>
			spawnSync(path.join(REPO_DIR, "build", "install.sh"), [TARBALL, pimem, prefix], { env: { ...env, ...extra }, encoding: "utf8", timeout: 300_000 });

		// A pi of one's own in the prefix's bin: left byte for byte.
		const own = path.join(sb.root, "own");
		const mine = "#!/bin/sh\necho my own pi\n";
		seedFile(path.join(own, "bin", "pi"), mine);
		fs.chmodSync(path.join(own, "bin", "pi"), 0o755);
		const kept = install(own);
		assert.equal(kept.status, 0, kept.stderr);
		assert.equal(fs.readFileSync(path.join(own, "bin", "pi"), "utf8"), mine);
		assert.match(kept.stderr, /left .*\/own\/bin\/pi as it is/);

		// A pi on PATH: no launcher, and "pi" starts it.
		const elsewhere = path.join(sb.root, "elsewhere");
		seedFile(path.join(elsewhere, "pi"), mine);
		fs.chmodSync(path.join(elsewhere, "pi"), 0o755);
		const onPath = path.join(sb.root, "onpath");
		const named = install(onPath, { PATH: `${elsewhere}:${noPi}` });
		assert.equal(named.status, 0, named.stderr);
		assert.ok(!fs.existsSync(path.join(onPath, "bin", "pi")), "no launcher beside a pi on PATH");
		assert.match(named.stderr, /start pi with: pi\b/);
	});
});
