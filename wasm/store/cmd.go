package store

import (
	"github.com/pi-memory/pi-memory/wasm/internal/cmdline"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/tidwall/gjson"
)

// Cmd is one command invocation, parsed by the registry and let through by
// the gate, as the store's handler receives it.
type Cmd struct {
	Out   *Out
	Cmd   *registry.Command
	Sub   *registry.Sub
	Args  cmdline.Args
	HasUI bool
	JSON  bool // --json
	// HelpOf is the subcommand whose help --help asked for (Sub is help).
	HelpOf *registry.Sub
	// In is the command event as the host sent it (pi's adapter sends the
	// session's branch with it).
	In gjson.Result
}

// Usage ends the command with its synopsis (exit 2).
func (c *Cmd) Usage() { c.Out.Usage("Usage: " + c.Cmd.Usage(c.Sub)) }
