package text

// FormatLen is the length in bytes of the character at s[i] when it prints
// as nothing (Unicode's Cf: zero-width spaces and joiners, the soft hyphen,
// bidirectional marks, the word joiner, the byte-order mark, tags; the
// combining grapheme joiner, variation selectors, the Hangul fillers) or
// breaks a line inside a word (U+2028, U+2029), 0 when it does not. Every one
// is two bytes or more, led by a byte ≥ 0xC2. A secret or a marker split by
// one reads, and pastes, as itself: redact and marker look through them.
//
//	FormatLen("a\u200bb", 1) => 3
func FormatLen(s string, i int) int {
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
		if n >= 3 && (s[i+1] == 0xA0 && s[i+2] >= 0x8B && s[i+2] <= 0x8F || s[i+1] == 0x85 && (s[i+2] == 0x9F || s[i+2] == 0xA0) || s[i+1] == 0x9E && (s[i+2] == 0xB4 || s[i+2] == 0xB5)) { // U+180B–180F Mongolian selectors and vowel separator, U+115F–1160 Hangul fillers, U+17B4–17B5 Khmer inherent vowels
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
		case d == 0x81 && e >= 0xA0 && e <= 0xAF: // U+2060–206F (U+2065 is unassigned and ignored as they are)
			return 3
		}
	case c == 0xEF:
		if n >= 3 && (s[i+1] == 0xBB && s[i+2] == 0xBF || s[i+1] == 0xBF && s[i+2] >= 0xB0 && s[i+2] <= 0xBB || s[i+1] == 0xB8 && s[i+2] <= 0x8F || s[i+1] == 0xBE && s[i+2] == 0xA0) { // U+FEFF, U+FFF0–FFF8 (unassigned), U+FFF9–FFFB, U+FE00–FE0F variation selectors, U+FFA0 halfwidth Hangul filler
			return 3
		}
	case c == 0xF0:
		if n >= 4 && (s[i+1] == 0x9D && s[i+2] == 0x85 && s[i+3] >= 0xB3 && s[i+3] <= 0xBA || s[i+1] == 0x9B && s[i+2] == 0xB2 && s[i+3] >= 0xA0 && s[i+3] <= 0xA3 || s[i+1] == 0x93 && s[i+2] == 0x90 && s[i+3] >= 0xB0) { // U+1D173–1D17A musical format controls, U+1BCA0–1BCA3 shorthand format controls, U+13430–1343F Egyptian hieroglyph format controls
			return 4
		}
	case c == 0xF3:
		if n >= 4 && s[i+1] == 0xA0 && s[i+2] >= 0x80 && s[i+2] <= 0xBF { // U+E0000–E0FFF, all ignored where shown: tags (U+E0000–E007F), variation selectors (U+E0100–E01EF) and the unassigned rest
			return 4
		}
	}
	return 0
}
