package lifecycle

import (
	"errors"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/errs"
	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// File helpers every store driver shares: a file's version stamp, appending
// after a torn last line, and taking a lock with an error a person can act on.

// fileStamp identifies a file's version by size and mtime ("-" when there is
// no path or no file), so a driver reads it again only when it changed.
func fileStamp(host hostio.Host, p string) string {
	if p == "" {
		return "-"
	}
	info, err := host.Stat(p)
	if err != nil {
		return "-"
	}
	return strconv.FormatInt(info.Size, 10) + "@" + strconv.FormatInt(info.MtimeMs, 10)
}

// watch remembers the version of a set of files (fileStamp of each), so a
// driver reads them again only when one of them changed: every store's
// configuration is followed this way, so an edit takes effect at the next
// prompt or command.
type watch struct {
	stamp string
	seen  bool
}

// changed reports whether any of paths differs from what the last call saw;
// the first call always reports a change.
func (w *watch) changed(host hostio.Host, paths ...string) bool {
	stamp := ""
	for _, p := range paths {
		stamp += "|" + fileStamp(host, p)
	}
	if w.seen && stamp == w.stamp {
		return false
	}
	w.stamp, w.seen = stamp, true
	return true
}

// forget makes the next changed report a change: the files are read again.
func (w *watch) forget() { w.seen = false }

// sealed is data preceded by a newline when the file's last line is torn,
// so an append starts a line of its own.
func sealed(host hostio.Host, p string, data []byte) []byte {
	if info, err := host.Stat(p); err == nil && info.Size > 0 {
		var last [1]byte
		if n, _ := host.ReadAt(p, info.Size-1, last[:]); n == 1 && last[0] != '\n' {
			return append([]byte{'\n'}, data...)
		}
	}
	return data
}

// takeLock takes a cross-process lock, saying what to do when another
// process has held it too long. The caller unlocks.
func takeLock(host hostio.Host, lock string) error {
	if err := host.Lock(lock, lockWaitMs, lockStaleMs); err != nil {
		if errs.Is(err, hostio.ErrBusy) {
			return errors.New("another pi process has held " + lock + " for more than 5 s; try again, or delete that file if no pi is running")
		}
		return err
	}
	return nil
}
