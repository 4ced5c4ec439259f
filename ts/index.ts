/**
 * pi-memory: durable, inspectable memory for pi, kept in files you can read and diff.
 *
 * This extension is a thin adapter. It loads the WebAssembly core (core.wasm, built from
 * wasm/) in-process, forwards pi's events and commands to it as JSON, and performs the
 * effects the core sends back: notices, footer status, system prompt text, an injected
 * message, dialogs and model calls. Every memory rule lives in the core; if you are
 * looking for one here, it is in the wrong place. The commands and flags it registers
 * are the core's own: registry.json is written from the core's registry export at build
 * time (make wasm), so pi can register them without starting the core.
 *
 * Run it:
 *   pi -e ./ts/index.ts              one session with the extension
 *   make install                     install the package (build/out/pi-memory-<version>.tgz)
 *   pi --no-memory …                 memory off for the session (nothing injected or written)
 *   /decision …, /memory …           the core's commands (/decision help, /memory help)
 *   /memory status                   ends with the running core: version and module hash
 * Test it: node --test 'ts/test/*.test.ts'
 *
 * A core failure never breaks pi: the handler reports it once per session, restarts the
 * core from the compiled module (the core rebuilds its state from the files) and returns
 * nothing, so the turn goes on without memory.
 */

import type { BeforeAgentStartEventResult, ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { getAgentDir } from "@earendil-works/pi-coding-agent";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { Core, CoreTrap, type Effect, type Envelope, type LogLevel } from "./core.ts";

const CORE_FILE = new URL("./core.wasm", import.meta.url);
const REGISTRY_FILE = new URL("./registry.json", import.meta.url);

/** The parts of the core's registry (wasm/registry) the adapter registers from. */
export interface Registry {
	v: 1;
	commands: Array<{ name: string; aliases: string[]; description: string }>;
	flags: Array<{ name: string; type: "boolean" | "string"; description: string }>;
}

/** Reads registry.json, written from the core at build time; throws saying what is wrong. */
export function readRegistry(file: URL | string = REGISTRY_FILE): Registry {
	const value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
	if (typeof value !== "object" || value === null || !("v" in value) || value.v !== 1 || !("commands" in value) || !Array.isArray(value.commands) || !("flags" in value) || !Array.isArray(value.flags)) {
		throw new Error(`${String(file)} is not a registry this adapter reads (v1); rebuild it with make wasm`);
	}
	return value as Registry;
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
type Message = NonNullable<BeforeAgentStartEventResult["message"]>;
type ResumeValue = string | boolean | null | { text: string } | { error: string };

/** What before_agent_start collects from the effects it performs. */
interface Injection {
	system: string;
	message: Message | undefined;
}

export default function (pi: ExtensionAPI): void {
	// pi exits when a factory throws; without memory is better than without pi.
	try {
		install(pi);
	} catch (err) {
		console.error("pi-memory: could not load; pi goes on without memory:", err);
	}
}

function install(pi: ExtensionAPI): void {
	// Compiling and instantiating start here, in the background; the first call (at
	// session_start) waits only for what is not done yet.
	const core = new Core(CORE_FILE, { log: logToStderr });
	core.prepare();
	const moduleSha256 = sha256Of(CORE_FILE);
	let reported = false;

	const registry = readRegistry();
	for (const f of registry.flags) {
		if (f.type === "boolean") pi.registerFlag(f.name, { description: f.description, type: "boolean", default: false });
		else pi.registerFlag(f.name, { description: f.description, type: "string", default: "" });
	}
	for (const c of registry.commands) {
		for (const name of [c.name, ...c.aliases]) {
			pi.registerCommand(name, {
				description: name === c.name ? c.description : `Alias of /${c.name}`,
				handler: async (args, ctx) => {
					await run(ctx, "command", { name: c.name, args, hasUI: ctx.hasUI });
				},
			});
		}
	}

	// The core's session start is not awaited here: pi would wait for the module to
	// finish compiling before doing anything else. Core serializes calls, so the first
	// event that needs the core (a prompt, a command) waits for it instead, and its
	// effects (footer status, config warnings) appear as soon as it is done.
	pi.on("session_start", (event, ctx) => {
		reported = false;
		void run(ctx, "session_start", {
			cwd: ctx.cwd,
			agentDir: getAgentDir(),
			home: os.homedir(),
			trusted: ctx.isProjectTrusted(),
			hasUI: ctx.hasUI,
			mode: ctx.mode,
			reason: event.reason,
			flags: Object.fromEntries(registry.flags.map((f) => [f.name, pi.getFlag(f.name) ?? null])),
			moduleSha256,
			fault: process.env.PI_MEMORY_FAULT ?? "",
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
		await run(ctx, "agent_end", { stopReason, aborted: stopReason === "aborted" || ctx.signal?.aborted === true });
	});

	pi.on("session_shutdown", async (event, ctx) => {
		await run(ctx, "session_shutdown", { reason: event.reason });
		// The runtime is torn down after this event; let the instance and its locks go.
		await core.close().catch((err: unknown) => console.error("pi-memory: closing the core failed:", err));
	});

	// pi's project_trust event is a vote on trust taken before session_start, not a
	// change notice: trust is read with ctx.isProjectTrusted() at every session_start,
	// and a /trust decision takes effect only after a restart. So it is not forwarded.

	// Forwards one export and performs its effects, answering dialogs and model calls
	// through `resume` until the core has nothing more to ask. Undefined on failure.
	async function run(ctx: ExtensionContext, exportName: string, input: unknown): Promise<Injection | undefined> {
		const got: Injection = { system: "", message: undefined };
		try {
			let envelope: Envelope = await core.call(exportName, input);
			for (;;) {
				const ask = perform(ctx, exportName, envelope, got);
				if (ask === undefined) {
					// Without a UI (pi -p, --mode json) a refused command makes pi exit
					// non-zero, as pimem does; pi keeps a non-zero exitCode it finds set.
					if (exportName === "command" && envelope.exit !== 0 && !ctx.hasUI) process.exitCode = envelope.exit;
					return got;
				}
				const value = ask.t === "dialog" ? await answerDialog(ctx, ask) : await answerComplete(ctx, ask);
				envelope = await core.call("resume", { id: ask.id, value });
			}
		} catch (err) {
			await failed(ctx, exportName, err);
			return undefined;
		}
	}

	async function failed(ctx: ExtensionContext, exportName: string, err: unknown): Promise<void> {
		if (err instanceof CoreTrap) console.error(err.panic ? `pi-memory core failed in ${err.exportName}:\n${err.panic.trimEnd()}` : err.message);
		else console.error(`pi-memory: ${exportName} failed:`, err);
		if (!reported) {
			reported = true;
			const what = err instanceof Error ? err.message : String(err);
			const notice =
				err instanceof CoreTrap
					? `pi-memory restarted its core after an internal error (${what}); the turn goes on. Details are on stderr.`
					: `pi-memory failed (${what}); the turn goes on without memory. Details are on stderr.`;
			try {
				ctx.ui.notify(notice, "error");
			} catch (notifyErr) {
				console.error("pi-memory: could not show the failure notice:", notifyErr);
			}
		}
		if (err instanceof CoreTrap) {
			// The replayed session_start's effects were already shown when the session began.
			await core.recreate().catch((again: unknown) => console.error("pi-memory: restarting the core failed; the next event tries again:", again));
		}
	}
}

// Performs effects in order; returns the dialog or completion that ends the envelope.
function perform(ctx: ExtensionContext, exportName: string, envelope: Envelope, got: Injection): Dialog | Complete | undefined {
	for (const e of envelope.effects) {
		switch (e.t) {
			case "output":
				show(ctx, e.text, "info");
				break;
			case "notify":
				show(ctx, e.text, e.level === "warning" || e.level === "error" ? e.level : "info");
				break;
			case "status":
				ctx.ui.setStatus(e.key, e.text ?? undefined);
				break;
			case "system_prompt_append":
				if (exportName === "before_agent_start") got.system += e.text;
				else misplaced(e.t, exportName);
				break;
			case "message":
				if (exportName !== "before_agent_start") misplaced(e.t, exportName);
				else if (got.message !== undefined) console.error("pi-memory: the core sent a second message effect; pi takes one per run, the first is kept");
				else got.message = { customType: e.customType, content: e.content, display: e.display };
				break;
			case "dialog":
			case "complete":
				return e;
			default:
				console.error(`pi-memory: unknown effect from the core, ignored: ${JSON.stringify(e)}`);
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

function misplaced(t: string, exportName: string): void {
	console.error(`pi-memory: the core sent ${t} from ${exportName}; only before_agent_start can apply it, ignored`);
}

async function answerDialog(ctx: ExtensionContext, d: Dialog): Promise<ResumeValue> {
	switch (d.kind) {
		case "select":
			return (await ctx.ui.select(d.title, d.options ?? [])) ?? null;
		case "confirm":
			return ctx.ui.confirm(d.title, d.message ?? "");
		case "input":
			return (await ctx.ui.input(d.title, d.placeholder)) ?? null;
		default:
			return null;
	}
}

async function answerComplete(ctx: ExtensionContext, c: Complete): Promise<ResumeValue> {
	const model = ctx.model;
	if (model === undefined) return { error: "no model is selected" };
	try {
		const reply = await ctx.modelRegistry.complete(
			model,
			{
				systemPrompt: c.system,
				messages: [{ role: "user", content: [{ type: "text", text: c.prompt }], timestamp: Date.now() }],
			},
			{ maxTokens: c.maxTokens, signal: ctx.signal },
		);
		if (reply.stopReason === "error" || reply.stopReason === "aborted") return { error: reply.errorMessage ?? `the model call ended: ${reply.stopReason}` };
		return { text: textOf(reply.content) };
	} catch (err) {
		return { error: err instanceof Error ? err.message : String(err) };
	}
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

// The core's warnings and errors go to stderr; debug and info stay quiet inside pi.
function logToStderr(level: LogLevel, message: string): void {
	if (level >= 2) console.error(`pi-memory: ${message}`);
}
