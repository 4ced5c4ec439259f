package host

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

type driven struct {
	d              *Driver
	stdout, stderr *bytes.Buffer
}

func newDriver(t *testing.T, rt *Runtime) driven {
	var out, errs bytes.Buffer
	return driven{&Driver{Inst: newInstance(t, rt, Config{}), Stdout: &out, Stderr: &errs}, &out, &errs}
}

func TestDriverExitCodesFromTheCore(t *testing.T) {
	cases := []struct {
		name         string
		session      bool
		export, in   string
		exit         int
		stdout       string
		stderrSubstr string
	}{
		{"ok prints output on stdout", true, "debug", `{"op":"ping"}`, 0, "pong\n", ""},
		{"usage error is 2", true, "debug", `{"op":"no-such-op"}`, 2, "", "error: debug: unknown op"},
		{"command before session_start is 1", false, "command", `{"name":"decision","argv":["list"],"hasUI":false}`, 1, "", "error: pi-memory: command arrived before session_start"},
	}
	eachCore(t, func(t *testing.T, rt *Runtime) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				d := newDriver(t, rt)
				if c.session {
					_, err := d.d.Run("session_start", []byte(sessionInput))
					require.NoError(t, err)
				}
				res, err := d.d.Run(c.export, []byte(c.in))
				require.NoError(t, err)
				require.Equal(t, c.exit, res.Exit)
				require.Equal(t, c.stdout, d.stdout.String())
				require.Contains(t, d.stderr.String(), c.stderrSubstr)
			})
		}
	})
}

func TestDriverPerformsEffectsForAHostWithoutUIOrModel(t *testing.T) {
	cases := []struct {
		name   string
		argv   string
		exit   int
		stdout string
		stderr string
	}{
		{"notify goes to stderr, prefixed unless info", `["notify"]`, 0, "done\n", "fyi\nwarning: careful\nerror: broken\n"},
		{"a dialog is answered as dismissed", `["dialog"]`, 0, "asking\nanswered d1 with null\n", ""},
		{"a completion is answered with no model", `["complete"]`, 1, `answered c1 with {"error":"no model available in pimem"}` + "\n", ""},
		{"user error exit 1", `["exit","1"]`, 1, "", "error: exit 1\n"},
		{"usage error exit 2", `["exit","2"]`, 2, "", "error: exit 2\n"},
	}
	rt := probeRuntime(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDriver(t, rt)
			res, err := d.d.Run("command", []byte(`{"argv":`+c.argv+`}`))
			require.NoError(t, err)
			require.Equal(t, c.exit, res.Exit)
			require.Equal(t, c.stdout, d.stdout.String())
			require.Equal(t, c.stderr, d.stderr.String())
		})
	}
}

func TestDriverCollectsInjectionByteForByte(t *testing.T) {
	d := newDriver(t, probeRuntime(t))
	res, err := d.d.Run("before_agent_start", []byte(`{"prompt":"use sqlite?","messageType":"user"}`))
	require.NoError(t, err)
	require.Equal(t, []string{"\n\n## Memory\n  prompt: use sqlite?  \n", "type=user\t"}, res.SystemPromptAppend)
	require.Equal(t, 1, len(res.Messages))
	require.Equal(t, "probe-recall", res.Messages[0].CustomType)
	require.Equal(t, "recall for use sqlite?", res.Messages[0].Content)
	require.Equal(t, "", d.stdout.String()+d.stderr.String())
}

func TestDriverStopsACoreThatNeverStopsAsking(t *testing.T) {
	d := newDriver(t, probeRuntime(t))
	_, err := d.d.Run("command", []byte(`{"argv":["loop"]}`))
	require.True(t, err != nil && strings.Contains(err.Error(), "in a row"), "got %v", err)
}

func TestDriverRecreatesTheInstanceAfterATrap(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		d := newDriver(t, rt)
		_, err := d.d.Run("session_start", []byte(sessionInput))
		require.NoError(t, err)
		_, err = d.d.Run("debug", []byte(`{"op":"panic"}`))
		require.ErrorIs(t, err, ErrTrap)
		res, err := d.d.Run("debug", []byte(`{"op":"ping"}`))
		require.NoError(t, err)
		require.Equal(t, 0, res.Exit)
		require.Equal(t, "pong\n", d.stdout.String())
	})
}
