package jsonl

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestLinesSkipsBlanksDropsTheMarkAndTellsATornLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a", "1:a!"},
		{"a\n", "1:a"},
		{"\uFEFFa\r\n\n  \t\nb", "1:a 4:b!"},
		{"a\nb\n", "1:a 2:b"},
		{"a\nb\n\n", "1:a 2:b"},
		{"  {\"k\": 1}  \r\n", `1:{"k": 1}`},
	}
	for _, tt := range tests {
		var got []string
		Lines([]byte(tt.in), func(n int, line []byte, torn bool) bool {
			s := strconv.Itoa(n) + ":" + string(line)
			if torn {
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
	Lines([]byte("a\nb\nc"), func(int, []byte, bool) bool { n++; return n < 2 })
	require.Equal(t, 2, n)
}

func TestAProblemNamesItsLine(t *testing.T) {
	require.Equal(t, "line 12: not valid JSON", Problem{12, "not valid JSON"}.String())
}

// Any bytes are split without panicking, every line is trimmed and not
// empty, and numbers only grow.
func FuzzLines(f *testing.F) {
	f.Add([]byte("\uFEFF{\"a\":1}\r\n\n{\"b\":2}"))
	f.Add([]byte("\n\n\n"))
	f.Add([]byte("\xef\xbb"))
	f.Fuzz(func(t *testing.T, data []byte) {
		last := 0
		Lines(data, func(n int, line []byte, torn bool) bool {
			require.True(t, n > last, "numbers grow")
			require.True(t, len(line) > 0 && strings.TrimSpace(string(line)) == string(line), "trimmed, not empty")
			if torn {
				require.False(t, strings.HasSuffix(string(data), "\n"), "a torn line ends data without a newline")
			}
			last = n
			return true
		})
	})
}
