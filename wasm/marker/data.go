package marker

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/tidwall/gjson"
)

// Text that came from outside (a memory file, a model's answer, a session, a
// memory server, a caller's arguments) is data, never orders and never
// terminal control. One rule says what a terminal or a model would read as
// something else, and it is applied at every exit and every write
// (docs/decisions/017-text-is-data.md):
//
//   - Data, at every exit: store.Out cleans every text effect with it (a
//     command's output, a notice, a tool's result, a dialog, the footer, the
//     system prompt), so the pimem CLI, pi's print mode, a tool result and an
//     MCP client's dialog all get the same text.
//   - Plain, the same without our markers, for the texts that carry our own
//     blocks (a request's observations or recall block; Wrap makes what is
//     inside them inert).
//   - Check, at every write: a text Data would change is refused, naming
//     what it holds, rather than written raw or changed behind the writer's
//     back.
//
// What Plain removes: escape sequences whole (CSI "ESC [ … final", OSC "ESC ]
// … BEL or ESC \" such as OSC 52's clipboard write, DCS/SOS/PM/APC strings,
// two-byte ESC sequences) and their 8-bit C1 forms (U+009B, U+009D, …), every
// other C0 and C1 control character and DEL, the bidirectional embeddings,
// overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E,
// U+200F, U+061C), which reorder what a person reads, the line and paragraph
// separators (U+2028, U+2029), and what a person cannot see and a model
// reads as text: the Unicode tag characters (U+E0000–U+E007F), the
// interlinear annotations (U+FFF9–U+FFFB), the deprecated format characters
// (U+206A–U+206F), the supplement's variation selectors (U+E0100–U+E01EF)
// and a variation selector after another (U+FE00–U+FE0F: an emoji takes
// one). Tab and newline stay.
// Invalid UTF-8 becomes U+FFFD. Data adds Inert: our markers, in any case,
// lose their "<".

// Data is s made data for every reader: Plain, then Inert. It is
// idempotent.
//
//	Data("ok </pi-memory-recall>\x1b]52;c;aGk=\x07\u202e") => "ok ‹/pi-memory-recall>"
//
//go:noinline
func Data(s string) string { return Inert(Plain(s)) }

// Plain removes from s what a terminal would act on or a reader would not
// see (the package's rule, above) and makes invalid UTF-8 U+FFFD; our
// markers stay. It is idempotent.
//
//	Plain("a\x1b[31mred\x1b[0m\r\n\x07b") => "ared\nb"
//
//go:noinline
func Plain(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if hidden(s, 0) < 0 {
		return s
	}
	var b text.Builder
	b.Grow(len(s))
	vs := false // the last character kept is a variation selector
	for i := 0; i < len(s); {
		if s[i] == 0xef && i+2 < len(s) && s[i+1] == 0xb8 && s[i+2] <= 0x8f {
			// U+FE00–FE0F after another kept one, whatever Plain removed
			// between them (h-v101 c2: "\ufe0f\u200e\ufe0f" left two,
			// and a second pass took one).
			if !vs {
				b.WriteString(s[i : i+3])
			}
			i, vs = i+3, true
			continue
		}
		if n := hiddenAt(s, i); n > 0 {
			i = skip(s, i, n)
			continue
		}
		if s[i]&0xc0 != 0x80 {
			vs = false
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// DataJSON is JSON text with Data applied to every string in it, for an
// output that is JSON (a command's --json): a reader decodes the strings,
// so an escape written as \u001b must go too.
//
//	DataJSON(`{"text":"a\u001b[2Jb"}`) => `{"text":"ab"}`
func DataJSON(js string) string { return MapJSONStrings(js, Data) }

// MapJSONStrings is JSON text with f applied to every string in it (keys
// too), each written back as JSON; a string f leaves alone keeps its bytes.
//
//	MapJSONStrings(`{"a":"x"}`, strings.ToUpper) => `{"A":"X"}`
func MapJSONStrings(js string, f func(string) string) string {
	var b []byte
	last := 0
	for i := 0; i < len(js); i++ {
		if js[i] != '"' {
			continue
		}
		end := i + 1
		for end < len(js) && js[end] != '"' {
			if js[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(js) {
			break
		}
		lit := js[i : end+1]
		if s := gjson.Parse(lit).Str; f(s) != s {
			b = append(b, js[last:i]...)
			b = jsonw.String(b, f(s))
			last = end + 1
		}
		i = end
	}
	if b == nil {
		return js
	}
	return string(append(b, js[last:]...))
}

// Check says what in s a write must refuse: the first thing Data would
// change, named with its position (characters from 1), or "" when s is data
// already. U+FFFD is refused too: it stands for a character lost on the way
// (a lone surrogate, bytes that were not UTF-8), and writing it would keep
// the loss.
//
//	Check("ok\x07") => "U+0007 (a control character) at character 3"
//	Check("a </PI-MEMORY-recall>") => "\"</PI-MEMORY-recall>\" (a marker of pi-memory's injected blocks) at character 3"
//	Check("a &lt;/pi-memory-recall&gt;") => "\"&lt;/pi-memory-recal\" (a marker of pi-memory's injected blocks) at character 3"
func Check(s string) string {
	m := -1 // where the first marker starts
	starts(s, MarkerAt, func(i, _ int) bool { m = i; return false })
	i, what := 0, ""
	for ; i < len(s); i++ {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			what = "bytes that are not UTF-8"
		case r == utf8.RuneError:
			what = "U+FFFD (the replacement character: a character lost on the way, a lone surrogate or bytes that were not UTF-8)"
		case i == m:
			end := strings.IndexByte(s[i:], '>') + 1
			if end <= 0 || end > 40 {
				for end = min(len(s)-i, 20); i+end < len(s) && !utf8.RuneStart(s[i+end]); end-- {
				}
			}
			what = strconv.Quote(s[i:i+end]) + " (a marker of pi-memory's injected blocks)"
		case hiddenAt(s, i) > 0:
			what = "U+" + hex4(r) + " (" + kind(r) + ")"
		}
		if what != "" {
			return what + " at character " + numstr.Itoa(utf8.RuneCountInString(s[:i])+1)
		}
		i += n - 1
	}
	return ""
}

// hex4 is r in upper-case hexadecimal, at least four digits.
func hex4(r rune) string {
	const digits = "0123456789ABCDEF"
	var b []byte
	for v := uint32(r); v > 0 || len(b) < 4; v >>= 4 {
		b = append([]byte{digits[v&15]}, b...)
	}
	return string(b)
}

// kind says what a character Plain removes is, for Check.
func kind(r rune) string {
	switch {
	case r == 0x1b:
		return "ESC, which starts a terminal escape sequence"
	case r >= 0xe0100:
		return "a variation selector of the supplement: invisible to a person, read by a model"
	case r >= 0xfe00 && r <= 0xfe0f:
		return "a variation selector after another: invisible to a person, read by a model"
	case r >= 0xe0000:
		return "a Unicode tag character: invisible to a person, read by a model"
	case r >= 0xfff9 && r <= 0xfffb:
		return "an interlinear annotation character: invisible to a person, read by a model"
	case r == 0x2028, r == 0x2029:
		return "a line or paragraph separator, a line break inside a line"
	case r >= 0x206a && r <= 0x206f:
		return "a deprecated format character, invisible to a person"
	case r >= 0x200e:
		return "a bidirectional control, which reorders what a person sees"
	case r == 0x61c:
		return "the Arabic letter mark, a bidirectional control"
	}
	return "a control character"
}

// hidden is the index of the first character Plain removes at or after
// i in valid UTF-8 s, -1 when there is none.
func hidden(s string, i int) int {
	for ; i < len(s); i++ {
		if hiddenAt(s, i) > 0 {
			return i
		}
	}
	return -1
}

// hiddenAt is the length in bytes of the character at i when Plain
// removes it, else 0.
func hiddenAt(s string, i int) int {
	c := s[i]
	switch {
	case c < 0x20 && c != '\t' && c != '\n', c == 0x7f:
		return 1
	case c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f:
		return 2
	case c == 0xd8 && i+1 < len(s) && s[i+1] == 0x9c: // U+061C Arabic letter mark
		return 2
	case c == 0xe2 && i+2 < len(s) && (bidiControl(s[i+1], s[i+2]) || unseenFormat(s[i+1], s[i+2])):
		return 3
	case c == 0xef && i+2 < len(s) && s[i+1] == 0xbf && s[i+2] >= 0xb9 && s[i+2] <= 0xbb: // U+FFF9–FFFB interlinear annotation
		return 3
	case c == 0xef && i+2 < len(s) && s[i+1] == 0xb8 && s[i+2] <= 0x8f && afterSelector(s, i): // U+FE00–FE0F after another
		return 3
	case c == 0xf3 && i+3 < len(s) && s[i+1] == 0xa0 && s[i+2] >= 0x80 && s[i+2] <= 0xbf:
		return 4 // U+E0000–E0FFF: tags; U+E0100–E01EF, the supplement's variation selectors; the unassigned rest, ignored where shown (h-v95 c2)
	}
	return 0
}

// unseenFormat reports, from the two bytes after their 0xE2, the left-to-right
// and right-to-left marks (U+200E, U+200F), the line and paragraph
// separators (U+2028, U+2029: a line break inside a line) and the
// deprecated format characters (U+206A–U+206F): a person sees nothing, or
// a line break where the text has none.
func unseenFormat(b1, b2 byte) bool {
	return b1 == 0x80 && (b2 == 0x8e || b2 == 0x8f || b2 == 0xa8 || b2 == 0xa9) || b1 == 0x81 && b2 >= 0xaa && b2 <= 0xaf
}

// afterSelector: the character before s[i] is a variation selector
// (U+FE00–FE0F, U+E0100–E01EF). An emoji or a letter takes one; a run of
// them carries text a person cannot see, one byte each.
func afterSelector(s string, i int) bool {
	return i >= 3 && s[i-3] == 0xef && s[i-2] == 0xb8 && s[i-1] <= 0x8f ||
		i >= 4 && s[i-4] == 0xf3 && s[i-3] == 0xa0 && (s[i-2] >= 0x84 && s[i-2] <= 0x86 || s[i-2] == 0x87 && s[i-1] <= 0xaf)
}

// Removes is how many bytes of s from i Plain removes as one (a control
// character, or an escape sequence whole), 0 when it keeps the byte at i;
// s is valid UTF-8. The redaction reads a secret through them, as a person
// reads it once they are gone (redact's plain text).
//
//	Removes("\x1b[1mkey", 0) => 4
func Removes(s string, i int) int {
	if n := hiddenAt(s, i); n > 0 {
		return skip(s, i, n) - i
	}
	return 0
}

// skip returns the index after the character of n bytes at i and, for
// ESC and the C1 introducers, the sequence it starts.
func skip(s string, i, n int) int {
	switch {
	case s[i] == 0x1b:
		return skipEscape(s, i+1)
	case n == 2:
		return skipC1(s, i)
	}
	return i + n
}

// bidiControl reports U+202A–U+202E and U+2066–U+2069 from the two bytes
// after their 0xE2.
func bidiControl(b1, b2 byte) bool {
	return (b1 == 0x80 && b2 >= 0xaa && b2 <= 0xae) || (b1 == 0x81 && b2 >= 0xa6 && b2 <= 0xa9)
}

// skipEscape returns the index after the escape sequence whose ESC was at
// i-1.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// ESC, intermediates (0x20–0x2F), one final byte (0x30–0x7E).
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips a control sequence's parameter and intermediate bytes
// (0x20–0x3F) and its final byte (0x40–0x7E).
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips an OSC, DCS, SOS, PM or APC string: up to and with its
// terminator (BEL, ESC \ or U+009C). One that is never terminated ends at the
// next newline, which stays: the terminal would have swallowed the rest, but
// it is only text once the introducer is gone.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i + 1
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		case s[i] == '\n':
			return i
		}
		i++
	}
	return i
}

// skipC1 skips the C1 control at i (two bytes, 0xC2 0x80–0x9F), and the
// sequence it introduces: CSI (U+009B) like ESC [, and OSC, DCS, SOS, PM,
// APC (U+009D, U+0090, U+0098, U+009E, U+009F) like their ESC forms.
func skipC1(s string, i int) int {
	switch s[i+1] {
	case 0x9b:
		return skipCSI(s, i+2)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f:
		return skipString(s, i+2)
	}
	return i + 2
}
