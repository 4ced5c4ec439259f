package similarity

import (
	txt "github.com/pi-memory/pi-memory/wasm/internal/text"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/internal/require"
)

// FuzzWords: the scanners that turn a decision into words, on any bytes.
// Normalize gives valid UTF-8 in single-spaced words; scan writes the same
// text and finds its words in order, each span inside the text and the
// normalised text, each word the normalised form of its own span; stem only
// ever cuts a word (tokens point into the text on that promise), and
// canonical gives a prefix length or a known word.
func FuzzWords(f *testing.F) {
	for _, p := range loadPairs(f) {
		f.Add(p.A)
		f.Add(p.B)
	}
	for _, s := range []string{
		"", " \t\n", "Don't use C++ or C#, ever!", "snake_case or kebab-case?", "Node.js — v22: yes",
		"ÉCOLE ’s café e\u0301", "ǅungla İstanbul ΣΊΣΥΦΟΣ", "日本語のテスト 123", "\xff\xfe bad bytes",
		"running runners ran, databases' libraries", strings.Repeat("word ", 1000),
	} {
		f.Add(s)
	}
	tablesOnce.Do(buildTables)
	f.Fuzz(func(t *testing.T, text string) {
		norm := Normalize(text)
		require.True(t, utf8.ValidString(norm), "Normalize(%q) = %q is not UTF-8", text, norm)
		require.False(t, strings.HasPrefix(norm, " ") || strings.HasSuffix(norm, " ") || strings.Contains(norm, "  "),
			"Normalize(%q) = %q is not single-spaced words", text, norm)

		var b txt.Builder
		var words [maxWords]word
		n := scan(text, &b, &words)
		require.Equal(t, norm, b.String(), "scan(%q) writes what Normalize returns", text)
		require.True(t, n >= 0 && n <= maxWords, "scan(%q) found %d words", text, n)
		end := 0
		for i, w := range words[:n] {
			require.True(t, w.o0 < w.o1 && int(w.o1) <= min(len(text), maxText), "word %d of %q spans %d-%d of the text", i, text, w.o0, w.o1)
			require.True(t, int(w.n0) >= end && w.n0 < w.n1 && int(w.n1) <= len(norm), "word %d of %q spans %d-%d of %q", i, text, w.n0, w.n1, norm)
			end = int(w.n1)
			got := norm[w.n0:w.n1]
			require.NotContains(t, got, " ", "word %d of %q", i, text)
			require.Equal(t, Normalize(text[w.o0:w.o1]), got, "word %d of %q against its span %q", i, text, text[w.o0:w.o1])

			s := stem(got)
			require.True(t, strings.HasPrefix(got, s), "stem(%q) = %q is not a prefix", got, s)
			k, syn := canonical(got)
			require.True(t, syn == 0 && k <= len(got) || syn != 0 && k == 0 && int(syn) <= len(canonWords),
				"canonical(%q) = %d, %d", got, k, syn)
		}
	})
}
