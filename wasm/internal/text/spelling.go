package text

import "unicode/utf8"

// Spelling is the length of a spelling at s[i] of one printable ASCII
// character other than the space, and that character; 0, 0 when there is
// none. A secret or a marker so spelled reads as itself to a model, a page
// or a program that decodes it, so redact and marker read through them:
//
//   - percent-encoded, as in a URL: "%3C", "%253C" (encoded twice: "%25"
//     spells the '%' of another);
//   - a JSON, JavaScript, Python, C, Perl or Rust escape: "\u003c", "\u{3c}",
//     "\U0000003c", "\x3c" ("\X3C"), "\x{3c}", an octal "\074"; JavaScript's
//     escape() "%u003C"; CSS's "\3c " and "\00003c" (hexadecimal digits
//     ending in a letter, or six of them: "\74" is the octal);
//   - an HTML numeric character reference: "&#60;", "&#x3c;", "&#60" (no
//     ';', as HTML reads it), "&#x0000003c;", and one whose '&' or ';' is
//     spelled too: "&amp;#60;", "%26#60%3B" (Amp);
//   - a full-width form, U+FF01–U+FF5E, as an East Asian keyboard types it:
//     "＜", "ｐ".
//
// So Spelling("a%3Cb", 1) is 3, '<'.
func Spelling(s string, i int) (n int, b byte) {
	if a := Amp(s, i); a > 0 {
		if n, b := numericRef(s, i+a); n > 0 {
			return a + n, b
		}
		if n, b := numericRef(s, i+1); s[i] == '&' && n > 0 {
			return n + 1, b // "&#38;" itself
		}
	}
	return spelled(s, i)
}

// spelled is Spelling but for a numeric reference.
func spelled(s string, i int) (n int, b byte) {
	switch c := s[i]; {
	case c == '%':
		if hasAt(s, i+1, "u00") || hasAt(s, i+1, "U00") {
			return printable(hexByte(s, i+4), 6) // JavaScript's escape(): "%u003C"
		}
		j := i + 1
		for hasAt(s, j, "25") && hexByte(s, j+2) >= 0 {
			j += 2
		}
		return printable(hexByte(s, j), j+2-i)
	case c == '\\' && i+1 < len(s):
		switch s[i+1] {
		case 'u':
			if hasAt(s, i+2, "00") {
				return printable(hexByte(s, i+4), 6)
			}
			if hasAt(s, i+2, "{") {
				if v, k := digits(s, i+3, 16); hasAt(s, k, "}") {
					return printable(v, k+1-i)
				}
			}
		case 'U':
			if hasAt(s, i+2, "000000") {
				return printable(hexByte(s, i+8), 10)
			}
		case 'x', 'X':
			if hasAt(s, i+2, "{") {
				if v, k := digits(s, i+3, 16); k > i+3 && hasAt(s, k, "}") {
					return printable(v, k+1-i)
				}
			}
			return printable(hexByte(s, i+2), 4)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// Two or three octal digits: "\074", "\74".
			if v, k := digits(s[:min(len(s), i+4)], i+1, 8); k-i-1 >= 2 {
				if n, b := printable(v, k-i); n > 0 {
					return n, b
				}
			}
		}
		// CSS's escape: one to six hexadecimal digits and a blank that
		// ends them, "\3c " and "\00003c".
		if v, k := digits(s[:min(len(s), i+7)], i+1, 16); k > i+1 && hex(s[k-1]) > 9 || k-i-1 == 6 {
			if k < len(s) && (s[k] == ' ' || s[k] == '\t') {
				k++
			}
			return printable(v, k-i)
		}
	case c == 0xEF:
		if i+2 < len(s) && (s[i+1] == 0xBC && s[i+2] >= 0x81 && s[i+2] <= 0xBF || s[i+1] == 0xBD && s[i+2] >= 0x80 && s[i+2] <= 0x9E) {
			return 3, byte(int(s[i+1]-0xBC)<<6+int(s[i+2]&0x3F)) + 0x20
		}
	}
	return 0, 0
}

// printable is a spelling of n bytes that stands for v, when v is a
// printable ASCII character other than the space; else none.
func printable(v, n int) (int, byte) {
	if v > ' ' && v < 0x7f {
		return n, byte(v)
	}
	return 0, 0
}

// hexByte is the value of the two hexadecimal digits at s[i], -1 when
// there are not two.
func hexByte(s string, i int) int {
	if i+1 >= len(s) || hex(s[i]) > 15 || hex(s[i+1]) > 15 {
		return -1
	}
	return hex(s[i])<<4 | hex(s[i+1])
}

// numericRef is the rest of an HTML numeric character reference after its
// '&', "#x67;" or "#103;" at s[j:], its ';' spelled or not: its length and
// its character.
func numericRef(s string, j int) (int, byte) {
	n, v := refValue(s, j)
	if n == 0 {
		return 0, 0
	}
	return printable(v, n)
}

// refValue is the length and the code point of the numeric reference after
// its '&' at s[j:] (numericRef); 0, 0 when there is none.
func refValue(s string, j int) (n, v int) {
	if !hasAt(s, j, "#") {
		return 0, 0
	}
	k, base := j+1, 10
	if k < len(s) && s[k]|0x20 == 'x' {
		k, base = k+1, 16
	}
	// Leading zeros, any number of them ("&#x00000000003C;"), and no ';'
	// ("&#60/"): a page reads both (h-v96 c2).
	z := k
	for z < len(s) && z < k+64 && s[z] == '0' {
		z++
	}
	v, e := digits(s, z, base)
	if e == k {
		return 0, 0
	}
	if e < len(s) && hex(s[e]) < base {
		return 0, 0 // more digits than a character has
	}
	return e + Semicolon(s, e) - j, v
}

// namedRefs are HTML's named references marker reads as their
// characters: what prints as nothing, spaces and dashes, and the ordinal
// indicators, which read as letters.
var namedRefs = [...]struct {
	name string
	r    rune
}{
	{"shy", 0xad}, {"ZeroWidthSpace", 0x200b}, {"zwnj", 0x200c}, {"zwj", 0x200d}, {"lrm", 0x200e}, {"rlm", 0x200f},
	{"NoBreak", 0x2060}, {"InvisibleTimes", 0x2062}, {"InvisibleComma", 0x2063}, {"ApplyFunction", 0x2061},
	{"NegativeVeryThinSpace", 0x200b}, {"NegativeThinSpace", 0x200b}, {"NegativeMediumSpace", 0x200b}, {"NegativeThickSpace", 0x200b},
	{"nbsp", 0xa0}, {"NonBreakingSpace", 0xa0}, {"ensp", 0x2002}, {"emsp", 0x2003}, {"thinsp", 0x2009}, {"ThinSpace", 0x2009},
	{"hairsp", 0x200a}, {"VeryThinSpace", 0x200a}, {"MediumSpace", 0x205f}, {"numsp", 0x2007}, {"puncsp", 0x2008},
	{"ndash", 0x2013}, {"mdash", 0x2014}, {"minus", 0x2212}, {"hyphen", 0x2010}, {"dash", 0x2010}, {"horbar", 0x2015},
	{"it", 0x2062}, {"ic", 0x2063}, {"af", 0x2061},
	{"ordm", 0xba}, {"ordf", 0xaa}, // letters: º, ª (h-v101 c3)
}

// RefRune is the length of an HTML character reference at s[i], its '&'
// and ';' spelled or not (Amp, Semicolon), and its character: a numeric
// one ("&#32;", "&#x200B", "&#x0000003c;"), or one of namedRefs ("&shy;",
// "&nbsp" as a page reads them without ';'); 0, 0 when there is none.
func RefRune(s string, i int) (int, rune) {
	a := Amp(s, i)
	if a == 0 {
		return 0, 0
	}
	j := i + a
	if n, v := refValue(s, j); n > 0 {
		if v <= 0 || v > utf8.MaxRune {
			return 0, 0
		}
		return a + n, rune(v)
	}
	for _, e := range namedRefs {
		if k := j + len(e.name); k <= len(s) && s[j:k] == e.name {
			if sc := Semicolon(s, k); sc > 0 || e.name == "shy" || e.name == "nbsp" {
				return a + len(e.name) + sc, e.r
			}
		}
	}
	return 0, 0
}

// Amp is the length of a spelling of '&' at s[i] that may start a
// character reference: '&' itself, or spelled ("%26", "&#38;",
// "\u0026"), and escaped again and again ("&amp;", "&amp;amp;",
// "%26amp%3B"); 0 for none.
func Amp(s string, i int) int {
	n := 0
	if s[i] == '&' {
		n = 1
		if k, c := numericRef(s, i+1); c == '&' {
			n += k // "&#38;", "&#x26;"
		}
	} else if k, c := spelled(s, i); c == '&' {
		n = k
	} else {
		return 0
	}
	for i+n+3 <= len(s) && s[i+n]|0x20 == 'a' && s[i+n+1]|0x20 == 'm' && s[i+n+2]|0x20 == 'p' {
		k := Semicolon(s, i+n+3)
		if k == 0 {
			break
		}
		n += 3 + k
	}
	return n
}

// Semicolon is the length of a ';' at s[j], spelled or not ("%3B"); 0 for
// none.
func Semicolon(s string, j int) int {
	if j >= len(s) {
		return 0
	}
	if s[j] == ';' {
		return 1
	}
	if n, c := spelled(s, j); c == ';' {
		return n
	}
	return 0
}

// digits reads up to 8 digits in base 10 or 16 at s[j]: their value, and
// where they end (j when there are none).
func digits(s string, j, base int) (v, k int) {
	for k = j; k < len(s) && k < j+8 && hex(s[k]) < base; k++ {
		v = v*base + hex(s[k])
	}
	return v, k
}

// hex is the value of a hexadecimal digit, 16 or more for any other byte.
func hex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return 16
}

func hasAt(s string, i int, w string) bool {
	return i <= len(s) && len(s)-i >= len(w) && s[i:i+len(w)] == w
}
