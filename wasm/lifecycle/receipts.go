package lifecycle

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/decision"
	"github.com/pi-memory/pi-memory/wasm/jsonw"
)

// cmdLast prints the receipt of the previous turn: exactly what each store
// put into the system prompt, under which cap, or why it put nothing; and,
// once a model request has been made, what the observations' context block
// put into the newest one.
func (e *Engine) cmdLast(c *cmdCtx) {
	n := e.s.notes
	last := e.s.last
	om := e.s.om
	hs := e.s.hs
	if last == nil && (om.injected || hs.recalled) {
		last = []budget.Receipt{}
	}
	if last == nil {
		if c.json {
			c.out.Output(`{"turn":false,"stores":[]}`)
			return
		}
		msg := "No turn has run in this session yet, so nothing was injected."
		if traces, _, err := n.readTraces(); err == nil {
			for i := len(traces) - 1; i >= 0; i-- {
				if traces[i].Kind == "inject" {
					msg += " The newest traced injection is " + traces[i].ID + " (" + decision.FormatTime(traces[i].T) + "): /memory trace " + traces[i].ID + "."
					break
				}
			}
		}
		c.out.Output(msg)
		return
	}
	if c.json {
		w := jsonw.Open(nil)
		w.Bool("turn", true)
		w.Str("trace", n.lastTraceID)
		w.Raw("stores", jsonw.Array(nil, len(last), func(b []byte, i int) []byte {
			r := &last[i]
			o := jsonw.Open(b)
			o.Str("store", r.Store)
			o.Int("bytes", int64(r.Bytes))
			o.Int("tokens", int64(r.Tokens))
			o.Int("cap", int64(r.Cap))
			o.Str("limit", r.Limit)
			o.Str("why", r.Why)
			o.Str("text", r.Text)
			return o.Close()
		}))
		if om.injected {
			text, why, tokens := om.receipt()
			o := jsonw.Open(nil)
			o.Str("store", "observations")
			o.Str("where", "context")
			o.Int("bytes", int64(len(text)))
			o.Int("tokens", int64(tokens))
			o.Str("why", why)
			o.Str("text", text)
			w.Raw("context", o.Close())
		}
		if hs.recalled {
			w.Raw("recall", hs.receiptJSON())
		}
		c.out.Output(string(w.Close()))
		return
	}
	var b strings.Builder
	total := 0
	for _, r := range last {
		total += r.Bytes
	}
	b.WriteString("The previous turn appended " + strconv.Itoa(total) + " bytes ≈ " + strconv.Itoa(budget.EstimateTokens(strings.Repeat(" ", total))) + " tokens to the system prompt")
	if n.lastTraceID != "" {
		b.WriteString(" (trace " + n.lastTraceID + ")")
	}
	b.WriteString(":")
	for _, r := range last {
		b.WriteString("\n\n--- " + r.Store + ": " + strconv.Itoa(r.Bytes) + " bytes ≈ " + strconv.Itoa(r.Tokens) + " tokens (cap " + r.Limit + ") ---")
		switch {
		case r.Why != "":
			b.WriteString("\n(nothing: " + r.Why + ")")
		case r.Text == "":
			b.WriteString("\n(nothing)")
		default:
			b.WriteString("\n" + strings.TrimRight(r.Text, "\n"))
		}
	}
	if om.injected {
		text, why, tokens := om.receipt()
		b.WriteString("\n\n--- observations (a message in the newest model request): " + strconv.Itoa(len(text)) + " bytes ≈ " + strconv.Itoa(tokens) + " tokens ---")
		if text == "" {
			b.WriteString("\n(nothing: " + why + ")")
		} else {
			b.WriteString("\n" + why + "\n" + strings.TrimRight(text, "\n"))
		}
	}
	if hs.recalled {
		b.WriteString(hs.receiptText())
	}
	c.out.Output(b.String())
}
