package search

import (
	"strings"
	"unicode/utf8"

	textpkg "github.com/pi-memory/pi-memory/wasm/internal/text"

	"github.com/pi-memory/pi-memory/wasm/redact"
)

// snippetBytes is the most of an entry's text a hit shows: about two lines
// at 80 columns.
const snippetBytes = 160

// Snippet is the part of an entry a hit shows: its text on one line (the
// title first when the text does not start with it), whole when it fits in
// max bytes, else the window of max bytes holding the most distinct query
// words, cut at word boundaries and marked with "…". Secrets are redacted.
//
//	Snippet(Doc{Text: "… long text … the database moved to PostgreSQL 16 last week …"}, ["databas"], 40)
//	  => "…the database moved to PostgreSQL 16…"
func Snippet(d *Doc, terms []string, max int) string {
	text := textpkg.OneLine(d.Text)
	if t := textpkg.OneLine(d.Title); t != "" && !strings.HasPrefix(text, strings.TrimRight(t, ".…")) {
		if text == "" {
			text = t
		} else {
			text = t + " — " + text
		}
	}
	text, _ = redact.String(text)
	if len(text) <= max {
		return text
	}
	// Where each query word occurs.
	type at struct{ start, term int }
	var found []at
	var sp splitter
	sp.words(text, func(w string, start, _ int) {
		for t, q := range terms {
			if q == w {
				found = append(found, at{start, t})
				return
			}
		}
	})
	// The window from an eighth of max before each occurrence, slid along
	// them once: the occurrences in it and how many of each word.
	lo := 0
	count := make([]int, len(terms))
	bestN, in, left, right := 0, 0, 0, 0
	for _, f := range found {
		from := f.start - max/8
		if from < 0 {
			from = 0
		}
		for ; right < len(found) && found[right].start < from+max; right++ {
			if count[found[right].term]++; count[found[right].term] == 1 {
				in++
			}
		}
		for ; found[left].start < from; left++ {
			if count[found[left].term]--; count[found[left].term] == 0 {
				in--
			}
		}
		if in > bestN {
			lo, bestN = from, in
		}
	}
	hi := lo + max
	if hi > len(text) {
		hi = len(text)
		if lo = hi - max; lo < 0 {
			lo = 0
		}
	}
	// Whole words only.
	if lo > 0 {
		if i := strings.IndexByte(text[lo:hi], ' '); i >= 0 && i < max/3 {
			lo += i + 1
		} else {
			for lo < hi && !utf8.RuneStart(text[lo]) {
				lo++
			}
		}
	}
	if hi < len(text) {
		if i := strings.LastIndexByte(text[lo:hi], ' '); i > (hi-lo)*2/3 {
			hi = lo + i
		} else {
			for hi > lo && !utf8.RuneStart(text[hi]) {
				hi--
			}
		}
	}
	s := strings.TrimSpace(text[lo:hi])
	if lo > 0 {
		s = "…" + s
	}
	if hi < len(text) {
		s += "…"
	}
	return s
}
