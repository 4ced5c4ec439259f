// The conformance fixtures (testdata/conformance, format in its README) on both builds
// of the core through core.ts, as pi's Node process runs it. The Go runners read the
// same fixtures natively (wasm/lifecycle) and on wazero (host); all must agree.

import test from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Core, type ExportName } from "../core.ts";
import { BUILDS, REPO, assertCurrent } from "./builds.ts";

const FIXTURES = path.join(REPO, "testdata", "conformance");

interface Case {
	description: string;
	now: string;
	files: Record<string, FileSpec>;
	check: string[];
	steps: { export: ExportName; input: unknown; pin?: string[]; write?: Record<string, FileSpec | null> }[];
}

/** A file a case writes: the bytes of a file in its folder, literal text, or a link. */
interface FileSpec {
	from?: string;
	text?: string;
	symlink?: string;
}

/**
 * What host/conformance.Reduce does: of each effect, "t" and the pinned fields; a state
 * effect left out unless "state" is pinned.
 */
function reduce(env: unknown, pin: string[] | undefined): unknown {
	if (typeof env !== "object" || env === null || !("effects" in env) || !Array.isArray(env.effects)) return env;
	const e = env as { v: number; effects: Array<Record<string, unknown>>; exit: number };
	const pins = pin ?? [];
	const effects = e.effects.filter((eff) => eff.t !== "state" || pins.includes("state"));
	return {
		v: e.v,
		effects: pins.length === 0 ? effects : effects.map((eff) => Object.fromEntries(Object.entries(eff).filter(([k]) => k === "t" || pins.includes(k)))),
		exit: e.exit,
	};
}

interface Expected {
	envelopes: unknown[];
	files: Record<string, string | null>;
	tree: string[];
}

function readJSON<T>(file: string): T {
	return JSON.parse(fs.readFileSync(file, "utf8")) as T;
}

/** A fresh temp root: project/ (a git work tree) and agent/, with the case's files. */
function prepare(dir: string, c: Case): { root: string; project: string; agent: string; projectId: string } {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), "pimem-conformance-"));
	const project = path.join(root, "project");
	const agent = path.join(root, "agent");
	fs.mkdirSync(path.join(project, ".git"), { recursive: true });
	fs.mkdirSync(agent);
	// The id docs/formats.md defines, computed here so the fixtures pin it.
	const projectId = createHash("sha1").update(project).digest("hex").slice(0, 16);
	// In key order, as the Go runners do: a link may point at a file written before it.
	for (const rel of Object.keys(c.files).sort()) write(dir, root, projectId, rel, c.files[rel]);
	return { root, project, agent, projectId };
}

/** One file of a case, relative to root ($PROJECT_ID replaced); null removes it. */
function write(dir: string, root: string, projectId: string, rel: string, spec: FileSpec | null | undefined): void {
	if (spec === undefined) return;
	const file = path.join(root, rel.replaceAll("$PROJECT_ID", projectId));
	if (spec === null) {
		fs.rmSync(file);
		return;
	}
	fs.mkdirSync(path.dirname(file), { recursive: true });
	if (spec.symlink !== undefined) fs.symlinkSync(path.join(root, spec.symlink), file);
	else fs.writeFileSync(file, spec.from !== undefined ? fs.readFileSync(path.join(dir, spec.from)) : (spec.text ?? ""));
}

/** Every path under root, sorted, folders ending in "/". */
function tree(root: string, rel = ""): string[] {
	const out: string[] = [];
	for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
		const p = rel === "" ? e.name : `${rel}/${e.name}`;
		if (e.isDirectory()) out.push(`${p}/`, ...tree(root, p));
		else out.push(p);
	}
	return out.sort();
}

// JSON text of s as it appears inside a JSON string.
const inJSON = (s: string): string => JSON.stringify(s).slice(1, -1);

const cases = fs
	.readdirSync(FIXTURES, { withFileTypes: true })
	.filter((e) => e.isDirectory())
	.map((e) => e.name)
	.sort();

for (const build of BUILDS) {
	for (const name of cases) {
		const dir = path.join(FIXTURES, name);
		const c = readJSON<Case>(path.join(dir, "case.json"));
		test(`${build.name}: ${name}`, async (t) => {
			assertCurrent(build.file);
			const want = readJSON<Expected>(path.join(dir, "expected.json"));
			const s = prepare(dir, c);
			t.after(() => fs.rmSync(s.root, { recursive: true, force: true }));
			const now = Date.parse(c.now);
			const core = new Core(build.file, {
				now: () => now,
				random: (dst) => dst.forEach((_, i) => (dst[i] = i & 255)),
			});
			// Real paths and the project id back to their placeholders, in JSON text or file content.
			const placeholders: [string, string][] = [
				[s.project, "$PROJECT"],
				[s.agent, "$AGENT"],
				[s.projectId, "$PROJECT_ID"],
				[s.root, "$ROOT"],
			];
			const abstract = (text: string): string =>
				placeholders.reduce((acc, [real, placeholder]) => acc.replaceAll(inJSON(real), placeholder).replaceAll(real, placeholder), text);
			try {
				for (const [i, step] of c.steps.entries()) {
					// Changes made mid-session, as the Go runners make them: in key order, before the export.
					for (const rel of Object.keys(step.write ?? {}).sort()) write(dir, s.root, s.projectId, rel, step.write?.[rel]);
					const input = JSON.parse(
						JSON.stringify(step.input ?? {}).replaceAll("$PROJECT", inJSON(s.project)).replaceAll("$AGENT", inJSON(s.agent)).replaceAll("$ROOT", inJSON(s.root)),
					) as unknown;
					const env = await core.call(step.export, input);
					assert.deepStrictEqual(reduce(JSON.parse(abstract(JSON.stringify(env))), step.pin), want.envelopes[i], `step ${i + 1} (${step.export} ${JSON.stringify(step.input)})`);
				}
			} finally {
				await core.close();
			}
			assert.equal(c.steps.length, want.envelopes.length, "number of envelopes");
			assert.deepStrictEqual(Object.keys(want.files).sort(), [...c.check].sort(), "expected.json files = case.json check");
			for (const rel of c.check) {
				const file = path.join(s.root, rel.replaceAll("$PROJECT_ID", s.projectId));
				const got = fs.existsSync(file) ? abstract(fs.readFileSync(file, "utf8")) : null;
				assert.equal(got, want.files[rel], `file ${rel}`);
			}
			// Derived files in the agent dir are named by the project id.
			const got = tree(s.root).map((p) => p.split(s.projectId).join("$PROJECT_ID")).sort();
			assert.deepStrictEqual(got, want.tree, "tree");
		});
	}
}
