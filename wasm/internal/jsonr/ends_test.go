package jsonr

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestEnds(t *testing.T) {
	for _, c := range []struct {
		raw         string
		first, last int
		head, tail  string
		size        int
		cut         bool
	}{
		{`"abc"`, 10, 10, "abc", "", 3, false},
		{`"a\nbcdefgh"`, 2, 3, "a\n", "fgh", 9, true},
		// A cut never splits an escape: the head takes the whole \u00e9,
		// the tail starts after the one it would land in.
		{`"a\u00e9bcdefghij\u00e9k"`, 3, 6, "aé", "hijék", 15, true},
		{`"abcdefghij\u00e9k"`, 1, 5, "a", "ijék", 13, true},
		// The second half of "\\" is not an escape's start.
		{`"abcdefgh\\\\nop"`, 1, 5, "a", "\\\\nop", 13, true},
		// A surrogate pair stays whole at either cut.
		{`"\uD83D\uDE00abcdefghijk\uD83D\uDE00z"`, 1, 7, "😀", "jk😀z", 20, true},
		// Not a string, or not one closed string: read whole, as gjson.
		{`12345678901234`, 1, 1, "12345678901234", "", 14, false},
		{`"abcdefghijklmnop`, 1, 1, "abcdefghijklmnop", "", 16, false},
		{`"abcdefghijklmnop\"`, 1, 1, "abcdefghijklmnop\"", "", 17, false},
		{``, 1, 1, "", "", 0, false},
	} {
		head, tail, size, cut := Ends(c.raw, c.first, c.last)
		require.Equal(t, []any{c.head, c.tail, c.size, c.cut}, []any{head, tail, size, cut}, "%s", c.raw)
	}
}

// FuzzEnds: the ends of a string are a prefix and a suffix of its text as
// Get reads it, size is that text's length, and a string within the bounds
// is read whole, however the text is escaped.
func FuzzEnds(f *testing.F) {
	f.Add("Date: Feb 27\n* 🟡 (05:00) keeps \"the\" old API\\\n", uint8(3), uint8(7), uint16(0x5a5a))
	f.Add("😀 é \x01 \u2028 tail", uint8(1), uint8(2), uint16(0xffff))
	f.Fuzz(func(t *testing.T, s string, first, last uint8, escapes uint16) {
		raw := quote(s, escapes)
		full := value(raw, 0).String()
		head, tail, size, cut := Ends(raw, int(first), int(last))
		require.Equal(t, len(full), size, "%q", raw)
		if !cut {
			require.Equal(t, full, head, "%q", raw)
			require.Equal(t, "", tail)
			return
		}
		if !utf8.ValidString(s) {
			return // U+FFFD for a broken character: prefix and suffix hold only of valid text
		}
		require.True(t, strings.HasPrefix(full, head), "head %q of %q", head, raw)
		require.True(t, strings.HasSuffix(full, tail), "tail %q of %q", tail, raw)
		require.True(t, len(head)+len(tail) <= len(full), "%q", raw)
	})
}

// quote is s as a JSON string, each character escaped as \u (astral ones
// as a surrogate pair) or by its short escape where the next bit of
// escapes says, and always where JSON requires it.
func quote(s string, escapes uint16) string {
	var b strings.Builder
	b.WriteByte('"')
	bit := 0
	for _, r := range s {
		on := escapes>>(bit%16)&1 == 1
		bit++
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n' && !on:
			b.WriteString(`\n`)
		case r < ' ' || on:
			if r >= 0x10000 {
				r -= 0x10000
				writeU(&b, 0xD800+(r>>10))
				writeU(&b, 0xDC00+(r&0x3FF))
			} else {
				writeU(&b, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func writeU(b *strings.Builder, r rune) {
	const hex = "0123456789abcdef"
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hex[r>>shift&0xF])
	}
}
