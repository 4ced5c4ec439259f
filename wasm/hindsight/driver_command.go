package hindsight

import (
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// statusNow is /hindsight status and the hindsight_status tool: the
// outbox is read, and the dead-letter file looked at, for it.
func (h *driver) statusNow() string {
	s := status{Off: h.env.May(h, store.Inject), URL: h.cfg.URL, Mode: h.modeNow(), OptOut: h.optOut, Banks: h.banks(), Outbox: h.outbox, Last: h.last}
	if h.outbox != "" {
		if o, size, err := h.readOutbox(); err != nil {
			s.OutboxErr = err.Error()
		} else {
			s.Box, s.Size, s.Now, s.Self = o, size, h.h.Now(), h.owner
		}
		if info, err := h.h.Stat(h.dead); err == nil && info.Size > 0 {
			s.Dead = h.dead
		}
		if info, err := h.h.Stat(h.aside); err == nil && info.Size > 0 {
			s.Aside = h.aside
		}
	}
	return statusText(s)
}

func (h *driver) cmdStatus(c *store.Cmd) {
	c.Out.Output(h.statusNow())
}

func (h *driver) cmdFlush(c *store.Cmd) {
	h.flush(c.Out, false, flushMs, func(out *store.Out, sent, failed int, problem string) {
		if text, fail := flushText(sent, failed, problem); fail {
			out.Fail(text)
		} else {
			out.Output(text)
		}
	})
}

func (h *driver) cmdDoctor(c *store.Cmd) {
	text := doctorText(h.files, h.cfg.Warnings, h.repoKey, h.statusNow())
	if h.env.May(h, store.Read) != "" {
		c.Out.Output(text)
		return
	}
	banks := h.banks()
	reqs := recallRequests(h.cfg, banks, h.repoKey, "pi-memory doctor")
	c.Out.HTTP(encode(nil, reqs), false, func(out *store.Out, v gjson.Result) {
		servers, bad := serverText(recalls(banks, []byte(v.Raw)))
		out.Output(text + servers)
		if bad {
			out.SetExit(1)
		}
	})
}

func (h *driver) cmdMode(c *store.Cmd) {
	m, ok := modeArg(c.Args.Words)
	switch {
	case !ok:
		c.Usage()
	case m == "":
		c.Out.Output("Hindsight mode: " + h.modeNow())
	case m == optOutWord:
		h.cmdOptOut(c)
	default:
		h.mode = m
		w := jsonw.Open(nil)
		w.Str("mode", m)
		c.Out.SessionEntry(entryType, w.Close())
		c.Out.Output("Hindsight mode for this session: " + m + ".")
	}
}

func (h *driver) cmdOptOut(c *store.Cmd) {
	h.optOut = true
	c.Out.Output("Hindsight will not retain the next run of this session.")
}

func (h *driver) cmdBank(c *store.Cmd) {
	c.Out.Output(bankText(h.repoKey, h.sessionID, h.banks()))
}
