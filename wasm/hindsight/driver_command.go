package hindsight

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// statusText is /hindsight status and the hindsight_status tool.
func (h *driver) statusText() string {
	var b strings.Builder
	if why := h.env.May(h, store.Inject); why != "" {
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
		b.WriteString("\nLast recall: " + strings.Join(Summary(h.last), "; "))
	}
	return b.String()
}

func (h *driver) cmdStatus(c *store.Cmd) {
	c.Out.Output(h.statusText())
}

func (h *driver) cmdFlush(c *store.Cmd) {
	h.flush(c.Out, false, flushMs, func(out *store.Out, sent, failed int, problem string) {
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

func (h *driver) cmdDoctor(c *store.Cmd) {
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
	if h.env.May(h, store.Read) != "" {
		c.Out.Output(b.String())
		return
	}
	banks := h.banks()
	reqs := make([]Request, len(banks))
	for i, bk := range banks {
		reqs[i] = RecallRequest(h.cfg, bk, h.repoKey, "pi-memory doctor")
	}
	text := b.String()
	c.Out.HTTP(Encode(nil, reqs), false, func(out *store.Out, v gjson.Result) {
		bad := false
		for _, r := range recalls(banks, []byte(v.Raw)) {
			p := r.Problem
			if p == "" {
				p = "answers"
			} else {
				bad = true
			}
			text += "\nServer, " + r.Bank.Scope + " bank " + r.Bank.ID + ": " + p
		}
		out.Output(text)
		if bad {
			out.SetExit(1)
		}
	})
}

func (h *driver) cmdMode(c *store.Cmd) {
	if len(c.Args.Words) == 0 {
		c.Out.Output("Hindsight mode: " + h.modeNow())
		return
	}
	switch m := strings.ToLower(c.Args.Words[0]); m {
	case "next-opt-out":
		h.cmdOptOut(c)
	case ModeNormal, ModeReadOnly, ModeIgnored:
		h.mode = m
		w := jsonw.Open(nil)
		w.Str("mode", m)
		c.Out.SessionEntry(entryType, w.Close())
		c.Out.Output("Hindsight mode for this session: " + m + ".")
		if h.footer != "" {
			h.showFooter(c.Out)
		}
	default:
		c.Usage()
	}
}

func (h *driver) cmdOptOut(c *store.Cmd) {
	h.optOut = true
	c.Out.Output("Hindsight will not retain the next run of this session.")
}

func (h *driver) cmdBank(c *store.Cmd) {
	var b strings.Builder
	b.WriteString("Repo key: " + h.repoKey)
	for _, bk := range h.banks() {
		b.WriteString("\n" + bk.Scope + " bank " + bk.ID + ": retains with tags " + strings.Join(BaseTags(bk, h.repoKey, h.sessionID, SourcePi), ", "))
		if t := RecallTags(bk, h.repoKey); len(t) > 0 {
			b.WriteString("; recalls tagged " + strings.Join(t, ", "))
		} else {
			b.WriteString("; recalls without a project filter")
		}
	}
	c.Out.Output(b.String())
}

// receiptText is /memory last's part for Hindsight: what each bank
// returned for the newest user message, and the block appended to it.
func (h *driver) receiptText() string {
	s := "\n\n--- hindsight recall (appended to the newest user message): " + strconv.Itoa(len(h.lastBlock)) + " bytes ---"
	for _, line := range Summary(h.last) {
		s += "\n" + line
	}
	if h.lastBlock == "" {
		return s + "\n(nothing appended)"
	}
	return s + "\n" + strings.TrimSpace(h.lastBlock)
}

func (h *driver) receiptJSON() []byte {
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
