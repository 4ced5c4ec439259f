package fsys

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// lockContent is what a lock file says about its holder, one line a person
// can read: the process, the machine (locks on shared folders), when, and a
// holder id that tells two holders in one process apart and lets Unlock make
// sure the file is still its own.
//
//	pid=4242 host=ada-laptop time=2026-11-21T21:27:00.123Z holder=9f86d081884c7d65
func lockContent(holder string, now time.Time) []byte {
	host, _ := os.Hostname()
	return []byte("pid=" + strconv.Itoa(os.Getpid()) + " host=" + host +
		" time=" + now.UTC().Format("2006-01-02T15:04:05.000Z") + " holder=" + holder + "\n")
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
