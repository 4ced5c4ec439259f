package text

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// TestBuilderWritesWhatStringsBuilderWrites pins Builder to the type it
// stands in for: the same text, lengths and results for every write.
func TestBuilderWritesWhatStringsBuilderWrites(t *testing.T) {
	var got Builder
	var want strings.Builder
	require.Equal(t, want.String(), got.String())
	for _, s := range []string{"", "3 decisions", "\n", "héllo ", strings.Repeat("x", 300)} {
		n1, err1 := got.WriteString(s)
		n2, err2 := want.WriteString(s)
		require.Equal(t, n2, n1)
		require.Equal(t, err2, err1)
		require.Equal(t, want.WriteByte('|'), got.WriteByte('|'))
		for _, r := range []rune{'a', 'é', '🔴', -1, 0x10FFFF + 1} {
			n1, _ := got.WriteRune(r)
			n2, _ := want.WriteRune(r)
			require.Equal(t, n2, n1)
		}
		n1, _ = got.Write([]byte(s))
		n2, _ = want.Write([]byte(s))
		require.Equal(t, n2, n1)
		require.Equal(t, want.String(), got.String())
		require.Equal(t, want.Len(), got.Len())
	}
	before := got.String()
	kept := strings.Clone(before)
	got.Grow(1000)
	require.Equal(t, before, got.String())
	require.True(t, got.Cap()-got.Len() >= 1000)
	got.WriteString("more")
	require.Equal(t, before+"more", got.String())
	require.Equal(t, kept, before) // a String taken earlier stays as it was
	got.Reset()
	require.Equal(t, "", got.String())
	require.Equal(t, 0, got.Len())
}
