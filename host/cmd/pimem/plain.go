package main

import (
	"io"
	"strconv"
	"unicode/utf8"
)

// plainWriter is what pimem prints to a terminal through: a control
// character (but a newline, a tab, and a carriage return before a newline),
// a C1 control, a bidirectional control and what prints as nothing are
// written as their escapes
// (\x1b, \u009b, \u202e), so a path or an argument from outside (a folder
// named with OSC 52 in it, an unknown flag) neither writes the clipboard nor
// moves the cursor (h-v95 c4). The core's own output is plain already;
// this is for the host's words around it.
type plainWriter struct{ w io.Writer }

func (p plainWriter) Write(b []byte) (int, error) {
	clean := true
	for i, prev := 0, rune(0); i < len(b) && clean; {
		r, n := utf8.DecodeRune(b[i:])
		clean = !unsafeRune(r, n, b, i+n) && !(variation(r) && variation(prev))
		i, prev = i+n, r
	}
	if clean {
		return p.w.Write(b)
	}
	out := make([]byte, 0, len(b)+16)
	for i, prev := 0, rune(0); i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			out = append(out, `\x`+strconv.FormatUint(uint64(b[i])|0x100, 16)[1:]...) // a byte that is no UTF-8: "\x9b"
		} else if unsafeRune(r, n, b, i+n) || variation(r) && variation(prev) {
			q := strconv.QuoteRuneToASCII(r)
			out = append(out, q[1:len(q)-1]...)
		} else {
			out = append(out, b[i:i+n]...)
		}
		i, prev = i+n, r
	}
	if _, err := p.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}

// variation: r is a variation selector; one after another is shown as an
// escape (a run of them carries hidden text; one styles an emoji).
func variation(r rune) bool { return r >= 0xfe00 && r <= 0xfe0f || r >= 0xe0100 && r <= 0xe01ef }

// unsafeRune: r, n bytes that end at b[next], is shown as an escape: a
// byte that is no UTF-8 too (a bare 0x9B starts a control sequence on a
// terminal that reads 8-bit controls: h-v96 c3).
func unsafeRune(r rune, n int, b []byte, next int) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case r == '\n' || r == '\t':
		return false
	case r == '\r':
		return next >= len(b) || b[next] != '\n'
	case r < 0x20 || r >= 0x7f && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e || r >= 0x2060 && r <= 0x206f || r == 0x200b || r == 0x200e || r == 0x200f || r == 0x061c || r == 0x2028 || r == 0x2029 || r >= 0xe0000 && r <= 0xe0fff:
		return true
	case r == 0x00ad || r == 0xfeff || r >= 0xfff9 && r <= 0xfffb || r == 0x034f || r == 0x180e || r == 0x17b4 || r == 0x17b5 ||
		r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0 || r == 0x2800 || r >= 0x1d173 && r <= 0x1d17a || r >= 0x1bca0 && r <= 0x1bca3 || r >= 0x13430 && r <= 0x1343f:
		// What prints as nothing (a soft hyphen, a BOM, the interlinear
		// annotation characters, the Hangul fillers, the format controls
		// of music, shorthand and hieroglyphs): a path that holds one looks
		// like another (h-v97 c3). The joiners U+200C and U+200D stay:
		// scripts and emoji need them (decision 017; h-v98 c3).
		return true
	}
	return false
}
