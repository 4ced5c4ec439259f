package decision

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

func stateWith(n int, text func(i int) string, tags string) *state {
	var b strings.Builder
	base := civil.ParseTime("2026-01-01T00:00:00.000Z")
	for i := 1; i <= n; i++ {
		b.WriteString(ev(civil.FormatTime(base+int64(i)*60000), "a", fmt.Sprintf("D-2026-01-01-%04d", i), `{"tx":"`+text(i)+`","tg":`+tags+`}`))
	}
	st := newState()
	var r reader
	log := b.String()
	r.Replay(st, func(off int64, dst []byte) (int, error) { return copy(dst, log[off:]), nil }, cursor{}, int64(len(log)))
	return st
}

func TestLineFormatFollowsTheSeed(t *testing.T) {
	d := &decision{ID: "D-2026-02-27-0001", Title: "Use PostgreSQL", Text: "ignored", Tags: []string{"#db", "backend-services-long", "third"}}
	require.Equal(t, "D-2026-02-27-0001 | Use PostgreSQL | #db #backend-ser…", injectedLine(d), "line")
	d = &decision{ID: "D-2026-02-27-0002", Text: strings.Repeat("word ", 40) + "\nnext line"}
	l := injectedLine(d)
	require.True(t, utf8.RuneCountInString(l) <= maxCharsPerDecision && !strings.Contains(l, "\n") && strings.HasSuffix(l, "…"), "line %q breaks the caps", l)
	require.Equal(t, maxTextChars, utf8.RuneCountInString(strings.TrimPrefix(l, "D-2026-02-27-0002 | ")), "text cut at 120")
}

func TestSectionShowsNewestActiveOnly(t *testing.T) {
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"tx":"Use PostgreSQL","tg":["db"]}`)+
		ev(t2, "a", "D-2026-02-27-0002", `{"tx":"Try SQLite","s":"draft"}`)+
		ev(t3, "a", "D-2026-02-27-0003", `{"tx":"Use Go"}`))
	require.Equal(t, sectionHeader+"D-2026-02-27-0003 | Use Go\nD-2026-02-27-0001 | Use PostgreSQL | #db\n", st.Section(20), "section")
	require.Equal(t, sectionHeader+"D-2026-02-27-0003 | Use Go\n(+1 older active decision not shown; top tags: #db 1; /decision list shows all)\n", st.Section(1), "max 1")
	require.Equal(t, "", newState().Section(20), "empty")
}

func TestSectionNeverExceedsItsCapNorCutsALine(t *testing.T) {
	for _, n := range []int{1, 5, 13, 20, 200} {
		st := stateWith(n, func(i int) string { return fmt.Sprintf("Decision number %d %s", i, strings.Repeat("é", 150)) }, `["alpha","beta"]`)
		sec := st.Section(20)
		c := utf8.RuneCountInString(sec)
		require.True(t, c <= maxSectionChars, "n=%d: %d chars", n, c)
		lines := strings.Split(strings.TrimSuffix(sec, "\n"), "\n")
		for _, l := range lines[2:] {
			require.True(t, strings.HasPrefix(l, "D-") || strings.HasPrefix(l, "(+"), "n=%d: broken line %q", n, l)
		}
		require.True(t, n <= 13 || strings.Contains(sec, "older active decisions not shown; top tags: #alpha"), "n=%d: missing summary in\n%s", n, sec)
		// Newest kept: the highest number must be shown.
		require.Contains(t, sec, fmt.Sprintf("D-2026-01-01-%04d", n), "n=%d: newest decision not shown", n)
	}
}

func TestSectionIsByteIdenticalWhileUnchanged(t *testing.T) {
	st := stateWith(50, func(i int) string { return fmt.Sprintf("rule %d", i) }, `["x","y","z"]`)
	first := st.Section(20)
	for i := 0; i < 100; i++ {
		require.Equal(t, first, st.Section(20), "section changed without a change of decisions")
	}
}

func TestSectionIsTheHeaderThenOneLineAnActiveDecision(t *testing.T) {
	tests := []struct{ name, log, want string }{
		{"one decision", ev(t1, "a", "D-2026-02-27-0001", `{"tx":"Use PostgreSQL","tg":["db"],"s":"active"}`),
			"## Project decisions\nActive decisions for this project, newest first. Follow them; to change one, propose superseding it rather than silently deviating.\n" +
				"D-2026-02-27-0001 | Use PostgreSQL | #db\n"},
		{"no active decision", ev(t1, "a", "D-2026-02-27-0001", `{"tx":"Maybe SQLite","s":"draft"}`), ""},
	}
	for _, tt := range tests {
		st, _ := replay(t, tt.log)
		require.Equal(t, tt.want, st.Section(20), tt.name)
	}
}

// ownTags keeps each cleaned tag once, past the few it scans for too
// (h-v97 a1: 30,000 tags were each checked against all before them).
func TestOwnTagsKeepsEachTagOnceHoweverMany(t *testing.T) {
	var tags, want []string
	for i := 0; i < 3000; i++ {
		tags = append(tags, "t"+strconv.Itoa(i%1000), "")
		if i < 1000 {
			want = append(want, "t"+strconv.Itoa(i))
		}
	}
	require.Equal(t, want, ownTags(tags))
	require.Equal(t, []string{"a", "b"}, ownTags([]string{"a", "b", "a", " ", "b"}))
}
