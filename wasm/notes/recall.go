package notes

import (
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/similarity"
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

// query is a parsed recall query. Words and Phrases are in similarity's
// normalised form (lower case, punctuation dropped), without repeats.
type query struct {
	Words   []string // a page matches if it has at least one of them
	Phrases []string // a page matches only if it has every one of them, word for word
	Scope   string   // "", "global", "project" or "local"; "" searches every scope
	Raw     string   // the query as given
}

var recallScopes = [...]string{"global", "project", "local"}

// parseQuery reads a recall query: words, "quoted phrases" and at most one
// scope:global, scope:project or scope:local. Words are split the way
// similarity.Normalize splits them, so "kebab-case" is the two words "kebab"
// and "case". Curly quotes (“…”) work like straight ones.
//
//	parseQuery(`Tests "build cache" scope:project`)
//	  => Words ["tests"], Phrases ["build cache"], Scope "project"
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
		return query{}, errors.New("query is " + strconv.Itoa(len(q)) +
			" bytes, over the limit of 1,000: search for a few distinctive words instead")
	}
	out := query{Raw: q}
	terms := 0
	for i := 0; i < len(q); {
		r, size := utf8.DecodeRuneInString(q[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case isQuote(r):
			start := i + size
			end, closeSize := start, 0
			for end < len(q) {
				c, n := utf8.DecodeRuneInString(q[end:])
				if isQuote(c) {
					closeSize = n
					break
				}
				end += n
			}
			if closeSize == 0 {
				return query{}, errors.New("unbalanced quote: nothing closes the \" " + openedBefore(q[start:]) +
					`; write a phrase between two quotes, as in "build cache"`)
			}
			if p := similarity.Normalize(q[start:end]); p != "" && !hasWord(out.Phrases, p) {
				out.Phrases = append(out.Phrases, p)
				terms++
			}
			i = end + closeSize
		default:
			end := i
			for end < len(q) {
				c, n := utf8.DecodeRuneInString(q[end:])
				if unicode.IsSpace(c) || isQuote(c) {
					break
				}
				end += n
			}
			tok := q[i:end]
			i = end
			if len(tok) >= len("scope:") && strings.EqualFold(tok[:len("scope:")], "scope:") {
				s, err := queryScope(tok[len("scope:"):], out.Scope)
				if err != nil {
					return query{}, err
				}
				out.Scope = s
				continue
			}
			for _, w := range strings.Fields(similarity.Normalize(tok)) {
				if !hasWord(out.Words, w) {
					out.Words = append(out.Words, w)
					terms++
				}
			}
		}
		if terms > maxQueryTerms {
			return query{}, errors.New("query has more than 32 words and phrases: keep the few that only the note you want would contain")
		}
	}
	if terms == 0 {
		return query{}, errors.New(`query has no words: give at least one word or "quoted phrase", e.g. sccache "build cache" scope:project`)
	}
	return out, nil
}

// queryScope checks the value of a scope: term against the scope already
// named, if any.
func queryScope(value, prev string) (string, error) {
	v := strings.ToLower(value)
	known := false
	for _, s := range recallScopes {
		known = known || v == s
	}
	if !known {
		return "", errors.New("unknown scope " + strconv.Quote(value) + ": write scope:global, scope:project or scope:local")
	}
	if prev != "" && prev != v {
		return "", errors.New("two scopes, " + prev + " and " + v + ": name at most one, or none to search every scope")
	}
	return v, nil
}

// openedBefore names where an unclosed quote is, by the text that follows it
// (at most 40 bytes, cut at a rune).
func openedBefore(rest string) string {
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return "at the end of the query"
	}
	if len(rest) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(rest[cut]) {
			cut--
		}
		rest = rest[:cut] + "…"
	}
	return "opened before " + strconv.Quote(rest)
}

func isQuote(r rune) bool { return r == '"' || r == '“' || r == '”' }

func hasWord(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
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

// headingWeight keeps a heading below every fact or pointer that matches the
// same words: a heading names a section, the facts under it say something.
const headingWeight = 0.9

// recall ranks the pages of docs against q, best first, at most limit hits
// (every hit when limit is negative, none when it is 0).
//
// Words and page texts are compared in canonical form: similarity.Normalize,
// then a light stem, so "Tests", "testing" and "tested" all find "test". A
// page matches when it holds every phrase (as consecutive canonical words)
// and, if q has words, at least one of them. Its score is
//
//	(Σ idf(matched word) + Σ over phrases Σ idf(phrase word)) / (1 + ln(1 + words in page)/4)
//
// with idf(w) = ln(1 + N/df(w)) over the N pages of all docs, whatever the
// scope filter, so adding scope: never reorders what it keeps. Rare words
// count most; the gentle length term puts a short precise fact above a long
// paragraph with the same words. A heading is divided by the length term of
// the longest fact or pointer of all docs instead (when larger than its own)
// and weighted by 0.9, so it never outranks a fact or pointer with the same
// matches. Equal scores order by scope (project, local, global), then File,
// then Line.
//
//	docs: project MEMORY.md: 3 "- Run tests with -race", 9 "Our tests are slow because…" (text, 60 words)
//	recall(parseQuery("testing"), docs, 5) => [MEMORY.md:3, MEMORY.md:9]
func recall(q query, docs []doc, limit int) []hit {
	if limit == 0 {
		return nil
	}
	// Re-normalise: a query built by hand is searched as its parsed form would be.
	var words []string
	for _, w := range q.Words {
		for _, f := range strings.Fields(similarity.Normalize(w)) {
			if s := recallStem(f); !hasWord(words, s) {
				words = append(words, s)
			}
		}
	}
	var phrases [][]string
	for _, p := range q.Phrases {
		if ws := recallWords(p); len(ws) > 0 {
			phrases = append(phrases, ws)
		}
	}
	if len(words) == 0 && len(phrases) == 0 {
		return nil
	}
	// terms holds every distinct word of the query; df and weight are indexed by it.
	terms := append([]string(nil), words...)
	for _, ws := range phrases {
		for _, w := range ws {
			if !hasWord(terms, w) {
				terms = append(terms, w)
			}
		}
	}

	// First pass, over every doc: document frequencies, the page count and
	// the longest fact, all independent of the scope filter.
	pageWords := make([][][]string, len(docs))
	df := make([]int, len(terms))
	n := 0
	maxFactNorm := 0.0
	for d := range docs {
		pageWords[d] = make([][]string, len(docs[d].Pages))
		for p := range docs[d].Pages {
			pg := &docs[d].Pages[p]
			ws := recallWords(pg.Text)
			pageWords[d][p] = ws
			if len(ws) == 0 {
				continue
			}
			n++
			for t, term := range terms {
				if hasWord(ws, term) {
					df[t]++
				}
			}
			if pg.Kind == kindFact || pg.Kind == kindPointer {
				maxFactNorm = math.Max(maxFactNorm, lengthNorm(len(ws)))
			}
		}
	}
	weight := make([]float64, len(terms))
	for t := range terms {
		if df[t] > 0 {
			weight[t] = math.Log(1 + float64(n)/float64(df[t]))
		}
	}

	var hits []hit
	for d := range docs {
		if q.Scope != "" && docs[d].Scope != q.Scope {
			continue
		}
		for p := range docs[d].Pages {
			ws := pageWords[d][p]
			raw, ok := recallScore(ws, words, phrases, terms, weight)
			if !ok {
				continue
			}
			pg := docs[d].Pages[p]
			norm := lengthNorm(len(ws))
			if pg.Kind == kindHeading {
				raw *= headingWeight
				norm = math.Max(norm, maxFactNorm)
			}
			hits = append(hits, hit{Scope: docs[d].Scope, File: docs[d].File, Page: pg, Score: raw / norm})
		}
	}
	sort.Stable(byRank(hits))
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

// recallScore is a page's score before length normalisation, and whether
// the page matches at all.
func recallScore(page, words []string, phrases [][]string, terms []string, weight []float64) (float64, bool) {
	if len(page) == 0 {
		return 0, false
	}
	for _, ph := range phrases {
		if !hasRun(page, ph) {
			return 0, false
		}
	}
	score := 0.0
	matched := len(words) == 0 // phrases alone decide when there are no loose words
	for t, w := range words {  // words come first in terms, so t indexes weight
		if hasWord(page, w) {
			score += weight[t]
			matched = true
		}
	}
	if !matched {
		return 0, false
	}
	for _, ph := range phrases {
		for _, w := range ph {
			for t, term := range terms {
				if term == w {
					score += weight[t]
					break
				}
			}
		}
	}
	return score, true
}

// hasRun reports whether run occurs in words as consecutive words, so the
// phrase "build cache" does not match "rebuild caches" but does match "the
// build caches".
func hasRun(words, run []string) bool {
	for i := 0; i+len(run) <= len(words); i++ {
		j := 0
		for j < len(run) && words[i+j] == run[j] {
			j++
		}
		if j == len(run) {
			return true
		}
	}
	return false
}

// lengthNorm grows slowly with a page's word count: a 60-word paragraph is
// divided by about 2, a 6-word fact by about 1.5.
func lengthNorm(words int) float64 { return 1 + math.Log(1+float64(words))/4 }

// recallWords is a text's canonical words in order.
func recallWords(text string) []string {
	ws := strings.Fields(similarity.Normalize(text))
	for i, w := range ws {
		ws[i] = recallStem(w)
	}
	return ws
}

// recallStem cuts the regular English endings a note and a query differ by,
// so "tests", "testing" and "tested" all become "test", and "cache",
// "caches", "cached" and "caching" all become "cach". It only looks at ASCII
// endings, so other scripts pass through whole.
//
// (similarity has a stemmer of its own, tuned for decision texts and not
// exported; this one is kept small and only has to agree with itself.)
func recallStem(w string) string {
	n := len(w)
	if n <= 2 {
		return w
	}
	// Plurals: libraries → library, classes → class, tests → test; but keep
	// the s of "status", "this", "class" and short words like "gas".
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
	case n > 3 && w[n-1] == 's':
		w = w[:n-1]
	}
	// Verb endings, when a syllable is left: testing → test, running → run,
	// used → use (the e comes back on a short vowel-consonant stem), but not
	// "string", "need" or "red".
	stem, cut := "", false
	switch {
	case strings.HasSuffix(w, "ing"):
		stem, cut = w[:len(w)-3], true
	case strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		stem, cut = w[:len(w)-2], true
	}
	if cut && len(stem) >= 2 && hasVowelByte(stem) {
		if k := len(stem); k >= 4 && stem[k-1] == stem[k-2] && stem[k-1] < utf8.RuneSelf && !isVowelByte(stem[k-1]) &&
			stem[k-1] != 'l' && stem[k-1] != 's' && stem[k-1] != 'z' {
			stem = stem[:k-1] // runn → run, but install, pass, buzz stay
		}
		if len(stem) == 2 && isVowelByte(stem[0]) && isConsonantByte(stem[1]) &&
			stem[1] != 'w' && stem[1] != 'x' && stem[1] != 'y' {
			stem += "e" // us → use, ag → age
		}
		w = stem
	}
	// A silent e, so "cache" meets "caching"; "use" and "tree" stay whole.
	if k := len(w); k > 3 && w[k-1] == 'e' && w[k-2] != 'e' {
		w = w[:k-1]
	}
	return w
}

func isVowelByte(c byte) bool {
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'
}

func isConsonantByte(c byte) bool { return c >= 'a' && c <= 'z' && !isVowelByte(c) }

func hasVowelByte(s string) bool {
	for i := 0; i < len(s); i++ {
		if isVowelByte(s[i]) || s[i] == 'y' {
			return true
		}
	}
	return false
}

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
