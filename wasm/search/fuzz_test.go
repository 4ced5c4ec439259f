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

// A part keeps its entries' strings in one blob and their numbers in one
// array (decision 018): whatever the strings, each entry comes back as it
// was given, redaction aside, and a Ref that begins with the source's key
// comes back whole.
func FuzzAPartGivesBackItsEntries(f *testing.F) {
	f.Add("/s/a.jsonl", "/s/a.jsonl:2", "cite", "active", "title", "text", "extra", int64(1795737600000))
	f.Add("k", "k", "", "", "", "", "", int64(-1))
	f.Add("", "D-1", "\xff", "superseded", "東京", "a\nb", "", int64(0))
	f.Fuzz(func(t *testing.T, key, ref, cite, mark, title, text, extra string, at int64) {
		in := []Doc{
			{Kind: Message, Ref: ref, Cite: cite, Mark: mark, Title: title, Text: text, Extra: extra, Time: at},
			{Kind: Decision, Ref: key + ref, Text: text, Gone: true},
		}
		var x Index
		x.Update([]Source{{Key: key, Stamp: "1", Load: func() []Doc { return append([]Doc(nil), in...) }}})
		p := x.order[0]
		if p.docs != 2 || p.stampOf() != "1" {
			t.Fatalf("%d entries, stamp %q", p.docs, p.stampOf())
		}
		for i, want := range in {
			hide(&want)
			if got := p.doc(int32(i)); got != want {
				t.Fatalf("entry %d: %+v, want %+v", i, got, want)
			}
			if p.kind(int32(i)) != want.Kind || p.gone(int32(i)) != want.Gone || p.time(int32(i)) != want.Time {
				t.Fatalf("entry %d: its numbers differ", i)
			}
		}
	})
}

// FuzzParse: a command's query comes from a person or the model. Parsing
// never panics, is the same twice, keeps only the filters asked for, and
// every word it gives is one Terms reads in the query too (the index's
// canonical form).
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "sccache", `Tests "build cache" scope:project`, `"unclosed`, `"a" "b`,
		"status:active,draft tag:#DB pg", `“curly” quotes`, "Éviter 日本語", "\xff\xfe bad", "the of", `"" x`, "tag: status:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		q, err := Parse(in, "scope", "tag")
		again, err2 := Parse(in, "scope", "tag")
		if (err == nil) != (err2 == nil) || len(q.Words) != len(again.Words) || len(q.Phrases) != len(again.Phrases) {
			t.Fatalf("parsing %q twice: %#v, %v and %#v, %v", in, q, err, again, err2)
		}
		if err != nil {
			return
		}
		for _, f := range q.Filters {
			if f.Name != "scope" && f.Name != "tag" {
				t.Fatalf("%q: filter %q not asked for", in, f.Name)
			}
		}
		if q.Said < len(q.Words) {
			t.Fatalf("%q: said %d < %d words", in, q.Said, len(q.Words))
		}
		if all := Terms(in); len(all) < MaxTerms {
			for _, w := range q.Words {
				found := false
				for _, x := range all {
					found = found || x == w
				}
				if !found {
					t.Fatalf("%q: word %q is not among its Terms %q", in, w, all)
				}
			}
		}
		for _, ph := range q.Phrases {
			if len(ph) == 0 {
				t.Fatalf("%q: an empty phrase", in)
			}
		}
	})
}
