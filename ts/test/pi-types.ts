// Checked by `make test-types`, never run: the types of pi and Extism that the adapter
// relies on must be real types. pi's declarations are assembled by build/pi-types.sh,
// not installed by npm; a module tsc cannot find becomes `any` under skipLibCheck,
// and `any` accepts every mistake. Each line fails the check if a type is `any`.

import type {
	AgentEndEvent,
	AgentSettledEvent,
	ContextEvent,
	SessionBeforeCompactEvent,
	SessionBeforeCompactResult,
	SessionBeforeTreeEvent,
	SessionBeforeTreeResult,
	BeforeAgentStartEvent,
	BeforeAgentStartEventResult,
	ExtensionAPI,
	ExtensionContext,
	SessionShutdownEvent,
	SessionStartEvent,
} from "@earendil-works/pi-coding-agent";
import type { getAgentDir } from "@earendil-works/pi-coding-agent";
import type { Plugin, createPlugin } from "@extism/extism";

// `any`, and the type tsc gives a name from a module it cannot find, are assignable
// to everything, this brand included; no real type is. (The usual `0 extends 1 & T`
// test does not work: on an unresolved type it gives the unresolved type again.)
declare const brand: unique symbol;
type Real<T> = [T] extends [{ readonly [brand]: true }] ? false : true;

type Completed = Awaited<ReturnType<ExtensionContext["modelRegistry"]["complete"]>>;

export const resolved: Record<string, true> = {
	api: true satisfies Real<ExtensionAPI>,
	on: true satisfies Real<ExtensionAPI["on"]>,
	registerCommand: true satisfies Real<Parameters<ExtensionAPI["registerCommand"]>[1]>,
	registerFlag: true satisfies Real<Parameters<ExtensionAPI["registerFlag"]>[1]>,
	messageRenderer: true satisfies Real<Parameters<ExtensionAPI["registerMessageRenderer"]>[1]>,
	sendMessage: true satisfies Real<Parameters<ExtensionAPI["sendMessage"]>[0]>,
	getAgentDir: true satisfies Real<typeof getAgentDir>,
	ctx: true satisfies Real<ExtensionContext>,
	ui: true satisfies Real<ExtensionContext["ui"]>,
	model: true satisfies Real<NonNullable<ExtensionContext["model"]>>,
	modelRegistry: true satisfies Real<ExtensionContext["modelRegistry"]>,
	completion: true satisfies Real<Completed>,
	completionContent: true satisfies Real<Completed["content"][number]>,
	sessionStart: true satisfies Real<SessionStartEvent["reason"]>,
	beforeAgentStart: true satisfies Real<BeforeAgentStartEvent>,
	customMessage: true satisfies Real<Extract<BeforeAgentStartEvent, { messageType: "custom" }>["message"]>,
	injectedMessage: true satisfies Real<NonNullable<BeforeAgentStartEventResult["message"]>>,
	agentEndMessage: true satisfies Real<AgentEndEvent["messages"][number]>,
	sessionShutdown: true satisfies Real<SessionShutdownEvent["reason"]>,
	contextMessage: true satisfies Real<ContextEvent["messages"][number]>,
	agentSettled: true satisfies Real<AgentSettledEvent>,
	beforeCompact: true satisfies Real<SessionBeforeCompactEvent["preparation"]>,
	fileOps: true satisfies Real<SessionBeforeCompactEvent["preparation"]["fileOps"]["read"]>,
	compaction: true satisfies Real<NonNullable<SessionBeforeCompactResult["compaction"]>>,
	compactionUsage: true satisfies Real<NonNullable<NonNullable<SessionBeforeCompactResult["compaction"]>["usage"]>>,
	beforeTree: true satisfies Real<SessionBeforeTreeEvent["preparation"]>,
	branchSummary: true satisfies Real<NonNullable<SessionBeforeTreeResult["summary"]>>,
	sessionManager: true satisfies Real<ExtensionContext["sessionManager"]>,
	branchEntry: true satisfies Real<ReturnType<ExtensionContext["sessionManager"]["getBranch"]>[number]>,
	plugin: true satisfies Real<Plugin>,
	createPlugin: true satisfies Real<Parameters<typeof createPlugin>[1]>,
};
