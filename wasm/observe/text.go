package observe

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Small helpers called from many places are kept out of line: inlined at
// every call site they would cost the TinyGo module far more than the call.

//go:noinline
func itoa(n int) string { return numstr.Itoa(n) }

//go:noinline
func quote(s string) string { return strconv.Quote(s) }

// collapse turns every run of whitespace into one space and trims the ends.
//
//	collapse("  a \n\t b ") => "a b"
//
//go:noinline
func collapse(s string) string {
	if collapsed(s) {
		return s
	}
	var b text.Builder
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(c)
	}
	return b.String()
}

// collapsed reports text collapse would return unchanged (most text here:
// the parser collapses what it reads).
func collapsed(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\t', '\n', '\r', '\v', '\f':
			return false
		case ' ':
			if s[i+1] == ' ' {
				return false
			}
		}
	}
	return true
}

// normalize is the form two observations are compared in: lower case,
// letters and digits only, single spaces. "User prefers tabs." and "user
// prefers  tabs" are the same observation.
//
//go:noinline
func normalize(s string) string {
	var b text.Builder
	space := false
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			r += 'a' - 'A'
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r > 0x7f && !isEmoji(r):
		default:
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isEmoji reports the pictographs and the variation selector that models put
// in front of observations; they never tell two observations apart.
func isEmoji(r rune) bool {
	return (r >= 0x1F300 && r <= 0x1FAFF) || (r >= 0x2600 && r <= 0x27BF) || r == 0xFE0F || r == 0x200D
}

// sortStrings sorts a short list in place (insertion sort: no reflection,
// and the lists here are file names of one session).
func sortStrings(a []string) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// union returns the sorted union of sorted-or-not lists, without "" and
// without repeats.
//
//go:noinline
func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, s := range l {
			if s != "" && !has(out, s) {
				out = append(out, s)
			}
		}
	}
	sortStrings(out)
	return out
}

//go:noinline
func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tailRunes returns at most the last n bytes of s, starting at a rune boundary.
//
//go:noinline
func tailRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return s[i:]
}

// cat joins strings: one call instead of a chain of "+", which TinyGo
// compiles into a call and a stack slot per operand.
//
//go:noinline
func cat(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	var b text.Builder
	b.Grow(n)
	for _, p := range parts {
		b.WriteString(p)
	}
	return b.String()
}
