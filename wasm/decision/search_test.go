package decision

import "testing"

func TestSearchMatchesEveryFieldAndFilters(t *testing.T) {
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"ti":"Primary DB","tx":"Use PostgreSQL","tg":["db"],"r":"Integrity matters"}`)+
		ev(t2, "a", "D-2026-02-27-0002", `{"tx":"Try SQLite for tests","tg":["db","test"],"s":"draft"}`)+
		ev(t3, "a", "D-2026-02-27-0003", `{"tx":"Use Go for services","tg":["lang"]}`))
	tests := []struct {
		query []string
		want  []string
	}{
		{[]string{"postgresql"}, []string{"D-2026-02-27-0001"}},
		{[]string{"INTEGRITY"}, []string{"D-2026-02-27-0001"}},
		{[]string{"primary"}, []string{"D-2026-02-27-0001"}},
		{[]string{"0003"}, []string{"D-2026-02-27-0003"}},
		{[]string{"draft"}, []string{"D-2026-02-27-0002"}},
		{[]string{"use"}, []string{"D-2026-02-27-0003", "D-2026-02-27-0001"}},
		{[]string{"tag:db"}, []string{"D-2026-02-27-0002", "D-2026-02-27-0001"}},
		{[]string{"tag:#DB", "status:active"}, []string{"D-2026-02-27-0001"}},
		{[]string{"status:draft,active", "for"}, []string{"D-2026-02-27-0003", "D-2026-02-27-0002"}},
		{[]string{"use", "go"}, []string{"D-2026-02-27-0003"}},
		{[]string{"nothing-like-this"}, []string{}},
	}
	for _, tt := range tests {
		eq(t, ids(st.Search(ParseQuery(tt.query)).All()), tt.want, "search "+tt.query[0])
	}
}

func TestSearchReportsUnknownStatus(t *testing.T) {
	q := ParseQuery([]string{"status:open"})
	eq(t, q.BadTerms, []string{"status:open"}, "bad")
}

func TestContainsFoldHandlesUnicode(t *testing.T) {
	eq(t, containsFold("Éviter les ORM", "éviter"), true, "non-ascii needle")
	eq(t, containsFold("café CRÈME", "crème"), true, "accented upper")
	eq(t, containsFold("café", "cafe"), false, "accents differ")
	eq(t, containsFold("naïve Go", "go"), true, "ascii needle in utf-8")
}

func TestPurgeKeepsActiveDecisionsForever(t *testing.T) {
	old := "2020-01-01T00:00:00.000Z"
	st, _ := replay(t, ev(old, "a", "D-2020-01-01-0001", `{"tx":"ancient but active"}`)+
		ev(old, "a", "D-2020-01-01-0002", `{"tx":"old draft","s":"draft"}`)+
		ev(old, "a", "D-2020-01-01-0003", `{"tx":"old rejected","s":"rejected"}`)+
		ev(t1, "a", "D-2026-02-27-0001", `{"tx":"fresh draft","s":"draft"}`)+
		ev(old, "a", "D-2020-01-01-0004", `{"tx":"superseded"}`)+
		ev(t1, "su", "D-2020-01-01-0004", `{"s":"superseded"}`))
	var r Retention
	r[Draft], r[Rejected], r[Superseded] = 30, 90, 180
	now := ParseTime("2026-03-01T00:00:00.000Z")
	eq(t, ids(st.PurgeCandidates(now, r)), []string{"D-2020-01-01-0002", "D-2020-01-01-0003"}, "candidates")
	r[Draft] = 0
	eq(t, ids(st.PurgeCandidates(now, r)), []string{"D-2020-01-01-0002", "D-2020-01-01-0003", "D-2026-02-27-0001"}, "zero retention")
}
