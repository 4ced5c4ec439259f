package notes

import (
	"reflect"
	"strings"
	"testing"
)

const (
	globalConfig  = "/home/ana/.pi/agent/memory/config.json"
	projectConfig = "/src/app/.pi/memory/config.json"
)

func TestParseConfigWithoutFilesIsTheDefaults(t *testing.T) {
	got := parseConfig(globalConfig, nil, projectConfig, nil)
	want := config{
		Enabled:            true,
		MaxInjectLines:     200,
		MaxInjectBytes:     8192,
		PageTableInjection: true,
		MaxMemoryTokens:    4096,
		TraceEnabled:       true,
		StrictWriteback:    true,
		StaleDays:          90,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseConfig(nil, nil)\n got %+v\nwant %+v", got, want)
	}
	if !reflect.DeepEqual(defaultConfig(), want) {
		t.Errorf("DefaultConfig() = %+v, want %+v", defaultConfig(), want)
	}
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
			c := parseConfig(globalConfig, tt.global, projectConfig, tt.project)
			if c.GlobalPresent != tt.wantGlobal || c.ProjectPresent != tt.wantProj {
				t.Errorf("present = %v, %v; want %v, %v", c.GlobalPresent, c.ProjectPresent, tt.wantGlobal, tt.wantProj)
			}
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
	got := parseConfig(globalConfig, global, projectConfig, project)
	want := config{
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
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseConfig\n got %+v\nwant %+v", got, want)
	}
	// The same project keys over no global file override the defaults.
	got = parseConfig(globalConfig, nil, projectConfig, project)
	if got.MaxInjectLines != 80 || got.MaxInjectBytes != 8192 || got.StaleDays != 7 || !got.StrictWriteback {
		t.Errorf("project over defaults = %+v", got)
	}
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
		// The person's own off is not undone by a repository (h-v93 b3), as for decisions.
		{"global off, project on", `{"enabled": false}`, `{"enabled": true}`, false, globalConfig},
		{"global on, project off", `{"enabled": true}`, `{"enabled": false}`, false, projectConfig},
		{"both off names the project", `{"enabled": false}`, `{"enabled": false}`, false, projectConfig},
		{"global off, project silent", `{"enabled": false}`, `{"staleDays": 10}`, false, globalConfig},
		{"the last duplicate wins", `{"enabled": false, "enabled": true}`, `{"enabled": true, "enabled": false}`, false, projectConfig},
		// A value that is not a boolean turns memory off, whatever the other file says.
		{"global off, project invalid", `{"enabled": false}`, `{"enabled": "yes"}`, false, projectConfig},
		{"global invalid, project on", `{"enabled": 1}`, `{"enabled": true}`, false, globalConfig},
		{"global invalid, project off", `{"enabled": 1}`, `{"enabled": false}`, false, globalConfig},
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
			c := parseConfig(globalConfig, g, projectConfig, p)
			if c.Enabled != tt.want || c.DisabledBy != tt.wantBy {
				t.Errorf("Enabled %v DisabledBy %q, want %v %q", c.Enabled, c.DisabledBy, tt.want, tt.wantBy)
			}
		})
	}
}

func TestParseConfigClampsOutOfRangeValuesNamingFileAndKey(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		get     func(config) int
		want    int
		warning string
	}{
		{"lines below", `{"maxInjectLines": 0}`, func(c config) int { return c.MaxInjectLines }, 1,
			`"maxInjectLines" is below 1 (got 0); using 1`},
		{"lines above", `{"maxInjectLines": 5000}`, func(c config) int { return c.MaxInjectLines }, 2000,
			`"maxInjectLines" is above 2000 (got 5000); using 2000`},
		{"bytes below", `{"maxInjectBytes": 10}`, func(c config) int { return c.MaxInjectBytes }, 256,
			`"maxInjectBytes" is below 256 (got 10); using 256`},
		{"bytes above", `{"maxInjectBytes": 1000000}`, func(c config) int { return c.MaxInjectBytes }, 65536,
			`"maxInjectBytes" is above 65536 (got 1000000); using 65536`},
		{"tokens below", `{"maxMemoryTokens": -1}`, func(c config) int { return c.MaxMemoryTokens }, 512,
			`"maxMemoryTokens" is below 512 (got -1); using 512`},
		{"tokens above", `{"maxMemoryTokens": 99999}`, func(c config) int { return c.MaxMemoryTokens }, 32768,
			`"maxMemoryTokens" is above 32768 (got 99999); using 32768`},
		{"stale days below", `{"staleDays": 0}`, func(c config) int { return c.StaleDays }, 1,
			`"staleDays" is below 1 (got 0); using 1`},
		{"stale days above", `{"staleDays": 10000}`, func(c config) int { return c.StaleDays }, 3650,
			`"staleDays" is above 3650 (got 10000); using 3650`},
		{"limits themselves are kept", `{"maxInjectLines": 2000}`, func(c config) int { return c.MaxInjectLines }, 2000, ""},
		{"not a whole number keeps the value in force", `{"staleDays": 1.5}`, func(c config) int { return c.StaleDays }, 90,
			`"staleDays" must be a whole number (got 1.5); using 90`},
		{"a string keeps the value in force", `{"maxInjectLines": "50"}`, func(c config) int { return c.MaxInjectLines }, 200,
			`"maxInjectLines" must be a whole number (got "50"); using 200`},
	}
	for _, tt := range tests {
		for _, file := range []string{globalConfig, projectConfig} {
			t.Run(tt.name+" in "+file, func(t *testing.T) {
				var c config
				if file == globalConfig {
					c = parseConfig(globalConfig, []byte(tt.json), projectConfig, nil)
				} else {
					c = parseConfig(globalConfig, nil, projectConfig, []byte(tt.json))
				}
				if got := tt.get(c); got != tt.want {
					t.Errorf("value %d, want %d", got, tt.want)
				}
				var want []string
				if tt.warning != "" {
					want = []string{file + ": " + tt.warning}
				}
				if !reflect.DeepEqual(c.Warnings, want) {
					t.Errorf("warnings %q, want %q", c.Warnings, want)
				}
			})
		}
	}
}

func TestParseConfigInvalidProjectValueKeepsTheGlobalOne(t *testing.T) {
	c := parseConfig(globalConfig, []byte(`{"maxInjectLines": 50, "traceEnabled": false}`),
		projectConfig, []byte(`{"maxInjectLines": "many", "traceEnabled": 1}`))
	if c.MaxInjectLines != 50 || c.TraceEnabled {
		t.Errorf("MaxInjectLines %d TraceEnabled %v, want the global 50 and false", c.MaxInjectLines, c.TraceEnabled)
	}
	want := []string{
		projectConfig + `: "maxInjectLines" must be a whole number (got "many"); using 50`,
		projectConfig + `: "traceEnabled" must be true or false (got 1); using false`,
	}
	if !reflect.DeepEqual(c.Warnings, want) {
		t.Errorf("warnings\n got %q\nwant %q", c.Warnings, want)
	}
}

func TestParseConfigWarnsAboutUnknownKeys(t *testing.T) {
	c := parseConfig(globalConfig, []byte(`{"maxInjectLine": 10, "enabled": true}`),
		projectConfig, []byte(`{"autoCapture": true, "staleDays": 12}`))
	want := []string{
		globalConfig + `: unknown key "maxInjectLine" (ignored)`,
		projectConfig + `: unknown key "autoCapture" (ignored)`,
	}
	if !reflect.DeepEqual(c.Warnings, want) {
		t.Errorf("warnings\n got %q\nwant %q", c.Warnings, want)
	}
	if c.MaxInjectLines != 200 || c.StaleDays != 12 {
		t.Errorf("an unknown key changed a setting or hid a known one: %+v", c)
	}
}

// A file whose intent is unclear turns markdown memory off: the global one
// everywhere (a project enable does not override it), the project one in its
// project. The warning names the file and the key, or the line and column.
func TestParseConfigUnclearFileTurnsMemoryOff(t *testing.T) {
	off := ". Markdown memory is off until the file is fixed: nothing is injected or written."
	tests := []struct{ name, data, why string }{
		{"truncated", `{"maxInjectLines": 10`, " is not valid JSON: line 1, column 22: the text ends before the object opened at line 1, column 1 is closed; add '}'"},
		{"trailing comma", `{"enabled": false,}`, " is not valid JSON: line 1, column 18: trailing comma; delete the ',' before '}'"},
		{"comment", "{\"enabled\": false /* for now */}", " is not valid JSON: line 1, column 19: comments are not JSON; delete the comment"},
		{"string", `{"enabled": "false"}`, `: "enabled" must be true or false without quotes (got "false")`},
		{"zero", `{"enabled": 0}`, `: "enabled" must be true or false (got 0)`},
		{"bad last duplicate", `{"enabled": true, "enabled": "off"}`, `: "enabled" must be true or false (got "off")`},
		{"empty", ``, " is empty; write {} in it for the defaults, or delete it"},
		{"an array", `[{"maxInjectLines": 10}]`, ` must hold a JSON object such as {"enabled": true} (it holds an array)`},
		{"a number", `10`, ` must hold a JSON object such as {"enabled": true} (it holds a number)`},
	}
	for _, tt := range tests {
		for _, where := range []string{globalConfig, projectConfig} {
			t.Run(tt.name+" in "+where, func(t *testing.T) {
				on := []byte(`{"enabled": true, "maxInjectLines": 60}`)
				var c config
				if where == globalConfig {
					c = parseConfig(globalConfig, []byte(tt.data), projectConfig, on)
				} else {
					c = parseConfig(globalConfig, on, projectConfig, []byte(tt.data))
				}
				if c.Enabled || c.DisabledBy != where || c.Why != where+tt.why+off {
					t.Errorf("Enabled %v DisabledBy %q Why %q\nwant off by %s: %q", c.Enabled, c.DisabledBy, c.Why, where, where+tt.why+off)
				}
				if want := []string{where + tt.why + off}; !reflect.DeepEqual(c.Warnings, want) {
					t.Errorf("warnings %q\nwant %q", c.Warnings, want)
				}
			})
		}
	}
}

func TestParseConfigAcceptsAByteOrderMarkSilently(t *testing.T) {
	c := parseConfig(globalConfig, []byte("\xEF\xBB\xBF{\"maxInjectLines\": 60}"), projectConfig, []byte("\xEF\xBB\xBF{}"))
	if !c.Enabled || c.MaxInjectLines != 60 || len(c.Warnings) != 0 {
		t.Errorf("Enabled %v MaxInjectLines %d warnings %q", c.Enabled, c.MaxInjectLines, c.Warnings)
	}
}

func TestParseConfigReadsTheLastOfDuplicatedKeys(t *testing.T) {
	c := parseConfig(globalConfig, nil, projectConfig, []byte(`{"staleDays": 5, "traceEnabled": true, "staleDays": 6, "traceEnabled": false}`))
	if c.StaleDays != 6 || c.TraceEnabled || len(c.Warnings) != 0 {
		t.Errorf("StaleDays %d TraceEnabled %v warnings %q; want the last of each", c.StaleDays, c.TraceEnabled, c.Warnings)
	}
}

func TestParseConfigListsGlobalWarningsBeforeProjectWarnings(t *testing.T) {
	c := parseConfig(globalConfig, []byte(`{"staleDays": 0, "x": 1}`), projectConfig, []byte(`{"staleDays": 0}`))
	if len(c.Warnings) != 3 {
		t.Fatalf("warnings %q, want 3", c.Warnings)
	}
	for i, file := range []string{globalConfig, globalConfig, projectConfig} {
		if !strings.HasPrefix(c.Warnings[i], file+": ") {
			t.Errorf("warning %d = %q, want it to name %s", i, c.Warnings[i], file)
		}
	}
}
