package lifecycle

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/wasm/registry"
)

// Every subcommand the registry publishes has a handler, and every handler
// is published: pi, pimem and /… help can only offer what runs.
func TestEveryRegisteredSubcommandHasAHandlerAndNoOther(t *testing.T) {
	published := map[string]bool{}
	for _, c := range registry.Commands {
		for _, s := range c.Subs {
			key := c.Name + " " + s.Name
			published[key] = true
			if handlers[key] == nil {
				t.Errorf("%q is in the registry but has no handler", key)
			}
		}
		if c.Store != "decisions" && c.Store != "notes" && c.Store != "observations" && c.Store != "hindsight" {
			t.Errorf("command %q belongs to store %q, which the lifecycle does not drive", c.Name, c.Store)
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
		act      Act
		allowed  bool
	}{
		{"on: read", "", "", Read, true},
		{"on: inject", "", "", Inject, true},
		{"on: capture", "", "", Capture, true},
		{"on: write", "", "", Write, true},
		{"store off: read", "disabled", "", Read, false},
		{"store off: inject", "disabled", "", Inject, false},
		{"store off: write", "disabled", "", Write, false},
		{"--no-memory: read", "", "--no-memory", Read, true},
		{"--no-memory: inject", "", "--no-memory", Inject, false},
		{"--no-memory: capture", "", "--no-memory", Capture, false},
		{"--no-memory: write", "", "--no-memory", Write, false},
		{"/memory off: write", "", "/memory off", Write, false},
		{"both: the store's reason wins", "disabled", "/memory off", Read, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Engine{s: &Session{Switch: tt.session}}
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

func (s stubStore) off() string          { return s.why }
func (s stubStore) ready(out *Out) error { return nil }
func (s stubStore) refresh(out *Out)     {}
