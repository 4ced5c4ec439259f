package notes

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParseQuery hunts for panics in the query parser, which reads whatever a
// person or the agent types, and checks what a successful parse promises.
func FuzzParseQuery(f *testing.F) {
	for _, seed := range []string{
		"", " ", "sccache", `Tests "build cache" scope:project`, `"unclosed`, `"a" "b`,
		"scope:team x", "scope:project scope:global x", "scope:", `“curly” quotes`,
		"kebab-case C++ C#", "Éviter 日本語 🚀", "\xff\xfe bad utf8", manyTerms(33), strings.Repeat("a ", 501),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		q, err := ParseQuery(in)
		again, err2 := ParseQuery(in)
		if (err == nil) != (err2 == nil) || !reflect.DeepEqual(q, again) {
			t.Fatalf("parsing %q twice gave %#v, %v and %#v, %v", in, q, err, again, err2)
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: empty error message", in)
			}
			return
		}
		if n := len(q.Words) + len(q.Phrases); n < 1 || n > maxQueryTerms {
			t.Fatalf("%q parsed to %d terms: %#v", in, n, q)
		}
		if q.Raw != in {
			t.Fatalf("Raw = %q, want %q", q.Raw, in)
		}
		switch q.Scope {
		case "", "global", "project", "local":
		default:
			t.Fatalf("%q: scope %q", in, q.Scope)
		}
		for _, w := range append(append([]string(nil), q.Words...), q.Phrases...) {
			if w == "" || strings.TrimSpace(w) != w {
				t.Fatalf("%q: term %q is empty or padded", in, w)
			}
		}
		for _, w := range q.Words {
			if strings.Contains(w, " ") {
				t.Fatalf("%q: word %q holds a space", in, w)
			}
		}
		// Whatever parses can be searched.
		Recall(q, []Doc{{Scope: "project", File: "MEMORY.md", Pages: []Page{{Kind: Fact, Line: 1, Text: in}}}}, 3)
	})
}
