package registry

// memoryTools are the orchestrator's own tools (Store ""): they are about
// every store at once, as /memory search, forget and restore are. The
// orchestrator offers them while memory is on, runs them itself, and asks
// each store through store.Searcher and store.Forgetter.
var memoryTools = []Tool{
	{Name: "memory_search", Label: "Memory search",
		Description: "Search this project's memory: decisions (any status), notes (MEMORY.md and topic files), observations, and the messages of earlier pi sessions. Best first, each hit cited (a decision id, a note's file:line#id, a session file and date). Use it before answering questions about earlier work, rules or preferences that are not in your context. A time the query names (\"in March\", \"last week\") ranks that time's entries first.",
		Parameters:  `{"type":"object","properties":{"query":{"type":"string","description":"a few words of what to find (plurals and abbreviations match)"},"limit":{"type":"integer","minimum":1,"maximum":20,"description":"how many hits, 8 unless given"},"since":{"type":"string","description":"only entries from then on: a date (2026-09-14), a month (2026-09, march), a year, yesterday, last week"},"until":{"type":"string","description":"only entries up to the end of that time, as since"}},"required":["query"],"additionalProperties":false}`, Hosts: Pi | MCP,
		Hints: ReadOnly | Local},
	{Name: "memory_forget", Label: "Memory forget",
		Description: "Remove one decision or note from memory, keeping a record that memory_restore brings back. Give the whole id a memory_search hit showed (a decision id, or a note's file:line#id; not the hit's number), or a query: it forgets the one clearly best match, else lists candidates to choose from by id.",
		Parameters:  `{"type":"object","properties":{"id":{"type":"string","description":"a whole decision id or a note's <file>:<line>#<id>, from memory_search"},"query":{"type":"string","description":"words of the entry to forget, when you have no id"}},"additionalProperties":false}`, Hosts: Pi | MCP,
		// Forgetting by words twice forgets the next best match.
		Hints: Local},
	{Name: "memory_restore", Label: "Memory restore",
		Description: "Bring back an entry memory_forget removed; its result gave the id to pass.",
		Parameters:  `{"type":"object","properties":{"id":{"type":"string","description":"the restore id memory_forget returned"}},"required":["id"],"additionalProperties":false}`, Hosts: Pi | MCP,
		Hints: Additive | Idempotent | Local},
	{Name: "memory_status", Label: "Memory status", Hosts: MCP, Hints: ReadOnly | Local,
		Description: "Whether pi-memory is on for this project and each store's state (decisions and their conflicts, notes, observations, Hindsight); an off store says why.",
		Parameters:  `{"type":"object","properties":{},"additionalProperties":false}`},
}
