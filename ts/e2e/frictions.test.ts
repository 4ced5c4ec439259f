// The small frictions a new user met, in the real pi: `pi -p --no-memory "prompt"`
// (pi takes the prompt as the flag's value) is explained rather than silent; an
// unknown subcommand is one line naming the nearest; `--help` after a subcommand
// shows that subcommand; the seeds' /om-* and /obs-* short forms work without being
// in pi's command list; an observerModel pi cannot use is warned of when the
// configuration is read, and /om status says so.

import assert from "node:assert/strict";
import path from "node:path";
import { it } from "node:test";
import { runPrint, seedFile, startRpc, withSandbox } from "./harness.ts";

it("pi -p --no-memory \"prompt\" says why nothing was sent", async () => {
	await withSandbox({}, async (sb) => {
		const r = await runPrint(sb, "what do we use?", { tail: ["-p", "--no-memory", "what do we use?"] });
		assert.equal(r.requests.length, 0, "pi sends nothing: the prompt became the flag's value");
		assert.match(r.stderr, /pi took "what do we use\?" as the value of --no-memory/);
		assert.match(r.stderr, /pi --no-memory -p "what do we use\?"/);
		const ok = await runPrint(sb, "what do we use?", { tail: ["--no-memory", "-p", "what do we use?"] });
		assert.equal(ok.requests.length, 1);
		assert.doesNotMatch(ok.stderr, /as the value of --no-memory/);
	});
});

it("unknown subcommands, --help and the short forms", async () => {
	await withSandbox({}, async (sb) => {
		const rpc = await startRpc(sb);
		try {
			const typo = await rpc.command("/decision lsit");
			assert.deepEqual(typo.notes, ['Unknown /decision command "lsit". Did you mean /decision list? /decision help lists them.']);
			const help = await rpc.command("/decision add --help");
			assert.match(help.notes.join("\n"), /^Usage: \/decision add /);
			assert.ok(help.notes.join("\n").split("\n").length < 12, help.notes.join("\n"));

			const got = await rpc.request({ type: "get_commands" });
			const names = (got.data as { commands: Array<{ name: string; description?: string }> }).commands.map((c) => c.name);
			assert.ok(names.includes("om") && names.includes("decisions"), names.join(" "));
			assert.ok(!names.some((n) => n.startsWith("om-") || n.startsWith("obs-")), `the short forms stay out of pi's list: ${names.join(" ")}`);

			const before = sb.model.requests.length;
			const status = await rpc.prompt("/om-status");
			assert.match(status.notes.join("\n"), /^Observational memory: /m);
			const viaObs = await rpc.prompt("/obs-memory-status");
			assert.match(viaObs.notes.join("\n"), /^Observational memory: /m);
			assert.equal(sb.model.requests.length, before, "a short form never reaches the model");
		} finally {
			await rpc.close();
		}
	});
});

it("an observerModel pi does not know is warned of when the configuration is read, and /om status says so", async () => {
	await withSandbox({}, async (sb) => {
		seedFile(path.join(sb.project, ".pi", "om-config.json"), JSON.stringify({ observerModel: "nope/no-such-model" }));
		const r = await runPrint(sb, "hello");
		assert.equal(r.code, 0, r.stderr);
		assert.match(r.stderr, /observerModel "nope\/no-such-model" is not a model pi can use here/);
		assert.match(r.stderr, /pi --list-models/);

		const rpc = await startRpc(sb);
		try {
			const status = (await rpc.command("/om status")).notes.join("\n");
			assert.match(status, /observer model: nope\/no-such-model \(not a model pi can use here; see Config below\)/, status);
			assert.match(status, /^Config: .*om-config\.json: observerModel "nope\/no-such-model" is not a model pi can use here/m, status);
		} finally {
			await rpc.close();
		}

		// The sandbox's own model is one pi can use: nothing is said.
		seedFile(path.join(sb.project, ".pi", "om-config.json"), JSON.stringify({ observerModel: "fake/fake-model" }));
		const fine = await runPrint(sb, "hello");
		assert.equal(fine.code, 0, fine.stderr);
		assert.doesNotMatch(fine.stderr, /observerModel/);
	});
});
