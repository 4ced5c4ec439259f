package main

import (
	"bytes"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// What pimem prints around the core's output shows a path's or an
// argument's escapes as text (h-v95 c4).
func TestPlainWriterShowsControlsAsEscapes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text\nand a tab\there\r\n", "plain text\nand a tab\there\r\n"},
		{"pimem git setup in /r\x1b]52;c;aGk=\a\x1b[2J:\n", "pimem git setup in /r\\x1b]52;c;aGk=\\a\\x1b[2J:\n"},
		{"flag -x\u009b2J and \u202eevil\u202c, over\rwrite", "flag -x\\u009b2J and \\u202eevil\\u202c, over\\rwrite"},
		{"é and 日本 stay", "é and 日本 stay"},
		{"w1/x\x9b31my\u2028z\U000E0041q", "w1/x\\x9b31my\\u2028z\\U000e0041q"},                     // h-v96 c3
		{"/p/a\u200bb\u00adc\ufff9d\u206ae\ufefff", "/p/a\\u200bb\\u00adc\\ufff9d\\u206ae\\ufefff"}, // h-v97 c3
		{"no\ufe0f\ufe0f\ufe0f\u3164\u034fx", "no\ufe0f\\ufe0f\\ufe0f\\u3164\\u034fx"},              // h-v98 c2
		{"👨\u200d💻 and می\u200cخواهم ❤\ufe0f", "👨\u200d💻 and می\u200cخواهم ❤\ufe0f"},                // h-v98 c3: joiners stay
	} {
		var b bytes.Buffer
		n, err := plainWriter{&b}.Write([]byte(c.in))
		require.NoError(t, err)
		require.Equal(t, len(c.in), n)
		require.Equal(t, c.want, b.String())
	}
}
