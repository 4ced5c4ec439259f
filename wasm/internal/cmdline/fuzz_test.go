package cmdline

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// FuzzSplit: any input either splits or reports an unterminated quote, never
// panics; and re-joining plain words that contain no quoting characters gives
// back the same words.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"", "add x", `add "a b" --tag c`, `'x`, `a\`, "\"\\\"", "--x=1 -- --y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := Split(s)
		if err != nil {
			return
		}
		if strings.ContainsAny(s, "'\"\\") {
			return
		}
		again, err := Split(strings.Join(words, " "))
		require.True(t, err == nil && len(again) == len(words), "re-split of %q: %q vs %q (%v)", s, again, words, err)
		_, _ = Parse(words, Spec{Values: []string{"tag"}, Switches: []string{"yes"}})
	})
}
