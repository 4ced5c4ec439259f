package redact

// Format characters (Unicode's Cf: zero-width spaces and joiners, the soft
// hyphen, bidirectional marks, the word joiner, the byte-order mark, tags),
// and the other characters that print as nothing (the combining grapheme
// joiner, variation selectors, the Hangul fillers) or break a line inside
// one (U+2028, U+2029), print as nothing, so a token with one inside reads, and pastes, as the
// token: "ghp_abc\u200bdef…". The patterns match the text without them
// (scan), and a finding covers the format characters inside it, so the
// mark replaces them too.

// formatLen is the length in bytes of the format character at s[i], 0 when
// there is none. Every one is two bytes or more, led by a byte ≥ 0xC2.
func formatLen(s string, i int) int {
	n := len(s) - i
	switch c := s[i]; {
	case c == 0xC2:
		if n >= 2 && s[i+1] == 0xAD { // U+00AD soft hyphen
			return 2
		}
	case c == 0xCD:
		if n >= 2 && s[i+1] == 0x8F { // U+034F combining grapheme joiner
			return 2
		}
	case c == 0xD8:
		if n >= 2 && s[i+1] == 0x9C { // U+061C Arabic letter mark
			return 2
		}
	case c == 0xE1:
		if n >= 3 && (s[i+1] == 0xA0 && s[i+2] == 0x8E || s[i+1] == 0x85 && (s[i+2] == 0x9F || s[i+2] == 0xA0)) { // U+180E Mongolian vowel separator, U+115F–1160 Hangul fillers
			return 3
		}
	case c == 0xE3:
		if n >= 3 && s[i+1] == 0x85 && s[i+2] == 0xA4 { // U+3164 Hangul filler
			return 3
		}
	case c == 0xE2:
		if n < 3 {
			return 0
		}
		switch d, e := s[i+1], s[i+2]; {
		case d == 0x80 && (e >= 0x8B && e <= 0x8F || e >= 0xA8 && e <= 0xAE): // U+200B–200F, U+2028–202E
			return 3
		case d == 0x81 && (e >= 0xA0 && e <= 0xA4 || e >= 0xA6 && e <= 0xAF): // U+2060–2064, U+2066–206F
			return 3
		}
	case c == 0xEF:
		if n >= 3 && (s[i+1] == 0xBB && s[i+2] == 0xBF || s[i+1] == 0xBF && s[i+2] >= 0xB9 && s[i+2] <= 0xBB || s[i+1] == 0xB8 && s[i+2] <= 0x8F || s[i+1] == 0xBE && s[i+2] == 0xA0) { // U+FEFF, U+FFF9–FFFB, U+FE00–FE0F variation selectors, U+FFA0 halfwidth Hangul filler
			return 3
		}
	case c == 0xF3:
		if n >= 4 && s[i+1] == 0xA0 && (s[i+2] == 0x80 && (s[i+3] == 0x81 || s[i+3] >= 0xA0) || s[i+2] == 0x81 && s[i+3] <= 0xBF || s[i+2] >= 0x84 && s[i+2] <= 0x86 || s[i+2] == 0x87 && s[i+3] <= 0xAF) { // tags, U+E0001, U+E0020–E007F; U+E0100–E01EF variation selectors
			return 4
		}
	}
	return 0
}

// cut is a run of format characters removed from a text: at is where it
// was in the text without them, n its length in bytes.
type cut struct{ at, n int }

// withoutFormat is s without its format characters, and where they were.
func withoutFormat(s string) (string, []cut) {
	var b []byte
	var cuts []cut
	last := 0
	for i := 0; i < len(s); {
		if s[i] < 0xC2 {
			i++
			continue
		}
		n := formatLen(s, i)
		if n == 0 {
			i += runeLen(s, i)
			continue
		}
		b = append(b, s[last:i]...)
		if k := len(cuts) - 1; k >= 0 && cuts[k].at == len(b) {
			cuts[k].n += n
		} else {
			cuts = append(cuts, cut{len(b), n})
		}
		i += n
		last = i
	}
	return string(append(b, s[last:]...)), cuts
}

// original maps the findings in the text without format characters back to
// s: a finding's start stays after the format characters before it, its
// end before those after it, and it covers those inside it.
func original(found []Finding, cuts []cut) []Finding {
	for k := range found {
		f := &found[k]
		f.Start += shift(cuts, f.Start, true)
		f.End += shift(cuts, f.End, false)
	}
	return found
}

// shift is how many bytes were cut before position p (at p too when
// atStart).
func shift(cuts []cut, p int, atStart bool) int {
	total := 0
	for _, c := range cuts {
		if c.at > p || !atStart && c.at == p {
			break
		}
		total += c.n
	}
	return total
}
