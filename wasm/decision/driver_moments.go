package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// The decision store's moments (wasm/store).

func (d *driver) Name() string { return "decisions" }

// Commands are /decision's subcommands. Each but status and doctor (which
// report bad lines themselves) first says, once a session, that the log has
// lines that need attention.
func (d *driver) Commands() map[string]func(c *store.Cmd) {
	quiet := map[string]func(c *store.Cmd){
		"status": d.cmdStatus,
		"doctor": d.cmdDoctor,
	}
	cmds := map[string]func(c *store.Cmd){
		"add":       d.cmdAdd,
		"list":      d.cmdList,
		"search":    d.cmdSearch,
		"show":      d.cmdShow,
		"edit":      d.cmdEdit,
		"remove":    d.cmdRemove,
		"supersede": d.cmdSupersede,
		"conflict":  d.cmdConflict,
		"resolve":   d.cmdResolve,
		"purge":     d.cmdPurge,
		"reset":     d.cmdReset,
		"enable":    func(c *store.Cmd) { d.cmdToggle(c, true) },
		"disable":   func(c *store.Cmd) { d.cmdToggle(c, false) },
	}
	for name, h := range cmds {
		cmds[name] = func(c *store.Cmd) {
			d.noticeOnce(c.Out)
			h(c)
		}
	}
	for name, h := range quiet {
		cmds[name] = h
	}
	return cmds
}

func (d *driver) Start(out *store.Out, _ gjson.Result) { d.start(out) }

// Prompt holds the prompt's decision candidates until the run ends. An
// injected block is memory, not a decision the person made now.
func (d *driver) Prompt(_ *store.Out, in gjson.Result) {
	d.pending = nil
	if d.env.May(d, store.Capture) == "" && d.cfg.AutoCapture && jsonr.Get(in, "messageType").String() != "custom" {
		d.pending = candidates(marker.Strip(promptLines(jsonr.RawAt(in, "prompt"))))
	}
}

// Section is the active decisions, cached while they are unchanged, caught
// up first with what other processes appended.
func (d *driver) Section(out *store.Out, why string) budget.Section {
	// The section's own cap is maxSectionChars characters (the seed's unit,
	// applied while it renders); budget's is its bound in tokens, the bytes
	// that many characters can take.
	sec := budget.Section{Store: "decisions", Cap: budget.BytesTokens(maxSectionChars * utf8.UTFMax), Limit: numstr.Itoa(maxSectionChars) + " characters", Why: why}
	if why != "" {
		return sec
	}
	if err := d.refreshLog(); err != nil {
		sec.Why = "could not read " + d.log + ": " + err.Error()
		out.Notify("error", "pi-memory: "+sec.Why+"; no decisions injected this turn.")
		return sec
	}
	sec.Text = d.section()
	return sec
}

// AgentEnd reviews the candidates held since the prompt, unless the run
// failed or was cancelled (no moment to ask), and does what can wait until
// the turn is over.
func (d *driver) AgentEnd(out *store.Out, in gjson.Result) {
	defer d.settle()
	pending := d.pending
	d.pending = nil
	stop := jsonr.Get(in, "stopReason").String()
	if jsonr.Get(in, "aborted").Bool() || stop == "error" || stop == "aborted" {
		return
	}
	d.capture(out, pending)
}

// Shutdown writes a snapshot the last load asked for.
func (d *driver) Shutdown(*store.Out, gjson.Result) { d.settle() }
