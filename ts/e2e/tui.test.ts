// pi-memory where people use it: the real pi's interactive terminal, at 80x30 (60
// columns in one test), with the release tarball installed as the README says (no -e),
// keys typed and the screen read (tui.ts). Every step checks that no trap or stack
// trace reached the screen and that the footer says what memory holds.

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO, addEvent, decisionLog, readEvents, readLines, requestWithUser, seedLog, seedSessions, sessionFolder, systemPromptOf, toolsOf, withSandbox, type Reply, type Sandbox } from "./harness.ts";
import { NEVER_ON_SCREEN, Tui, countOf, installRelease, type TuiOptions } from "./tui.ts";

const PG = "Use PostgreSQL 16 for the primary database";

// Runs f with pi started in its terminal, the release installed, and the fake model
// answering "OK, noted." unless a route says otherwise; checks at the end that no trap
// reached the screen. The terminal and pi are ended whatever happens.
async function inPi(f: (tui: Tui, sb: Sandbox) => Promise<void>, opts: TuiOptions & { seed?: (sb: Sandbox) => void; routes?: Record<string, Reply>; trust?: "always" | "never" | "ask" } = {}): Promise<void> {
	await withSandbox({ git: true, trust: opts.trust }, async (sb) => {
		sb.model.defaultReply = "OK, noted.";
		const routes = opts.routes ?? {};
		sb.model.route = (body) => {
			const last = body?.messages?.at(-1);
			if (last?.role !== "user") return undefined;
			const text = JSON.stringify(last.content ?? "");
			for (const [marker, reply] of Object.entries(routes)) if (text.includes(marker)) return reply;
			return undefined;
		};
		installRelease(sb);
		opts.seed?.(sb);
		const tui = await Tui.start(sb, opts);
		try {
			await f(tui, sb);
			clean(tui);
		} catch (err) {
			throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- pi's terminal:\n${tui.screen()}`, { cause: err });
		} finally {
			await tui.close();
		}
	});
}

// No trap, no stack trace, nothing of ours breaking the contract, on any screen read.
function clean(tui: Tui): void {
	tui.screen();
	const seen = tui.seen();
	const bad = NEVER_ON_SCREEN.exec(seen);
	assert.equal(bad, null, `on pi's screen: ${bad?.[0]}`);
}

// The help texts of a command's subcommands, as the registry has them (ts/registry.json).
function helpTexts(command: string): string {
	const registry = JSON.parse(fs.readFileSync(path.join(REPO, "ts", "registry.json"), "utf8")) as { commands: Array<{ name: string; subcommands?: Array<{ help: string; usage: string }> }> };
	return (registry.commands.find((c) => c.name === command)?.subcommands ?? []).map((sub) => `${sub.usage} ${sub.help}`).join(" ");
}

async function prompt(tui: Tui, sb: Sandbox, text: string): Promise<void> {
	const before = sb.model.chats().length;
	await tui.submit(text);
	await tui.waitFor(() => sb.model.chats().length > before, `the model to be asked "${text}"`);
	await tui.waitFor((s) => !/Working\.\.\./.test(s), "the turn to end");
	await tui.settle();
}

async function footerIs(tui: Tui, want: string | RegExp): Promise<void> {
	await tui.waitFor(() => (typeof want === "string" ? tui.footer() === want : want.test(tui.footer())), `the footer to be ${String(want)} (it is "${tui.footer()}")`);
	clean(tui);
}

// Types text, waits for the completion menu, returns the screen; the text is then erased.
async function menuFor(tui: Tui, text: string, expect: RegExp): Promise<string> {
	tui.type(text);
	const s = await tui.waitFor(expect, `completions of "${text}"`);
	clean(tui);
	tui.key("Escape");
	for (let i = 0; i < [...text].length; i++) tui.key("BSpace");
	await tui.waitFor((screen) => !screen.includes(text.trim()), "the editor to be empty again");
	return s;
}

// The editor's line: the row between pi's two rules that holds what was typed.
function editorLine(tui: Tui, typed: string): string {
	return tui.rowsNow().find((r) => r.startsWith(typed)) ?? "";
}

test("the first minutes at 80 columns: completion completes, the footer follows every step, output stays, no stack trace", async () => {
	await inPi(async (tui, sb) => {
		await footerIs(tui, "decisions 0");

		// Subcommands as you type, and Tab completes one.
		await menuFor(tui, "/memory ", /→ status[\s\S]*remember/);
		tui.type("/memory la");
		await tui.waitFor(/→ last/, "last offered");
		tui.key("Tab");
		await tui.waitFor(() => editorLine(tui, "/memory last") !== "", "Tab to complete /memory last");
		for (let i = 0; i < "/memory last ".length; i++) tui.key("BSpace");
		await tui.settle();

		await tui.command(`/decision add ${PG}`);
		await footerIs(tui, "decisions 1");
		const [added] = readEvents(sb.project);
		assert.ok(added !== undefined && added.d?.tx === PG, decisionLog(sb.project));

		// Ids complete: typed from the start, and by Tab.
		await menuFor(tui, "/decision show ", new RegExp(`→ ${added.i}`));
		tui.type("/decision show ");
		await tui.waitFor(new RegExp(`→ ${added.i}`), "the id offered");
		tui.key("Tab");
		await tui.waitFor(() => editorLine(tui, `/decision show ${added.i}`) !== "", "Tab to complete the id");
		tui.key("Enter");
		await tui.waitFor(/text: Use PostgreSQL 16/, "/decision show's output");
		await tui.settle();

		// Choices of a synopsis.
		await menuFor(tui, "/om mode ", /→ buffered[\s\S]*blocking|→ blocking[\s\S]*buffered/);

		await tui.command("/memory remember the staging server is staging.example.com");
		await footerIs(tui, /^decisions 1 · notes 1\b/);
		await tui.command("/memory remember global I prefer tabs over spaces");
		await footerIs(tui, /^decisions 1 · notes 2\b/);
		// The first personal note asks to keep the file out of git.
		await tui.submit("/memory remember local my scratch database is on port 5433");
		await tui.waitFor(/Keep personal notes out of git\?/, "the .gitignore dialog");
		clean(tui);
		tui.key("Enter");
		await tui.waitFor(/Added \/\.pi\/memory\/MEMORY\.local\.md to/, "the .gitignore line added");
		await footerIs(tui, /^decisions 1 · notes 3\b/);
		await tui.command("/decision add Run database migrations with Flyway from CI");
		await footerIs(tui, /^decisions 2 · notes 3\b/);
		await tui.command("/om observe", /Nothing new to observe/);
		await footerIs(tui, /^decisions 2 · notes 3\b/);

		// A prompt: the command output above stays, the footer too.
		await prompt(tui, sb, "hello there");
		await tui.waitFor(/OK, noted\./, "the model's reply");
		assert.match(tui.screen(), /Added D-\d{4}-\d\d-\d\d-0002: Run database migrations/, "the command's output is still on screen after the next prompt");
		await footerIs(tui, /^decisions 2 · notes 3\b/);

		// /memory last right after a model turn: longer than the screen, read by scrolling up.
		const last = await tui.command("/memory last", /--- observations \(in the newest request\)/);
		assert.match(last, /--- decisions: \d+ bytes[\s\S]*Run database migrations/);
		await tui.scrollUpTo(/The previous turn appended \d+ bytes/, "the head of /memory last");
		tui.key("C-End");
		await tui.waitFor(/--- observations \(in the newest request\)/, "the view back at the bottom");

		// Forget, then restore.
		await tui.command("/memory forget staging server", /Forgot/);
		await footerIs(tui, /^decisions 2 · notes 2\b/);
		await tui.command("/memory restore", /Restored/);
		await footerIs(tui, /^decisions 2 · notes 3\b/);
		assert.match(fs.readFileSync(path.join(sb.project, ".pi", "memory", "MEMORY.md"), "utf8"), /staging\.example\.com/);

		// Off: nothing written, no tools for the model; on: they are back.
		await tui.command("/memory off");
		await footerIs(tui, "memory off (/memory off)");
		const log = fs.readFileSync(decisionLog(sb.project), "utf8");
		await tui.command("/decision add Use black for Python formatting", /Memory is off for this session/);
		assert.equal(fs.readFileSync(decisionLog(sb.project), "utf8"), log, "off means off");
		await prompt(tui, sb, "first while off");
		assert.deepEqual(toolsOf(requestWithUser(sb.model, "first while off")).filter((n) => /^(memory|decision)_/.test(n)), []);
		await tui.command("/memory on");
		await footerIs(tui, /^decisions 2 · notes 3\b/);
		await prompt(tui, sb, "back on");
		assert.ok(toolsOf(requestWithUser(sb.model, "back on")).includes("decision_propose"), "the tools are back");
		assert.ok(toolsOf(requestWithUser(sb.model, "back on")).includes("memory_search"));
	});
});

test("each dialog in the terminal: a proposal accepted and declined (and not asked again), a conflict, a reset", async () => {
	await inPi(
		async (tui, sb) => {
			// Accepted: Enter on the highlighted Yes.
			await tui.submit("PROPOSE-BLACK record it");
			await tui.waitFor(/Record a decision\?[\s\S]*Use black for Python formatting/, "the proposal's dialog");
			clean(tui);
			tui.key("Enter");
			await tui.waitFor(/OK, noted\./, "the reply after the tool");
			await footerIs(tui, "decisions 1");
			assert.equal(readEvents(sb.project).at(-1)?.d?.tx, "Use black for Python formatting");

			// Declined; the same turn's "Decision:" line is not put to the person again.
			await tui.submit("Decision: use ruff for Python linting. PROPOSE-RUFF");
			await tui.waitFor(/Record a decision\?[\s\S]*Use ruff for Python linting/, "the second proposal");
			tui.key("Down");
			await tui.waitFor(/→ No/, "No highlighted");
			tui.key("Enter");
			await tui.waitFor(/The user declined/, "the tool's answer");
			await tui.waitFor(/OK, noted\.[\s\S]*OK, noted\./, "the reply");
			await tui.settle(1000);
			assert.doesNotMatch(tui.screen(), /Save as a project decision\?/, "a declined proposal is not asked again");
			await footerIs(tui, "decisions 1");

			// A conflict: a select; keep both.
			await tui.submit(`/decision add ${PG}`);
			await tui.settle();
			await tui.submit("/decision add Use MySQL for the primary database");
			await tui.waitFor(/conflicts with D-[\s\S]*Keep both and mark the conflict/, "the conflict dialog");
			clean(tui);
			tui.key("Down");
			await tui.waitFor(/→ Keep both/, "keep both highlighted");
			tui.key("Enter");
			await footerIs(tui, /^decisions 3, 1 conflict/);

			// A reset: it starts on the choice that keeps everything.
			await tui.submit("/decision reset");
			await tui.waitFor(/→ .*(Keep|Cancel|No)/i, "the reset dialog, on the safe choice");
			clean(tui);
			tui.key("Enter");
			await tui.waitFor(/Cancelled; nothing was written/, "the reset cancelled");
			await footerIs(tui, /^decisions 3/);
			await tui.submit("/decision reset");
			await tui.waitFor(/→ .*(Keep|Cancel|No)/i, "the reset dialog again");
			tui.key("Down");
			tui.key("Enter");
			await footerIs(tui, "decisions 0");
		},
		{
			routes: {
				"PROPOSE-BLACK": { tool: "decision_propose", args: { text: "Use black for Python formatting" } },
				"PROPOSE-RUFF": { tool: "decision_propose", args: { text: "Use ruff for Python linting" } },
			},
		},
	);
});

// Issue 25, item 16: text written into memory by hand (a decision, a note) holding an
// OSC 52 clipboard write, a title change and a right-to-left override is shown as data
// wherever the terminal draws it: a list, a completion's description, a search, the
// model's tool result. The terminal's clipboard and title stay as they were.
test("text that is not data never acts on the terminal: the clipboard and the title stay", async () => {
	const hostile = `\x1b]52;c;${Buffer.from("PWNED-CLIP").toString("base64")}\x07\x1b]2;PWNED-TITLE\x07\u202e`;
	await inPi(
		async (tui, sb) => {
			await tui.command("/decision list");
			// The completion menu draws each id's description (the decision's text).
			tui.type("/decision show ");
			await tui.waitFor(/→ D-\S+-0001.*Deploy from the release branch/, "the id offered with its text");
			tui.key("Tab");
			await tui.waitFor(() => editorLine(tui, "/decision show D-") !== "", "Tab to complete the id");
			tui.key("Enter");
			await tui.waitFor(/text: Deploy from the release branch only/, "/decision show's output");
			await tui.settle();
			await tui.command("/memory search staging", /staging\.example\.com/);
			await prompt(tui, sb, "SEARCH-DEPLOY where do we deploy");
			await tui.waitFor(/staging\.example\.com[\s\S]*OK, noted\./, "the tool's result and the reply");
			await tui.settle();
			assert.doesNotMatch(tui.clipboard(), /PWNED/, "an OSC 52 in memory wrote the clipboard");
			// pi sets the title itself ("π - project"), when it is ready: only ours is looked for.
			assert.doesNotMatch(tui.title(), /PWNED/, "an OSC 2 in memory set the terminal's title");
			assert.doesNotMatch(tui.seen(), /PWNED-TITLE|\u202e/);
		},
		{
			seed: (sb) => {
				seedLog(sb.project, [addEvent(sb.project, 1, `Deploy from the release branch${hostile} only`)]);
				fs.mkdirSync(path.join(sb.project, ".pi", "memory"), { recursive: true });
				fs.writeFileSync(path.join(sb.project, ".pi", "memory", "MEMORY.md"), `# Memory\n\n- The deploy host${hostile} is staging.example.com\n`);
			},
			routes: { "SEARCH-DEPLOY": { tool: "memory_search", args: { query: "deploy host staging" } } },
		},
	);
});

// Issue 25, item 13: under defaultProjectTrust "ask" a project holding memory is asked
// about once, at startup, through our dialog drawn over pi's terminal; until the answer
// only global memory is used, and "trust" brings the project's memory in for the session.
test("defaultProjectTrust ask: the terminal asks once at startup whether to trust the project's memory", async () => {
	await inPi(
		async (tui, sb) => {
			await tui.waitFor(/Trust this project's memory\?[\s\S]*→ Trust this project's memory/, "the trust dialog");
			clean(tui);
			tui.key("Enter");
			await footerIs(tui, "decisions 1");
			await prompt(tui, sb, "what do we use?");
			assert.ok(systemPromptOf(sb.model.chats().at(-1)).includes(PG), "the project's decision is injected");
			await tui.settle(500);
			assert.doesNotMatch(tui.screen(), /Trust this project's memory\?/, "asked once");
			assert.ok(!fs.existsSync(path.join(sb.agentDir, "trust.json")), "nothing written to pi's trust store");
		},
		{ trust: "ask", seed: (sb) => seedLog(sb.project, [addEvent(sb.project, 1, PG)]) },
	);
});

test("a long output scrolls and stays whole; the terminal goes on below it", async () => {
	await inPi(
		async (tui) => {
			await footerIs(tui, "decisions 60");
			const line = (n: number) => new RegExp(`D-\\d{4}-\\d\\d-\\d\\d-${String(n).padStart(4, "0")} \\| active \\| Decision number ${n} `);
			// The newest first: the oldest ends the list, at the bottom of the view.
			const end = await tui.command("/decision list --limit 0", line(1));
			assert.match(end, /decisions 60/, "the footer is drawn below it");
			// Scrolled up a page at a time, every line is there, and the head of the output.
			const lines = new Set<number>();
			for (let i = 0; i < 20 && lines.size < 60; i++) {
				const s = await tui.settle(200);
				for (let n = 1; n <= 60; n++) if (line(n).test(s)) lines.add(n);
				if (/pi-memory \/decision list --limit 0/.test(s)) break;
				tui.key("PageUp");
			}
			assert.equal(lines.size, 60, `seen while scrolling: ${[...lines].sort((a, b) => a - b).join(" ")}`);
			assert.match(tui.screen(), /pi-memory \/decision list --limit 0/, "the head of the output");
			assert.match(tui.screen(), /decisions 60/, "the footer stays while scrolled");
			tui.key("C-End");
			await tui.waitFor(line(1), "back at the bottom");
			await tui.command("/decision status");
			await footerIs(tui, "decisions 60");
		},
		{
			seed: (sb) =>
				seedLog(
					sb.project,
					Array.from({ length: 60 }, (_, i) => addEvent(sb.project, i + 1, `Decision number ${i + 1} about a separate part of the system`)),
				),
		},
	);
});

// A search of thousands of earlier sessions moves the core to a worker thread (decision 018's
// addendum): in pi's terminal it answers as before, nothing of the move reaches the screen or
// the log, and the commands after it are answered from the worker.
test("a search of thousands of earlier sessions answers in the terminal, and the commands after it too", async () => {
	await inPi(
		async (tui, sb) => {
			await footerIs(tui, "decisions 1");
			// The hit shows the answer after the question, cited by its line.
			await tui.command("/memory search how often do we rotate kubernetes certificates", /answered at line 3: Assistant: Every Friday at ten, by the cron job/);
			await tui.command("/decision list", /Use PostgreSQL 16 for the primary database/);
			await tui.command("/memory search billing 4999 since:2026-06-04 --limit 1", /session 4999: the billing service was deployed again/);
			await tui.command("/memory search kubernetes until:2026-06-03", /Nothing matches "kubernetes until:2026-06-03"/);
			// A memory file it could not read is said, not left out unsaid.
			await tui.command("/memory search helm charts", /Not searched: 1 memory file that could not be read/);
			assert.match(tui.screen(), /Deploys go through Helm charts/);
			await footerIs(tui, "decisions 1");
			const log = path.join(sb.agentDir, "pi-memory-errors.log");
			const logged = fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "";
			assert.doesNotMatch(logged, /worker thread|stays on pi's main thread/, logged);
			assert.doesNotMatch(tui.seen(), /worker thread|ExperimentalWarning/);
		},
		{
			seed: (sb) => {
				seedLog(sb.project, [addEvent(sb.project, 1, PG)]);
				const memory = path.join(sb.project, ".pi", "memory");
				fs.mkdirSync(memory, { recursive: true });
				fs.writeFileSync(path.join(memory, "MEMORY.md"), "# Memory\n\n## Deploy\n- Deploys go through Helm charts\n");
				fs.writeFileSync(path.join(memory, "runbook.md"), `- helm ${"x".repeat(5 << 20)}\n`);
				seedSessions(
					sb,
					5_000,
					(i) => (i === 5_000 ? "how often do we rotate the kubernetes certificates?" : `session ${i}: the billing service was deployed again`),
					(i) => (i === 5_000 ? "Every Friday at ten, by the cron job." : undefined),
				);
			},
		},
	);
});

// A long session (here 600 entries, 0.5 MB: under the core's own limits) started on
// pi's thread in 70-190 ms a megabyte, and /reload started it there again (h-v56, h-v50):
// it starts in the worker, the trace says so, and the turn after it answers.
test("pi --continue of a long session starts its core in the worker, and /reload too; the prompt after it answers", async () => {
	const trace = path.join(os.tmpdir(), `pimem-trace-${process.pid}-${Date.now()}.txt`);
	try {
		await inPi(
			async (tui, sb) => {
				await tui.waitFor(() => fs.existsSync(trace) && /end session_start .*thread=worker/.test(fs.readFileSync(trace, "utf8")), "session_start to end in the worker");
				await tui.command("/reload", /Reloaded|reloaded/i);
				await tui.waitFor(() => (fs.readFileSync(trace, "utf8").match(/end session_start .*thread=worker/g) ?? []).length >= 2, "the reloaded session_start to end in the worker");
				await prompt(tui, sb, "what did we decide about the billing deploys?");
				const lines = fs.readFileSync(trace, "utf8");
				assert.doesNotMatch(lines, /end session_start .*thread=main/, lines);
				assert.match(lines, /start in worker=true/);
				assert.ok(requestWithUser(sb.model, "what did we decide about the billing deploys?"), "the prompt reached the model");
			},
			{
				args: ["--continue"],
				env: { PIMEM_TRACE: trace },
				seed: (sb) => {
					const project = fs.realpathSync(sb.project);
					const lines: object[] = [{ type: "session", version: 3, id: "long", timestamp: "2026-11-23T10:30:00.000Z", cwd: project }];
					for (let i = 0; i < 600; i++) {
						const at = new Date(Date.UTC(2026, 10, 23, 10, 30) + i * 1000).toISOString();
						const text = `step ${i}: ${"the billing service deploys on fridays after the tests pass ".repeat(12)}`;
						const message =
							i % 2 === 0
								? { role: "user", content: [{ type: "text", text }], timestamp: Date.parse(at) }
								: { role: "assistant", content: [{ type: "text", text }], api: "openai-completions", provider: "fake", model: "fake", stopReason: "stop", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, timestamp: Date.parse(at) };
						lines.push({ type: "message", id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}`, timestamp: at, message });
					}
					fs.writeFileSync(path.join(sessionFolder(sb.agentDir, project), "2026-11-23T10-30-00-000Z_long.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
				},
			},
		);
	} finally {
		fs.rmSync(trace, { force: true });
	}
});

test("a memory file of 14 KiB runs the core in the worker: the first prompt carries it redacted; remember, search and forget answer", async () => {
	await inPi(
		async (tui, sb) => {
			await prompt(tui, sb, "what do we know about staging?");
			const system = systemPromptOf(sb.model.chats().at(-1));
			assert.match(system, /fact 0: the staging deploy uses helm, the db password is \[REDACTED:secret\]/);
			assert.doesNotMatch(JSON.stringify(sb.model.chats()), /Hunter2x/, "a secret of the memory file reached the model");
			// The project's file is over its injection cap (maxInjectBytes): the note goes to the global one.
			await tui.command("/memory remember global billing runs at 02:00 UTC every night", /Remembered/);
			await tui.command("/memory search billing runs", /billing runs at 02:00 UTC every night/);
			await tui.command("/memory forget billing runs at 02:00", /Forgot/);
			assert.doesNotMatch(tui.seen(), /Hunter2x/);
		},
		{
			seed: (sb) => {
				const memory = path.join(sb.project, ".pi", "memory");
				fs.mkdirSync(memory, { recursive: true });
				let text = "# Memory\n\n## Notes\n\n";
				for (let i = 0; i < 200; i++) text += `- fact ${i}: the staging deploy uses helm, the db password is Hunter2x${i}!\n`;
				fs.writeFileSync(path.join(memory, "MEMORY.md"), text);
			},
		},
	);
});

// A file of many small pages would give a page table several times its size (15 MB for
// 3.9 MB): the table stops at 8 MiB and /memory says whose dates it keeps, each time the same.
test("a MEMORY.md of 60,000 small facts: its page table stops at 8 MiB and /memory says so", async () => {
	await inPi(
		async (tui) => {
			await tui.command("/memory verify", /Rebuilt the page tables/);
			await tui.command("/memory status", /page table: valid \(dates kept for\s+the\s+first\s+\d+\s+of\s+\d+\s+pages:\s+the\s+table\s+stops\s+at\s+8\s+MiB\)/);
			await tui.command("/memory search fact number 59999", /fact number 59999/);
		},
		{
			seed: (sb) => {
				const memory = path.join(sb.project, ".pi", "memory");
				fs.mkdirSync(memory, { recursive: true });
				let text = "# Memory\n\n## Notes\n\n";
				for (let i = 0; i < 60000; i++) text += `- fact number ${i} about how the build runs\n`;
				fs.writeFileSync(path.join(memory, "MEMORY.md"), text);
			},
		},
	);
});

// An import of many facts runs in slices of pi's event loop (h-v46: 1,000 facts held pi's
// thread 6-7 s in one call): the terminal answers, then the same import again skips them all.
test("/memory import claude of 600 facts answers in the terminal; again, it skips what it staged; the flush writes them all", async () => {
	await inPi(
		async (tui, sb) => {
			// The list scrolls its first line away: its last one says the import went through.
			await tui.command("/memory import claude --dry-run", /would stage\s+MEMORY\.md:602\s/);
			await tui.command("/memory import claude", /staged\s+W-\w+\s+MEMORY\.md:602[\s\S]*\/memory flush writes them/);
			await tui.command("/memory import claude", /skipped\s+MEMORY\.md:602\s[\s\S]*\(already\s+in\s+memory\)/);
			// The flush goes ten facts a slice (pi's thread stays free) and answers once: what
			// fits the file's injection cap (maxInjectBytes) is written, the rest refused.
			await tui.command("/memory flush", /refused\s+W-\w+\s+\(index_cap\)[\s\S]*service\s+599\s+listens/);
			const written = fs.readFileSync(path.join(sb.project, ".pi", "memory", "MEMORY.md"), "utf8");
			assert.ok((written.match(/listens on port/g)?.length ?? 0) > 50, written.slice(0, 400));
			await tui.command("/memory flush", /Nothing to flush/);
		},
		{
			seed: (sb) => {
				const slug = sb.project.replace(/[^A-Za-z0-9]/g, "-");
				const dir = path.join(sb.home, ".claude", "projects", slug, "memory");
				fs.mkdirSync(dir, { recursive: true });
				let text = "# Memory\n\n";
				for (let i = 0; i < 600; i++) text += `- service ${i} listens on port ${10000 + i} behind the ${["nginx", "envoy", "traefik"][i % 3]} proxy\n`;
				fs.writeFileSync(path.join(dir, "MEMORY.md"), text);
			},
		},
	);
});

// Windows PowerShell's `>` saves UTF-16: such a MEMORY.md is named with the fix, not read as
// UTF-8 (text no search finds) and never written to (UTF-8 appended to UTF-16).
test("a MEMORY.md saved as UTF-16 is named with its fix; remember writes nothing into it", async () => {
	const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("# Memory\r\n\r\n## Build\r\n\r\n- Run make test before pushing\r\n", "utf16le")]);
	await inPi(
		async (tui, sb) => {
			const file = path.join(sb.project, ".pi", "memory", "MEMORY.md");
			await tui.command("/memory status", /UTF-16/);
			await tui.command("/memory remember the cache lives in ~/.cache/build", /save it as\s+UTF-8/);
			await prompt(tui, sb, "what do we know about the build?");
			assert.match(systemPromptOf(sb.model.chats().at(-1)), /\.pi\/memory\/MEMORY\.md could not be read/);
			assert.deepEqual(fs.readFileSync(file), utf16, "the file is as it was");
		},
		{
			seed: (sb) => {
				const memory = path.join(sb.project, ".pi", "memory");
				fs.mkdirSync(memory, { recursive: true });
				fs.writeFileSync(path.join(memory, "MEMORY.md"), utf16);
			},
		},
	);
});

test("Escape stops a running search at its next slice; the next search goes on from what it read", async () => {
	await inPi(
		async (tui, sb) => {
			// The turn ends at the Escape: no reply after the tool is queued.
			sb.model.enqueue({ tool: "memory_search", args: { query: "kubernetes certificates" } });
			await tui.submit("when do we rotate the certificates");
			await tui.waitFor(/memory_search query="kubernetes certificates"/, "the search to run");
			tui.key("Escape");
			await tui.waitFor(/The search was cancelled before it finished\./, "the search to stop");
			await tui.waitFor((s) => !/Working\.\.\./.test(s), "the turn to end");
			const folder = sessionFolder(sb.agentDir, fs.realpathSync(sb.project));
			const mine = fs.readdirSync(folder).filter((f) => !/_s\d+\.jsonl$/.test(f));
			const results = mine.flatMap((f) => readLines(path.join(folder, f))).map((l) => JSON.parse(l)).filter((e) => e.message?.role === "toolResult");
			assert.deepEqual(results.map((e) => e.message.content[0].text), ["The search was cancelled before it finished."]);
			sb.model.enqueue({ tool: "memory_search", args: { query: "kubernetes certificates" } }, "Every Friday.");
			await prompt(tui, sb, "and again: when do we rotate them");
			await tui.waitFor(/Every Friday\./, "the answer");
			// What the model was sent after the second search: both results, in order.
			const tool = (sb.model.chats().at(-1)?.body?.messages ?? []).filter((m) => m.role === "tool").map((m) => JSON.stringify(m.content));
			assert.equal(tool.length, 2, tool.join("\n"));
			assert.match(tool[0] ?? "", /The search was cancelled before it finished/);
			assert.match(tool[1] ?? "", /we rotate the kubernetes certificates on fridays/);
		},
		{ seed: (sb) => void seedSessions(sb, 20_000, (i) => (i === 20_000 ? "we rotate the kubernetes certificates on fridays" : `session ${i}: the billing service was deployed again`)) },
	);
});

test("at 60 columns output wraps between words and the footer fits", async () => {
	await inPi(
		async (tui) => {
			await footerIs(tui, "decisions 0");
			await tui.command("/memory help", /Every command takes --json/);
			await tui.command(`/decision add ${PG} --reason "relational integrity and the team knows it well"`);
			await footerIs(tui, "decisions 1");
			assert.equal(tui.footer(), "decisions 1", "the footer fits");
			// Our renderer wraps between words: no word of what it showed is cut across two rows.
			const words = new Set(`${PG} relational integrity and the team knows it well ${helpTexts("memory")}`.split(/\s+/).filter((w) => w.length > 3));
			const visible = tui.rowsNow();
			for (let i = 0; i + 1 < visible.length; i++) {
				const tail = /(\S+)$/.exec(visible[i]!)?.[1] ?? "";
				const head = /^\s*(\S+)/.exec(visible[i + 1]!)?.[1] ?? "";
				assert.ok(!(words.has(tail + head) && !words.has(tail)), `a word cut at the edge:\n${visible[i]}\n${visible[i + 1]}`);
			}
		},
		{ cols: 60 },
	);
});

test("a core that traps is restarted with what the person set, and says so in one line, never with a stack trace", async () => {
	await inPi(
		async (tui, sb) => {
			await footerIs(tui, "decisions 0");
			await tui.command("/memory off");
			await footerIs(tui, "memory off (/memory off)");
			// Every completion traps here: typing after /memory asks the core on each key.
			tui.type("/memory st");
			const said = await tui.waitFor(/restarted its core after an error/, "the one line about the failure");
			assert.match(said.replace(/\n\s*/g, " "), /restarted its core after an error \(in complete: .*fault injected in complete\); the turn goes on and what you set is kept\. Details: /);
			assert.ok(said.replace(/\n\s*/g, "").includes(path.join(sb.agentDir, "pi-memory-errors.log")), "the notice names the log file");
			for (let i = 0; i < "/memory st".length; i++) tui.key("BSpace");
			await tui.settle();
			assert.equal(countOf(tui.screen(), /restarted its core/g), 1, "said once");
			await footerIs(tui, "memory off (/memory off)");
			await tui.command("/decision add Use black for Python formatting", /Memory is off for this session/);
			assert.equal(fs.existsSync(path.join(sb.project, ".pi")), false, "still off: nothing written");
			const log = fs.readFileSync(path.join(sb.agentDir, "pi-memory-errors.log"), "utf8");
			assert.match(log, /fault injected in complete/);
		},
		{ env: { PI_MEMORY_FAULT: "complete" } },
	);
});
