package observe

import "strings"

// Status is what /om status prints: the configuration in force, the
// observations, what they cover, the runs, and anything waiting or stopped.
func Status(s *State, cfg Config, t *Transcript, env Env) string {
	cfg = cfg.With(s.Settings)
	var b strings.Builder
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
	if model == "" {
		model = "the current model"
	}
	b.WriteString(cat("Observational memory: on, ", cfg.Mode, " mode, auto-compact ", onOff(cfg.AutoCompact), ", injection ", cfg.MemoryInjectionMode, "; observer model: ", model, "\n"))
	n := s.Items()
	b.WriteString(cat("Observations: ", itoa(n[0]), " (🔴 ", itoa(n[High]), ", 🟡 ", itoa(n[Medium]), ", 🟢 ", itoa(n[Low]), "), ~", itoa(s.Tokens()), " tokens; reflector at ", itoa(cfg.ReflectorTokens), "\n"))
	cover := "nothing yet"
	if s.Mark.ID != "" {
		cover = "through entry " + s.Mark.ID
		if s.Mark.Off > 0 {
			cover += " (its first " + itoa(s.Mark.Off) + " bytes)"
		}
	}
	b.WriteString("Covered: " + cover)
	if t != nil {
		idx, off := s.start(t)
		b.WriteString(cat("; ~", itoa(observable(t, idx, off)), " unobserved tokens"))
	}
	threshold := "observer on demand only"
	if cfg.ObserverTokens > 0 {
		threshold = "observer at " + itoa(cfg.ObserverTokens) + " tokens, compaction at " + itoa(cfg.ObserverTokens+cfg.RetainTokens)
	}
	b.WriteString(cat("; ", threshold, "\n"))
	b.WriteString(cat("Runs: observer ", itoa(s.Observed), " (", itoa(s.Empty), " found nothing new), reflector ", itoa(s.Reflected), "\n"))
	if s.Task != "" {
		b.WriteString(cat("Current task: ", s.Task, "\n"))
	}
	for _, w := range []string{s.observer.waiting("observer", env.Clock.Ms, env.Clock.Zone), s.reflector.waiting("reflector", env.Clock.Ms, env.Clock.Zone)} {
		if w != "" {
			b.WriteString(cat("Waiting: ", w, "\n"))
		}
	}
	for _, w := range cfg.Warnings {
		b.WriteString(cat("Config: ", w, "\n"))
	}
	return b.String()
}

// Footer is the one status line routine work shows (pi's footer), instead
// of notifications: "om 42 obs ~3.1k tok", or why the store is idle.
func Footer(s *State, cfg Config) string {
	cfg = cfg.With(s.Settings)
	if !cfg.Enabled {
		return "om off"
	}
	line := "om " + itoa(s.Items()[0]) + " obs ~" + kilo(s.Tokens()) + " tok"
	switch {
	case s.observer.stopped:
		line += " · observer stopped"
	case s.observer.count > 0:
		line += " · observer retrying"
	}
	return line
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

// ConfigText is what /om config prints: every key of om-config.json with
// the value in force (the session's overrides applied and marked), then
// the warnings.
func ConfigText(cfg Config, s Settings) string {
	eff := cfg.With(s)
	var b strings.Builder
	line := func(key, v string, over bool) {
		b.WriteString(cat("  ", key, ": ", v))
		if over {
			b.WriteString(" (set in this session)")
		}
		b.WriteByte('\n')
	}
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
