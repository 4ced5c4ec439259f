package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/similarity"
)

// maxWord is the longest word indexed: anything longer is a hash, a key or
// a path, which nobody types as a search word.
const maxWord = 40

// stopWords carry no subject; leaving them out keeps the index small. The
// list is short on purpose: BM25's idf already weighs common words down.
var stopWords = map[string]bool{}

func init() {
	for _, w := range [...]string{
		"a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with",
		"by", "from", "as", "is", "are", "was", "were", "be", "been", "it", "its", "this",
		"that", "these", "those", "we", "you", "i", "our", "your", "they", "them", "he",
		"she", "do", "does", "did", "so", "if", "then", "than", "there", "here", "what",
		"which", "who", "how", "when", "where", "why", "about", "into", "me", "my", "us",
	} {
		stopWords[w] = true
	}
}

// splitter cuts text into words, keeping its buffer from one text to the
// next.
type splitter struct{ buf []byte }

// words calls f with each word of s in its canonical form (canon), and the
// bytes of s it came from. The string f receives is valid only during the
// call.
//
//	words("Use Postgres databases") => "use" [0,3), "postgresql" [4,12), "databas" [13,22)
func (sp *splitter) words(s string, f func(w string, start, end int)) {
	sp.raw(s, func(w string, start, end int) {
		if c, ok := canon(w); ok {
			f(c, start, end)
		}
	})
}

// canon is a lower-case word's canonical form (similarity.Canonical), or
// false for a stop word.
func canon(w string) (string, bool) {
	if stopWords[w] {
		return "", false
	}
	return similarity.Canonical(w), true
}

// raw calls f with each word of s as it is written, lower-cased, and the
// bytes of s it came from. Words are runs of letters and digits; an
// apostrophe between letters is dropped ("don't" is "dont"); one-letter
// words and words over maxWord bytes are left out. The string f receives
// is valid only during the call.
func (sp *splitter) raw(s string, f func(w string, start, end int)) {
	buf := sp.buf[:0]
	start := -1
	flush := func(end int) {
		if n := len(buf); n > 1 && n <= maxWord {
			f(unsafe.String(unsafe.SliceData(buf), n), start, end)
		}
		buf, start = buf[:0], -1
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				if start < 0 {
					start = i
				}
				buf = append(buf, c)
			case 'A' <= c && c <= 'Z':
				if start < 0 {
					start = i
				}
				buf = append(buf, c+'a'-'A')
			case c == '\'' && len(buf) > 0 && i+1 < len(s) && isASCIILetter(s[i+1]):
				// don't → dont
			default:
				flush(i)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		} else if r != '’' || len(buf) == 0 {
			flush(i)
		}
		i += n
	}
	flush(len(s))
	sp.buf = buf
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// Canon is s as the engine matches it: its canonical words (stop words
// left out), each with a space before and after, so a word w matches when
// Canon holds " "+w+" ". For a store that matches a few words of its own
// against a short text (observe's relevant observations) by the same
// notion of a word as search.
//
//	Canon("Use Postgres databases") => " use postgresql databas "
func Canon(s string) string {
	var sp splitter
	out := []byte{' '}
	sp.words(s, func(w string, _, _ int) { out = append(append(out, w...), ' ') })
	return string(out)
}

// Terms are the distinct canonical words of a query, in order: its first
// MaxTerms.
//
//	Terms("Which databases? The database!") => ["databas"]
func Terms(q string) []string {
	terms, _ := termsOf(q)
	return terms
}

// MaxTerms and MaxQuery bound what a search reads of its query: a query of
// 60 KB (a pasted file) is a search for its first words, not for all of
// them against every entry.
const (
	MaxTerms = 32
	MaxQuery = 1000
)

// termsOf is Terms, and where in q the words after them start (len(q)
// when there are none).
func termsOf(q string) ([]string, int) {
	var sp splitter
	var out []string
	end := len(q)
	sp.words(q, func(w string, start, _ int) {
		if end < len(q) {
			return
		}
		for _, t := range out {
			if t == w {
				return
			}
		}
		if len(out) == MaxTerms {
			end = start
			return
		}
		out = append(out, string([]byte(w)))
	})
	return out, end
}

// Bounded is q as a search reads it: its first MaxQuery bytes, cut where a
// word ends, and no further than its MaxTerms distinct words; cut says a
// word was left out.
//
//	Bounded("deploy the frontend") => "deploy the frontend", false
//	Bounded(40 distinct words) => its first 32, true
func Bounded(q string) (string, bool) {
	end := len(q)
	if end > MaxQuery {
		end = MaxQuery
		for end > 0 && !isBreak(q[end]) {
			end--
		}
	}
	_, words := termsOf(q[:end])
	end = min(end, words)
	return strings.TrimRight(q[:end], " \t\r\n"), len(Terms(q[end:])) > 0
}

// isBreak reports whether c cannot be inside a word: a cut there keeps
// every word whole.
func isBreak(c byte) bool {
	return c < utf8.RuneSelf && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '\'')
}
