package decision

import (
	"strings"
	"testing"
)

func TestConfigDefaultsWithoutFiles(t *testing.T) {
	c := ParseConfig("g.json", nil, "p.json", nil)
	eq(t, c.Enabled, true, "enabled")
	eq(t, c.MaxDecisions, 20, "maxDecisions")
	eq(t, c.RetentionDays[Draft], 30, "draft")
	eq(t, c.MaxPerTurn, 2, "maxPerTurn")
	eq(t, len(c.Warnings), 0, "warnings")
}

func TestGlobalDisableWinsOverProjectEnable(t *testing.T) {
	c := ParseConfig("g.json", []byte(`{"enabled":false}`), "p.json", []byte(`{"enabled":true}`))
	eq(t, c.Enabled, false, "enabled")
	eq(t, c.DisabledBy, "g.json", "by")
	c = ParseConfig("g.json", []byte(`{"enabled":true}`), "p.json", []byte(`{"enabled":false}`))
	eq(t, c.Enabled, false, "project off")
	eq(t, c.DisabledBy, "p.json", "by project")
}

func TestProjectKeysOverrideGlobalAndClampsApply(t *testing.T) {
	c := ParseConfig("g.json", []byte(`{"context":{"maxDecisions":10},"autoCapture":{"maxPerTurn":4}}`),
		"p.json", []byte(`{"context":{"maxDecisions":99},"retentionDays":{"draft":7,"rejected":8,"superseded":9}}`))
	eq(t, c.MaxDecisions, 20, "clamped to 20")
	eq(t, c.MaxPerTurn, 4, "global kept")
	eq(t, c.RetentionDays[Draft], 7, "project retention")
	eq(t, len(c.Warnings), 1, "one clamp warning")
	if !strings.Contains(c.Warnings[0], "p.json") || !strings.Contains(c.Warnings[0], "context.maxDecisions") {
		t.Fatalf("warning %q must name the file and key", c.Warnings[0])
	}
}

func TestInvalidConfigWarnsAndUsesSafeDefaults(t *testing.T) {
	tests := []struct{ data, key string }{
		{`{not json`, "not valid JSON"},
		{`{"enabled":"no"}`, `"enabled"`},
		{`{"context":{"maxDecisions":"many"}}`, "context.maxDecisions"},
		{`{"autoCapture":{"maxPerTurn":0}}`, "autoCapture.maxPerTurn"},
		{`{"autoCapture":{"classifier":"gpt"}}`, "autoCapture.classifier"},
		{`{"retentionDays":{"draft":5}}`, "missing rejected, superseded"},
		{`{"maxDecisions":5}`, `unknown key "maxDecisions"`},
		{`[1]`, "must hold a JSON object"},
	}
	for _, tt := range tests {
		c := ParseConfig("g.json", nil, "/p/.pi/decision-memory.config.json", []byte(tt.data))
		if len(c.Warnings) == 0 || !strings.Contains(strings.Join(c.Warnings, "\n"), tt.key) || !strings.Contains(c.Warnings[0], "/p/.pi/decision-memory.config.json") {
			t.Errorf("%s: warnings %q should name the file and %q", tt.data, c.Warnings, tt.key)
		}
		eq(t, c.Enabled, true, tt.data+" stays enabled")
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"enabled":true,"context":{"maxDecisions":3}}`))
	f.Add([]byte(`{"retentionDays":{"draft":-1,"rejected":1e9,"superseded":"x"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := ParseConfig("g", data, "p", data)
		if c.MaxDecisions < 1 || c.MaxDecisions > 20 || c.MaxPerTurn < 1 || c.MaxPerTurn > 5 || c.Threshold < 0 || c.Threshold > 1 {
			t.Fatalf("clamps broken: %+v", c)
		}
		for st := Draft; st < numStatus; st++ {
			if c.RetentionDays[st] < 0 {
				t.Fatalf("negative retention: %+v", c)
			}
		}
	})
}
