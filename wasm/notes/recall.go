package notes

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"sort"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/search"
)

// reason is the one code a recall answers with (decision record 005). The
// core computes hits; the caller picks the reason, because only it knows
// whether the store is on, the project trusted and the files readable.
type reason string

const (
	reasonOK           reason = "ok"            // at least one hit
	reasonNoMatch      reason = "no_match"      // memory was searched and nothing matched
	reasonDenied       reason = "denied"        // the store is off, or the query names the scope of an untrusted project
	reasonMalformed    reason = "malformed"     // parseQuery returned an error
	reasonUnavailable  reason = "unavailable"   // no memory file exists in the scopes searched
	reasonBackendError reason = "backend_error" // a memory file exists but could not be read
)

// Limits on a recall query. A query is a few words typed by a person or the
// agent; anything far beyond that is a paste or a loop gone wrong, and is
// refused with a message rather than searched slowly.
const (
	maxQueryBytes = 1000
	maxQueryTerms = 32
)

// query is a parsed recall query: what search.Parse reads (words, "quoted
// phrases"), and at most one scope:global, scope:project or scope:local.
type query struct {
	search.Query
	Scope string // "", "global", "project" or "local"; "" searches every scope
	Raw   string // the query as given
}

var recallScopes = [...]string{"global", "project", "local"}

// parseQuery reads a recall query with the search engine's parser
// (search.Parse), so recall and memory_search agree on a word: "Tests" is
// the word "test", "kebab-case" the two words "kebab" and "case". Curly
// quotes (“…”) work like straight ones.
//
//	parseQuery(`Tests "build cache" scope:project`)
//	  => Words ["test"], Phrases [["build" "cach"]], Scope "project"
//	parseQuery(`"build cache`)
//	  => error: unbalanced quote: nothing closes the " opened before "build cache"; write a phrase between two quotes, as in "build cache"
//	parseQuery("scope:team sccache")
//	  => error: unknown scope "team": write scope:global, scope:project or scope:local
//
// It refuses (the caller answers reasonMalformed) a query longer than 1,000
// bytes, one with an unbalanced quote, an unknown or second scope, more than
// 32 words and phrases, or none at all.
func parseQuery(q string) (query, error) {
	if len(q) > maxQueryBytes {
		return query{}, errors.New("query is " + numstr.Itoa(len(q)) +
			" bytes, over the limit of 1,000: search for a few distinctive words instead")
	}
	parsed, err := search.Parse(q, "scope")
	if err != nil {
		return query{}, err
	}
	out := query{Query: parsed, Raw: q}
	for _, f := range parsed.Filters {
		s, err := queryScope(f.Value, out.Scope)
		if err != nil {
			return query{}, err
		}
		out.Scope = s
	}
	if parsed.Said > maxQueryTerms {
		return query{}, errors.New("query has more than 32 words and phrases: keep the few that only the note you want would contain")
	}
	if parsed.Said == 0 {
		return query{}, errors.New(`query has no words: give at least one word or "quoted phrase", e.g. sccache "build cache" scope:project`)
	}
	return out, nil
}

// queryScope checks the value of a scope: term against the scope already
// named, if any.
func queryScope(v, prev string) (string, error) {
	known := false
	for _, s := range recallScopes {
		known = known || v == s
	}
	if !known {
		return "", errors.New("unknown scope " + strconv.Quote(v) + ": write scope:global, scope:project or scope:local")
	}
	if prev != "" && prev != v {
		return "", errors.New("two scopes, " + prev + " and " + v + ": name at most one, or none to search every scope")
	}
	return v, nil
}

// doc is one searched file: its scope, display path and pages.
type doc struct {
	Scope string // "global", "project" or "local"
	File  string // as shown to the person: "MEMORY.md", "build.md"
	Pages []page
}

// hit is one matching page.
type hit struct {
	Scope, File string
	Page        page
	Score       float64
}

// recall ranks the pages of docs against q, best first, at most limit hits
// (every hit when limit is negative, none when it is 0), with the ranking
// memory_search uses (search.Index.Find) over the entries memory_search
// reads (searchable): facts, pointers and paragraphs, each searched with
// the heading of its section. A page matches when it holds a word of q and
// each of its phrases, and is of q's scope when it names one. Equal scores
// order by scope (project, local, global), then File, then Line.
//
//	docs: project MEMORY.md: 3 "- Run tests with -race", 9 "Our tests are slow because…" (text, 60 words)
//	recall(parseQuery("testing"), docs, 5) => [MEMORY.md:3, MEMORY.md:9]
func recall(q query, docs []doc, limit int) []hit {
	if limit == 0 {
		return nil
	}
	type at struct{ d, p int }
	var where []at
	srcs := make([]search.Source, len(docs))
	for d := range docs {
		var entries []search.Doc
		for p := range docs[d].Pages {
			pg := &docs[d].Pages[p]
			if !searchable(pg) {
				continue
			}
			entries = append(entries, search.Doc{Kind: search.Note, Ref: numstr.Itoa(len(where)), Text: pg.Text, Extra: pg.Section})
			where = append(where, at{d, p})
		}
		srcs[d] = search.Source{Key: numstr.Itoa(d), Stamp: "1", Load: func() []search.Doc { return entries }}
	}
	if len(where) == 0 {
		return nil
	}
	var x search.Index
	x.Plan(srcs)
	x.Build(nil, false)
	o := search.Options{Limit: len(where)}
	if q.Scope != "" {
		// Filtered, not left out: every scope's pages count in the words'
		// weights, so naming a scope never reorders what it keeps.
		o.Keep = func(key, _ string) bool {
			d, _ := strconv.Atoi(key)
			return docs[d].Scope == q.Scope
		}
	}
	r := x.Find(q.Query, o)
	r.Run(nil)
	var hits []hit
	for _, h := range r.Hits() {
		i, _ := strconv.Atoi(h.Doc.Ref)
		w := where[i]
		hits = append(hits, hit{Scope: docs[w.d].Scope, File: docs[w.d].File, Page: docs[w.d].Pages[w.p], Score: h.Score})
	}
	sort.Stable(byRank(hits))
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

// searchable reports whether a page is an entry of search: a fact, a
// pointer or a paragraph (a heading is searched as the section of the
// pages under it).
func searchable(p *page) bool { return p.Kind != kindHeading && p.Text != "" }

// byRank orders hits best first. sort.Interface rather than sort.Slice: no
// reflection under TinyGo.
type byRank []hit

func (h byRank) Len() int      { return len(h) }
func (h byRank) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h byRank) Less(i, j int) bool {
	a, b := &h[i], &h[j]
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	if ra, rb := scopeRank(a.Scope), scopeRank(b.Scope); ra != rb {
		return ra < rb
	}
	if a.Scope != b.Scope {
		return a.Scope < b.Scope
	}
	if a.File != b.File {
		return a.File < b.File
	}
	return a.Page.Line < b.Page.Line
}

// scopeRank is the injection priority of decision record 005: project, local,
// global; any other scope after them.
func scopeRank(s string) int {
	switch s {
	case "project":
		return 0
	case "local":
		return 1
	case "global":
		return 2
	}
	return 3
}
