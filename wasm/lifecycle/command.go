package lifecycle

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/cmdline"
	"github.com/pi-memory/pi-memory/wasm/jsonr"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/tidwall/gjson"
)

// cmdCtx is one command invocation.
type cmdCtx struct {
	out   *Out
	cmd   *registry.Command
	sub   *registry.Sub
	args  cmdline.Args
	hasUI bool
	json  bool
}

// usage ends the command with its synopsis (exit 2).
func (c *cmdCtx) usage() { c.out.Usage("Usage: " + c.cmd.Usage(c.sub)) }

// handler runs one subcommand.
type handler func(e *Engine, c *cmdCtx)

// handlers binds every subcommand of the registry to its code, keyed
// "command sub". A test checks that the two lists match exactly.
var handlers = map[string]handler{
	"decision add":       func(e *Engine, c *cmdCtx) { e.s.dec.cmdAdd(c) },
	"decision list":      func(e *Engine, c *cmdCtx) { e.s.dec.cmdList(c) },
	"decision search":    func(e *Engine, c *cmdCtx) { e.s.dec.cmdSearch(c) },
	"decision show":      func(e *Engine, c *cmdCtx) { e.s.dec.cmdShow(c) },
	"decision edit":      func(e *Engine, c *cmdCtx) { e.s.dec.cmdEdit(c) },
	"decision remove":    func(e *Engine, c *cmdCtx) { e.s.dec.cmdRemove(c) },
	"decision supersede": func(e *Engine, c *cmdCtx) { e.s.dec.cmdSupersede(c) },
	"decision conflict":  func(e *Engine, c *cmdCtx) { e.s.dec.cmdConflict(c) },
	"decision resolve":   func(e *Engine, c *cmdCtx) { e.s.dec.cmdResolve(c) },
	"decision status":    func(e *Engine, c *cmdCtx) { e.s.dec.cmdStatus(c) },
	"decision purge":     func(e *Engine, c *cmdCtx) { e.s.dec.cmdPurge(c) },
	"decision reset":     func(e *Engine, c *cmdCtx) { e.s.dec.cmdReset(c) },
	"decision enable":    func(e *Engine, c *cmdCtx) { e.s.dec.cmdToggle(c, true) },
	"decision disable":   func(e *Engine, c *cmdCtx) { e.s.dec.cmdToggle(c, false) },
	"decision doctor":    func(e *Engine, c *cmdCtx) { e.s.dec.cmdDoctor(c) },
	"decision help":      (*Engine).cmdHelp,

	"memory status":    func(e *Engine, c *cmdCtx) { e.s.notes.cmdStatus(c) },
	"memory pages":     func(e *Engine, c *cmdCtx) { e.s.notes.cmdPages(c) },
	"memory verify":    func(e *Engine, c *cmdCtx) { e.s.notes.cmdVerify(c) },
	"memory remember":  func(e *Engine, c *cmdCtx) { e.s.notes.cmdRemember(c) },
	"memory flush":     func(e *Engine, c *cmdCtx) { e.s.notes.cmdFlush(c) },
	"memory recall":    func(e *Engine, c *cmdCtx) { e.s.notes.cmdRecall(c) },
	"memory stale":     func(e *Engine, c *cmdCtx) { e.s.notes.cmdStale(c) },
	"memory confirm":   func(e *Engine, c *cmdCtx) { e.s.notes.cmdConfirm(c) },
	"memory faults":    func(e *Engine, c *cmdCtx) { e.s.notes.cmdFaults(c) },
	"memory traces":    func(e *Engine, c *cmdCtx) { e.s.notes.cmdTraces(c) },
	"memory trace":     func(e *Engine, c *cmdCtx) { e.s.notes.cmdTrace(c) },
	"memory last":      (*Engine).cmdLast,
	"memory import":    func(e *Engine, c *cmdCtx) { e.s.notes.cmdImport(c) },
	"memory gitignore": func(e *Engine, c *cmdCtx) { e.s.notes.cmdGitignore(c) },
	"memory off":       func(e *Engine, c *cmdCtx) { e.cmdSwitch(c, false) },
	"memory on":        func(e *Engine, c *cmdCtx) { e.cmdSwitch(c, true) },
	"memory help":      (*Engine).cmdHelp,

	"om status":       func(e *Engine, c *cmdCtx) { e.s.om.cmdStatus(c) },
	"om config":       func(e *Engine, c *cmdCtx) { e.s.om.cmdConfig(c) },
	"om observe":      func(e *Engine, c *cmdCtx) { e.s.om.cmdObserve(c) },
	"om reflect":      func(e *Engine, c *cmdCtx) { e.s.om.cmdReflect(c) },
	"om observations": func(e *Engine, c *cmdCtx) { e.s.om.cmdObservations(c) },
	"om view":         func(e *Engine, c *cmdCtx) { e.s.om.cmdView(c) },
	"om clear":        func(e *Engine, c *cmdCtx) { e.s.om.cmdClear(c) },
	"om mode":         func(e *Engine, c *cmdCtx) { e.s.om.cmdMode(c) },
	"om auto-compact": func(e *Engine, c *cmdCtx) { e.s.om.cmdAutoCompact(c) },
	"om rebuild":      func(e *Engine, c *cmdCtx) { e.s.om.cmdRebuild(c) },
	"om dump":         func(e *Engine, c *cmdCtx) { e.s.om.cmdDump(c) },
	"om help":         (*Engine).cmdHelp,

	"hindsight status":       func(e *Engine, c *cmdCtx) { e.s.hs.cmdStatus(c) },
	"hindsight flush":        func(e *Engine, c *cmdCtx) { e.s.hs.cmdFlush(c) },
	"hindsight doctor":       func(e *Engine, c *cmdCtx) { e.s.hs.cmdDoctor(c) },
	"hindsight mode":         func(e *Engine, c *cmdCtx) { e.s.hs.cmdMode(c) },
	"hindsight next-opt-out": func(e *Engine, c *cmdCtx) { e.s.hs.cmdOptOut(c) },
	"hindsight bank":         func(e *Engine, c *cmdCtx) { e.s.hs.cmdBank(c) },
	"hindsight import":       func(e *Engine, c *cmdCtx) { e.s.hs.cmdImport(c) },
	"hindsight help":         (*Engine).cmdHelp,
}

// command runs `/decision …` (pimem's `decision …`) and every other command
// of the registry. pi sends the arguments as one string (args); pimem sends
// the words the shell already split (argv): both reach the registry's parser
// as the same words. The gate decides, by the subcommand's kind, whether it
// may run; the handler never re-decides that.
func (e *Engine) command(out *Out, in gjson.Result) {
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
	if b := jsonr.Get(in, "branch"); b.Exists() && cmd.Store == "observations" {
		// The branch as it is now (pi's adapter, pimem --session): else the
		// one of the last settle.
		e.s.om.readBranch(b.Raw)
	}
	p, err := registry.Parse(cmd, words)
	if err != nil {
		out.Usage(err.Error())
		return
	}
	c := &cmdCtx{out: out, cmd: cmd, sub: p.Sub, args: p.Args, hasUI: hasUI, json: p.Args.Has("json")}
	st := e.store(cmd.Store)
	st.refresh(out)
	switch p.Sub.Kind {
	case registry.Read:
		if why := e.may(st, Read); why != "" {
			out.Fail(why)
			return
		}
	case registry.Write:
		if why := e.may(st, Write); why != "" {
			out.Fail("Not written: " + why)
			return
		}
	}
	if p.Sub.Kind == registry.Read || p.Sub.Kind == registry.Write {
		if err := st.ready(out); err != nil {
			out.Fail(err.Error())
			return
		}
	}
	if cmd.Store == "decisions" && p.Sub.Name != "status" && p.Sub.Name != "doctor" {
		e.s.dec.noticeOnce(out)
	}
	handlers[cmd.Name+" "+p.Sub.Name](e, c)
}

// stores are the session's stores, in the order their moments run.
func (e *Engine) stores() []store {
	return []store{e.s.dec, e.s.notes, e.s.om, e.s.hs}
}

// store returns the driver of the store a command belongs to.
func (e *Engine) store(name string) store {
	switch name {
	case "notes":
		return e.s.notes
	case "observations":
		return e.s.om
	case "hindsight":
		return e.s.hs
	}
	return e.s.dec
}

// cmdHelp prints the command's help, from the registry.
func (e *Engine) cmdHelp(c *cmdCtx) {
	if c.json {
		c.out.Output(string(registry.CommandJSON(c.cmd)))
		return
	}
	c.out.Output(registry.HelpText(c.cmd))
}

// cmdSwitch turns memory off or back on for this session: every store
// stops (or resumes) injecting, capturing and writing. Nothing is written.
func (e *Engine) cmdSwitch(c *cmdCtx, on bool) {
	if on {
		e.s.Switch = ""
	} else if e.s.Switch == "" {
		e.s.Switch = "/memory off"
	}
	e.s.hs.announce(c.out)
	if c.json {
		c.out.Output(`{"memory":"` + map[bool]string{true: "on", false: "off"}[on] + `"}`)
		return
	}
	if on {
		c.out.Output("Memory is on for this session: notes and decisions are injected from the next prompt. Nothing was written.")
		return
	}
	c.out.Output("Memory is off for this session: nothing is injected, captured or written until /memory on. Nothing was written.")
}
