package observe

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestStatusSaysWhatIsInForceAndWhatWaits(t *testing.T) {
	cfg := DefaultConfig()
	s := newSession(feb12)
	s.turn("hello", 4000)
	tr := s.transcript()
	st := &State{Groups: []Group{{Day: d12, Items: []Item{item(High, 1, "a"), item(Low, 2, "b")}}}, Mark: Mark{ID: "e1"}, Task: "Say hello", Observed: 3, Empty: 1}
	st.observer.fail("observer", "503", feb12)
	got := Status(st, cfg, &tr, Env{Clock: at(feb12)})
	for _, want := range []string{
		"Observational memory: on, buffered mode, auto-compact on, injection all; observer model: the current model\n",
		"Observations: 2 (🔴 1, 🟡 0, 🟢 1), ~",
		"Covered: through entry e1; ~1005 unobserved tokens; observer at 30000 tokens, compaction at 38000\n",
		"Runs: observer 3 (1 found nothing new), reflector 0\n",
		"Current task: Say hello\n",
		"Waiting: observer backing off after 1 failure(s) until 14:30 (last: 503)\n",
	} {
		require.Contains(t, got, want)
	}
	require.Equal(t, "om 2 obs ~14 tok · observer retrying", Footer(st, cfg))

	cfg = ParseConfig(globalFile, []byte(`{"enabled": "no"}`), projectFile, nil)
	require.Contains(t, Status(st, cfg, nil, Env{}), "Observational memory: off (")
	require.Equal(t, "om off", Footer(st, cfg))
}

func TestConfigTextMarksTheSessionsOverrides(t *testing.T) {
	mode, n := ModeBlocking, 12000
	text := ConfigText(DefaultConfig(), Settings{Mode: &mode, ObserverTokens: &n})
	require.Contains(t, text, "  mode: blocking (set in this session)\n")
	require.Contains(t, text, "  observerTokens: 12000 (set in this session)\n")
	require.Contains(t, text, "  retainTokens: 8000\n")
	require.Contains(t, text, `  observerModel: "" (the current model)`)
}
