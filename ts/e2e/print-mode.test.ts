// Scenario: /decision in pi's print mode (`pi -p "/decision …"`), where pi has no
// UI. What the command prints reaches stderr (pi keeps stdout for the model's
// answer), a near-duplicate is refused without guessing (exit 1, the verdict and
// the flag that proceeds), and the flag then does what it says. No model call.

import assert from "node:assert/strict";
import { it } from "node:test";
import { readEvents, runPrint, withSandbox } from "./harness.ts";

it("in print mode /decision prints on stderr, refuses a near-duplicate with exit 1 and takes --force", async () => {
	await withSandbox({}, async (sb) => {
		const add = await runPrint(sb, "/decision add Use pnpm for package management --tag tooling");
		assert.equal(add.code, 0, add.stderr);
		assert.match(add.stderr, /Added D-\d{4}-\d{2}-\d{2}-\d{4}/);
		assert.equal(add.stdout, "");
		assert.equal(add.requests.length, 0, "a command calls no model");
		const [first] = readEvents(sb.project);
		assert.equal(first?.d?.tx, "Use pnpm for package management");

		const dup = await runPrint(sb, "/decision add We use pnpm for package management");
		assert.equal(dup.code, 1, `a refused add exits 1\n${dup.stderr}`);
		assert.match(dup.stderr, new RegExp(`duplicate of ${first.i}`));
		assert.match(dup.stderr, /--force/);
		assert.equal(readEvents(sb.project).length, 1, "nothing written");

		const forced = await runPrint(sb, "/decision add We use pnpm for package management --force");
		assert.equal(forced.code, 0, forced.stderr);
		assert.equal(readEvents(sb.project).length, 2);

		const list = await runPrint(sb, "/decision list");
		assert.equal(list.code, 0, list.stderr);
		assert.match(list.stderr, /2 active decisions/);
		assert.match(list.stderr, new RegExp(`${first.i} \\| active \\| Use pnpm for package management \\| #tooling`));
	});
});
