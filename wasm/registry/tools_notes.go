package registry

// notesTools are markdown memory's tools (store.Tooler in wasm/notes).
var notesTools = []Tool{
	{Store: "notes", Name: "memory_remember", Label: "Remember",
		Description: "Save one durable fact or preference to markdown memory (MEMORY.md) now: when the user states a lasting preference or fact, or asks you to remember something. One short line; duplicates and secrets are refused. Scope defaults to the project (when trusted), else global.",
		Parameters:  `{"type":"object","properties":{"text":{"type":"string","description":"the fact, one self-contained line"},"scope":{"type":"string","enum":["global","project","local"],"description":"global: this user, every project; project: committed, read by the team; local: personal notes for this project, not committed"},"section":{"type":"string","description":"the ## section of MEMORY.md to put it under (default Notes)"}},"required":["text"],"additionalProperties":false}`, Hosts: Pi | MCP,
		// Idempotent: the same fact again is refused as a duplicate.
		Hints: Additive | Idempotent | Local},
}
