package lifecycle

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// Observational memory's moments (wasm/store); the turn's are in
// observe_turn.go.

func (o *observations) Name() string { return "observations" }

// Commands are /om's subcommands. pi's adapter and pimem --session send the
// branch as it is now with the command: /om observe and /om view read it;
// without one they read the branch of the last settle.
func (o *observations) Commands() map[string]func(c *store.Cmd) {
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
				o.refreshLedger()
			}
			h(c)
		}
	}
	return cmds
}

func (o *observations) Start(out *store.Out, in gjson.Result) { o.start(out, in) }

// Receipt is the observations' block in the newest model request.
func (o *observations) Receipt() (store.Receipt, bool) {
	if !o.injected {
		return store.Receipt{}, false
	}
	return o.receiptPart(), true
}

// receiptPart is /memory last's part for the observations.
func (o *observations) receiptPart() store.Receipt {
	text, why, tokens := o.receipt()
	w := jsonw.Open(nil)
	w.Str("store", "observations")
	w.Str("where", "context")
	w.Int("bytes", int64(len(text)))
	w.Int("tokens", int64(tokens))
	w.Str("why", why)
	w.Str("text", text)
	t := "\n\n--- observations (a message in the newest model request): " + strconv.Itoa(len(text)) + " bytes ≈ " + strconv.Itoa(tokens) + " tokens ---"
	if text == "" {
		t += "\n(nothing: " + why + ")"
	} else {
		t += "\n" + why + "\n" + strings.TrimRight(text, "\n")
	}
	return store.Receipt{Key: "context", Text: t, JSON: w.Close()}
}
