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
	if act != store.Read && e.s.Switch != "" {
		return "Memory is off for this session (" + e.s.Switch + "): nothing is injected, captured or written. /memory on turns it back on."
	}
	return ""
}
