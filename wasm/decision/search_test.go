package decision

import (
	"slices"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

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
		require.Equal(t, tt.want, ids(st.Search(parseQuery(tt.query)).All()), "search "+tt.query[0])
	}
}

func TestSearchReportsUnknownStatus(t *testing.T) {
	q := parseQuery([]string{"status:open"})
	require.Equal(t, []string{"status:open"}, q.BadTerms, "bad")
}

func TestContainsFoldHandlesUnicode(t *testing.T) {
	require.Equal(t, true, containsFold("Éviter les ORM", "éviter"), "non-ascii needle")
	require.Equal(t, true, containsFold("café CRÈME", "crème"), "accented upper")
	require.Equal(t, false, containsFold("café", "cafe"), "accents differ")
	require.Equal(t, true, containsFold("naïve Go", "go"), "ascii needle in utf-8")
}

func TestPurgeKeepsActiveDecisionsForever(t *testing.T) {
	old := "2020-01-01T00:00:00.000Z"
	st, _ := replay(t, ev(old, "a", "D-2020-01-01-0001", `{"tx":"ancient but active"}`)+
		ev(old, "a", "D-2020-01-01-0002", `{"tx":"old draft","s":"draft"}`)+
		ev(old, "a", "D-2020-01-01-0003", `{"tx":"old rejected","s":"rejected"}`)+
		ev(t1, "a", "D-2026-02-27-0001", `{"tx":"fresh draft","s":"draft"}`)+
		ev(old, "a", "D-2020-01-01-0004", `{"tx":"superseded"}`)+
		ev(t1, "su", "D-2020-01-01-0004", `{"s":"superseded"}`))
	var r retention
	r[draft], r[rejected], r[Superseded] = 30, 90, 180
	now := civil.ParseTime("2026-03-01T00:00:00.000Z")
	require.Equal(t, []string{"D-2020-01-01-0002", "D-2020-01-01-0003"}, ids(st.PurgeCandidates(now, r)), "candidates")
	r[draft] = 0
	require.Equal(t, []string{"D-2020-01-01-0002", "D-2020-01-01-0003", "D-2026-02-27-0001"}, ids(st.PurgeCandidates(now, r)), "zero retention")
}

// The signature filter only skips work: for any query, Search must find
// exactly what checking every decision finds, before and after edits.
func TestSignaturesNeverChangeWhatSearchFinds(t *testing.T) {
	st, _ := replay(t, genLog(3000))
	queries := [][]string{
		{"decision"}, {"DECISION", "number"}, {"umber 12"}, {"t3"}, {"é"}, {"ééé"}, {"because"},
		{"edited"}, {"draft"}, {"act"}, {"tag:x", "5"}, {"status:active", "decision 1"}, {"zz-nothing"},
		{"D-2026"}, {"2026-01-0"}, {"T12"}, {"ion n"},
	}
	check := func(label string) {
		for _, words := range queries {
			q := parseQuery(words)
			var brute []string
			for _, d := range st.All().All() {
				if q.Match(d) {
					brute = append(brute, d.ID)
				}
			}
			got := ids(st.Search(q).All())
			if len(brute) == 0 {
				brute = []string{}
			}
			require.Equal(t, brute, got, label+" search "+strings.Join(words, " "))
		}
	}
	check("fresh")
	check("with signatures built")
	st.apply(&Event{V: 1, Code: Edit, ID: st.All().At(0).ID, TimeMs: civil.ParseTime("2027-01-01T00:00:00.000Z"), Data: Data{Has: HasText, Text: "now about zz-nothing entirely"}}, 99999)
	check("after an edit")
}

func TestTheFirstHitsAreOrderedLikeAFullSort(t *testing.T) {
	st, _ := replay(t, genLog(3000))
	q := parseQuery([]string{"decision"})
	partial := st.Search(q)
	require.True(t, partial.Len() >= 300, "need a long list, got %d", partial.Len())
	var first []string
	for i := 0; i < 50; i++ {
		first = append(first, partial.At(i).ID)
	}
	full := ids(st.Search(q).All())
	require.Equal(t, full[:50], first, "first fifty")
	require.Equal(t, full, ids(partial.All()), "then everything")
}

// FuzzParseQuery: whatever words a person searches with, the query holds
// non-empty lower-case terms, known statuses and non-empty tags, and Search
// finds exactly what checking every decision finds.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"pg", "pg status:active,draft tag:DB", "STATUS:open", "status:,", "tag:", "tag:#", "İstanbul", "ééé umber", "D-2026 ion n", "status:superseded,x"} {
		f.Add(s)
	}
	var st *state
	f.Fuzz(func(t *testing.T, line string) {
		if st == nil {
			st, _ = replay(t, genLog(300))
		}
		words := strings.Fields(line)
		q := parseQuery(words)
		for _, term := range q.Terms {
			require.True(t, term != "" && strings.ToLower(term) == term, "term %q", term)
		}
		for _, s := range q.Statuses {
			require.True(t, s > statusNone && s < numStatus, "status %d", s)
		}
		for _, tag := range q.Tags {
			require.True(t, tag != "", "empty tag from %q", line)
		}
		for i, w := range q.BadTerms {
			require.True(t, strings.HasPrefix(strings.ToLower(w), "status:"), "bad term %q", w)
			require.False(t, slices.Contains(q.BadTerms[:i], w), "bad term %q named twice", w)
		}
		var brute []string
		for _, d := range st.All().All() {
			if q.Match(d) {
				brute = append(brute, d.ID)
			}
		}
		if len(brute) == 0 {
			brute = []string{}
		}
		require.Equal(t, brute, ids(st.Search(q).All()), "search %q", line)
	})
}

func TestPurgePreviewListsWhatPurgeWouldRemoveOrSaysNothing(t *testing.T) {
	old := "2020-01-01T00:00:00.000Z"
	st, _ := replay(t, ev(old, "a", "D-2020-01-01-0001", `{"tx":"old draft","s":"draft","tg":["x"]}`)+
		ev(old, "a", "D-2020-01-01-0002", `{"tx":"old rejected","s":"rejected"}`))
	r := defaultSettings().RetentionDays
	cands := st.PurgeCandidates(civil.ParseTime("2026-03-01T00:00:00.000Z"), r)
	tests := []struct {
		name  string
		cands []*decision
		want  string
	}{
		{"nothing", nil, "Nothing to purge: no draft, rejected or superseded decision is past its retention (draft 30d, rejected 90d, superseded 180d)."},
		{"one", cands[:1], "Purge would remove 1 decision past retention (draft 30d, rejected 90d, superseded 180d); active decisions are always kept:" +
			"\nD-2020-01-01-0001 | draft | old draft | #x (updated 2020-01-01T00:00:00.000Z)"},
		{"two", cands, "Purge would remove 2 decisions past retention (draft 30d, rejected 90d, superseded 180d); active decisions are always kept:" +
			"\nD-2020-01-01-0001 | draft | old draft | #x (updated 2020-01-01T00:00:00.000Z)" +
			"\nD-2020-01-01-0002 | rejected | old rejected (updated 2020-01-01T00:00:00.000Z)"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, purgePreview(tt.cands, r), tt.name)
	}
}

func TestPurgeCandidatesArePastTheRetentionOfTheirStatus(t *testing.T) {
	st, _ := replay(t, ev("2026-01-01T00:00:00.000Z", "a", "D-2026-01-01-0001", `{"tx":"Maybe use Bazel","s":"draft"}`)+
		ev("2026-01-01T00:00:00.000Z", "a", "D-2026-01-01-0002", `{"tx":"Use Make","s":"active"}`))
	retention := defaultSettings().RetentionDays // drafts: 30 days
	tests := []struct {
		now  string
		want []string
	}{
		{"2026-01-31T00:00:00.000Z", []string{}},
		{"2026-02-10T00:00:00.000Z", []string{"D-2026-01-01-0001"}},
	}
	for _, tt := range tests {
		got := st.PurgeCandidates(civil.ParseTime(tt.now), retention)
		require.Equal(t, tt.want, ids(got), tt.now)
		for _, d := range got {
			require.Equal(t, "draft Maybe use Bazel", d.Status.String()+" "+d.Text, "the candidate")
		}
	}
}

func TestParseQuerySplitsTermsStatusesAndTags(t *testing.T) {
	tests := []struct {
		line string
		want query
	}{
		{"pg status:active,draft tag:DB", query{Terms: []string{"pg"}, Statuses: []Status{Active, draft}, Tags: []string{"db"}}},
		{"Use GO tag:#x", query{Terms: []string{"use", "go"}, Tags: []string{"x"}}},
		{"status:open", query{BadTerms: []string{"status:open"}}},
		// Each word with an unknown status is named once, however many
		// unknown statuses it holds or how often it is repeated.
		{"status:x,y status:x,y", query{BadTerms: []string{"status:x,y"}}},
		{"status:active,x status:z", query{Statuses: []Status{Active}, BadTerms: []string{"status:active,x", "status:z"}}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, parseQuery(strings.Fields(tt.line)), tt.line)
	}
}
