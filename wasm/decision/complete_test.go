package decision

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestNamesID(t *testing.T) {
	for p, want := range map[string]bool{"<id>": true, "<oldId>": true, "<id1>": true, "<id2>": true, "<text>": false, "<newText>": false, "<words>": false, "[note]": false} {
		if got := namesID(p); got != want {
			t.Errorf("namesID(%q) = %v, want %v", p, got, want)
		}
	}
}

// Completion runs at every key typed: of 1,000 decisions, the active ones
// whose id begins or ends with what was typed come first, newest first,
// then the others, n at most.
func TestCompleteIDsOffersActiveOnesFirstNewestFirst(t *testing.T) {
	var log strings.Builder
	for i := 1; i <= 1000; i++ {
		id := "D-2026-02-27-" + strconv.Itoa(10000 + i)[1:]
		log.WriteString(ev("2026-02-27T06:00:00.000Z", "a", id, `{"tx":"Decision `+strconv.Itoa(i)+`"}`))
		if i%3 != 0 {
			log.WriteString(ev("2026-02-27T07:00:00.000Z", "st", id, `{"s":"rejected"}`))
		}
	}
	st, _ := replay(t, log.String())
	var got []string
	for _, c := range st.completeIDs("", 4) {
		got = append(got, c.Value+" "+c.Description)
	}
	require.Equal(t, []string{"D-2026-02-27-0999 active · Decision 999", "D-2026-02-27-0996 active · Decision 996", "D-2026-02-27-0993 active · Decision 993", "D-2026-02-27-0990 active · Decision 990"}, got)
	got = nil
	for _, c := range st.completeIDs("d-2026-02-27-000", 5) {
		got = append(got, c.Value+" "+c.Description)
	}
	require.Equal(t, []string{"D-2026-02-27-0009 active · Decision 9", "D-2026-02-27-0006 active · Decision 6", "D-2026-02-27-0003 active · Decision 3", "D-2026-02-27-0008 rejected · Decision 8", "D-2026-02-27-0007 rejected · Decision 7"}, got)
	require.Equal(t, 0, len(st.completeIDs("9999", 5)))
	require.Equal(t, "D-2026-02-27-0099", st.completeIDs("0099", 5)[0].Value, "by its end")
}
