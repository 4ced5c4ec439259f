package lifecycle

import (
	"github.com/pi-memory/pi-memory/wasm/marker"
	"strconv"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/decision"
	"github.com/pi-memory/pi-memory/wasm/jsonr"
	"github.com/tidwall/gjson"
)

// beforeAgentStart injects stable memory into the system prompt and holds the
// prompt's decision candidates until the run ends. Each store the gate lets
// inject renders its section; the budget orders and caps them. The receipt
// of what went in is kept for /memory last and the traces.
func (e *Engine) beforeAgentStart(out *Out, in gjson.Result) {
	d, n := e.s.dec, e.s.notes
	// Each store follows its configuration as it is now.
	for _, st := range e.stores() {
		st.refresh(out)
	}
	d.pending = nil
	if e.may(d, Capture) == "" && d.cfg.AutoCapture && jsonr.Get(in, "messageType").String() != "custom" {
		// An injected block is memory, not a decision the person made now.
		d.pending = decision.Candidates(marker.Strip(jsonr.Get(in, "prompt").String()))
	}
	dec := budget.Section{Store: "decisions", Cap: decision.MaxSectionChars * utf8.UTFMax, Limit: strconv.Itoa(decision.MaxSectionChars) + " characters"}
	if dec.Why = e.may(d, Inject); dec.Why == "" {
		if err := d.refreshLog(); err != nil {
			dec.Why = "could not read " + d.log + ": " + err.Error()
			out.Notify("error", "pi-memory: "+dec.Why+"; no decisions injected this turn.")
		} else {
			dec.Text = d.section()
		}
	}
	note := budget.Section{Store: "notes"}
	if note.Why = e.may(n, Inject); note.Why == "" {
		var problems []string
		note.Text, problems = n.section()
		for _, p := range problems {
			out.Notify("warning", "pi-memory: "+p)
		}
	}
	note.Cap, note.Limit = n.capBytes(), strconv.Itoa(n.cfg.MaxMemoryTokens)+" tokens"
	sections := []budget.Section{dec, note}
	text, receipts := budget.Assemble(sections)
	e.s.last = receipts
	n.injected(text, receipts)
	if text != "" {
		out.SystemPromptAppend(text)
	}
	// The run's tools follow hindsight.json as it is now.
	e.s.hs.retool(out)
}

// agentEnd reviews the decision candidates held since before_agent_start,
// unless the run failed or was cancelled (no moment to ask), and does what
// can wait until the turn is over.
func (e *Engine) agentEnd(out *Out, in gjson.Result) {
	// Queued before anything else, and flushed in the background: the
	// decision review below may end the envelope with a dialog.
	e.s.hs.retain(out, in)
	d := e.s.dec
	defer d.settle()
	pending := d.pending
	d.pending = nil
	stop := jsonr.Get(in, "stopReason").String()
	if jsonr.Get(in, "aborted").Bool() || stop == "error" || stop == "aborted" {
		return
	}
	d.capture(out, pending)
}
