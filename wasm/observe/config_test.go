package observe

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/config"
)

const (
	globalFile  = "/home/ada/.pi/agent/extensions/observational-memory/om-config.json"
	projectFile = "/src/app/.pi/extensions/observational-memory/om-config.json"
)

func parse(global, project string) omConfig {
	var g, p []byte
	if global != "" {
		g = []byte(global)
	}
	if project != "" {
		p = []byte(project)
	}
	return parseConfig(globalFile, g, projectFile, p)
}

func TestConfigWithoutFilesIsTheDefaults(t *testing.T) {
	c := parse("", "")
	require.Equal(t, defaultConfig(), c)
	require.True(t, c.Enabled)
	require.Equal(t, modeBuffered, c.Mode)
	require.Equal(t, 30000, c.ObserverTokens)
	require.Equal(t, 8000, c.RetainTokens)
	require.Equal(t, 40000, c.ReflectorTokens)
	require.Equal(t, injectAll, c.MemoryInjectionMode)
	require.Equal(t, "", c.ObserverModel)
	// Seed 004's other defaults.
	require.Equal(t, 12000, c.RecentTurnBudgetTokens)
	require.Equal(t, 1200, c.MaxObservationItems)
	require.Equal(t, 200000, c.MaxObserverTranscriptChars)
	require.Equal(t, 240000, c.MaxReflectorObservationsChars)
	require.Equal(t, 500, c.CoreMemoryMaxTokens)
	require.Equal(t, 20, c.RelevantObservationMaxItems)
	require.Equal(t, 1400, c.RelevantObservationMaxTokens)
	require.Equal(t, 3, c.ReflectEveryNObservations)
	require.True(t, c.EnableReflection && c.ReflectBeforeCompaction && c.ForceObserveAutoCompact && c.AutoCompact)
}

func TestConfigProjectKeysWinOverGlobalKeys(t *testing.T) {
	c := parse(`{"observerTokens": 20000, "mode": "blocking", "coreMemoryMaxTokens": 300}`, `{"observerTokens": 25000}`)
	require.Equal(t, 25000, c.ObserverTokens)
	require.Equal(t, modeBlocking, c.Mode, "a key the project does not set keeps the global value")
	require.Equal(t, 300, c.CoreMemoryMaxTokens)
	require.Equal(t, 0, len(c.Warnings), c.Warnings)
}

func TestConfigPresetsApplyBeforeTheKeysOfTheirFile(t *testing.T) {
	tests := []struct {
		name, global, project string
		check                 func(t *testing.T, c omConfig)
	}{
		{"reliability-first", `{"preset": "reliability-first"}`, "", func(t *testing.T, c omConfig) {
			require.Equal(t, injectAll, c.MemoryInjectionMode)
			require.Equal(t, 16000, c.RecentTurnBudgetTokens)
			require.Equal(t, 1500, c.MaxObservationItems)
		}},
		{"balanced", `{"preset": "balanced"}`, "", func(t *testing.T, c omConfig) {
			require.Equal(t, injectCoreRelevant, c.MemoryInjectionMode)
			require.Equal(t, 700, c.CoreMemoryMaxTokens)
			require.Equal(t, 24, c.RelevantObservationMaxItems)
			require.Equal(t, 1600, c.RelevantObservationMaxTokens)
			require.Equal(t, 12000, c.RecentTurnBudgetTokens, "a preset leaves the keys it does not name")
		}},
		{"cost-first", `{"preset": "cost-first"}`, "", func(t *testing.T, c omConfig) {
			require.Equal(t, injectCoreRelevant, c.MemoryInjectionMode)
			require.Equal(t, 8000, c.RecentTurnBudgetTokens)
			require.Equal(t, 350, c.CoreMemoryMaxTokens)
			require.Equal(t, 12, c.RelevantObservationMaxItems)
			require.Equal(t, 900, c.RelevantObservationMaxTokens)
		}},
		{"a key of the same file wins over its preset", `{"coreMemoryMaxTokens": 400, "preset": "cost-first"}`, "", func(t *testing.T, c omConfig) {
			require.Equal(t, 400, c.CoreMemoryMaxTokens)
			require.Equal(t, 12, c.RelevantObservationMaxItems)
		}},
		{"a project preset wins over global keys", `{"memoryInjectionMode": "all"}`, `{"preset": "balanced"}`, func(t *testing.T, c omConfig) {
			require.Equal(t, injectCoreRelevant, c.MemoryInjectionMode)
			require.Equal(t, "balanced", c.Preset)
		}},
		{"project keys win over a global preset", `{"preset": "cost-first"}`, `{"coreMemoryMaxTokens": 1000}`, func(t *testing.T, c omConfig) {
			require.Equal(t, 1000, c.CoreMemoryMaxTokens)
			require.Equal(t, 900, c.RelevantObservationMaxTokens)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parse(tt.global, tt.project)
			require.Equal(t, 0, len(c.Warnings), c.Warnings)
			tt.check(t, c)
		})
	}
}

func TestConfigReadsTheSeedsAliases(t *testing.T) {
	c := parse(`{"autoObservePendingTokenThreshold": 12000, "reflectWhenObservationTokensOver": 9000}`, "")
	require.Equal(t, 12000, c.ObserverTokens)
	require.Equal(t, 9000, c.ReflectorTokens)
	require.Equal(t, 0, len(c.Warnings), c.Warnings)

	c = parse(`{"observerTokens": 20000, "autoObservePendingTokenThreshold": 12000}`, "")
	require.Equal(t, 20000, c.ObserverTokens)
	require.Equal(t, 1, len(c.Warnings))
	require.Contains(t, c.Warnings[0], `"observerTokens" and its alias "autoObservePendingTokenThreshold" are both set`)
}

func TestConfigWarningsNameTheFileAndTheKey(t *testing.T) {
	tests := []struct {
		name, project string
		want          string
		check         func(c omConfig) bool
	}{
		{"a wrong type keeps the value before", `{"maxObservationItems": "lots"}`, `"maxObservationItems" must be a whole number`, func(c omConfig) bool { return c.MaxObservationItems == 1200 }},
		{"out of range is clamped", `{"maxObservationItems": 5}`, `"maxObservationItems" is below 50`, func(c omConfig) bool { return c.MaxObservationItems == 50 }},
		{"a threshold below its floor is raised", `{"observerTokens": 10}`, `"observerTokens" is below 1000 (got 10); using 1000 (0 turns it off)`, func(c omConfig) bool { return c.ObserverTokens == 1000 }},
		{"an unknown mode", `{"mode": "lazy"}`, `"mode" must be one of "buffered", "blocking"`, func(c omConfig) bool { return c.Mode == modeBuffered }},
		{"an unknown injection mode", `{"memoryInjectionMode": "some"}`, `"memoryInjectionMode" must be one of "all", "core_relevant"`, func(c omConfig) bool { return c.MemoryInjectionMode == injectAll }},
		{"an unknown preset", `{"preset": "fast"}`, `"preset" must be one of "reliability-first", "balanced", "cost-first"`, func(c omConfig) bool { return c.Preset == "" }},
		{"a typo", `{"maxObservationItem": 10}`, `unknown key "maxObservationItem"`, func(c omConfig) bool { return c.MaxObservationItems == 1200 }},
		{"the seed's Gemini key says what replaced it", `{"geminiCliModel": "gemini-2.5-flash"}`, `"geminiCliModel" is not used`, func(c omConfig) bool { return c.ObserverModel == "" }},
		{"a model name with spaces", `{"observerModel": "my model"}`, `"observerModel" must be one model name without spaces`, func(c omConfig) bool { return c.ObserverModel == "" }},
		{"a model name that is not a string", `{"observerModel": 4}`, `"observerModel" must be a string`, func(c omConfig) bool { return c.ObserverModel == "" }},
		{"a boolean that is a string", `{"autoCompact": "no"}`, `"autoCompact" must be true or false`, func(c omConfig) bool { return c.AutoCompact }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parse("", tt.project)
			require.True(t, c.Enabled, "a bad value never turns the store off")
			require.Equal(t, 1, len(c.Warnings), c.Warnings)
			require.True(t, strings.HasPrefix(c.Warnings[0], projectFile+": "), c.Warnings[0])
			require.Contains(t, c.Warnings[0], tt.want)
			require.True(t, tt.check(c), "value after %q", tt.project)
		})
	}
}

func TestConfigReadsAValidModelAndZeroThresholds(t *testing.T) {
	c := parse(`{"observerModel": "anthropic/claude-haiku-4-5", "observerTokens": 0, "reflectEveryNObservations": 0}`, "")
	require.Equal(t, "anthropic/claude-haiku-4-5", c.ObserverModel)
	require.Equal(t, 0, c.ObserverTokens, "0 turns the background observer off")
	require.Equal(t, 0, c.ReflectEveryNObservations)
	require.Equal(t, 0, len(c.Warnings), c.Warnings)
	// A byte-order mark and duplicated keys read as JSON.parse reads them.
	c = parse("\xEF\xBB\xBF"+`{"observerModel": "a", "observerModel": "b"}`, "")
	require.Equal(t, "b", c.ObserverModel)
}

func TestConfigThatCannotBeReadTurnsTheStoreOff(t *testing.T) {
	tests := []struct {
		name, global, project, want, by string
	}{
		{"invalid JSON", "", `{"mode": "buffered",}`, "is not valid JSON: line 1, column 20: trailing comma", projectFile},
		{"not an object", `[1]`, "", "must hold a JSON object", globalFile},
		{"enabled as a string", "", `{"enabled": "true"}`, `"enabled" must be true or false without quotes`, projectFile},
		{"whatever the other file says", `{"enabled": true,}`, `{"enabled": true}`, "is not valid JSON", globalFile},
		{"empty", "", " ", "is empty", projectFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parse(tt.global, tt.project)
			require.False(t, c.Enabled)
			require.Equal(t, tt.by, c.DisabledBy)
			require.Contains(t, c.Why, tt.want)
			require.Contains(t, c.Why, "Observational memory is off until the file is fixed")
		})
	}
	c := parseConfigFiles(config.Unreadable(globalFile, "permission denied"), nil, config.Parse(projectFile, nil), nil)
	require.False(t, c.Enabled)
	require.Contains(t, c.Why, "cannot be read (permission denied)")
}

func TestConfigEnabledFollowsTheProjectFile(t *testing.T) {
	require.False(t, parse(`{"enabled": false}`, "").Enabled)
	require.Equal(t, globalFile, parse(`{"enabled": false}`, "").DisabledBy)
	require.True(t, parse(`{"enabled": false}`, `{"enabled": true}`).Enabled)
	require.False(t, parse(`{"enabled": true}`, `{"enabled": false}`).Enabled)
}

func TestSettingsOverrideTheFilesWithinTheirClamps(t *testing.T) {
	mode, off, big, small, zero := modeBlocking, false, 5000000, 10, 0
	c := defaultConfig().With(settings{Mode: &mode, AutoCompact: &off, ObserverTokens: &big, ReflectorTokens: &small, RetainTokens: &zero})
	require.Equal(t, modeBlocking, c.Mode)
	require.False(t, c.AutoCompact)
	require.Equal(t, maxTokensLimit, c.ObserverTokens)
	require.Equal(t, minReflectorTokens, c.ReflectorTokens)
	require.Equal(t, 0, c.RetainTokens)
	bad := "eager"
	require.Equal(t, modeBuffered, defaultConfig().With(settings{Mode: &bad}).Mode)
	require.Equal(t, defaultConfig(), defaultConfig().With(settings{}))
}

func TestTheDefaultsAsJSONReadBackAsTheDefaults(t *testing.T) {
	warnings, why := checkConfigFile("p.json", []byte(DefaultConfigJSON()))
	require.Equal(t, "", why)
	require.Equal(t, 0, len(warnings))
	cfg := parseConfig("", nil, "p.json", []byte(DefaultConfigJSON()))
	cfg.Warnings, cfg.ProjectPresent = nil, false
	require.Equal(t, defaultConfig(), cfg)
}

func TestCheckConfigFileRefusesWhatWouldTurnTheStoreOff(t *testing.T) {
	tests := []struct {
		name, text, why, warning string
	}{
		{"not JSON", `{"mode": "buffered",}`, "p.json is not valid JSON", ""},
		{"not an object", `[1]`, "p.json", ""},
		{"empty", ` `, "p.json is empty", ""},
		{"an unclear switch", `{"enabled": 1}`, `p.json: "enabled" must be true or false`, ""},
		{"a bad value is a warning naming the key", `{"mode": "sometimes"}`, "", `p.json: "mode"`},
		{"an unknown key is a warning naming it", `{"observerTokns": 1}`, "", `"observerTokns"`},
		{"clean", `{"enabled": false}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			warnings, why := checkConfigFile("p.json", []byte(tt.text))
			if tt.why == "" {
				require.Equal(t, "", why)
			} else {
				require.Contains(t, why, tt.why)
			}
			if tt.warning == "" {
				require.Equal(t, 0, len(warnings))
			} else {
				require.Equal(t, 1, len(warnings))
				require.Contains(t, warnings[0], tt.warning)
			}
		})
	}
}

func TestParseConfigAppliesAGlobalPresetUnderTheProjectsKeys(t *testing.T) {
	c := parseConfig("~/.pi/agent/extensions/observational-memory/om-config.json", []byte(`{"preset": "cost-first"}`),
		".pi/extensions/observational-memory/om-config.json", []byte(`{"coreMemoryMaxTokens": 400, "geminiCliModel": "gemini-2.5-flash"}`))
	require.Equal(t, injectCoreRelevant, c.MemoryInjectionMode)
	require.Equal(t, 400, c.CoreMemoryMaxTokens)
	require.Equal(t, 12, c.RelevantObservationMaxItems)
	require.Equal(t, []string{`.pi/extensions/observational-memory/om-config.json: "geminiCliModel" is not used: the observer runs on pi's models; set "observerModel" (any model pi knows, "" for the current one)`}, c.Warnings)
}
