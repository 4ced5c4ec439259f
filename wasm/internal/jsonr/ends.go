package jsonr

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Ends reads a JSON string value (raw, quotes and escapes as they stand)
// without unescaping all of it: when it is longer than first+last bytes,
// head is the text of about its first `first` bytes and tail of about its
// last `last` bytes, each cut where no escape or character is split, and
// cut is true; otherwise head is the whole text. size is the length of the
// whole text in bytes. A value that is not a string is read whole, as
// gjson's String gives it. A pasted 8 MB prompt is read as its ends at the
// cost of its ends (h-v93 a1).
//
//	Ends(`"abc"`, 10, 10)       => "abc", "", 3, false
//	Ends(`"a\nbcdefgh"`, 2, 3)  => "a\n", "fgh", 9, true
func Ends(raw string, first, last int) (head, tail string, size int, cut bool) {
	head, tail, _, size, cut = EndsAbove(raw, first, last)
	return head, tail, size, cut
}

// EndsAbove is Ends that also gives the string's text above its tail as it
// stands in the JSON, escapes unread (Text reads a part of it), to the end
// of the line the tail starts in; "" when not cut.
func EndsAbove(raw string, first, last int) (head, tail, above string, size int, cut bool) {
	if len(raw) < 2 || raw[0] != '"' || len(raw) <= first+last+2 {
		s := value(raw, 0).String()
		return s, "", "", len(s), false
	}
	body := raw[1 : len(raw)-1]
	if raw[len(raw)-1] != '"' || escapedEnd(body) {
		// Not one closed string: read as gjson reads it.
		s := value(raw, 0).String()
		return s, "", "", len(s), false
	}
	// Both bounds count the text's bytes, not the JSON's: a text of
	// escapes is up to six times its text (h-v94 c1).
	h, dec := 0, 0
	for dec < first && h < len(body) {
		if surrogateAt(body, h, 0xD800) && surrogateAt(body, h+6, 0xDC00) {
			h, dec = h+12, dec+4 // a pair whole
			continue
		}
		dec += unitLen(body, h)
		h += escapeLen(body, h)
	}
	h = min(h, len(body))
	for h > 0 && h < len(body) && body[h]&0xC0 == 0x80 {
		h--
	}
	t := max(h, len(body)-6*last-12)
	for t < len(body) && (inEscape(body, t) || body[t]&0xC0 == 0x80) {
		t++
	}
	if surrogateAt(body, t-6, 0xD800) && surrogateAt(body, t, 0xDC00) {
		t += 6 // not a pair's second half alone
	}
	for rest := textLen(body[t:]); rest > last && t < len(body); {
		n, d := escapeLen(body, t), unitLen(body, t)
		if surrogateAt(body, t, 0xD800) && surrogateAt(body, t+6, 0xDC00) {
			n, d = 12, 4
		}
		t, rest = t+n, rest-d
	}
	t = min(t, len(body))
	for t < len(body) && body[t]&0xC0 == 0x80 {
		t++
	}
	// Above runs on to the end of the line the tail starts in (1 KiB of it
	// at most): what heads the tail is read whole, not cut at t (h-v97 b2).
	a := t
	if t > 0 && t < len(body) && !strings.HasSuffix(body[:t], `\n`) {
		if k := strings.Index(body[t:min(len(body), t+1024)], `\n`); k >= 0 {
			a = t + k
			// A table's row (a header whose separator follows): the next
			// line too (h-v98 b1).
			if ls := strings.LastIndex(body[:t], `\n`) + 2; ls >= 2 && strings.HasPrefix(strings.TrimLeft(body[ls:t], " "), "|") || ls < 2 && strings.HasPrefix(strings.TrimLeft(body[:t], " "), "|") {
				if j := strings.Index(body[a+2:min(len(body), a+2+1024)], `\n`); j >= 0 {
					a += 2 + j
				}
			}
		}
	}
	return unescape(body[:h]), unescape(body[t:]), body[:a], textLen(body), true
}

// Text is the text of part of a JSON string as it stands between its
// quotes, whole escapes only (EndsAbove's above, cut at an escape's
// start).
func Text(part string) string { return unescape(part) }

// escapeLen is the length in raw bytes of what starts at body[i]: an
// escape, or one byte.
func escapeLen(body string, i int) int {
	if body[i] != '\\' {
		return 1
	}
	if i+1 < len(body) && body[i+1] == 'u' {
		return 6
	}
	return 2
}

// unitLen is how many bytes of text the unit at body[i] (escapeLen's)
// spells: one for a byte or a short escape, a character's for \\u (a lone
// surrogate is U+FFFD's three).
func unitLen(body string, i int) int {
	if body[i] != '\\' || i+1 >= len(body) || body[i+1] != 'u' {
		return 1
	}
	if i+6 > len(body) {
		return 0
	}
	if l := utf8.RuneLen(hex4(body[i+2:])); l > 0 {
		return l
	}
	return utf8.RuneLen(utf8.RuneError)
}

// inEscape reports whether body[i] is inside an escape that starts before
// it: the nearest backslash in the five bytes before i starts an escape
// (an odd run of backslashes ends at it) that reaches past i.
func inEscape(body string, i int) bool {
	for p := i - 1; p >= 0 && p >= i-5; p-- {
		if body[p] != '\\' {
			continue
		}
		run := 0
		for q := p; q >= 0 && body[q] == '\\'; q-- {
			run++
		}
		if run%2 == 0 {
			return false // the second half of "\\"
		}
		return p+escapeLen(body, p) > i
	}
	return false
}

// surrogateAt reports whether an escape of a UTF-16 surrogate of the half
// that starts at base (0xD800 high, 0xDC00 low) starts at body[i].
func surrogateAt(body string, i int, base rune) bool {
	if i < 0 || i+6 > len(body) || body[i] != '\\' || body[i+1] != 'u' || inEscape(body, i) {
		return false
	}
	r := hex4(body[i+2:])
	return r >= base && r < base+0x400
}

// escapedEnd reports whether body ends in an odd run of backslashes: the
// quote after it is escaped, not the string's end.
func escapedEnd(body string) bool {
	run := 0
	for i := len(body) - 1; i >= 0 && body[i] == '\\'; i-- {
		run++
	}
	return run%2 == 1
}

// textLen is the length in bytes of the text body's escapes spell, as
// unescape writes it for valid JSON, without writing it.
func textLen(body string) int {
	n := 0
	for i := 0; i < len(body); {
		j := strings.IndexByte(body[i:], '\\')
		if j < 0 {
			return n + len(body) - i
		}
		n += j
		i += j
		if i+1 < len(body) && body[i+1] != 'u' {
			n++
			i += 2
			continue
		}
		if i+6 > len(body) {
			return n
		}
		r := hex4(body[i+2:])
		i += 6
		if utf16.IsSurrogate(r) && len(body)-i >= 6 && body[i] == '\\' && body[i+1] == 'u' {
			r = utf16.DecodeRune(r, hex4(body[i+2:]))
			i += 6
		}
		if l := utf8.RuneLen(r); l > 0 {
			n += l
		} else {
			n += utf8.RuneLen(utf8.RuneError)
		}
	}
	return n
}
