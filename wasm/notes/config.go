package notes

import configfile "github.com/pi-memory/pi-memory/wasm/config"

// config is the effective markdown-memory configuration: the
// defaults, then `config.json` of the global memory folder, then that of the
// project memory folder, key by key (project keys override global keys, as
// pi's own settings merge).
type config struct {
	Enabled            bool
	DisabledBy         string // the file whose "enabled": false is in force, "" when enabled
	Why                string // when a file that cannot be read as written turned memory off: what is wrong and where; else ""
	MaxInjectLines     int    // per scope, lines of an index injected
	MaxInjectBytes     int    // per scope, bytes of an index injected
	PageTableInjection bool   // typed pages and the resident-set policy, else a plain cut
	MaxMemoryTokens    int    // the whole notes block, estimated tokens (EstimateTokens)
	TraceEnabled       bool
	StrictWriteback    bool // reject what a flush would otherwise repair
	StaleDays          int  // /memory stale: days without confirmation
	Warnings           []string
	GlobalPresent      bool
	ProjectPresent     bool
}

// Limits of the configuration keys: a value outside them is clamped, with a
// warning naming the file and the key.
const (
	minInjectLines, maxInjectLinesLimit   = 1, 2000
	minInjectBytes, maxInjectBytesLimit   = 256, 64 << 10
	minMemoryTokens, maxMemoryTokensLimit = 512, 32768
	minStaleDays, maxStaleDays            = 1, 3650
)

// defaultConfig is what applies with no config files.
func defaultConfig() config {
	return config{
		Enabled:            true,
		MaxInjectLines:     200,
		MaxInjectBytes:     8 << 10,
		PageTableInjection: true,
		MaxMemoryTokens:    4096,
		TraceEnabled:       true,
		StrictWriteback:    true,
		StaleDays:          90,
	}
}

var knownKeys = map[string][]string{
	"enabled":            nil,
	"maxInjectLines":     nil,
	"maxInjectBytes":     nil,
	"pageTableInjection": nil,
	"maxMemoryTokens":    nil,
	"traceEnabled":       nil,
	"strictWriteback":    nil,
	"staleDays":          nil,
}

// offSentence ends the warning about a file that turned memory off because
// it cannot be read as written.
const offSentence = ". Markdown memory is off until the file is fixed: nothing is injected or written."

// parseConfig merges the global and the project file (nil data: the file is
// absent; an untrusted project's file is never read, so it is passed as nil).
// The project's keys win, but for "enabled": true, which does not undo the
// global file's false.
// A file whose intent is unclear (not valid JSON, not an object, "enabled"
// not true or false) turns memory off whatever the other file says: the
// global one everywhere, the project one in its project; Why then says what
// to fix.
//
//	parseConfig("g.json", []byte(`{"maxInjectLines": 50}`), "p.json", []byte(`{"maxInjectLines": 80}`)).MaxInjectLines => 80
func parseConfig(globalName string, global []byte, projectName string, project []byte) config {
	return parseConfigFiles(configfile.Parse(globalName, global), configfile.Parse(projectName, project))
}

// parseConfigFiles is parseConfig over files already read (or that could
// not be: configfile.Unreadable, which turns the store off like a broken file).
func parseConfigFiles(g, p *configfile.File) config {
	c := defaultConfig()
	c.GlobalPresent, c.ProjectPresent = g.Present, p.Present
	unclearBy, why := "", ""
	for _, f := range []*configfile.File{g, p} {
		f.Unknown(knownKeys)
		switch on, set, unclear := f.Switch("enabled"); {
		case unclear != "":
			f.Warnings = append(f.Warnings, unclear+offSentence)
			if why == "" {
				unclearBy, why = f.Name, unclear+offSentence
			}
		case set && on && f == p && !c.Enabled:
			// The person's own "off" is not undone by a repository's file,
			// as for decisions (h-v93 b3): the global file keeps it off.
		case set:
			c.Enabled = on
			c.DisabledBy = ""
			if !on {
				c.DisabledBy = f.Name
			}
		}
		if n, ok := f.Int("maxInjectLines", c.MaxInjectLines, minInjectLines, maxInjectLinesLimit); ok {
			c.MaxInjectLines = n
		}
		if n, ok := f.Int("maxInjectBytes", c.MaxInjectBytes, minInjectBytes, maxInjectBytesLimit); ok {
			c.MaxInjectBytes = n
		}
		if on, ok := f.Bool("pageTableInjection", c.PageTableInjection); ok {
			c.PageTableInjection = on
		}
		if n, ok := f.Int("maxMemoryTokens", c.MaxMemoryTokens, minMemoryTokens, maxMemoryTokensLimit); ok {
			c.MaxMemoryTokens = n
		}
		if on, ok := f.Bool("traceEnabled", c.TraceEnabled); ok {
			c.TraceEnabled = on
		}
		if on, ok := f.Bool("strictWriteback", c.StrictWriteback); ok {
			c.StrictWriteback = on
		}
		if n, ok := f.Int("staleDays", c.StaleDays, minStaleDays, maxStaleDays); ok {
			c.StaleDays = n
		}
		c.Warnings = append(c.Warnings, f.Warnings...)
	}
	if why != "" {
		c.Enabled, c.DisabledBy, c.Why = false, unclearBy, why
	}
	return c
}
