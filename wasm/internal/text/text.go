// Package text holds the small text helpers every store's messages use, once:
// a count with its noun, one line out of many, cutting to a bound in runes
// (for people, with an ellipsis) or in bytes (for a cap, at a rune
// boundary), and a prefix test that ignores ASCII case. It knows nothing of
// memory.
package text

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Plural is n with the noun that fits it.
//
//	Plural(1, "line", "lines") => "1 line"
//	Plural(3, "line", "lines") => "3 lines"
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// OneLine is s with every run of white space (newlines included) made one
// space, and none at either end.
//
//	OneLine("Use Go\n  for services ") => "Use Go for services"
func OneLine(s string) string {
	if s == "" {
		return ""
	}
	return strings.Join(strings.Fields(s), " ")
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

// HasFoldPrefix is strings.HasPrefix ignoring ASCII case in s; prefix is
// lower case.
//
//	HasFoldPrefix("</Observations>", "</obs") => true
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
