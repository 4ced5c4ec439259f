package decision

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestParseLimitCutsTextAtFiftyAndJSONNowhereByDefault(t *testing.T) {
	tests := []struct {
		value  string
		asJSON bool
		want   int
		ok     bool
	}{
		{"", false, 50, true},
		{"", true, 0, true},
		{"5", false, 5, true},
		{"5", true, 5, true},
		{"0", false, 0, true},
		{"+7", false, 7, true},
		{"007", false, 7, true},
		{"-0", true, 0, true},
		{"-1", false, 0, false},
		{"ten", false, 0, false},
		{"1.5", true, 0, false},
		{" 3", false, 0, false},
		{"99999999999999999999", false, 0, false},
	}
	for _, tt := range tests {
		n, err := parseLimit(tt.value, tt.asJSON)
		if !tt.ok {
			require.ErrorIs(t, err, errLimit, tt.value)
			continue
		}
		require.NoError(t, err, tt.value)
		require.Equal(t, tt.want, n, "%q json=%v", tt.value, tt.asJSON)
	}
}

// listOf is a state of n active decisions, D-2026-02-27-0001 the oldest.
func listOf(t *testing.T, n int) *state {
	t.Helper()
	var log strings.Builder
	for i := 1; i <= n; i++ {
		id := "D-2026-02-27-" + strconv.Itoa(10000 + i)[1:]
		log.WriteString(ev("2026-02-27T06:00:"+strconv.Itoa(10 + i)[:2]+".000Z", "a", id, `{"tx":"Decision `+strconv.Itoa(i)+`","tg":["t"]}`))
	}
	st, _ := replay(t, log.String())
	return st
}

func TestListTextSaysHowManyAndHowManyMoreThanShown(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		title string
		limit int
		want  string
	}{
		{"none", 0, "active decisions", 50, "No active decisions."},
		{"one", 1, "active decisions", 50, "1 active decision (newest first):\nD-2026-02-27-0001 | active | Decision 1 | #t"},
		{"all under the limit", 2, "matching decisions", 50,
			"2 matching decisions (newest first):\nD-2026-02-27-0002 | active | Decision 2 | #t\nD-2026-02-27-0001 | active | Decision 1 | #t"},
		{"cut at the limit", 3, "decisions", 1,
			"3 decisions (newest first):\nD-2026-02-27-0003 | active | Decision 3 | #t\n… 2 more; use --limit N (0 for all)."},
		{"no limit", 3, "decisions", 0,
			"3 decisions (newest first):\nD-2026-02-27-0003 | active | Decision 3 | #t\nD-2026-02-27-0002 | active | Decision 2 | #t\nD-2026-02-27-0001 | active | Decision 1 | #t"},
		{"the limit exactly", 2, "decisions", 2,
			"2 decisions (newest first):\nD-2026-02-27-0002 | active | Decision 2 | #t\nD-2026-02-27-0001 | active | Decision 1 | #t"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, listText(listOf(t, tt.n).All(), tt.title, tt.limit), tt.name)
	}
}

func TestListJSONIsCutOnlyAtTheLimitGiven(t *testing.T) {
	st := listOf(t, 3)
	one := func(i int) string { return string(appendJSON(nil, st.Get("D-2026-02-27-000"+strconv.Itoa(i)))) }
	tests := []struct {
		name  string
		n     int
		limit int
		want  string
	}{
		{"none", 0, 0, "[]"},
		{"all", 3, 0, "[" + one(3) + "," + one(2) + "," + one(1) + "]"},
		{"cut", 3, 2, "[" + one(3) + "," + one(2) + "]"},
		{"a limit over the length", 3, 50, "[" + one(3) + "," + one(2) + "," + one(1) + "]"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, string(listJSON(listOf(t, tt.n).All(), tt.limit)), tt.name)
	}
}

// FuzzParseLimit: --limit is accepted exactly when it is a whole number,
// and then means that number; anything else is the one usage error.
func FuzzParseLimit(f *testing.F) {
	for _, s := range []string{"", "0", "5", "+7", "-0", "-1", "007", "ten", "1.5", " 3", "99999999999999999999", "٣"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, value string, asJSON bool) {
		n, err := parseLimit(value, asJSON)
		if err != nil {
			require.ErrorIs(t, err, errLimit, value)
			return
		}
		require.True(t, n >= 0, "%q gave %d", value, n)
		if value == "" {
			return
		}
		digits := strings.TrimLeft(value, "+-")
		require.True(t, len(value)-len(digits) <= 1, "%q has more than one sign", value)
		for _, c := range digits {
			require.True(t, c >= '0' && c <= '9', "%q accepted with %q", value, c)
		}
		if value[0] == '-' {
			require.Equal(t, 0, n, "%q is negative", value)
		}
		want := strings.TrimLeft(digits, "0")
		if want == "" {
			want = "0"
		}
		require.Equal(t, want, strconv.Itoa(n), value)
	})
}
