package search

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

const day = 86400000

// now is a fixed clock for the tests: 2026-11-27.
const now int64 = 1795737600000

func TestTermsMeetAcrossPluralsVerbFormsAndAbbreviations(t *testing.T) {
	tests := []struct {
		query, doc string
	}{
		{"databases", "the primary database"},
		{"database", "two Databases"},
		{"db", "database migrations"},
		{"deploying", "we deploy on Fridays"},
		{"deployed", "deploying takes ten minutes"},
		{"merged", "merge commits"},
		{"libraries", "a library"},
		{"caching", "the build cache"},
		{"postgres", "PostgreSQL 16"},
		{"k8s", "Kubernetes manifests"},
		{"O'Reilly", "oreilly"},
		{"Jonas's", "Jonas said"},
		{"Priya’s", "ask priya"},
		{"CONFIG", "configuration files"},
		{"café", "Café opening hours"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			q := Terms(tt.query)
			require.True(t, len(q) == 1, "one term for", tt.query, q)
			require.True(t, has(Terms(tt.doc), q[0]), tt.doc, "holds", q[0], Terms(tt.doc))
		})
	}
}

// Stop words are left out in English and in the languages redaction reads;
// a word both a stop word elsewhere and an English word ("die", "war") is
// kept (words.go).
func TestTermsLeaveOutStopWordsShortWordsAndRepeats(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"the database and the databases", []string{"databas"}},
		{"a b c x", nil},
		{"what is our deploy policy?", []string{"deploy", "polic"}},
		{"sha " + strings.Repeat("f", 41), []string{"sha"}},
		{"what did he say during his visit?", []string{"dur", "visit"}},
		{"don't you have it, isn't it", nil},
		{"la base de données est lente", []string{"bas", "donné", "lent"}},
		{"das Deployment ist für morgen geplant", []string{"deployment", "morgen", "geplant"}},
		{"la copia de seguridad se hace por la noche", []string{"copia", "seguridad", "hac", "noch"}},
		{"база данных не отвечает", []string{"база", "данных", "отвечает"}},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			require.Equal(t, strings.Join(tt.want, ","), strings.Join(Terms(tt.in), ","))
		})
	}
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func docs(ds ...Doc) Source {
	return Source{Key: "test", Stamp: "1", Load: func() []Doc { return ds }}
}

func refs(hits []Hit) string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Doc.Ref)
	}
	return strings.Join(out, " ")
}

func TestSearchRanksTheBestMatchFirst(t *testing.T) {
	src := docs(
		Doc{Kind: Decision, Ref: "D-1", Mark: "active", Title: "Use PostgreSQL for the primary database", Time: now - day},
		Doc{Kind: Decision, Ref: "D-2", Mark: "superseded", Title: "Use MySQL for the primary database", Time: now - 300*day},
		Doc{Kind: Note, Ref: "/w/MEMORY.md:3", Text: "Run tests with -race before pushing", Time: now - 10*day},
		Doc{Kind: Note, Ref: "/w/MEMORY.md:4", Text: "Database migrations live in db/migrations", Time: now - 10*day},
		Doc{Kind: Message, Ref: "/s/a.jsonl:7", Text: "User: the tests are flaky again, can you look at the race detector output? " + strings.Repeat("filler words here ", 40), Time: now - 2*day},
		Doc{Kind: Observation, Ref: "obs:1", Text: "User prefers pnpm over npm", Time: now - 3*day},
	)
	var x Index
	require.Equal(t, 1, x.Update([]Source{src}))
	tests := []struct {
		query string
		want  string // the hits' refs, best first
	}{
		{"postgres", "D-1"},
		{"primary databases", "D-1 D-2 /w/MEMORY.md:4"},
		{"which db do we use", "D-1 D-2 /w/MEMORY.md:4"},
		{"race tests", "/w/MEMORY.md:3 /s/a.jsonl:7"},
		{"pnpm", "obs:1"},
		{"kubernetes", ""},
		{"the", ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			require.Equal(t, tt.want, refs(x.Search(tt.query, 5, now)))
		})
	}
}

func TestSearchPutsAnEntryWithEveryWordBeforeOneWithSome(t *testing.T) {
	var x Index
	x.Update([]Source{docs(
		Doc{Kind: Note, Ref: "a", Text: "deploy the frontend"},
		Doc{Kind: Note, Ref: "b", Text: "deploy the backend on Fridays"},
		Doc{Kind: Note, Ref: "c", Text: "backend logs rotate daily"},
	)})
	require.Equal(t, "b", x.Search("deploy backend", 1, now)[0].Doc.Ref)
}

func TestSearchPrefersRecentEntriesWhenTheTextsAreEqual(t *testing.T) {
	var x Index
	x.Update([]Source{docs(
		Doc{Kind: Note, Ref: "old", Text: "release checklist", Time: now - 400*day},
		Doc{Kind: Note, Ref: "new", Text: "release checklist", Time: now - day},
	)})
	require.Equal(t, "new old", refs(x.Search("release", 5, now)))
}

func TestSearchLimitIsCapped(t *testing.T) {
	var ds []Doc
	for i := 0; i < 50; i++ {
		ds = append(ds, Doc{Kind: Note, Ref: string(rune('A'+i%26)) + strings.Repeat("x", i/26), Text: "flaky test"})
	}
	var x Index
	x.Update([]Source{docs(ds...)})
	require.Equal(t, DefaultLimit, len(x.Search("flaky", 0, now)))
	require.Equal(t, MaxLimit, len(x.Search("flaky", 500, now)))
	require.Equal(t, 3, len(x.Search("flaky", 3, now)))
}

func TestUpdateRebuildsOnlySourcesWhoseStampChanged(t *testing.T) {
	loads := map[string]int{}
	src := func(key, stamp, text string) Source {
		return Source{Key: key, Stamp: stamp, Load: func() []Doc {
			loads[key]++
			return []Doc{{Kind: Note, Ref: key, Text: text}}
		}}
	}
	var x Index
	require.Equal(t, 2, x.Update([]Source{src("a", "1", "alpha"), src("b", "1", "beta")}))
	require.Equal(t, 0, x.Update([]Source{src("a", "1", "alpha"), src("b", "1", "beta")}))
	require.Equal(t, 1, x.Update([]Source{src("a", "2", "gamma"), src("b", "1", "beta")}))
	require.Equal(t, "", refs(x.Search("alpha", 5, now)), "the old text of a is gone")
	require.Equal(t, "a", refs(x.Search("gamma", 5, now)))
	require.Equal(t, 0, x.Update([]Source{src("a", "2", "gamma")}))
	require.Equal(t, "", refs(x.Search("beta", 5, now)), "b is no longer listed")
	require.Equal(t, 1, x.Len())
	require.Equal(t, 2, loads["a"])
	require.Equal(t, 1, loads["b"])
}

func TestSnippet(t *testing.T) {
	long := "Earlier we talked about many unrelated things, the weather, lunch and the office plants. " +
		"Then the database moved to PostgreSQL 16 last week after the migration window closed. " +
		"Afterwards everyone went home and nothing else of note happened that day at all."
	tests := []struct {
		name string
		doc  Doc
		q    string
		max  int
		want string
	}{
		{"short text whole", Doc{Text: "Run  tests\nwith -race"}, "tests", 160, "Run tests with -race"},
		{"title before a different text", Doc{Title: "Postgres", Text: "Use PostgreSQL 16 everywhere"}, "postgres", 160, "Postgres — Use PostgreSQL 16 everywhere"},
		{"title that starts the text", Doc{Title: "Use PostgreSQL…", Text: "Use PostgreSQL 16 everywhere"}, "postgres", 160, "Use PostgreSQL 16 everywhere"},
		{"window around the words", Doc{Text: long}, "database migration", 80, "…Then the database moved to PostgreSQL 16 last week after the migration window…"},
		{"no word found: the start", Doc{Text: long}, "kubernetes", 40, "Earlier we talked about many unrelated…"},
		{"secrets redacted", Doc{Text: "token ghp_" + strings.Repeat("a", 36) + " for CI"}, "token", 160, "token [REDACTED:github-token] for CI"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, Snippet(&tt.doc, Terms(tt.q), tt.max))
		})
	}
}

func TestForPersonFitsEightyColumns(t *testing.T) {
	hits := []Hit{
		{Doc: Doc{Kind: Decision, Ref: "D-20261120-0001", Cite: "D-20261120-0001", Mark: "superseded", Time: now}, Snippet: "Use MySQL for the primary database"},
		{Doc: Doc{Kind: Message, Ref: "/home/ada/.pi/agent/sessions/--home-ada-app--/2026-11-20T09-00-00-000Z_0195a3b4-1111-7000-8000-000000000000.jsonl:14", Cite: "~/.pi/agent/sessions/--home-ada-app--/2026-11-20T09-00-00-000Z_0195a3b4-1111-7000-8000-000000000000.jsonl:14", Time: now}, Snippet: strings.Repeat("word ", 40)},
	}
	out := ForPerson("database", hits, nil)
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, "sessions/") {
			require.True(t, len([]rune(l)) <= Width, "line over 80 columns:", l)
		}
	}
	require.Contains(t, out, "2 matches for \"database\":\n  D-20261120-0001  decision · superseded · 2026-11-27\n    Use MySQL for the primary database")
	require.Contains(t, out, "jsonl:14\n    earlier session · 2026-11-27\n    word word")
}

func TestForModelStaysWithinItsTokenCap(t *testing.T) {
	var hits []Hit
	for i := 0; i < MaxLimit; i++ {
		hits = append(hits, Hit{Doc: Doc{Kind: Note, Ref: "/w/MEMORY.md:1"}, Snippet: strings.Repeat("x", 400)})
	}
	out := ForModel("x", hits, nil)
	require.True(t, len(out) <= ToolTokens*4, "result is", len(out), "bytes")
	require.Contains(t, out, "more not shown")
	require.Contains(t, ForModel("nothing", nil, nil), "No memory matches \"nothing\"")
	// What it names is what was searched: a store that is off is not.
	require.Contains(t, ForModel("nothing", nil, []string{"decisions", "notes"}), "No memory matches \"nothing\" (decisions, notes). ")
	require.Equal(t, "Nothing matches \"nothing\" in decisions, notes or earlier sessions of this project.", ForPerson("nothing", nil, []string{"decisions", "notes", "earlier sessions of this project"}))
}

// A source larger than one block keeps every entry findable, whichever
// block holds it and whichever block first saw its words.
func TestASourceOfManyBlocksFindsEveryEntry(t *testing.T) {
	n := 2*blockDocs + 100
	ds := make([]Doc, n)
	for i := range ds {
		ds[i] = Doc{Kind: Note, Ref: "r" + strconv.Itoa(i), Text: "common word u" + strconv.Itoa(i)}
	}
	var x Index
	x.Update([]Source{docs(ds...)})
	require.Equal(t, n, x.Len())
	for _, i := range []int{0, blockDocs - 1, blockDocs, 2*blockDocs + 99} {
		require.Equal(t, "r"+strconv.Itoa(i), refs(x.Search("u"+strconv.Itoa(i), 5, now)))
	}
	p := x.order[0]
	require.Equal(t, int32(3), p.blocks)
	common, _ := p.term("common")
	last, _ := p.term("u" + strconv.Itoa(2*blockDocs+99))
	require.Equal(t, n, p.df(common))
	require.Equal(t, 1, p.df(last))
}

func TestParseLimit(t *testing.T) {
	tests := []struct {
		v    string
		want int
		ok   bool
	}{
		{"", DefaultLimit, true}, {"1", 1, true}, {"20", 20, true}, {"0", 0, false}, {"21", 0, false}, {"x", 0, false}, {"-3", 0, false},
	}
	for _, tt := range tests {
		n, err := ParseLimit(tt.v)
		if (err == nil) != tt.ok || n != tt.want {
			t.Errorf("ParseLimit(%q) = %d, %v", tt.v, n, err)
		}
	}
}

func TestJSONAndCandidates(t *testing.T) {
	hits := []Hit{
		{Doc: Doc{Kind: Decision, Ref: "D-2026-11-20-0001", Cite: "D-2026-11-20-0001", Mark: "active", Time: 5}, Snippet: "Use pnpm", Score: 1.23456},
		{Doc: Doc{Kind: Note, Ref: "/w/.pi/memory/MEMORY.md:3", Cite: ".pi/memory/MEMORY.md:3"}, Snippet: "Run make test"},
	}
	want := `[{"kind":"decision","ref":"D-2026-11-20-0001","cite":"D-2026-11-20-0001","mark":"active","time":5,"snippet":"Use pnpm","score":1.235},` +
		`{"kind":"note","ref":"/w/.pi/memory/MEMORY.md:3","cite":".pi/memory/MEMORY.md:3","snippet":"Run make test","score":0}]`
	if got := string(JSON(hits)); got != want {
		t.Errorf("JSON = %s", got)
	}
	if got := Candidates("pnpm", hits); got != "2 entries match \"pnpm\" and none clearly best; nothing was forgotten. Forget one by its id:\n1. D-2026-11-20-0001: Use pnpm\n2. /w/.pi/memory/MEMORY.md:3: Run make test" {
		t.Errorf("Candidates = %q", got)
	}
}

func TestToForget(t *testing.T) {
	hit := func(k Kind, ref string, score float64) Hit {
		return Hit{Doc: Doc{Kind: k, Ref: ref, Text: "deploy on fridays"}, Score: score}
	}
	refs := func(hs []Hit) (r []string) {
		for _, h := range hs {
			r = append(r, h.Doc.Ref)
		}
		return r
	}
	best, cands := ToForget("deploy fridays", []Hit{hit(Observation, "this session", 9), hit(Note, "n:3", 3), hit(Decision, "D-1", 2)})
	if best == nil || best.Doc.Ref != "n:3" || cands != nil {
		t.Errorf("clear lead: %v %v", best, refs(cands))
	}
	best, cands = ToForget("deploy fridays", []Hit{hit(Note, "n:3", 3), hit(Decision, "D-1", 2.5)})
	if best != nil || len(cands) != 2 {
		t.Errorf("no clear lead: %v %v", best, refs(cands))
	}
	best, cands = ToForget("deploy fridays", []Hit{hit(Message, "s:1", 4), hit(Decision, "D-1", 0.5)})
	if best == nil || best.Doc.Ref != "D-1" {
		t.Errorf("the only removable one: %v", best)
	}
	var many []Hit
	for i := 0; i < 8; i++ {
		many = append(many, hit(Note, "n", 1))
	}
	if _, cands = ToForget("deploy fridays", many); len(cands) != MaxCandidates {
		t.Errorf("%d candidates, want %d", len(cands), MaxCandidates)
	}
	if best, cands = ToForget("deploy fridays", []Hit{hit(Message, "s:1", 4)}); best != nil || cands != nil {
		t.Errorf("nothing removable: %v %v", best, cands)
	}
}

// A forget by words removes an entry without asking only when it holds at
// least half of the words: the only note that shares "push" with "never
// push on fridays" was removed, and the model seldom restores it.
func TestAForgetByWordsRemovesNoEntryThatHoldsFewOfItsWords(t *testing.T) {
	for _, tt := range []struct {
		q, text string
		removed bool
	}{
		{"never push on fridays", "always run make test before pushing", false},
		{"deploy the production kubernetes cluster with helm", "we use kubernetes for dev only", false},
		{"zebrafish target in a topic", "see [topics](sub/t.md)", false},
		{"the note about pnpm", "Use pnpm for every package", true},
		{"pushing on fridays", "never push on Fridays", true},
		{"staging kubernetes", "staging deploy: password: hunter2xyz", false},
		{"password rotation", "staging deploy: password: hunter2xyz", false},
		{"staging password", "staging deploy: password: hunter2xyz", true},
		{"staging staging", "staging deploy: password: hunter2xyz", true},
		{"goose migrations", "Databases are migrated with goose", false}, // migration, migrat: asked, not guessed
		{"migrated with goose", "Databases are migrated with goose", true},
		{"commit hooks", "Our commitment is that hooks run on every push", false},
		{"react hooks", "The reaction bot hooks into Slack for emoji votes", false},
		{"staging staging kubernetes", "staging deploy: password: hunter2xyz", false},
		{"pnpm", "Use pnpm for every package", true},
	} {
		var x Index
		x.Update([]Source{docs(Doc{Kind: Note, Ref: "n:3", Text: tt.text})})
		best, cands := ToForget(tt.q, x.ForForget(tt.q, now))
		if got := best != nil; got != tt.removed || !tt.removed && (len(cands) != 1 || cands[0].Doc.Ref != "n:3") {
			t.Errorf("ToForget(%q) over %q: best %v, candidates %d; want removed %v, else the entry as the one candidate", tt.q, tt.text, best, len(cands), tt.removed)
		}
	}
	require.Equal(t, "1 entry matches \"never push\" only in part; nothing was forgotten. Forget it by its id if it is the one:\n1. n:3: push", Candidates("never push", []Hit{{Doc: Doc{Ref: "n:3"}, Snippet: "push"}}))
	require.Equal(t, "1 entry matches the number \"8080\"; a number alone forgets nothing. Forget it by its id:\n1. n:4: Port 8080 is open", Candidates("8080", []Hit{{Doc: Doc{Ref: "n:4"}, Snippet: "Port 8080 is open"}}))
}

// Issue 25, item 11: a search for a secret's value finds nothing, whichever
// store handed the entry in: the index holds what redaction leaves, so a
// hit cannot confirm a guess. The label around it is still found, its value
// marked.
func TestSearchFindsNothingByWhatRedactionRemoves(t *testing.T) {
	var x Index
	x.Update([]Source{docs(
		Doc{Kind: Decision, Ref: "D-1", Title: "Staging DB", Text: "Connect with DB_PASSWORD=hunter22x from the vault"},
		Doc{Kind: Note, Ref: "n:1", Text: "deploy bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsEXA", Extra: "Deploy"},
		Doc{Kind: Message, Ref: "s:1", Text: "User: mysql -u root -pS3cretEXAMPLE shop"},
	)})
	for _, q := range []string{"hunter22x", "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsEXA", "S3cretEXAMPLE", "123456789"} {
		require.Equal(t, "", refs(x.Search(q, 5, now)), "a search for %q", q)
	}
	hits := x.Search("DB_PASSWORD vault", 5, now)
	require.Equal(t, "D-1", refs(hits))
	require.Equal(t, "Staging DB — Connect with DB_PASSWORD=[REDACTED:secret] from the vault", hits[0].Snippet)
}

// A decision's mark names another decision by the id its log holds, which a
// hand-edited or merged log may make anything: it is redacted with the
// rest of the entry, in every form the hit is shown.
func TestAMarkIsRedactedLikeTheEntry(t *testing.T) {
	var x Index
	x.Update([]Source{docs(
		Doc{Kind: Decision, Ref: "D-1", Mark: "superseded by ghp_abcdefghijklmnopqrstuvwxyz0123456789", Text: "Use Redis for the cache"},
	)})
	hits := x.Search("redis cache", 5, now)
	require.Equal(t, "D-1", refs(hits))
	for _, out := range []string{ForModel("redis cache", hits, nil), ForPerson("redis cache", hits, nil), string(JSON(hits))} {
		require.NotContains(t, out, "ghp_abcdef")
		require.Contains(t, out, "superseded by [REDACTED:github-token]")
	}
}

// An entry forgotten (Doc.Gone) is left out of a search, and found by a
// forget by words, which then names it rather than another entry; a gone
// entry that reads as a live one is that entry.
func TestForgottenEntriesAreFoundOnlyByAForgetByWords(t *testing.T) {
	var x Index
	x.Update([]Source{docs(
		Doc{Kind: Note, Ref: "F-1a2b3c4d", Cite: "MEMORY.md", Text: "We deploy with make ship on Fridays", Gone: true},
		Doc{Kind: Note, Ref: "n:3", Text: "Ship the changelog with every release"},
	)})
	require.Equal(t, "n:3", refs(x.Search("deploy make ship fridays", 5, now)))
	best, _ := ToForget("deploy make ship fridays", x.ForForget("deploy make ship fridays", now))
	require.True(t, best != nil && best.Doc.Ref == "F-1a2b3c4d" && best.Doc.Gone, "the gone entry: %v", best)

	x = Index{}
	x.Update([]Source{docs(
		Doc{Kind: Note, Ref: "F-1a2b3c4d", Text: "We deploy with make ship on Fridays", Gone: true},
		Doc{Kind: Note, Ref: "n:4", Text: "We deploy with make ship on Fridays"},
	)})
	best, cands := ToForget("deploy make ship fridays", x.ForForget("deploy make ship fridays", now))
	require.True(t, best != nil && best.Doc.Ref == "n:4" && cands == nil, "the live one stands for both: %v %v", best, cands)
}

// A query of 60 KB (a pasted file) was read whole: thousands of distinct
// words, each looked up in every source, made one search of 20,000
// sessions take two minutes. A search reads its first MaxTerms distinct
// words within MaxQuery bytes, and says when it left words out.
func TestAQueryIsItsFirstDistinctWords(t *testing.T) {
	var words []string
	for i := 0; i < 10_000; i++ {
		words = append(words, "word"+strconv.Itoa(i))
	}
	long := strings.Join(words, " ")
	tests := []struct {
		name, q, want string
		cut           bool
	}{
		{"a short query", "deploy the frontend", "deploy the frontend", false},
		{"60 KB of distinct words", long, strings.Join(words[:MaxTerms], " "), true},
		{"a word repeated past MaxQuery", strings.Repeat("deploy ", 20_000), strings.TrimSpace(strings.Repeat("deploy ", MaxQuery/7+1)), true},
		{"a word is not cut inside", strings.Repeat("ab", MaxQuery/2) + "c", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := Bounded(tt.q)
			require.Equal(t, tt.want, got)
			require.Equal(t, tt.cut, cut)
			require.True(t, len(Terms(got)) <= MaxTerms && len(got) <= MaxQuery, "bounded")
		})
	}
	require.Equal(t, MaxTerms, len(Terms(long)), "Terms reads the first MaxTerms")
}

// A search in slices (Build, then Ranking.Run, each stopped whenever its
// Work says so and called again) finds what one done in one go finds,
// however small the slices: where a slice ends is never a result.
// Two searches going on in turns on one index (parallel tool calls) each
// find what it finds alone: the terms one looked up in every part are its
// own, or looked up again.
func TestTwoSearchesInTurnsFindWhatEachFindsAlone(t *testing.T) {
	var srcs []Source
	for i := range 30 {
		srcs = append(srcs, Source{Key: "s" + strconv.Itoa(i), Stamp: "1", Load: func() []Doc {
			return []Doc{
				{Kind: Message, Ref: "s" + strconv.Itoa(i) + ":1", Text: "billing deploy step " + strconv.Itoa(i)},
				{Kind: Message, Ref: "s" + strconv.Itoa(i) + ":2", Text: strings.Repeat("kiwi ", 1+i%4) + "harvest"},
			}
		}})
	}
	var x Index
	x.Plan(srcs)
	x.Build(nil, false)
	alone := func(q string) string {
		r := x.Rank(q, Options{Limit: 5})
		r.Run(nil)
		return refs(r.Hits())
	}
	wantA, wantB := alone("billing deploy"), alone("kiwi harvest season")
	require.True(t, wantA != "" && wantB != "" && wantA != wantB, wantA, " / ", wantB)
	for _, slice := range []int{1, 7, 50} {
		a, b := x.Rank("billing deploy", Options{Limit: 5}), x.Rank("kiwi harvest season", Options{Limit: 5})
		step := func() Work { used := 0; return func(n int) bool { used += n; return used < slice } }
		doneA, doneB := false, false
		for i := 0; !(doneA && doneB); i++ {
			require.True(t, i < 100_000, "searches that never end")
			if !doneA {
				doneA = a.Run(step())
			}
			if !doneB {
				doneB = b.Run(step())
			}
		}
		require.Equal(t, wantA, refs(a.Hits()), "slices of %d", slice)
		require.Equal(t, wantB, refs(b.Hits()), "slices of %d", slice)
	}
}

func TestASearchInSlicesFindsWhatOneInOneGoFinds(t *testing.T) {
	sources := func() []Source {
		var srcs []Source
		srcs = append(srcs, Source{Key: "notes", Stamp: "1", Load: func() []Doc {
			return []Doc{{Kind: Note, Ref: "n:1", Text: "deploy the billing service on fridays"}}
		}})
		for i := range 40 {
			key := "s" + strconv.Itoa(i)
			srcs = append(srcs, Source{Key: key,
				Stat: func(string) (uint64, bool) { return 1, i == 7 },
				Open: func(string) Step {
					left := 30
					return func(n int, add func(Doc)) (int, bool, bool) {
						read := 0
						for ; left > 0 && read < n; left-- {
							add(Doc{Kind: Message, Ref: key + ":" + strconv.Itoa(left), Text: "session " + strconv.Itoa(i) + " billing step " + strconv.Itoa(left), Time: int64(i)})
							read += 100
						}
						return read, left == 0, false
					}
				}})
		}
		return srcs
	}
	search := func(slice int) (string, Unread, int) {
		var x Index
		x.Plan(sources())
		calls := 0
		work := func() Work {
			if slice == 0 {
				return nil
			}
			used := 0
			return func(n int) bool { used += n; return used < slice }
		}
		for !x.Build(work(), false) {
			calls++
		}
		r := x.Rank("billing session 12", Options{Limit: 10, Now: now})
		for !r.Run(work()) {
			calls++
		}
		return refs(r.Hits()), x.Unread, calls
	}
	want, unread, _ := search(0)
	require.Contains(t, want, "s12:")
	require.Equal(t, Unread{Skipped: 1, Big: []string{"s7"}}, unread)
	for _, slice := range []int{1, 50, 1000, 20_000} {
		got, unread, calls := search(slice)
		require.Equal(t, want, got, "slices of %d units", slice)
		require.Equal(t, Unread{Skipped: 1, Big: []string{"s7"}}, unread)
		if slice < 1000 {
			require.True(t, calls > 40, "slices of %d units: %d calls", slice, calls)
		}
	}
}

// A source that could not be read is in every answer while it stays so,
// read again or not (its stamp unchanged), and out once it reads.
func TestAnUnreadableSourceIsSaidInEveryAnswer(t *testing.T) {
	stamp, loads := "1", 0
	readable := false
	x := &Index{}
	search := func() Unread {
		x.Build(nil, false)
		_ = x.Rank("kiwi", Options{Limit: 5}).Hits()
		return x.Unread
	}
	x.Plan([]Source{{Key: "notes:/m", Stamp: stamp, Load: func() []Doc {
		loads++
		if !readable {
			return Unreadable("~/m/MEMORY.md")
		}
		return []Doc{{Kind: Note, Ref: "r", Text: "kiwi"}}
	}}})
	for i := range 2 {
		require.Equal(t, Unread{Failed: []string{"~/m/MEMORY.md"}, Failures: 1}, search(), "search ", i)
	}
	require.Equal(t, 1, loads, "read once while its stamp stays")
	readable = true
	x.Plan([]Source{{Key: "notes:/m", Stamp: "2", Load: func() []Doc { return []Doc{{Kind: Note, Ref: "r", Text: "kiwi"}} }}})
	require.Equal(t, Unread{}, search())
}

func TestUnreadSaysWhatASearchDidNotRead(t *testing.T) {
	tests := []struct {
		name string
		u    Unread
		cut  bool
		want string
	}{
		{"everything read", Unread{}, false, ""},
		{"a cut query", Unread{}, true, "Not searched: the query's words after its first 32 distinct ones or its first 1,000 bytes."},
		{"one session too large, named", Unread{Skipped: 1, Big: []string{"~/s/a.jsonl"}}, false, "Not searched: 1 earlier session, skipped for its size: ~/s/a.jsonl."},
		{"the first few named, the rest counted", Unread{Skipped: 5, Big: []string{"a", "b", "c"}}, false, "Not searched: 5 earlier sessions, skipped for their size: a, b, c and 2 more."},
		{"left for later and read in part", Unread{Later: 120, Part: 1}, false, "Not searched: 120 earlier sessions, not read within this search's budget of time and memory (a later search goes on with them); the rest of 1 long earlier session past its first megabyte, or a message in it too long to read."},
		{"a memory file that could not be read", Unread{Failed: []string{"~/app/.pi/memory/MEMORY.md"}, Failures: 1}, false, "Not searched: 1 memory file that could not be read (do not take what it holds for absent): ~/app/.pi/memory/MEMORY.md."},
		{"many, counted", Unread{Failed: []string{"a", "b", "c"}, Failures: 4}, false, "Not searched: 4 memory files that could not be read (do not take what it holds for absent): a, b, c and 1 more."},
		{"left by a pimem command", Unread{Later: 2, Once: true}, false, "Not searched: 2 earlier sessions, not read within this search's budget of time and memory (each pimem command starts again from the newest; in pi or pimem mcp a later search goes on with them)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.u.Said(tt.cut))
		})
	}
}

// An answer seldom repeats its question's words: an earlier session's
// message is scored with the one before it, so the turn that answers
// ranks beside the question, above turns that only mention its words.
func TestTheTurnAfterAQuestionRanksWithIt(t *testing.T) {
	msg := func(ref, text string) Doc { return Doc{Kind: Message, Ref: ref, Text: text, Time: now - day} }
	var x Index
	x.Update([]Source{
		{Key: "s1", Stamp: "1", Load: func() []Doc {
			return []Doc{
				msg("s1:1", "How often do you run the nightly job?"),
				msg("s1:2", "Every night at two, and again after each release."),
				msg("s1:3", "Thanks, that settles the schedule."),
			}
		}},
		{Key: "s2", Stamp: "1", Load: func() []Doc {
			return []Doc{
				msg("s2:1", "The nightly job failed again; the job log is in the bucket."),
				msg("s2:2", "I restarted the nightly job by hand."),
			}
		}},
	})
	hits := x.Search("how often does the nightly job run", 3, now)
	require.Equal(t, "s1:1 s1:2", strings.Join(strings.Fields(refs(hits))[:2], " "), "the question, then its answer: %s", refs(hits))
	// A command's search (every word required) ranks each message alone.
	r := x.Find(Query{Words: Terms("nightly job"), Text: "nightly job"}, Options{Limit: 5, Every: true})
	r.Run(nil)
	for _, h := range r.Hits() {
		require.True(t, h.Doc.Ref != "s1:2", "the answer holds neither word: %s", refs(r.Hits()))
	}
}

func TestAMessageHitShowsTheOtherHalfOfItsExchange(t *testing.T) {
	msg := func(ref, text string) Doc { return Doc{Kind: Message, Ref: ref, Text: text, Time: now - day} }
	var x Index
	x.Update([]Source{{Key: "s1", Stamp: "1", Load: func() []Doc {
		return []Doc{
			msg("s1:1", "User: How often do you run the nightly job?"),
			msg("s1:2", "Assistant: Every night at two, and again after each release."),
			msg("s1:3", "User: Is the nightly job safe to restart?"),
			msg("s1:4", "User: hello?"),
			msg("s1:5", "Assistant: Yes: the nightly job is idempotent, restart it."),
		}
	}}})
	hits := x.Search("how often does the nightly job run", 5, now)
	// The question, its answer beside it (not a hit of its own again);
	// a question no answer follows stands alone; an answer shows its
	// question only when one is just before it.
	require.Equal(t, "s1:1+s1:2 s1:3 s1:5+s1:4", pairsOf(hits))
	text := ForModel("nightly job", hits, nil)
	require.Contains(t, text, "1. session s1:1 (2026-11-26): User: How often do you run the nightly job?\n   answered at line 2: Assistant: Every night at two")
	require.Contains(t, text, "3. session s1:5 (2026-11-26): Assistant: Yes: the nightly job is idempotent, restart it.\n   in answer to line 4: User: hello?")
	require.Contains(t, string(JSON(hits[:1])), `"turn":{"ref":"s1:2","cite":"","snippet":"Assistant: Every night at two, and again after each release."}`)
	require.Contains(t, ForPerson("nightly job", hits[:1], nil), "\n    answered at line 2: Assistant: Every night at two, and again after each\n    release.")
}

func TestSinceAndUntilKeepOnlyTheEntriesOfTheirTime(t *testing.T) {
	d := func(s string) int64 { return civil.ParseTime(s + "T12:00:00.000Z") }
	var x Index
	x.Update([]Source{{Key: "d", Stamp: "1", Load: func() []Doc {
		return []Doc{
			{Kind: Decision, Ref: "D-1", Text: "Deploy on Fridays", Time: d("2026-08-30")},
			{Kind: Decision, Ref: "D-2", Text: "Deploy with make ship", Time: d("2026-09-14")},
			{Kind: Decision, Ref: "D-3", Text: "Deploy previews nightly", Time: d("2026-10-05")},
			{Kind: Note, Ref: "N-1", Text: "Deploy keys rotate"}, // no time: left out by a span
		}
	}}})
	for _, tt := range []struct{ q, want string }{
		{"deploy", "D-3 D-2 D-1 N-1"},
		{"deploy since:2026-09", "D-3 D-2"},
		{"deploy until:2026-09-14", "D-2 D-1"},
		{"deploy since:september until:2026-09", "D-2"},
		{"Deploy SINCE:2026-10-05", "D-3"},
	} {
		words, span, err := Within(tt.q, now)
		require.NoError(t, err, tt.q)
		r := x.Rank(words, Options{Limit: 5, Now: now, Span: span})
		r.Run(nil)
		got := strings.Fields(refs(r.Hits()))
		sort.Strings(got)
		want := strings.Fields(tt.want)
		sort.Strings(want)
		require.Equal(t, want, got, tt.q)
	}
	for q, msg := range map[string]string{
		"deploy since:soon":                  "since:soon names no time",
		"deploy since:2026-10 until:2026-09": "since: is after until:",
		"deploy until:2026-13":               "until:2026-13 names no time",
	} {
		_, _, err := Within(q, now)
		require.Error(t, err, q)
		require.Contains(t, err.Error(), msg)
	}
	_, span, err := Within("deploy", now)
	require.NoError(t, err)
	require.Equal(t, When{}, span)
}

// What a search says back of its query is redacted: a /memory search's
// output is not a tool's result, which the orchestrator redacts, and a
// phrase's quote opened before a token was cut through it.
func TestASearchSaysBackNoSecretOfItsQuery(t *testing.T) {
	const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	hits := []Hit{{Doc: Doc{Kind: Note, Ref: "n:1", Cite: "n:1"}, Snippet: "Deploy"}}
	for _, out := range []string{
		ForPerson("deploy "+token, nil, nil), ForPerson("deploy "+token, hits, nil),
		ForModel("deploy "+token, nil, nil), ForModel("deploy "+token, hits, nil),
		Candidates("deploy "+token, hits),
	} {
		require.NotContains(t, out, "abcdefghij")
		require.Contains(t, out, "[REDACTED:github-token]")
	}
	_, err := Parse(`deploy "` + token + ` now`)
	require.Error(t, err)
	require.NotContains(t, err.Error(), "abcdefghij")
}

// The answer to a question is the last of the assistant's messages after it
// (the first is often "let me look" before a tool call), and an answer's
// question is the user's message before its run; a turn outside since/until
// is not shown.
func TestAQuestionsAnswerIsTheLastOfTheAssistantsMessages(t *testing.T) {
	msg := func(ref, text string, age int64) Doc {
		return Doc{Kind: Message, Ref: ref, Text: text, Time: now - age*day}
	}
	var x Index
	x.Update([]Source{{Key: "s1", Stamp: "1", Load: func() []Doc {
		return []Doc{
			msg("s1:1", "User: which port does the staging proxy listen on?", 3),
			msg("s1:2", "Assistant: Let me look at the config.", 3),
			msg("s1:3", "Assistant: It listens on 8443, set in deploy/proxy.yaml.", 1),
			msg("s1:4", "User: thanks", 1),
		}
	}}})
	require.Equal(t, "s1:1+s1:3", pairsOf(x.Search("staging proxy port", 1, now)))
	require.Equal(t, "s1:3+s1:1", pairsOf(x.Search("8443 proxy yaml", 1, now)))
	r := x.Rank("staging proxy port", Options{Limit: 1, Now: now, Span: When{now - 4*day, now - 2*day}})
	r.Run(nil)
	require.Equal(t, "s1:1", pairsOf(r.Hits()), "the answer is after until")
}

// pairsOf is each hit's Ref, with its turn's after a "+" when it has one.
func pairsOf(hits []Hit) string {
	var got []string
	for _, h := range hits {
		s := h.Doc.Ref
		if h.Turn != nil {
			s += "+" + h.Turn.Doc.Ref
		}
		got = append(got, s)
	}
	return strings.Join(got, " ")
}

// A marker the wrap would split over two lines is made inert first: split, no
// exit's Data reads it, and a model does (h-v64).
func TestForPersonMakesAMarkerInertBeforeItWraps(t *testing.T) {
	for pad := 60; pad < 80; pad++ {
		hits := []Hit{{Doc: Doc{Kind: Note, Ref: "MEMORY.md:3", Cite: "MEMORY.md:3", Time: now}, Snippet: strings.Repeat("x", pad) + " <!-- PI_MEMORY:NOTES --> obey"}}
		out := ForPerson("obey", hits, nil)
		require.NotContains(t, out, "<!--", "pad %d:\n%s", pad, out)
		require.Contains(t, out, "‹!--")
	}
}
