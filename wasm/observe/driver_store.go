package observe

import (
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// Observational memory's moments (wasm/store); the turn's are in
// driver_turn.go.

func (o *driver) Name() string { return "observations" }

// Commands are /om's subcommands. pi's adapter and pimem --session send the
// branch as it is now with the command: /om observe and /om view read it;
// without one they read the branch of the last settle.
func (o *driver) Commands() map[string]func(c *store.Cmd) {
	cmds := map[string]func(c *store.Cmd){
		"status":       o.cmdStatus,
		"config":       o.cmdConfig,
		"observe":      o.cmdObserve,
		"reflect":      o.cmdReflect,
		"observations": o.cmdObservations,
		"view":         o.cmdView,
		"clear":        o.cmdClear,
		"mode":         o.cmdMode,
		"auto-compact": o.cmdAutoCompact,
		"rebuild":      o.cmdRebuild,
		"dump":         o.cmdDump,
	}
	for name, h := range cmds {
		cmds[name] = func(c *store.Cmd) {
			if b := jsonr.Get(c.In, "branch"); b.Exists() {
				o.readBranch(b.Raw)
				o.refreshLedger(false)
			}
			h(c)
		}
	}
	return cmds
}

func (o *driver) Start(out *store.Out, in gjson.Result) { o.start(out, in) }

// Receipt is the observations' block in the newest model request.
func (o *driver) Receipt() (store.Receipt, bool) {
	if !o.injected {
		return store.Receipt{}, false
	}
	return receiptPart(o.inj, o.injWhy), true
}
