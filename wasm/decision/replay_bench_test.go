package decision

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// BenchmarkReplay replays a generated log natively (PIMEM_BENCH_LOG, else the
// 100k-event log make bench caches); the wasm figures are in docs/benchmarks.md.
func BenchmarkReplay(b *testing.B) {
	path := os.Getenv("PIMEM_BENCH_LOG")
	if path == "" {
		home, _ := os.UserHomeDir()
		path = filepath.Join(home, ".cache", "pi-memory", "bench-data", "events-100k.jsonl")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("no log to replay: %v (run make bench once)", err)
	}
	read := func(off int64, dst []byte) (int, error) { return copy(dst, data[off:]), nil }
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var r reader
		st := newState()
		_, err := r.Replay(st, read, cursor{}, int64(len(data)))
		require.NoError(b, err)
	}
}
