package host

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
)

// Two instances on one folder stand for two pi processes on one project: each
// has its own OS value, so its own lock identity.
func TestTwoInstancesOnOneFolderNeverHoldTheLockTogether(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	lock, counter := root+"/decisions.lock", root+"/counter"
	require.NoError(t, os.WriteFile(counter, []byte("0"), 0o644))
	rt := probeRuntime(t)
	const rounds = 20
	var inside, overlaps atomic.Int32
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		i := newInstance(t, rt, Config{FS: fsys.NewOS()})
		wg.Add(1)
		// A refused lock or unlock is t.Errorf and the worker returns:
		// FailNow (require) belongs to the test's own goroutine.
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				if got := probe(t, i, obj{"op": "lock", "path": lock, "wait": 60_000, "stale": 60_000}); got != `{"ok":true}` {
					t.Errorf("lock: %s", got)
					return
				}
				if inside.Add(1) > 1 {
					overlaps.Add(1)
				}
				// Read-modify-write through the module: a double acquisition
				// loses an increment.
				v := probeMap(t, i, obj{"op": "read", "path": counter, "n": 16})["data"].(string)
				n, _ := strconv.Atoi(v)
				probe(t, i, obj{"op": "write", "path": counter, "data": strconv.Itoa(n + 1)})
				inside.Add(-1)
				if got := probe(t, i, obj{"op": "unlock", "path": lock}); got != `{"ok":true}` {
					t.Errorf("unlock: %s", got)
					return
				}
			}
		}()
	}
	wg.Wait()
	require.Equal(t, int32(0), overlaps.Load())
	b, err := os.ReadFile(counter)
	require.NoError(t, err)
	require.Equal(t, strconv.Itoa(2*rounds), string(b))
	_, err = os.Stat(lock)
	require.True(t, os.IsNotExist(err), "the lock file must be gone after the last unlock")
}

func TestStaleLockOfACrashedInstanceIsBroken(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	lock := root + "/decisions.lock"
	rt := probeRuntime(t)
	crashed, next := newInstance(t, rt, Config{FS: fsys.NewOS()}), newInstance(t, rt, Config{FS: fsys.NewOS()})
	require.Equal(t, `{"ok":true}`, probe(t, crashed, obj{"op": "lock", "path": lock, "wait": 0, "stale": 0}))
	require.NoError(t, crashed.Close())

	busy := probe(t, next, obj{"op": "lock", "path": lock, "wait": 20, "stale": 30_000})
	require.True(t, strings.HasPrefix(busy, `{"code":-5,`), "a fresh lock must hold: %s", busy)
	require.Contains(t, busy, "pid="+strconv.Itoa(os.Getpid()))

	old := time.Now().Add(-time.Minute)
	require.NoError(t, os.Chtimes(lock, old, old))
	require.Equal(t, `{"ok":true}`, probe(t, next, obj{"op": "lock", "path": lock, "wait": 0, "stale": 30_000}))
	require.Equal(t, `{"ok":true}`, probe(t, next, obj{"op": "unlock", "path": lock}))
}
