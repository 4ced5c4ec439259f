package lifecycle

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hindsight"
	"github.com/pi-memory/pi-memory/wasm/jsonr"
	"github.com/pi-memory/pi-memory/wasm/jsonw"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/tidwall/gjson"
)

// statusText is /hindsight status and the hindsight_status tool.
func (h *hsStore) statusText() string {
	var b strings.Builder
	if why := h.e.may(h, Inject); why != "" {
		b.WriteString("Hindsight is off: " + why)
	} else {
		b.WriteString("Hindsight is on: " + h.cfg.URL + ", mode " + h.modeNow())
		if h.optOut {
			b.WriteString(" (the next run is not retained)")
		}
	}
	for _, bk := range h.banks() {
		b.WriteString("\n  " + bk.Scope + " bank " + bk.ID)
	}
	if h.outbox != "" {
		o, size, err := h.readOutbox()
		switch {
		case err != nil:
			b.WriteString("\nOutbox " + h.outbox + ": " + err.Error())
		default:
			b.WriteString("\nOutbox " + h.outbox + ": " + strconv.Itoa(len(o.Pending)) + " waiting, " + strconv.Itoa(len(o.Due(h.h.Now()))) + " due, " + strconv.FormatInt(size, 10) + " bytes")
			for _, j := range o.Pending {
				if j.LastError != "" {
					b.WriteString("\n  " + j.ID + " → " + j.Bank + ": " + strconv.Itoa(j.Attempts) + " failures, last " + j.LastError)
				}
			}
			for _, p := range o.Problems {
				b.WriteString("\n  " + p)
			}
		}
		if info, err := h.h.Stat(h.dead); err == nil && info.Size > 0 {
			b.WriteString("\nDead letters: " + h.dead)
		}
	}
	if h.last != nil {
		b.WriteString("\nLast recall: " + strings.Join(hindsight.Summary(h.last), "; "))
	}
	return b.String()
}

func (h *hsStore) cmdStatus(c *cmdCtx) {
	h.refreshConfig()
	c.out.Output(h.statusText())
}

func (h *hsStore) cmdFlush(c *cmdCtx) {
	h.flush(c.out, false, hsFlushMs, func(out *Out, sent, failed int, problem string) {
		switch {
		case problem != "" && sent+failed == 0:
			out.Fail("Hindsight: " + problem)
		case sent+failed == 0:
			out.Output("Hindsight: nothing is due in the outbox.")
		case failed > 0:
			out.Output("Hindsight: " + strconv.Itoa(sent) + " sent, " + strconv.Itoa(failed) + " failed (" + problem + "); they are tried again later.")
		default:
			out.Output("Hindsight: " + strconv.Itoa(sent) + " sent.")
		}
	})
}

func (h *hsStore) cmdDoctor(c *cmdCtx) {
	h.refreshConfig()
	var b strings.Builder
	b.WriteString("Config files: " + h.files[0])
	if h.files[1] != "" {
		b.WriteString(", " + h.files[1])
	}
	for _, w := range h.cfg.Warnings {
		b.WriteString("\n  warning: " + w)
	}
	b.WriteString("\nRepo key: " + h.repoKey)
	b.WriteString("\n" + h.statusText())
	if h.e.may(h, Read) != "" {
		c.out.Output(b.String())
		return
	}
	banks := h.banks()
	reqs := make([]hindsight.Request, len(banks))
	for i, bk := range banks {
		reqs[i] = hindsight.RecallRequest(h.cfg, bk, h.repoKey, "pi-memory doctor")
	}
	text := b.String()
	h.e.HTTP(c.out, reqs, false, func(out *Out, v gjson.Result) {
		bad := false
		for i, r := range hindsight.ReadResponses([]byte(v.Raw), len(banks)) {
			p := r.Problem()
			if p == "" {
				_, p = hindsight.ParseRecall(r.Body)
			}
			if p == "" {
				p = "answers"
			} else {
				bad = true
			}
			text += "\nServer, " + banks[i].Scope + " bank " + banks[i].ID + ": " + p
		}
		out.Output(text)
		if bad {
			out.exit = 1
		}
	})
}

func (h *hsStore) cmdMode(c *cmdCtx) {
	if len(c.args.Words) == 0 {
		c.out.Output("Hindsight mode: " + h.modeNow())
		return
	}
	switch m := strings.ToLower(c.args.Words[0]); m {
	case "next-opt-out":
		h.cmdOptOut(c)
	case hindsight.ModeNormal, hindsight.ModeReadOnly, hindsight.ModeIgnored:
		h.mode = m
		w := jsonw.Open(nil)
		w.Str("mode", m)
		c.out.SessionEntry(hsEntryType, w.Close())
		c.out.Output("Hindsight mode for this session: " + m + ".")
		if h.footer != "" {
			h.showFooter(c.out)
		}
	default:
		c.usage()
	}
}

func (h *hsStore) cmdOptOut(c *cmdCtx) {
	h.optOut = true
	c.out.Output("Hindsight will not retain the next run of this session.")
}

func (h *hsStore) cmdBank(c *cmdCtx) {
	h.refreshConfig()
	var b strings.Builder
	b.WriteString("Repo key: " + h.repoKey)
	for _, bk := range h.banks() {
		b.WriteString("\n" + bk.Scope + " bank " + bk.ID + ": retains with tags " + strings.Join(hindsight.BaseTags(bk, h.repoKey, h.sessionID, hindsight.SourcePi), ", "))
		if t := hindsight.RecallTags(bk, h.repoKey); len(t) > 0 {
			b.WriteString("; recalls tagged " + strings.Join(t, ", "))
		} else {
			b.WriteString("; recalls without a project filter")
		}
	}
	c.out.Output(b.String())
}

// tool runs one of the registry's tools for the model: tool_result last,
// after at most one foreground http ask.
func (e *Engine) tool(out *Out, in gjson.Result) {
	h := e.s.hs
	h.refreshConfig()
	name := jsonr.Get(in, "name").Str
	params := jsonr.Get(in, "params")
	if name == "hindsight_status" {
		out.ToolResult(h.statusText(), false, nil)
		return
	}
	if why := e.may(h, Capture); why != "" {
		out.ToolResult("Hindsight is not available: "+why, true, nil)
		return
	}
	switch name {
	case "hindsight_recall":
		q := strings.TrimSpace(jsonr.Get(params, "query").String())
		if q == "" {
			out.ToolResult("hindsight_recall needs a query.", true, nil)
			return
		}
		banks := h.banks()
		reqs := make([]hindsight.Request, len(banks))
		for i, bk := range banks {
			reqs[i] = hindsight.RecallRequest(h.cfg, bk, h.repoKey, q)
		}
		e.HTTP(out, reqs, false, func(out *Out, v gjson.Result) {
			rs := make([]hindsight.Recalled, len(banks))
			all := true
			for i, r := range hindsight.ReadResponses([]byte(v.Raw), len(banks)) {
				rs[i].Bank = banks[i]
				if rs[i].Problem = r.Problem(); rs[i].Problem == "" {
					rs[i].Memories, rs[i].Problem = hindsight.ParseRecall(r.Body)
				}
				all = all && rs[i].Problem != ""
			}
			text := strings.TrimSpace(hindsight.Render(rs, h.cfg.RecallMaxTokens*len(rs)))
			if text == "" {
				text = "No memories found."
			}
			out.ToolResult(text+"\n"+strings.Join(hindsight.Summary(rs), "\n"), all, nil)
		})
	case "hindsight_retain":
		content := strings.TrimSpace(marker.Strip(jsonr.Get(params, "content").String()))
		if content == "" {
			out.ToolResult("hindsight_retain needs content.", true, nil)
			return
		}
		if why := h.notRetained(h.optOut); why != "" {
			out.ToolResult("Not retained: "+why+".", true, nil)
			return
		}
		ctx := strings.TrimSpace(marker.Strip(jsonr.Get(params, "context").String()))
		if ctx == "" {
			ctx = "stated in a pi session in " + h.repoKey
		}
		t := hindsight.Turn{UserMs: h.h.Now()}
		t.Content, _ = redact.String(hindsight.Cut(content, h.cfg.RetainMaxChars))
		t.Context, _ = redact.String(hindsight.Cut(ctx, 1000))
		if err := h.queue(t, hindsight.SourceTool); err != nil {
			out.ToolResult("Not retained: could not queue it in "+h.outbox+": "+err.Error(), true, nil)
			return
		}
		h.flush(out, false, hsToolWaitMs, func(out *Out, sent, failed int, problem string) {
			if failed > 0 || problem != "" {
				out.ToolResult("Queued; the server did not take it yet ("+problem+"). It is sent again later.", false, nil)
				return
			}
			out.ToolResult("Retained.", false, nil)
		})
	case "hindsight_reflect":
		q := strings.TrimSpace(jsonr.Get(params, "query").String())
		banks := h.banks()
		if q == "" || len(banks) == 0 {
			out.ToolResult("hindsight_reflect needs a query.", true, nil)
			return
		}
		e.HTTP(out, []hindsight.Request{hindsight.ReflectRequest(h.cfg, banks[0], q, hsToolWaitMs)}, false, func(out *Out, v gjson.Result) {
			r := hindsight.ReadResponses([]byte(v.Raw), 1)[0]
			p := r.Problem()
			text := ""
			if p == "" {
				text, p = hindsight.ParseReflect(r.Body)
			}
			if p != "" {
				out.ToolResult("Hindsight could not reflect: "+p, true, nil)
				return
			}
			// What memory answers is memory: marked, so it is never retained again.
			out.ToolResult(marker.Wrap("reflect", text), false, nil)
		})
	default:
		out.ToolResult("pi-memory has no tool "+strconv.Quote(name)+".", true, nil)
	}
}

// receiptText is /memory last's part for Hindsight: what each bank
// returned for the newest user message, and the block appended to it.
func (h *hsStore) receiptText() string {
	s := "\n\n--- hindsight recall (appended to the newest user message): " + strconv.Itoa(len(h.lastBlock)) + " bytes ---"
	for _, line := range hindsight.Summary(h.last) {
		s += "\n" + line
	}
	if h.lastBlock == "" {
		return s + "\n(nothing appended)"
	}
	return s + "\n" + strings.TrimSpace(h.lastBlock)
}

func (h *hsStore) receiptJSON() []byte {
	w := jsonw.Open(nil)
	w.Str("where", "newest user message")
	w.Raw("banks", jsonw.Array(nil, len(h.last), func(b []byte, i int) []byte {
		r := &h.last[i]
		o := jsonw.Open(b)
		o.Str("scope", r.Bank.Scope)
		o.Str("bank", r.Bank.ID)
		o.Int("memories", int64(len(r.Memories)))
		o.Str("error", r.Problem)
		return o.Close()
	}))
	w.Str("text", h.lastBlock)
	return w.Close()
}
