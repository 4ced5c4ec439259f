package notes

import (
	"github.com/pi-memory/pi-memory/internal/require"
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
		q, err := parseQuery(in)
		again, err2 := parseQuery(in)
		require.True(t, (err == nil) == (err2 == nil) && reflect.DeepEqual(q, again), "parsing %q twice gave %#v, %v and %#v, %v", in, q, err, again, err2)
		if err != nil {
			require.True(t, err.Error() != "", "%q: empty error message", in)
			return
		}
		require.True(t, q.Said >= 1 && q.Said <= maxQueryTerms, "%q parsed to %d terms: %#v", in, q.Said, q)
		require.Equal(t, in, q.Raw, "Raw")
		require.True(t, q.Scope == "" || q.Scope == "global" || q.Scope == "project" || q.Scope == "local", "%q: scope %q", in, q.Scope)
		// Whatever parses can be searched.
		recall(q, []doc{{Scope: "project", File: "MEMORY.md", Pages: []page{{Kind: kindFact, Line: 1, Text: in}}}}, 3)
	})
}
