package text

// Spelling is the length of a spelling at s[i] of one printable ASCII
// character other than the space, and that character; 0, 0 when there is
// none. A secret or a marker so spelled reads as itself to a model, a page
// or a program that decodes it, so redact and marker read through them:
//
//   - percent-encoded, as in a URL: "%3C", "%253C" (encoded twice: "%25"
//     spells the '%' of another);
//   - a JSON, JavaScript, Python, C, Perl or Rust escape: "\u003c", "\u{3c}",
//     "\U0000003c", "\x3c", "\x{3c}", an octal "\074";
//   - an HTML numeric character reference: "&#60;", "&#x3c;", and one
//     escaped again: "&amp;#60;" (AmpEnd);
//   - a full-width form, U+FF01–U+FF5E, as an East Asian keyboard types it:
//     "＜", "ｐ".
//
// So Spelling("a%3Cb", 1) is 3, '<'.
func Spelling(s string, i int) (n int, b byte) {
	switch c := s[i]; {
	case c == '%':
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
		case 'x':
			if hasAt(s, i+2, "{") {
				if v, k := digits(s, i+3, 16); k > i+3 && hasAt(s, k, "}") {
					return printable(v, k+1-i)
				}
			}
			return printable(hexByte(s, i+2), 4)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// Two or three octal digits: "\074", "\74".
			if v, k := digits(s[:min(len(s), i+4)], i+1, 8); k-i-1 >= 2 {
				return printable(v, k-i)
			}
		}
	case c == '&':
		return charRef(s, i)
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

// charRef is an HTML numeric character reference at s[i], "&#x67;" or
// "&#103;".
func charRef(s string, i int) (int, byte) {
	a := AmpEnd(s, i)
	j, base := a+2, 10
	if s[i] != '&' || !hasAt(s, a+1, "#") {
		return 0, 0
	}
	if j < len(s) && s[j]|0x20 == 'x' {
		j, base = j+1, 16
	}
	v, k := digits(s, j, base)
	if k == j || !hasAt(s, k, ";") {
		return 0, 0
	}
	return printable(v, k+1-i)
}

// AmpEnd is where the '&' at s[i] ends as HTML escaped it again and again
// ("&amp;lt;", "&amp;amp;#60;"): i when it is not escaped, else the ';'
// of the last "&amp;", which stands for the reference's '&'. The
// reference's name follows it.
func AmpEnd(s string, i int) int {
	a := i
	for a+5 <= len(s) && (a > i || s[a] == '&') && s[a+1]|0x20 == 'a' && s[a+2]|0x20 == 'm' && s[a+3]|0x20 == 'p' && s[a+4] == ';' {
		a += 4
	}
	return a
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
