package files

import (
	"errors"
	"path"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/config"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/errs"
)

const (
	// LockWaitMs is how long a lock is waited for before the person is told
	// who holds it; LockStaleMs the age at which a lock left by a crashed
	// process is broken.
	LockWaitMs  = 5000
	LockStaleMs = 30000
	// MaxConfig bounds a configuration file (and .gitignore): one larger is a
	// mistake to report, not something to parse on every prompt.
	MaxConfig = 1 << 20
)

// Stamp identifies a file's version by size and mtime ("-" when there is
// no path or no file), so a driver reads it again only when it changed.
func Stamp(h hostio.Host, p string) string {
	if p == "" {
		return "-"
	}
	info, err := h.Stat(p)
	if err != nil {
		return "-"
	}
	return StampOf(info)
}

// StampOf is Stamp of a file already stat'ed.
func StampOf(info hostio.FileInfo) string {
	return strconv.FormatInt(info.Size, 10) + "@" + strconv.FormatInt(info.MtimeMs, 10)
}

// Watch remembers the version of a set of files (the Stamp of each), so a
// driver reads them again only when one of them changed: every store's
// configuration is followed this way, so an edit takes effect at the next
// prompt or command.
type Watch struct {
	stamp string
	seen  bool
}

// Changed reports whether any of paths differs from what the last call
// saw; the first call always reports a change.
func (w *Watch) Changed(h hostio.Host, paths ...string) bool {
	stamp := ""
	for _, p := range paths {
		stamp += "|" + Stamp(h, p)
	}
	if w.seen && stamp == w.stamp {
		return false
	}
	w.stamp, w.seen = stamp, true
	return true
}

// Forget makes the next Changed report a change: the files are read again.
func (w *Watch) Forget() { w.seen = false }

// Version is the stamps Changed saw last, for a cache key.
func (w *Watch) Version() string { return w.stamp }

// Sealed is data preceded by a newline when the file's last line is torn,
// so an append starts a line of its own.
func Sealed(h hostio.Host, p string, data []byte) []byte {
	if info, err := h.Stat(p); err == nil && info.Size > 0 {
		var last [1]byte
		if n, _ := h.ReadAt(p, info.Size-1, last[:]); n == 1 && last[0] != '\n' {
			return append([]byte{'\n'}, data...)
		}
	}
	return data
}

// Lock takes a cross-process lock, saying what to do when another process
// has held it too long. The caller unlocks.
func Lock(h hostio.Host, lock string) error {
	if err := h.Lock(lock, LockWaitMs, LockStaleMs); err != nil {
		if errs.Is(err, hostio.ErrBusy) {
			return errors.New("another pi process has held " + lock + " for more than 5 s; try again, or delete that file if no pi is running")
		}
		return err
	}
	return nil
}

// AppendLocked is the one locked, sealed append every store's log, queue and
// record file goes through: it takes lock (making the lock's folder, the
// file's, when it is missing: folders appear on the first write, never
// before), runs during with the lock held, and releases it. during's
// append writes data after the file's last line, on a line of its own when
// that line is torn (a crash mid-append), and says whether it had to seal
// one; a store may catch up with what other processes wrote before it
// appends, or note the file's new size after, all under the lock.
func AppendLocked(h hostio.Host, file, lock string, during func(append func(data []byte) (sealed bool, err error)) error) error {
	if err := LockMaking(h, lock); err != nil {
		return err
	}
	defer h.Unlock(lock)
	return during(func(data []byte) (bool, error) {
		buf := Sealed(h, file, data)
		return len(buf) != len(data), h.Append(file, buf)
	})
}

// Append is AppendLocked with nothing else to do under the lock.
func Append(h hostio.Host, file, lock string, data []byte) error {
	return AppendLocked(h, file, lock, func(append func([]byte) (bool, error)) error {
		_, err := append(data)
		return err
	})
}

// LockMaking is Lock for a lock in a folder that may not exist yet: the
// folder is made when the lock cannot be made for lack of it (a first
// write), and not asked for before every lock. The caller unlocks.
func LockMaking(h hostio.Host, lock string) error {
	err := Lock(h, lock)
	if hostio.IsNotFound(err) {
		if err = h.Mkdir(path.Dir(lock)); err == nil {
			err = Lock(h, lock)
		}
	}
	return err
}

// Read reads a whole file of at most max bytes.
//
//go:noinline
func Read(h hostio.Host, p string, max int64) ([]byte, error) {
	return ReadInto(h, p, max, nil)
}

// ReadInto is Read reading into buf's array when it has room, for a caller
// that reads the same large file again and again: under TinyGo a large
// block allocated afresh each time can stay pinned for good
// (docs/decisions/003-tinygo-heap.md). A new array has room to spare, so a
// file that grows a little still fits next time.
func ReadInto(h hostio.Host, p string, max int64, buf []byte) ([]byte, error) {
	info, err := h.Stat(p)
	if err != nil {
		return nil, err
	}
	if info.Dir {
		return nil, &hostio.PathError{Op: "read", Path: p, Err: hostio.ErrKind, Msg: "is a folder"}
	}
	if info.Kind == hostio.KindOther {
		// A FIFO or a device stats with size 0: read as that, it would be an
		// empty file, and a config that is one would pass for absent.
		return nil, &hostio.PathError{Op: "read", Path: p, Err: hostio.ErrKind, Msg: "a FIFO, socket or device, not a regular file"}
	}
	if info.Size > max {
		return nil, &hostio.PathError{Op: "read", Path: p, Err: hostio.ErrInvalid, Msg: "larger than " + strconv.FormatInt(max, 10) + " bytes"}
	}
	if buf == nil || int64(cap(buf)) < info.Size {
		// Never nil: an empty file is one, which a config reads as "empty",
		// not as absent (a truncated {"enabled": false} turned memory on).
		buf = make([]byte, 0, info.Size+info.Size/8)
	}
	buf = buf[:info.Size]
	n := 0
	for n < len(buf) {
		k, err := h.ReadAt(p, int64(n), buf[n:])
		if err != nil {
			return nil, err
		}
		if k == 0 {
			break
		}
		n += k
	}
	return buf[:n], nil
}

// Config reads a configuration file ("" or absent: none); a file that
// exists but cannot be read counts as one that could turn memory off
// (config.Unreadable).
func Config(h hostio.Host, p string) *config.File {
	f, _ := ConfigData(h, p)
	return f
}

// ConfigData is Config with the bytes, for a store that reads a key the
// config package does not parse.
func ConfigData(h hostio.Host, p string) (*config.File, []byte) {
	if p == "" {
		return config.Parse("", nil), nil
	}
	data, err := Read(h, p, MaxConfig)
	if err != nil && !hostio.IsNotFound(err) {
		return config.Unreadable(p, err.Error()), nil
	}
	// A link to a missing file is not an absent config: a dotfiles link to
	// {"enabled": false} whose target is not there (not mounted, not cloned
	// yet) would turn memory on.
	if err != nil {
		if info, lerr := h.Lstat(p); lerr == nil && info.Kind == hostio.KindSymlink {
			return config.Unreadable(p, "it is a symbolic link to a missing file"), nil
		}
	}
	return config.Parse(p, data), data
}

// ProjectRoot is the git work tree containing cwd (the nearest folder with a
// .git entry, as `git rev-parse --show-toplevel` finds it), else cwd itself.
// Walking up with stat avoids starting a git process on every session.
func ProjectRoot(h hostio.Host, cwd string) string {
	if cwd == "" {
		return ""
	}
	dir := cwd
	for {
		if _, err := h.Stat(path.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := path.Dir(dir)
		if parent == dir {
			return cwd
		}
		dir = parent
	}
}

// HomeRelative writes a path under home as "~/…", as answers and injected
// blocks cite it: shorter in every prompt, and the same on every machine
// with the same layout.
//
//	HomeRelative("/home/ada", "/home/ada/.pi/agent/memory") => "~/.pi/agent/memory"
func HomeRelative(home, p string) string {
	if home != "" && home != "/" && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// Clean normalises a host path: forward slashes, no trailing slash, no "."
// or ".." segments.
//
//	Clean(`C:\Users\ada\proj\`) => "C:/Users/ada/proj"
func Clean(p string) string {
	if p == "" {
		return ""
	}
	p = strings.ReplaceAll(p, "\\", "/")
	return path.Clean(p)
}

// Presence names a file as a status shows it: "(none)" when there is no
// such place, the path, and " (absent)" after it when nothing is there.
func Presence(p string, present bool) string {
	if p == "" {
		return "(none)"
	}
	if present {
		return p
	}
	return p + " (absent)"
}
