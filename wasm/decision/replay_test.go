package decision

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

const (
	t1 = "2026-02-27T06:00:00.000Z"
	t2 = "2026-02-27T07:00:00.000Z"
	t3 = "2026-02-27T08:00:00.000Z"
)

func TestReplayBuildsIndexesByIdStatusAndTag(t *testing.T) {
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"tx":"Use PostgreSQL","tg":["db"],"s":"active"}`)+
		ev(t2, "a", "D-2026-02-27-0002", `{"tx":"Try SQLite","tg":["DB","spike"],"s":"draft"}`)+
		ev(t3, "a", "D-2026-02-27-0003", `{"tx":"Use Go","tg":["lang"]}`))
	require.Equal(t, 3, st.Len(), "live")
	require.Equal(t, 2, st.Count(Active), "active")
	require.Equal(t, 1, st.Count(draft), "draft")
	require.Equal(t, []string{"D-2026-02-27-0003", "D-2026-02-27-0001"}, ids(st.WithStatus(Active).All()), "byStatus newest first")
	require.Equal(t, []string{"D-2026-02-27-0002", "D-2026-02-27-0001"}, ids(st.withTag("db").All()), "byTag ignores case")
}

func ids(list []*decision) []string {
	out := []string{}
	for _, d := range list {
		out = append(out, d.ID)
	}
	return out
}

func TestEditStatusAndSupersedeMergeOnlyTheKeysTheyCarry(t *testing.T) {
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"ti":"PG","tx":"Use PostgreSQL","tg":["db"],"r":"integrity"}`)+
		ev(t2, "ed", "D-2026-02-27-0001", `{"tx":"Use PostgreSQL 16"}`)+
		ev(t3, "su", "D-2026-02-27-0001", `{"s":"superseded","sb":"D-2026-02-27-0002"}`))
	d := st.Get("D-2026-02-27-0001")
	require.Equal(t, "PG", d.Title, "title kept")
	require.Equal(t, "Use PostgreSQL 16", d.Text, "text edited")
	require.Equal(t, "integrity", d.Reason, "reason kept")
	require.Equal(t, Superseded, d.Status, "status")
	require.Equal(t, "D-2026-02-27-0002", d.SupersededBy, "back link")
	require.Equal(t, t3, d.Updated(), "updated")
	require.Equal(t, t1, d.Created(), "created")
}

func TestOddLogsHaveDefinedOutcomes(t *testing.T) {
	log := ev(t1, "a", "D-2026-02-27-0001", `{"tx":"first"}`) +
		ev(t2, "a", "D-2026-02-27-0001", `{"tx":"second add"}`) + // duplicate add: ignored
		ev(t2, "ed", "D-2026-02-27-0009", `{"tx":"ghost"}`) + // unknown id: ignored
		ev(t3, "ed", "D-2026-02-27-0001", `{"tx":"edited"}`) +
		ev(t1, "st", "D-2026-02-27-0001", `{"s":"draft"}`) + // older time: applied, not newer
		ev(t3, "rm", "D-2026-02-27-0001", `{}`) +
		ev(t3, "ed", "D-2026-02-27-0001", `{"tx":"after rm"}`) // removed id: ignored
	st, cur := replay(t, log)
	require.Equal(t, 0, st.Len(), "live after rm")
	require.Equal(t, true, st.WasRemoved("D-2026-02-27-0001"), "removed")
	var kinds []string
	for _, p := range st.Problems {
		kinds = append(kinds, p.Kind.String())
	}
	require.Equal(t, []string{"duplicate-add", "unknown-id", "backwards-time", "removed-id"}, kinds, "problems")
	require.Equal(t, 2, st.Problems[0].Line, "duplicate add line")
	require.Equal(t, 7, cur.Line, "lines")
}

func TestOlderEventAppliesButDoesNotMakeTheDecisionNewer(t *testing.T) {
	st, _ := replay(t, ev(t2, "a", "D-2026-02-27-0001", `{"tx":"a"}`)+
		ev(t3, "a", "D-2026-02-27-0002", `{"tx":"b"}`)+
		ev(t1, "ed", "D-2026-02-27-0002", `{"tx":"b2"}`))
	require.Equal(t, "b2", st.Get("D-2026-02-27-0002").Text, "applied")
	require.Equal(t, t3, st.Get("D-2026-02-27-0002").Updated(), "updatedAt stays the newest time")
}

func TestNewestIsByEventTimeNotInsertionOrder(t *testing.T) {
	// The second line is older (a merged branch); the first is the newest.
	st, _ := replay(t, ev(t3, "a", "D-2026-02-27-0001", `{"tx":"newest"}`)+
		ev(t1, "a", "D-2026-02-26-0001", `{"tx":"oldest"}`)+
		ev(t2, "a", "D-2026-02-27-0002", `{"tx":"middle"}`))
	var newest []string
	for _, h := range st.newestActive(2) {
		newest = append(newest, st.idOf(h))
	}
	require.Equal(t, []string{"D-2026-02-27-0001", "D-2026-02-27-0002"}, newest, "newest two")
}

func TestCorruptAndTornLinesNeverLoseTheRest(t *testing.T) {
	log := ev(t1, "a", "D-2026-02-27-0001", `{"tx":"one"}`) +
		"this is not json\n" +
		`{"v":2,"t":"` + t2 + `","e":"a","i":"D-2026-02-27-0005"}` + "\n" +
		"\n" +
		ev(t2, "a", "D-2026-02-27-0002", `{"tx":"two"}`) +
		`{"v":1,"t":"` + t3 + `","e":"a","i":"D-2026-02-27-00` // torn
	st, cur := replay(t, log)
	require.Equal(t, []string{"D-2026-02-27-0002", "D-2026-02-27-0001"}, ids(st.All().All()), "valid lines applied")
	require.Equal(t, 2, len(st.Problems), "problems")
	require.Equal(t, 2, st.Problems[0].Line, "corrupt line")
	require.Equal(t, corrupt, st.Problems[0].Kind, "corrupt kind")
	require.Equal(t, newerVersion, st.Problems[1].Kind, "newer kind")
	require.Equal(t, false, cur.Sealed, "torn tail left unconsumed")
	require.Equal(t, int64(strings.LastIndexByte(log, '\n')+1), cur.Offset, "cursor before the torn line")
}

func TestUnterminatedButValidLastLineIsApplied(t *testing.T) {
	log := strings.TrimSuffix(ev(t1, "a", "D-2026-02-27-0001", `{"tx":"hand edited"}`), "\n")
	st, cur := replay(t, log)
	require.Equal(t, 1, st.Len(), "applied")
	require.Equal(t, int64(len(log)), cur.Offset, "consumed")
	require.Equal(t, noNewline, st.Problems[0].Kind, "reported")
}

func TestReplayOfATailContinuesWhereItStopped(t *testing.T) {
	first := ev(t1, "a", "D-2026-02-27-0001", `{"tx":"one"}`)
	log := first + ev(t2, "a", "D-2026-02-27-0002", `{"tx":"two"}`)
	st := newState()
	var r reader
	read := func(off int64, dst []byte) (int, error) { return copy(dst, log[off:]), nil }
	cur, err := r.Replay(st, read, cursor{}, int64(len(first)))
	require.NoError(t, err)
	cur, err = r.Replay(st, read, cur, int64(len(log)))
	require.NoError(t, err)
	require.Equal(t, 2, st.Len(), "both")
	require.Equal(t, 2, cur.Line, "lines")
}

func TestLinesLongerThanTheBufferAreRead(t *testing.T) {
	long := strings.Repeat("x", 3*chunk)
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"tx":"short","zz":"`+long+`"}`)+ev(t2, "a", "D-2026-02-27-0002", `{"tx":"b"}`))
	require.Equal(t, "short", st.Get("D-2026-02-27-0001").Text, "text")
	require.Equal(t, 2, st.Len(), "both")
}

func TestFieldsLongerThanAMebibyteAreCut(t *testing.T) {
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"tx":"`+strings.Repeat("y", maxField+10)+`"}`))
	require.Equal(t, maxField, len(st.Get("D-2026-02-27-0001").Text), "cut")
}

func TestIdsAreNeverReusedEvenAfterRemove(t *testing.T) {
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"tx":"a"}`)+
		ev(t1, "a", "D-2026-02-27-0002", `{"tx":"b"}`)+
		ev(t2, "rm", "D-2026-02-27-0002", `{}`))
	require.Equal(t, "D-2026-02-27-0003", st.NextID(civil.ParseTime(t3)), "same day")
	require.Equal(t, "D-2026-03-01-0001", st.NextID(civil.ParseTime("2026-03-01T00:00:00.000Z")), "new day")
}

// Events read by a reader point into its buffer; a decision must keep copies.
// (A view of "user" once leaked into createdBy and showed later lines' bytes.)
func TestKeptStringsSurviveLaterLinesAndChunks(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"v":1,"t":"` + t1 + `","p":"proj1234","e":"a","i":"D-2026-02-27-0001","d":{"ti":"Title one","tx":"Text one","tg":["alpha","beta"],"r":"why","c":["D-2026-02-27-0009"],"so":"auto","cg":"db"},"u":"user"}` + "\n")
	b.WriteString(`{"v":1,"t":"` + t1 + `","p":"proj1234","e":"a","i":"D-2026-02-27-0002","d":{"tx":"Text two"},"u":"someone-else"}` + "\n")
	filler := strings.Repeat("z", 500)
	for i := 0; b.Len() < 3*chunk; i++ {
		b.WriteString(`{"v":1,"t":"` + t2 + `","p":"xxxxxxxxxxxxxxxx","e":"ed","i":"D-2026-02-27-0002","d":{"tx":"` + filler + `","tg":["qq","rr"]},"u":"user"}` + "\n")
	}
	st, _ := replay(t, b.String())
	d := st.Get("D-2026-02-27-0001")
	require.Equal(t, []string{"D-2026-02-27-0001", "proj1234", "Title one", "Text one", "why", "user", "auto", "db"}, []string{d.ID, d.ProjectID, d.Title, d.Text, d.Reason, d.CreatedBy, d.Source, d.Category}, "fields")
	require.Equal(t, []string{"alpha", "beta"}, d.Tags, "tags")
	require.Equal(t, []string{"D-2026-02-27-0009"}, d.Conflicts, "conflicts")
	require.Equal(t, "someone-else", st.Get("D-2026-02-27-0002").CreatedBy, "other actor")
}

func TestNextIDCountsOnWithinTheDayOfTheWrite(t *testing.T) {
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"tx":"Use PostgreSQL","s":"active"}`))
	tests := []struct{ now, want string }{
		{"2026-02-27T10:00:00.000Z", "D-2026-02-27-0002"},
		{"2026-02-28T10:00:00.000Z", "D-2026-02-28-0001"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, st.NextID(civil.ParseTime(tt.now)), tt.now)
	}
}

// An id is shown everywhere a decision is (lists, search, the injected
// prompt): a hand-written one that holds a secret makes its line corrupt,
// reported without it, and no other event of that id applies (the closing
// check of issue 25: a GitHub token as "i" was listed and injected).
func TestAnIdThatHoldsASecretIsNeverADecision(t *testing.T) {
	tok := "ghp_u8jzPde0IgxLd6GncfBAepfJBd0123456789"
	log := ev(t1, "a", tok, `{"tx":"use the token"}`) +
		ev(t1, "a", "D-2026-02-27-0001", `{"tx":"one"}`) +
		ev(t2, "ed", tok, `{"tx":"edited"}`)
	st, _ := replay(t, log)
	require.Equal(t, []string{"D-2026-02-27-0001"}, ids(st.All().All()))
	require.Equal(t, 2, len(st.Problems), "problems")
	require.Equal(t, corrupt, st.Problems[0].Kind)
	require.Equal(t, 1, st.Problems[0].Line)
	for _, p := range st.Problems {
		require.NotContains(t, p.ID+p.Msg, "u8jzPde0")
	}
}

// A line past maxLine is no event: it is skipped as it is read, never held
// (the reader's buffer stays within the bound, however long the line), and
// reported with its number; the lines around it still apply. A 300 MB line
// was held whole and scanned again at every piece read, for 30 s per search.
func TestALineOverTheBoundIsSkippedUnheldAndNamed(t *testing.T) {
	one := ev(t1, "a", "D-2026-02-27-0001", `{"tx":"one"}`)
	three := ev(t2, "a", "D-2026-02-27-0003", `{"tx":"three"}`)
	pad := func(n int) string { // an event line of n bytes, newline included
		l := ev(t1, "a", "D-2026-02-27-0002", `{"tx":"two","zz":""}`)
		return l[:strings.Index(l, `"zz":"`)+6] + strings.Repeat("y", n-len(l)) + l[strings.Index(l, `"zz":"`)+6:]
	}
	for _, tt := range []struct {
		name  string
		log   string
		ids   []string
		long  []int // lines reported too long
		lines int
	}{
		{"at the bound", one + pad(maxLine+1) + three, []string{"D-2026-02-27-0001", "D-2026-02-27-0002", "D-2026-02-27-0003"}, nil, 3},
		{"a byte past the bound", one + pad(maxLine+2) + three, []string{"D-2026-02-27-0001", "D-2026-02-27-0003"}, []int{2}, 3},
		{"far past it", one + pad(3*maxLine) + three, []string{"D-2026-02-27-0001", "D-2026-02-27-0003"}, []int{2}, 3},
		{"first, after a byte-order mark", "\xEF\xBB\xBF" + pad(maxLine+2) + one, []string{"D-2026-02-27-0001"}, []int{1}, 2},
		{"two, one after the other", one + pad(maxLine+2) + pad(maxLine+2) + three, []string{"D-2026-02-27-0001", "D-2026-02-27-0003"}, []int{2, 3}, 4},
		{"last, with no newline", one + strings.TrimSuffix(pad(maxLine+2), "\n"), []string{"D-2026-02-27-0001"}, []int{2}, 2},
	} {
		for _, piece := range []int{1 << 16, chunk, 1 << 30} {
			st := newState()
			var r reader
			// A host may read less than asked: each read gives at most piece bytes.
			read := func(off int64, dst []byte) (int, error) { return copy(dst[:min(len(dst), piece)], tt.log[off:]), nil }
			cur, err := r.Replay(st, read, cursor{}, int64(len(tt.log)))
			require.NoError(t, err)
			name := tt.name + " in pieces of " + strconv.Itoa(piece)
			got := ids(st.All().All())
			sort.Strings(got)
			require.Equal(t, tt.ids, got, name)
			var long []int
			for _, p := range st.Problems {
				if p.Kind == tooLong {
					long = append(long, p.Line)
				}
			}
			require.Equal(t, tt.long, long, name)
			require.Equal(t, int64(len(tt.log)), cur.Offset, name+": read past")
			require.Equal(t, tt.lines, cur.Line, name)
			require.True(t, len(r.buf) <= maxLine+1, name+": held "+strconv.Itoa(len(r.buf))+" bytes")
		}
	}
}

// The cursor after a last line skipped for its length stands past it; the
// newline a writer seals it with ends that line and starts none.
func TestAppendsAfterALongLastLineCountOn(t *testing.T) {
	long := strings.Repeat("x", maxLine+10)
	log := ev(t1, "a", "D-2026-02-27-0001", `{"tx":"one"}`) + long
	st := newState()
	var r reader
	read := func(off int64, dst []byte) (int, error) { return copy(dst, log[off:]), nil }
	cur, err := r.Replay(st, read, cursor{}, int64(len(log)))
	require.NoError(t, err)
	require.Equal(t, cursor{Offset: int64(len(log)), Line: 2, Sealed: false}, cur)
	log += "\n" + ev(t2, "a", "D-2026-02-27-0003", `{"tx":"three"}`)
	cur, err = r.Replay(st, read, cur, int64(len(log)))
	require.NoError(t, err)
	require.Equal(t, cursor{Offset: int64(len(log)), Line: 3, Sealed: true}, cur)
	require.Equal(t, 3, st.Get("D-2026-02-27-0003").AddLine, "numbered as a fresh replay numbers it")
	require.Equal(t, 1, len(st.Problems), "only the long line: "+problemNames[st.Problems[len(st.Problems)-1].Kind])
}

// Every search answer names the lines skipped for their length.
func TestLongLinesAreNamed(t *testing.T) {
	for _, tt := range []struct {
		lines []int
		want  string
	}{
		{nil, ""},
		{[]int{2}, "line 2 (over 8 MiB)"},
		{[]int{2, 9}, "lines 2, 9 (over 8 MiB)"},
		{[]int{2, 9, 14, 20, 30}, "lines 2, 9, 14 and 2 more (over 8 MiB)"},
	} {
		st := newState()
		st.problem(1, corrupt, "", "not JSON")
		for _, n := range tt.lines {
			st.problem(n, tooLong, "", "long")
		}
		require.Equal(t, tt.want, st.longLines())
	}
}
