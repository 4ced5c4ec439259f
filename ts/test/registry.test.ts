// One command registry, owned by the core: what pi registers (from ts/registry.json,
// written at build time), what the core's registry export says, and what `/… help`
// prints must be the same list. Checked against the real core in both builds, never
// against a probe module. (pimem --help is held to the same export in
// host/cmd/pimem/main_test.go.)

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Core, type Envelope } from "../core.ts";
import type { Registry } from "../index.ts";
import { FakePi } from "./fake-pi.ts";

const BUILDS = [
	{ name: "TinyGo", file: new URL("../core.wasm", import.meta.url) },
	{ name: "Go", file: new URL("../../build/out/core-go.wasm", import.meta.url) },
];

interface FullRegistry extends Registry {
	version: string;
	commands: Array<Registry["commands"][number] & { subcommands: Array<{ name: string; aliases: string[]; usage: string; help: string }> }>;
}

function outputOf(env: Envelope): string {
	const out = env.effects.find((e) => e.t === "output");
	assert.ok(out !== undefined && out.t === "output", JSON.stringify(env));
	return out.text;
}

// Imported after fake-pi.ts has registered its module hook (index.ts imports pi).
const { readRegistry } = (await import(new URL("../index.ts?registry", import.meta.url).href)) as typeof import("../index.ts");
const shipped = readRegistry() as FullRegistry;
assert.deepEqual(shipped, JSON.parse(fs.readFileSync(new URL("../registry.json", import.meta.url), "utf8")));

test("the package's version is the core's release", () => {
	const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
	const { version } = shipped;
	assert.equal(pkg.version, version, "ts/package.json and wasm/registry.Release must say the same version; change both");
});

for (const build of BUILDS) {
	test(`${build.name}: ts/registry.json is exactly what the core's registry export returns`, async () => {
		const core = new Core(build.file);
		try {
			const fromCore: unknown = JSON.parse(outputOf(await core.call("registry", {})));
			assert.deepEqual(shipped, fromCore, "ts/registry.json is stale: run make wasm");
		} finally {
			await core.close();
		}
	});

	test(`${build.name}: /… help of every command lists every subcommand of the registry`, async () => {
		const core = new Core(build.file);
		try {
			await core.call("session_start", { cwd: "/nonexistent-pimem-project", agentDir: "/nonexistent-pimem-agent", trusted: false, hasUI: false, mode: "print", reason: "startup", flags: {} });
			for (const c of shipped.commands) {
				for (const name of [c.name, ...c.aliases]) {
					const help = outputOf(await core.call("command", { name, args: "help" }));
					// Help wraps at 80 columns: compare the words, however they are cut into lines.
					const folded = fold(help);
					for (const s of c.subcommands) {
						assert.ok(folded.includes(fold(s.usage.replace(`/${c.name} `, ""))), `/${name} help lacks ${s.usage}:\n${help}`);
						assert.ok(folded.includes(fold(s.help)), `/${name} help lacks the help of ${s.name}`);
					}
					for (const line of help.split("\n")) assert.ok(line.length <= 80, `/${name} help: a line of ${line.length} columns: ${line}`);
				}
			}
		} finally {
			await core.close();
		}
	});
}

test("pi registers exactly the registry's commands, aliases, flags and tools (inactive)", async () => {
	const mod = (await import(new URL("../index.ts?registry", import.meta.url).href)) as { default: (pi: ExtensionAPI) => void };
	const pi = new FakePi();
	mod.default(pi.api);
	// The short forms (/om-status) are typed through pi's input event, not registered.
	const short = (c: (typeof shipped.commands)[number]) => new Set((c.implied ?? []).map((i) => i.name));
	const want = shipped.commands.flatMap((c) => [c.name, ...c.aliases.filter((a) => !short(c).has(a))]);
	assert.deepEqual([...pi.commands.keys()], want);
	for (const c of shipped.commands) {
		assert.equal(pi.commands.get(c.name)?.description, c.description);
		for (const a of c.aliases.filter((a) => !short(c).has(a))) assert.equal(pi.commands.get(a)?.description, `Alias of /${c.name}`);
	}
	assert.deepEqual(
		[...pi.flags.entries()].map(([name, f]) => ({ name, type: f.type, description: f.description })),
		shipped.flags.map((f) => ({ name: f.name, type: f.type, description: f.description })),
	);
	assert.deepEqual(
		[...pi.tools.values()].map((t) => ({ name: t.name, label: t.label, description: t.description, parameters: t.parameters, defaultActive: t.defaultActive })),
		shipped.tools.map((t) => ({ ...t, defaultActive: false })),
	);
});

function fold(s: string): string {
	return s.split(/\s+/).filter((w) => w !== "").join(" ");
}
