package observe

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	txt "github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// status is what /om status prints: the configuration in force, the
// observations, what they cover, the runs, and anything waiting or stopped.
func status(s *state, cfg omConfig, t *transcript, env planEnv) string {
	cfg = cfg.With(s.Settings)
	var b txt.Builder
	if !cfg.Enabled {
		b.WriteString("Observational memory: off")
		switch {
		case cfg.Why != "":
			b.WriteString(cat(" (", cfg.Why, ")"))
		case cfg.DisabledBy != "":
			b.WriteString(cat(" (\"enabled\": false in ", cfg.DisabledBy, ")"))
		}
		return b.String() + "\n"
	}
	model := cfg.ObserverModel
	switch {
	case model == "":
		model = "the current model"
	case cfg.ModelProblem != "":
		model += " (not a model pi can use here; see Config below)"
	}
	b.WriteString(cat("Observational memory: on, ", cfg.Mode, " mode, auto-compact ", onOff(cfg.AutoCompact), ", injection ", cfg.MemoryInjectionMode, "; observer model: ", model, "\n"))
	n := s.Items()
	b.WriteString(cat("Observations: ", itoa(n[0]), " (🔴 ", itoa(n[high]), ", 🟡 ", itoa(n[medium]), ", 🟢 ", itoa(n[low]), "), ~", itoa(s.Tokens()), " tokens; reflector at ", itoa(cfg.ReflectorTokens), "\n"))
	b.WriteString("Covered: " + covered(s, t, env.Clock))
	if t != nil {
		idx, off := s.start(t)
		b.WriteString(cat("; ~", itoa(observable(t, idx, off)), " unobserved tokens"))
	}
	threshold := "observer on demand only"
	if cfg.ObserverTokens > 0 {
		threshold = thresholdText(cfg, env.Window)
	}
	b.WriteString(cat("; ", threshold, "\n"))
	b.WriteString(cat("Runs: observer ", itoa(s.Observed), " (", itoa(s.Empty), " found nothing new), reflector ", itoa(s.Reflected), "\n"))
	if s.Task != "" {
		b.WriteString(cat("Current task: ", s.Task, "\n"))
	}
	for _, k := range []struct {
		what string
		f    *failure
	}{{"observer", &s.observer}, {"reflector", &s.reflector}} {
		if w := k.f.waiting(k.what, env.Clock.Ms, env.Clock.Zone); w != "" {
			b.WriteString(cat("Waiting: ", w, "\n"))
		} else if l := k.f.lastFailed(k.what, env.Clock.Zone); l != "" {
			b.WriteString(cat("Failed: ", l, " (what it was asked is not marked observed)\n"))
		}
	}
	for _, w := range cfg.Warnings {
		b.WriteString(cat("Config: ", w, "\n"))
	}
	return b.String()
}

// statusView is what /om status shows: the state and the configuration,
// and what the driver knows of the session.
type statusView struct {
	st      *state
	cfg     omConfig
	t       *transcript // the branch last read, nil before one was
	env     planEnv     // the model's window and now
	off     string      // why the store is off (Off), "" when it is on
	inject  string      // the gate's answer for Inject
	scope   *omScope
	records int    // ledger records read and appended
	sources string // the config files read (configSources)
}

// statusPage is /om status: status, then where the observations are kept,
// the scope's and the SQLite variables' warnings, the config files read,
// and why nothing is injected when the gate says so while the store is on.
func statusPage(v statusView) string {
	text := status(v.st, v.cfg, v.t, v.env)
	if v.scope.resource {
		text += "Scope: resource (" + v.scope.file + ": " + txt.Plural(v.records, "record", "records") + " of this project's sessions; only this session's move its watermark)\n"
	} else {
		text += "Scope: thread (this session's branch: " + txt.Plural(v.records, "ledger entry", "ledger entries") + ` "` + CustomTypeLedger + `")` + "\n"
	}
	if v.scope.why != "" {
		text += v.scope.why + "\n"
	}
	if line := v.scope.sqliteLine(); line != "" {
		text += line + "\n"
	}
	text += "Config: " + v.sources + "\n"
	if v.inject != "" && v.off == "" {
		text += v.inject + "\n"
	}
	return strings.TrimRight(text, "\n")
}

// statusJSON is /om status --json: one object of the values statusPage
// shows most.
func statusJSON(v statusView) []byte {
	s := v.st
	eff := v.cfg.With(s.Settings)
	w := jsonw.Open(nil)
	w.Bool("enabled", v.off == "")
	w.Str("off", v.inject)
	w.Str("scope", v.scope.name())
	if line := v.scope.sqliteLine(); line != "" {
		w.Str("sqlite", line)
	}
	w.Str("mode", eff.Mode)
	w.Bool("autoCompact", eff.AutoCompact)
	w.Int("observations", int64(s.Items()[0]))
	w.Int("tokens", int64(s.Tokens()))
	w.Str("coveredThrough", s.Mark.ID)
	w.Int("records", int64(v.records))
	w.Int("observerRuns", int64(s.Observed))
	w.Int("reflections", int64(s.Reflected))
	if s.observer.last != "" {
		w.Str("observerFailed", s.observer.last)
	}
	return w.Close()
}

// offText is why the configuration turns the store off, "" when it does
// not: a file that cannot be read as written (cfg.Why), or "enabled": false.
func offText(cfg omConfig) string {
	switch {
	case !cfg.Enabled && cfg.Why != "":
		return cfg.Why
	case !cfg.Enabled:
		return "Observational memory is disabled by " + cfg.DisabledBy + "; nothing is observed, injected or written. Set \"enabled\": true there (or remove the key) to turn it back on."
	}
	return ""
}

// footer is the store's piece of pi's footer (store.Footer): the
// observations and their size and what keeps the observer from running, or
// why the store is off, or "" before there is anything to say.
//
//	"om 42 obs ~3.1k tok", "om 2 obs ~14 tok, observer retrying", "om off (disabled)"
func footer(s *state, cfg omConfig) string {
	switch {
	case !cfg.Enabled && cfg.Why != "":
		return store.OffPiece("om", "bad config")
	case !cfg.Enabled:
		return store.OffPiece("om", "disabled")
	}
	trouble := ""
	switch {
	case s.observer.stopped:
		trouble = ", observer stopped"
	case s.observer.count > 0:
		trouble = ", observer retrying"
	}
	if s.Items()[0] == 0 && trouble == "" {
		return ""
	}
	return "om " + itoa(s.Items()[0]) + " obs ~" + kilo(s.Tokens()) + " tok" + trouble
}

// kilo writes 3120 as "3.1k".
func kilo(n int) string {
	if n < 1000 {
		return itoa(n)
	}
	return itoa(n/1000) + "." + itoa(n%1000/100) + "k"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// configPage is /om config: where the configuration was read from
// (sources), then configText; reloaded says /om config reload asked.
func configPage(cfg omConfig, s settings, sources string, reloaded bool) string {
	head := "Observational memory config from " + sources + ":\n"
	if reloaded {
		head = "Reloaded. " + head
	}
	return strings.TrimRight(head+configText(cfg, s), "\n")
}

// configLine writes one key of configText: "  key: v", marked when this
// session set it.
//
//go:noinline
func configLine(b *txt.Builder, key, v string, over bool) {
	b.WriteString(cat("  ", key, ": ", v))
	if over {
		b.WriteString(" (set in this session)")
	}
	b.WriteByte('\n')
}

// configText is what /om config prints: every key of om-config.json with
// the value in force (the session's overrides applied and marked), then
// the warnings.
func configText(cfg omConfig, s settings) string {
	eff := cfg.With(s)
	var b txt.Builder
	line := func(key, v string, over bool) { configLine(&b, key, v, over) }
	model := eff.ObserverModel
	if model == "" {
		model = `"" (the current model)`
	}
	b.WriteString(cat("enabled: ", onOff(eff.Enabled)))
	if eff.Preset != "" {
		b.WriteString(cat(", preset ", eff.Preset))
	}
	b.WriteByte('\n')
	line("mode", eff.Mode, s.Mode != nil)
	line("autoCompact", onOff(eff.AutoCompact), s.AutoCompact != nil)
	line("observerTokens", itoa(eff.ObserverTokens), s.ObserverTokens != nil)
	line("retainTokens", itoa(eff.RetainTokens), s.RetainTokens != nil)
	line("reflectorTokens", itoa(eff.ReflectorTokens), s.ReflectorTokens != nil)
	line("observerModel", model, false)
	line("maxObserverTranscriptChars", itoa(eff.MaxObserverTranscriptChars), false)
	line("maxObservationItems", itoa(eff.MaxObservationItems), false)
	line("recentTurnBudgetTokens", itoa(eff.RecentTurnBudgetTokens), false)
	line("enableReflection", onOff(eff.EnableReflection), false)
	line("reflectEveryNObservations", itoa(eff.ReflectEveryNObservations), false)
	line("reflectBeforeCompaction", onOff(eff.ReflectBeforeCompaction), false)
	line("maxReflectorObservationsChars", itoa(eff.MaxReflectorObservationsChars), false)
	line("forceObserveAutoCompact", onOff(eff.ForceObserveAutoCompact), false)
	line("memoryInjectionMode", eff.MemoryInjectionMode, false)
	line("coreMemoryMaxTokens", itoa(eff.CoreMemoryMaxTokens), false)
	line("relevantObservationMaxItems", itoa(eff.RelevantObservationMaxItems), false)
	line("relevantObservationMaxTokens", itoa(eff.RelevantObservationMaxTokens), false)
	for _, w := range cfg.Warnings {
		b.WriteString(cat("warning: ", w, "\n"))
	}
	return b.String()
}
