package lifecycle

import (
	"path"
	"slices"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"
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

// errNotPlain is the refusal of a path that is a link or not a regular file.
type errNotPlain struct {
	path, what string
}

func (e *errNotPlain) Error() string {
	return e.path + " is " + e.what + "; pi-memory neither reads nor writes memory through it. Replace it with the real file (or folder), or remove it"
}

func (e *errNotPlain) Unwrap() error { return hostio.ErrKind }

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
			return &errNotPlain{at, "a symbolic link"}
		case info.Kind == hostio.KindOther:
			return &errNotPlain{at, "not a regular file (a FIFO, socket or device)"}
		case rest != "" && info.Kind != hostio.KindFolder:
			return &errNotPlain{at, "not a folder"}
		case info.Kind == hostio.KindFolder:
			*seen = append(*seen, at)
		}
	}
	return nil
}

// guard is the host as the stores see it: every file operation on a memory
// path first checks that path with plain, so no store can read or write
// through a link by forgetting to ask. Paths outside the guarded areas (the
// user's global config files, another tool's memory being imported, the
// search for .git) pass through unchecked.
//
// A folder found real is not asked again until the call ends (fresh): one
// turn's lock and append, or a flush's reads and writes, walk the same
// folders, and a check is only ever as recent as the operation that follows
// it anyway.
type guard struct {
	hostio.Host
	areas []area
	seen  []string
}

// fresh forgets the folders found real: a new call checks them again.
func (g *guard) fresh() { g.seen = g.seen[:0] }

// area is a guarded folder and the root its names are checked from.
type area struct{ root, prefix string }

// guarded returns the host for a session: the project's .pi folder and
// .gitignore, and the agent folder's memory/ and pi-memory/, are guarded.
func guarded(h hostio.Host, project, agent string) *guard {
	g := &guard{Host: h}
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

func (g *guard) check(p string) error {
	for _, a := range g.areas {
		if p == a.prefix || strings.HasPrefix(p, a.prefix+"/") {
			return plain(g.Host, &g.seen, a.root, p)
		}
	}
	return nil
}

func (g *guard) ReadAt(p string, off int64, dst []byte) (int, error) {
	if err := g.check(p); err != nil {
		return 0, err
	}
	return g.Host.ReadAt(p, off, dst)
}

func (g *guard) Stat(p string) (hostio.FileInfo, error) {
	if err := g.check(p); err != nil {
		return hostio.FileInfo{}, err
	}
	return g.Host.Stat(p)
}

func (g *guard) Append(p string, data []byte) error {
	if err := g.check(p); err != nil {
		return err
	}
	return g.Host.Append(p, data)
}

func (g *guard) WriteAtomic(p string, data []byte) error {
	if err := g.check(p); err != nil {
		return err
	}
	return g.Host.WriteAtomic(p, data)
}

func (g *guard) List(p string) ([]string, error) {
	if err := g.check(p); err != nil {
		return nil, err
	}
	return g.Host.List(p)
}

func (g *guard) Mkdir(p string) error {
	if err := g.check(p); err != nil {
		return err
	}
	return g.Host.Mkdir(p)
}

func (g *guard) Remove(p string) error {
	if err := g.check(p); err != nil {
		return err
	}
	return g.Host.Remove(p)
}

func (g *guard) Rename(from, to string) error {
	if err := g.check(from); err != nil {
		return err
	}
	if err := g.check(to); err != nil {
		return err
	}
	return g.Host.Rename(from, to)
}

// Lock checks the folders on the way to the lock file, not the file: the
// host creates it exclusively, which never follows a link, and refuses one
// that is there and is not a regular file.
func (g *guard) Lock(p string, waitMs, staleMs int) error {
	if err := g.check(path.Dir(p)); err != nil {
		return err
	}
	return g.Host.Lock(p, waitMs, staleMs)
}
