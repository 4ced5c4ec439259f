//go:build unix

package fsys

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// deadPid is the pid of a process that has exited and been waited for.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	return cmd.Process.Pid
}

// A lock left by a process killed on this host is taken at once, not after
// the 30 s a stale lock waits; whatever is uncertain waits for its age.
func TestOSLockBreaksAFreshLockWhoseHolderIsGone(t *testing.T) {
	if pidNamespace() == "" {
		t.Skip("no /proc/self/ns/pid here: locks are broken by age alone")
	}
	if bootID() == "" {
		t.Skip("no boot id here: locks are broken by age alone")
	}
	host, _ := os.Hostname()
	ns := pidNamespace() + " boot=" + bootID()
	dead := strconv.Itoa(deadPid(t))
	line := func(pid, host, ns string) string {
		s := "pid=" + pid + " host=" + host
		if ns != "" {
			s += " pidns=" + ns
		}
		return s + " time=2026-11-29T00:00:00.000Z holder=0123456789abcdef\n"
	}
	// Every Linux machine's first pid namespace has one number: another
	// machine of the same name on a shared folder differs only in its boot.
	otherBoot := pidNamespace() + " boot=00000000-0000-4000-8000-000000000000"
	cases := []struct {
		name, content string
		taken         bool
	}{
		{"holder exited on this host", line(dead, host, ns), true},
		{"holder alive (the test's parent)", line(strconv.Itoa(os.Getppid()), host, ns), false},
		{"holder is this process (another instance)", line(strconv.Itoa(os.Getpid()), host, ns), false},
		{"another host", line(dead, host+"-other", ns), false},
		{"another pid namespace", line(dead, host, pidNamespace()+"1 boot="+bootID()), false},
		{"another machine of this name (another boot)", line(dead, host, otherBoot), false},
		{"no boot (an older line)", line(dead, host, pidNamespace()), false},
		{"no namespace (an older line)", line(dead, host, ""), false},
		{"no host", "pid=" + dead + " pidns=" + ns + "\n", false},
		{"empty: the holder has not written it yet", "", false},
		{"garbage", "pid=-1 host=" + host + " pidns=" + ns + "\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.ToSlash(filepath.Join(t.TempDir(), "memory.lock"))
			require.NoError(t, os.WriteFile(p, []byte(c.content), 0o644))
			o := NewOS()
			err := o.Lock(p, 0, 30_000)
			if !c.taken {
				require.True(t, errors.Is(err, hostio.ErrBusy), "want busy, got ", err)
				return
			}
			require.NoError(t, err)
			require.NoError(t, o.Unlock(p))
			_, err = os.Stat(p + ".break")
			require.True(t, errors.Is(err, os.ErrNotExist), "the .break file is left behind")
		})
	}
	// stale 0 means never break, whoever the holder was.
	p := filepath.ToSlash(filepath.Join(t.TempDir(), "memory.lock"))
	require.NoError(t, os.WriteFile(p, []byte(line(dead, host, ns)), 0o644))
	require.True(t, errors.Is(NewOS().Lock(p, 0, 0), hostio.ErrBusy), "stale 0 broke a lock")
}

// The line this host writes names what holderGone reads back.
func TestLockContentNamesItsHolder(t *testing.T) {
	line := lockContent("0123456789abcdef", deadTime)
	require.False(t, holderGone(line), "this live process read as gone: ", string(line))
	host, _ := os.Hostname()
	require.Contains(t, string(line), "pid="+strconv.Itoa(os.Getpid())+" host="+host)
	if ns := pidNamespace(); ns != "" {
		require.Contains(t, string(line), " pidns="+ns+" boot="+bootID()+" ")
	}
}

var deadTime = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// A holder may unlock while its lock is judged, and another process take
// the lock in that instant: the lock found then is someone else's, alive,
// and is left alone. Its pid is looked up (the hook) for a holder judged
// gone and for one past the age alike: the holder unlocks there.
func TestOSLockNeverBreaksALockTakenWhileTheOldOneWasJudged(t *testing.T) {
	if pidNamespace() == "" || bootID() == "" {
		t.Skip("no pid namespace or boot id here: locks are broken by age alone")
	}
	for _, tt := range []struct {
		name  string
		aged  bool // the first lock is past the age
		alive bool // what the lookup of its holder says
	}{
		{"its holder exited", false, false},
		{"a slow holder past the age", true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.ToSlash(filepath.Join(t.TempDir(), "memory.lock"))
			// The first holder, another process of this host (the test's parent).
			host, _ := os.Hostname()
			first := "pid=" + strconv.Itoa(os.Getppid()) + " host=" + host + " pidns=" + pidNamespace() +
				" boot=" + bootID() + " time=2026-11-29T00:00:00.000Z holder=0123456789abcdef\n"
			require.NoError(t, os.WriteFile(p, []byte(first), 0o644))
			if tt.aged {
				old := time.Now().Add(-time.Hour)
				require.NoError(t, os.Chtimes(p, old, old))
			}
			next := NewOS()
			exists := processExists
			defer func() { processExists = exists }()
			processExists = func(pid int) bool {
				// The first holder unlocks; the next takes the lock.
				require.NoError(t, os.Remove(p))
				require.NoError(t, next.Lock(p, 0, 30_000))
				processExists = exists
				return tt.alive
			}
			err := NewOS().Lock(p, 0, 30_000)
			require.True(t, errors.Is(err, hostio.ErrBusy), "a live holder's fresh lock was broken: %v", err)
			require.NoError(t, next.Unlock(p))
		})
	}
}

// A ".break" left by a process killed while it judged a lock names its
// holder as a lock does: one whose holder is gone is removed at once, and the
// lock whose holder is gone is taken within the wait, not after the stale
// time; one whose holder lives, or that names none, waits for its age.
func TestOSLockRemovesABreakFileWhoseHolderIsGone(t *testing.T) {
	if pidNamespace() == "" || bootID() == "" {
		t.Skip("no pid namespace or boot id here: locks are broken by age alone")
	}
	host, _ := os.Hostname()
	line := func(pid int) string {
		return "pid=" + strconv.Itoa(pid) + " host=" + host + " pidns=" + pidNamespace() + " boot=" + bootID() + " time=2026-11-29T00:00:00.000Z holder=break\n"
	}
	dead := deadPid(t)
	cases := []struct {
		name, brk string
		taken     bool
	}{
		{"its holder is gone", line(dead), true},
		{"its holder lives (the test's parent)", line(os.Getppid()), false},
		{"it names no holder", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.ToSlash(filepath.Join(t.TempDir(), "memory.lock"))
			require.NoError(t, os.WriteFile(p, []byte(line(dead)), 0o644))
			require.NoError(t, os.WriteFile(p+".break", []byte(c.brk), 0o644))
			o := NewOS()
			err := o.Lock(p, 1000, 30_000)
			if !c.taken {
				require.True(t, errors.Is(err, hostio.ErrBusy), "want busy, got ", err)
				return
			}
			require.NoError(t, err)
			require.NoError(t, o.Unlock(p))
			_, err = os.Stat(p + ".break")
			require.True(t, errors.Is(err, os.ErrNotExist), "the .break file is left behind")
		})
	}
}

// A ".break" left by a breaker killed while it judged a lock (both name a
// process that has exited) is judged like a lock: the next writer takes the
// lock at once, not 30 s later, and no .break is left behind.
func TestOSLockBreaksABreakLeftByAGoneBreaker(t *testing.T) {
	if pidNamespace() == "" || bootID() == "" {
		t.Skip("no pid namespace or boot id here: locks are broken by age alone")
	}
	host, _ := os.Hostname()
	dead := []byte("pid=" + strconv.Itoa(deadPid(t)) + " host=" + host + " pidns=" + pidNamespace() + " boot=" + bootID() + " time=2026-11-29T00:00:00.000Z holder=0123456789abcdef\n")
	p := filepath.ToSlash(filepath.Join(t.TempDir(), "memory.lock"))
	require.NoError(t, os.WriteFile(p, dead, 0o644))
	require.NoError(t, os.WriteFile(p+".break", dead, 0o644))
	o := NewOS()
	require.NoError(t, o.Lock(p, 500, 30_000))
	require.NoError(t, o.Unlock(p))
	_, err := os.Stat(p + ".break")
	require.True(t, errors.Is(err, os.ErrNotExist), "the .break file is left behind")
	// A live breaker's .break is left alone: the lock waits for it.
	require.NoError(t, os.WriteFile(p, dead, 0o644))
	alive := bytes.Replace(dead, []byte("pid="+strings.Fields(string(dead))[0][4:]), []byte("pid="+strconv.Itoa(os.Getppid())), 1)
	require.NoError(t, os.WriteFile(p+".break", alive, 0o644))
	require.True(t, errors.Is(NewOS().Lock(p, 200, 30_000), hostio.ErrBusy), "a live breaker's .break was removed")
}

// A ".break" that is not a regular file (a folder, a link, a FIFO) is no
// breaker's: it is left where it is, and locking a stale lock says so at
// once, naming it, rather than waiting for a lock it would hold for good.
func TestOSLockNamesABreakThatIsNotARegularFile(t *testing.T) {
	cases := []struct {
		name, what string
		make       func(p string) error
	}{
		{"an empty folder", "is a folder", func(p string) error { return os.Mkdir(p, 0o755) }},
		{"a folder with a file in it", "is a folder", func(p string) error {
			if err := os.Mkdir(p, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(p, "x"), nil, 0o644)
		}},
		{"a link to a regular file", "is a symbolic link", func(p string) error {
			if err := os.WriteFile(p+"-target", nil, 0o644); err != nil {
				return err
			}
			return os.Symlink(p+"-target", p)
		}},
		{"a FIFO", "is a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.ToSlash(filepath.Join(t.TempDir(), "memory.lock"))
			require.NoError(t, os.WriteFile(p, []byte("pid=1 host=elsewhere time=2026-01-01T00:00:00.000Z holder=x\n"), 0o644))
			require.NoError(t, c.make(p+".break"))
			old := time.Now().Add(-time.Hour)
			require.NoError(t, os.Chtimes(p, old, old))
			if c.what == "is a folder" {
				require.NoError(t, os.Chtimes(p+".break", old, old)) // as old as the lock: still not a breaker's
			}
			err := NewOS().Lock(p, 2000, 30_000)
			require.True(t, errors.Is(err, hostio.ErrKind), "want a kind error, got ", err)
			require.Contains(t, err.Error(), p+".break "+c.what)
			_, err = os.Lstat(p + ".break")
			require.NoError(t, err, "the .break was removed")
			_, err = os.Lstat(p)
			require.NoError(t, err, "the lock was broken")
		})
	}
}
