package notes

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// Markdown memory's moments (wasm/store).

func (n *driver) Name() string { return "notes" }

// Commands are /memory's subcommands about markdown memory; last, on and
// off are about every store, and the orchestrator runs them.
func (n *driver) Commands() map[string]func(c *store.Cmd) {
	return map[string]func(c *store.Cmd){
		"status":    n.cmdStatus,
		"pages":     n.cmdPages,
		"verify":    n.cmdVerify,
		"remember":  n.cmdRemember,
		"flush":     n.cmdFlush,
		"recall":    n.cmdRecall,
		"stale":     n.cmdStale,
		"confirm":   n.cmdConfirm,
		"faults":    n.cmdFaults,
		"traces":    n.cmdTraces,
		"trace":     n.cmdTrace,
		"import":    n.cmdImport,
		"gitignore": n.cmdGitignore,
	}
}

func (n *driver) Start(out *store.Out, _ gjson.Result) { n.start(out) }

// Section is the notes block, within maxMemoryTokens.
func (n *driver) Section(out *store.Out, why string) budget.Section {
	sec := budget.Section{Store: "notes", Why: why}
	if why == "" {
		var problems []string
		sec.Text, problems = n.section()
		for _, p := range problems {
			out.Notify("warning", "pi-memory: "+p)
		}
	}
	sec.Cap, sec.Limit = n.cfg.MaxMemoryTokens, numstr.Itoa(n.cfg.MaxMemoryTokens)+" tokens"
	return sec
}

// Prompted traces what went into the system prompt when it changed.
func (n *driver) Prompted(_ *store.Out, text string, receipts []budget.Receipt) {
	n.turn = receipts
	n.injected(text, receipts)
}

// Shutdown flushes the staged facts.
func (n *driver) Shutdown(out *store.Out, _ gjson.Result) {
	info, warnings := n.settle()
	if info != "" {
		out.Notify("info", "pi-memory: "+info)
	}
	for _, msg := range warnings {
		out.Notify("warning", "pi-memory: "+msg)
	}
}

// Kept is the trace of this session's newest injection, which /memory last
// names after a restart of the core too.
func (n *driver) Kept() []byte {
	if n.lastTraceID == "" {
		return nil
	}
	return jsonw.String(nil, n.lastTraceID)
}

// TakeBack takes back what Kept wrote.
func (n *driver) TakeBack(v gjson.Result) {
	if v.Type == gjson.String {
		n.lastTraceID = v.Str
	}
}

// LastTrace is the trace of this session's newest injection.
func (n *driver) LastTrace() string { return n.lastTraceID }

// NewestTrace is the newest traced injection on disk.
func (n *driver) NewestTrace() (id, when string) {
	traces, _, err := n.readTraces()
	if err != nil {
		return "", ""
	}
	for i := len(traces) - 1; i >= 0; i-- {
		if traces[i].Kind == "inject" {
			return traces[i].ID, civil.FormatTime(traces[i].T)
		}
	}
	return "", ""
}
