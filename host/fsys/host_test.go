package fsys_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/lifecycle"
)

func TestNewHostTakesTimeRandomnessAndLogsFromWhatItIsGiven(t *testing.T) {
	clock := fsys.NewManual(time.UnixMilli(1_763_760_000_123))
	var logged []string
	h := fsys.NewHost(fsys.NewMem(clock), clock, bytes.NewReader([]byte{1, 2, 3, 4}),
		func(level int, msg string) { logged = append(logged, string(rune('0'+level))+" "+msg) })

	require.Equal(t, int64(1_763_760_000_123), h.Now())
	dst := make([]byte, 3)
	h.Random(dst)
	require.Equal(t, []byte{1, 2, 3}, dst)
	h.Log(hostio.Warn, "careful")
	require.Equal(t, []string{"2 careful"}, logged)

	_, err := h.Stat("/missing")
	require.True(t, hostio.IsNotFound(err))
}

func TestNewHostRunsTheCoreEngineNatively(t *testing.T) {
	clock := fsys.NewManual(time.UnixMilli(1_763_760_000_000))
	mem := fsys.NewMem(clock)
	require.NoError(t, mem.Mkdir("/home/ada/app/.git"))
	require.NoError(t, mem.Mkdir("/home/ada/app/src"))
	engine := lifecycle.New(fsys.NewHost(mem, clock, nil, nil))

	out := string(engine.Handle("session_start", []byte(`{"cwd":"/home/ada/app/src","agentDir":"/home/ada/.pi/agent","trusted":true,"hasUI":false,"mode":"cli","reason":"startup","flags":{}}`)))
	require.Contains(t, out, `"exit":0`)
	out = string(engine.Handle("debug", []byte(`{"op":"ping"}`)))
	require.True(t, strings.Contains(out, `"text":"pong"`), "ping answered %s", out)
}
