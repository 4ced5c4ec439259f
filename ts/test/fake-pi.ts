// A minimal stand-in for the parts of pi that index.ts touches, and a scripted core,
// so the adapter's translation can be tested in plain Node.
//
// Importing this file registers a module hook: "@earendil-works/pi-coding-agent" (which
// only resolves inside pi) becomes this file, and so does "./core.ts" when it is
// imported by a module loaded as `index.ts?scripted`. Load index.ts with
// `import(new URL("../index.ts?real", import.meta.url).href)` for the real core, or
// with `?scripted` for the scripted one.

import { registerHooks } from "node:module";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { ContextMessage, Effect, Envelope, HostOptions } from "../core.ts";

export { CoreTrap } from "../core.ts";

const self = import.meta.url;

registerHooks({
	resolve(specifier, context, nextResolve) {
		if (specifier === "@earendil-works/pi-coding-agent") return { url: self, shortCircuit: true };
		if (specifier === "./core.ts" && context.parentURL?.includes("?scripted") === true) return { url: self, shortCircuit: true };
		return nextResolve(specifier, context);
	},
});

// ---- What the adapter imports from pi ----------------------------------------------

export const AGENT_DIR = "/fake/agent";

/** pi's reading of --approve and --no-approve (the rest of its grammar is not needed here). */
export function parseArgs(args: string[]): { projectTrustOverride?: boolean } {
	let projectTrustOverride: boolean | undefined;
	for (const a of args) {
		if (a === "--") break;
		if (a === "--approve" || a === "-a") projectTrustOverride = true;
		if (a === "--no-approve" || a === "-na") projectTrustOverride = false;
	}
	return { projectTrustOverride };
}

/** Whether pi found a resource of its own list: a test sets PIMEM_FAKE_JUDGED. */
export function hasTrustRequiringProjectResources(_cwd: string): boolean {
	return process.env.PIMEM_FAKE_JUDGED === "1";
}

/** pi's agent folder: AGENT_DIR, or PIMEM_FAKE_AGENT_DIR where a test needs a real one. */
export function getAgentDir(): string {
	return process.env.PIMEM_FAKE_AGENT_DIR ?? AGENT_DIR;
}

// ---- The scripted core ---------------------------------------------------------------

export type Script = (exportName: string, input: unknown) => Envelope;

export function envelope(...effects: Envelope["effects"]): Envelope {
	return { v: 1, effects, exit: 0 };
}

/** What the scripted core was asked, and how it answers. Reset between tests. */
export const scripted = {
	script: ((): Envelope => envelope()) as Script,
	calls: [] as { exportName: string; input: unknown }[],
	/** What the adapter gave the redact export. */
	redactions: [] as unknown[],
	recreated: 0,
	/** What recreate returns: the effects of the replayed session start the adapter applies. */
	replay: undefined as Envelope | undefined,
	closed: 0,
	prepared: 0,
	reset(script: Script = () => envelope()): void {
		this.script = script;
		this.calls = [];
		this.redactions = [];
		this.recreated = 0;
		this.replay = undefined;
		this.closed = 0;
		this.prepared = 0;
	},
};

/** Stands in for core.ts's Core inside `index.ts?scripted`. */
export class Core {
	constructor(_file: string | URL, _options?: HostOptions) {}

	prepare(): void {
		scripted.prepared++;
	}

	async call(exportName: string, input: unknown): Promise<Envelope> {
		if (exportName === "redact") {
			// The core's redact export, a pure function of its input (the adapter asks it
			// for the command line it keeps with an output): text without a secret comes
			// back as it went. Kept apart from the calls a test scripts.
			scripted.redactions.push(input);
			return envelope({ t: "output", text: JSON.stringify(input) });
		}
		scripted.calls.push({ exportName, input });
		return scripted.script(exportName, input);
	}

	/** Scripted envelopes carry their blocks: a `same` names nothing here. */
	contextMessages(effect: Extract<Effect, { t: "context_messages" }>): ContextMessage[] {
		if (effect.messages === undefined) throw new Error(`the scripted core cannot resolve context block ${effect.same}`);
		return effect.messages;
	}

	async recreate(): Promise<Envelope | undefined> {
		scripted.recreated++;
		return scripted.replay;
	}

	async close(): Promise<void> {
		scripted.closed++;
	}
}

// ---- The extension API ---------------------------------------------------------------

type Handler = (event: unknown, ctx: unknown) => unknown;

interface Command {
	description?: string;
	getArgumentCompletions?: (prefix: string) => Promise<unknown>;
	handler: (args: string, ctx: unknown) => Promise<void>;
}

/** A tool as registerTool receives it (the parts the adapter sets). */
export interface Tool {
	name: string;
	label: string;
	description: string;
	parameters: unknown;
	defaultActive?: boolean;
	execute: (toolCallId: string, params: unknown, signal: AbortSignal | undefined, onUpdate: unknown, ctx: unknown) => Promise<unknown>;
}

interface Flag {
	type: "boolean" | "string";
	description?: string;
	default?: boolean | string;
}

/** Records what an extension registers and runs its handlers the way pi does: in order, awaited. */
export class FakePi {
	readonly handlers = new Map<string, Handler[]>();
	readonly commands = new Map<string, Command>();
	readonly flags = new Map<string, Flag>();
	/** Values given on the command line. */
	readonly flagValues = new Map<string, boolean | string>();
	/** Every pi.appendEntry call, in order. */
	readonly entries: { customType: string; data: unknown }[] = [];
	readonly tools = new Map<string, Tool>();
	/** The active tools (pi's own and others' to start with). */
	activeTools: string[] = ["read", "bash", "edit", "write"];
	/** Every pi.setActiveTools call, in order. */
	readonly setActiveToolsCalls: string[][] = [];

	registerTool(tool: Tool): void {
		this.tools.set(tool.name, tool);
		if (tool.defaultActive !== false) this.activeTools.push(tool.name);
	}

	getActiveTools(): string[] {
		return [...this.activeTools];
	}

	setActiveTools(names: string[]): void {
		this.setActiveToolsCalls.push([...names]);
		this.activeTools = [...names];
	}

	appendEntry(customType: string, data?: unknown): void {
		this.entries.push({ customType, data });
	}

	/** Every pi.sendMessage call, in order (command output in the transcript). */
	readonly sent: { customType: string; content: unknown; display: boolean; details?: unknown }[] = [];
	readonly renderers = new Map<string, unknown>();

	sendMessage(message: { customType: string; content: unknown; display: boolean; details?: unknown }): void {
		this.sent.push(message);
		// In the transcript, among the ui calls of the newest context: what the person saw, in order.
		lastUi?.push({ method: "message", args: [message.content, message.details] });
	}

	registerMessageRenderer(customType: string, renderer: unknown): void {
		this.renderers.set(customType, renderer);
	}

	on(event: string, handler: Handler): () => void {
		const list = this.handlers.get(event) ?? [];
		list.push(handler);
		this.handlers.set(event, list);
		return () => {};
	}

	registerCommand(name: string, options: Command): void {
		this.commands.set(name, options);
	}

	registerFlag(name: string, options: Flag): void {
		this.flags.set(name, options);
	}

	getFlag(name: string): boolean | string | undefined {
		return this.flagValues.get(name) ?? this.flags.get(name)?.default;
	}

	get api(): ExtensionAPI {
		return this as unknown as ExtensionAPI;
	}

	/** Runs every handler of `event`; returns their results. */
	async emit(event: string, payload: object, ctx: ExtensionContext): Promise<unknown[]> {
		const results: unknown[] = [];
		for (const h of this.handlers.get(event) ?? []) results.push(await h({ type: event, ...payload }, ctx));
		return results;
	}

	async command(name: string, args: string, ctx: ExtensionContext): Promise<void> {
		const c = this.commands.get(name);
		if (c === undefined) throw new Error(`no command /${name}`);
		await c.handler(args, ctx);
	}

	/** What pi offers as the person types `/name prefix` (getArgumentCompletions). */
	async complete(name: string, prefix: string): Promise<unknown> {
		const c = this.commands.get(name);
		if (c === undefined) throw new Error(`no command /${name}`);
		return c.getArgumentCompletions === undefined ? null : c.getArgumentCompletions(prefix);
	}
}

// ---- The context -----------------------------------------------------------------------

export interface UiCall {
	/** "message": a custom message pi.sendMessage put in the transcript (content, details). */
	method: "notify" | "setStatus" | "select" | "confirm" | "input" | "editor" | "message";
	args: unknown[];
}

export interface FakeContextOptions {
	hasUI?: boolean;
	mode?: string;
	cwd?: string;
	trusted?: boolean;
	model?: object;
	signal?: AbortSignal;
	select?: string;
	confirm?: boolean;
	input?: string;
	editor?: string;
	/** Stands in for ctx.modelRegistry.complete. */
	complete?: (model: unknown, context: unknown, options: unknown) => Promise<unknown>;
	/** The models ctx.modelRegistry knows (find, getAll); `auth: false` marks a provider without credentials (hasConfiguredAuth, getAvailable). */
	models?: Array<{ provider: string; id: string; contextWindow?: number; auth?: boolean }>;
	/** ctx.sessionManager.getBranch() and getSessionId(). */
	branch?: unknown[];
	sessionId?: string;
	/** ctx.isIdle() (default true). */
	idle?: boolean;
}

export interface FakeContext {
	ctx: ExtensionContext;
	/** Every ui call, in order. */
	ui: UiCall[];
	/** Arguments of every modelRegistry.complete call. */
	completions: unknown[][];
	/** Options of every ctx.compact() call. */
	compactions: unknown[];
}

// The ui calls of the newest fake context, where pi.sendMessage records too.
let lastUi: UiCall[] | undefined;

export function fakeContext(o: FakeContextOptions = {}): FakeContext {
	const ui: UiCall[] = [];
	lastUi = ui;
	const completions: unknown[][] = [];
	const compactions: unknown[] = [];
	const models = o.models ?? [];
	const hasModel = !("model" in o) || o.model !== undefined;
	const ctx = {
		hasUI: o.hasUI ?? true,
		mode: o.mode ?? "tui",
		cwd: o.cwd ?? "/fake/project",
		model: hasModel ? (o.model ?? { provider: "fake", id: "fake-model" }) : undefined,
		signal: o.signal,
		isProjectTrusted: () => o.trusted ?? true,
		isIdle: () => o.idle ?? true,
		compact: (options?: unknown) => void compactions.push(options),
		sessionManager: {
			getBranch: () => o.branch ?? [],
			getSessionId: () => o.sessionId ?? "fake-session",
		},
		ui: {
			notify: (...args: unknown[]) => void ui.push({ method: "notify", args }),
			setStatus: (...args: unknown[]) => void ui.push({ method: "setStatus", args }),
			select: async (...args: unknown[]) => {
				ui.push({ method: "select", args });
				return o.select;
			},
			confirm: async (...args: unknown[]) => {
				ui.push({ method: "confirm", args });
				return o.confirm ?? false;
			},
			input: async (...args: unknown[]) => {
				ui.push({ method: "input", args });
				return o.input;
			},
			editor: async (...args: unknown[]) => {
				ui.push({ method: "editor", args });
				return o.editor;
			},
		},
		modelRegistry: {
			find: (provider: string, id: string) => models.find((m) => m.provider === provider && m.id === id),
			getAll: () => models,
			getAvailable: () => models.filter((m) => m.auth !== false),
			hasConfiguredAuth: (model: { auth?: boolean }) => model.auth !== false,
			complete: async (...args: unknown[]) => {
				completions.push(args);
				if (o.complete === undefined) throw new Error("no completion scripted");
				return o.complete(args[0], args[1], args[2]);
			},
		},
	};
	return { ctx: ctx as unknown as ExtensionContext, ui, completions, compactions };
}
