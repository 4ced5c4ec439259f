package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
)

// Asked to stop while it waits to write (another writer holds the log's
// lock), pimem says so, writes once the lock is free, leaves no lock and
// exits 143 (128 + SIGTERM); a second signal would end it at once.
func TestASignalLetsTheWriteFinish(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, run := onCore(t, wasm)
	require.Equal(t, 0, run("decision", "add", "Use PostgreSQL 16").exit)
	lock := filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl.lock")
	require.NoError(t, os.WriteFile(lock, []byte("held by the test\n"), 0o644))
	cmd := exec.Command(pimemBin, "--wasm", wasm, "decision", "add", "Never deploy on Fridays")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + sharedCache, "PI_CODING_AGENT_DIR=" + agent}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	time.Sleep(700 * time.Millisecond) // started, waiting on the lock (it waits up to 5 s)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	time.Sleep(300 * time.Millisecond)
	require.NoError(t, os.Remove(lock))
	err := cmd.Wait()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "exits with a code: %v", err)
	require.Equal(t, 143, exit.ExitCode(), stderr.String())
	require.Contains(t, stderr.String(), "finishing what is being written first")
	log, _ := os.ReadFile(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	require.Contains(t, string(log), "Never deploy on Fridays")
	_, err = os.Stat(lock)
	require.True(t, os.IsNotExist(err), "no lock left: %v", err)
}
