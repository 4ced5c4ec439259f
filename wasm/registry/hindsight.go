package registry

// hindsightCommand is the Hindsight backend (issue 9, decision 012): the
// same words in pi (/hindsight …) and pimem (pimem hindsight …).
var hindsightCommand = Command{
	Name:        "hindsight",
	Store:       "hindsight",
	Description: "Hindsight memory server: status, flush the outbox, doctor, session mode, bank, import (/hindsight help)",
	Default:     "status",
	Subs: []Sub{
		{Name: "status", Kind: Info, MaxArgs: 0, Help: "on or off and why, the server, banks, mode, the outbox (waiting, due, dead letters), the last recall"},
		{Name: "flush", Kind: Write, MaxArgs: 0, Help: "send the outbox's due jobs now and say what the server answered"},
		{Name: "doctor", Kind: Info, MaxArgs: 0, Help: "check the configuration, the identity, the outbox and (when on) each bank on the server"},
		{Name: "mode", Args: "[normal|read-only|ignored|next-opt-out]", Kind: Session, MaxArgs: 1,
			Help: "show or set this session's mode: read-only recalls without retaining, ignored does neither, next-opt-out skips retaining the next run only"},
		{Name: "next-opt-out", Kind: Session, MaxArgs: 0, Help: "do not retain the next run (the one after it is retained again)"},
		{Name: "bank", Kind: Info, MaxArgs: 0, Help: "the repo key, the banks this session recalls from and retains to, and their tags"},
		{Name: "import", Args: "[DIR]", Kind: Write, MaxArgs: 1, Help: "retain historical pi sessions (one document each, replaced on a second run)",
			Flags: []Flag{{Name: "dry-run", Help: "say what would be retained, send nothing"}}},
		{Name: "help", Kind: Help, MaxArgs: 0, Help: "this list"},
	},
}

// hindsightTools are Hindsight's tools (store.Tooler).
var hindsightTools = []Tool{
	{Store: "hindsight", Name: "hindsight_recall", Label: "Hindsight recall",
		Description: "Search long-term memory (Hindsight) for facts about this project and the user. Use it before answering questions about earlier work, preferences or decisions.",
		Parameters:  `{"type":"object","properties":{"query":{"type":"string","description":"what to look for, in a sentence"}},"required":["query"],"additionalProperties":false}`, Hosts: Pi},
	{Store: "hindsight", Name: "hindsight_retain", Label: "Hindsight retain",
		Description: "Store a durable fact in long-term memory (Hindsight): a decision and its reason, a preference, a constraint. Secrets are removed before storing.",
		Parameters:  `{"type":"object","properties":{"content":{"type":"string","description":"the fact, self-contained"},"context":{"type":"string","description":"where it comes from (optional)"}},"required":["content"],"additionalProperties":false}`, Hosts: Pi},
	{Store: "hindsight", Name: "hindsight_reflect", Label: "Hindsight reflect",
		Description: "Ask long-term memory (Hindsight) to answer a question from everything it holds about this project.",
		Parameters:  `{"type":"object","properties":{"query":{"type":"string","description":"the question"}},"required":["query"],"additionalProperties":false}`, Hosts: Pi},
	{Store: "hindsight", Name: "hindsight_status", Label: "Hindsight status",
		Description: "Whether long-term memory (Hindsight) is on, its banks, and how many memories wait to be sent.",
		Parameters:  `{"type":"object","properties":{},"additionalProperties":false}`, Hosts: Pi},
}
