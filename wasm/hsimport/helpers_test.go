package hsimport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// fixtures is the folder of real-shaped session files (README.md there says
// what each one holds); the end-to-end import test reads it too.
const fixtures = "../../testdata/pi-sessions"

// fixture reads the session file whose name contains part.
func fixture(t testing.TB, part string) []byte {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(fixtures, "*", "*"+part+"*"))
	require.NoError(t, err)
	require.Equal(t, 1, len(matches), "fixtures matching %q", part)
	data, err := os.ReadFile(matches[0])
	require.NoError(t, err)
	return data
}

// session is a session file written from lines (a header is not added).
func session(lines ...string) []byte {
	return []byte(strings.Join(lines, "\n") + "\n")
}

const header = `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/w/app"}`

func userEntry(id, parent, text string) string {
	return `{"type":"message","id":"` + id + `","parentId":` + parentJSON(parent) + `,"timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"user","content":` + quote(text) + `}}`
}

func assistantEntry(id, parent, text string) string {
	return `{"type":"message","id":"` + id + `","parentId":` + parentJSON(parent) + `,"timestamp":"2026-11-20T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":` + quote(text) + `}],"stopReason":"stop"}}`
}

func parentJSON(p string) string {
	if p == "" {
		return "null"
	}
	return `"` + p + `"`
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}

// texts is the session's turns as "Role: text" lines.
func texts(s Session) []string {
	var out []string
	for _, t := range s.Turns {
		out = append(out, t.Role+": "+t.Text)
	}
	return out
}

func mustParse(t testing.TB, data []byte) Session {
	t.Helper()
	s, err := Parse(data, Limits{})
	require.NoError(t, err)
	return s
}
