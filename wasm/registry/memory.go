package registry

var memoryCommand = Command{
	Name:        "memory",
	Store:       "notes",
	Description: "Markdown memory: status, remember, flush, recall, what was injected (/memory help)",
	Default:     "status",
	Subs: []Sub{
		{Name: "status", Kind: Info, MaxArgs: 0, Help: "both scopes: files, sizes, what is injected, page tables, trust"},
		{Name: "pages", Args: "[global|project|local]", Kind: Read, MaxArgs: 1, Help: "the typed pages of each MEMORY.md and the page-table status"},
		{Name: "verify", Kind: Write, MaxArgs: 0, Help: "rebuild the page tables and check the files; exits 1 when it finds a problem"},
		{Name: "remember", Args: "[global|project|local] <text>", Kind: Write, MinArgs: 1, MaxArgs: -1,
			Help: "write a fact now (default scope: the project when trusted, else global)", Flags: []Flag{{Name: "section", Value: "S"}, {Name: "scope", Value: "S"}}},
		{Name: "flush", Kind: Write, MaxArgs: 0, Help: "validate and write the staged facts (an import stages; also done when the session ends)"},
		{Name: "recall", Args: "<words> [\"a phrase\"] [scope:global|project|local]", Kind: Info, MaxArgs: -1,
			Help: "search the indexes and topic files; answers ok, no_match, denied, …", Flags: []Flag{{Name: "limit", Value: "N"}}},
		{Name: "search", Args: "<words> [since:T] [until:T]", Kind: Info, MinArgs: 1, MaxArgs: -1,
			Help: "search decisions, notes, observations and earlier sessions; best first, cited", Flags: []Flag{{Name: "limit", Value: "N"}}},
		// forget and restore write, but to whichever store holds the entry: the
		// orchestrator asks the gate store by store (Info lets them reach it).
		{Name: "forget", Args: "<query|id>", Kind: Info, MinArgs: 1, MaxArgs: -1, Help: "remove a decision or a note (the best match, or the one named); /memory restore brings it back"},
		{Name: "restore", Args: "[<id>]", Kind: Info, MaxArgs: 1, Help: "bring back what forget removed (no id: the last thing forgotten in this session)"},
		{Name: "stale", Kind: Read, MaxArgs: 0, Help: "entries not confirmed for staleDays (suggestions; nothing is deleted)", Flags: []Flag{{Name: "days", Value: "N"}}},
		{Name: "confirm", Args: "<page-id>", Kind: Write, MinArgs: 1, MaxArgs: 1, Help: "mark an entry as still true"},
		{Name: "faults", Kind: Read, MaxArgs: 0, Help: "pages that could not stay in the prompt, and refused writebacks"},
		{Name: "traces", Kind: Read, MaxArgs: 0, Help: "injection and flush decisions, newest first", Flags: []Flag{{Name: "limit", Value: "N"}}},
		{Name: "trace", Args: "<id>", Kind: Read, MinArgs: 1, MaxArgs: 1, Help: "one decision in full: every page and the form it got"},
		{Name: "last", Kind: Info, MaxArgs: 0, Help: "exactly what the previous turn injected, per store (the receipt)"},
		{Name: "import", Args: "claude", Kind: Write, MinArgs: 1, MaxArgs: 1, Help: "stage the facts of Claude Code's memory for this project", Flags: []Flag{{Name: "dry-run"}}},
		{Name: "gitignore", Kind: Write, MaxArgs: 0, Help: "add .pi/memory/MEMORY.local.md to the project's .gitignore"},
		{Name: "off", Kind: Session, MaxArgs: 0, Help: "memory off for this session: nothing injected, captured or written (--no-memory does it from the start)"},
		{Name: "on", Kind: Session, MaxArgs: 0, Help: "memory back on for this session"},
		{Name: "help", Kind: Help, MaxArgs: 0, Help: "this list"},
	},
}
