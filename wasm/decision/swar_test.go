package decision

import (
	"bytes"
	"testing"
)

func TestWordScansAgreeWithByteScans(t *testing.T) {
	inputs := []string{"", "a", "abc\n", "0123456789abcdef\nx", "no newline at all here......", "\n",
		"plain text then \"quote", "tab\there", "é accented", "back\\slash", "exactly8", "exactly8\"", "ÿ", "\x1f"}
	for _, s := range inputs {
		b := []byte(s)
		eq(t, indexNewline(b), bytes.IndexByte(b, '\n'), "indexNewline("+s+")")
		want := 0
		for want < len(b) && strClass[b[want]] == 0 {
			want++
		}
		eq(t, plainRun(b, 0), want, "plainRun("+s+")")
	}
}

func FuzzWordScans(f *testing.F) {
	f.Add([]byte("abc\"def\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if indexNewline(b) != bytes.IndexByte(b, '\n') {
			t.Fatalf("indexNewline(%q)", b)
		}
		want := 0
		for want < len(b) && strClass[b[want]] == 0 {
			want++
		}
		if got := plainRun(b, 0); got != want {
			t.Fatalf("plainRun(%q) = %d, want %d", b, got, want)
		}
	})
}
