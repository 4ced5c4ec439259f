package observe

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestStatusSaysWhatIsInForceAndWhatWaits(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	s.turn("hello", 4000)
	tr := s.transcript()
	st := &state{Groups: []group{{Day: d12, Items: []observation{item(high, 1, "a"), item(low, 2, "b")}}}, Mark: Mark{ID: "e1"}, Task: "Say hello", Observed: 3, Empty: 1}
	st.observer.fail("observer", "503", feb12)
	got := status(st, cfg, &tr, planEnv{Window: 200000, Clock: at(feb12)})
	for _, want := range []string{
		"Observational memory: on, buffered mode, auto-compact on, injection all; observer model: the current model\n",
		"Observations: 2 (🔴 1, 🟡 0, 🟢 1), ~",
		"Covered: through turn 1 of 1 (your message at 14:30); ~1005 unobserved tokens; observer at 30000 tokens, compaction at 38000\n",
		"Runs: observer 3 (1 found nothing new), reflector 0\n",
		"Current task: Say hello\n",
		"Waiting: observer backing off after 1 failure(s) until 14:30 (last: 503)\n",
	} {
		require.Contains(t, got, want)
	}
	require.Equal(t, "om 2 obs ~14 tok, observer retrying", footer(st, cfg))
	require.Contains(t, status(st, cfg, &tr, planEnv{Window: 32000, Clock: at(feb12)}),
		"; observer at 6400 tokens, compaction at 15616 (on this model's 32000-token window; configured: 30000 and 38000)\n")

	// /om observe forgets the backoff, not the failure: status still says it
	// until a call succeeds.
	st.Retry()
	got = status(st, cfg, &tr, planEnv{Clock: at(feb12 + 60*60*1000)})
	require.NotContains(t, got, "Waiting:")
	require.Contains(t, got, "Failed: the last observer call failed at 14:30: 503 (what it was asked is not marked observed)\n")
	st.observer.ok()
	require.NotContains(t, status(st, cfg, &tr, planEnv{Clock: at(feb12)}), "Failed:")

	cfg = parseConfig(globalFile, []byte(`{"enabled": "no"}`), projectFile, nil)
	require.Contains(t, status(st, cfg, nil, planEnv{}), "Observational memory: off (")
	require.Equal(t, "om off (bad config)", footer(st, cfg))
}

func TestConfigTextMarksTheSessionsOverrides(t *testing.T) {
	mode, n := modeBlocking, 12000
	text := configText(defaultConfig(), settings{Mode: &mode, ObserverTokens: &n})
	require.Contains(t, text, "  mode: blocking (set in this session)\n")
	require.Contains(t, text, "  observerTokens: 12000 (set in this session)\n")
	require.Contains(t, text, "  retainTokens: 8000\n")
	require.Contains(t, text, `  observerModel: "" (the current model)`)
}

func TestStatusPageSaysWhereTheObservationsAreKeptAndWhatIsRead(t *testing.T) {
	st := &state{Groups: []group{{Day: d12, Items: []observation{item(high, 870, "a")}}}, Mark: Mark{ID: "e1"}}
	cfg := defaultConfig()
	head := status(st, cfg, nil, planEnv{})
	tests := []struct {
		name string
		v    statusView
		want string
	}{
		{"thread scope", statusView{scope: &omScope{}, records: 1, sources: "defaults (no om-config.json)"},
			head + "Scope: thread (this session's branch: 1 ledger entry \"pi-memory-om\")\nConfig: defaults (no om-config.json)"},
		{"resource scope, with the SQLite variables", statusView{scope: &omScope{resource: true, file: "/a/h.jsonl", sqlite: "PI_OM_SQLITE"}, records: 2, sources: "/a/om-config.json"},
			head + "Scope: resource (/a/h.jsonl: 2 records of this project's sessions; only this session's move its watermark)\n" +
				"PI_OM_SQLITE selects nothing: pi-memory keeps observations as a JSON Lines ledger a person can read (decision 010), here /a/h.jsonl; unset the variable to silence this.\nConfig: /a/om-config.json"},
		{"the scope asked for and not in force", statusView{scope: &omScope{why: "PI_OM_SCOPE=x is not thread or resource."}, sources: "s"},
			head + "Scope: thread (this session's branch: 0 ledger entries \"pi-memory-om\")\nPI_OM_SCOPE=x is not thread or resource.\nConfig: s"},
		{"the gate says no while the store is on", statusView{scope: &omScope{}, inject: "Memory is off for this session (/memory off).", sources: "s"},
			head + "Scope: thread (this session's branch: 0 ledger entries \"pi-memory-om\")\nConfig: s\nMemory is off for this session (/memory off)."},
		{"the gate is not repeated when the store itself is off (Status says so)", statusView{scope: &omScope{}, off: "disabled", inject: "disabled", sources: "s"},
			head + "Scope: thread (this session's branch: 0 ledger entries \"pi-memory-om\")\nConfig: s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.v.st, tt.v.cfg = st, cfg
			require.Equal(t, tt.want, statusPage(tt.v))
		})
	}
}

func TestStatusJSONHoldsTheNumbersInForce(t *testing.T) {
	mode := modeBlocking
	st := &state{Groups: []group{{Day: d12, Items: []observation{item(high, 870, "a")}}}, Mark: Mark{ID: "e1"}, Observed: 4, Reflected: 1, Settings: settings{Mode: &mode}}
	v := statusView{st: st, cfg: defaultConfig(), scope: &omScope{}, records: 5}
	require.Equal(t, `{"enabled":true,"off":"","scope":"thread","mode":"blocking","autoCompact":true,"observations":1,"tokens":`+itoa(st.Tokens())+`,"coveredThrough":"e1","records":5,"observerRuns":4,"reflections":1}`, string(statusJSON(v)))
	v.off, v.inject = "disabled", "disabled"
	v.scope = &omScope{resource: true, file: "/f", sqlite: "PI_OM_SQLITE_PATH"}
	require.Equal(t, `{"enabled":false,"off":"disabled","scope":"resource","sqlite":"PI_OM_SQLITE_PATH selects nothing: pi-memory keeps observations as a JSON Lines ledger a person can read (decision 010), here /f; unset the variable to silence this.","mode":"blocking","autoCompact":true,"observations":1,"tokens":`+itoa(st.Tokens())+`,"coveredThrough":"e1","records":5,"observerRuns":4,"reflections":1}`, string(statusJSON(v)))
}

func TestOffTextNamesWhatTurnedTheStoreOff(t *testing.T) {
	require.Equal(t, "", offText(defaultConfig()))
	off := parseConfig(globalFile, []byte(`{"enabled": false}`), projectFile, nil)
	require.Equal(t, `Observational memory is disabled by `+globalFile+`; nothing is observed, injected or written. Set "enabled": true there (or remove the key) to turn it back on.`, offText(off))
	broken := parseConfig(globalFile, nil, projectFile, []byte(`{`))
	require.True(t, broken.Why != "")
	require.Equal(t, broken.Why, offText(broken))
}

func TestFooterCountsObservationsOrSaysWhyOffOrNothingYet(t *testing.T) {
	two := &state{Groups: []group{{Day: d12, Items: []observation{item(high, 1, "a"), item(low, 2, "b")}}}}
	failing := &state{}
	failing.observer.fail("observer", "503", feb12)
	stopped := &state{}
	stopped.observer.stopped = true
	broken := parseConfig(globalFile, nil, projectFile, []byte(`{`))
	for _, tt := range []struct {
		name string
		st   *state
		cfg  omConfig
		want string
	}{
		{"observations", two, defaultConfig(), "om 2 obs ~14 tok"},
		{"nothing yet", &state{}, defaultConfig(), ""},
		{"no observations, a failing observer", failing, defaultConfig(), "om 0 obs ~0 tok, observer retrying"},
		{"a stopped observer", stopped, defaultConfig(), "om 0 obs ~0 tok, observer stopped"},
		{"disabled", two, parseConfig(globalFile, []byte(`{"enabled": false}`), projectFile, nil), "om off (disabled)"},
		{"a config that cannot be read", two, broken, "om off (bad config)"},
	} {
		t.Run(tt.name, func(t *testing.T) { require.Equal(t, tt.want, footer(tt.st, tt.cfg)) })
	}
}

func TestConfigPageSaysWhereTheValuesCameFrom(t *testing.T) {
	text := configPage(defaultConfig(), settings{}, "/a/om-config.json", false)
	require.Equal(t, "Observational memory config from /a/om-config.json:\nenabled: on\n  mode: buffered\n", text[:len("Observational memory config from /a/om-config.json:\nenabled: on\n  mode: buffered\n")])
	require.Equal(t, "  relevantObservationMaxTokens: 1400", text[len(text)-len("  relevantObservationMaxTokens: 1400"):], "no newline at the end")
	require.Equal(t, "Reloaded. "+text, configPage(defaultConfig(), settings{}, "/a/om-config.json", true))
}
