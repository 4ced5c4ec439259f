package jsonl

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestLinesSkipsBlanksDropsTheMarkAndTellsTheLast(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a", "1:a!"},
		{"a\n", "1:a!"},
		{"\uFEFFa\r\n\n  \nb", "1:a 4:b!"},
		{"a\nb\n", "1:a 2:b!"},
		{"a\nb\n\n", "1:a 2:b"},
	}
	for _, tt := range tests {
		var got []string
		Lines([]byte(tt.in), func(n int, line string, last bool) bool {
			s := strconv.Itoa(n) + ":" + line
			if last {
				s += "!"
			}
			got = append(got, s)
			return true
		})
		require.Equal(t, tt.want, strings.Join(got, " "), "%q", tt.in)
	}
}

func TestLinesStopsWhenAsked(t *testing.T) {
	n := 0
	Lines([]byte("a\nb\nc"), func(int, string, bool) bool { n++; return n < 2 })
	require.Equal(t, 2, n)
}
