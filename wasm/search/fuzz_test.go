package search

import (
	"strings"
	"testing"
	"unicode/utf8"

	textpkg "github.com/pi-memory/pi-memory/wasm/internal/text"
)

// A query comes from the model or a person and an entry from any file:
// neither may panic the index, and a snippet stays valid UTF-8 within its
// bound (plus its two "…").
func FuzzSearch(f *testing.F) {
	f.Add("databases", "Use PostgreSQL for the primary database")
	f.Add("don't", "don’t café 東京 'quoted'")
	f.Add("", "\xff\xfe broken utf-8")
	f.Fuzz(func(t *testing.T, q, text string) {
		var x Index
		x.Update([]Source{{Key: "k", Stamp: "1", Load: func() []Doc {
			return []Doc{{Kind: Note, Ref: "a", Text: text}, {Kind: Decision, Ref: "b", Title: q, Text: text, Time: 1}}
		}}})
		hits := x.Search(q, 5, now)
		if len(hits) > 2 {
			t.Fatalf("%d hits from 2 entries", len(hits))
		}
		s := Snippet(&Doc{Text: text}, Terms(q), 40)
		if utf8.ValidString(text) && !utf8.ValidString(s) {
			t.Fatalf("snippet %q of valid text is not UTF-8", s)
		}
		if len(strings.TrimSuffix(strings.TrimPrefix(s, "…"), "…")) > 40 && len(textpkg.OneLine(text)) > 40 {
			t.Fatalf("snippet %q over 40 bytes", s)
		}
	})
}
