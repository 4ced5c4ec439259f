package registry

// decisionTools are the decision store's tools (store.Tooler). Seed 000:
// decisions come from the user, so the model only proposes; the person
// confirms in a dialog, or is told the command to run.
var decisionTools = []Tool{
	{Store: "decisions", Name: "decision_propose", Label: "Propose a decision",
		Description: "Propose recording a project decision (a rule the user chose that affects future work), or replacing one: the user confirms it in a dialog before anything is written. " +
			"Use it when the user states a lasting choice (\"we use pnpm\", \"never deploy on Fridays\"), not for tasks or facts. To replace a decision, give its id in supersedes and say why in reason.",
		Parameters: `{"type":"object","properties":{` +
			`"text":{"type":"string","description":"the decision, one self-contained sentence"},` +
			`"reason":{"type":"string","description":"why (required with supersedes)"},` +
			`"supersedes":{"type":"string","description":"id of the active decision it replaces (D-2026-03-01-0001, or its last digits)"}` +
			`},"required":["text"],"additionalProperties":false}`, Hosts: Pi | MCP,
		// Not additive: a decision it supersedes is no longer active.
		// Idempotent: a proposal again is refused as recorded or declined.
		Hints: Idempotent | Local},
	{Store: "decisions", Name: "decision_list", Label: "List decisions", Hosts: MCP, Hints: ReadOnly | Local,
		Description: "The project's decisions (active unless status says otherwise), newest first, each with its id; conflicts are marked. Read-only.",
		Parameters: `{"type":"object","properties":{` +
			`"status":{"type":"string","enum":["active","draft","rejected","superseded","all"],"description":"which decisions, active unless given"},` +
			`"limit":{"type":"integer","minimum":1,"maximum":200,"description":"how many, newest first; 50 unless given"}` +
			`},"additionalProperties":false}`},
}
