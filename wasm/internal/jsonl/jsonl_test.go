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

// readAll is Read over data in pieces of size bytes, its calls written as
// Lines' test writes them, a long line as "n:LONG".
func readAll(data []byte, size, maxLine int) string {
	var got []string
	read := func(off int64, dst []byte) (int, error) { return copy(dst, data[min(int(off), len(data)):]), nil }
	Read(read, make([]byte, size), maxLine, func(n int, line []byte, torn bool) bool {
		s := strconv.Itoa(n) + ":" + string(line)
		if torn {
			s += "!"
		}
		got = append(got, s)
		return true
	}, func(n int) { got = append(got, strconv.Itoa(n)+":LONG") })
	return strings.Join(got, " ")
}

func linesAll(data []byte) string {
	var got []string
	Lines(data, func(n int, line []byte, torn bool) bool {
		s := strconv.Itoa(n) + ":" + string(line)
		if torn {
			s += "!"
		}
		got = append(got, s)
		return true
	})
	return strings.Join(got, " ")
}

// A file read in pieces of any size gives the lines the whole file gives;
// a line longer than the bound is named, not held, and the lines after it
// still count.
func TestReadInPiecesIsLinesOfTheWholeFile(t *testing.T) {
	for _, in := range []string{"", "a", "\uFEFFa\r\n\n  \t\nb", "a\nb\n\n", "{\"k\": 1}\n{\"k\": 22}\n{\"k\"", "\n\n\nx"} {
		for size := 1; size <= 9; size++ {
			require.Equal(t, linesAll([]byte(in)), readAll([]byte(in), size, 1<<20), "%q in pieces of %d", in, size)
		}
	}
	for size := 1; size <= 9; size++ {
		require.Equal(t, "1:a 2:LONG 3:b 4:LONG", readAll([]byte("a\n0123456789\nb\n0123456789"), size, 8), "pieces of %d", size)
	}
}

// Any bytes in pieces of any size: the lines of the whole file.
func FuzzReadInPieces(f *testing.F) {
	f.Add([]byte("\uFEFF{\"a\":1}\r\n\n{\"b\":2}"), uint8(3))
	f.Add([]byte("\xef\xbb\xbf\n"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		require.Equal(t, linesAll(data), readAll(data, int(size%64)+1, 1<<20))
	})
}

// A file read a step at a time, each step about budget bytes, gives the
// lines of the whole file, whatever the steps and pieces.
func TestPiecesInStepsAreLinesOfTheWholeFile(t *testing.T) {
	data := []byte("\uFEFFa\r\n\n  \t\nbb\n0123456789\nccc\n{\"k\"")
	for size := 1; size <= 9; size++ {
		for budget := int64(1); budget <= 12; budget++ {
			var got []string
			read := func(off int64, dst []byte) (int, error) { return copy(dst, data[min(int(off), len(data)):]), nil }
			var p Pieces
			for steps := 0; !p.Done; steps++ {
				before := p.Off
				require.NoError(t, p.Next(read, make([]byte, size), 8, budget, func(n int, line []byte, torn bool) bool {
					s := strconv.Itoa(n) + ":" + string(line)
					if torn {
						s += "!"
					}
					got = append(got, s)
					return true
				}, func(n int) { got = append(got, strconv.Itoa(n)+":LONG") }))
				require.True(t, p.Off-before <= max(budget, int64(size))+int64(size), "a step reads about its budget")
				require.True(t, steps < len(data)+2, "steps end")
			}
			require.Equal(t, "1:a 4:bb 5:LONG 6:ccc 7:{\"k\"!", strings.Join(got, " "), "pieces of %d, steps of %d", size, budget)
		}
	}
}
