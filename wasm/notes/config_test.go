package notes

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

const (
	globalConfig  = "/home/ana/.pi/agent/memory/config.json"
	projectConfig = "/src/app/.pi/memory/config.json"
)

func TestParseConfigWithoutFilesIsTheDefaults(t *testing.T) {
	got := ParseConfig(globalConfig, nil, projectConfig, nil)
	want := Config{
		Enabled:            true,
		MaxInjectLines:     200,
		MaxInjectBytes:     8192,
		PageTableInjection: true,
		MaxMemoryTokens:    4096,
		TraceEnabled:       true,
		StrictWriteback:    true,
		StaleDays:          90,
	}
	require.Equal(t, want, got, "ParseConfig(nil, nil)")
	require.Equal(t, want, DefaultConfig(), "DefaultConfig()")
}

func TestParseConfigReportsWhichFilesExist(t *testing.T) {
	tests := []struct {
		name                 string
		global, project      []byte
		wantGlobal, wantProj bool
	}{
		{"neither", nil, nil, false, false},
		{"global only", []byte(`{}`), nil, true, false},
		{"project only", nil, []byte(`{}`), false, true},
		{"both", []byte(`{}`), []byte(`{}`), true, true},
		// An empty or broken file still exists: a person wrote it.
		{"an empty file is present", []byte(``), nil, true, false},
		{"an invalid file is present", nil, []byte(`{`), false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ParseConfig(globalConfig, tt.global, projectConfig, tt.project)
			require.True(t, c.GlobalPresent == tt.wantGlobal && c.ProjectPresent == tt.wantProj, "present = %v, %v; want %v, %v", c.GlobalPresent, c.ProjectPresent, tt.wantGlobal, tt.wantProj)
		})
	}
}

func TestParseConfigProjectOverridesGlobalKeyByKey(t *testing.T) {
	global := []byte(`{
		"maxInjectLines": 50,
		"maxInjectBytes": 4096,
		"pageTableInjection": false,
		"maxMemoryTokens": 2000,
		"traceEnabled": false,
		"strictWriteback": false,
		"staleDays": 30
	}`)
	project := []byte(`{"maxInjectLines": 80, "traceEnabled": true, "staleDays": 7}`)
	got := ParseConfig(globalConfig, global, projectConfig, project)
	want := Config{
		Enabled:            true,
		MaxInjectLines:     80,   // project
		MaxInjectBytes:     4096, // global: the project does not say
		PageTableInjection: false,
		MaxMemoryTokens:    2000,
		TraceEnabled:       true, // project, overriding a global false
		StrictWriteback:    false,
		StaleDays:          7,
		GlobalPresent:      true,
		ProjectPresent:     true,
	}
	require.Equal(t, want, got, "ParseConfig")
	// The same project keys over no global file override the defaults.
	got = ParseConfig(globalConfig, nil, projectConfig, project)
	require.True(t, got.MaxInjectLines == 80 && got.MaxInjectBytes == 8192 && got.StaleDays == 7 && got.StrictWriteback, "project over defaults = %+v", got)
}

func TestParseConfigEnabledFollowsTheLastFileThatSaysIt(t *testing.T) {
	tests := []struct {
		name            string
		global, project string // "" for no file
		want            bool
		wantBy          string
	}{
		{"no files", "", "", true, ""},
		{"global off", `{"enabled": false}`, "", false, globalConfig},
		{"project off", "", `{"enabled": false}`, false, projectConfig},
		{"global off, project on", `{"enabled": false}`, `{"enabled": true}`, true, ""},
		{"global on, project off", `{"enabled": true}`, `{"enabled": false}`, false, projectConfig},
		{"both off names the project", `{"enabled": false}`, `{"enabled": false}`, false, projectConfig},
		{"global off, project silent", `{"enabled": false}`, `{"staleDays": 10}`, false, globalConfig},
		// A value that is not a boolean is warned about and changes nothing.
		{"global off, project invalid", `{"enabled": false}`, `{"enabled": "yes"}`, false, globalConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g, p []byte
			if tt.global != "" {
				g = []byte(tt.global)
			}
			if tt.project != "" {
				p = []byte(tt.project)
			}
			c := ParseConfig(globalConfig, g, projectConfig, p)
			require.True(t, c.Enabled == tt.want && c.DisabledBy == tt.wantBy, "Enabled %v DisabledBy %q, want %v %q", c.Enabled, c.DisabledBy, tt.want, tt.wantBy)
		})
	}
}

func TestParseConfigClampsOutOfRangeValuesNamingFileAndKey(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		get     func(Config) int
		want    int
		warning string
	}{
		{"lines below", `{"maxInjectLines": 0}`, func(c Config) int { return c.MaxInjectLines }, 1,
			`"maxInjectLines" is below 1 (got 0); using 1`},
		{"lines above", `{"maxInjectLines": 5000}`, func(c Config) int { return c.MaxInjectLines }, 2000,
			`"maxInjectLines" is above 2000 (got 5000); using 2000`},
		{"bytes below", `{"maxInjectBytes": 10}`, func(c Config) int { return c.MaxInjectBytes }, 256,
			`"maxInjectBytes" is below 256 (got 10); using 256`},
		{"bytes above", `{"maxInjectBytes": 1000000}`, func(c Config) int { return c.MaxInjectBytes }, 65536,
			`"maxInjectBytes" is above 65536 (got 1000000); using 65536`},
		{"tokens below", `{"maxMemoryTokens": -1}`, func(c Config) int { return c.MaxMemoryTokens }, 512,
			`"maxMemoryTokens" is below 512 (got -1); using 512`},
		{"tokens above", `{"maxMemoryTokens": 99999}`, func(c Config) int { return c.MaxMemoryTokens }, 32768,
			`"maxMemoryTokens" is above 32768 (got 99999); using 32768`},
		{"stale days below", `{"staleDays": 0}`, func(c Config) int { return c.StaleDays }, 1,
			`"staleDays" is below 1 (got 0); using 1`},
		{"stale days above", `{"staleDays": 10000}`, func(c Config) int { return c.StaleDays }, 3650,
			`"staleDays" is above 3650 (got 10000); using 3650`},
		{"limits themselves are kept", `{"maxInjectLines": 2000}`, func(c Config) int { return c.MaxInjectLines }, 2000, ""},
		{"not a whole number keeps the value in force", `{"staleDays": 1.5}`, func(c Config) int { return c.StaleDays }, 90,
			`"staleDays" must be a whole number (got 1.5); using 90`},
		{"a string keeps the value in force", `{"maxInjectLines": "50"}`, func(c Config) int { return c.MaxInjectLines }, 200,
			`"maxInjectLines" must be a whole number (got "50"); using 200`},
	}
	for _, tt := range tests {
		for _, file := range []string{globalConfig, projectConfig} {
			t.Run(tt.name+" in "+file, func(t *testing.T) {
				var c Config
				if file == globalConfig {
					c = ParseConfig(globalConfig, []byte(tt.json), projectConfig, nil)
				} else {
					c = ParseConfig(globalConfig, nil, projectConfig, []byte(tt.json))
				}
				require.Equal(t, tt.want, tt.get(c), "value")
				var want []string
				if tt.warning != "" {
					want = []string{file + ": " + tt.warning}
				}
				require.Equal(t, want, c.Warnings, "warnings")
			})
		}
	}
}

func TestParseConfigInvalidProjectValueKeepsTheGlobalOne(t *testing.T) {
	c := ParseConfig(globalConfig, []byte(`{"maxInjectLines": 50, "traceEnabled": false}`),
		projectConfig, []byte(`{"maxInjectLines": "many", "traceEnabled": 1}`))
	require.True(t, c.MaxInjectLines == 50 && !c.TraceEnabled, "MaxInjectLines %d TraceEnabled %v, want the global 50 and false", c.MaxInjectLines, c.TraceEnabled)
	want := []string{
		projectConfig + `: "maxInjectLines" must be a whole number (got "many"); using 50`,
		projectConfig + `: "traceEnabled" must be true or false (got 1); using false`,
	}
	require.Equal(t, want, c.Warnings, "warnings")
}

func TestParseConfigWarnsAboutUnknownKeys(t *testing.T) {
	c := ParseConfig(globalConfig, []byte(`{"maxInjectLine": 10, "enabled": true}`),
		projectConfig, []byte(`{"autoCapture": true, "staleDays": 12}`))
	want := []string{
		globalConfig + `: unknown key "maxInjectLine" (ignored)`,
		projectConfig + `: unknown key "autoCapture" (ignored)`,
	}
	require.Equal(t, want, c.Warnings, "warnings")
	require.True(t, c.MaxInjectLines == 200 && c.StaleDays == 12, "an unknown key changed a setting or hid a known one: %+v", c)
}

func TestParseConfigIgnoresAFileThatIsNotAJSONObject(t *testing.T) {
	tests := []struct {
		name, data, warning string
	}{
		{"truncated", `{"maxInjectLines": 10`, "is not valid JSON"},
		{"trailing comma", `{"maxInjectLines": 10,}`, "is not valid JSON"},
		{"empty", ``, "is not valid JSON"},
		{"an array", `[{"maxInjectLines": 10}]`, "must hold a JSON object"},
		{"a number", `10`, "must hold a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The broken project file is ignored whole; the global file still applies.
			c := ParseConfig(globalConfig, []byte(`{"maxInjectLines": 60}`), projectConfig, []byte(tt.data))
			require.True(t, c.MaxInjectLines == 60 && c.Enabled, "settings = %+v, want the global file's", c)
			require.True(t, len(c.Warnings) == 1 && strings.HasPrefix(c.Warnings[0], projectConfig+": "+tt.warning), "warnings %q, want one starting %q", c.Warnings, projectConfig+": "+tt.warning)
		})
	}
}

func TestParseConfigListsGlobalWarningsBeforeProjectWarnings(t *testing.T) {
	c := ParseConfig(globalConfig, []byte(`{"staleDays": 0, "x": 1}`), projectConfig, []byte(`{"staleDays": 0}`))
	require.Equal(t, 3, len(c.Warnings), "warnings %q, want 3", c.Warnings)
	for i, file := range []string{globalConfig, globalConfig, projectConfig} {
		require.True(t, strings.HasPrefix(c.Warnings[i], file+": "), "warning %d = %q, want it to name %s", i, c.Warnings[i], file)
	}
}
