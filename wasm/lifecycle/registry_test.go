package lifecycle

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// Every subcommand the registry publishes has a handler, and every handler
// is published: pi, pimem and /… help can only offer what runs. Every
// command and tool belongs to a store of the list, but the orchestrator's
// own tools (Store ""), which it runs itself, and which are all it runs.
func TestEveryRegisteredSubcommandHasAHandlerAndNoOther(t *testing.T) {
	e := New(&osHost{})
	e.Handle("session_start", []byte(`{"cwd":"`+t.TempDir()+`","agentDir":"`+t.TempDir()+`","trusted":true}`))
	handlers := map[string]func(*store.Cmd){}
	names := map[string]bool{}
	for _, st := range e.stores {
		names[st.Name()] = true
		for _, c := range registry.Commands {
			if c.Store != st.Name() {
				continue
			}
			for sub, h := range st.Commands() {
				handlers[c.Name+" "+sub] = h
			}
			handlers[c.Name+" help"] = func(*store.Cmd) {}
		}
	}
	for key := range own {
		handlers[key] = func(*store.Cmd) {}
	}
	for _, tool := range registry.Tools {
		if tool.Store == "" {
			if ownTools[tool.Name] == nil {
				t.Errorf("tool %q is the orchestrator's (no store) but it has no handler in ownTools", tool.Name)
			}
			continue
		}
		if _, ok := e.store(tool.Store).(store.Tooler); !ok {
			t.Errorf("tool %q belongs to store %q, which offers no tools", tool.Name, tool.Store)
		}
	}
	for name := range ownTools {
		found := false
		for _, tool := range registry.Tools {
			found = found || tool.Name == name && tool.Store == ""
		}
		if !found {
			t.Errorf("ownTools runs %q, which is not an orchestrator's tool of the registry", name)
		}
	}
	published := map[string]bool{}
	for _, c := range registry.Commands {
		for _, s := range c.Subs {
			key := c.Name + " " + s.Name
			published[key] = true
			if handlers[key] == nil {
				t.Errorf("%q is in the registry but has no handler", key)
			}
		}
		if !names[c.Store] {
			t.Errorf("command %q belongs to store %q, which is not in the list of stores", c.Name, c.Store)
		}
	}
	for key := range handlers {
		if !published[key] {
			t.Errorf("handler %q is not in the registry", key)
		}
	}
}

// The gate's rule, store by store and act by act: a store that is off does
// nothing; a session switched off may still be read, and nothing else.
func TestTheGateDecidesForEveryStoreAndAct(t *testing.T) {
	tests := []struct {
		name     string
		storeOff string
		session  string
		act      store.Act
		allowed  bool
	}{
		{"on: read", "", "", store.Read, true},
		{"on: inject", "", "", store.Inject, true},
		{"on: capture", "", "", store.Capture, true},
		{"on: write", "", "", store.Write, true},
		{"store off: read", "disabled", "", store.Read, false},
		{"store off: inject", "disabled", "", store.Inject, false},
		{"store off: write", "disabled", "", store.Write, false},
		{"--no-memory: read", "", "--no-memory", store.Read, true},
		{"--no-memory: inject", "", "--no-memory", store.Inject, false},
		{"--no-memory: capture", "", "--no-memory", store.Capture, false},
		{"--no-memory: write", "", "--no-memory", store.Write, false},
		{"/memory off: write", "", "/memory off", store.Write, false},
		{"both: the store's reason wins", "disabled", "/memory off", store.Read, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Engine{s: &store.Session{Switch: tt.session}}
			why := e.may(stubStore{tt.storeOff}, tt.act)
			if (why == "") != tt.allowed {
				t.Fatalf("may = %q, want allowed=%v", why, tt.allowed)
			}
			if tt.storeOff != "" && why != tt.storeOff {
				t.Errorf("a store that is off gives its own reason: %q", why)
			}
			if tt.storeOff == "" && !tt.allowed && !strings.Contains(why, tt.session) {
				t.Errorf("the refusal names the switch %q: %q", tt.session, why)
			}
		})
	}
}

type stubStore struct{ why string }

func (s stubStore) Name() string                            { return "stub" }
func (s stubStore) Off() string                             { return s.why }
func (s stubStore) Ready(*store.Out) error                  { return nil }
func (s stubStore) Refresh(*store.Out)                      {}
func (s stubStore) Commands() map[string]func(c *store.Cmd) { return nil }
