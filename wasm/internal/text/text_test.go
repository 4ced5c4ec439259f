package text

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestPluralPicksTheNounForTheCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 lines"}, {1, "1 line"}, {2, "2 lines"}} {
		require.Equal(t, tc.want, Plural(tc.n, "line", "lines"))
	}
}

func TestSeriesJoinsTheLastTwoWithTheConjunction(t *testing.T) {
	for _, tc := range []struct {
		items []string
		want  string
	}{{nil, ""}, {[]string{"notes"}, "notes"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"}} {
		require.Equal(t, tc.want, Series(tc.items, "or"))
	}
}

func TestOneLineCollapsesEveryRunOfWhiteSpace(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"  a\n\tb  c\r\n", "a b c"},
	} {
		require.Equal(t, tc.want, OneLine(tc.in))
	}
}

func TestRunesCutsForAPersonWithAnEllipsis(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"Use PostgreSQL 16", 8, "Use Pos…"},
		{"ab cd", 4, "ab…"},
		{"ééééé", 3, "éé…"},
		{"anything", 0, ""},
	} {
		require.Equal(t, tc.want, Runes(tc.in, tc.n))
	}
}

func TestBytesCutsAtARuneBoundaryWithinTheCap(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 3, "hel"},
		{"héllo", 2, "h"},
		{"héllo", 3, "hé"},
		{"é", 0, ""},
		{"abc", -1, ""},
		{"a😀b", 3, "a"},
		{"a😀b", 5, "a😀"},
	} {
		got := Bytes(tc.in, tc.n)
		require.Equal(t, tc.want, got)
		require.True(t, utf8.ValidString(got), "valid UTF-8")
	}
}

// Text that is not UTF-8 (a run of continuation bytes) is cut near the cap,
// never to nothing.
func TestBytesCutsTextThatIsNotUTF8NearTheCap(t *testing.T) {
	junk := string(bytes.Repeat([]byte{0x80}, 100))
	for _, n := range []int{1, 10, 50} {
		got := Bytes(junk, n)
		require.Equal(t, n, len(got), "cut at %d", n)
	}
}

func TestWrapKeepsEveryLineWithinTheWidth(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  []string
	}{
		{"", 10, nil},
		{"record a decision; a near-duplicate asks", 18, []string{"record a decision;", "a near-duplicate", "asks"}},
		{"a  b\n c", 80, []string{"a b c"}},
		{"short averyveryverylongword end", 8, []string{"short", "averyveryverylongword", "end"}},
		{"é é é é", 3, []string{"é é", "é é"}},
	} {
		require.Equal(t, tc.want, Wrap(tc.in, tc.width))
	}
}

func TestIndentHangsTheLinesAfterTheFirst(t *testing.T) {
	for _, tc := range []struct {
		in, first, hang string
		width           int
		want            string
	}{
		{"one two three", "  ", "    ", 10, "  one two\n    three\n"},
		{"one two three four", "", "      ", 9, "one two\n      three\n      four\n"},
		{"", "  ", "    ", 10, ""},
	} {
		got := Indent(tc.in, tc.width, tc.first, tc.hang)
		require.Equal(t, tc.want, got)
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			require.True(t, utf8.RuneCountInString(l) <= tc.width || !strings.Contains(strings.TrimSpace(l), " "), "%q is wider than %d", l, tc.width)
		}
	}
}

// A cut made before redaction never keeps part of a word: most of a token
// (33 of its 40 characters) is no longer a token redaction knows.
func TestWholeNeverKeepsPartOfAWord(t *testing.T) {
	long := strings.Repeat("a", 1200)
	tests := []struct {
		name, s string
		n       int
		want    string
	}{
		{"short enough", "key ghp_abc", 20, "key ghp_abc"},
		{"through a token", "key ghp_1234567890abcdefghijABCDEFGHIJ123456 tail", 37, "key"},
		{"at a space", "a b c", 3, "a b"},
		{"just before a space", "ab cd", 2, "ab"},
		{"a newline is a space", "one\ntwo three", 9, "one\ntwo"},
		{"a text of one word is cut where Bytes cuts it", "abcdefghij", 4, "abcd"},
		{"a word longer than a secret is cut", "x " + long, 900, "x " + long[:898]},
		{"a word of the most a secret is left out", "x " + long[:500] + "b", 400, "x"},
		{"a rune is never cut", "é ééé", 4, "é"},
		// The adversarial pass: minified JSON has no space for 512 bytes, a
		// comma ends the token's word as well as a space does.
		{"a comma ends a word", "[" + strings.Repeat("q", 600) + ",wombat,ghp_u8jzPde0IgxLd6GncfBAepfJBd0123456789,x]", 630, "[" + strings.Repeat("q", 600) + ",wombat,"},
		{"a quote and a bracket too", `{"k":"sk-abcdefghij"}`, 12, `{"k":"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, Whole(tt.s, tt.n))
		})
	}
}

func FuzzOneLineIsFieldsJoined(f *testing.F) {
	for _, s := range []string{"", " ", "a", " a  b\n", "\u00a0x\u2028y\xff z\t", "\xe2\x80", "x\u3000\u0085y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := OneLine(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("OneLine(%q) = %q, want %q", s, got, want)
		}
	})
}

func TestFirstWordsKeepsTheFirstN(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"Use  Go\nfor services", 2, "Use Go"},
		{" a b c ", 6, "a b c"},
		{"a b c", 1, "a"},
		{"a b c", -1, "a b c"},
		{"", 3, ""},
	} {
		require.Equal(t, tc.want, FirstWords(tc.in, tc.n))
	}
}

func TestSpellingReadsOneCharacterSpelledAsAPageAStringOrAURLSpellsIt(t *testing.T) {
	for _, tt := range []struct {
		in string
		n  int
		c  byte
	}{
		{"%3C", 3, '<'}, {"%253C", 5, '<'}, {"%20", 0, 0}, {"%3", 0, 0},
		{`\u003c`, 6, '<'}, {`\u{3c}`, 6, '<'}, {`\U0000003c`, 10, '<'}, {`\x3c`, 4, '<'}, {`\x{3c}`, 6, '<'}, {`\x{}`, 0, 0},
		{`\074`, 4, '<'}, {`\74`, 3, '<'}, {`\0`, 0, 0}, {`\000`, 0, 0}, {`\0741`, 4, '<'},
		{"&#60;", 5, '<'}, {"&#x3c;", 6, '<'}, {"&#60", 4, '<'}, {"&#x00000000003C;", 16, '<'}, {"&#60123", 0, 0}, {"&#x3c/", 5, '<'}, {"&amp;#60;", 9, '<'}, {"&AMP;amp;#x3C;", 14, '<'}, {"&amp;", 0, 0}, {"&amp;amp;", 0, 0}, {"&#38;#60;", 9, '<'}, {"%26#60%3B", 9, '<'}, {"&#60%3B", 7, '<'}, {"%26", 3, '&'}, {"&#38;", 5, '&'}, {"&amp;#6;", 0, 0}, {"%u003C", 6, '<'}, {"%U003c", 6, '<'}, {"%u0A3C", 0, 0}, {`\X3C`, 4, '<'}, {`\3c `, 4, '<'}, {`\3c`, 3, '<'}, {`\00003c`, 7, '<'}, {`\00003cx`, 7, '<'},
		{`\abc`, 0, 0}, {`\d`, 0, 0}, {`\41`, 3, '!'}, {`\3e	`, 4, '>'},
		{"\uff1c", 3, '<'}, {"\uff50", 3, 'p'}, {"<", 0, 0},
	} {
		if n, c := Spelling(tt.in, 0); n != tt.n || c != tt.c {
			t.Errorf("Spelling(%q) = %d, %q; want %d, %q", tt.in, n, c, tt.n, tt.c)
		}
	}
}
