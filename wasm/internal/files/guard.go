// Package files is the file plumbing every store driver shares, and the only
// host a driver is handed: FS, the host with every memory path guarded.
// Besides it: reading a whole file within a bound, a file's version stamp and
// the Watch that re-reads a set of files only when one changed (how every
// store follows its configuration), the cross-process lock with an error a
// person can act on, and the sealed append that starts a line of its own
// after a torn one.
//
// It never decides anything about memory: which file a store keeps, or what
// its lines mean, is the store's.
package files

import (
	"bytes"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// Memory files and folders are what they claim to be (docs/decisions/006):
// below the folder they live in — the project for .pi/…, the agent folder
// for memory/ and pi-memory/ — every name on the way to a memory file, and
// the file itself, is a real folder or a regular file. A symbolic link is
// refused, even one that stays inside (a committed repository could
// otherwise point decisions.jsonl or MEMORY.md at any file the user can
// write, and the next append or flush would land there); so is a FIFO, a
// socket or a device. The root itself may be a link: where a person keeps
// their project or agent folder is theirs to choose.

// NotPlain is the refusal of a path that is a link or not a regular file.
type NotPlain struct {
	Path, What string
}

func (e *NotPlain) Error() string {
	return e.Path + " is " + e.What + "; pi-memory neither reads nor writes memory through it. Replace it with the real file (or folder), or remove it"
}

func (e *NotPlain) Unwrap() error { return hostio.ErrKind }

// plain checks every name of p below root (root excluded): each that exists
// must be a folder or, for the last, a regular file. A name that does not
// exist yet ends the walk: it will be made as a real file or folder. Folders
// in seen were found real earlier in the same call and are not asked again;
// those found now are added to it.
func plain(h hostio.Host, seen *[]string, root, p string) error {
	if root == "" || !strings.HasPrefix(p, root+"/") {
		return nil
	}
	at := root
	rest := p[len(root)+1:]
	for rest != "" {
		name := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			name, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		at += "/" + name
		if rest != "" && slices.Contains(*seen, at) {
			continue
		}
		info, err := h.Lstat(at)
		if hostio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		switch {
		case info.Kind == hostio.KindSymlink:
			return &NotPlain{at, "a symbolic link"}
		case info.Kind == hostio.KindOther:
			return &NotPlain{at, "not a regular file (a FIFO, socket or device)"}
		case rest != "" && info.Kind != hostio.KindFolder:
			return &NotPlain{at, "not a folder"}
		case info.Kind == hostio.KindFolder:
			*seen = append(*seen, at)
		}
	}
	return nil
}

// FS is the host as the stores see it: every file operation on a memory
// path first checks that path with plain, so no store can read or write
// through a link by forgetting to ask — a driver is handed an FS and never
// the host beneath it. Paths outside the guarded areas (the user's global
// config files, another tool's memory being imported, git's files, pi's
// session files) pass through unchecked.
//
// A folder found real is not asked again until the call ends (Fresh): one
// turn's lock and append, or a flush's reads and writes, walk the same
// folders, and a check is only ever as recent as the operation that follows
// it anyway.
type FS struct {
	h     hostio.Host
	areas []area
	seen  []string
	// held are the locks taken through this FS and not yet released, each
	// with the line its file held when it was taken (heldLock).
	held []heldLock
}

// heldLock is a lock this session holds and its file's line. Another
// process breaks a lock by its age (hostio.Host.Lock's staleMs) when its
// holder seems gone: a holder stopped that long (SIGSTOP, a debugger, a
// machine swapping) and then let go on would write over what the one that
// broke it wrote meanwhile. So before every write the lines are read again,
// and a write under a lock that is no longer this session's is refused
// (LockLost): the writer read the file before the other wrote it.
type heldLock struct {
	path string
	line []byte
}

// LockLost is the refusal of a write under a lock another process broke.
type LockLost struct{ Lock string }

func (e *LockLost) Error() string {
	return "another process broke " + e.Lock + " as stale while this one held it (this one was stopped or stalled for longer than a lock lives), and what this one read may be out of date; try again"
}

func (e *LockLost) Unwrap() error { return hostio.ErrBusy }

// lockLine is the first bytes of the lock file at p, nil when it cannot be read.
func (g *FS) lockLine(p string) []byte {
	var buf [256]byte
	n, err := g.h.ReadAt(p, 0, buf[:])
	if err != nil && n == 0 {
		return nil
	}
	return bytes.Clone(buf[:n])
}

// stillHeld is nil when every lock this session holds has the line it was
// taken with.
func (g *FS) stillHeld() error {
	for _, l := range g.held {
		if l.line != nil && !bytes.Equal(g.lockLine(l.path), l.line) {
			return &LockLost{l.path}
		}
	}
	return nil
}

var _ hostio.Host = (*FS)(nil)

// area is a guarded folder and the root its names are checked from.
type area struct{ root, prefix string }

// Guard returns the host for a session: the project's .pi folder and
// .gitignore, and the agent folder's memory/ and pi-memory/, are guarded.
// With neither folder nothing is guarded (git's merge driver, which reads
// the files git names).
func Guard(h hostio.Host, project, agent string) *FS {
	g := &FS{h: h}
	// The agent folder's areas first: it may live inside the project (pi run
	// from the home folder), and its names are checked from its own root.
	if agent != "" {
		g.areas = append(g.areas, area{agent, agent + "/memory"}, area{agent, agent + "/pi-memory"})
	}
	if project != "" {
		g.areas = append(g.areas, area{project, project + "/.pi"}, area{project, project + "/.gitignore"})
	}
	return g
}

// Fresh forgets the folders found real: a new call checks them again.
func (g *FS) Fresh() { g.seen = g.seen[:0] }

// Check is the guard's verdict on p: nil when p may be read or written.
func (g *FS) Check(p string) error {
	for _, a := range g.areas {
		// Not HasPrefix(p, a.prefix+"/"): that allocates, and every stat of
		// 20,000 earlier sessions asks.
		if strings.HasPrefix(p, a.prefix) && (len(p) == len(a.prefix) || p[len(a.prefix)] == '/') {
			return plain(g.h, &g.seen, a.root, p)
		}
	}
	return nil
}

//go:noinline
func (g *FS) ReadAt(p string, off int64, dst []byte) (int, error) {
	if err := g.Check(p); err != nil {
		return 0, err
	}
	return g.h.ReadAt(p, off, dst)
}

func (g *FS) Stat(p string) (hostio.FileInfo, error) {
	if err := g.Check(p); err != nil {
		return hostio.FileInfo{}, err
	}
	return g.h.Stat(p)
}

func (g *FS) Lstat(p string) (hostio.FileInfo, error) {
	if err := g.Check(path.Dir(p)); err != nil {
		return hostio.FileInfo{}, err
	}
	return g.h.Lstat(p)
}

//go:noinline
func (g *FS) Append(p string, data []byte) error {
	if err := g.Check(p); err != nil {
		return err
	}
	if err := g.stillHeld(); err != nil {
		return err
	}
	return g.h.Append(p, data)
}

// WriteAtomic under a lock stages the write beside p and renames it in only
// after the locks are read again: the write's own time (an fsync on a slow
// disk, a process stopped mid-write) is then no window in which a lock broken
// as stale lets another process write p and have it overwritten. What is
// left is the rename's. The staged name is one either host sweeps when a
// killed write leaves it (".<base>.tmp-<digits>").
//
//go:noinline
func (g *FS) WriteAtomic(p string, data []byte) error { return g.writeAtomic(p, data, nil, false) }

// WriteAtomicOver is WriteAtomic of a file read as was (nil or empty: it was
// absent or empty), refused with Changed when p no longer holds was just
// before the rename: another program that wrote p since (an editor, `>>`,
// git), taking none of our locks, would lose what it wrote. What is left is
// the time between that read and the rename.
func (g *FS) WriteAtomicOver(p string, data, was []byte) error {
	return g.writeAtomic(p, data, was, true)
}

// Changed refuses a write over a file another program wrote since it was
// read (WriteAtomicOver).
type Changed struct{ Path string }

func (e *Changed) Error() string {
	return "another program wrote to " + e.Path + " since pi-memory read it; try again"
}

// changed: p no longer holds was (read again, at most one byte more).
func (g *FS) changed(p string, was []byte) bool {
	now, err := ReadInto(g, p, int64(len(was))+1, nil)
	return !bytes.Equal(now, was) || err != nil && !hostio.IsNotFound(err)
}

func (g *FS) writeAtomic(p string, data, was []byte, over bool) error {
	if err := g.Check(p); err != nil {
		return err
	}
	if err := g.stillHeld(); err != nil {
		return err
	}
	to := p
	if len(g.held) > 0 {
		p = path.Dir(to) + "/." + path.Base(to) + ".tmp-" + strconv.FormatUint(g.Nonce(), 10)
	}
	if over && p == to && g.changed(to, was) {
		return &Changed{to} // no lock: the check just before the write
	}
	err := g.h.WriteAtomic(p, data)
	if p != to {
		if err == nil && over && g.changed(to, was) {
			err = &Changed{to}
		}
		if err == nil {
			err = g.Rename(p, to) // which reads the locks again first
		}
		if err != nil {
			g.Remove(p)
		}
		// Said of the file written, not of its staged name or its rename
		// (a read-only folder refused to create ".MEMORY.md.tmp-1211…").
		if pe, ok := err.(*hostio.PathError); ok {
			pe.Op, pe.Path = "write", to
		}
	}
	return err
}

func (g *FS) List(p string) ([]string, error) {
	if err := g.Check(p); err != nil {
		return nil, err
	}
	return g.h.List(p)
}

//go:noinline
func (g *FS) Mkdir(p string) error {
	if err := g.Check(p); err != nil {
		return err
	}
	return g.h.Mkdir(p)
}

func (g *FS) Remove(p string) error {
	if err := g.Check(p); err != nil {
		return err
	}
	return g.h.Remove(p)
}

func (g *FS) Rename(from, to string) error {
	if err := g.Check(from); err != nil {
		return err
	}
	if err := g.Check(to); err != nil {
		return err
	}
	if err := g.stillHeld(); err != nil {
		return err
	}
	return g.h.Rename(from, to)
}

// Lock checks the folders on the way to the lock file, not the file: the
// host creates it exclusively, which never follows a link, and refuses one
// that is there and is not a regular file.
func (g *FS) Lock(p string, waitMs, staleMs int) error {
	if err := g.Check(path.Dir(p)); err != nil {
		return err
	}
	err := g.h.Lock(p, waitMs, staleMs)
	if err == nil {
		g.held = append(g.held, heldLock{p, g.lockLine(p)})
	}
	return err
}

// Unlock removes a lock this process took.
//
//go:noinline
func (g *FS) Unlock(p string) error {
	g.held = slices.DeleteFunc(g.held, func(l heldLock) bool { return l.path == p })
	return g.h.Unlock(p)
}

// Now is the wall clock in Unix milliseconds.
func (g *FS) Now() int64 { return g.h.Now() }

// Random fills dst with random bytes.
func (g *FS) Random(dst []byte) { g.h.Random(dst) }

// Nonce is a random number, for a name no other process picks.
func (g *FS) Nonce() uint64 {
	var rnd [8]byte
	g.h.Random(rnd[:])
	n := uint64(0)
	for _, b := range rnd {
		n = n<<8 | uint64(b)
	}
	return n
}

// Log writes a line to the host's log.
//
// What it logs is text and nothing else (h-v93 b2: a model's plain-text error
// body reached pi's stderr with OSC 52 in it): at most maxLog bytes (its ends,
// redacted around the cut), its secrets marked, and what a terminal would read
// as something else removed (marker.Plain, after the redaction, which reads a
// secret through it). A host adds its own prefix ("pi-memory: ").
func (g *FS) Log(level hostio.Level, msg string) {
	head, tail := redact.Ends(msg, maxLog)
	if tail != "" {
		head += " […] " + tail
	}
	r, _ := redact.String(head)
	g.h.Log(level, marker.Plain(r))
}

// maxLog bounds one line of the log.
const maxLog = 4096
