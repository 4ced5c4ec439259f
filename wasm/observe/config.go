package observe

import (
	"github.com/pi-memory/pi-memory/wasm/config"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/tidwall/gjson"
)

// configFile is the name of the store's configuration file, in the project
// and in the global folder (the driver, driver.go, knows the folders).
const configFile = "om-config.json"

// Modes of the observer.
const (
	// modeBuffered observes between turns, in the background, as soon as a
	// threshold's worth of unobserved conversation has arrived, so that a
	// compaction only has to render what is already there.
	modeBuffered = "buffered"
	// modeBlocking never observes in the background: the observer runs
	// when pi compacts (or on /om observe), and the compaction waits.
	modeBlocking = "blocking"
)

// Injection modes.
const (
	injectAll          = "all"           // every observation, every request
	injectCoreRelevant = "core_relevant" // a token-capped core plus what the prompt's words select
)

// omConfig is the effective observational-memory configuration: the defaults,
// then the global om-config.json, then the project's (project keys win, key
// by key); within a file, its "preset" applies first and its own keys after.
// Token counts are budget.EstimateTokens estimates.
type omConfig struct {
	Enabled    bool
	DisabledBy string // the file whose "enabled": false is in force, "" when enabled
	Why        string // when a file that cannot be read as written turned the store off: what is wrong and where

	Preset string // the last preset applied, "" for none

	// When the observer runs.
	Mode           string // modeBuffered or modeBlocking
	ObserverTokens int    // unobserved tokens that start the observer in buffered mode; 0: only on demand and at compaction
	RetainTokens   int    // added to ObserverTokens: new tokens since the last compaction that start our own compaction
	AutoCompact    bool   // in buffered mode, compact by ourselves once the activation threshold is passed
	ObserverModel  string // "provider/id", or an id of a provider with credentials; "" means the session's current model (model.go)
	// ModelProblem is why pi cannot use ObserverModel, from the models the
	// host said pi can use (unusableModel); "" when it can, or unsaid.
	ModelProblem string

	// What the observer reads and keeps.
	MaxObserverTranscriptChars int // one observer prompt's transcript, at most (a backlog is cut into several)
	MaxObservationItems        int // observations kept; beyond, the oldest of the lowest priority go first
	RecentTurnBudgetTokens     int // raw recent conversation our own compaction keeps after the summary

	// The reflector.
	EnableReflection              bool
	ReflectorTokens               int // observation tokens that start the reflector
	ReflectEveryNObservations     int // non-empty observer runs that start the reflector; 0: never by count
	ReflectBeforeCompaction       bool
	MaxReflectorObservationsChars int // observations one reflector prompt carries; older ones beyond are reflected first

	ForceObserveAutoCompact bool // /om observe also compacts (unless --no-compact)

	// What is injected into each request.
	MemoryInjectionMode          string // injectAll or injectCoreRelevant
	CoreMemoryMaxTokens          int
	RelevantObservationMaxItems  int
	RelevantObservationMaxTokens int

	Warnings       []string
	GlobalPresent  bool
	ProjectPresent bool
}

// defaultConfig is what applies with no config files. The thresholds are the
// issue's (observer at 30k tokens plus an 8k retain buffer, reflector at 40k)
// rather than seed 004's 8k and 3k, which made the observer and the reflector
// run every few turns.
func defaultConfig() omConfig {
	return omConfig{
		Enabled:                       true,
		Mode:                          modeBuffered,
		ObserverTokens:                30000,
		RetainTokens:                  8000,
		AutoCompact:                   true,
		MaxObserverTranscriptChars:    200000,
		MaxObservationItems:           1200,
		RecentTurnBudgetTokens:        12000,
		EnableReflection:              true,
		ReflectorTokens:               40000,
		ReflectEveryNObservations:     3,
		ReflectBeforeCompaction:       true,
		MaxReflectorObservationsChars: 240000,
		ForceObserveAutoCompact:       true,
		MemoryInjectionMode:           injectAll,
		CoreMemoryMaxTokens:           500,
		RelevantObservationMaxItems:   20,
		RelevantObservationMaxTokens:  1400,
	}
}

// presets are seed 004's three practical presets, by the name the "preset"
// key takes. A preset sets only the keys it names; keys written in the same
// file (and any key of the project file over a global preset) win over it.
var presets = []preset{
	{Name: "reliability-first", Mode: injectAll, RecentTurnBudgetTokens: 16000, MaxObservationItems: 1500},
	{Name: "balanced", Mode: injectCoreRelevant, CoreMemoryMaxTokens: 700, RelevantObservationMaxItems: 24, RelevantObservationMaxTokens: 1600},
	{Name: "cost-first", Mode: injectCoreRelevant, RecentTurnBudgetTokens: 8000, CoreMemoryMaxTokens: 350, RelevantObservationMaxItems: 12, RelevantObservationMaxTokens: 900},
}

// preset is a named set of values; a zero field leaves its key alone.
type preset struct {
	Name                         string
	Mode                         string // memoryInjectionMode
	RecentTurnBudgetTokens       int
	MaxObservationItems          int
	CoreMemoryMaxTokens          int
	RelevantObservationMaxItems  int
	RelevantObservationMaxTokens int
}

func (p *preset) apply(c *omConfig) {
	c.Preset = p.Name
	if p.Mode != "" {
		c.MemoryInjectionMode = p.Mode
	}
	set := func(dst *int, v int) {
		if v != 0 {
			*dst = v
		}
	}
	set(&c.RecentTurnBudgetTokens, p.RecentTurnBudgetTokens)
	set(&c.MaxObservationItems, p.MaxObservationItems)
	set(&c.CoreMemoryMaxTokens, p.CoreMemoryMaxTokens)
	set(&c.RelevantObservationMaxItems, p.RelevantObservationMaxItems)
	set(&c.RelevantObservationMaxTokens, p.RelevantObservationMaxTokens)
}

// Limits of the numeric keys: a value outside is clamped, with a warning
// naming the file and the key.
const (
	maxTokensLimit     = 1000000 // any token threshold
	minObserverTokens  = 1000    // below, the observer would run every turn (0 is allowed: off)
	minReflectorTokens = 1000
	minTranscriptChars = 10000 // an observer prompt smaller than this cannot hold a tool result
	maxCharsLimit      = 4000000
	minItems           = 50
	maxItemsLimit      = 20000
)

// keys names every key a file may hold, with the seeds' aliases. Seed 004's
// geminiCliModel is known so that a file written for it gets a warning that
// says what replaced it, not "unknown key".
var knownKeys = map[string][]string{
	"enabled": nil, "preset": nil, "mode": nil, "observerTokens": nil, "autoObservePendingTokenThreshold": nil,
	"retainTokens": nil, "autoCompact": nil, "observerModel": nil, "geminiCliModel": nil,
	"maxObserverTranscriptChars": nil, "maxObservationItems": nil, "recentTurnBudgetTokens": nil,
	"enableReflection": nil, "reflectorTokens": nil, "reflectWhenObservationTokensOver": nil,
	"reflectEveryNObservations": nil, "reflectBeforeCompaction": nil, "maxReflectorObservationsChars": nil,
	"forceObserveAutoCompact": nil, "memoryInjectionMode": nil, "coreMemoryMaxTokens": nil,
	"relevantObservationMaxItems": nil, "relevantObservationMaxTokens": nil,
}

// DefaultConfigJSON is an om-config.json that writes every key at its
// default, one a line: what /om config edit opens when the file does not
// exist yet, so the person sees every key there is and changes the ones
// they want.
func DefaultConfigJSON() string {
	d := defaultConfig()
	var b text.Builder
	b.WriteString("{\n")
	kv := func(key, v string, last bool) { jsonLine(&b, key, v, last) }
	kv("enabled", boolJSON(d.Enabled), false)
	kv("mode", quote(d.Mode), false)
	kv("observerTokens", itoa(d.ObserverTokens), false)
	kv("retainTokens", itoa(d.RetainTokens), false)
	kv("autoCompact", boolJSON(d.AutoCompact), false)
	kv("observerModel", quote(d.ObserverModel), false)
	kv("maxObserverTranscriptChars", itoa(d.MaxObserverTranscriptChars), false)
	kv("maxObservationItems", itoa(d.MaxObservationItems), false)
	kv("recentTurnBudgetTokens", itoa(d.RecentTurnBudgetTokens), false)
	kv("enableReflection", boolJSON(d.EnableReflection), false)
	kv("reflectorTokens", itoa(d.ReflectorTokens), false)
	kv("reflectEveryNObservations", itoa(d.ReflectEveryNObservations), false)
	kv("reflectBeforeCompaction", boolJSON(d.ReflectBeforeCompaction), false)
	kv("maxReflectorObservationsChars", itoa(d.MaxReflectorObservationsChars), false)
	kv("forceObserveAutoCompact", boolJSON(d.ForceObserveAutoCompact), false)
	kv("memoryInjectionMode", quote(d.MemoryInjectionMode), false)
	kv("coreMemoryMaxTokens", itoa(d.CoreMemoryMaxTokens), false)
	kv("relevantObservationMaxItems", itoa(d.RelevantObservationMaxItems), false)
	kv("relevantObservationMaxTokens", itoa(d.RelevantObservationMaxTokens), true)
	b.WriteString("}\n")
	return b.String()
}

// jsonLine writes one key of DefaultConfigJSON: `  "key": v`, a comma
// unless it is the last, and a newline.
//
//go:noinline
func jsonLine(b *text.Builder, key, v string, last bool) {
	b.WriteString(cat("  ", quote(key), ": ", v))
	if !last {
		b.WriteByte(',')
	}
	b.WriteByte('\n')
}

func boolJSON(v bool) string {
	if v {
		return "true"
	}
	return "false"
}

// checkConfigFile reads an edited om-config.json, called name, as the store
// would read it. why, naming the file and what to fix, says it cannot be
// read as written (not valid JSON, not an object, "enabled" not true or
// false), which would turn the store off: such a text must not be saved.
// Otherwise warnings are what the store would say of its keys, each naming
// the file and the key (an unknown key, a value out of range, and what is
// used instead).
//
//	checkConfigFile("p.json", []byte(`{"observerTokens": "many"}`)) => a warning naming p.json and "observerTokens", why ""
//	checkConfigFile("p.json", []byte(`{"observerTokens": 5`)) => why "p.json is not valid JSON: …"
func checkConfigFile(name string, data []byte) (warnings []string, why string) {
	f := config.Parse(name, data)
	if _, _, unclear := f.Switch("enabled"); unclear != "" {
		return nil, unclear
	}
	return parseConfigFiles(config.Parse("", nil), nil, f, data).Warnings, ""
}

// offSentence ends the warning about a file that turned the store off
// because it cannot be read as written.
const offSentence = ". Observational memory is off until the file is fixed: nothing is observed, injected or written."

// parseConfig merges the global and the project om-config.json (nil data:
// the file is absent; an untrusted project's file is never read, so it is
// passed as nil). A file that cannot be read as written, or whose "enabled"
// is not true or false, turns the store off whatever the other file says;
// Why then names the file and what to fix. Every other bad value is
// replaced by the value in force before it, with a warning naming the file
// and the key.
//
//	parseConfig("g.json", []byte(`{"preset": "cost-first"}`), "p.json", []byte(`{"coreMemoryMaxTokens": 400}`))
//	  => MemoryInjectionMode "core_relevant", CoreMemoryMaxTokens 400, RelevantObservationMaxItems 12
func parseConfig(globalName string, global []byte, projectName string, project []byte) omConfig {
	return parseConfigFiles(config.Parse(globalName, global), global, config.Parse(projectName, project), project)
}

// parseConfigFiles is parseConfig over files already parsed, with their
// bytes (nil for a file that is absent or could not be read:
// config.Unreadable, which turns the store off like a broken file). The bytes
// are read for the one string key, "observerModel", which config.File has no
// reader for.
func parseConfigFiles(g *config.File, gData []byte, p *config.File, pData []byte) omConfig {
	c := defaultConfig()
	c.GlobalPresent, c.ProjectPresent = g.Present, p.Present
	unclearBy, why := "", ""
	for i, f := range []*config.File{g, p} {
		data := gData
		if i == 1 {
			data = pData
		}
		f.Unknown(knownKeys)
		switch on, set, unclear := f.Switch("enabled"); {
		case unclear != "":
			f.Warnings = append(f.Warnings, unclear+offSentence)
			if why == "" {
				unclearBy, why = f.Name, unclear+offSentence
			}
		case set:
			c.Enabled, c.DisabledBy = on, ""
			if !on {
				c.DisabledBy = f.Name
			}
		}
		c.read(f, data)
		c.Warnings = append(c.Warnings, f.Warnings...)
	}
	if why != "" {
		c.Enabled, c.DisabledBy, c.Why = false, unclearBy, why
	}
	return c
}

// read applies one file: its preset, then its keys.
func (c *omConfig) read(f *config.File, data []byte) {
	if f.Has("preset") {
		names := make([]string, len(presets))
		for i := range presets {
			names[i] = presets[i].Name
		}
		if name, ok := f.Enum("preset", "", names...); ok {
			for i := range presets {
				if presets[i].Name == name {
					presets[i].apply(c)
				}
			}
		}
	}
	c.Mode, _ = f.Enum("mode", c.Mode, modeBuffered, modeBlocking)
	c.ObserverTokens = tokens(f, c.ObserverTokens, minObserverTokens, "observerTokens", "autoObservePendingTokenThreshold")
	c.RetainTokens, _ = f.Int("retainTokens", c.RetainTokens, 0, maxTokensLimit)
	c.AutoCompact, _ = f.Bool("autoCompact", c.AutoCompact)
	c.ObserverModel = modelName(f, data, c.ObserverModel)
	if f.Has("geminiCliModel") {
		f.Warnings = append(f.Warnings, f.Name+`: "geminiCliModel" is not used: the observer runs on pi's models; set "observerModel" (any model pi knows, "" for the current one)`)
	}
	c.MaxObserverTranscriptChars, _ = f.Int("maxObserverTranscriptChars", c.MaxObserverTranscriptChars, minTranscriptChars, maxCharsLimit)
	c.MaxObservationItems, _ = f.Int("maxObservationItems", c.MaxObservationItems, minItems, maxItemsLimit)
	c.RecentTurnBudgetTokens, _ = f.Int("recentTurnBudgetTokens", c.RecentTurnBudgetTokens, 0, maxTokensLimit)
	c.EnableReflection, _ = f.Bool("enableReflection", c.EnableReflection)
	c.ReflectorTokens = tokens(f, c.ReflectorTokens, minReflectorTokens, "reflectorTokens", "reflectWhenObservationTokensOver")
	if c.ReflectorTokens == 0 {
		c.ReflectorTokens = minReflectorTokens
	}
	c.ReflectEveryNObservations, _ = f.Int("reflectEveryNObservations", c.ReflectEveryNObservations, 0, 1000)
	c.ReflectBeforeCompaction, _ = f.Bool("reflectBeforeCompaction", c.ReflectBeforeCompaction)
	c.MaxReflectorObservationsChars, _ = f.Int("maxReflectorObservationsChars", c.MaxReflectorObservationsChars, minTranscriptChars, maxCharsLimit)
	c.ForceObserveAutoCompact, _ = f.Bool("forceObserveAutoCompact", c.ForceObserveAutoCompact)
	c.MemoryInjectionMode, _ = f.Enum("memoryInjectionMode", c.MemoryInjectionMode, injectAll, injectCoreRelevant)
	c.CoreMemoryMaxTokens, _ = f.Int("coreMemoryMaxTokens", c.CoreMemoryMaxTokens, 0, maxTokensLimit)
	c.RelevantObservationMaxItems, _ = f.Int("relevantObservationMaxItems", c.RelevantObservationMaxItems, 0, 1000)
	c.RelevantObservationMaxTokens, _ = f.Int("relevantObservationMaxTokens", c.RelevantObservationMaxTokens, 0, maxTokensLimit)
}

// tokens reads a token threshold that has a seed alias: the first name is
// documented, the alias is read when the first is absent. 0 is allowed (the
// trigger is off); a value between 0 and min is raised to min.
func tokens(f *config.File, cur, min int, name, alias string) int {
	key := name
	if !f.Has(name) {
		if !f.Has(alias) {
			return cur
		}
		key = alias
	} else if f.Has(alias) {
		f.Warnings = append(f.Warnings, f.Name+": "+quote(name)+" and its alias "+quote(alias)+" are both set; using "+quote(name))
	}
	n, ok := f.Int(key, cur, 0, maxTokensLimit)
	if ok && n > 0 && n < min {
		f.Warnings = append(f.Warnings, f.Name+": "+quote(key)+" is below "+itoa(min)+" (got "+itoa(n)+"); using "+itoa(min)+" (0 turns it off)")
		n = min
	}
	return n
}

// modelName reads "observerModel": a name checkModelName accepts.
func modelName(f *config.File, data []byte, cur string) string {
	if !f.Has("observerModel") {
		return cur
	}
	v, ok := stringKey(data, "observerModel")
	if !ok {
		f.Warnings = append(f.Warnings, f.Name+`: "observerModel" must be a string such as "anthropic/claude-haiku-4-5" ("" for the current model); using `+quote(cur))
		return cur
	}
	if why := checkModelName(v); why != "" {
		f.Warnings = append(f.Warnings, f.Name+`: "observerModel" `+why+"; using "+quote(cur))
		return cur
	}
	return v
}

// stringKey reads the string at a top-level key of a file that config.Parse
// read (so data is valid JSON; the last duplicate wins, as there).
func stringKey(data []byte, key string) (string, bool) {
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		data = data[3:]
	}
	norm, err := config.Normalize(data)
	if err != nil {
		return "", false
	}
	v := jsonr.Get(gjson.ParseBytes(norm), key)
	return v.Str, v.Type == gjson.String
}

// settings are the overrides a person sets with commands (/om mode,
// /om auto-compact …). They are recorded in the ledger, so they persist
// across reloads (thread scope) and sessions (resource scope), and apply over
// the files. A nil field is not overridden.
type settings struct {
	Mode            *string
	AutoCompact     *bool
	ObserverTokens  *int
	ReflectorTokens *int
	RetainTokens    *int
}

// With returns c with the overrides s applied, clamped as the files are.
func (c omConfig) With(s settings) omConfig {
	if s.Mode != nil && (*s.Mode == modeBuffered || *s.Mode == modeBlocking) {
		c.Mode = *s.Mode
	}
	if s.AutoCompact != nil {
		c.AutoCompact = *s.AutoCompact
	}
	if s.ObserverTokens != nil {
		c.ObserverTokens = clampTokens(*s.ObserverTokens, minObserverTokens, true)
	}
	if s.ReflectorTokens != nil {
		c.ReflectorTokens = clampTokens(*s.ReflectorTokens, minReflectorTokens, false)
	}
	if s.RetainTokens != nil {
		c.RetainTokens = clampTokens(*s.RetainTokens, 0, true)
	}
	return c
}

func clampTokens(n, min int, zeroOK bool) int {
	switch {
	case n <= 0 && zeroOK:
		return 0
	case n < min:
		return min
	case n > maxTokensLimit:
		return maxTokensLimit
	}
	return n
}
