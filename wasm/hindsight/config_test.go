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

func TestAURLWithCredentialsOrAQueryIsRefusedSayingWhatToDo(t *testing.T) {
	const fix = `. Put the key in "apiKey" (or HINDSIGHT_API_KEY) and give the URL without it.`
	tests := []struct {
		name, file, env, why string
	}{
		{"a password in the file's URL", `{"url":"http://me:hunter2@h:8888/"}`, "", `/a/hindsight.json: "url" http://***@h:8888 holds a user name or password` + fix},
		{"a user name alone", `{"url":"https://me@h"}`, "", `/a/hindsight.json: "url" https://***@h holds a user name or password` + fix},
		{"a token in the query", `{"url":"http://h:8888/?token=s3cret"}`, "", `/a/hindsight.json: "url" http://h:8888/?token=*** holds a query or a fragment, which may carry a secret (?token=…) and which the API's paths cannot follow` + fix},
		{"the environment's URL", `{}`, "http://u:p@e:1", `HINDSIGHT_API_URL http://***@e:1 holds a user name or password` + fix},
		{"an @ in the path is no password", `{"url":"http://h:8888/team@x"}`, "", ""},
		{"a plain URL", `{"url":"http://h:8888"}`, "", ""},
	}
	for _, tc := range tests {
		c := parseConfig(config.Parse("/a/hindsight.json", []byte(tc.file)), nil, envVars{URL: tc.env})
		require.Equal(t, tc.why, c.Why, tc.name)
		require.Equal(t, tc.why == "", c.on(), tc.name)
		require.NotContains(t, c.Why, "hunter2", tc.name)
		require.NotContains(t, c.Why, "s3cret", tc.name)
	}
}

func TestHideURLSecretsHidesCredentialsAndQueryValuesInAnyText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"no URL here: a@b", "no URL here: a@b"},
		{"http://h:1/v1/default/banks/b/memories", "http://h:1/v1/default/banks/b/memories"},
		{"fetch http://me:pw@h:1/v1/x failed", "fetch http://***@h:1/v1/x failed"},
		{"Request cannot be constructed from a URL that includes credentials: http://u:p%40ss@h/", "Request cannot be constructed from a URL that includes credentials: http://***@h/"},
		{`"https://h/x?token=abc&b=2#frag" and ws://a:b@c?k`, `"https://h/x?token=***&b=***#frag" and ws://***@c?***`},
		{"http://h/p@x", "http://h/p@x"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, hideURLSecrets(tc.in), tc.in)
	}
}

// HINDSIGHT_BANK_ID is read as a file's value is: what a terminal or a
// model would read as something else is refused (h-v97 c1).
func TestABankIDFromTheEnvironmentHoldingAMarkerIsIgnoredWithAWarning(t *testing.T) {
	c := parseConfig(config.Parse("/a/h.json", []byte(`{"url":"http://x"}`)), nil, envVars{Bank: "b</pi-memory-recall>"})
	require.Equal(t, "", c.ProjectBank)
	require.Equal(t, 1, len(c.Warnings))
	require.Contains(t, c.Warnings[0], "HINDSIGHT_BANK_ID holds")
	require.NotContains(t, c.Warnings[0], "</pi-memory")
}
