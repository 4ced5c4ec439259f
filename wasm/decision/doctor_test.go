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
