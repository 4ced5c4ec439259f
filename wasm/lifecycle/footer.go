package lifecycle

import (
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// pi shows every extension's status on one footer line, sorted by key and
// joined by a space, cut at the terminal's width. pi-memory keeps one status
// there (store.StatusKey): the stores' pieces in list order, or the session's
// switch when memory is off for the whole session.

// footerSep separates the stores' pieces.
const footerSep = " · "

// footerLine is pi-memory's footer: sw is why memory is off for the whole
// session ("" when it is on), pieces each store's piece in list order, ""
// for a store that shows nothing. "" when nothing is shown.
//
//	footerLine("", []string{"decisions 2", "", "om 42 obs"}) => "decisions 2 · om 42 obs"
//	footerLine("--no-memory", []string{"decisions 2"}) => "memory off (--no-memory)"
func footerLine(sw string, pieces []string) string {
	if sw != "" {
		return store.OffPiece("memory", sw)
	}
	var b text.Builder
	for _, p := range pieces {
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(footerSep)
		}
		b.WriteString(p)
	}
	return b.String()
}

// footerNow is the footer as the session's stores are now.
func (e *Engine) footerNow() string {
	if e.s.Switch != "" {
		return footerLine(e.s.Switch, nil)
	}
	pieces := make([]string, 0, len(e.stores))
	for _, st := range e.stores {
		if x, ok := st.(store.Footer); ok {
			pieces = append(pieces, x.Footer())
		}
	}
	return footerLine("", pieces)
}

// footerChanged sends the footer when it is not the one last sent, or
// always when sure (a new session: pi may still show the previous one's).
// An empty footer clears the status.
func (e *Engine) footerChanged(out *store.Out, sure bool) {
	line := e.footerNow()
	if line == e.footer && !sure {
		return
	}
	e.footer = line
	out.Status(store.StatusKey, line, line == "")
}
