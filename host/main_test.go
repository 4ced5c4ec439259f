package host

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hostio"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testmod.Cleanup()
	os.Exit(code)
}

// Each module is compiled once per test binary; instances are cheap.
var compiled struct {
	sync.Mutex
	byPath map[string]*Runtime
}

func runtimeFor(t testing.TB, path string) *Runtime {
	t.Helper()
	compiled.Lock()
	defer compiled.Unlock()
	if rt := compiled.byPath[path]; rt != nil {
		return rt
	}
	rt, err := NewRuntimeFromFile(context.Background(), path, Options{})
	require.NoError(t, err)
	if compiled.byPath == nil {
		compiled.byPath = map[string]*Runtime{}
	}
	compiled.byPath[path] = rt
	return rt
}

// eachCore runs test once per build of the core (TinyGo and standard Go).
func eachCore(t *testing.T, test func(t *testing.T, rt *Runtime)) {
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) { test(t, runtimeFor(t, m.Path(t))) })
	}
}

func probeRuntime(t *testing.T) *Runtime { return runtimeFor(t, testmod.Probe(t)) }

func newInstance(t testing.TB, rt *Runtime, cfg Config) *Instance {
	t.Helper()
	if cfg.FS == nil {
		cfg.FS = fsys.NewMem(nil)
	}
	i, err := rt.NewInstance(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { i.Close() })
	return i
}

func call(t testing.TB, i *Instance, export, input string) Envelope {
	t.Helper()
	env, err := i.Call(export, []byte(input))
	require.NoError(t, err, "%s %s", export, input)
	return env
}

// recordingFS notes every path the core stats, to show what crossed guest
// memory.
type recordingFS struct {
	fsys.FS
	mu    sync.Mutex
	stats []string
}

func (r *recordingFS) Stat(p string) (hostio.FileInfo, error) {
	r.mu.Lock()
	r.stats = append(r.stats, p)
	r.mu.Unlock()
	return r.FS.Stat(p)
}

func (r *recordingFS) statted() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.stats...)
}

const sessionInput = `{"cwd":"/home/ada/app/src","agentDir":"/home/ada/.pi/agent","trusted":true,"hasUI":false,"mode":"cli","reason":"startup","flags":{}}`
