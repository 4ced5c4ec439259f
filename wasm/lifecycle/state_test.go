package lifecycle

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// restart is a trap and the host's restart: a new engine over the same
// host, its session started by the replayed session_start with the newest
// state and what was interrupted (nil: nothing), as the hosts send them.
func (r *rig) restart(interrupted map[string]any) {
	r.t.Helper()
	restore := `{"state":` + r.state
	if r.state == "" {
		restore = `{"state":null`
	}
	if interrupted != nil {
		b := appendAny(nil, raw("{"))
		first := true
		for k, v := range interrupted {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, quote(k)...)
			b = append(b, ':')
			b = appendAny(b, v)
		}
		restore += `,"interrupted":` + string(b) + "}"
	}
	restore += "}"
	r.e = New(r.h)
	r.call("session_start", map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "hasUI": true, "mode": "rpc", "reason": "startup", "restore": raw(restore)})
}

func TestARestartKeepsMemoryOffAndTheFooterSaysSo(t *testing.T) {
	r := newRig(t, true)
	r.call("command", map[string]any{"name": "memory", "args": "off"})
	r.restart(nil)
	line, sent := r.footer()
	require.True(t, sent)
	require.Equal(t, "memory off (/memory off)", line)
	require.Equal(t, "[]", r.last.Get(`effects.#(t=="tools").active`).Raw, "the replay names the tools, all off")
	r.cmd("add Use black for Python formatting")
	require.Equal(t, int64(1), r.exit())
	r.contains("Memory is off")
	require.Equal(t, "", r.log(), "off means off after a restart too")

	r.call("command", map[string]any{"name": "memory", "args": "on"})
	require.True(t, strings.Contains(r.last.Get(`effects.#(t=="tools").active`).Raw, "decision_propose"), "on again: the tools come back: %s", r.last.Raw)
}

func TestARestartInsideACommandThatSwitchesMemoryLeavesItOff(t *testing.T) {
	for _, c := range []map[string]any{
		{"export": "command", "name": "memory", "args": "off"},
		{"export": "command", "name": "memory", "args": "on"},
		{"export": "command", "name": "memory", "argv": []string{"off"}},
	} {
		r := newRig(t, true)
		r.restart(c)
		line, _ := r.footer()
		require.Equal(t, "memory off ("+restartedOff+")", line, "%v", c)
	}
	r := newRig(t, true)
	r.restart(map[string]any{"export": "command", "name": "decision", "args": "list"})
	line, _ := r.footer()
	require.Equal(t, "decisions 0", line, "a trap in any other command leaves memory as it was")
}

func TestARestartThatCannotReadTheStateLeavesMemoryOff(t *testing.T) {
	for _, state := range []string{`{"v":99}`, `[]`, `"on"`} {
		r := newRig(t, true)
		r.state = state
		r.restart(nil)
		line, _ := r.footer()
		require.Equal(t, "memory off ("+restartedOff+")", line, "state %s", state)
	}
}

func TestARestartKeepsTheLastReceiptAndWhatWasForgotten(t *testing.T) {
	r := newRig(t, true)
	r.cmd("add Use PostgreSQL 16 for the primary database")
	r.write("proj/.pi/memory/MEMORY.md", "## Notes\n\n- the staging server is staging.example.com\n")
	appended := r.injected("hi")
	require.Contains(t, appended, "PostgreSQL 16")
	r.call("command", map[string]any{"name": "memory", "args": "last"})
	before := r.text()
	r.call("command", map[string]any{"name": "memory", "args": "forget staging server"})
	r.contains("Forgot")

	r.restart(nil)
	r.call("command", map[string]any{"name": "memory", "args": "last"})
	require.Equal(t, before, r.text(), "/memory last after a restart")
	r.call("command", map[string]any{"name": "memory", "args": "restore"})
	r.contains("Restored")
	require.Contains(t, r.read("proj/.pi/memory/MEMORY.md"), "staging.example.com")
}

func TestADeclinedProposalIsNotAskedAgainNorAfterARestart(t *testing.T) {
	r := newRig(t, true)
	r.call("before_agent_start", map[string]any{"prompt": "Decision: use black for Python formatting", "messageType": "user"})
	r.call("tool", map[string]any{"name": "decision_propose", "params": raw(`{"text":"Use black for Python formatting"}`)})
	require.Equal(t, "confirm", r.dialog().Get("kind").String(), "it asks first")
	r.answer(false)
	require.Contains(t, r.last.Get(`effects.#(t=="tool_result").text`).String(), "declined")
	r.call("agent_end", map[string]any{"messages": raw("[]")})
	require.False(t, r.dialog().Exists(), "auto-capture does not ask about what was just declined: %s", r.last.Raw)

	r.restart(nil)
	said, isErr := r.tool("decision_propose", `{"text":"use black for python formatting"}`)
	require.False(t, isErr)
	require.Contains(t, said, "declined this decision earlier")
	require.False(t, r.dialog().Exists())
	r.call("before_agent_start", map[string]any{"prompt": "Decision: Use black for Python formatting", "messageType": "user"})
	r.call("agent_end", map[string]any{"messages": raw("[]")})
	require.False(t, r.dialog().Exists(), "nor after a restart: %s", r.last.Raw)
	require.Equal(t, "", r.log())
}

// A proposal put to the person twice at once (two calls of one MCP client,
// whose server no longer waits for the first answer, or two clients) and
// accepted twice is recorded once: the write checks the log as it is then.
func TestAProposalAcceptedTwiceAtOnceIsRecordedOnce(t *testing.T) {
	r := newRig(t, true)
	var asks []string
	for range 2 {
		r.call("tool", map[string]any{"name": "decision_propose", "params": raw(`{"text":"Deploy only on Tuesdays"}`)})
		require.Equal(t, "confirm", r.dialog().Get("kind").String())
		asks = append(asks, r.dialog().Get("id").String())
	}
	r.call("resume", map[string]any{"id": asks[0], "value": true})
	require.Contains(t, r.last.Get(`effects.#(t=="tool_result").text`).String(), "Recorded D-")
	r.call("resume", map[string]any{"id": asks[1], "value": true})
	require.Contains(t, r.last.Get(`effects.#(t=="tool_result").text`).String(), "recorded meanwhile, as D-")
	require.Equal(t, 1, strings.Count(r.log(), "Deploy only on Tuesdays"))
}
