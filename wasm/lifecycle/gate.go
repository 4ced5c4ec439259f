package lifecycle

import "github.com/pi-memory/pi-memory/wasm/store"

// may is the one place that decides whether store s may do act now: "" when
// it may, else why not, in words for the person. A store that is off may do
// nothing; a session switched off (--no-memory, /memory off) may still be
// read by a command, and nothing else: no injection, no capture, no dialog,
// no model call, no write. Stores reach it through their Env (Env.May).
func (e *Engine) may(s store.Store, act store.Act) string {
	if why := s.Off(); why != "" {
		return why
	}
	if _, ok := s.(store.Follower); ok && !e.keeping() {
		return "Every store of memory a person keeps is disabled here, so memory is off for this project: its earlier sessions are not searched either."
	}
	if act != store.Read && e.s.Switch != "" {
		return "Memory is off for this session (" + e.s.Switch + "): nothing is injected, captured or written. /memory on turns it back on."
	}
	return ""
}

// keeping says whether a store whose entries a person keeps (a Forgetter) is
// on: what a Follower follows.
func (e *Engine) keeping() bool {
	for _, st := range e.stores {
		if _, ok := st.(store.Forgetter); ok && st.Off() == "" {
			return true
		}
	}
	return false
}
