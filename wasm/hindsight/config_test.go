package hindsight

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/config"
)

func TestConfigReadsProjectOverGlobalThenEnvironment(t *testing.T) {
	g := config.Parse("/a/hindsight.json", []byte(`{"url":"http://g:1/","banks":["project","global"],"recall":{"timeoutMs":900},"mode":"read-only"}`))
	p := config.Parse("/p/.pi/hindsight.json", []byte(`{"url":"http://p:2","recall":{"budget":"high"},"typo":1}`))
	c := parseConfig(g, p, envVars{})
	require.Equal(t, "http://p:2", c.URL)
	require.Equal(t, []string{bankProject, bankUser}, c.Banks)
	require.Equal(t, 900, c.RecallTimeoutMs)
	require.Equal(t, "high", c.RecallBudget)
	require.Equal(t, modeReadOnly, c.Mode)
	require.Equal(t, []string{`/p/.pi/hindsight.json: unknown key "typo" (ignored)`}, c.Warnings)
	c = parseConfig(g, p, envVars{URL: "http://env:3/", APIKey: "k", Bank: "b"})
	require.Equal(t, "http://env:3", c.URL)
	require.Equal(t, "k", c.APIKey)
	require.Equal(t, "b", c.ProjectBank)
}

func TestConfigIsOffWithoutAURLAndWhenAFileCannotBeRead(t *testing.T) {
	require.False(t, parseConfig(nil, nil, envVars{}).on())
	c := parseConfig(config.Parse("/a/hindsight.json", []byte(`{"url":"http://g:1",}`)), nil, envVars{URL: "http://e:1"})
	require.False(t, c.on())
	require.Contains(t, c.Why, "/a/hindsight.json is not valid JSON")
}

func TestConfigWarnsAboutUnknownBankWordsAndKeepsTheDefault(t *testing.T) {
	c := parseConfig(config.Parse("/a/h.json", []byte(`{"url":"http://x","banks":["team"]}`)), nil, envVars{})
	require.Equal(t, []string{bankProject}, c.Banks)
	require.Equal(t, []string{`/a/h.json: "banks" holds "team", which is not "project" or "user" (ignored)`}, c.Warnings)
}
