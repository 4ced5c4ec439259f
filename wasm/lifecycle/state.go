package lifecycle

import (
	"bytes"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/cmdline"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// What a person or the model set during a session lives in the module's
// memory: memory switched off, what was forgotten last, the receipt of the
// last turn, each store's own (store.Keeper). A trap loses the instance, and
// the host starts a new one by replaying session_start: without this the
// person's settings would silently reset. So the orchestrator sends the
// session's state (a state effect) whenever it changed, and the host hands
// the newest back in the replay, with the call that trapped
// (decision 001, "restore"):
//
//	{"restore": {"state": {…}, "interrupted": {"export": "command", "name": "memory", "args": "off"}}}
//
// What the restart cannot know fails closed: a state it cannot read, or a
// trap inside a command that switches memory, leaves memory off.

// stateVersion is the state's shape; a host may hand back one from an older
// instance of another build.
const stateVersion = 1

// restartedOff is the switch after a restart that could not tell whether
// memory was on: /memory on turns it back on.
const restartedOff = "pi-memory restarted after an error"

// stateChanged sends the session's state when it is not the one last sent.
func (e *Engine) stateChanged(out *store.Out) {
	s := e.state()
	if !bytes.Equal(s, e.kept) {
		e.kept = s
		out.State(s)
	}
}

// state is the session's state as one JSON object.
func (e *Engine) state() []byte {
	w := jsonw.Open(nil)
	w.Int("v", stateVersion)
	if e.s.Switch != "" && e.s.Switch != noMemory {
		w.Str("switch", e.s.Switch)
	}
	if e.forgot != "" {
		w.Str("forgot", e.forgot)
	}
	if e.asked != "" {
		w.Bool("trust", e.asked == "yes")
	}
	if said := e.asks.Said(); len(said) > 0 {
		w.Raw("said", jsonw.Array(nil, len(said), func(b []byte, i int) []byte { return jsonw.String(b, said[i]) }))
	}
	if e.last != nil {
		w.Raw("last", jsonw.Array(nil, len(e.last), func(b []byte, i int) []byte {
			r := &e.last[i]
			o := jsonw.Open(b)
			o.Str("store", r.Store)
			o.Int("bytes", int64(r.Bytes))
			o.Int("tokens", int64(r.Tokens))
			o.Int("cap", int64(r.Cap))
			o.Str("limit", r.Limit)
			o.Str("why", r.Why)
			o.Bool("cut", r.Cut)
			o.Str("text", r.Text)
			return o.Close()
		}))
	}
	stores := jsonw.Open(nil)
	for _, st := range e.stores {
		if x, ok := st.(store.Keeper); ok {
			if k := x.Kept(); k != nil {
				stores.Raw(st.Name(), k)
			}
		}
	}
	w.Raw("stores", stores.Close())
	return w.Close()
}

// restoreSession takes back what a replayed session_start hands over (nothing for
// a session that really starts), after the stores started.
func (e *Engine) restoreSession(r gjson.Result) {
	if !r.IsObject() {
		return
	}
	// The host's tools are as the trapped instance left them: say them.
	e.tools = "\x00"
	if st := jsonr.Get(r, "state"); st.Exists() {
		if !st.IsObject() || jsonr.Get(st, "v").Int() != stateVersion {
			e.switchOff(restartedOff)
		} else {
			e.restoreState(st)
		}
	}
	if in := jsonr.Get(r, "interrupted"); jsonr.Get(in, "export").Str == "command" && switches(in) {
		e.switchOff(restartedOff)
	}
}

func (e *Engine) restoreState(st gjson.Result) {
	if sw := jsonr.Get(st, "switch").Str; sw != "" {
		e.switchOff(sw)
	}
	e.forgot = jsonr.Get(st, "forgot").Str
	if last := jsonr.Get(st, "last"); last.IsArray() {
		e.last = []budget.Receipt{}
		last.ForEach(func(_, v gjson.Result) bool {
			e.last = append(e.last, budget.Receipt{
				Store:  jsonr.Get(v, "store").Str,
				Bytes:  int(jsonr.Get(v, "bytes").Int()),
				Tokens: int(jsonr.Get(v, "tokens").Int()),
				Cap:    int(jsonr.Get(v, "cap").Int()),
				Limit:  jsonr.Get(v, "limit").Str,
				Why:    jsonr.Get(v, "why").Str,
				Cut:    jsonr.Get(v, "cut").Bool(),
				Text:   jsonr.Get(v, "text").Str,
			})
			return true
		})
	}
	stores := jsonr.Get(st, "stores")
	for _, s := range e.stores {
		if x, ok := s.(store.Keeper); ok {
			if v := jsonr.Get(stores, s.Name()); v.Exists() {
				x.TakeBack(v)
			}
		}
	}
}

// switchOff turns memory off for the session unless it already is.
func (e *Engine) switchOff(why string) {
	if e.s.Switch == "" {
		e.s.Switch = why
	}
}

// switches says whether the command that was interrupted ({name, args} as
// pi sends it, or {name, argv} as pimem does) turns memory on or off for the
// session (a Session subcommand: /memory off, /memory on): after a trap
// inside one, the restarted core cannot tell which memory is now.
func switches(in gjson.Result) bool {
	cmd, implied, ok := registry.Resolve(jsonr.Get(in, "name").Str)
	if !ok {
		return false
	}
	words := implied
	if argv := jsonr.Get(in, "argv"); argv.IsArray() {
		argv.ForEach(func(_, w gjson.Result) bool {
			words = append(words, w.Str)
			return true
		})
	} else {
		split, err := cmdline.Split(jsonr.Get(in, "args").Str)
		if err != nil {
			return false
		}
		words = append(words, split...)
	}
	p, err := registry.Parse(cmd, words)
	return err == nil && p.Sub.Kind == registry.Session
}
