// Scenario 5: `/decision purge` previews without writing (dialog answered no
// over RPC; no --yes in print mode) and, once confirmed (dialog answered yes
// over RPC, or --yes), appends rm events only for non-active decisions older
// than their retention (defaults: draft 30, rejected 90, superseded 180 days).
// Active decisions are kept however old; the log stays append-only.

import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { addEvent, daysAgo, decisionLog, runPrint, seedLog, startRpc, withSandbox } from "./harness.ts";
import type { DecisionEvent, Sandbox, UiRequest } from "./harness.ts";

interface Seeded {
	file: string;
	original: string;
	purgeable: string[];
	kept: string[];
}

function seed(sb: Sandbox): Seeded {
	const oldActive = addEvent(sb.project, 1, "Use PostgreSQL 16 as the primary datastore", { t: daysAgo(400) });
	const oldDraft = addEvent(sb.project, 2, "Maybe adopt GraphQL for the public API", { t: daysAgo(400), status: "draft" });
	const oldRejected = addEvent(sb.project, 3, "Rewrite the backend in Haskell", { t: daysAgo(200), status: "rejected" });
	const youngDraft = addEvent(sb.project, 4, "Consider Tailwind for the admin styles", { t: daysAgo(5), status: "draft" });
	const youngRejected = addEvent(sb.project, 5, "Vendor every npm dependency", { t: daysAgo(60), status: "rejected" });
	const file = seedLog(sb.project, [oldActive, oldDraft, oldRejected, youngDraft, youngRejected]);
	return {
		file,
		original: fs.readFileSync(file, "utf8"),
		purgeable: [oldDraft.i, oldRejected.i],
		kept: [oldActive.i, youngDraft.i, youngRejected.i],
	};
}

function appended(s: Seeded): DecisionEvent[] {
	const now = fs.readFileSync(s.file, "utf8");
	assert.ok(now.startsWith(s.original), "append-only: the seeded lines are a byte prefix of the log");
	return now
		.slice(s.original.length)
		.split("\n")
		.filter((l) => l !== "")
		.map((l) => JSON.parse(l) as DecisionEvent);
}

function assertPurged(s: Seeded): void {
	const evs = appended(s);
	assert.ok(evs.length > 0, "something was appended");
	for (const e of evs) assert.equal(e.e, "rm", `only rm events are appended: ${JSON.stringify(e)}`);
	assert.deepEqual(evs.map((e) => e.i).sort(), [...s.purgeable].sort(), "rm exactly the non-active decisions past retention");
	for (const id of s.kept) assert.ok(!evs.some((e) => e.i === id), `${id} is kept`);
}

const textOf = (d: UiRequest) => `${d.title ?? ""}\n${d.message ?? ""}`;

describe("/decision purge", () => {
	it("preview over RPC (dialog answered no) lists the candidates and writes nothing", async () => {
		await withSandbox({}, async (sb) => {
			const s = seed(sb);
			const rpc = await startRpc(sb);
			try {
				const res = await rpc.commandWithDialogs("/decision purge", () => false);
				const shown = [...res.notes, ...res.dialogs.map(textOf)].join("\n");
				for (const id of s.purgeable) assert.ok(shown.includes(id), `the preview names ${id}:\n${shown}`);
			} finally {
				await rpc.close();
			}
			assert.equal(fs.readFileSync(decisionLog(sb.project), "utf8"), s.original, "nothing written");
		});
	});

	it("preview in print mode (no UI, no --yes) writes nothing", async () => {
		await withSandbox({}, async (sb) => {
			const s = seed(sb);
			const r = await runPrint(sb, "/decision purge");
			assert.equal(r.code, 0, r.stderr);
			assert.equal(r.requests.length, 0, "a command never reaches the model");
			assert.equal(fs.readFileSync(s.file, "utf8"), s.original, "nothing written");
		});
	});

	it("confirmed over RPC (dialog answered yes) appends rm events for expired non-active decisions only", async () => {
		await withSandbox({}, async (sb) => {
			const s = seed(sb);
			const rpc = await startRpc(sb);
			try {
				const res = await rpc.commandWithDialogs("/decision purge", () => true);
				assert.ok(res.dialogs.length >= 1, "purge asked for confirmation");
			} finally {
				await rpc.close();
			}
			assertPurged(s);
		});
	});

	it("confirmed with --yes in print mode appends the same rm events", async () => {
		await withSandbox({}, async (sb) => {
			const s = seed(sb);
			const r = await runPrint(sb, "/decision purge --yes");
			assert.equal(r.code, 0, r.stderr);
			assertPurged(s);
		});
	});
});
