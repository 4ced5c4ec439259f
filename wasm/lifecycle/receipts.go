package lifecycle

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// cmdLast prints the receipt of the previous turn: exactly what each store
// put into the system prompt, under which cap, or why it put nothing; and,
// once a model request has been made, what each store put into the newest
// one (the observations' block, a recall).
func (e *Engine) cmdLast(c *store.Cmd) {
	last := e.last
	var parts []store.Receipt
	trace := ""
	var tracer store.Tracer
	for _, st := range e.stores {
		if x, ok := st.(store.Receipter); ok {
			if r, ok := x.Receipt(); ok {
				parts = append(parts, r)
			}
		}
		if x, ok := st.(store.Tracer); ok && tracer == nil {
			tracer, trace = x, x.LastTrace()
		}
	}
	if last == nil && len(parts) > 0 {
		last = []budget.Receipt{}
	}
	if last == nil {
		if c.JSON {
			c.Out.Output(`{"turn":false,"stores":[]}`)
			return
		}
		msg := "No turn has run in this session yet, so nothing was injected."
		if tracer != nil {
			if id, when := tracer.NewestTrace(); id != "" {
				msg += " The newest traced injection is " + id + " (" + when + "): /memory trace " + id + "."
			}
		}
		c.Out.Output(msg)
		return
	}
	if c.JSON {
		w := jsonw.Open(nil)
		w.Bool("turn", true)
		w.Str("trace", trace)
		w.Raw("stores", jsonw.Array(nil, len(last), func(b []byte, i int) []byte {
			r := &last[i]
			o := jsonw.Open(b)
			o.Str("store", r.Store)
			o.Int("bytes", int64(r.Bytes))
			o.Int("tokens", int64(r.Tokens))
			o.Int("cap", int64(budget.TokenBytes(r.Cap))) // in bytes, as the traces keep it
			o.Str("limit", r.Limit)
			o.Str("why", r.Why)
			o.Str("text", r.Text)
			return o.Close()
		}))
		for _, p := range parts {
			w.Raw(p.Key, p.JSON)
		}
		c.Out.Output(string(w.Close()))
		return
	}
	var b text.Builder
	total := 0
	for _, r := range last {
		total += r.Bytes
	}
	b.WriteString("The previous turn appended " + text.Plural(total, "byte", "bytes") + " ≈ " + text.Plural(budget.BytesTokens(total), "token", "tokens") + " to the system prompt")
	if trace != "" {
		b.WriteString(" (trace " + trace + ")")
	}
	b.WriteString(":")
	for _, r := range last {
		b.WriteString("\n\n--- " + r.Store + ": " + text.Plural(r.Bytes, "byte", "bytes") + " ≈ " + text.Plural(r.Tokens, "token", "tokens") + " (cap " + r.Limit + ") ---")
		switch {
		case r.Why != "":
			b.WriteString("\n(nothing: " + r.Why + ")")
		case r.Text == "":
			b.WriteString("\n(nothing)")
		default:
			b.WriteString("\n" + strings.TrimRight(r.Text, "\n"))
		}
	}
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	c.Out.Output(b.String())
}
