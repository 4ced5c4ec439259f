package observe

import (
	"path"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// The /om commands (pimem om …). The registry says which may run when; the
// words an alias implies (/om-status) are resolved before these run.

// needsPi refuses a command that changes the observations where the host
// cannot append to the session (pimem reads a session file, never writes it).
func (o *driver) needsPi(c *store.Cmd) bool {
	why := piOnly(o.s.Mode, c.Sub.Name)
	if why != "" {
		c.Out.Fail(why)
	}
	return why != ""
}

func (o *driver) cmdStatus(c *store.Cmd) {
	o.Ready(c.Out) // status runs whatever the store's state: read a changed config first
	v := statusView{st: o.st, cfg: o.cfg, off: o.Off(), inject: o.env.May(o, store.Inject), scope: &o.scope, records: o.applied.n}
	if c.JSON {
		c.Out.Output(string(statusJSON(v)))
		return
	}
	if len(o.ids) > 0 {
		v.t = &o.tr
	}
	v.env = planEnv{Window: o.window, Clock: o.now()}
	v.sources = configSources(o.cfgFiles, o.s.Trusted)
	c.Out.Output(statusPage(v))
}

func (o *driver) cmdConfig(c *store.Cmd) {
	word := ""
	if len(c.Args.Words) > 0 {
		word = strings.ToLower(c.Args.Words[0])
	}
	switch word {
	case "":
		o.Ready(c.Out)
	case "reload":
		o.cfgWatch.Forget()
		o.refreshConfig()
	case "edit":
		o.configEdit(c)
		return
	default:
		c.Usage()
		return
	}
	c.Out.Output(configPage(o.cfg, o.st.Settings, configSources(o.cfgFiles, o.s.Trusted), word == "reload"))
}

// configEdit opens the om-config.json in force (editTarget) in pi's
// editor, prefilled with the file or, when it does not exist, with every
// key at its default. The answer is checked as the store would read it
// (checkConfigEdit); a text it accepts is written atomically and read back
// at once. Without a UI it names the file to edit instead.
func (o *driver) configEdit(c *store.Cmd) {
	target := editTarget(o.cfgFiles)
	if target == "" {
		c.Out.Fail("pi-memory has no project or agent folder for this session, so there is no om-config.json to edit.")
		return
	}
	if !c.HasUI {
		c.Out.Output(editHint(target, files.Stamp(o.h, target) != "-"))
		return
	}
	prefill := DefaultConfigJSON()
	data, err := files.Read(o.h, target, files.MaxConfig)
	switch {
	case err == nil:
		prefill = string(data)
	case !hostio.IsNotFound(err):
		c.Out.Fail("Could not read " + target + ": " + err.Error() + ". Fix or remove it, then run /om config edit again.")
		return
	}
	c.Out.Editor("Edit "+target, prefill, func(out *store.Out, v gjson.Result) {
		e := checkConfigEdit(target, prefill, v.Type == gjson.String, v.Str)
		switch {
		case e.fail:
			out.Fail(e.say)
			return
		case e.text == "":
			out.Output(e.say)
			return
		}
		if err := o.h.Mkdir(path.Dir(target)); err != nil {
			out.Fail("Nothing written: could not create the folder of " + target + ": " + err.Error())
			return
		}
		if err := o.h.WriteAtomicOver(target, []byte(e.text), data); err != nil { // not over what another program wrote meanwhile
			out.Fail("Could not write " + target + ": " + err.Error())
			return
		}
		o.cfgWatch.Forget()
		o.refreshConfig()
		out.Output(e.say)
	})
}

func (o *driver) cmdObserve(c *store.Cmd) {
	if o.needsPi(c) {
		return
	}
	before := o.st.Observed
	o.st.Retry()
	env := planEnv{Force: true, NoCompact: c.Args.Has("no-compact")}
	run := &omRun{act: store.Write}
	run.done = func(out *store.Out, why string) {
		if run.failed != nil {
			out.Fail(observeFailedText(o.st, &o.tr, o.now(), o.st.Observed-before, run.failed))
			return
		}
		out.Output(observedText(o.st, &o.tr, o.now(), o.st.Observed-before, why))
	}
	o.step(c.Out, env, run)
}

func (o *driver) cmdReflect(c *store.Cmd) {
	if o.needsPi(c) {
		return
	}
	if len(o.st.Groups) == 0 {
		c.Out.Output(noReflection)
		return
	}
	before, tokens := o.st.Reflected, o.st.Tokens()
	o.st.Retry()
	env := planEnv{Reflect: true, Aggressive: c.Args.Has("aggressive"), Focus: strings.Join(c.Args.Words, " ")}
	o.step(c.Out, env, &omRun{act: store.Write, done: func(out *store.Out, why string) {
		msg, ok := reflectedText(o.st, before, tokens, why)
		if !ok {
			out.Fail(msg)
			return
		}
		out.Output(msg)
	}})
}

func (o *driver) cmdObservations(c *store.Cmd) {
	c.Out.Output(observationsPage(o.st, c.JSON))
}

// cmdView shows the observations, the conversation not yet observed, or
// both (parseView).
func (o *driver) cmdView(c *store.Cmd) {
	v, ok := parseView(c.Args.Words)
	if !ok {
		c.Usage()
		return
	}
	c.Out.Output(viewPage(o.st, &o.tr, v))
}

func (o *driver) cmdClear(c *store.Cmd) {
	if o.needsPi(c) {
		return
	}
	n := o.st.Items()[0]
	o.apply(c.Out, Record{Op: opClear, Time: o.now().Ms})
	c.Out.Output(clearedText(n))
}

// apply applies a record of a command to the state and appends it.
func (o *driver) apply(out *store.Out, r Record) {
	if o.scope.resource {
		r.Session = o.sessionID
	}
	o.st.Apply(r, o.cfg)
	o.record(out, r)
}

func (o *driver) cmdMode(c *store.Cmd) {
	if len(c.Args.Words) == 0 {
		c.Out.Output(modeText(o.cfg.With(o.st.Settings)))
		return
	}
	mode, ok := parseMode(c.Args.Words)
	if !ok {
		c.Usage()
		return
	}
	if o.needsPi(c) {
		return
	}
	o.apply(c.Out, Record{Op: opSet, Time: o.now().Ms, Settings: settings{Mode: &mode}})
	c.Out.Output(modeSetText(mode, &o.scope))
}

// cmdAutoCompact shows or sets our own compaction (parseAutoCompact).
func (o *driver) cmdAutoCompact(c *store.Cmd) {
	if len(c.Args.Words) == 0 {
		c.Out.Output(autoCompactText(o.cfg.With(o.st.Settings), o.window, nil))
		return
	}
	set, why := parseAutoCompact(c.Args.Words)
	if why != "" {
		c.Out.Usage(why + "\nUsage: " + c.Cmd.Usage(c.Sub))
		return
	}
	if o.needsPi(c) {
		return
	}
	o.apply(c.Out, Record{Op: opSet, Time: o.now().Ms, Settings: set})
	c.Out.Output(autoCompactText(o.cfg.With(o.st.Settings), o.window, &o.scope))
}

func (o *driver) cmdRebuild(c *store.Cmd) {
	if o.scope.resource {
		o.refreshLedger(true)
	} else {
		o.st = fold(o.recs, "", o.cfg)
		o.applied = ledgerPrint{}
		for i := range o.recs {
			o.applied.add(encode(o.recs[i]))
		}
	}
	c.Out.Output(rebuiltText(o.st, &o.tr, o.now(), o.applied.n, &o.scope))
}

// cmdDump prints the records: the branch's, or in resource scope the
// file's, read again (the driver keeps none of them).
func (o *driver) cmdDump(c *store.Cmd) {
	var lines []string
	if !o.scope.resource {
		for i := range o.recs {
			lines = append(lines, string(encode(o.recs[i])))
		}
	} else if _, err := o.eachLedgerRecord(func(r Record, _ []byte) { lines = append(lines, string(encode(r))) }); err != nil && !hostio.IsNotFound(err) {
		c.Out.Fail("Could not read " + o.scope.file + ": " + err.Error() + ".")
		return
	}
	c.Out.Output(dumpPage(lines, c.JSON, &o.scope))
}
