package text

import "testing"

// The characters that print as nothing are format characters; those beside
// them in Unicode's tables are not.
func TestFormatLenKnowsWhatPrintsAsNothing(t *testing.T) {
	for _, r := range []rune{0xAD, 0x34F, 0x61C, 0x180E, 0x200B, 0x200F, 0x2028, 0x202E, 0x2060, 0x206F, 0x3164, 0x115F, 0xFE00, 0xFE0F, 0xFEFF, 0xFFA0, 0xE0001, 0xE007F, 0xE0100, 0xE01EF} {
		if s := string(r); FormatLen(s, 0) != len(s) {
			t.Errorf("%U is a format character", r)
		}
	}
	for _, r := range []rune{'a', 0xAC, 0x2027, 0x202F, 0xFE10, 0x3165, 0xE01F0, 0xFFA1, 0x350, 0x1161} {
		if FormatLen(string(r), 0) != 0 {
			t.Errorf("%U is no format character", r)
		}
	}
}
