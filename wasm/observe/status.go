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
