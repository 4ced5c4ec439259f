package fsys

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// lockContent is what a lock file says about its holder, one line a person
// can read: the process, the machine (locks on shared folders), the process's
// pid namespace and the running kernel's boot where the system names them,
// when, and a holder id that tells two holders in one process apart and lets
// Unlock make sure the file is still its own.
//
//	pid=4242 host=ada-laptop pidns=4026531836 boot=ca2146bd-ca68-4627-a1d9-0953bba24a0b time=2026-11-21T21:27:00.123Z holder=9f86d081884c7d65
func lockContent(holder string, now time.Time) []byte {
	host, _ := os.Hostname()
	ns := ""
	if id, boot := thisMachine(); id != "" && boot != "" {
		ns = " pidns=" + id + " boot=" + boot
	}
	return []byte("pid=" + strconv.Itoa(os.Getpid()) + " host=" + host + ns +
		" time=" + now.UTC().Format("2006-01-02T15:04:05.000Z") + " holder=" + holder + "\n")
}

// thisMachine is this process's pid namespace and the running kernel's boot
// (pidNamespace, bootID), read once: neither changes while it runs, and a
// waiter judges the lock's holder at every poll.
var thisMachine = sync.OnceValues(func() (string, string) { return pidNamespace(), bootID() })

// pidNamespace names the pid namespace this process's pids are counted in
// (Linux: the number in /proc/self/ns/pid's link), or "" where there is none
// to read. Two processes whose lock lines name the same host and the same
// namespace see the same pids.
func pidNamespace() string {
	link, err := os.Readlink("/proc/self/ns/pid")
	if err != nil || !strings.HasPrefix(link, "pid:[") || !strings.HasSuffix(link, "]") {
		return ""
	}
	id := link[len("pid:[") : len(link)-1]
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return ""
	}
	return id
}

// bootID names the running kernel, and so the machine, since it started
// (Linux: /proc/sys/kernel/random/boot_id), or "" where there is none to
// read. A namespace number alone does not: every Linux machine's first pid
// namespace is 4026531836, and two machines both called "ubuntu" sharing a
// project folder would each read the other's live holder as gone.
func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	id := strings.TrimSpace(string(b))
	if err != nil || len(id) != 36 || strings.Trim(id, "0123456789abcdef-") != "" {
		return ""
	}
	return id
}

// holderGone reports whether a lock line names a process that is certainly
// no longer running: one on this host, counted in this pid namespace of this
// running kernel (boot), whose pid no process has. A process killed while holding a lock (SIGKILL, a
// crash, a closed laptop lid's OOM) leaves its file behind; without this
// every writer would wait for the lock to grow stale. Whatever is uncertain
// (another host or boot, a line without a namespace, a pid that exists, even one
// reused by another program) is not gone: the age rule still breaks it.
func holderGone(line []byte) bool {
	var pid int
	var host, ns, boot string
	for _, f := range strings.Fields(string(line)) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "pid":
			pid, _ = strconv.Atoi(v)
		case "host":
			host = v
		case "pidns":
			ns = v
		case "boot":
			boot = v
		}
	}
	me, _ := os.Hostname()
	myNS, myBoot := thisMachine()
	if pid <= 0 || pid == os.Getpid() || host == "" || host != me || ns == "" || ns != myNS ||
		boot == "" || boot != myBoot {
		return false
	}
	return !processExists(pid)
}

// maxLockBytes bounds what is read of a lock file: the one line above is
// far shorter, and a lock path is no place for a large file.
const maxLockBytes = 4096

// What Unlock says when its lock file is not the one it wrote.
const (
	lockGone     = "the lock file is gone: another process broke it as stale while this one held it"
	lockReplaced = "; this is not the lock file this instance wrote, so it was left alone"
)

func newHolderID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// busy is the error for a lock wait that ran out, naming the holder and what
// a person can do about it.
func busy(p string, holder []byte, waitMs, staleMs int) error {
	who := strings.TrimSpace(string(holder))
	if who == "" {
		who = "another process"
	}
	msg := "held by " + who + "; waited " + strconv.Itoa(waitMs) + " ms"
	if staleMs > 0 {
		msg += "; it is broken once older than " + strconv.Itoa(staleMs) + " ms, or delete the file if that process is gone"
	} else {
		msg += "; delete the file if that process is gone"
	}
	return fail("lock", p, hostio.ErrBusy, msg)
}
