package search

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// Query is a search as a command reads it: its words, its "quoted phrases"
// and its filters, each word in the canonical form the index keeps (words.go),
// so a command and memory_search agree on what matches.
type Query struct {
	// Words are the distinct canonical words outside quotes, in order.
	Words []string
	// Phrases are the canonical words of each quoted phrase: an entry
	// matches only if it holds each as consecutive words.
	Phrases [][]string
	// Filters are the name:value words whose name the caller asked for
	// (Parse's names), in order, the name and value lower-cased.
	Filters []Filter
	// Said counts what was searched for, as written: distinct words (stop
	// words too) and phrases. A query of stop words only has Said > 0 and
	// no Words.
	Said int
	// Text is the query without its filters, for the similarity rerank.
	Text string
}

// Filter is a name:value word of a query ("status:active,draft"): Value
// lower-cased, Said as written, for an error to say back (redacted: a
// secret lower-cased is no longer known by its shape).
type Filter struct{ Name, Value, Said string }

// Parse reads a command's query: words, "quoted phrases" (curly quotes work
// like straight ones) and name:value filters for the names given; a word
// like name:value with any other name is searched as words.
//
//	Parse(`Tests "build cache" scope:project`, "scope")
//	  => Words ["test"], Phrases [["build" "cach"]], Filters [{scope project}]
//	Parse(`"build cache`) => error: unbalanced quote: nothing closes the " opened before "build cache"; …
func Parse(q string, filters ...string) (Query, error) {
	var out Query
	var sp splitter
	var said []string
	// say counts k once; false when it was said before.
	say := func(k string) bool {
		if slices.Contains(said, k) {
			return false
		}
		said = append(said, strings.Clone(k))
		return true
	}
	// Words end at a space or a quote; a phrase ends at a quote only.
	inside, start := false, 0
	for i := 0; i <= len(q); {
		n := 0 // the length of a quote at i
		switch {
		case i == len(q):
		case q[i] == '"':
			n = 1
		case strings.HasPrefix(q[i:], "“"), strings.HasPrefix(q[i:], "”"):
			n = 3
		case inside || q[i] > ' ':
			i++
			continue
		}
		seg := q[start:i]
		if inside {
			if n == 0 {
				return Query{}, errors.New("unbalanced quote: nothing closes the \" " + openedBefore(seg) +
					`; write a phrase between two quotes, as in "build cache"`)
			}
			var ph []string
			var kb strings.Builder // grown once: a phrase of many words copied the key for each
			kb.WriteString("\"")
			sp.raw(seg, func(w string, _, _ int) {
				kb.WriteString(" " + w)
				if c, ok := canon(w); ok {
					ph = append(ph, strings.Clone(c))
				}
			})
			key := kb.String()
			if key == "\"" && wordy(seg) {
				key += strings.ToLower(seg) // a phrase of one-letter words is said, and finds nothing
			}
			if len(key) > 1 && say(key) && len(ph) > 0 {
				out.Phrases = append(out.Phrases, ph)
			}
		} else if f, ok := filterOf(seg, filters); ok {
			out.Filters = append(out.Filters, f)
			seg = ""
		} else {
			n := len(said)
			sp.raw(seg, func(w string, _, _ int) {
				if c, ok := canon(w); say(w) && ok && !slices.Contains(out.Words, c) {
					out.Words = append(out.Words, strings.Clone(c))
				}
			})
			if n == len(said) && wordy(seg) {
				say(strings.ToLower(seg)) // "x": said, and finds nothing
			}
		}
		if seg != "" {
			out.Text += seg + " "
		}
		if n > 0 {
			inside = !inside
		}
		i += max(n, 1)
		start = i
	}
	out.Said = len(said)
	out.Text = strings.TrimSpace(out.Text)
	return out, nil
}

// filterOf reads tok as a filter when its name, before the colon, is one
// of names (in any case).
func filterOf(tok string, names []string) (Filter, bool) {
	colon := strings.IndexByte(tok, ':')
	for _, n := range names {
		if colon > 0 && strings.EqualFold(n, tok[:colon]) {
			return Filter{Name: n, Value: strings.ToLower(tok[colon+1:]), Said: tok[colon+1:]}, true
		}
	}
	return Filter{}, false
}

// openedBefore names where an unclosed quote is, by the text that follows it
// (redacted, then at most 40 bytes, cut at a rune: a token cut first would
// no longer be known, and most of it said).
func openedBefore(rest string) string {
	rest, _ = redact.String(text.Whole(strings.TrimSpace(rest), 4<<10))
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

// wordy reports whether s holds a letter or a digit (or any character
// beyond ASCII): a word a person said, even one too short to be indexed.
func wordy(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isBreak(s[i]) && s[i] != '\'' {
			return true
		}
	}
	return false
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
