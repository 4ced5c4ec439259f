package decision

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestConfigDefaultsWithoutFiles(t *testing.T) {
	c := ParseConfig("g.json", nil, "p.json", nil)
	require.Equal(t, true, c.Enabled, "enabled")
	require.Equal(t, 20, c.MaxDecisions, "maxDecisions")
	require.Equal(t, 30, c.RetentionDays[Draft], "draft")
	require.Equal(t, 2, c.MaxPerTurn, "maxPerTurn")
	require.Equal(t, 0, len(c.Warnings), "warnings")
}

func TestGlobalDisableWinsOverProjectEnable(t *testing.T) {
	c := ParseConfig("g.json", []byte(`{"enabled":false}`), "p.json", []byte(`{"enabled":true}`))
	require.Equal(t, false, c.Enabled, "enabled")
	require.Equal(t, "g.json", c.DisabledBy, "by")
	c = ParseConfig("g.json", []byte(`{"enabled":true}`), "p.json", []byte(`{"enabled":false}`))
	require.Equal(t, false, c.Enabled, "project off")
	require.Equal(t, "p.json", c.DisabledBy, "by project")
}

func TestProjectKeysOverrideGlobalAndClampsApply(t *testing.T) {
	c := ParseConfig("g.json", []byte(`{"context":{"maxDecisions":10},"autoCapture":{"maxPerTurn":4}}`),
		"p.json", []byte(`{"context":{"maxDecisions":99},"retentionDays":{"draft":7,"rejected":8,"superseded":9}}`))
	require.Equal(t, 20, c.MaxDecisions, "clamped to 20")
	require.Equal(t, 4, c.MaxPerTurn, "global kept")
	require.Equal(t, 7, c.RetentionDays[Draft], "project retention")
	require.Equal(t, 1, len(c.Warnings), "one clamp warning")
	require.True(t, strings.Contains(c.Warnings[0], "p.json") && strings.Contains(c.Warnings[0], "context.maxDecisions"), "warning %q must name the file and key", c.Warnings[0])
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
		require.True(t, len(c.Warnings) != 0 && strings.Contains(strings.Join(c.Warnings, "\n"), tt.key) && strings.Contains(c.Warnings[0], "/p/.pi/decision-memory.config.json"), "%s: warnings %q should name the file and %q", tt.data, c.Warnings, tt.key)
		require.Equal(t, true, c.Enabled, tt.data+" stays enabled")
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"enabled":true,"context":{"maxDecisions":3}}`))
	f.Add([]byte(`{"retentionDays":{"draft":-1,"rejected":1e9,"superseded":"x"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := ParseConfig("g", data, "p", data)
		require.True(t, c.MaxDecisions >= 1 && c.MaxDecisions <= 20 && c.MaxPerTurn >= 1 && c.MaxPerTurn <= 5 && c.Threshold >= 0 && c.Threshold <= 1, "clamps broken: %+v", c)
		for st := Draft; st < numStatus; st++ {
			require.True(t, c.RetentionDays[st] >= 0, "negative retention: %+v", c)
		}
	})
}
