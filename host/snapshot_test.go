package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/host/internal/evtime"
	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/lifecycle"
)

// Snapshots are derived files any build may read: one written by the
// TinyGo build must be accepted by the standard-Go build and by the native
// engine, and the other way round. (A difference in evaluation order once
// made each build compute another log checksum and reject the other's.)
func TestEveryBuildReadsEveryBuildsSnapshot(t *testing.T) {
	root := t.TempDir()
	project, agent := filepath.Join(root, "project"), filepath.Join(root, "agent")
	require.NoError(t, os.MkdirAll(filepath.Join(project, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(project, ".pi/decision-memory"), 0o755))
	var b strings.Builder
	base := evtime.Ms("2025-01-01T00:00:00.000Z")
	for i := 1; b.Len() < 3<<20/2; i++ {
		ms := base + int64(i)*60_000
		fmt.Fprintf(&b, `{"v":1,"t":"%s","p":"x","e":"a","i":"D-%s-%04d","d":{"tx":"Rule %d: %s","tg":["t%d"]},"u":"user"}`+"\n",
			evtime.Stamp(ms), evtime.Day(ms), i%1440+1, i, strings.Repeat("keep it simple ", 12), i%5)
	}
	require.NoError(t, os.WriteFile(filepath.Join(project, ".pi/decision-memory/decisions.jsonl"), []byte(b.String()), 0o644))
	start := fmt.Sprintf(`{"cwd":%q,"agentDir":%q,"trusted":true,"hasUI":false,"mode":"cli"}`, project, agent)
	clock := fsys.NewManual(time.UnixMilli(evtime.Ms("2026-01-01T00:00:00.000Z")))

	type runner struct {
		name string
		run  func(export, input string) string
	}
	var runners []runner
	for _, m := range testmod.Cores {
		rt := runtimeFor(t, m.Path(t))
		runners = append(runners, runner{m.Name, func(export, input string) string {
			i := newInstance(t, rt, Config{FS: fsys.NewOS(), Clock: clock})
			call(t, i, "session_start", start)
			out := string(envelopeJSON(call(t, i, export, input)))
			call(t, i, "session_shutdown", `{"reason":"quit"}`) // writes a due snapshot, as at the end of a pi session
			return out
		}})
	}
	runners = append(runners, runner{"native", func(export, input string) string {
		e := lifecycle.New(fsys.NewHost(fsys.NewOS(), clock, nil, nil))
		e.Handle("session_start", []byte(start))
		out := string(e.Handle(export, []byte(input)))
		e.Handle("session_shutdown", []byte(`{"reason":"quit"}`))
		return out
	}})
	status := `{"name":"decision","argv":["status"]}`
	for _, writer := range runners {
		snap := filepath.Join(agent, "pi-memory", "snapshots", lifecycle.ProjectHash(project)+".snap")
		os.Remove(snap)
		require.Contains(t, writer.run("command", status), "a snapshot is written when this turn ends", writer.name+" writes at the end")
		want := writer.run("before_agent_start", `{"prompt":"hi","messageType":"user"}`)
		for _, reader := range runners {
			got := reader.run("command", status)
			require.Contains(t, got, "loaded at start", reader.name+" reads "+writer.name+"'s snapshot")
			require.Equal(t, want, reader.run("before_agent_start", `{"prompt":"hi","messageType":"user"}`), reader.name+" injects what "+writer.name+" did")
		}
	}
}
