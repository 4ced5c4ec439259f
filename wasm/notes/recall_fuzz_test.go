package notes

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
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
		require.True(t, (err == nil) == (err2 == nil) && reflect.DeepEqual(q, again), "parsing %q twice gave %#v, %v and %#v, %v", in, q, err, again, err2)
		if err != nil {
			require.True(t, err.Error() != "", "%q: empty error message", in)
			return
		}
		n := len(q.Words) + len(q.Phrases)
		require.True(t, n >= 1 && n <= maxQueryTerms, "%q parsed to %d terms: %#v", in, n, q)
		require.Equal(t, in, q.Raw, "Raw")
		require.True(t, q.Scope == "" || q.Scope == "global" || q.Scope == "project" || q.Scope == "local", "%q: scope %q", in, q.Scope)
		for _, w := range append(append([]string(nil), q.Words...), q.Phrases...) {
			require.True(t, w != "" && strings.TrimSpace(w) == w, "%q: term %q is empty or padded", in, w)
		}
		for _, w := range q.Words {
			require.NotContains(t, w, " ", "%q: a word holds a space", in)
		}
		// Whatever parses can be searched.
		Recall(q, []Doc{{Scope: "project", File: "MEMORY.md", Pages: []Page{{Kind: Fact, Line: 1, Text: in}}}}, 3)
	})
}
