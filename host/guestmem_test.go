package host

import (
	"context"
	"reflect"
	"testing"
	"unsafe"

	extism "github.com/extism/go-sdk"
	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/tetratelabs/wazero/api"
)

// The host reaches the guest's memory through the private layout of
// extism.Module. If go-sdk changes it, this test must fail before anything
// reads the wrong memory: update guestModule (host/guestmem.go) to match, or
// pin go-sdk back to v1.7.1.
func TestGoSDKModuleIsStillOneWazeroModuleField(t *testing.T) {
	typ := reflect.TypeOf(extism.Module{})
	require.Equal(t, 1, typ.NumField(), "extism.Module has %d fields; guestmem.go assumes exactly one", typ.NumField())
	f := typ.Field(0)
	require.Equal(t, "inner", f.Name)
	require.Equal(t, reflect.TypeOf((*api.Module)(nil)).Elem(), f.Type)
	require.Equal(t, reflect.TypeOf(guestModule{}).Size(), typ.Size())
}

func TestGuestMemoryIsTheCoresNotExtisms(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		p, err := rt.compiled.Instance(context.Background(), extism.PluginInstanceConfig{})
		require.NoError(t, err)
		defer p.Close(context.Background())
		mem, err := guestMemory(p)
		require.NoError(t, err)
		require.True(t, mem != p.Memory(), "guestMemory returned Extism's kernel memory")
		inner := (*guestModule)(unsafe.Pointer(p.Module())).inner
		require.True(t, inner.ExportedFunction("session_start") != nil, "the module behind guestMemory is not the core")
		require.True(t, mem.Size() > 0)
	})
}

// Paths the core passes travel through its own memory: what the FS sees must
// be exactly what the core computed.
func TestGuestMemoryCarriesTheCoresPathsToTheFS(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		mem := fsys.NewMem(nil)
		require.NoError(t, mem.Mkdir("/home/ada/app/.git"))
		require.NoError(t, mem.Mkdir("/home/ada/app/src"))
		rec := &recordingFS{FS: mem}
		i := newInstance(t, rt, Config{FS: rec})
		env := call(t, i, "session_start", sessionInput)
		require.Equal(t, 0, env.Exit)
		seen := map[string]bool{}
		for _, p := range rec.statted() {
			seen[p] = true
		}
		require.True(t, seen["/home/ada/app/src/.git"] && seen["/home/ada/app/.git"],
			"the core looks for the git root from cwd; the FS saw %q", rec.statted())
	})
}

func TestGuestMemoryRoundTripsBytesBothWays(t *testing.T) {
	i := newInstance(t, probeRuntime(t), Config{})
	data := "héllo \x00 wörld\n" + string(make([]byte, 3000))
	require.Equal(t, `{"ok":true}`, probe(t, i, obj{"op": "write", "path": "/f", "data": data}))
	got := probeMap(t, i, obj{"op": "read", "path": "/f", "n": 5000})
	require.Equal(t, data, got["data"])
}
