package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
)

type obj = map[string]any

// probe runs one op in the probe module and returns its JSON answer.
func probe(t testing.TB, i *Instance, op obj) string {
	t.Helper()
	b, _ := json.Marshal(op)
	env := call(t, i, "probe", string(b))
	require.Equal(t, 1, len(env.Effects), "probe answered %+v", env)
	return env.Effects[0].Text
}

func probeMap(t testing.TB, i *Instance, op obj) obj {
	t.Helper()
	var m obj
	require.NoError(t, json.Unmarshal([]byte(probe(t, i, op)), &m))
	return m
}

// code is the error code an op answered (0 if none).
func code(m obj) int {
	c, _ := m["code"].(float64)
	return int(c)
}

func TestImportsBehaveAsTheContractSays(t *testing.T) {
	clock := fsys.NewManual(time.UnixMilli(1_763_760_000_000))
	i := newInstance(t, probeRuntime(t), Config{FS: fsys.NewMem(clock), Clock: clock})
	steps := []struct {
		name string
		op   obj
		want string // the probe's answer, exactly
	}{
		{"mkdir creates parents", obj{"op": "mkdir", "path": "/p/q"}, `{"ok":true}`},
		{"append creates the file", obj{"op": "append", "path": "/p/q/log", "data": "a\n"}, `{"ok":true}`},
		{"append appends", obj{"op": "append", "path": "/p/q/log", "data": "b\n"}, `{"ok":true}`},
		{"append never creates a folder", obj{"op": "append", "path": "/p/none/log", "data": "x"},
			`{"code":-1,"err":"append /p/none/log: not found (folder /p/none does not exist; append never creates folders)"}`},
		{"write atomic", obj{"op": "write", "path": "/p/q/page", "data": "version one"}, `{"ok":true}`},
		{"write atomic replaces", obj{"op": "write", "path": "/p/q/page", "data": "v2"}, `{"ok":true}`},
		{"read whole file", obj{"op": "read", "path": "/p/q/page", "n": 64}, `{"data":"v2","n":2}`},
		{"read at offset", obj{"op": "read", "path": "/p/q/log", "off": 2, "n": 1}, `{"data":"b","n":1}`},
		{"read past the end is 0", obj{"op": "read", "path": "/p/q/log", "off": 99, "n": 8}, `{"data":"","n":0}`},
		{"read a folder", obj{"op": "read", "path": "/p", "n": 8}, `{"code":-4,"err":"read /p: wrong kind of file (is a folder)"}`},
		{"read a missing file", obj{"op": "read", "path": "/none", "n": 8}, `{"code":-1,"err":"read /none: not found (no such file or directory)"}`},
		{"stat a file", obj{"op": "stat", "path": "/p/q/log"}, `{"dir":false,"kind":1,"mtime":1763760000000,"size":4}`},
		{"stat a folder", obj{"op": "stat", "path": "/p/q"}, `{"dir":true,"kind":2,"mtime":1763760000000,"size":0}`},
		{"stat a relative path", obj{"op": "stat", "path": "p"}, `{"code":-7,"err":"stat p: invalid argument (path is not absolute; the core must pass absolute paths)"}`},
		{"list sorts and marks folders", obj{"op": "list", "path": "/p/q"}, `{"names":["log","page"]}`},
		{"list a parent", obj{"op": "list", "path": "/p"}, `{"names":["q/"]}`},
		{"remove a full folder", obj{"op": "remove", "path": "/p/q"}, `{"code":-2,"err":"remove /p/q: already exists (folder is not empty; remove its entries first)"}`},
		{"lock", obj{"op": "lock", "path": "/p/x.lock", "wait": 0, "stale": 1000}, `{"ok":true}`},
		{"lock again", obj{"op": "lock", "path": "/p/x.lock", "wait": 0, "stale": 1000}, `{"code":-2,"err":"lock /p/x.lock: already exists (already held by this instance; unlock it first)"}`},
		{"unlock", obj{"op": "unlock", "path": "/p/x.lock"}, `{"ok":true}`},
		{"unlock again", obj{"op": "unlock", "path": "/p/x.lock"}, `{"code":-7,"err":"unlock /p/x.lock: invalid argument (this instance holds no lock here)"}`},
		{"remove a file", obj{"op": "remove", "path": "/p/q/log"}, `{"ok":true}`},
		{"now is the clock's", obj{"op": "now"}, `{"now":1763760000000}`},
	}
	for _, s := range steps {
		require.Equal(t, s.want, probe(t, i, s.op), s.name)
	}
}

func TestListLongerThanTheCoresFirstBufferArrivesWhole(t *testing.T) {
	mem := fsys.NewMem(nil)
	require.NoError(t, mem.Mkdir("/d"))
	var want []string
	for n := 0; n < 300; n++ {
		name := fmt.Sprintf("decision-%04d.jsonl", n) // 300 × 20 bytes > hostio's 4 KB buffer
		require.NoError(t, mem.WriteAtomic("/d/"+name, nil))
		want = append(want, name)
	}
	i := newInstance(t, probeRuntime(t), Config{FS: mem})
	got := probeMap(t, i, obj{"op": "list", "path": "/d"})
	require.Equal(t, len(want), len(got["names"].([]any)))
}

func TestListWritesOnlyWhenItFits(t *testing.T) {
	mem := fsys.NewMem(nil)
	require.NoError(t, mem.Mkdir("/d/b"))
	require.NoError(t, mem.WriteAtomic("/d/a", nil))
	i := newInstance(t, probeRuntime(t), Config{FS: mem})
	cases := []struct {
		n    int
		want string
	}{
		{0, `{"buf":"","ret":5}`},
		{4, `{"buf":"####","ret":5}`},
		{5, `{"buf":"a\nb/\n","ret":5}`},
		{8, `{"buf":"a\nb/\n###","ret":5}`},
	}
	for _, c := range cases {
		require.Equal(t, c.want, probe(t, i, obj{"op": "list_raw", "path": "/d", "n": c.n}), "buffer of %d", c.n)
	}
}

func TestLastErrorFillsWhatFitsAndReportsTheFullLength(t *testing.T) {
	i := newInstance(t, probeRuntime(t), Config{})
	probe(t, i, obj{"op": "stat", "path": "/none"})
	full := "no such file or directory"
	require.Equal(t, fmt.Sprintf(`{"buf":"no su","ret":%d}`, len(full)), probe(t, i, obj{"op": "last_error_raw", "n": 5}))
	require.Equal(t, fmt.Sprintf(`{"buf":%q,"ret":%d}`, full, len(full)), probe(t, i, obj{"op": "last_error_raw", "n": 100}))
}

func TestLastErrorBelongsToItsInstance(t *testing.T) {
	rt := probeRuntime(t)
	a, b := newInstance(t, rt, Config{}), newInstance(t, rt, Config{})
	probe(t, a, obj{"op": "stat", "path": "relative"})
	probe(t, b, obj{"op": "stat", "path": "/none"})
	require.Contains(t, probe(t, a, obj{"op": "last_error_raw", "n": 100}), "not absolute")
	require.Contains(t, probe(t, b, obj{"op": "last_error_raw", "n": 100}), "no such file")
}

func TestPointersOutsideGuestMemoryAreInvalidArguments(t *testing.T) {
	i := newInstance(t, probeRuntime(t), Config{})
	require.Equal(t, `{"ret":-7}`, probe(t, i, obj{"op": "read_out_of_memory", "path": "/f"}))
	require.Contains(t, probe(t, i, obj{"op": "last_error_raw", "n": 200}), "outside the module's")
	require.Equal(t, `{"ret":-7}`, probe(t, i, obj{"op": "path_out_of_memory"}))
	require.Equal(t, `{"ok":true}`, probe(t, i, obj{"op": "mkdir", "path": "/still/works"}))
}

func TestLockRejectsANegativeWait(t *testing.T) {
	i := newInstance(t, probeRuntime(t), Config{})
	require.Equal(t, `{"ret":-7}`, probe(t, i, obj{"op": "lock_negative_wait", "path": "/x.lock"}))
}

func TestNowRandomAndLogComeFromTheInstanceConfig(t *testing.T) {
	clock := fsys.NewManual(time.UnixMilli(42))
	var logged []string
	i := newInstance(t, probeRuntime(t), Config{
		Clock:  clock,
		Random: bytes.NewReader([]byte{0xde, 0xad, 0xbe, 0xef, 0x01}),
		Log:    func(level int, msg string) { logged = append(logged, fmt.Sprint(level, " ", msg)) },
	})
	require.Equal(t, `{"now":42}`, probe(t, i, obj{"op": "now"}))
	clock.Advance(time.Second)
	require.Equal(t, `{"now":1042}`, probe(t, i, obj{"op": "now"}))
	require.Equal(t, `{"hex":"deadbeef"}`, probe(t, i, obj{"op": "random", "n": 4}))

	for _, c := range []struct {
		level int
		msg   string
	}{{0, "debug"}, {3, "error"}, {9, "clamped to error"}, {-1, "clamped to debug"}} {
		probe(t, i, obj{"op": "log", "level": c.level, "data": c.msg})
	}
	require.Equal(t, []string{"0 debug", "3 error", "3 clamped to error", "0 clamped to debug"}, logged)
}

func TestFSErrorsOnTheRealDiskCrossTheBoundary(t *testing.T) {
	root := t.TempDir()
	i := newInstance(t, probeRuntime(t), Config{FS: fsys.NewOS()})
	require.Equal(t, `{"ok":true}`, probe(t, i, obj{"op": "append", "path": root + "/log", "data": "x"}))
	got := probe(t, i, obj{"op": "mkdir", "path": root + "/log/sub"})
	require.True(t, strings.HasPrefix(got, `{"code":-4,`), "mkdir under a file answered %s", got)
}
