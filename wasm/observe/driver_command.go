package observe

import (
	"path"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	txt "github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// The /om commands (pimem om …). The registry says which may run when; the
// words an alias implies (/om-status) are resolved before these run.

// needsPi refuses a command that changes the observations where the host
// cannot append to the session (pimem reads a session file, never writes it).
func (o *driver) needsPi(c *store.Cmd) bool {
	if o.s.Mode != "cli" {
		return false
	}
	c.Out.Fail("/om " + c.Sub.Name + " changes the observations, which live in the pi session: run it in pi. pimem reads a session (--session FILE) but never writes to it.")
	return true
}

func (o *driver) cmdStatus(c *store.Cmd) {
	o.Ready(c.Out) // status runs whatever the store's state: read a changed config first
	var t *Transcript
	if len(o.ids) > 0 {
		t = &o.tr
	}
	if c.JSON {
		n := o.st.Items()
		eff := o.cfg.With(o.st.Settings)
		w := jsonw.Open(nil)
		w.Bool("enabled", o.Off() == "")
		w.Str("off", o.env.May(o, store.Inject))
		w.Str("scope", o.scope.name())
		if line := o.scope.sqliteLine(); line != "" {
			w.Str("sqlite", line)
		}
		w.Str("mode", eff.Mode)
		w.Bool("autoCompact", eff.AutoCompact)
		w.Int("observations", int64(n[0]))
		w.Int("tokens", int64(o.st.Tokens()))
		w.Str("coveredThrough", o.st.Mark.ID)
		w.Int("records", int64(len(o.recs)))
		w.Int("observerRuns", int64(o.st.Observed))
		w.Int("reflections", int64(o.st.Reflected))
		c.Out.Output(string(w.Close()))
		return
	}
	text := Status(o.st, o.cfg, t, Env{Window: o.window, Clock: o.clock()})
	if o.scope.resource {
		text += "Scope: resource (" + o.scope.file + ": " + txt.Plural(len(o.recs), "record", "records") + " of this project's sessions; only this session's move its watermark)\n"
	} else {
		text += "Scope: thread (this session's branch: " + txt.Plural(len(o.recs), "ledger entry", "ledger entries") + ` "` + CustomTypeLedger + `")` + "\n"
	}
	if o.scope.why != "" {
		text += o.scope.why + "\n"
	}
	if line := o.scope.sqliteLine(); line != "" {
		text += line + "\n"
	}
	text += "Config: " + o.configSources() + "\n"
	if why := o.env.May(o, store.Inject); why != "" && o.Off() == "" {
		text += why + "\n"
	}
	c.Out.Output(strings.TrimRight(text, "\n"))
}

// configSources names the files the configuration was read from.
func (o *driver) configSources() string {
	var used []string
	for _, f := range o.cfgFiles {
		if f.used != "" {
			used = append(used, f.used)
		}
	}
	if len(used) == 0 {
		return "defaults (no " + ConfigFile + ")"
	}
	s := strings.Join(used, ", then ")
	if !o.s.Trusted {
		s += " (the project is not trusted: its file is not read)"
	}
	return s
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
	head := "Observational memory config from " + o.configSources() + ":\n"
	if word == "reload" {
		head = "Reloaded. " + head
	}
	c.Out.Output(strings.TrimRight(head+ConfigText(o.cfg, o.st.Settings), "\n"))
}

// configEdit opens the om-config.json in force (the project's when the
// project is trusted, else the agent folder's; seed 004's path when only
// that one exists) in pi's editor, prefilled with the file or, when it does
// not exist, with every key at its default. The answer is checked as the
// store would read it: a text that cannot be read as written is not saved
// and the reason is shown; otherwise it is written atomically, read back
// at once, and its warnings (each naming the key) are shown. Without a UI
// it names the file to edit instead.
func (o *driver) configEdit(c *store.Cmd) {
	f := o.cfgFiles[0]
	if o.cfgFiles[1].primary != "" {
		f = o.cfgFiles[1]
	}
	target := f.primary
	if f.used != "" {
		target = f.used
	}
	if target == "" {
		c.Out.Fail("pi-memory has no project or agent folder for this session, so there is no om-config.json to edit.")
		return
	}
	if !c.HasUI {
		msg := "Edit " + target
		if files.Stamp(o.h, target) == "-" {
			msg += " (it does not exist yet: create it with the keys to change, e.g. {\"observerTokens\": 20000})"
		}
		c.Out.Output(msg + ", then run /om config reload. Keys and defaults: /om config.")
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
		if v.Type != gjson.String {
			out.Output("Nothing written: the editor was closed without saving.")
			return
		}
		if v.Str == prefill {
			out.Output("Nothing written: " + target + " is unchanged.")
			return
		}
		text := v.Str
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		warnings, why := CheckConfigFile(target, []byte(text))
		if why != "" {
			out.Fail("Nothing written: " + why + ". Run /om config edit again to fix it.")
			return
		}
		if err := o.h.Mkdir(path.Dir(target)); err != nil {
			out.Fail("Nothing written: could not create the folder of " + target + ": " + err.Error())
			return
		}
		if err := o.h.WriteAtomic(target, []byte(text)); err != nil {
			out.Fail("Could not write " + target + ": " + err.Error())
			return
		}
		o.cfgWatch.Forget()
		o.refreshConfig()
		msg := "Wrote " + target + "; it is in force now (/om config shows the values)."
		for _, w := range warnings {
			msg += "\nwarning: " + w
		}
		out.Output(msg)
	})
}

func (o *driver) cmdObserve(c *store.Cmd) {
	if o.needsPi(c) {
		return
	}
	before := o.st.Observed
	o.st.Retry()
	env := Env{Force: true, NoCompact: c.Args.Has("no-compact")}
	o.step(c.Out, env, &omRun{act: store.Write, done: func(out *store.Out, why string) {
		runs := o.st.Observed - before
		msg := "Nothing new to observe."
		if runs > 0 {
			n := o.st.Items()
			msg = "Observed in " + txt.Plural(runs, "call", "calls") + ": " + strconv.Itoa(n[0]) + " observations (~" + strconv.Itoa(o.st.Tokens()) + " tokens), covered through entry " + o.st.Mark.ID + "."
		}
		if why != "" && runs == 0 {
			msg += " (" + why + ")"
		}
		out.Output(msg)
	}})
}

func (o *driver) cmdReflect(c *store.Cmd) {
	if o.needsPi(c) {
		return
	}
	if len(o.st.Groups) == 0 {
		c.Out.Output("No observations to reflect on yet.")
		return
	}
	before, tokens := o.st.Reflected, o.st.Tokens()
	o.st.Retry()
	env := Env{Reflect: true, Aggressive: c.Args.Has("aggressive"), Focus: strings.Join(c.Args.Words, " ")}
	o.step(c.Out, env, &omRun{act: store.Write, done: func(out *store.Out, why string) {
		if o.st.Reflected == before {
			out.Fail("The reflection was not applied; the observations are kept as they are (" + why + ").")
			return
		}
		out.Output("Reflected: ~" + strconv.Itoa(tokens) + " → ~" + strconv.Itoa(o.st.Tokens()) + " tokens, " + strconv.Itoa(o.st.Items()[0]) + " observations.")
	}})
}

func (o *driver) cmdObservations(c *store.Cmd) {
	text := o.st.Text()
	if c.JSON {
		w := jsonw.Open(nil)
		w.Str("observations", text)
		w.Str("task", o.st.Task)
		w.Str("response", o.st.Response)
		c.Out.Output(string(w.Close()))
		return
	}
	if strings.TrimSpace(text) == "" {
		c.Out.Output("No observations yet.")
		return
	}
	c.Out.Output(strings.TrimRight(text, "\n"))
}

// cmdView shows the observations (obs), the conversation not yet observed
// (raw), or both, each cut to N lines.
func (o *driver) cmdView(c *store.Cmd) {
	obs, raw, limit := false, false, 0
	for _, w := range c.Args.Words {
		switch strings.ToLower(w) {
		case "obs":
			obs = true
		case "raw":
			raw = true
		default:
			n, err := strconv.Atoi(w)
			if err != nil || n <= 0 {
				c.Usage()
				return
			}
			limit = n
		}
	}
	if !obs && !raw {
		obs, raw = true, true
	}
	var b strings.Builder
	if obs {
		text := o.st.Text()
		if strings.TrimSpace(text) == "" {
			text = "(none yet)"
		}
		b.WriteString("--- observations ---\n" + firstLines(text, limit))
	}
	if raw {
		text, tokens := o.st.Pending(&o.tr)
		if obs {
			b.WriteString("\n")
		}
		b.WriteString("--- not yet observed: ~" + strconv.Itoa(tokens) + " tokens ---\n")
		if strings.TrimSpace(text) == "" {
			text = "(nothing)"
		}
		b.WriteString(firstLines(text, limit))
	}
	c.Out.Output(strings.TrimRight(b.String(), "\n"))
}

// firstLines keeps the first n lines of text (all when n is 0), saying how
// many were left out.
func firstLines(text string, n int) string {
	text = strings.TrimRight(text, "\n") + "\n"
	if n <= 0 {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) <= n {
		return text
	}
	return strings.Join(lines[:n], "") + "(" + strconv.Itoa(len(lines)-n) + " more lines)\n"
}

func (o *driver) cmdClear(c *store.Cmd) {
	if o.needsPi(c) {
		return
	}
	n := o.st.Items()[0]
	o.apply(c.Out, Record{Op: OpClear, Time: o.clock().Ms})
	c.Out.Output("Cleared " + txt.Plural(n, "observation", "observations") + " with the current task and response. The ledger keeps the earlier records; what they covered is not observed again.")
}

// apply applies a record of a command to the state and appends it.
func (o *driver) apply(out *store.Out, r Record) {
	if o.scope.resource {
		r.Session = o.sessionID
	}
	o.st.Apply(r, o.cfg)
	o.record(out, r)
	o.showFooter(out)
}

func (o *driver) cmdMode(c *store.Cmd) {
	if len(c.Args.Words) == 0 {
		c.Out.Output("Mode: " + o.cfg.With(o.st.Settings).Mode + " (buffered: observe between turns; blocking: only when pi compacts or on /om observe).")
		return
	}
	mode := strings.ToLower(c.Args.Words[0])
	if mode != ModeBuffered && mode != ModeBlocking {
		c.Usage()
		return
	}
	if o.needsPi(c) {
		return
	}
	o.apply(c.Out, Record{Op: OpSet, Time: o.clock().Ms, Settings: Settings{Mode: &mode}})
	c.Out.Output("Mode: " + mode + " (kept " + o.scope.keptIn() + ").")
}

// cmdAutoCompact shows or sets our own compaction: on|off, a mode, then the
// observer, reflector and retain thresholds in that order.
func (o *driver) cmdAutoCompact(c *store.Cmd) {
	show := func(prefix string) {
		eff := o.cfg.With(o.st.Settings)
		c.Out.Output(prefix + "Auto-compact " + onOff(eff.AutoCompact) + ", " + eff.Mode + " mode; observer at " + strconv.Itoa(eff.ObserverTokens) +
			" tokens, reflector at " + strconv.Itoa(eff.ReflectorTokens) + ", retain " + strconv.Itoa(eff.RetainTokens) + " (compaction at " + strconv.Itoa(eff.ObserverTokens+eff.RetainTokens) + ").")
	}
	if len(c.Args.Words) == 0 {
		show("")
		return
	}
	var set Settings
	var nums []*int
	for _, w := range c.Args.Words {
		switch lw := strings.ToLower(w); lw {
		case "on", "off":
			on := lw == "on"
			set.AutoCompact = &on
		case ModeBuffered, ModeBlocking:
			set.Mode = &lw
		default:
			n, err := strconv.Atoi(w)
			if err != nil || n < 0 || n > MaxTokensLimit || len(nums) == 3 {
				c.Out.Usage("/om auto-compact: " + strconv.Quote(w) + " is not on, off, buffered, blocking or a token count from 0 to " + strconv.Itoa(MaxTokensLimit) + " (at most three: observer, reflector, retain).\nUsage: " + c.Cmd.Usage(c.Sub))
				return
			}
			nums = append(nums, &n)
		}
	}
	for i, p := range nums {
		switch i {
		case 0:
			set.ObserverTokens = p
		case 1:
			set.ReflectorTokens = p
		case 2:
			set.RetainTokens = p
		}
	}
	if o.needsPi(c) {
		return
	}
	o.apply(c.Out, Record{Op: OpSet, Time: o.clock().Ms, Settings: set})
	show("Kept " + o.scope.keptIn() + ". ")
}

func (o *driver) cmdRebuild(c *store.Cmd) {
	session, of := "", "of this branch"
	if o.scope.resource {
		session, of = o.sessionID, "of "+o.scope.file
	}
	o.st = Fold(o.recs, session, o.cfg)
	o.applied = o.applied[:0]
	for i := range o.recs {
		o.applied = append(o.applied, string(Encode(o.recs[i])))
	}
	covered := "nothing yet"
	if o.st.Mark.ID != "" {
		covered = "entry " + o.st.Mark.ID
	}
	c.Out.Output("Rebuilt from " + txt.Plural(len(o.recs), "ledger entry", "ledger entries") + " " + of + ": " + txt.Plural(o.st.Items()[0], "observation", "observations") + ", covered through " + covered + ".")
}

func (o *driver) cmdDump(c *store.Cmd) {
	if len(o.recs) == 0 {
		if c.JSON {
			c.Out.Output("")
			return
		}
		where := "in this branch"
		if o.scope.resource {
			where = "in " + o.scope.file
		}
		c.Out.Output("No observational-memory entries " + where + ".")
		return
	}
	lines := make([]string, len(o.recs))
	for i := range o.recs {
		lines[i] = string(Encode(o.recs[i]))
	}
	c.Out.Output(strings.Join(lines, "\n"))
}

// receipt is the observations' part of /memory last: what the context
// block injected into the newest request and why, or why nothing was.
func (o *driver) receipt() (text, why string, tokens int) {
	switch {
	case o.injWhy != "":
		return "", o.injWhy, 0
	case o.inj.Text == "":
		return "", o.inj.Why, 0
	}
	return o.inj.Text + o.inj.Hint, o.inj.Why, o.inj.Tokens
}
