package lifecycle

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/cmdline"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// own are the subcommands the orchestrator runs itself, keyed "command
// sub": they are about every store at once. Every other subcommand is its
// store's (Store.Commands); a test checks that together they are exactly
// the registry's.
var own = map[string]func(e *Engine, c *store.Cmd){
	"memory last": (*Engine).cmdLast,
	"memory off":  func(e *Engine, c *store.Cmd) { e.cmdSwitch(c, false) },
	"memory on":   func(e *Engine, c *store.Cmd) { e.cmdSwitch(c, true) },
	// tools.go: about every store's entries at once.
	"memory search":  (*Engine).cmdSearch,
	"memory forget":  (*Engine).cmdForget,
	"memory restore": (*Engine).cmdRestore,
}

// command runs `/decision …` (pimem's `decision …`) and every other command
// of the registry. pi sends the arguments as one string (args); pimem sends
// the words the shell already split (argv): both reach the registry's parser
// as the same words. The store follows its configuration first; then the
// gate decides, by the subcommand's kind, whether it may run; the handler
// never re-decides that.
func (e *Engine) command(out *store.Out, in gjson.Result) {
	in, ok := e.sessionFile(out, in)
	if !ok {
		return
	}
	var words []string
	if argv := jsonr.Get(in, "argv"); argv.IsArray() {
		for _, w := range argv.Array() {
			words = append(words, w.String())
		}
	} else {
		var err error
		words, err = cmdline.Split(jsonr.Get(in, "args").String())
		if err != nil {
			out.Usage("pi-memory: " + err.Error())
			return
		}
	}
	hasUI := e.s.HasUI
	if v := jsonr.Get(in, "hasUI"); v.Exists() {
		hasUI = v.Bool()
	}
	name := jsonr.Get(in, "name").String()
	cmd, implied, ok := registry.Resolve(name)
	if !ok {
		var known []string
		for i := range registry.Commands {
			known = append(known, registry.Commands[i].Names()...)
		}
		out.Usage("pi-memory: unknown command " + name + " (known: " + strings.Join(known, ", ") + ")")
		return
	}
	if len(implied) > 0 && !(len(words) == 1 && strings.EqualFold(words[0], "help")) {
		// /om-status runs /om status; /om-status help is the command's help.
		words = append(append([]string(nil), implied...), words...)
	}
	st := e.store(cmd.Store)
	p, err := registry.Parse(cmd, words)
	if err != nil {
		out.Usage(err.Error())
		return
	}
	c := &store.Cmd{Out: out, Cmd: cmd, Sub: p.Sub, Args: p.Args, HasUI: hasUI, JSON: p.Args.Has("json"), In: in, HelpOf: p.HelpOf}
	if c.JSON {
		out.Exact()
	}
	st.Refresh(out)
	switch p.Sub.Kind {
	case registry.Read:
		if why := e.may(st, store.Read); why != "" {
			out.Fail(e.again(out, cmd, why))
			return
		}
	case registry.Write:
		if why := e.may(st, store.Write); why != "" {
			out.Fail("Not written: " + e.again(out, cmd, why))
			return
		}
	}
	if p.Sub.Kind == registry.Read || p.Sub.Kind == registry.Write {
		if err := st.Ready(out); err != nil {
			out.Fail(err.Error())
			return
		}
	}
	if p.Sub.Name == "help" {
		e.cmdHelp(c)
		return
	}
	if h, ok := own[cmd.Name+" "+p.Sub.Name]; ok {
		h(e, c)
		return
	}
	st.Commands()[p.Sub.Name](c)
}

// again is why a command may not run, said once: pimem runs one command per
// session, so a config problem its session start just warned about is
// named rather than repeated. In pi the warning came when the session
// started, perhaps long before: the command says it in full.
func (e *Engine) again(out *store.Out, cmd *registry.Command, why string) string {
	if e.s.Mode == "cli" && out.Warned("pi-memory: "+why) {
		return "/" + cmd.Name + " is off: see the warning above."
	}
	return why
}

// store returns the store a command or tool belongs to (the registry's
// Store); the registry's test checks every name is one of the list's.
func (e *Engine) store(name string) store.Store {
	for _, st := range e.stores {
		if st.Name() == name {
			return st
		}
	}
	panic("lifecycle: the registry names a store that is not in the list: " + name)
}

// cmdHelp prints the command's help, from the registry.
func (e *Engine) cmdHelp(c *store.Cmd) {
	switch {
	case c.JSON:
		c.Out.Output(string(registry.CommandJSON(c.Cmd)))
	case c.HelpOf != nil:
		c.Out.Output(registry.SubHelpText(c.Cmd, c.HelpOf, e.asks.Surface))
	default:
		c.Out.Output(registry.HelpText(c.Cmd, e.asks.Surface))
	}
}

// cmdSwitch turns memory off or back on for this session: every store
// stops (or resumes) injecting, capturing and writing. Nothing is written.
func (e *Engine) cmdSwitch(c *store.Cmd, on bool) {
	if on {
		e.s.Switch = ""
	} else if e.s.Switch == "" {
		e.s.Switch = "/memory off"
	}
	if c.JSON {
		c.Out.Output(`{"memory":"` + map[bool]string{true: "on", false: "off"}[on] + `"}`)
		return
	}
	if on {
		c.Out.Output("Memory is on for this session: notes and decisions are injected from the next prompt. Nothing was written.")
		return
	}
	c.Out.Output("Memory is off for this session: nothing is injected, captured or written until /memory on. Nothing was written.")
}

// tool runs one of the registry's tools for the model, in the store the
// registry names for it, or here for the orchestrator's own (Store "",
// tools.go).
func (e *Engine) tool(out *store.Out, in gjson.Result) {
	name := jsonr.Get(in, "name").Str
	for _, t := range registry.Tools {
		if t.Name != name {
			continue
		}
		if err := registry.CheckParams(&t, jsonr.Get(in, "params").Raw); err != nil {
			out.ToolResult(err.Error(), true, nil)
			return
		}
		if t.Store == "" {
			ownTools[name](e, out, jsonr.Get(in, "params"))
			return
		}
		st := e.store(t.Store)
		if x, ok := st.(store.Tooler); ok {
			st.Refresh(out)
			x.Tool(out, name, jsonr.Get(in, "params"))
			return
		}
	}
	out.ToolResult("pi-memory has no tool "+strconv.Quote(name)+".", true, nil)
}

// surface is where the person of a session of mode types commands: pimem
// (mode "cli") in a shell, pi and other hosts as slash commands.
func surface(mode string) registry.Surface {
	if mode == "cli" {
		return registry.Shell
	}
	return registry.Slash
}
