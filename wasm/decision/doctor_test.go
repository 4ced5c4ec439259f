package decision

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestTornFindingQuotesTheCutLineRedactedAndShortened(t *testing.T) {
	const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"
	const tail = "; it stays on disk and the next write starts on a new line"
	tests := []struct {
		name, torn, quoted string
	}{
		{"a short line", `{"v":1,"t":"2026`, `"{\"v\":1,\"t\":\"2026"`},
		{"a long line is cut at 80 characters", strings.Repeat("é", 100), `"` + strings.Repeat("é", 79) + `…"`},
	}
	for _, tt := range tests {
		f := tornFinding(7, tt.torn)
		require.Equal(t, finding{Line: 7, Kind: "torn", Msg: "last line is cut short (a crash mid-write?): " + tt.quoted + tail}, f, tt.name)
	}
	f := tornFinding(3, `{"tx":"deploy with `+token)
	require.False(t, strings.Contains(f.Msg, token), "the secret is quoted: %s", f.Msg)
	require.Contains(t, f.Msg, "[REDACTED", "the secret is named redacted")
}

// Lines another process appended after a replay are not a torn tail: an
// add racing other adds warned "1 line needs attention" for them (issue 25,
// the adversarial pass), and doctor found nothing.
func TestBytesPastTheReplayHoldingALineEndAreNotATornTail(t *testing.T) {
	log := []byte(`{"a":1}` + "\n" + `{"b":2}` + "\n" + `{"c":`)
	read := func(off int64, dst []byte) (int, error) { return copy(dst, log[off:]), nil }
	for _, tt := range []struct {
		name string
		cur  cursor
		size int64
		line int
		text string
	}{
		{"a line appended since", cursor{Offset: 8, Line: 1}, 16, 0, ""},
		{"a line and a torn one appended since", cursor{Offset: 8, Line: 1}, int64(len(log)), 0, ""},
		{"a torn tail", cursor{Offset: 16, Line: 2}, int64(len(log)), 3, `{"c":`},
		{"nothing past", cursor{Offset: 16, Line: 2}, 16, 0, ""},
	} {
		line, text, err := readTornTail(read, tt.cur, tt.size)
		require.NoError(t, err)
		require.Equal(t, tt.line, line, tt.name)
		require.Equal(t, tt.text, text, tt.name)
	}
}
