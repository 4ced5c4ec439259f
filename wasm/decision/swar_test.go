package decision

import (
	"bytes"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestWordScansAgreeWithByteScans(t *testing.T) {
	inputs := []string{"", "a", "abc\n", "0123456789abcdef\nx", "no newline at all here......", "\n",
		"plain text then \"quote", "tab\there", "é accented", "back\\slash", "exactly8", "exactly8\"", "ÿ", "\x1f"}
	for _, s := range inputs {
		b := []byte(s)
		require.Equal(t, bytes.IndexByte(b, '\n'), indexNewline(b), "indexNewline("+s+")")
		want := 0
		for want < len(b) && strClass[b[want]] == 0 {
			want++
		}
		require.Equal(t, want, plainRun(b, 0), "plainRun("+s+")")
	}
}

func FuzzWordScans(f *testing.F) {
	f.Add([]byte("abc\"def\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		require.Equal(t, bytes.IndexByte(b, '\n'), indexNewline(b), "indexNewline(%q)", b)
		want := 0
		for want < len(b) && strClass[b[want]] == 0 {
			want++
		}
		require.Equal(t, want, plainRun(b, 0), "plainRun(%q)", b)
	})
}
