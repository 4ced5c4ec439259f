package registry

// omCommand is observational memory (seeds 002 and 004). Its aliases name a
// subcommand too (/om-status is /om status): seed 004 names every command
// /om-<sub>, seed 002 /obs-<sub>.
var omCommand = Command{
	Name:        "om",
	Store:       "observations",
	Description: "Observational memory: status, observe, reflect, view, what compaction keeps (/om help)",
	Default:     "status",
	Implied: []Implied{
		{Name: "om-status", Words: []string{"status"}},
		{Name: "om-config", Words: []string{"config"}},
		{Name: "om-observe", Words: []string{"observe"}},
		{Name: "om-reflect", Words: []string{"reflect"}},
		{Name: "om-observations", Words: []string{"observations"}},
		{Name: "om-clear", Words: []string{"clear"}},
		{Name: "obs-memory-status", Words: []string{"status"}},
		{Name: "obs-auto-compact", Words: []string{"auto-compact"}},
		{Name: "obs-mode", Words: []string{"mode"}},
		{Name: "obs-view", Words: []string{"view"}},
		{Name: "obs-reflect", Words: []string{"reflect"}},
		{Name: "obs-rebuild", Words: []string{"rebuild"}},
		{Name: "obs-dump", Words: []string{"dump"}},
	},
	Subs: []Sub{
		{Name: "status", Kind: Info, MaxArgs: 0, Help: "on or off and why, mode, thresholds, observations by priority, what they cover, runs and backoff"},
		{Name: "config", Args: "[reload|edit]", Kind: Config, MaxArgs: 1, Help: "the configuration in force and its files; reload reads them again; edit opens it in the editor (without a UI, names it)"},
		{Name: "observe", Kind: Write, MaxArgs: 0, Help: "observe everything not yet observed now (then compact, unless --no-compact)",
			Flags: []Flag{{Name: "no-compact", Help: "observe without compacting afterwards"}}},
		{Name: "reflect", Args: "[focus...]", Kind: Write, MaxArgs: -1, Help: "consolidate the observations now; focus words say what to keep",
			Flags: []Flag{{Name: "aggressive", Help: "compress harder (to half the reflector threshold)"}}},
		{Name: "observations", Kind: Read, MaxArgs: 0, Help: "the observations with the current task and suggested response"},
		{Name: "view", Args: "[obs] [raw] [N]", Kind: Read, MaxArgs: 3, Help: "obs: the observations; raw: the conversation not yet observed; N: at most N lines of each"},
		{Name: "clear", Kind: Write, MaxArgs: 0, Help: "forget the observations, task and response of this branch (a ledger record; the watermark stays)"},
		{Name: "mode", Args: "[buffered|blocking]", Kind: Write, MaxArgs: 1, Help: "show or set when the observer runs (kept in the session)"},
		{Name: "auto-compact", Args: "[on|off] [buffered|blocking] [observerTokens] [reflectorTokens] [retainTokens]", Kind: Write, MaxArgs: 5,
			Help: "show or set our own compaction and its thresholds (kept in the session)"},
		{Name: "rebuild", Kind: Read, MaxArgs: 0, Help: "rebuild the observations from the ledger in the session branch"},
		{Name: "dump", Kind: Read, MaxArgs: 0, Help: "the ledger records of this branch as JSON Lines"},
		{Name: "help", Kind: Help, MaxArgs: 0, Help: "this list"},
	},
}
