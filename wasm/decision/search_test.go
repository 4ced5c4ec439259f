package decision

import (
	"slices"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/search"
)

// searchOf is /decision search over st, with an index of its own.
func searchOf(t *testing.T, st *state, words ...string) hits {
	t.Helper()
	q, err := parseQuery(words, 0)
	require.NoError(t, err, "parseQuery", words)
	var x search.Index
	return st.search(&x, []search.Source{st.source("decisions", "")}, q)
}

func TestSearchMatchesEveryWordAndTheFilters(t *testing.T) {
	st, _ := replay(t, ev(t1, "a", "D-2026-02-27-0001", `{"ti":"Primary DB","tx":"Use PostgreSQL","tg":["db"],"r":"Integrity matters"}`)+
		ev(t2, "a", "D-2026-02-27-0002", `{"tx":"Try SQLite for tests","tg":["db","test"],"s":"draft"}`)+
		ev(t3, "a", "D-2026-02-27-0003", `{"tx":"Use Go for services","tg":["lang"]}`))
	tests := []struct {
		query []string
		want  []string
	}{
		{[]string{"postgresql"}, []string{"D-2026-02-27-0001"}},
		{[]string{"postgres"}, []string{"D-2026-02-27-0001"}}, // one stemmer and its abbreviations
		{[]string{"INTEGRITY"}, []string{"D-2026-02-27-0001"}},
		{[]string{"primary"}, []string{"D-2026-02-27-0001"}},
		{[]string{"databases"}, []string{"D-2026-02-27-0002", "D-2026-02-27-0001"}}, // "#db" is a database
		{[]string{"testing"}, []string{"D-2026-02-27-0002"}},
		{[]string{"use"}, []string{"D-2026-02-27-0003", "D-2026-02-27-0001"}},
		{[]string{"lang"}, []string{"D-2026-02-27-0003"}}, // a tag is searched with the reason
		{[]string{"tag:db"}, []string{"D-2026-02-27-0002", "D-2026-02-27-0001"}},
		{[]string{"tag:#DB", "status:active"}, []string{"D-2026-02-27-0001"}},
		{[]string{"status:draft,active", "services"}, []string{"D-2026-02-27-0003"}},
		{[]string{"status:draft", "use"}, []string{}},
		{[]string{"use", "go"}, []string{"D-2026-02-27-0003"}},
		{[]string{"use go"}, []string{"D-2026-02-27-0003"}}, // a quoted phrase
		{[]string{"go use"}, []string{}},
		{[]string{"for"}, []string{}}, // a stop word finds nothing
		{[]string{"nothing-like-this"}, []string{}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, ids(searchOf(t, st, tt.query...).All()), "search "+strings.Join(tt.query, " "))
	}
}

func TestSearchReportsUnknownStatusAndUnbalancedQuotes(t *testing.T) {
	q, err := parseQuery([]string{"status:open"}, 0)
	require.NoError(t, err)
	require.Equal(t, []string{"status:open"}, q.BadTerms, "bad")
	// Said back as written, for redaction to know a key by its shape (the
	// command redacts it): lower-cased, an AWS key was said back whole.
	q, err = parseQuery([]string{"status:AKIAIOSFODNN7EXAMPLE"}, 0)
	require.NoError(t, err)
	require.Equal(t, []string{"status:AKIAIOSFODNN7EXAMPLE"}, q.BadTerms)
	_, err = parseQuery([]string{`"build`}, 0)
	require.Error(t, err, "an unbalanced quote")
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

func TestTheFirstHitsAreOrderedLikeAFullSort(t *testing.T) {
	st, _ := replay(t, genLog(3000))
	partial := searchOf(t, st, "decision")
	require.True(t, partial.Len() >= 300, "need a long list, got %d", partial.Len())
	var first []string
	for i := 0; i < 50; i++ {
		first = append(first, partial.At(i).ID)
	}
	full := ids(searchOf(t, st, "decision").All())
	require.Equal(t, full[:50], first, "first fifty")
	require.Equal(t, full, ids(partial.All()), "then everything")
}

// FuzzParseQuery: whatever words a person searches with, the query holds
// known statuses and non-empty tags, each unknown status named once, and
// search finds exactly the live decisions that hold every word of it (as
// the search engine reads words: search.Terms) and pass its filters.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"pg", "pg status:active,draft tag:DB", "STATUS:open", "status:,", "tag:", "tag:#", "İstanbul", "ééé umber", "D-2026 ion n", "status:superseded,x", "decision edited", "the"} {
		f.Add(s)
	}
	var st *state
	f.Fuzz(func(t *testing.T, line string) {
		if st == nil {
			st, _ = replay(t, genLog(300))
		}
		words := strings.Fields(line)
		q, err := parseQuery(words, 0)
		if err != nil {
			return
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
		if len(q.Phrases) > 0 || len(q.Words) > search.MaxTerms {
			return
		}
		brute := []string{}
		if len(q.Words) > 0 || q.Said == 0 {
			for _, d := range st.searchDocs() {
				if d.Gone {
					continue // a removed decision, which only a forget by words reads
				}
				terms := search.Terms(d.Title + " " + d.Text + " " + d.Extra)
				every := true
				for _, w := range q.Words {
					every = every && slices.Contains(terms, w)
				}
				if h := st.lookup(d.Ref); every && q.keeps(st, st.recs.at(h)) {
					brute = append(brute, d.Ref)
				}
			}
		}
		got := ids(searchOf(t, st, words...).All())
		slices.Sort(got)
		slices.Sort(brute)
		require.Equal(t, brute, got, "search %q", line)
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

func TestParseQuerySplitsWordsStatusesAndTags(t *testing.T) {
	tests := []struct {
		line                  string
		words, tags, badTerms []string
		statuses              []Status
	}{
		{"pg status:active,draft tag:DB", []string{"postgresql"}, []string{"db"}, nil, []Status{Active, draft}},
		{"Use GO tag:#x", []string{"use", "go"}, []string{"x"}, nil, nil},
		{"status:open", nil, nil, []string{"status:open"}, nil},
		// Each word with an unknown status is named once, however many
		// unknown statuses it holds or how often it is repeated.
		{"status:x,y status:x,y", nil, nil, []string{"status:x,y"}, nil},
		{"status:active,x status:z", nil, nil, []string{"status:active,x", "status:z"}, []Status{Active}},
	}
	for _, tt := range tests {
		q, err := parseQuery(strings.Fields(tt.line), 0)
		require.NoError(t, err, tt.line)
		require.Equal(t, tt.words, q.Words, tt.line+": words")
		require.Equal(t, tt.tags, q.Tags, tt.line+": tags")
		require.Equal(t, tt.badTerms, q.BadTerms, tt.line+": bad terms")
		require.Equal(t, tt.statuses, q.Statuses, tt.line+": statuses")
	}
}

// A query is bounded before it is read, as /memory recall bounds it (h-v93
// b1: 820 KB of words held pi's thread for 18 s): over 1,000 bytes is
// refused by its size; at the limit it is read.
func TestSearchRefusesAQueryOverItsLimit(t *testing.T) {
	_, err := parseQuery(strings.Fields(strings.Repeat("deploy frontend ", 60000)), 0)
	require.Error(t, err)
	require.Contains(t, err.Error(), "over the limit of 1,000")
	words := strings.Fields(strings.Repeat("ab ", 333))
	_, err = parseQuery(append(words, "c"), 0)
	require.NoError(t, err)
}
