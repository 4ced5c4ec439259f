package decision

import (
	"github.com/pi-memory/pi-memory/wasm/config"
)

// settings is the effective decision-memory configuration: defaults,
// then the global file, then the project file, with clamps.
type settings struct {
	Enabled        bool
	DisabledBy     string // the file that disabled memory, "" when enabled
	Why            string // when a file that cannot be read as written turned memory off: what is wrong and where; else ""
	RetentionDays  [numStatus]int
	MaxDecisions   int
	AutoCapture    bool
	Confirm        bool
	MaxPerTurn     int
	Classifier     string  // rule | llm | hybrid
	Threshold      float64 // classifier score needed to propose a candidate
	Warnings       []string
	GlobalPresent  bool
	ProjectPresent bool
}

// Limits of the seed.
const (
	defaultMaxDecisions = 20
	maxMaxDecisions     = 20
	maxPerTurnLimit     = 5
)

// defaultSettings is what applies with no config files.
func defaultSettings() settings {
	c := settings{
		Enabled:      true,
		MaxDecisions: defaultMaxDecisions,
		AutoCapture:  true,
		Confirm:      true,
		MaxPerTurn:   2,
		Classifier:   "rule",
		Threshold:    0.65,
	}
	c.RetentionDays[draft] = 30
	c.RetentionDays[rejected] = 90
	c.RetentionDays[Superseded] = 180
	return c
}

var knownKeys = map[string][]string{
	"enabled":       nil,
	"retentionDays": {"draft", "rejected", "superseded"},
	"context":       {"maxDecisions"},
	"autoCapture":   {"enabled", "confirm", "maxPerTurn", "classifier", "threshold"},
}

// offSentence ends the warning about a file that turned memory off because
// it cannot be read as written.
const offSentence = ". Decision memory is off until the file is fixed: nothing is injected or written."

// parseSettings merges the global and project files (nil data = file absent).
// Enabled resolves as the seed says: global disabled wins; otherwise the
// project file's value, when it sets one; otherwise enabled. A file whose
// intent is unclear (not valid JSON, not an object, "enabled" not true or
// false) counts as disabling: the global one everywhere, the project one in
// its project; Why then says what to fix. Every other key set in the
// project file overrides the global one.
func parseSettings(globalName string, global []byte, projectName string, project []byte) settings {
	return parseSettingsFiles(config.Parse(globalName, global), config.Parse(projectName, project))
}

// parseSettingsFiles is parseSettings over files already read (or that could
// not be: config.Unreadable, which turns the store off like a broken file).
func parseSettingsFiles(g, p *config.File) settings {
	c := defaultSettings()
	c.GlobalPresent, c.ProjectPresent = g.Present, p.Present
	for _, f := range []*config.File{g, p} {
		f.Unknown(knownKeys)
		// The first file to turn memory off (the global one first) says why.
		switch on, set, unclear := f.Switch("enabled"); {
		case unclear != "":
			f.Warnings = append(f.Warnings, unclear+offSentence)
			if c.Enabled {
				c.Enabled, c.DisabledBy, c.Why = false, f.Name, unclear+offSentence
			}
		case set && !on && c.Enabled:
			c.Enabled, c.DisabledBy = false, f.Name
		}
		if f.Object("retentionDays") {
			missing := ""
			for st := draft; st < numStatus; st++ {
				if st == Active {
					continue
				}
				key := "retentionDays." + st.String()
				if !f.Has(key) {
					if missing != "" {
						missing += ", "
					}
					missing += st.String()
					continue
				}
				c.RetentionDays[st], _ = f.Int(key, c.RetentionDays[st], 0, 36500)
			}
			if missing != "" {
				f.Warnings = append(f.Warnings, f.Name+": \"retentionDays\" must give draft, rejected and superseded; missing "+missing+", using the previous value")
			}
		}
		if f.Object("context") {
			c.MaxDecisions, _ = f.Int("context.maxDecisions", c.MaxDecisions, 1, maxMaxDecisions)
		}
		if f.Object("autoCapture") {
			c.AutoCapture, _ = f.Bool("autoCapture.enabled", c.AutoCapture)
			c.Confirm, _ = f.Bool("autoCapture.confirm", c.Confirm)
			c.MaxPerTurn, _ = f.Int("autoCapture.maxPerTurn", c.MaxPerTurn, 1, maxPerTurnLimit)
			c.Classifier, _ = f.Enum("autoCapture.classifier", c.Classifier, "rule", "llm", "hybrid")
			c.Threshold, _ = f.Float("autoCapture.threshold", c.Threshold, 0, 1)
		}
		c.Warnings = append(c.Warnings, f.Warnings...)
	}
	return c
}

// offWord is offReason in a word or two, for the footer (store.OffPiece).
//
//	offWord("/src/app", false, defaultSettings()) => "untrusted"
func offWord(projectRoot string, trusted bool, cfg settings) string {
	switch {
	case projectRoot == "":
		return "no project"
	case !trusted:
		return "untrusted"
	case !cfg.Enabled && cfg.Why != "":
		return "bad config"
	case !cfg.Enabled:
		return "disabled"
	}
	return ""
}

// offReason says why the store can neither be read nor written, or "" when
// it can: a session without a project folder (projectRoot ""), a project
// that is not trusted, or a configuration that turned memory off (the
// global file when cfg.DisabledBy is globalCfg, else the project's).
//
//	offReason("/src/app", true, defaultSettings(), "/g.json") => ""
func offReason(projectRoot string, trusted bool, cfg settings, globalCfg string) string {
	switch {
	case projectRoot == "":
		return "pi-memory has no project folder for this session."
	case !trusted:
		return "This project is not trusted, so pi-memory neither reads nor writes its decisions. Trust the project in pi (or run with --approve) and try again."
	case !cfg.Enabled && cfg.Why != "":
		return cfg.Why
	case !cfg.Enabled:
		scope := "--project"
		if cfg.DisabledBy == globalCfg {
			scope = "--global"
		}
		return "Decision memory is disabled by " + cfg.DisabledBy + "; nothing is injected or written. Turn it back on with /decision enable " + scope + "."
	}
	return ""
}
