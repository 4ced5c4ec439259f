/**
 * pi-memory: durable, inspectable memory for pi, kept in files you can read and diff.
 *
 * This extension is a thin adapter. It loads the WebAssembly core (core.wasm, built from
 * wasm/) in-process, forwards pi's events and commands to it as JSON, and performs the
 * effects the core sends back: notices, footer status, system prompt text, an injected
 * message, dialogs, model calls, and for observational memory the observations block in
 * each request (`context`), session entries, compactions and branch summaries. Every
 * memory rule lives in the core; if you are looking for one here, it is in the wrong
 * place. The commands and flags it registers are the core's own: registry.json is
 * written from the core's registry export at build time (make wasm), so pi can register
 * them without starting the core.
 *
 * Run it:
 *   pi -e ./ts/index.ts              one session with the extension
 *   make install                     install the package (build/out/pi-memory-<version>.tgz)
 *   pi --no-memory …                 memory off for the session (nothing injected or written)
 *   /decision …, /memory …, /om …     the core's commands (/decision help, /memory help, /om help)
 *   /memory status                   ends with the running core: version and module hash
 * Test it: node --test 'ts/test/*.test.ts'
 *
 * A core failure never breaks pi: the handler reports it once per session, restarts the
 * core from the compiled module (the core rebuilds its state from the files) and returns
 * nothing, so the turn goes on without memory.
 *
 * Asks the core marks `background` (the observer after a run has settled, the flush of
 * Hindsight's retain queue after a turn) are not awaited by pi's handler: the adapter
 * performs them and hands the answer back to the core later, so the next turn never
 * waits for them; an envelope may hold several. session_shutdown waits for them within a
 * bound (BACKGROUND_BOUND_MS), so `pi -p` does not exit in the middle of one.
 *
 * With a Hindsight server configured (docs/hindsight.md), the core asks for HTTP
 * requests (`http`: recall, retain, reflect), performed here with fetch, all of one ask
 * at once, each with its own time bound; it appends recalled memories to the newest user
 * message of each request (`context_append`). Every tool of the registry (memory_search,
 * memory_forget, memory_restore while memory is on; hindsight_recall, hindsight_retain,
 * hindsight_reflect, hindsight_status with a server) is registered inactive and stays so
 * until the core's `tools` effect names it.
 */

import type { BeforeAgentStartEventResult, ContextEvent, ExtensionAPI, ExtensionContext, SessionBeforeCompactResult, SessionBeforeTreeResult } from "@earendil-works/pi-coding-agent";
import { getAgentDir, hasTrustRequiringProjectResources, parseArgs } from "@earendil-works/pi-coding-agent";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { format } from "node:util";
import type { TSchema } from "typebox";
import { Core, CoreTrap, type Effect, type Envelope, type ExportName, type HttpAnswer, type HttpRequest, type LogLevel } from "./core.ts";

const CORE_FILE = new URL("./core.wasm", import.meta.url);
/**
 * The customType of a command's output in pi's transcript (decision 001): shown with
 * its own renderer, kept in the session, never sent to the model (the context handler
 * leaves it out) and skipped by the core's readers of the branch.
 */
export const OUTPUT_TYPE = "pi-memory-output";
const REGISTRY_FILE = new URL("./registry.json", import.meta.url);

/** The parts of the core's registry (wasm/registry) the adapter registers from. */
export interface Registry {
	v: 1;
	commands: RegistryCommand[];
	flags: Array<{ name: string; type: "boolean" | "string"; description: string }>;
	/** Tools the model may call, each answered by the core's `tool` export. */
	tools: RegistryTool[];
}

/** One command of the registry. */
export interface RegistryCommand {
	name: string;
	/** Every other name, the implied ones too. */
	aliases: string[];
	description: string;
	/** Aliases that stand for a subcommand too (/om-status): the seeds' short forms. */
	implied?: Array<{ name: string; words: string[] }>;
	subcommands?: Array<{ name: string; aliases: string[]; help: string; usage: string }>;
}

/** One tool of the registry; `parameters` is a JSON schema of an object. */
export interface RegistryTool {
	name: string;
	label: string;
	description: string;
	parameters: { type: "object"; [key: string]: unknown };
}

/** Reads registry.json, written from the core at build time; throws saying what is wrong. */
export function readRegistry(file: URL | string = REGISTRY_FILE): Registry {
	const value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
	if (typeof value !== "object" || value === null || !("v" in value) || value.v !== 1 || !("commands" in value) || !Array.isArray(value.commands) || !("flags" in value) || !Array.isArray(value.flags)) {
		throw new Error(`${String(file)} is not a registry this adapter reads (v1); rebuild it with make wasm`);
	}
	if (!("tools" in value) || !Array.isArray(value.tools)) throw new Error(`${String(file)} lists no tools (a core older than this adapter); rebuild it with make wasm`);
	const bad = (value.tools as unknown[]).findIndex((t) => !isRegistryTool(t));
	if (bad >= 0) throw new Error(`${String(file)}: tools[${bad}] is not a tool this adapter registers (name, label, description, parameters of type "object"); rebuild it with make wasm`);
	return value as Registry;
}

function isRegistryTool(t: unknown): t is RegistryTool {
	if (typeof t !== "object" || t === null) return false;
	const r = t as Record<string, unknown>;
	const p = r.parameters;
	return typeof r.name === "string" && typeof r.label === "string" && typeof r.description === "string" && typeof p === "object" && p !== null && (p as Record<string, unknown>).type === "object";
}

/**
 * The SHA-256 (hex) of the module file, which the core cannot read itself: it names
 * the running core in /memory status, as `pimem --version` does. "" when the file
 * cannot be read (loading the core then reports why).
 */
function sha256Of(file: URL | string): string {
	try {
		return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
	} catch {
		return "";
	}
}

type Dialog = Extract<Effect, { t: "dialog" }>;
type Complete = Extract<Effect, { t: "complete" }>;
type Http = Extract<Effect, { t: "http" }>;
/** An effect the core waits on: its answer comes back through `resume`. */
type Ask = Dialog | Complete | Http;
type ToolResult = Extract<Effect, { t: "tool_result" }>;
type Message = NonNullable<BeforeAgentStartEventResult["message"]>;
type ContextMessages = Extract<Effect, { t: "context_messages" }>;
type Compaction = NonNullable<SessionBeforeCompactResult["compaction"]>;
type BranchSummary = NonNullable<SessionBeforeTreeResult["summary"]>;
type ResumeValue = string | boolean | null | { text: string; stopReason?: string; usage?: unknown } | { error: string } | NoModel | HttpAnswer[];

/** What a handler collects from the effects it performs, for pi's handler result. */
interface Injection {
	system: string;
	message: Message | undefined;
	context: ContextMessages | undefined;
	/** Text for the end of one user message of the context event, in order. */
	appends: Array<{ index: number; text: string }>;
	compaction: Compaction | undefined;
	branchSummary: BranchSummary | undefined;
	toolResult: ToolResult | undefined;
}

/** What performing effects may reach beyond pi and the context. */
interface Scope {
	/** The registry's tool names: the `tools` effect sets these and leaves the others alone. */
	toolNames: ReadonlySet<string>;
	/** Starts a background ask now; its answer is resumed later. */
	background: (ask: Complete | Http) => void;
	/** Shows a command's output. */
	output: (text: string) => void;
}

/** One completion the core offers (pi's AutocompleteItem). */
interface CompletionItem {
	value: string;
	label: string;
	description?: string;
}

/** What a command's output message carries besides its text. */
interface OutputDetails {
	/** The command line that printed it ("/decision list"). */
	command: string;
}

/**
 * How long session_shutdown waits for background asks (model calls, Hindsight requests)
 * before aborting them, and then for the aborted ones to be handed back to the core. pi
 * exits once its session_shutdown handlers return, so without the wait `pi -p` would drop
 * an observer answer or a retain flush that is nearly there; without the bound a hung
 * provider would hold pi open.
 */
export const BACKGROUND_BOUND_MS = 20_000;
const ABORTED_BOUND_MS = 2_000;

export default function (pi: ExtensionAPI): void {
	withRegistry(readRegistry)(pi);
}

/**
 * The extension registering what `registry` returns instead of registry.json: the
 * adapter's tests register a fixture's tools through it.
 */
export function withRegistry(registry: () => Registry): (pi: ExtensionAPI) => void {
	return (pi) => {
		// pi exits when a factory throws; without memory is better than without pi.
		try {
			install(pi, registry);
		} catch (err) {
			console.error("pi-memory: could not load; pi goes on without memory:", err);
		}
	};
}

function install(pi: ExtensionAPI, registryOf: () => Registry): void {
	// The context of the newest event: a core restarted after a trap replays
	// session_start with the branch as it is now.
	let latest: ExtensionContext | undefined;
	// Compiling and instantiating start here, in the background; the first call (at
	// session_start) waits only for what is not done yet.
	// A session with a thousand earlier sessions or more runs the core in a worker thread
	// (core.ts, Core.call); PIMEM_WORKER=off keeps it on pi's main thread, in slices.
	// PIMEM_RECYCLE_MB sets the linear memory past which the instance is replaced
	// between turns, once also twice what its session took to start (2048; set low
	// to see it done).
	const recycleMb = Number(process.env.PIMEM_RECYCLE_MB);
	const core = new Core(CORE_FILE, {
		log: logCore,
		branch: () => latest?.sessionManager.getBranch(),
		worker: process.env.PIMEM_WORKER === "off" ? false : undefined,
		recycleBytes: recycleMb > 0 ? recycleMb * 2 ** 20 : undefined,
	});
	core.prepare();
	const moduleSha256 = sha256Of(CORE_FILE);
	let reported = false;

	const registry = registryOf();
	const tools = registry.tools;
	const toolNames: ReadonlySet<string> = new Set(tools.map((t) => t.name));
	const scopeOf = (ctx: ExtensionContext, exportName: ExportName, command?: string): Scope => ({
		toolNames,
		background: (ask) => inBackground(ctx, exportName, ask, command),
		output: (text) => {
			// A command's output stays in pi's transcript (notify shows one line and the next
			// replaces it); without a UI it goes to stderr, as notices do.
			if (command === undefined || !ctx.hasUI) show(ctx, text, "info");
			else pi.sendMessage<OutputDetails>({ customType: OUTPUT_TYPE, content: text, display: true, details: { command } });
		},
	});
	for (const f of registry.flags) {
		if (f.type === "boolean") pi.registerFlag(f.name, { description: f.description, type: "boolean", default: false });
		else pi.registerFlag(f.name, { description: f.description, type: "string", default: "" });
	}
	pi.registerMessageRenderer<OutputDetails>(OUTPUT_TYPE, (message, _options, theme) => outputView(textOf(message.content), message.details?.command ?? "", theme));
	// The branch as it is now goes with every command: /om observe and /om view read it.
	// The line as typed is kept in pi's session file with the output (its details), so it
	// goes under the core's rule first (its redact export): "/decision add … ghp_…".
	const command = async (ctx: ExtensionContext, name: string, args: string) =>
		run(ctx, "command", { name, args, hasUI: ctx.hasUI, branch: ctx.sessionManager.getBranch() }, undefined, await redacted(`/${name}${args.trim() === "" ? "" : ` ${args.trim()}`}`));
	// text under the core's redact export; "" when the core cannot say (a trap: no line
	// is kept rather than one unread).
	async function redacted(text: string): Promise<string> {
		try {
			const out = (await core.call("redact", text)).effects.find((e) => e.t === "output");
			return out !== undefined && "text" in out ? String(JSON.parse(out.text)) : "";
		} catch {
			return "";
		}
	}
	// What pi offers as the person types after `/name `: the core's complete export
	// answers with [{value, label, description}], value the whole argument text.
	const completions = async (name: string, prefix: string): Promise<CompletionItem[] | null> => {
		try {
			const env = await core.call("complete", { name, args: prefix });
			const out = env.effects.find((e) => e.t === "output");
			const items = out?.t === "output" ? (JSON.parse(out.text) as CompletionItem[]) : [];
			return items.length === 0 ? null : items;
		} catch (err) {
			// Asked on every key typed: reported like any failure (once, one line), never
			// drawn over the editor.
			if (latest !== undefined) await failed(latest, "complete", err);
			else diag("pi-memory: completing the command failed:", err);
			return null;
		}
	};
	// The seeds' short forms (/om-status, /obs-view, …) are not registered, so that they do
	// not fill pi's command list: typed, they reach the input event, which runs them.
	const shortForms = new Set<string>();
	for (const c of registry.commands) {
		const implied = new Set((c.implied ?? []).map((i) => i.name));
		for (const n of implied) shortForms.add(n);
		for (const name of [c.name, ...c.aliases.filter((a) => !implied.has(a))]) {
			pi.registerCommand(name, {
				description: name === c.name ? c.description : `Alias of /${c.name}`,
				// The core offers subcommands, choices and ids (its complete export).
				getArgumentCompletions: (prefix) => completions(name, prefix),
				handler: async (args, ctx) => {
					await command(ctx, name, args);
				},
			});
		}
	}
	if (shortForms.size > 0) {
		pi.on("input", async (event, ctx) => {
			const m = /^\/([a-z-]+)(?:\s+([\s\S]*))?$/.exec(event.text.trim());
			if (m === null || !shortForms.has(m[1]!)) return { action: "continue" };
			// The core resolves the short form to its command and words.
			await command(ctx, m[1]!, m[2] ?? "");
			return { action: "handled" };
		});
	}
	// Inactive until the core's `tools` effect names them: only while memory is on (and,
	// for Hindsight's, a server configured) does the model see them.
	for (const tool of tools) {
		pi.registerTool({
			name: tool.name,
			label: tool.label,
			description: tool.description,
			// A TypeBox schema is a JSON schema; pi validates the model's arguments against
			// this one as the core wrote it, so the package needs no TypeBox at run time.
			parameters: tool.parameters as unknown as TSchema,
			defaultActive: false,
			execute: async (toolCallId, params, signal, _onUpdate, ctx) => {
				const got = await run(ctx, "tool", { name: tool.name, params, toolCallId }, signal);
				const r = got?.toolResult;
				if (r === undefined) {
					const why = got === undefined ? `failed; ${diagnostics.tui ? `details are in ${diagnostics.file}` : "details are on stderr"}` : "gave no answer";
					return { content: [{ type: "text", text: `pi-memory: ${tool.name} ${why}` }], details: undefined, isError: true };
				}
				return { content: [{ type: "text", text: r.text }], details: r.details, isError: r.isError === true };
			},
		});
	}

	// Asks (model calls, Hindsight requests) performed after their handler returned, until
	// the core has their answer.
	// Each with how long session_shutdown waits for it (the ask's exitMs, else BACKGROUND_BOUND_MS).
	const background = new Map<Promise<void>, number>();
	// Aborts the background asks still running when the session shuts down.
	let shutdown = new AbortController();
	// Set once session_shutdown has closed the core: an answer arriving later is dropped
	// rather than starting a new instance for a session that is gone.
	let ended = false;

	// The core's session start is not awaited here: pi would wait for the module to
	// finish compiling before doing anything else. Core serializes calls, so the first
	// event that needs the core (a prompt, a command) waits for it instead, and its
	// effects (footer status, config warnings) appear as soon as it is done.
	pi.on("session_start", (event, ctx) => {
		diagnostics.tui = ctx.mode === "tui";
		diagnostics.file = path.join(getAgentDir(), LOG_FILE);
		latest = ctx;
		reported = false;
		shutdown = new AbortController();
		ended = false;
		const sessionId = ctx.sessionManager.getSessionId();
		void run(ctx, "session_start", {
			// pi's /reload builds this extension anew for the same session: what the person
			// set comes back as after a trap (decision 001, "restore").
			...(event.reason === "reload" ? reloaded(sessionId) : {}),
			cwd: ctx.cwd,
			agentDir: getAgentDir(),
			home: os.homedir(),
			trusted: ctx.isProjectTrusted(),
			// What pi decides trust by; the core judges the project root with it (decision 016).
			trust: trustFacts(ctx.cwd),
			hasUI: ctx.hasUI,
			mode: ctx.mode,
			reason: event.reason,
			flags: Object.fromEntries(registry.flags.map((f) => [f.name, pi.getFlag(f.name) ?? null])),
			moduleSha256,
			// pi's own command line: the core tells when pi took a prompt as --no-memory's value.
			argv: process.argv.slice(2),
			fault: process.env.PI_MEMORY_FAULT ?? "",
			branch: ctx.sessionManager.getBranch(),
			sessionId,
			zone: -new Date().getTimezoneOffset(),
			window: windowOf(ctx),
			models: modelsOf(ctx),
			env: forwardedEnv(),
		});
	});

	pi.on("before_agent_start", async (event, ctx) => {
		const prompt = event.messageType === "user" ? event.prompt : textOf(event.message.content);
		const got = await run(ctx, "before_agent_start", { prompt, messageType: event.messageType });
		if (got === undefined) return undefined;
		const result: BeforeAgentStartEventResult = {};
		if (got.system !== "") result.systemPrompt = event.systemPrompt + got.system;
		if (got.message !== undefined) result.message = got.message;
		return result.systemPrompt === undefined && result.message === undefined ? undefined : result;
	});

	pi.on("agent_end", async (event, ctx) => {
		const stopReason = lastStopReason(event.messages);
		await run(ctx, "agent_end", { stopReason, aborted: stopReason === "aborted" || ctx.signal?.aborted === true, messages: event.messages });
	});

	// Before every model call, tool-loop steps included: the core says what recalled text
	// ends the newest user message and where its observations block goes, or nothing
	// (already there, memory off, nothing recalled or observed); an unchanged block is
	// named rather than sent, and `core` holds it. Both indices refer to pi's messages
	// as given: the appends change no length, so they go first.
	pi.on("context", async (event, ctx) => {
		// Command output stays in the transcript for the person; the model never gets it.
		const given = event.messages.filter((m) => !(m.role === "custom" && m.customType === OUTPUT_TYPE));
		const dropped = given.length !== event.messages.length;
		const got = await run(ctx, "context", { messages: given });
		if (got === undefined || (got.context === undefined && got.appends.length === 0)) return dropped ? { messages: given } : undefined;
		const messages: ContextEvent["messages"] = [...given];
		for (const a of got.appends) appendTo(messages, a.index, a.text);
		const block = got.context;
		if (block !== undefined) {
			const at = Math.max(0, Math.min(messages.length, Math.trunc(block.index)));
			messages.splice(at, 0, ...core.contextMessages(block).map((m) => ({ role: "custom" as const, customType: m.customType, content: m.content, display: false, timestamp: m.timestamp ?? 0 })));
		}
		return { messages };
	});

	// The observer and the reflector run from here, in the background: a run has fully
	// settled, and nothing of pi waits for them.
	pi.on("agent_settled", async (event, ctx) => {
		await run(ctx, "agent_settled", { branch: ctx.sessionManager.getBranch(), window: windowOf(ctx), aborted: event.aborted });
	});

	pi.on("session_before_compact", async (event, ctx) => {
		const p = event.preparation;
		const got = await run(
			ctx,
			"session_before_compact",
			{
				branch: event.branchEntries,
				firstKeptEntryId: p.firstKeptEntryId,
				previousSummary: p.previousSummary ?? "",
				fileOps: { read: [...p.fileOps.read], modified: [...new Set([...p.fileOps.written, ...p.fileOps.edited])] },
				tokensBefore: p.tokensBefore,
				reason: event.reason,
				window: windowOf(ctx),
			},
			event.signal,
		);
		return got?.compaction === undefined ? undefined : { compaction: got.compaction };
	});

	pi.on("session_before_tree", async (event, ctx) => {
		const p = event.preparation;
		const got = await run(ctx, "session_before_tree", { entries: p.entriesToSummarize, userWantsSummary: p.userWantsSummary }, event.signal);
		return got?.branchSummary === undefined ? undefined : { summary: got.branchSummary };
	});

	pi.on("session_shutdown", async (event, ctx) => {
		// The core's last flush is bounded by what is left of flush.shutdownMs after this wait.
		const waitedMs = await settleBackground();
		await run(ctx, "session_shutdown", { reason: event.reason, waitedMs });
		keep(ctx.sessionManager.getSessionId(), core.state);
		ended = true;
		// The runtime is torn down after this event; let the instance and its locks go.
		await core.close().catch((err: unknown) => diag("pi-memory: closing the core failed:", err));
	});

	// pi's project_trust event is a vote on trust taken before session_start, not a
	// change notice: what pi decides trust by is forwarded at every session_start
	// (trustFacts), and a /trust decision takes effect only after a restart. So it is
	// not forwarded.

	// Forwards one export and performs its effects, answering dialogs, model calls and
	// Hindsight requests through `resume` until the core has nothing more to ask in the
	// foreground. Undefined on failure. `signal` (a compaction's, a tree navigation's, a
	// tool call's, else the event's) aborts the foreground asks it waits for.
	// `command` is the command line typed, for a command's output in the transcript.
	async function run(ctx: ExtensionContext, exportName: ExportName, input: unknown, signal?: AbortSignal, command?: string): Promise<Injection | undefined> {
		latest = ctx;
		return drive(ctx, exportName, () => core.call(exportName, input), signal ?? ctx.signal, command);
	}

	async function drive(ctx: ExtensionContext, exportName: ExportName, first: () => Promise<Envelope>, signal: AbortSignal | undefined, command?: string): Promise<Injection | undefined> {
		const got = emptyInjection();
		const scope = scopeOf(ctx, exportName, command);
		try {
			let envelope: Envelope = await first();
			for (;;) {
				const ask = perform(pi, ctx, exportName, envelope, got, scope);
				if (ask === undefined) {
					// Without a UI (pi -p, --mode json) a refused command makes pi exit
					// non-zero, as pimem does; pi keeps a non-zero exitCode it finds set.
					if (exportName === "command" && envelope.exit !== 0 && !ctx.hasUI) process.exitCode = envelope.exit;
					return got;
				}
				envelope = await core.call("resume", { id: ask.id, value: await answer(ctx, ask, signal) });
			}
		} catch (err) {
			await failed(ctx, exportName, err);
			return undefined;
		}
	}

	// Performs a background ask (a model call, Hindsight requests) and resumes the core
	// with its answer, then performs what follows (a session entry, a status, the next
	// ask) the same way, all after pi's handler has returned. Several may be out at once;
	// the core serializes their resumes. Failures are reported like any other.
	function inBackground(ctx: ExtensionContext, exportName: ExportName, ask: Complete | Http, command?: string): void {
		const stop = shutdown.signal;
		const task = (async () => {
			const value = await answer(ctx, ask, stop);
			if (ended) return;
			await drive(ctx, exportName, () => core.call("resume", { id: ask.id, value }), stop, command);
		})();
		background.set(task, Math.min(BACKGROUND_BOUND_MS, Math.max(0, typeof ask.exitMs === "number" ? ask.exitMs : BACKGROUND_BOUND_MS)));
		void task.finally(() => background.delete(task));
	}

	// Waits for the background asks, each within its own bound (its exitMs: a Hindsight
	// flush's is flush.shutdownMs, an observer call's 5 s; else BACKGROUND_BOUND_MS),
	// counted from the shutdown, then
	// aborts those left and waits briefly for their (failed) answers to reach the core.
	// Returns how long it waited, in ms.
	async function settleBackground(): Promise<number> {
		// Nothing running: nothing waited (a clock tick between two reads is not a wait).
		if (background.size === 0) return 0;
		const start = Date.now();
		// An answer may plan the next call (the reflector after the observer): wait for those too.
		for (;;) {
			if (background.size === 0) return Date.now() - start;
			const deadline = start + Math.max(...background.values());
			if (Date.now() >= deadline) break;
			await within([...background.keys()], deadline - Date.now());
		}
		diag(`pi-memory: ${background.size} background call(s) (model or Hindsight) still running after ${Date.now() - start} ms at shutdown; aborted`);
		shutdown.abort();
		await within([...background.keys()], ABORTED_BOUND_MS);
		return Date.now() - start;
	}

	// A failure shows one line in pi's UI, once a session, naming what failed and where
	// its details went (the log file in pi's terminal, else stderr). After a trap the
	// core is restarted at once, and what its replayed session start sets (the footer,
	// the model's tools, as the person left them) is applied.
	async function failed(ctx: ExtensionContext, exportName: ExportName, err: unknown): Promise<void> {
		if (err instanceof CoreTrap) diag(err.panic ? `pi-memory core failed in ${err.exportName}:\n${err.panic.trimEnd()}` : err.message);
		else diag(`pi-memory: ${exportName} failed:`, err);
		if (!reported) {
			reported = true;
			const what = firstLineOf(err instanceof CoreTrap ? err.message.replace(/^pi-memory core failed /, "") : err instanceof Error ? err.message : String(err));
			const where = diagnostics.tui ? `Details: ${tilde(diagnostics.file)}` : "Details are on stderr.";
			const notice =
				err instanceof CoreTrap
					? `pi-memory restarted its core after an error (${what}); the turn goes on and what you set is kept. ${where}`
					: `pi-memory failed (${what}); the turn goes on without memory. ${where}`;
			try {
				ctx.ui.notify(notice, "error");
			} catch (notifyErr) {
				diag("pi-memory: could not show the failure notice:", notifyErr);
			}
		}
		if (err instanceof CoreTrap) {
			try {
				const replayed = await core.recreate();
				if (replayed !== undefined) perform(pi, ctx, "session_start", replayed, emptyInjection(), scopeOf(ctx, "session_start"));
			} catch (again) {
				diag("pi-memory: restarting the core failed; the next event tries again:", again);
			}
		}
	}
}

// Performs effects in order, starting background asks where they stand; returns the
// foreground ask that ends the envelope, if any.
function perform(pi: ExtensionAPI, ctx: ExtensionContext, exportName: ExportName, envelope: Envelope, got: Injection, scope: Scope): Ask | undefined {
	const effects = envelope.effects;
	for (let i = 0; i < effects.length; i++) {
		const e = effects[i]!;
		switch (e.t) {
			case "output":
				scope.output(e.text);
				break;
			case "notify":
				show(ctx, e.text, e.level === "warning" || e.level === "error" ? e.level : "info");
				break;
			case "status":
				ctx.ui.setStatus(e.key, e.text ?? undefined);
				break;
			case "system_prompt_append":
				if (exportName === "before_agent_start") got.system += e.text;
				else misplaced(e.t, exportName, "before_agent_start");
				break;
			case "message":
				if (exportName !== "before_agent_start") misplaced(e.t, exportName, "before_agent_start");
				else if (got.message !== undefined) diag("pi-memory: the core sent a second message effect; pi takes one per run, the first is kept");
				else got.message = { customType: e.customType, content: e.content, display: e.display };
				break;
			case "context_messages":
				if (exportName === "context") got.context = e;
				else misplaced(e.t, exportName, "context");
				break;
			case "session_entry":
				pi.appendEntry(e.customType, e.data);
				break;
			case "compact":
				// ctx.compact() aborts a running turn first: only between turns. When pi is
				// busy the core plans it again at the next settle.
				if (ctx.isIdle()) ctx.compact({ onError: (err) => diag("pi-memory: the compaction it started failed:", err.message) });
				break;
			case "compaction":
				if (exportName !== "session_before_compact") misplaced(e.t, exportName, "session_before_compact");
				else {
					got.compaction = { summary: e.summary, firstKeptEntryId: e.firstKeptEntryId, tokensBefore: e.tokensBefore, details: e.details };
					if (e.usage !== undefined) got.compaction.usage = e.usage as Compaction["usage"];
				}
				break;
			case "branch_summary":
				if (exportName === "session_before_tree") got.branchSummary = { summary: e.summary, details: e.details };
				else misplaced(e.t, exportName, "session_before_tree");
				break;
			case "context_append":
				if (exportName === "context") got.appends.push({ index: e.index, text: e.text });
				else misplaced(e.t, exportName, "context");
				break;
			case "tools":
				// pi ignores names it does not know; tools of others stay as they are.
				pi.setActiveTools([...pi.getActiveTools().filter((n) => !scope.toolNames.has(n)), ...e.active]);
				break;
			case "state":
				// Core keeps it for a restart.
				break;
			case "worker":
				// Core moves the instance to a worker thread between turns.
				break;
			case "tool_result":
				if (exportName === "tool") got.toolResult = e;
				else misplaced(e.t, exportName, "tool");
				break;
			case "complete":
			case "http":
				if (e.background === true) {
					scope.background(e);
					break;
				}
				return foreground(e, effects.length - i - 1);
			case "dialog":
				return foreground(e, effects.length - i - 1);
			default:
				diag(`pi-memory: unknown effect from the core, ignored: ${JSON.stringify(e)}`);
		}
	}
	return undefined;
}

// Without a UI, pi's notify goes nowhere: command output and notices go to stderr,
// where pi's print mode sends everything that is not the model's answer.
function show(ctx: ExtensionContext, text: string, level: "info" | "warning" | "error"): void {
	if (ctx.hasUI) ctx.ui.notify(text, level);
	else process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
}

type Theme = Parameters<Parameters<ExtensionAPI["registerMessageRenderer"]>[1]>[2];

/**
 * How a command's output looks in the transcript: the command line, then its text as
 * the core wrote it (plain text, no Markdown), wrapped to the width pi gives. Control
 * characters are shown as nothing: output is ours, but it quotes what people and models
 * wrote.
 */
export function outputView(text: string, command: string, theme: Theme): { render(width: number): string[]; invalidate(): void } {
	return {
		render(width: number): string[] {
			const inner = Math.max(10, width - 2);
			const lines = [theme.fg("customMessageLabel", fit(`pi-memory ${command}`.trimEnd(), inner))];
			for (const line of wrapPlain(text, inner)) lines.push(theme.fg("customMessageText", line));
			return [""].concat(lines.map((l) => ` ${l}`));
		},
		invalidate(): void {},
	};
}

// Characters a terminal shows two columns wide (CJK, Hangul, full-width forms, emoji).
const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u;
// An emoji pi's renderer draws two columns wide (✅, ⭐, 🚀, 🟢, a ZWJ sequence, a flag), by
// its own measure: a whole grapheme that is one (h-v101 c1: counted one column, the end of
// a line went past pi's width and was cut off the screen).
const EMOJI = new RegExp("^\\p{RGI_Emoji}$", "v"); // the v flag: Node 22 has it, TypeScript's target does not
// A grapheme of marks alone, which takes no column.
const MARKS = /^[\p{Mn}\p{Me}]+$/u;
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });
// C0 and C1 controls but the newline, and zero-width marks a terminal may draw anyway (the
// joiners stay, decision 017: an emoji sequence or an Indic word needs them).
// A last line of defence of this renderer only: the core already cleaned the text by its
// one rule for text from outside (marker.Data, decision 017), which is where that rule lives.
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200B\u200E\u200F\u2028-\u202E\u2060-\u2064\uFEFF]/gu;

/** How many columns pi's terminal gives a grapheme. */
function columns(g: string): number {
	if (EMOJI.test(g) || WIDE.test(g)) return 2;
	return MARKS.test(g) ? 0 : 1;
}

function graphemes(s: string): string[] {
	return Array.from(GRAPHEMES.segment(s), (x) => x.segment);
}

/** text in lines of at most width columns, broken at spaces where it can; indentation is kept on continued lines. */
export function wrapPlain(text: string, width: number): string[] {
	const out: string[] = [];
	for (const raw of text.replace(/\t/g, "  ").replace(CONTROL, "").split("\n")) {
		const indent = /^ */.exec(raw)![0].slice(0, Math.floor(width / 2));
		let line = "";
		let used = 0;
		let lastSpace = -1;
		for (const ch of graphemes(raw)) {
			const w = columns(ch);
			if (used + w > width && ch === " ") {
				// A space at the edge ends the line.
				out.push(line.trimEnd());
				line = indent;
				used = [...indent].length;
				lastSpace = -1;
				continue;
			}
			if (used + w > width) {
				if (lastSpace > indent.length) {
					out.push(line.slice(0, lastSpace).trimEnd());
					line = indent + line.slice(lastSpace + 1);
				} else {
					out.push(line);
					line = indent;
				}
				used = graphemes(line).reduce((n, c) => n + columns(c), 0);
				lastSpace = -1;
			}
			if (ch === " ") lastSpace = line.length;
			line += ch;
			used += w;
		}
		out.push(line.trimEnd());
	}
	return out;
}

function fit(text: string, width: number): string {
	return wrapPlain(text, width)[0] ?? "";
}

// A foreground ask ends its envelope (decision 001): what follows it is not performed.
function foreground(ask: Ask, after: number): Ask {
	if (after > 0) diag(`pi-memory: the core sent ${after} effect(s) after its ${ask.t} ${ask.id}, which must end the envelope; they are ignored`);
	return ask;
}

// Appends text to the user message at index (a copy: pi's own message, which the session
// keeps, never holds recalled text).
function appendTo(messages: ContextEvent["messages"], index: number, text: string): void {
	const m = messages[index];
	if (m === undefined || m.role !== "user") {
		diag(`pi-memory: the core sent context_append for message ${index}, which is not a user message; ignored`);
		return;
	}
	messages[index] = typeof m.content === "string" ? { ...m, content: m.content + text } : { ...m, content: [...m.content, { type: "text", text }] };
}

function misplaced(t: string, exportName: string, where: string): void {
	diag(`pi-memory: the core sent ${t} from ${exportName}; only ${where} can apply it, ignored`);
}

async function answerDialog(ctx: ExtensionContext, d: Dialog): Promise<ResumeValue> {
	switch (d.kind) {
		case "select":
			return (await ctx.ui.select(d.title, d.options ?? [])) ?? null;
		case "confirm":
			return ctx.ui.confirm(d.title, d.message ?? "");
		case "input":
			return (await ctx.ui.input(d.title, d.placeholder)) ?? null;
		case "editor":
			return (await ctx.ui.editor(d.title, d.prefill)) ?? null;
		default:
			return null;
	}
}

// The answer to an ask, for `resume`.
function answer(ctx: ExtensionContext, ask: Ask, signal: AbortSignal | undefined): Promise<ResumeValue> {
	if (ask.t === "dialog") return answerDialog(ctx, ask);
	if (ask.t === "complete") return answerComplete(ctx, ask, signal);
	return answerHttp(ask.requests, signal);
}

// Performs every request at once and answers them in order. A status is never read here:
// a 500 is an answer like a 200, and what it means is the core's to say. An ask of no
// request is the core asking for its next slice of work (a search of thousands of
// sessions, decision 018): it is answered once pi's event loop has run, with an error
// once the call it serves is cancelled (Escape on a tool call), which ends the search.
function answerHttp(requests: HttpRequest[], signal: AbortSignal | undefined): Promise<HttpAnswer[]> {
	if (requests.length === 0) return new Promise((resolve) => setImmediate(() => resolve(signal?.aborted === true ? [{ error: "aborted" }] : [])));
	return Promise.all(requests.map((r) => fetchOne(r, signal)));
}

async function fetchOne(r: HttpRequest, signal: AbortSignal | undefined): Promise<HttpAnswer> {
	const timeoutMs = r.timeoutMs ?? 0;
	const timer = new AbortController();
	const clock = timeoutMs > 0 ? setTimeout(() => timer.abort(), timeoutMs) : undefined;
	try {
		// The signal covers reading the body too: a server that stalls mid-answer times out.
		// A redirect is an answer, never followed: a 307 would send the body to the host it names.
		const res = await fetch(r.url, { method: r.method, headers: withBearer(r), body: r.body, redirect: "manual", signal: signal === undefined ? timer.signal : AbortSignal.any([signal, timer.signal]) });
		const { body, truncated } = await readCapped(res, r.maxBytes ?? DEFAULT_MAX_BYTES);
		return truncated ? { status: res.status, body, truncated: true } : { status: res.status, body };
	} catch (err) {
		if (timer.signal.aborted) return { error: `timed out after ${timeoutMs} ms` };
		if (signal?.aborted === true) return { error: "aborted" };
		return { error: fetchError(err) };
	} finally {
		clearTimeout(clock);
	}
}

// A request's headers with the key its bearerEnv names, read from the environment when the
// request is sent (decision 001): the core names the variable, never holds the key.
export function withBearer(r: HttpRequest): Record<string, string> | undefined {
	const key = r.bearerEnv === undefined || r.bearerEnv === "" ? undefined : process.env[r.bearerEnv];
	if (key === undefined || key === "") return r.headers;
	return { ...r.headers, Authorization: `Bearer ${key}` };
}

// The most of a response body read when a request names no maxBytes (decision 001).
const DEFAULT_MAX_BYTES = 1 << 20;

// Reads a response's body up to max bytes; past it the stream is cancelled (a 50 MB answer
// from a wrong URL costs its first MiB, not a turn) and the answer says it was truncated.
async function readCapped(res: Response, max: number): Promise<{ body: string; truncated: boolean }> {
	if (res.body === null) return { body: "", truncated: false };
	const reader = res.body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	let truncated = false;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		if (size + value.byteLength > max) {
			chunks.push(value.subarray(0, max - size));
			size = max;
			truncated = true;
			await reader.cancel();
			break;
		}
		chunks.push(value);
		size += value.byteLength;
	}
	return { body: Buffer.concat(chunks, size).toString("utf8"), truncated };
}

// Node's fetch says only "fetch failed"; the reason (connect ECONNREFUSED 127.0.0.1:9,
// other side closed…) is its cause.
function fetchError(err: unknown): string {
	if (!(err instanceof Error)) return String(err);
	const cause = err.cause;
	if (cause instanceof Error && cause.message !== "") return cause.message;
	if (cause instanceof Error && "code" in cause && typeof cause.code === "string") return cause.code;
	return err.message;
}

// Calls the model the effect names (the session's own when none) and resumes with its
// text, stop reason and usage (whether an empty or cut-off reply failed is the core's to
// say), or with an error: pi's complete resolves with stopReason "error" or "aborted"
// rather than throwing. timeoutMs aborts the call.
async function answerComplete(ctx: ExtensionContext, c: Complete, signal: AbortSignal | undefined): Promise<ResumeValue> {
	const model = modelFor(ctx, c.model ?? "");
	if ("noModel" in model) return model;
	const timeoutMs = c.timeoutMs ?? 0;
	const timer = new AbortController();
	const clock = timeoutMs > 0 ? setTimeout(() => timer.abort(), timeoutMs) : undefined;
	const signals = [signal, clock === undefined ? undefined : timer.signal].filter((s): s is AbortSignal => s !== undefined);
	const timedOut = (): boolean => timer.signal.aborted;
	try {
		const reply = await ctx.modelRegistry.complete(
			model,
			{
				systemPrompt: c.system,
				messages: [{ role: "user", content: [{ type: "text", text: c.prompt }], timestamp: Date.now() }],
			},
			{ maxTokens: c.maxTokens, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] },
		);
		if (timedOut()) return { error: `timed out after ${timeoutMs} ms` };
		if (reply.stopReason === "error" || reply.stopReason === "aborted") return { error: reply.errorMessage ?? `the model call ended: ${reply.stopReason}` };
		const text = textOf(reply.content);
		const stopReason = typeof reply.stopReason === "string" ? { stopReason: reply.stopReason } : {};
		return reply.usage === undefined ? { text, ...stopReason } : { text, ...stopReason, usage: reply.usage };
	} catch (err) {
		if (timedOut()) return { error: `timed out after ${timeoutMs} ms` };
		return { error: err instanceof Error ? err.message : String(err) };
	} finally {
		clearTimeout(clock);
	}
}

type Model = NonNullable<ExtensionContext["model"]>;

/** Why no model was called, as the core reads it (decision 001, addendum of 2026-11-27). */
interface NoModel {
	error: string;
	noModel: "unknown" | "no-credentials" | "no-model";
	provider?: string;
}

// The model a complete effect names, looked up in pi's registry (decision 001, addendum of
// 2026-11-27): "" is the session's; "provider/id" exactly that one (split at the first
// slash); an id alone, that id of a provider with credentials, the session's first. The
// core checked the name's shape and words what is said when there is none.
function modelFor(ctx: ExtensionContext, name: string): Model | NoModel {
	if (name === "") return ctx.model ?? { error: "no model is selected", noModel: "no-model" };
	const slash = name.indexOf("/");
	const exact = slash >= 0 ? ctx.modelRegistry.find(name.slice(0, slash), name.slice(slash + 1)) : undefined;
	const known = slash >= 0 ? (exact === undefined ? [] : [exact]) : ctx.modelRegistry.getAll().filter((m) => m.id === name);
	if (known.length === 0) return { error: `no model "${name}" in pi's registry`, noModel: "unknown" };
	const usable = known.filter((m) => ctx.modelRegistry.hasConfiguredAuth(m));
	const found = usable.find((m) => m.provider === ctx.model?.provider) ?? usable[0];
	return found ?? { error: `no credentials for ${known[0]?.provider ?? "its provider"}`, noModel: "no-credentials", provider: known[0]?.provider ?? "" };
}

function windowOf(ctx: ExtensionContext): number {
	return ctx.model?.contextWindow ?? 0;
}

// The models pi can use here ("provider/id", what pi --list-models lists), which the core
// checks observerModel against when it reads its configuration (decision 001).
function modelsOf(ctx: ExtensionContext): string[] {
	return ctx.modelRegistry.getAvailable().map((m) => `${m.provider}/${m.id}`);
}

/** What session_start's `trust` says: the facts pi decides trust by (decision 016). */
export interface TrustFacts {
	/** --approve (true) or --no-approve (false), as pi's own parser reads its command line. */
	approve: boolean | null;
	/** pi found a resource of its own list in cwd, so ctx.isProjectTrusted() is its judgement. */
	judged: boolean;
	/** The text of pi's trust store, null when there is none. */
	store: string | null;
	/** Why the store could not be read, when it could not. */
	storeError?: string;
	/** defaultProjectTrust as pi's settings hold it, null when unset or unreadable. */
	default: unknown;
}

// The trust store and settings are pi's files in its agent folder (pi 1.5 and 1.6 keep
// them there): read, never written or locked; what they mean is the core's to say.
const MAX_PI_FILE = 4 << 20;

export function trustFacts(cwd: string, argv: string[] = process.argv.slice(2), agentDir: string = getAgentDir()): TrustFacts {
	let approve: boolean | null = null;
	let judged = false;
	try {
		approve = parseArgs(argv).projectTrustOverride ?? null;
		judged = hasTrustRequiringProjectResources(cwd);
	} catch (err) {
		diag("pi-memory: could not ask pi how it judged trust:", err);
	}
	const facts: TrustFacts = { approve, judged, store: null, default: null };
	try {
		facts.store = readBounded(path.join(agentDir, "trust.json"));
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code !== "ENOENT") facts.storeError = err instanceof Error ? err.message : String(err);
	}
	try {
		const settings: unknown = JSON.parse(readBounded(path.join(agentDir, "settings.json")));
		if (typeof settings === "object" && settings !== null) facts.default = (settings as Record<string, unknown>).defaultProjectTrust ?? null;
	} catch {
		// pi reads a settings file it cannot parse as no settings: defaultProjectTrust "ask".
	}
	return facts;
}

// A regular file's text within MAX_PI_FILE (never a FIFO, which would block), without
// a byte-order mark.
function readBounded(file: string): string {
	const st = fs.statSync(file);
	if (!st.isFile()) throw new Error(`${file} is not a regular file`);
	if (st.size > MAX_PI_FILE) throw new Error(`${file} is ${st.size} bytes, over ${MAX_PI_FILE}`);
	return fs.readFileSync(file, "utf8").replace(/^\uFEFF/, "");
}

// The environment variables that steer observational memory and Hindsight, those set,
// as session_start's env (decision 001); what they mean is the core's to say.
const FORWARDED_ENV = ["PI_OM_SCOPE", "PI_OM_SQLITE", "PI_OM_SQLITE_PATH", "HINDSIGHT_API_URL", "HINDSIGHT_API_KEY", "HINDSIGHT_BANK_ID"] as const;

function forwardedEnv(): Record<string, string> {
	const env: Record<string, string> = {};
	for (const k of FORWARDED_ENV) {
		const v = process.env[k];
		if (v !== undefined) env[k] = v;
	}
	return env;
}

// True when every promise settled within ms.
async function within(tasks: Promise<unknown>[], ms: number): Promise<boolean> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<boolean>((resolve) => {
		timer = setTimeout(() => resolve(false), ms);
	});
	const done = Promise.allSettled(tasks).then(() => true);
	const r = await Promise.race([done, late]);
	clearTimeout(timer);
	return r;
}

// The text of a message's content: a string, or the text blocks of a block list.
function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	for (const block of content) {
		if (typeof block === "object" && block !== null && "type" in block && block.type === "text" && "text" in block && typeof block.text === "string") parts.push(block.text);
	}
	return parts.join("\n");
}

function lastStopReason(messages: readonly unknown[]): string | null {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i];
		if (typeof m === "object" && m !== null && "role" in m && m.role === "assistant") {
			return "stopReason" in m && typeof m.stopReason === "string" ? m.stopReason : null;
		}
	}
	return null;
}

// The core's warnings and errors are diagnostics; debug and info stay quiet inside pi.
function logCore(level: LogLevel, message: string): void {
	if (level >= 2) diag(`pi-memory: ${message}`);
}

// The session's newest state as the extension was torn down, per pi process: /reload
// loads this module again (its own variables start empty), so it is kept on globalThis.
const KEPT = Symbol.for("pimem.kept-state");

function keep(sessionId: string, state: unknown): void {
	(globalThis as Record<symbol, unknown>)[KEPT] = state === undefined ? undefined : { sessionId, state };
}

// session_start's restore for a session pi reloads: the state it had when its extension
// was torn down, if that was this session's.
function reloaded(sessionId: string): { restore?: { state: unknown } } {
	const kept = (globalThis as Record<symbol, unknown>)[KEPT] as { sessionId: string; state: unknown } | undefined;
	return kept !== undefined && kept.sessionId === sessionId ? { restore: { state: kept.state } } : {};
}

function emptyInjection(): Injection {
	return { system: "", message: undefined, context: undefined, appends: [], compaction: undefined, branchSummary: undefined, toolResult: undefined };
}

/**
 * The log file of the adapter's diagnostics in pi's interactive terminal, in pi's agent
 * folder beside pi's own debug log: there stderr is the screen the person types on.
 */
export const LOG_FILE = "pi-memory-errors.log";
/** Past this size the log is moved to `<file>.1` (replacing the one before) and started again. */
export const LOG_MAX_BYTES = 1 << 20;

/** Where diagnostics go: `tui` (pi's interactive terminal) to `file`, else stderr. */
export const diagnostics = { tui: false, file: "" };

/**
 * Reports something the person cannot act on in the moment (a failure's details, a
 * contract breach): on stderr, except in pi's interactive terminal, where anything on
 * stderr lands over the editor: there it is appended to the log file, with the time.
 */
export function diag(...parts: unknown[]): void {
	const text = format(...parts);
	if (!diagnostics.tui || diagnostics.file === "") {
		console.error(text);
		return;
	}
	try {
		const size = fs.lstatSync(diagnostics.file, { throwIfNoEntry: false })?.size ?? 0;
		if (size > LOG_MAX_BYTES) fs.renameSync(diagnostics.file, `${diagnostics.file}.1`);
		appendLog(diagnostics.file, `${new Date().toISOString()} ${text}\n`);
	} catch {
		// Nowhere to write it (or not a file of ours): dropped rather than drawn over the editor.
	}
}

// Appends to the log as the hosts append to memory files (decision 006): never through a
// symbolic link (O_NOFOLLOW), never blocking on a FIFO (O_NONBLOCK), only to a regular file.
function appendLog(file: string, line: string): void {
	const c = fs.constants;
	const fd = fs.openSync(file, c.O_WRONLY | c.O_APPEND | c.O_CREAT | c.O_NOFOLLOW | c.O_NONBLOCK, 0o600);
	try {
		if (!fs.fstatSync(fd).isFile()) throw new Error(`${file} is not a regular file`);
		fs.writeSync(fd, line);
	} finally {
		fs.closeSync(fd);
	}
}

function firstLineOf(text: string): string {
	return text.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
}

// A path under the home folder as ~/…, which fits a notice at 80 columns.
function tilde(file: string): string {
	const home = os.homedir();
	return home !== "" && file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}
