package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hsimport"
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

// pimem mcp serves a resource as the core's output text: a file's last
// newline is part of it, though Stdout would end the line either way.
func TestDriverKeepsOutputTextsByteForByte(t *testing.T) {
	rt := probeRuntime(t)
	for _, input := range []string{`{"argv":["echo"]}`, `{"argv":["echo"]}` + "\n"} {
		d := newDriver(t, rt)
		res, err := d.d.Run("command", []byte(input))
		require.NoError(t, err)
		require.Equal(t, []string{input}, res.Outputs)
		require.Equal(t, strings.TrimSuffix(input, "\n")+"\n", d.stdout.String())
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

// Asks of no request are a search's slices, not a core asking in a row: as
// many as it takes are answered ([]); once Stop is done, with an error.
func TestDriverAnswersEverySliceAndCancelsOnStop(t *testing.T) {
	d := newDriver(t, probeRuntime(t))
	res, err := d.d.Run("command", []byte(`{"argv":["slices","200"]}`))
	require.NoError(t, err)
	require.Equal(t, 200, len(res.HTTP))
	require.Equal(t, []string{"answered slice-1 with []"}, res.Outputs)
	stop, cancel := context.WithCancel(context.Background())
	cancel()
	d.d.Stop = stop
	res, err = d.d.Run("command", []byte(`{"argv":["slices","200"]}`))
	require.NoError(t, err)
	require.Equal(t, []string{`answered slice-200 with [{"error":"aborted"}]`}, res.Outputs)
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

// observeSession is a pi branch of one long turn: enough for an observer
// whose threshold is 1,000 tokens.
func observeSession() string {
	long := strings.Repeat("the parser drops trailing commas ", 160)
	return `[{"type":"message","id":"u1","parentId":null,"timestamp":"2026-02-27T06:00:00.000Z","message":{"role":"user","content":"Fix it: ` + long + `"}},` +
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-02-27T06:01:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Fixed: ` + long + `"}]}}]`
}

// The Go host answers the core's model calls from a script, so observational
// memory runs end to end without pi: the settle's background call, the entry
// to append, the block for the next request, and a covered compaction.
func TestDriverRunsTheObserverWithAScriptedModel(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		mem := fsys.NewMem(nil)
		require.NoError(t, mem.Mkdir("/home/ada/app/.pi"))
		require.NoError(t, mem.WriteAtomic("/home/ada/app/.pi/om-config.json", []byte(`{"observerTokens": 1000}`)))
		var out, errs bytes.Buffer
		d := &Driver{Inst: newInstance(t, rt, Config{FS: mem}), Stdout: &out, Stderr: &errs}
		d.Complete = func(e Effect) json.RawMessage {
			return json.RawMessage(`{"text":"Date: Feb 27, 2026\n* 🔴 (06:00) User wants the parser to accept trailing commas\n","usage":{"input":1200,"output":20}}`)
		}
		branch := observeSession()
		_, err := d.Run("session_start", []byte(`{"cwd":"/home/ada/app","agentDir":"/home/ada/.pi/agent","trusted":true,"hasUI":false,"mode":"print","flags":{},"branch":[],"zone":0,"window":200000}`))
		require.NoError(t, err)

		res, err := d.Run("agent_settled", []byte(`{"branch":`+branch+`,"window":200000}`))
		require.NoError(t, err)
		require.Equal(t, 1, len(res.Completions))
		require.True(t, res.Completions[0].Background)
		require.Equal(t, 1, len(res.Entries))
		require.Contains(t, string(res.Entries[0].Data), `"op":"observe"`)
		entry := string(res.Entries[0].Data)

		res, err = d.Run("context", []byte(`{"messages":[{"role":"user","content":"and now?"}]}`))
		require.NoError(t, err)
		require.Equal(t, 1, len(res.ContextMessages))
		require.Contains(t, string(res.ContextMessages[0].Messages), "accept trailing commas")
		block := res.ContextMessages[0]

		// The next request names the block; the instance gives it its messages.
		res, err = d.Run("context", []byte(`{"messages":[{"role":"user","content":"and now?"}]}`))
		require.NoError(t, err)
		require.Equal(t, block.ID, res.ContextMessages[0].Same)
		require.Equal(t, string(block.Messages), string(res.ContextMessages[0].Messages))
		withEntry := strings.TrimSuffix(branch, "]") + `,{"type":"custom","id":"c1","parentId":"a1","customType":"pi-memory-om","data":` + entry + `}]`

		// A new instance holds no block: once its core has read the branch again
		// (the next settle brings it), it sends the block again.
		_, err = d.Inst.Recreate()
		require.NoError(t, err)
		_, err = d.Run("agent_settled", []byte(`{"branch":`+withEntry+`,"window":200000}`))
		require.NoError(t, err)
		res, err = d.Run("context", []byte(`{"messages":[{"role":"user","content":"and now?"}]}`))
		require.NoError(t, err)
		require.Equal(t, 1, len(res.ContextMessages))
		require.Equal(t, "", res.ContextMessages[0].Same)
		require.Equal(t, string(block.Messages), string(res.ContextMessages[0].Messages))

		// pi compacts, keeping a1: the observations cover u1.
		res, err = d.Run("session_before_compact", []byte(`{"branch":`+withEntry+`,"firstKeptEntryId":"a1","tokensBefore":2600}`))
		require.NoError(t, err)
		require.Equal(t, 1, len(res.Compactions))
		require.Equal(t, "a1", res.Compactions[0].FirstKeptEntryID)
		require.Contains(t, res.Compactions[0].Summary, "## Observations")
		require.Contains(t, string(res.Compactions[0].Details), `"schemaVersion":1`)
		require.Equal(t, "", errs.String())
	})
}

// A dialog is answered from a script: here pi's editor, opened by /om config
// edit on the defaults, returns a changed text that the core writes.
func TestDriverAnswersAnEditorDialogFromScriptedInput(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		mem := fsys.NewMem(nil)
		require.NoError(t, mem.Mkdir("/home/ada/app/.git"))
		var out, errs bytes.Buffer
		var asked []Effect
		d := &Driver{Inst: newInstance(t, rt, Config{FS: mem}), Stdout: &out, Stderr: &errs}
		d.Dialog = func(e Effect) json.RawMessage {
			asked = append(asked, e)
			text := strings.Replace(e.Prefill, `"observerTokens": 30000`, `"observerTokens": 12000`, 1)
			b, _ := json.Marshal(text)
			return b
		}
		_, err := d.Run("session_start", []byte(`{"cwd":"/home/ada/app","agentDir":"/home/ada/.pi/agent","trusted":true,"hasUI":true,"mode":"interactive","flags":{}}`))
		require.NoError(t, err)
		res, err := d.Run("command", []byte(`{"name":"om","args":"config edit","hasUI":true}`))
		require.NoError(t, err)
		require.Equal(t, 0, res.Exit)
		require.Equal(t, 1, len(asked))
		require.Equal(t, "editor", asked[0].Kind)
		require.Contains(t, asked[0].Prefill, `"observerTokens": 30000,`)
		require.Contains(t, out.String(), "Wrote /home/ada/app/.pi/om-config.json")
		buf := make([]byte, 4096)
		n, err := mem.ReadAt("/home/ada/app/.pi/om-config.json", 0, buf)
		require.NoError(t, err)
		require.Contains(t, string(buf[:n]), `"observerTokens": 12000,`)
		require.Equal(t, "", errs.String())
	})
}

// A search in an MCP session ends at its next slice once the client
// cancels the call (the Driver's Stop is done), and the next search goes on.
func TestDriverEndsASearchOnceItsCallIsCancelled(t *testing.T) {
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			mem := fsys.NewMem(nil)
			project, agent := "/home/ada/app", "/home/ada/.pi/agent"
			require.NoError(t, mem.Mkdir(project+"/.git"))
			folder := agent + "/sessions/" + hsimport.SessionFolder(project)
			require.NoError(t, mem.Mkdir(folder))
			for i := range 3_000 {
				line := `{"type":"session","version":3,"id":"s","timestamp":"2026-06-01T00:00:00.000Z","cwd":"` + project + `"}` + "\n" +
					`{"type":"message","id":"m1","timestamp":"2026-06-01T00:00:00.000Z","message":{"role":"user","content":"session ` + strconv.Itoa(i) + ` deploys the billing service"}}` + "\n"
				require.NoError(t, mem.WriteAtomic(fmt.Sprintf("%s/2026-06-01T00-00-00-000Z_%05d.jsonl", folder, i), []byte(line)))
			}
			d := &Driver{Inst: newInstance(t, runtimeFor(t, m.Path(t)), Config{FS: mem}), Stdout: io.Discard, Stderr: io.Discard}
			_, err := d.Run("session_start", []byte(`{"cwd":"`+project+`","agentDir":"`+agent+`","trusted":true,"mode":"mcp","reason":"startup"}`))
			require.NoError(t, err)
			search := []byte(`{"name":"memory_search","params":{"query":"billing 2999"}}`)
			stop, cancel := context.WithCancel(context.Background())
			cancel()
			d.Stop = stop
			res, err := d.Run("tool", search)
			require.NoError(t, err)
			require.True(t, len(res.HTTP) >= 1, "the search asked for its next slice")
			require.Equal(t, "The search was cancelled before it finished.", res.ToolResults[0].Text)
			d.Stop = nil
			res, err = d.Run("tool", search)
			require.NoError(t, err)
			require.Contains(t, res.ToolResults[0].Text, "session 2999 deploys the billing service")
		})
	}
}
