package notes

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/similarity"
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
		recall(q, []doc{{Scope: "project", File: "MEMORY.md", Pages: []page{{Kind: kindFact, Line: 1, Text: in}}}}, 3)
	})
}

// FuzzRecallWords: the word scanner recall matches pages and queries with,
// on any text. Each word is the stem of one of Normalize's words: not empty,
// no longer than that word, still valid UTF-8, and changed only in its ASCII
// ending, so other scripts pass through whole.
func FuzzRecallWords(f *testing.F) {
	for _, seed := range []string{
		"", "Run `make test` before pushing; the tests need docker.",
		"Caching: the cache is cached by caching layers (sccache)",
		"libraries classes tests statuses this gas used running installed", "Éviter les caches 日本語のテスト",
		"- [ ] TODO: migrate the CI to GitHub Actions (see .github/workflows/ci.yml)", "\xff\xfe bad utf8 words",
		"a\u3fffing", // the last two bytes of U+3FFF are equal: once "undoubled" into invalid UTF-8
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fields := strings.Fields(similarity.Normalize(text))
		words := recallWords(text)
		require.Equal(t, len(fields), len(words), "recallWords(%q) = %q", text, words)
		for i, w := range words {
			field := fields[i]
			require.True(t, w != "" && len(w) <= len(field), "recallStem(%q) = %q", field, w)
			require.True(t, utf8.ValidString(w), "recallStem(%q) = %q is not UTF-8", field, w)
			if last := lastNonASCII(field); last >= 0 {
				require.True(t, strings.HasPrefix(w, field[:last+1]), "recallStem(%q) = %q changed more than an ASCII ending", field, w)
			}
		}
	})
}

// lastNonASCII is the index of the last byte of s that is not ASCII, or -1.
func lastNonASCII(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] >= utf8.RuneSelf {
			return i
		}
	}
	return -1
}
