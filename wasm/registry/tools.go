package registry

// Tool is one tool the model may call, registered by the host inactive and
// made active by the core's tools effect.
type Tool struct {
	Name, Label, Description string
	// Store is the store that runs it (store.Tooler); "" for the
	// orchestrator's own tools (tools_memory.go), about every store at once.
	Store string
	// Parameters is a JSON schema object (type "object"); CheckParams holds
	// a call's arguments to it.
	Parameters string
	// Hosts are who is offered the tool: pi's model (Pi), the clients of
	// `pimem mcp` (MCP), or both. Every tool names its hosts.
	Hosts Hosts
	// Hints say what a call does to the world, for an MCP client deciding
	// whether to ask the person first (its tool annotations); none claims
	// the least (MCP's defaults: it may remove, may change more each time,
	// may reach beyond this machine).
	Hints Hints
}

// Hints are what a tool's calls do, as far as a client may rely on it.
type Hints uint8

const (
	// ReadOnly: it changes nothing (so it adds only, and again changes
	// nothing more).
	ReadOnly Hints = 1 << iota
	// Additive: what it writes only adds; nothing is removed or replaced.
	Additive
	// Idempotent: the same call again changes nothing more.
	Idempotent
	// Local: it reads and writes only memory files on this machine (MCP's
	// openWorldHint false).
	Local
)

// Has says whether every hint of h is one of t's.
func (t *Tool) Has(h Hints) bool { return t.Hints&h == h }

// Hosts is a set of the places a tool is offered.
type Hosts uint8

const (
	// Pi: pi's model, through the adapter (the registry's "tools").
	Pi Hosts = 1 << iota
	// MCP: the clients of `pimem mcp` (the registry's "mcpTools").
	MCP
)

// For says whether the tool is offered in h.
func (t *Tool) For(h Hosts) bool { return t.Hosts&h != 0 }

// ToolsFor are the tools offered in h, in the registry's order.
func ToolsFor(h Hosts) []Tool {
	var out []Tool
	for _, t := range Tools {
		if t.For(h) {
			out = append(out, t)
		}
	}
	return out
}

// Tools are every tool the core offers, each store's in its file; the tool
// export runs them.
var Tools = concat(memoryTools, decisionTools, notesTools, hindsightTools)

func concat(lists ...[]Tool) []Tool {
	var all []Tool
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}
