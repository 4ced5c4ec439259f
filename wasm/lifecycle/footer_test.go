package lifecycle

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

func TestFooterLineSeparatesStoresAndSaysWhenTheSessionIsOff(t *testing.T) {
	for _, c := range []struct {
		name   string
		sw     string
		pieces []string
		want   string
	}{
		{"every store", "", []string{"decisions 2, 1 conflict", "notes 14", "om 42 obs", "hindsight project"}, "decisions 2, 1 conflict · notes 14 · om 42 obs · hindsight project"},
		{"a store with nothing to show is left out", "", []string{"decisions 0", "", "", ""}, "decisions 0"},
		{"stores off say why", "", []string{"decisions off (untrusted)", "notes 3", "om off (disabled)", ""}, "decisions off (untrusted) · notes 3 · om off (disabled)"},
		{"nothing", "", []string{"", ""}, ""},
		{"no stores", "", nil, ""},
		{"--no-memory", "--no-memory", []string{"decisions 2"}, "memory off (--no-memory)"},
		{"/memory off", "/memory off", nil, "memory off (/memory off)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, footerLine(c.sw, c.pieces))
		})
	}
}

// footerPiece is the piece of a status effect's footer that starts with
// name ("" when there is none): the stores' pieces are joined by footerSep.
func footerPiece(status gjson.Result, name string) string {
	if status.Get("key").String() != store.StatusKey {
		return ""
	}
	for _, p := range strings.Split(status.Get("text").String(), footerSep) {
		if strings.HasPrefix(p, name+" ") {
			return p
		}
	}
	return ""
}

// FooterPiece is footerPiece for the tests outside the package.
var FooterPiece = footerPiece

// footer is the text of the last envelope's status, and whether it sent one.
func (r *rig) footer() (string, bool) {
	s := r.last.Get(`effects.#(t=="status")`)
	require.Equal(r.t, s.Exists(), s.Get("key").String() == store.StatusKey, "one key: %s", s.Raw)
	return s.Get("text").String(), s.Exists()
}

func TestTheFooterIsSentAtStartThenOnlyWhenItChanges(t *testing.T) {
	r := newRig(t, true)
	line, sent := r.footer()
	require.True(t, sent, "a new session always sends it: pi may show the previous session's")
	require.Equal(t, "decisions 0", line)

	r.cmd("add Use Go for services")
	line, _ = r.footer()
	require.Equal(t, "decisions 1", line)
	r.cmd("list")
	_, sent = r.footer()
	require.False(t, sent, "unchanged: not sent again")

	r.write("proj/.pi/memory/MEMORY.md", "# Memory\n- use make\n- pnpm, not npm\n")
	r.call("before_agent_start", map[string]any{"prompt": "hi"})
	line, _ = r.footer()
	require.Equal(t, "decisions 1 · notes 2", line, "the notes are counted once a prompt read them")

	r.mem("off")
	line, _ = r.footer()
	require.Equal(t, "memory off (/memory off)", line)
	r.mem("on")
	line, _ = r.footer()
	require.Equal(t, "decisions 1 · notes 2", line)

	r.write("proj/.pi/decision-memory.config.json", `{"enabled": false}`)
	r.call("before_agent_start", map[string]any{"prompt": "again"})
	line, _ = r.footer()
	require.Equal(t, "decisions off (disabled) · notes 2", line)

	r.start(true, false)
	line, _ = r.footer()
	require.Equal(t, "decisions off (untrusted)", line, "untrusted: the project's notes are left out, the global scope has none")
}
