package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
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

// A writer killed while it held the log's lock (SIGKILL leaves its file) does
// not hold the next write for the 30 s a lock takes to grow stale: its line
// names a process this host no longer has, and pimem writes at once.
func TestALockLeftByAKilledWriterIsTakenAtOnce(t *testing.T) {
	link, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		t.Skip("no /proc/self/ns/pid: a lock is broken by its age alone")
	}
	ns := strings.TrimSuffix(strings.TrimPrefix(link, "pid:["), "]")
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		t.Skip("no boot id: a lock is broken by its age alone")
	}
	ns += " boot=" + strings.TrimSpace(string(boot))
	wasm := testmod.Cores[0].Path(t)
	dir, _, run := onCore(t, wasm)
	require.Equal(t, 0, run("decision", "add", "Use PostgreSQL 16").exit)
	writer := exec.Command("sleep", "60")
	require.NoError(t, writer.Start())
	host, _ := os.Hostname()
	lock := filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl.lock")
	line := "pid=" + strconv.Itoa(writer.Process.Pid) + " host=" + host + " pidns=" + ns +
		" time=" + time.Now().UTC().Format("2006-01-02T15:04:05.000Z") + " holder=0123456789abcdef\n"
	require.NoError(t, os.WriteFile(lock, []byte(line), 0o644))
	require.NoError(t, writer.Process.Kill())
	writer.Wait()
	got := run("decision", "add", "Never deploy on Fridays")
	require.Equal(t, 0, got.exit, got.stderr)
	log, _ := os.ReadFile(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	require.Contains(t, string(log), "Never deploy on Fridays")
	_, err = os.Stat(lock)
	require.True(t, os.IsNotExist(err), "no lock left: %v", err)
}

// Each pimem command is a session of its own: a forget names the id the
// next command restores it by.
func TestAForgetSaysTheIdThatRestoresIt(t *testing.T) {
	_, _, run := onCore(t, testmod.Cores[0].Path(t))
	require.Equal(t, 0, run("memory", "remember", "kiwi harvest starts in May").exit)
	got := run("memory", "forget", "kiwi harvest")
	require.Equal(t, 0, got.exit, got.stderr)
	m := regexp.MustCompile(`pimem memory restore (F-[0-9a-f]+) brings it back\.`).FindStringSubmatch(got.stdout)
	require.True(t, m != nil, "no id in ", got.stdout)
	back := run("memory", "restore", m[1])
	require.Equal(t, 0, back.exit, back.stderr)
	require.Contains(t, back.stdout, "kiwi harvest starts in May")
}
