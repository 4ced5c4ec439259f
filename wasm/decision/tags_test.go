package decision

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestSplitTagsReadsRepeatedCommaSeparatedTagsWithOptionalHash(t *testing.T) {
	tests := []struct {
		values []string
		want   []string
	}{
		{nil, nil},
		{[]string{""}, nil},
		{[]string{"db"}, []string{"db"}},
		{[]string{"db, #infra", "go"}, []string{"db", "infra", "go"}},
		{[]string{"##x", " , ,", "#"}, []string{"x"}},
		{[]string{"Two Words", "DB"}, []string{"Two Words", "DB"}},
		// Spaces after the "#" go too (it kept the tag " spaced").
		{[]string{"# spaced "}, []string{"spaced"}},
		{[]string{" # # x", "#\u00a0y"}, []string{"x", "y"}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, splitTags(tt.values), "%q", tt.values)
	}
}

// FuzzSplitTags: every tag is a non-empty piece of one value, in order,
// without a comma, a leading "#" or a space at either end.
func FuzzSplitTags(f *testing.F) {
	for _, s := range []string{"", "db", "db, #infra", "##x, ,", "# spaced ", "a,,b", ",#,", "\u00a0x\u00a0", "é,#é"} {
		f.Add(s, "go")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		values := []string{a, b}
		rest := strings.Join(values, ",")
		for _, tag := range splitTags(values) {
			require.True(t, tag != "", "empty tag from %q", values)
			require.False(t, strings.Contains(tag, ","), "%q holds a comma", tag)
			require.False(t, strings.HasPrefix(tag, "#"), "%q starts with #", tag)
			if r, _ := utf8.DecodeLastRuneInString(tag); utf8.ValidString(tag) {
				require.False(t, unicode.IsSpace(r), "%q ends with a space", tag)
			}
			if r, _ := utf8.DecodeRuneInString(tag); utf8.ValidString(tag) {
				require.False(t, unicode.IsSpace(r), "%q starts with a space", tag)
			}
			i := strings.Index(rest, tag)
			require.True(t, i >= 0, "%q is not in what is left of %q", tag, values)
			rest = rest[i+len(tag):]
		}
	})
}
