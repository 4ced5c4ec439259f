package decision

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// applied is the log with events appended as the driver writes them, replayed.
func applied(t *testing.T, log string, events []Event) (*state, string) {
	t.Helper()
	stamp(events, 1772355600000, "p1") // 2026-03-01T09:00:00Z
	log += string(appendLines(nil, events))
	st, _ := replay(t, log)
	return st, log
}

func TestRestoreBringsARemovedDecisionBackAsItWas(t *testing.T) {
	log := ev("2026-02-27T09:00:00.000Z", "a", "D-2026-02-27-0001", `{"tx":"Use Go for the core","ti":"Go","tg":["lang"],"s":"active","r":"one toolchain","sp":null,"c":[]}`) +
		ev("2026-02-27T09:01:00.000Z", "a", "D-2026-02-27-0002", `{"tx":"Use Rust for the core","s":"active","sp":null,"c":["D-2026-02-27-0001"]}`) +
		ev("2026-02-27T09:01:00.000Z", "ed", "D-2026-02-27-0001", `{"c":["D-2026-02-27-0002"]}`) +
		ev("2026-02-27T09:02:00.000Z", "a", "D-2026-02-27-0003", `{"tx":"Use tabs","s":"active","sp":null,"c":[]}`) +
		ev("2026-02-27T09:03:00.000Z", "rm", "D-2026-02-27-0001", `{}`) +
		ev("2026-02-27T09:04:00.000Z", "rm", "D-2026-02-27-0002", `{}`)
	st, _ := replay(t, log)

	evs, err := st.Restore("D-2026-02-27-0001")
	require.NoError(t, err)
	require.Equal(t, 1, len(evs))
	require.Equal(t, `{"v":1,"t":"2026-03-01T09:00:00.000Z","p":"p1","e":"a","i":"D-2026-02-27-0001","d":{"ti":"Go","tx":"Use Go for the core","tg":["lang"],"s":"active","r":"one toolchain","sp":null,"c":[]},"u":"user"}`+"\n",
		func() string { stamp(evs, 1772355600000, "p1"); return string(appendLines(nil, evs)) }())

	after, _ := applied(t, log, evs)
	x := after.Get("D-2026-02-27-0001")
	require.True(t, x != nil, "restored decision is live")
	require.Equal(t, "Use Go for the core", x.Text)
	require.Equal(t, Active, x.Status)
	require.Equal(t, 0, len(x.Conflicts), "the mark towards a decision still removed is dropped")
	require.Equal(t, 2, after.Count(Active))
	require.Equal(t, 0, len(after.Problems))
}

func TestRestoreRefusesWhatIsNotRemoved(t *testing.T) {
	log := ev("2026-02-27T09:00:00.000Z", "a", "D-2026-02-27-0001", `{"tx":"Use Go","s":"active","sp":null,"c":[]}`)
	st, _ := replay(t, log)
	tests := []struct{ id, err string }{
		{"D-2026-02-27-0001", "D-2026-02-27-0001 is not removed; there is nothing to restore"},
		{"D-2026-02-27-0009", "no decision D-2026-02-27-0009"},
	}
	for _, tt := range tests {
		_, err := st.Restore(tt.id)
		require.Error(t, err, tt.id)
		require.Equal(t, tt.err, err.Error())
	}
}

func TestARestoredDecisionCanBeRemovedAndRestoredAgain(t *testing.T) {
	log := ev("2026-02-27T09:00:00.000Z", "a", "D-2026-02-27-0001", `{"tx":"Use Go","s":"active","sp":null,"c":[]}`)
	st, _ := replay(t, log)
	for i := 0; i < 2; i++ {
		rm, err := st.Remove([]string{"D-2026-02-27-0001"})
		require.NoError(t, err)
		st, log = applied(t, log, rm)
		require.True(t, st.Get("D-2026-02-27-0001") == nil, "removed")
		back, err := st.Restore("D-2026-02-27-0001")
		require.NoError(t, err)
		st, log = applied(t, log, back)
		require.True(t, st.Get("D-2026-02-27-0001") != nil, "restored")
	}
	require.Equal(t, 0, len(st.Problems))
	require.Equal(t, 1, st.Count(Active))
}
