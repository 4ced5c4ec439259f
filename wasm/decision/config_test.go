package decision

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestConfigDefaultsWithoutFiles(t *testing.T) {
	c := parseSettings("g.json", nil, "p.json", nil)
	require.Equal(t, true, c.Enabled, "enabled")
	require.Equal(t, 20, c.MaxDecisions, "maxDecisions")
	require.Equal(t, 30, c.RetentionDays[draft], "draft")
	require.Equal(t, 2, c.MaxPerTurn, "maxPerTurn")
	require.Equal(t, 0, len(c.Warnings), "warnings")
}

func TestGlobalDisableWinsOverProjectEnable(t *testing.T) {
	c := parseSettings("g.json", []byte(`{"enabled":false}`), "p.json", []byte(`{"enabled":true}`))
	require.Equal(t, false, c.Enabled, "enabled")
	require.Equal(t, "g.json", c.DisabledBy, "by")
	c = parseSettings("g.json", []byte(`{"enabled":true}`), "p.json", []byte(`{"enabled":false}`))
	require.Equal(t, false, c.Enabled, "project off")
	require.Equal(t, "p.json", c.DisabledBy, "by project")
}

func TestProjectKeysOverrideGlobalAndClampsApply(t *testing.T) {
	c := parseSettings("g.json", []byte(`{"context":{"maxDecisions":10},"autoCapture":{"maxPerTurn":4}}`),
		"p.json", []byte(`{"context":{"maxDecisions":99},"retentionDays":{"draft":7,"rejected":8,"superseded":9}}`))
	require.Equal(t, 20, c.MaxDecisions, "clamped to 20")
	require.Equal(t, 4, c.MaxPerTurn, "global kept")
	require.Equal(t, 7, c.RetentionDays[draft], "project retention")
	require.Equal(t, 1, len(c.Warnings), "one clamp warning")
	if !strings.Contains(c.Warnings[0], "p.json") || !strings.Contains(c.Warnings[0], "context.maxDecisions") {
		t.Fatalf("warning %q must name the file and key", c.Warnings[0])
	}
}

func TestInvalidConfigWarnsAndUsesSafeDefaults(t *testing.T) {
	tests := []struct{ data, key string }{
		{`{"context":{"maxDecisions":"many"}}`, "context.maxDecisions"},
		{`{"autoCapture":{"enabled":"no"}}`, "autoCapture.enabled"},
		{`{"autoCapture":{"maxPerTurn":0}}`, "autoCapture.maxPerTurn"},
		{`{"autoCapture":{"classifier":"gpt"}}`, "autoCapture.classifier"},
		{`{"retentionDays":{"draft":5}}`, "missing rejected, superseded"},
		{`{"maxDecisions":5}`, `unknown key "maxDecisions"`},
	}
	for _, tt := range tests {
		c := parseSettings("g.json", nil, "/p/.pi/decision-memory.config.json", []byte(tt.data))
		if len(c.Warnings) == 0 || !strings.Contains(strings.Join(c.Warnings, "\n"), tt.key) || !strings.Contains(c.Warnings[0], "/p/.pi/decision-memory.config.json") {
			t.Errorf("%s: warnings %q should name the file and %q", tt.data, c.Warnings, tt.key)
		}
		require.Equal(t, true, c.Enabled, tt.data+" stays enabled")
	}
}

// A file whose intent is unclear turns decision memory off: the global one
// everywhere, the project one in its project. The warning names the file
// and the key, or the line and column, and says what to do.
func TestUnclearConfigTurnsDecisionMemoryOff(t *testing.T) {
	const (
		global  = "/home/ana/.pi/agent/decision-memory.config.json"
		project = "/src/app/.pi/decision-memory.config.json"
	)
	off := ". Decision memory is off until the file is fixed: nothing is injected or written."
	tests := []struct{ name, data, why string }{
		{"trailing comma", `{"enabled": false,}`, " is not valid JSON: line 1, column 18: trailing comma; delete the ',' before '}'"},
		{"comment", "{\n  // off\n  \"enabled\": false\n}", " is not valid JSON: line 2, column 3: comments are not JSON; delete the comment"},
		{"string", `{"enabled": "false"}`, `: "enabled" must be true or false without quotes (got "false")`},
		{"zero", `{"enabled": 0}`, `: "enabled" must be true or false (got 0)`},
		{"null", `{"enabled": null}`, `: "enabled" must be true or false (got null)`},
		{"not an object", `[{"enabled": false}]`, ` must hold a JSON object such as {"enabled": true} (it holds an array)`},
		{"empty", ``, ` is empty; write {} in it for the defaults, or delete it`},
	}
	for _, tt := range tests {
		for _, where := range []string{global, project} {
			t.Run(tt.name+" in "+where, func(t *testing.T) {
				// The other file says on: an unclear file still wins.
				on := []byte(`{"enabled": true}`)
				var c settings
				if where == global {
					c = parseSettings(global, []byte(tt.data), project, on)
				} else {
					c = parseSettings(global, on, project, []byte(tt.data))
				}
				require.Equal(t, false, c.Enabled, "enabled")
				require.Equal(t, where, c.DisabledBy, "disabled by")
				require.Equal(t, where+tt.why+off, c.Why, "why")
				require.Equal(t, []string{where + tt.why + off}, c.Warnings, "warnings")
			})
		}
	}
}

func TestClearDisableKeepsPrecedenceOverAnUnclearFile(t *testing.T) {
	// Global disable wins: it names the reason; the broken project file is
	// still warned about.
	c := parseSettings("g.json", []byte(`{"enabled": false}`), "p.json", []byte(`{"enabled": 0}`))
	require.Equal(t, false, c.Enabled, "enabled")
	require.Equal(t, "g.json", c.DisabledBy, "disabled by")
	require.Equal(t, "", c.Why, "why")
	require.Equal(t, 1, len(c.Warnings), "one warning")
	// A broken global file is not overridden by a project enable.
	c = parseSettings("g.json", []byte(`{"enabled": true,}`), "p.json", []byte(`{"enabled": false}`))
	require.Equal(t, "g.json", c.DisabledBy, "the first file to turn memory off")
	require.Equal(t, true, c.Why != "", "why")
}

func TestDuplicatedEnabledReadsTheLast(t *testing.T) {
	c := parseSettings("g.json", nil, "p.json", []byte(`{"enabled": true, "enabled": false}`))
	require.Equal(t, false, c.Enabled, "the last is false")
	require.Equal(t, "p.json", c.DisabledBy, "by")
	require.Equal(t, "", c.Why, "a clear disable has no why")
	c = parseSettings("g.json", nil, "p.json", []byte(`{"enabled": false, "context": {"maxDecisions": 3}, "enabled": true, "context": {"maxDecisions": 4}}`))
	require.Equal(t, true, c.Enabled, "the last is true")
	require.Equal(t, 4, c.MaxDecisions, "the last object")
}

func TestConfigAcceptsAByteOrderMarkSilently(t *testing.T) {
	c := parseSettings("g.json", []byte("\xEF\xBB\xBF{\"context\": {\"maxDecisions\": 3}}"), "p.json", nil)
	require.Equal(t, true, c.Enabled, "enabled")
	require.Equal(t, 3, c.MaxDecisions, "read")
	require.Equal(t, 0, len(c.Warnings), "warnings")
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"enabled":true,"context":{"maxDecisions":3}}`))
	f.Add([]byte(`{"retentionDays":{"draft":-1,"rejected":1e9,"superseded":"x"}}`))
	f.Add([]byte(`{"enabled":false,}`))
	f.Add([]byte(`{"enabled":true,"enabled":0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := parseSettings("g", data, "p", data)
		if c.Enabled && !json.Valid(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))) {
			t.Fatalf("a file that is not JSON left memory on: %q", data)
		}
		if c.Enabled != (c.DisabledBy == "") || (c.Why != "" && c.Enabled) {
			t.Fatalf("enabled %v, disabled by %q, why %q", c.Enabled, c.DisabledBy, c.Why)
		}
		if c.MaxDecisions < 1 || c.MaxDecisions > 20 || c.MaxPerTurn < 1 || c.MaxPerTurn > 5 || c.Threshold < 0 || c.Threshold > 1 {
			t.Fatalf("clamps broken: %+v", c)
		}
		for st := draft; st < numStatus; st++ {
			if c.RetentionDays[st] < 0 {
				t.Fatalf("negative retention: %+v", c)
			}
		}
	})
}

func TestOffReasonSaysWhyTheStoreIsOffAndHowToTurnItOn(t *testing.T) {
	const global, project = "/home/ana/.pi/agent/decision-memory.config.json", "/src/app/.pi/decision-memory.config.json"
	disabled := func(by string) settings {
		c := defaultSettings()
		c.Enabled, c.DisabledBy = false, by
		return c
	}
	unclear := disabled(project)
	unclear.Why = project + ` is not valid JSON: line 1, column 18: trailing comma; delete the ',' before '}'` + offSentence
	tests := []struct {
		name    string
		root    string
		trusted bool
		cfg     settings
		want    string
	}{
		{"on", "/src/app", true, defaultSettings(), ""},
		{"no project folder", "", true, defaultSettings(), "pi-memory has no project folder for this session."},
		{"no project folder comes first", "", false, disabled(global), "pi-memory has no project folder for this session."},
		{"not trusted", "/src/app", false, disabled(global),
			"This project is not trusted, so pi-memory neither reads nor writes its decisions. Trust the project in pi (or run with --approve) and try again."},
		{"disabled globally", "/src/app", true, disabled(global),
			"Decision memory is disabled by " + global + "; nothing is injected or written. Turn it back on with /decision enable --global."},
		{"disabled in the project", "/src/app", true, disabled(project),
			"Decision memory is disabled by " + project + "; nothing is injected or written. Turn it back on with /decision enable --project."},
		{"a file that cannot be read as written", "/src/app", true, unclear, unclear.Why},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, offReason(tt.root, tt.trusted, tt.cfg, global), tt.name)
	}
}
