package decision

import (
	"strings"
	"testing"
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
	eq(t, st.Len(), 3, "live")
	eq(t, st.Count(Active), 2, "active")
	eq(t, st.Count(Draft), 1, "draft")
	eq(t, ids(st.WithStatus(Active).All()), []string{"D-2026-02-27-0003", "D-2026-02-27-0001"}, "byStatus newest first")
	eq(t, ids(st.withTag("db").All()), []string{"D-2026-02-27-0002", "D-2026-02-27-0001"}, "byTag ignores case")
}

func ids(list []*Decision) []string {
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
	eq(t, d.Title, "PG", "title kept")
	eq(t, d.Text, "Use PostgreSQL 16", "text edited")
	eq(t, d.Reason, "integrity", "reason kept")
	eq(t, d.Status, Superseded, "status")
	eq(t, d.SupersededBy, "D-2026-02-27-0002", "back link")
	eq(t, d.Updated(), t3, "updated")
	eq(t, d.Created(), t1, "created")
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
	eq(t, st.Len(), 0, "live after rm")
	eq(t, st.WasRemoved("D-2026-02-27-0001"), true, "removed")
	var kinds []string
	for _, p := range st.Problems {
		kinds = append(kinds, p.Kind.String())
	}
	eq(t, kinds, []string{"duplicate-add", "unknown-id", "backwards-time", "removed-id"}, "problems")
	eq(t, st.Problems[0].Line, 2, "duplicate add line")
	eq(t, cur.Line, 7, "lines")
}

func TestOlderEventAppliesButDoesNotMakeTheDecisionNewer(t *testing.T) {
	st, _ := replay(t, ev(t2, "a", "D-2026-02-27-0001", `{"tx":"a"}`)+
		ev(t3, "a", "D-2026-02-27-0002", `{"tx":"b"}`)+
		ev(t1, "ed", "D-2026-02-27-0002", `{"tx":"b2"}`))
	eq(t, st.Get("D-2026-02-27-0002").Text, "b2", "applied")
	eq(t, st.Get("D-2026-02-27-0002").Updated(), t3, "updatedAt stays the newest time")
}

func TestNewestIsByEventTimeNotInsertionOrder(t *testing.T) {
	// The second line is older (a merged branch); the first is the newest.
	st, _ := replay(t, ev(t3, "a", "D-2026-02-27-0001", `{"tx":"newest"}`)+
		ev(t1, "a", "D-2026-02-26-0001", `{"tx":"oldest"}`)+
		ev(t2, "a", "D-2026-02-27-0002", `{"tx":"middle"}`))
	eq(t, ids(st.newestActive(2)), []string{"D-2026-02-27-0001", "D-2026-02-27-0002"}, "newest two")
}

func TestCorruptAndTornLinesNeverLoseTheRest(t *testing.T) {
	log := ev(t1, "a", "D-2026-02-27-0001", `{"tx":"one"}`) +
		"this is not json\n" +
		`{"v":2,"t":"` + t2 + `","e":"a","i":"D-2026-02-27-0005"}` + "\n" +
		"\n" +
		ev(t2, "a", "D-2026-02-27-0002", `{"tx":"two"}`) +
		`{"v":1,"t":"` + t3 + `","e":"a","i":"D-2026-02-27-00` // torn
	st, cur := replay(t, log)
	eq(t, ids(st.All().All()), []string{"D-2026-02-27-0002", "D-2026-02-27-0001"}, "valid lines applied")
	eq(t, len(st.Problems), 2, "problems")
	eq(t, st.Problems[0].Line, 2, "corrupt line")
	eq(t, st.Problems[0].Kind, Corrupt, "corrupt kind")
	eq(t, st.Problems[1].Kind, NewerVersion, "newer kind")
	eq(t, cur.Sealed, false, "torn tail left unconsumed")
	eq(t, cur.Offset, int64(strings.LastIndexByte(log, '\n')+1), "cursor before the torn line")
}

func TestUnterminatedButValidLastLineIsApplied(t *testing.T) {
	log := strings.TrimSuffix(ev(t1, "a", "D-2026-02-27-0001", `{"tx":"hand edited"}`), "\n")
	st, cur := replay(t, log)
	eq(t, st.Len(), 1, "applied")
	eq(t, cur.Offset, int64(len(log)), "consumed")
	eq(t, st.Problems[0].Kind, NoNewline, "reported")
}

func TestReplayOfATailContinuesWhereItStopped(t *testing.T) {
	first := ev(t1, "a", "D-2026-02-27-0001", `{"tx":"one"}`)
	log := first + ev(t2, "a", "D-2026-02-27-0002", `{"tx":"two"}`)
	st := NewState()
	var r Reader
	read := func(off int64, dst []byte) (int, error) { return copy(dst, log[off:]), nil }
	cur, err := r.Replay(st, read, Cursor{}, int64(len(first)))
	noErr(t, err)
	cur, err = r.Replay(st, read, cur, int64(len(log)))
	noErr(t, err)
	eq(t, st.Len(), 2, "both")
	eq(t, cur.Line, 2, "lines")
}

func TestLinesLongerThanTheBufferAreRead(t *testing.T) {
	long := strings.Repeat("x", 3*chunk)
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"tx":"short","zz":"`+long+`"}`)+ev(t2, "a", "D-2026-02-27-0002", `{"tx":"b"}`))
	eq(t, st.Get("D-2026-02-27-0001").Text, "short", "text")
	eq(t, st.Len(), 2, "both")
}

func TestFieldsLongerThanAMebibyteAreCut(t *testing.T) {
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"tx":"`+strings.Repeat("y", MaxField+10)+`"}`))
	eq(t, len(st.Get("D-2026-02-27-0001").Text), MaxField, "cut")
}

func TestIdsAreNeverReusedEvenAfterRemove(t *testing.T) {
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"tx":"a"}`)+
		ev(t1, "a", "D-2026-02-27-0002", `{"tx":"b"}`)+
		ev(t2, "rm", "D-2026-02-27-0002", `{}`))
	eq(t, st.NextID(ParseTime(t3)), "D-2026-02-27-0003", "same day")
	eq(t, st.NextID(ParseTime("2026-03-01T00:00:00.000Z")), "D-2026-03-01-0001", "new day")
}

// Events read by a Reader point into its buffer; a decision must keep copies.
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
	eq(t, []string{d.ID, d.ProjectID, d.Title, d.Text, d.Reason, d.CreatedBy, d.Source, d.Category},
		[]string{"D-2026-02-27-0001", "proj1234", "Title one", "Text one", "why", "user", "auto", "db"}, "fields")
	eq(t, d.Tags, []string{"alpha", "beta"}, "tags")
	eq(t, d.Conflicts, []string{"D-2026-02-27-0009"}, "conflicts")
	eq(t, st.Get("D-2026-02-27-0002").CreatedBy, "someone-else", "other actor")
}
