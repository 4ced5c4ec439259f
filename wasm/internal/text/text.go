// Package text holds the small text helpers every store's messages use, once:
// a count with its noun, one line out of many, cutting to a bound in runes
// (for people, with an ellipsis) or in bytes (for a cap, at a rune
// boundary), lines for a terminal's width, and a prefix test that ignores
// ASCII case. It knows nothing of memory.
package text

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Width is the columns a person's terminal is taken to have: text written
// for a person to read wraps there.
const Width = 80

// Plural is n with the noun that fits it.
//
//	Plural(1, "line", "lines") => "1 line"
//	Plural(3, "line", "lines") => "3 lines"
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return numstr.Itoa(n) + " " + many
}

// Series is items as prose lists them, the last two joined by and (a
// conjunction: "and", "or").
//
//	Series([]string{"decisions", "notes", "observations"}, "or") => "decisions, notes or observations"
//	Series([]string{"notes"}, "or")                              => "notes"
func Series(items []string, and string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + and + " " + items[len(items)-1]
}

// OneLine is s with every run of white space (newlines included) made one
// space, and none at either end.
//
//	OneLine("Use Go\n  for services ") => "Use Go for services"
func OneLine(s string) string {
	return FirstWords(s, -1)
}

// FirstWords is OneLine of s's first n words (all of them when n < 0).
// Word by word into one buffer, not through strings.Fields: a slice of a
// string per word is what a collector scans (a 3.7 MB note made 400,000 of
// them to quote its first 80 runes, and forgetting it took 31 s).
//
//	FirstWords("Use  Go\nfor services", 2) => "Use Go"
func FirstWords(s string, n int) string {
	var b []byte
	space := false
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if unicode.IsSpace(r) {
			space = len(b) > 0
		} else {
			if space {
				if n--; n == 0 {
					break
				}
				b = append(b, ' ')
				space = false
			}
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// Wrap cuts s into lines of at most width runes at spaces, for a person
// reading at that many columns; a word longer than width gets a line of its
// own. White space is folded as OneLine folds it.
//
//	Wrap("record a decision; a near-duplicate asks", 18) => ["record a decision;", "a near-duplicate", "asks"]
func Wrap(s string, width int) []string {
	return wrap(s, width, width)
}

// Indent is s wrapped to width columns with its first line after first and
// every other line after hang, each line ending in a newline.
//
//	Indent("one two three", 10, "  ", "    ") => "  one two\n    three\n"
func Indent(s string, width int, first, hang string) string {
	lines := wrap(s, width-utf8.RuneCountInString(first), width-utf8.RuneCountInString(hang))
	for i, l := range lines {
		prefix := hang
		if i == 0 {
			prefix = first
		}
		lines[i] = prefix + l + "\n"
	}
	return strings.Join(lines, "")
}

// wrap is Wrap with a first line of first runes and the others of rest.
func wrap(s string, first, rest int) []string {
	var lines []string
	line, n, width := "", 0, first
	for _, w := range strings.Fields(s) {
		wn := utf8.RuneCountInString(w)
		switch {
		case n == 0:
			line, n = w, wn
		case n+1+wn <= width:
			line, n = line+" "+w, n+1+wn
		default:
			lines = append(lines, line)
			line, n, width = w, wn, rest
		}
	}
	if n > 0 {
		lines = append(lines, line)
	}
	return lines
}

// Runes is s cut to at most n runes for a person to read: when it is longer,
// its first n-1 runes (trailing spaces dropped) and "…".
//
//	Runes("Use PostgreSQL 16", 8) => "Use Pos…"
func Runes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n-1; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return strings.TrimRight(s[:i], " ") + "…"
}

// Bytes is s cut to at most n bytes, at a rune boundary, with no mark: a
// hard cap on what is sent or stored. It backs off over at most the three
// continuation bytes a rune can have, so text that is not UTF-8 is still cut
// near n, never to nothing.
//
//	Bytes("héllo", 2) => "h"
//
//go:noinline
func Bytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < 0 {
		n = 0
	}
	for k, at := 0, n; k < utf8.UTFMax-1 && at > 0 && s[at]&0xC0 == 0x80; k++ {
		if at--; s[at]&0xC0 != 0x80 {
			return s[:at]
		}
	}
	return s[:n]
}

// Whole is s cut as Bytes cuts it, then back to the end of the word before
// the one the cut went through, for a cut made before redaction: a secret
// recognised by its whole shape (a token of 40 characters) cut to 33 is no
// longer recognised, and most of it would be kept. A word is a run of
// letters, digits, bytes of other characters and "_-.+/=%~", what tokens are
// made of; anything else ends one (a space, a comma, a quote, a bracket). A
// run of more than maxWord bytes (no secret's size), or a text of one word,
// is cut where Bytes cuts it.
//
//	Whole("key ghp_abcdef", 9)     => "key"
//	Whole("[q,ghp_abcdef]", 9)     => "[q,"
//	Whole("a b c", 3)              => "a b"
func Whole(s string, n int) string {
	c := Bytes(s, n)
	if len(c) == len(s) || !inWord(s[len(c)]) {
		return c
	}
	for i := len(c) - 1; i >= 0 && len(c)-i <= maxWord; i-- {
		if !inWord(c[i]) {
			return strings.TrimRight(c[:i+1], " \t\r\n")
		}
	}
	return c
}

// maxWord bounds how far Whole backs off: longer than any secret redaction
// knows by its shape.
const maxWord = 512

// inWord reports whether c may be inside a token (Whole).
func inWord(c byte) bool {
	return c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-.+/=%~", c) >= 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// HasFoldPrefix is strings.HasPrefix ignoring ASCII case in s; prefix is
// lower case.
//
//	HasFoldPrefix("</Observations>", "</obs") => true
//
//go:noinline
func HasFoldPrefix(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if LowerASCII(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// LowerASCII is c in lower case when it is an ASCII capital, else c.
func LowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
