//go:build unix

package fsys

import (
	"io/fs"
	"syscall"

	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// openFlags go with every open of a file that already exists: O_NONBLOCK so
// opening a FIFO never waits for its other end, O_NOCTTY so a terminal never
// becomes this process's controlling one. Go adds O_CLOEXEC to every open.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY

// dirOnly makes opening anything but a folder fail (ENOTDIR) instead of
// opening it.
const dirOnly = syscall.O_DIRECTORY

// noFollow makes opening a symbolic link fail (ELOOP) instead of following it.
const noFollow = syscall.O_NOFOLLOW

// processExists reports whether a process with this pid exists: signal 0
// checks without sending; EPERM means it exists under another user. A
// variable so a test can run a process's exit inside the check.
var processExists = func(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// fileID is the stat record's identity of a file: its device and inode.
func fileID(fi fs.FileInfo) uint32 {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	return hostio.FileID(uint64(st.Dev), uint64(st.Ino))
}
