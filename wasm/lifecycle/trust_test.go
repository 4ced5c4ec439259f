package lifecycle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// startTrust starts a session in cwd (the project or a folder below it)
// with what pi's adapter forwards about trust: piTrusted is
// ctx.isProjectTrusted(), facts the "trust" object.
func (r *rig) startTrust(cwd string, hasUI, piTrusted bool, facts string, extra ...any) {
	r.t.Helper()
	in := map[string]any{"cwd": cwd, "agentDir": r.agent, "trusted": piTrusted, "hasUI": hasUI, "mode": "rpc", "reason": "startup", "trust": raw(facts)}
	for i := 0; i+1 < len(extra); i += 2 {
		in[extra[i].(string)] = extra[i+1]
	}
	r.call("session_start", in)
}

// Issue 25, items 13 and 14: pi says "trusted" for a repository whose only
// pi files are ours, even under defaultProjectTrust "never", and judges the
// folder it started in rather than the root whose memory is read. The core
// judges the root by pi's rule with our files on pi's list.
func TestAProjectPiWouldNotTrustIsNeitherReadNorWritten(t *testing.T) {
	for _, tc := range []struct {
		name      string
		sub       string // where pi started, below the root
		piTrusted bool
		facts     string
		trusted   bool
	}{
		{"never, only our files", "", true, `{"default":"never"}`, false},
		{"never, started in a subfolder", "web", true, `{"default":"never"}`, false},
		{"never, the store trusts only the subfolder", "web", true, `{"default":"never","store":"{\"@SUB\": true}"}`, false},
		{"never, the store trusts the root", "web", true, `{"default":"never","store":"{\"@ROOT\": true}"}`, true},
		{"ask without a UI", "", true, `{"default":"ask"}`, false},
		{"always", "", true, `{"default":"always"}`, true},
		{"always, the store says no", "", true, `{"default":"always","store":"{\"@ROOT\": false}"}`, false},
		{"--approve", "", true, `{"default":"never","approve":true}`, true},
		{"--no-approve", "", false, `{"default":"always","approve":false}`, false},
		{"pi judged its own resource at the root", "", true, `{"default":"never","judged":true}`, true},
		{"pi judged a subfolder untrusted", "web", false, `{"default":"always","judged":true}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, false)
			r.write(projectIndex, "## Build\n- The project deploys with make ship\n")
			r.write(globalIndex, "## Style\n- Prefer small pull requests\n")
			cwd := filepath.Join(r.project, tc.sub)
			require.NoError(t, os.MkdirAll(cwd, 0o755))
			facts := strings.NewReplacer("@ROOT", r.project, "@SUB", cwd).Replace(tc.facts)
			r.startTrust(cwd, false, tc.piTrusted, facts)
			sys := r.injected("hello")
			require.Contains(t, sys, "small pull requests", "global memory is never a question of trust")
			require.Equal(t, tc.trusted, strings.Contains(sys, "make ship"), sys)

			text, isErr := r.tool("memory_remember", `{"text":"Releases are tagged by CI","scope":"project"}`)
			require.Equal(t, !tc.trusted, isErr, text)
			require.Equal(t, tc.trusted, strings.Contains(r.read(projectIndex), "tagged by CI"))
			r.cmd(`add "Use PostgreSQL"`)
			require.Equal(t, tc.trusted, r.exists("proj/.pi/decision-memory"), r.text())
			r.mem("status")
			if !tc.trusted {
				require.Contains(t, r.text(), "not trusted")
			}
		})
	}
}

// With defaultProjectTrust "ask" and a person to ask, the session asks once;
// until the answer only global memory is used, a "trust" starts the stores
// again trusted, and a core restarted after an error keeps the answer
// without asking again. Nothing of the answer is written to disk.
func TestAskAsksOnceAndTheAnswerHoldsForTheSession(t *testing.T) {
	r := newRig(t, true)
	r.write(projectIndex, "## Build\n- The project deploys with make ship\n")
	before := tree(t, r.agent)
	r.startTrust(r.project, true, true, `{"default":"ask"}`)
	d := r.dialog()
	require.Equal(t, "select", d.Get("kind").String(), r.last.Raw)
	require.Equal(t, "select", d.Get("kind").String())
	require.Contains(t, d.Get("title").String(), r.project)
	require.Contains(t, d.Get("title").String(), `defaultProjectTrust is "ask"`)
	r.answer(trustYes)
	require.Equal(t, before, tree(t, r.agent), "nothing of the answer on disk")
	require.Contains(t, r.injected("hello"), "make ship")
	require.False(t, r.dialog().Exists(), "asked once")

	// A restart replays session_start with the state it was sent.
	r.startTrust(r.project, true, true, `{"default":"ask"}`, "restore", raw(`{"state":`+r.state+`}`))
	require.False(t, r.dialog().Exists(), "a restart does not ask again")
	require.Contains(t, r.injected("hello"), "make ship")

	t.Run("no", func(t *testing.T) {
		r := newRig(t, true)
		r.write(projectIndex, "## Build\n- The project deploys with make ship\n")
		r.startTrust(r.project, true, true, `{"default":"ask"}`)
		r.answer(trustNo)
		require.NotContains(t, r.injected("hello"), "make ship")
		r.mem("status")
		require.Contains(t, r.text(), "you did not trust it when asked")
	})
	t.Run("a restart before the answer asks nothing and trusts nothing", func(t *testing.T) {
		r := newRig(t, true)
		r.write(projectIndex, "## Build\n- The project deploys with make ship\n")
		r.startTrust(r.project, true, true, `{"default":"ask"}`, "restore", raw(`{"state":{"v":1}}`))
		require.False(t, r.dialog().Exists())
		require.NotContains(t, r.injected("hello"), "make ship")
	})
	t.Run("--no-memory asks nothing", func(t *testing.T) {
		r := newRig(t, true)
		r.write(projectIndex, "## Build\n- The project deploys with make ship\n")
		r.startTrust(r.project, true, true, `{"default":"ask"}`, "flags", raw(`{"no-memory":true}`))
		require.False(t, r.dialog().Exists())
		// Switched on later: still untrusted, and the reason is the switch, not
		// a missing UI (h-v93 b5).
		r.mem("on")
		require.NotContains(t, r.injected("hello"), "make ship")
		r.mem("status")
		require.Contains(t, r.text(), "memory was off (--no-memory) when this session started, so nothing was asked; a new session (/new) asks")
		require.NotContains(t, r.text(), "no one to ask")
	})
	t.Run("a root without pi files is not asked about", func(t *testing.T) {
		r := newRig(t, true)
		r.startTrust(r.project, true, true, `{"default":"ask"}`)
		require.False(t, r.dialog().Exists())
	})
}
