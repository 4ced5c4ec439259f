package notes

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// hitKeys names hits as "scope file:line", the way a person reads them.
func hitKeys(hits []hit) []string {
	keys := []string{}
	for _, h := range hits {
		keys = append(keys, h.Scope+" "+h.File+":"+strconv.Itoa(h.Page.Line))
	}
	return keys
}

func mustQuery(t *testing.T, q string) query {
	t.Helper()
	parsed, err := parseQuery(q)
	require.NoError(t, err, "ParseQuery(%q)", q)
	return parsed
}

func sameKeys(t *testing.T, what string, got, want []string) {
	t.Helper()
	require.Equal(t, want, got, "%s", what)
}

func TestParseQueryReadsWordsPhrasesAndScope(t *testing.T) {
	tests := []struct {
		in      string
		words   []string
		phrases [][]string
		scope   string
	}{
		{`sccache`, []string{"sccach"}, nil, ""},
		{`Tests "build cache" scope:project`, []string{"test"}, [][]string{{"build", "cach"}}, "project"},
		{`SCOPE:Global deploy`, []string{"deploy"}, nil, "global"},
		{`scope:local scope:LOCAL deploys`, []string{"deploy"}, nil, "local"},
		{`kebab-case`, []string{"kebab", "cas"}, nil, ""},
		{`test Test TEST! "build cache" "Build, cache"`, []string{"test"}, [][]string{{"build", "cach"}}, ""},
		{"  tabs\tand\nspaces  ", []string{"tab", "spac"}, nil, ""},
		{`"" ci`, []string{"ci"}, nil, ""},
		{`x"build cache"yy`, []string{"yy"}, [][]string{{"build", "cach"}}, ""},
		{`“build cache” eviter`, []string{"eviter"}, [][]string{{"build", "cach"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseQuery(tt.in)
			require.NoError(t, err)
			require.Equal(t, tt.words, got.Words, "words")
			require.Equal(t, tt.phrases, got.Phrases, "phrases")
			require.Equal(t, tt.scope, got.Scope, "scope")
			require.Equal(t, tt.in, got.Raw, "raw")
		})
	}
}

func TestParseQueryRefusesMalformedQueriesSayingHowToWriteThem(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", `query has no words: give at least one word or "quoted phrase", e.g. sccache "build cache" scope:project`},
		{"blank", " \t\n ", `query has no words: give at least one word or "quoted phrase", e.g. sccache "build cache" scope:project`},
		{"only punctuation", `-- "!!" ?`, `query has no words: give at least one word or "quoted phrase", e.g. sccache "build cache" scope:project`},
		{"only a scope", "scope:project", `query has no words: give at least one word or "quoted phrase", e.g. sccache "build cache" scope:project`},
		{"unbalanced quote", `sccache "build cache`, `unbalanced quote: nothing closes the " opened before "build cache"; write a phrase between two quotes, as in "build cache"`},
		{"quote at the end", `sccache "`, `unbalanced quote: nothing closes the " at the end of the query; write a phrase between two quotes, as in "build cache"`},
		{"three quotes", `"a" "b`, `unbalanced quote: nothing closes the " opened before "b"; write a phrase between two quotes, as in "build cache"`},
		{"long unclosed phrase is cut", `"` + strings.Repeat("é", 30), `unbalanced quote: nothing closes the " opened before "` + strings.Repeat("é", 20) + `…"; write a phrase between two quotes, as in "build cache"`},
		{"unknown scope", "scope:team sccache", `unknown scope "team": write scope:global, scope:project or scope:local`},
		{"empty scope", "scope: sccache", `unknown scope "": write scope:global, scope:project or scope:local`},
		{"two scopes", "scope:project scope:global sccache", `two scopes, project and global: name at most one, or none to search every scope`},
		{"33 terms", manyTerms(33), `query has more than 32 words and phrases: keep the few that only the note you want would contain`},
		{"too long", strings.Repeat("a", 1001), `query is 1001 bytes, over the limit of 1,000: search for a few distinctive words instead`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := parseQuery(tt.in)
			require.Error(t, err, "ParseQuery(%q) = %#v, want an error", tt.in, q)
			require.Equal(t, tt.want, err.Error(), "error")
		})
	}
}

// manyTerms is n distinct words, phrases every third, to reach the term limit.
func manyTerms(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		w := "w" + strconv.Itoa(i)
		if i%3 == 0 {
			w = `"` + w + ` z"`
		}
		b.WriteString(w + " ")
	}
	return b.String()
}

func TestParseQueryAcceptsExactly32Terms(t *testing.T) {
	q := mustQuery(t, manyTerms(32))
	require.Equal(t, 32, q.Said, "terms")
	_, err := parseQuery(strings.Repeat("ab ", 333) + "a")
	require.NoError(t, err, "a 1,000-byte query")
}

func TestRecallRanksAPreciseFactAboveALongParagraph(t *testing.T) {
	long := "Our tests are slow because the integration suite starts a database, a cache and three services, " +
		"waits for each to report healthy, seeds fixtures, and only then runs; nobody has had the time to " +
		"split it into smaller suites or to cache the images between runs on the shared runners we use"
	docs := []doc{{Scope: "project", File: "MEMORY.md", Pages: []page{
		testPage(kindText, 9, long, "Build"),
		testPage(kindFact, 3, "Run tests with -race", "Build"),
		testPage(kindFact, 4, "Deploy on Fridays only with approval", "Release"),
	}}}
	hits := recall(mustQuery(t, "testing"), docs, 5)
	sameKeys(t, "hits", hitKeys(hits), []string{"project MEMORY.md:3", "project MEMORY.md:9"})
	require.True(t, hits[0].Score > hits[1].Score, "scores %v, want the fact strictly first", []float64{hits[0].Score, hits[1].Score})
}

func TestRecallRanksRareWordsAboveCommonOnes(t *testing.T) {
	docs := []doc{{Scope: "project", File: "MEMORY.md", Pages: []page{
		testPage(kindFact, 1, "Use pnpm for the workspace", ""),
		testPage(kindFact, 2, "Use sccache for the build", ""),
		testPage(kindFact, 3, "Use tabs in Go files", ""),
	}}}
	hits := recall(mustQuery(t, "use sccache"), docs, 5)
	sameKeys(t, "hits", hitKeys(hits), []string{"project MEMORY.md:2", "project MEMORY.md:1", "project MEMORY.md:3"})
}

// A heading names a section; the facts under it say something: recall, like
// memory_search, finds the facts by their section's heading, never the
// heading alone.
func TestRecallFindsTheFactsOfASectionByItsHeading(t *testing.T) {
	docs := []doc{{Scope: "project", File: "MEMORY.md", Pages: []page{
		testPage(kindHeading, 1, "Testing", ""),
		testPage(kindFact, 2, "Start the local docker daemon first", "Testing"),
		testPage(kindHeading, 4, "Release", ""),
		testPage(kindFact, 5, "Tag releases from main", "Release"),
	}}}
	sameKeys(t, "testing", hitKeys(recall(mustQuery(t, "testing"), docs, 5)), []string{"project MEMORY.md:2"})
	sameKeys(t, "release", hitKeys(recall(mustQuery(t, "release"), docs, 5)), []string{"project MEMORY.md:5"})
}

func TestRecallRequiresEveryPhraseAsConsecutiveWords(t *testing.T) {
	docs := []doc{{Scope: "project", File: "MEMORY.md", Pages: []page{
		testPage(kindFact, 1, "The build caches live in ~/.cache/sccache", ""),
		testPage(kindFact, 2, "Rebuild cache keys after a toolchain bump", ""),
		testPage(kindFact, 3, "Cache the build output of sccache in CI", ""),
		testPage(kindFact, 4, "Build-cache misses slow CI down", ""),
		testPage(kindFact, 5, "Build cache: never share it between sccache versions", ""),
	}}}
	tests := []struct {
		q    string
		want []string
	}{
		{`"build cache"`, []string{"project MEMORY.md:1", "project MEMORY.md:5", "project MEMORY.md:4"}},
		{`"build cache" sccache`, []string{"project MEMORY.md:1", "project MEMORY.md:5"}},
		{`"build cache" "CI"`, []string{"project MEMORY.md:4"}},
		{`"cache the build" ci`, []string{"project MEMORY.md:3"}},
		{`"build cache" toolchain`, []string{}},
	}
	for _, tt := range tests {
		sameKeys(t, tt.q, hitKeys(recall(mustQuery(t, tt.q), docs, 10)), tt.want)
	}
}

func TestRecallScopeFilterKeepsOnlyThatScopeWithUnchangedScores(t *testing.T) {
	docs := []doc{
		{Scope: "global", File: "MEMORY.md", Pages: []page{testPage(kindFact, 1, "Prefer ripgrep over grep", ""), testPage(kindFact, 2, "Use tabs", "")}},
		{Scope: "project", File: "MEMORY.md", Pages: []page{testPage(kindFact, 1, "ripgrep ignores vendored code here", "")}},
		{Scope: "local", File: "MEMORY.local.md", Pages: []page{testPage(kindFact, 1, "My ripgrep config is in ~/.ripgreprc", "")}},
	}
	all := recall(mustQuery(t, "ripgrep"), docs, 10)
	require.Equal(t, 3, len(all), "every scope: %q", hitKeys(all))
	for _, scope := range []string{"global", "project", "local"} {
		hits := recall(mustQuery(t, "ripgrep scope:"+scope), docs, 10)
		require.True(t, len(hits) == 1 && hits[0].Scope == scope, "scope:%s = %q, want one %s hit", scope, hitKeys(hits), scope)
		for _, h := range all {
			require.True(t, h.Scope != scope || h.Score == hits[0].Score, "scope:%s changed the score from %v to %v", scope, h.Score, hits[0].Score)
		}
	}
}

func TestRecallMatchesInflectedForms(t *testing.T) {
	tests := []struct{ query, text string }{
		{"test", "Tests run in parallel"},
		{"tests", "Testing needs docker"},
		{"testing", "Tested on Go 1.25"},
		{"cache", "Caching is off in CI"},
		{"caches", "Cached images expire weekly"},
		{"library", "Vendored libraries live in third_party"},
		{"use", "Uses pnpm"},
		{"run", "Running the linter takes a minute"},
		{"class", "Classes are final by default"},
		{"box", "Boxes are rebuilt nightly"},
	}
	for _, tt := range tests {
		docs := []doc{{Scope: "project", File: "MEMORY.md", Pages: []page{testPage(kindFact, 1, tt.text, "")}}}
		require.Equal(t, 1, len(recall(mustQuery(t, tt.query), docs, 5)), "%q does not find %q", tt.query, tt.text)
	}
}

func TestRecallBreaksTiesByScopeThenFileThenLine(t *testing.T) {
	fact := func(line int) page { return testPage(kindFact, line, "Run make lint before pushing", "") }
	docs := []doc{
		{Scope: "global", File: "MEMORY.md", Pages: []page{fact(4)}},
		{Scope: "project", File: "tools.md", Pages: []page{fact(1)}},
		{Scope: "local", File: "MEMORY.local.md", Pages: []page{fact(2)}},
		{Scope: "project", File: "MEMORY.md", Pages: []page{fact(7), fact(3)}},
	}
	want := []string{"project MEMORY.md:3", "project MEMORY.md:7", "project tools.md:1", "local MEMORY.local.md:2", "global MEMORY.md:4"}
	sameKeys(t, "ties", hitKeys(recall(mustQuery(t, "lint"), docs, 10)), want)
	reversed := []doc{docs[3], docs[2], docs[1], docs[0]}
	reversed[0].Pages = []page{fact(3), fact(7)}
	sameKeys(t, "ties, docs reversed", hitKeys(recall(mustQuery(t, "lint"), reversed, 10)), want)
}

func TestRecallReturnsAtMostLimitHits(t *testing.T) {
	var pages []page
	for i := 1; i <= 6; i++ {
		pages = append(pages, testPage(kindFact, i, "deploy step "+strconv.Itoa(i), ""))
	}
	docs := []doc{{Scope: "project", File: "MEMORY.md", Pages: pages}}
	q := mustQuery(t, "deploy")
	tests := []struct {
		limit int
		want  int
	}{{1, 1}, {3, 3}, {6, 6}, {10, 6}, {0, 0}, {-1, 6}}
	for _, tt := range tests {
		require.Equal(t, tt.want, len(recall(q, docs, tt.limit)), "limit %d", tt.limit)
	}
	sameKeys(t, "limit 2", hitKeys(recall(q, docs, 2)), []string{"project MEMORY.md:1", "project MEMORY.md:2"})
}

func TestRecallFindsNothingWithoutAMatchOrPages(t *testing.T) {
	docs := []doc{{Scope: "project", File: "MEMORY.md", Pages: []page{testPage(kindFact, 1, "Use tabs", ""), testPage(kindText, 2, "", "")}}}
	hits := recall(mustQuery(t, "spaces"), docs, 5)
	require.True(t, hits == nil, "hits = %q, want none", hitKeys(hits))
	hits = recall(mustQuery(t, "tabs"), nil, 5)
	require.True(t, hits == nil, "hits over no docs = %q, want none", hitKeys(hits))
	hits = recall(mustQuery(t, "x"), docs, 5)
	require.True(t, hits == nil, "a one-letter word found %q", hitKeys(hits))
	hits = recall(mustQuery(t, "the"), docs, 5)
	require.True(t, hits == nil, "a query of stop words found %q", hitKeys(hits))
}

func TestRecallHandlesUnicode(t *testing.T) {
	docs := []doc{{Scope: "project", File: "MEMORY.md", Pages: []page{
		testPage(kindFact, 1, "Éviter les ORM dans le cœur", ""),
		testPage(kindFact, 2, "Die Straße heißt Hauptstraße", ""),
		testPage(kindFact, 3, "設定は 日本語 で書く", ""),
		testPage(kindFact, 4, "Les cafés ferment à 18 h", ""),
	}}}
	tests := []struct {
		q    string
		want []string
	}{
		{"éviter", []string{"project MEMORY.md:1"}},
		{"ÉVITER orm", []string{"project MEMORY.md:1"}},
		{`"dans le CŒUR"`, []string{"project MEMORY.md:1"}},
		{"STRASSE", []string{}},
		{"straße", []string{"project MEMORY.md:2"}},
		{"日本語", []string{"project MEMORY.md:3"}},
		{"café", []string{"project MEMORY.md:4"}},
	}
	for _, tt := range tests {
		sameKeys(t, tt.q, hitKeys(recall(mustQuery(t, tt.q), docs, 5)), tt.want)
	}
}

func TestRecallDoesNotChangeItsInput(t *testing.T) {
	docs := []doc{{Scope: "project", File: "MEMORY.md", Pages: []page{testPage(kindFact, 2, "Tests need docker", ""), testPage(kindFact, 1, "tests", "")}}}
	q := mustQuery(t, "tests")
	recall(q, docs, 5)
	require.True(t, docs[0].Pages[0].Text == "Tests need docker" && docs[0].Pages[0].Line == 2 && q.Words[0] == "test", "Recall changed its input: %#v %#v", docs, q)
}
