package registry

// Tool is one tool the model may call, registered by the host inactive and
// made active by the core's tools effect.
type Tool struct {
	Name, Label, Description string
	// Store is the store that runs it (store.Tooler); "" for the
	// orchestrator's own tools (tools_memory.go), about every store at once.
	Store string
	// Parameters is a JSON schema object (type "object").
	Parameters string
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
