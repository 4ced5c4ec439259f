package lifecycle

import (
	"path"
	"slices"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/pi-memory/pi-memory/wasm/trust"
	"github.com/tidwall/gjson"
)

// Trust is judged once, at session start, for the project root: pi's rule
// with our files on its list (wasm/trust, decision 016). When pi would ask
// the person, the session starts untrusted (global memory works at once) and
// asks once; a "trust" answer starts the stores again, trusted. The answer
// is kept for this session only, in the module's memory and the state a
// restart carries on: nothing of it is written to disk.

// Answers of the trust dialog.
const (
	trustYes = "Trust this project's memory (this session only)"
	trustNo  = "Do not trust it (this session only)"
)

// judgeTrust sets s.Trusted from the facts the host forwarded ("trust"),
// when it forwarded any; ask says the person is to be asked. A replayed
// session start (restore) takes the answer given before the restart, and
// one that never came is a no: a restart asks nothing.
func (e *Engine) judgeTrust(s *store.Session, in gjson.Result) (ask bool) {
	f, ok := trust.Read(jsonr.Get(in, "trust"))
	if !ok {
		return false
	}
	f.PiTrusted = s.Trusted
	v := trust.Decide(f, s.Cwd, s.ProjectRoot, e.holdsPiFiles(s.ProjectRoot), s.HasUI)
	if v.Ask && s.Switch != "" {
		// A session switched off (--no-memory) shows no dialog, and says so
		// rather than that there was no one to ask (h-v93 b5).
		v = trust.Verdict{Why: v.Why + ", and memory was off (" + s.Switch + ") when this session started, so nothing was asked; a new session (/new) asks"}
	}
	s.Trusted, s.TrustWhy = v.Trusted, v.Why
	if !v.Ask {
		return false
	}
	if r := jsonr.Get(in, "restore"); r.Exists() {
		if a := jsonr.Get(r, "state.trust"); a.Exists() {
			e.trustAnswer(s, a.Type == gjson.True)
		} else {
			s.TrustWhy = "pi-memory restarted after an error before you answered whether to trust it; " + v.Why
		}
		return false
	}
	return true
}

// holdsPiFiles says whether root/.pi holds a file pi or pi-memory would
// need trust for (trust.Files).
func (e *Engine) holdsPiFiles(root string) bool {
	if root == "" {
		return false
	}
	names, err := e.fs.List(path.Join(root, ".pi"))
	if err != nil {
		return false
	}
	for _, n := range names {
		if slices.Contains(trust.Files, strings.TrimSuffix(n, "/")) {
			return true
		}
	}
	return false
}

// trustAnswer records the person's answer for this session.
func (e *Engine) trustAnswer(s *store.Session, yes bool) {
	s.Trusted, e.asked, s.TrustWhy = yes, "no", "you did not trust it when asked"
	if yes {
		e.asked, s.TrustWhy = "yes", "you trusted it when asked"
	}
	s.TrustWhy += ", for this session (pi's /trust in the project's root keeps an answer)"
}

// askTrust asks whether to trust the project's memory; a yes starts the
// session again from its event in, trusted, as a restart would: with the
// state the session has built so far, the answer in it.
func (e *Engine) askTrust(out *store.Out, in gjson.Result) {
	s := e.s
	if out.Blocked() {
		return
	}
	title := "Trust this project's memory?\n" + s.ProjectRoot + "\n\n" +
		s.TrustWhy + ". pi-memory reads and writes the memory in its .pi folder (notes, decisions) only in a trusted project; until you answer, only your global memory is used."
	out.Select(title, []string{trustYes, trustNo}, func(out *store.Out, v gjson.Result) {
		if e.s != s {
			return // another session started meanwhile
		}
		if e.trustAnswer(s, v.Str == trustYes); s.Trusted {
			e.stateChanged(out)
			e.asks.Again() // the same session: what it said stays said
			e.sessionStart(out, gjson.Parse(`{"restore":{"state":`+string(e.kept)+`},`+strings.TrimSpace(in.Raw)[1:]))
		}
	})
}
