//go:build unix

package fsys_test

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// makeSpecial makes the real thing on disk for the OS fixture.
func makeSpecial(t *testing.T, p string, s fsys.Special) {
	t.Helper()
	switch s {
	case fsys.FIFO:
		require.NoError(t, syscall.Mkfifo(p, 0o644))
	case fsys.Socket:
		l, err := net.Listen("unix", p)
		if err != nil {
			t.Skipf("cannot make a unix socket at %s (%v); the path may be too long for one", p, err)
		}
		t.Cleanup(func() { l.Close() })
	case fsys.CharDevice:
		if runtime.GOOS != "linux" {
			t.Skip("making a character device is only done on Linux, where /dev/null's numbers are known")
		}
		// /dev/null's numbers (1, 3): a host that wrongly wrote to it would
		// write nowhere.
		if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Skipf("cannot make a character device here (%v): mknod needs CAP_MKNOD, which this test does not try to get", err)
		}
	default:
		t.Skipf("no test makes a %s on disk", s)
	}
}

// With a reader on the other end, opening a FIFO for writing succeeds at
// once, so only fstat on the opened descriptor can refuse it, before a byte
// is written.
func TestOSAppendRefusesAFIFOThatHasAReader(t *testing.T) {
	p := filepath.ToSlash(t.TempDir()) + "/decisions.jsonl"
	require.NoError(t, syscall.Mkfifo(p, 0o644))
	reader, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	require.NoError(t, err)
	defer reader.Close()

	err = within(t, "append", func() error { return fsys.NewOS().Append(p, []byte("{}\n")) })
	require.ErrorIs(t, err, hostio.ErrKind)
	require.Contains(t, err.Error(), "is a FIFO, not a regular file")

	require.NoError(t, reader.SetReadDeadline(time.Now().Add(50*time.Millisecond)))
	n, _ := reader.Read(make([]byte, 8))
	require.Equal(t, 0, n, "bytes reached the FIFO's reader")
}
