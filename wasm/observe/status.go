package observe

import (
	"strconv"
	"strings"
)

// Status is what /om status prints: the configuration in force, the
// observations, what they cover, the runs, and anything waiting or stopped.
func Status(s *State, cfg Config, t *Transcript, env Env) string {
	cfg = cfg.With(s.Settings)
	var b strings.Builder
	if !cfg.Enabled {
		b.WriteString("Observational memory: off")
		switch {
		case cfg.Why != "":
			b.WriteString(" (" + cfg.Why + ")")
		case cfg.DisabledBy != "":
			b.WriteString(" (\"enabled\": false in " + cfg.DisabledBy + ")")
		}
		return b.String() + "\n"
	}
	model := cfg.ObserverModel
	if model == "" {
		model = "the current model"
	}
	b.WriteString("Observational memory: on, " + cfg.Mode + " mode, auto-compact " + onOff(cfg.AutoCompact) + ", injection " + cfg.MemoryInjectionMode + "; observer model: " + model + "\n")
	n := s.Items()
	b.WriteString("Observations: " + strconv.Itoa(n[0]) + " (🔴 " + strconv.Itoa(n[High]) + ", 🟡 " + strconv.Itoa(n[Medium]) + ", 🟢 " + strconv.Itoa(n[Low]) + "), ~" + strconv.Itoa(s.Tokens()) + " tokens; reflector at " + strconv.Itoa(cfg.ReflectorTokens) + "\n")
	cover := "nothing yet"
	if s.Mark.ID != "" {
		cover = "through entry " + s.Mark.ID
		if s.Mark.Off > 0 {
			cover += " (its first " + strconv.Itoa(s.Mark.Off) + " bytes)"
		}
	}
	b.WriteString("Covered: " + cover)
	if t != nil {
		idx, off := s.start(t)
		b.WriteString("; ~" + strconv.Itoa(observable(t, idx, off)) + " unobserved tokens")
	}
	threshold := "observer on demand only"
	if cfg.ObserverTokens > 0 {
		threshold = "observer at " + strconv.Itoa(cfg.ObserverTokens) + " tokens, compaction at " + strconv.Itoa(cfg.ObserverTokens+cfg.RetainTokens)
	}
	b.WriteString("; " + threshold + "\n")
	b.WriteString("Runs: observer " + strconv.Itoa(s.Observed) + " (" + strconv.Itoa(s.Empty) + " found nothing new), reflector " + strconv.Itoa(s.Reflected) + "\n")
	if s.Task != "" {
		b.WriteString("Current task: " + s.Task + "\n")
	}
	for _, w := range []string{s.observer.waiting("observer", env.Clock.Ms, env.Clock.Zone), s.reflector.waiting("reflector", env.Clock.Ms, env.Clock.Zone)} {
		if w != "" {
			b.WriteString("Waiting: " + w + "\n")
		}
	}
	for _, w := range cfg.Warnings {
		b.WriteString("Config: " + w + "\n")
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
	line := "om " + strconv.Itoa(s.Items()[0]) + " obs ~" + kilo(s.Tokens()) + " tok"
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
		return strconv.Itoa(n)
	}
	return strconv.Itoa(n/1000) + "." + strconv.Itoa(n%1000/100) + "k"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
