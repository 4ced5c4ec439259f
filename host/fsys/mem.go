package fsys

import (
	"bytes"
	"errors"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// Mem is FS over an in-memory tree rooted at "/", with the same semantics and
// errors as OS. Modification times come from its Clock, so tests decide how
// old a file (or a lock) is. Besides files and folders it holds symbolic
// links (Symlink), resolved in every path as the kernel resolves them, and
// FIFOs, sockets and devices (MakeSpecial), which it refuses to read or
// write exactly where OS does. Safe for concurrent use.
//
// A Mem is one lock holder; Share returns another holder over the same tree,
// the way a second process sees the same disk.
type Mem struct {
	t    *memTree
	id   string
	held map[string][]byte // guarded by t.mu
}

type memTree struct {
	mu    sync.Mutex
	clock Clock
	nodes map[string]*memNode
	files uint32 // files made so far: the next one's identity
}

type memNode struct {
	dir     bool
	link    string  // a symbolic link's target as written; "" for anything else
	special Special // a FIFO, socket or device; 0 for anything else
	data    []byte
	mtime   time.Time
	id      uint32 // a file's identity (hostio.FileInfo.ID): each put makes a new one
}

func (n *memNode) regular() bool { return !n.dir && n.link == "" && n.special == 0 }

func (n *memNode) info() hostio.FileInfo {
	switch {
	case n.dir:
		return hostio.NewFileInfo(0, n.mtime.UnixMilli(), hostio.KindFolder)
	case n.link != "":
		return hostio.NewFileInfo(int64(len(n.link)), n.mtime.UnixMilli(), hostio.KindSymlink)
	case n.special != 0:
		return hostio.NewFileInfo(0, n.mtime.UnixMilli(), hostio.KindOther)
	}
	fi := hostio.NewFileInfo(int64(len(n.data)), n.mtime.UnixMilli(), hostio.KindFile)
	fi.ID = n.id
	return fi
}

// describe says what a node that is not a regular file is, as OS does.
func (n *memNode) describe() string {
	switch {
	case n.dir:
		return notRegular("folder")
	case n.link != "":
		return notRegular("symbolic link")
	}
	return notRegular(n.special.String())
}

var _ FS = (*Mem)(nil)

// NewMem returns an empty tree (only "/" exists) whose mtimes and lock waits
// follow clock (Real if nil).
func NewMem(clock Clock) *Mem {
	if clock == nil {
		clock = Real{}
	}
	t := &memTree{clock: clock, nodes: map[string]*memNode{"/": {dir: true, mtime: clock.Now()}}}
	return &Mem{t: t, id: newHolderID(), held: map[string][]byte{}}
}

// Share returns another lock holder over the same tree.
func (m *Mem) Share() *Mem {
	return &Mem{t: m.t, id: newHolderID(), held: map[string][]byte{}}
}

// SetMtime sets the modification time of a file or folder (of a link's
// target, as os.Chtimes does).
func (m *Mem) SetMtime(p string, t time.Time) error {
	p, err := checkPath("touch", p)
	if err != nil {
		return err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	_, n, err := m.t.lookup("touch", p, true)
	if err != nil {
		return err
	}
	if n == nil {
		return fail("touch", p, hostio.ErrNotFound, "no such file or directory")
	}
	n.mtime = t
	return nil
}

// Symlink makes p a symbolic link to target, which is kept as written: an
// absolute path, or one relative to p's folder. Like os.Symlink it neither
// needs the target to exist nor replaces anything at p.
func (m *Mem) Symlink(target, p string) error {
	if target == "" || strings.IndexByte(target, 0) >= 0 {
		return fail("symlink", p, hostio.ErrInvalid, "empty target or NUL byte in it")
	}
	return m.add("symlink", p, &memNode{link: target})
}

// MakeSpecial puts a FIFO, socket or device at p, so a test can check that
// nothing blocks on or writes through it, as on a real disk.
func (m *Mem) MakeSpecial(p string, s Special) error {
	if s < FIFO || s > BlockDevice {
		return fail("mknod", p, hostio.ErrInvalid, "unknown special file kind")
	}
	return m.add("mknod", p, &memNode{special: s})
}

func (m *Mem) add(op, p string, n *memNode) error {
	p, err := checkPath(op, p)
	if err != nil {
		return err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	at, old, err := m.t.create(op, p)
	if err != nil {
		return err
	}
	if old != nil {
		return fail(op, p, hostio.ErrExists, "file exists")
	}
	n.mtime = m.t.clock.Now()
	m.t.nodes[path.Dir(at)].mtime = n.mtime
	m.t.nodes[at] = n
	return nil
}

// maxLinks is how many links one lookup follows before giving up, as Linux
// does (ELOOP).
const maxLinks = 40

// lookup finds what p names the way the kernel does: links are followed in
// every folder on the way and, when follow is set, in the last name too;
// ".." in a link's target goes up from where the link led. It returns the
// path the last name has once links are resolved and its node, or a nil node
// when only the last name is missing (its folder exists). A missing folder on
// the way is ErrNotFound; a file or device standing where a folder should is
// ErrKind.
func (t *memTree) lookup(op, p string, follow bool) (string, *memNode, error) {
	names := splitNames(p)
	cur := "/"
	links := 0
	for len(names) > 0 {
		name := names[0]
		names = names[1:]
		if name == ".." {
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, name)
		n := t.nodes[next]
		last := len(names) == 0
		switch {
		case n == nil && last:
			return next, nil, nil
		case n == nil:
			return "", nil, fail(op, p, hostio.ErrNotFound, "no such file or directory")
		case n.link != "" && (follow || !last):
			if links++; links > maxLinks {
				return "", nil, fail(op, p, hostio.ErrIO, "too many levels of symbolic links")
			}
			if strings.HasPrefix(n.link, "/") {
				cur = "/"
			}
			names = append(splitNames(n.link), names...)
		case !last && !n.dir:
			return "", nil, fail(op, p, hostio.ErrKind, "not a directory")
		case last:
			return next, n, nil
		default:
			cur = next
		}
	}
	return cur, t.nodes[cur], nil
}

// splitNames splits a slash path into its names, dropping empty ones and ".".
func splitNames(p string) []string {
	var names []string
	for _, s := range strings.Split(p, "/") {
		if s != "" && s != "." {
			names = append(names, s)
		}
	}
	return names
}

// create is lookup for calls that make p itself (never following a link in
// its last name, as O_CREAT|O_EXCL and rename do): a missing folder on the way
// is named in the error, since only the core creates folders.
func (t *memTree) create(op, p string) (string, *memNode, error) {
	at, n, err := t.lookup(op, p, false)
	if err != nil && errors.Is(err, hostio.ErrNotFound) {
		return "", nil, fail(op, p, hostio.ErrNotFound, "folder "+path.Dir(p)+" does not exist; "+op+" never creates folders")
	}
	return at, n, err
}

// put creates or replaces a file at a resolved path, touching its folder when
// it is new.
func (t *memTree) put(at string, data []byte) {
	now := t.clock.Now()
	if t.nodes[at] == nil {
		t.nodes[path.Dir(at)].mtime = now
	}
	t.files++
	t.nodes[at] = &memNode{data: data, mtime: now, id: t.files}
}

func (m *Mem) ReadAt(p string, off int64, dst []byte) (int, error) {
	p, err := checkPath("read", p)
	if err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, fail("read", p, hostio.ErrInvalid, "negative offset "+strconv.FormatInt(off, 10))
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	_, n, err := m.t.lookup("read", p, true)
	switch {
	case err != nil:
		return 0, err
	case n == nil:
		return 0, fail("read", p, hostio.ErrNotFound, "no such file or directory")
	case !n.regular():
		return 0, fail("read", p, hostio.ErrKind, n.describe())
	case off >= int64(len(n.data)):
		return 0, nil
	}
	return copy(dst, n.data[off:]), nil
}

func (m *Mem) Stat(p string) (hostio.FileInfo, error) { return m.stat("stat", p, true) }

func (m *Mem) Lstat(p string) (hostio.FileInfo, error) { return m.stat("lstat", p, false) }

func (m *Mem) stat(op, p string, follow bool) (hostio.FileInfo, error) {
	p, err := checkPath(op, p)
	if err != nil {
		return hostio.FileInfo{}, err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	_, n, err := m.t.lookup(op, p, follow)
	if err != nil {
		return hostio.FileInfo{}, err
	}
	if n == nil {
		return hostio.FileInfo{}, fail(op, p, hostio.ErrNotFound, "no such file or directory")
	}
	return n.info(), nil
}

func (m *Mem) Append(p string, data []byte) error {
	p, err := checkPath("append", p)
	if err != nil {
		return err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	_, n, err := m.t.lookup("append", p, true)
	if err != nil && !errors.Is(err, hostio.ErrNotFound) {
		return err
	}
	if n == nil {
		// Missing, or a link to something missing: create p itself, never
		// what a link names.
		at, self, err := m.t.create("append", p)
		if err != nil {
			return err
		}
		if self != nil {
			return fail("append", p, hostio.ErrKind, danglingLink)
		}
		m.t.put(at, bytes.Clone(data))
		return nil
	}
	if !n.regular() {
		return fail("append", p, hostio.ErrKind, n.describe())
	}
	n.data = append(n.data, data...)
	n.mtime = m.t.clock.Now()
	return nil
}

func (m *Mem) WriteAtomic(p string, data []byte) error {
	p, err := checkPath("write", p)
	if err != nil {
		return err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	at, n, err := m.t.create("write", p)
	if err != nil {
		return err
	}
	// As on a real disk, the rename replaces a link rather than writing
	// through it, and a folder, FIFO, socket or device is refused.
	if n != nil && !n.regular() && n.link == "" {
		return fail("write", p, hostio.ErrKind, n.describe())
	}
	m.t.put(at, bytes.Clone(data))
	return nil
}

func (m *Mem) List(p string) ([]string, error) {
	p, err := checkPath("list", p)
	if err != nil {
		return nil, err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	at, n, err := m.t.lookup("list", p, true)
	switch {
	case err != nil:
		return nil, err
	case n == nil:
		return nil, fail("list", p, hostio.ErrNotFound, "no such file or directory")
	case !n.dir:
		return nil, fail("list", p, hostio.ErrKind, "not a directory")
	}
	prefix := strings.TrimSuffix(at, "/") + "/"
	names := []string{}
	for name, c := range m.t.nodes {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || rest == "" || strings.Contains(rest, "/") {
			continue
		}
		dir := c.dir
		if c.link != "" {
			// A link to a folder is listed as one, as OS does.
			_, target, err := m.t.lookup("list", name, true)
			dir = err == nil && target != nil && target.dir
		}
		names = append(names, Entry(rest, dir))
	}
	sort.Strings(names)
	return names, nil
}

func (m *Mem) Mkdir(p string) error {
	p, err := checkPath("mkdir", p)
	if err != nil {
		return err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	return m.t.mkdirAll(p)
}

// mkdirAll is os.MkdirAll: an existing folder (or link to one) is fine,
// missing parents are made first, and a dangling link at p is ErrExists,
// because mkdir never follows a link in its last name.
func (t *memTree) mkdirAll(p string) error {
	_, n, err := t.lookup("mkdir", p, true)
	switch {
	case err != nil && !errors.Is(err, hostio.ErrNotFound):
		return err
	case n != nil && n.dir:
		return nil
	case n != nil:
		return fail("mkdir", p, hostio.ErrKind, "not a directory")
	case err != nil:
		if err := t.mkdirAll(path.Dir(p)); err != nil {
			return err
		}
	}
	at, self, err := t.lookup("mkdir", p, false)
	if err != nil {
		return err
	}
	if self != nil {
		return fail("mkdir", p, hostio.ErrExists, "file exists")
	}
	now := t.clock.Now()
	t.nodes[path.Dir(at)].mtime = now
	t.nodes[at] = &memNode{dir: true, mtime: now}
	return nil
}

func (m *Mem) Remove(p string) error {
	p, err := checkPath("remove", p)
	if err != nil {
		return err
	}
	if p == "/" {
		return fail("remove", p, hostio.ErrPermission, "the root folder cannot be removed")
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	at, n, err := m.t.lookup("remove", p, false)
	if err != nil {
		return err
	}
	if n == nil {
		return fail("remove", p, hostio.ErrNotFound, "no such file or directory")
	}
	if n.dir {
		prefix := at + "/"
		for name := range m.t.nodes {
			if strings.HasPrefix(name, prefix) {
				return fail("remove", p, hostio.ErrExists, "folder is not empty; remove its entries first")
			}
		}
	}
	delete(m.t.nodes, at)
	m.t.nodes[path.Dir(at)].mtime = m.t.clock.Now()
	return nil
}

func (m *Mem) Rename(from, to string) error {
	from, err := checkPath("rename", from)
	if err != nil {
		return err
	}
	to, err = checkPath("rename", to)
	if err != nil {
		return err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	// OS asks os.Stat, which follows a link: a link to a folder is refused too.
	if _, n, err := m.t.lookup("rename", from, true); err == nil && n != nil && n.dir {
		return fail("rename", from, hostio.ErrKind, "is a folder; only files are renamed")
	}
	src, n, err := m.t.lookup("rename", from, false)
	if err != nil {
		return err
	}
	if n == nil {
		return fail("rename", from, hostio.ErrNotFound, "no such file or directory")
	}
	dst, old, err := m.t.create("rename", to)
	if err != nil {
		return err
	}
	if old != nil && old.dir {
		return fail("rename", to, hostio.ErrKind, "is a folder")
	}
	now := m.t.clock.Now()
	delete(m.t.nodes, src)
	m.t.nodes[dst] = n
	m.t.nodes[path.Dir(src)].mtime = now
	m.t.nodes[path.Dir(dst)].mtime = now
	return nil
}

func (m *Mem) Lock(p string, waitMs, staleMs int) error {
	p, err := checkPath("lock", p)
	if err != nil {
		return err
	}
	if waitMs < 0 || staleMs < 0 {
		return fail("lock", p, hostio.ErrInvalid, "negative wait or stale time")
	}
	clock := m.t.clock
	deadline := clock.Now().Add(time.Duration(waitMs) * time.Millisecond)
	for {
		m.t.mu.Lock()
		if _, mine := m.held[p]; mine {
			m.t.mu.Unlock()
			return fail("lock", p, hostio.ErrExists, "already held by this instance; unlock it first")
		}
		at, n, err := m.t.create("lock", p)
		if err != nil {
			m.t.mu.Unlock()
			return err
		}
		if n != nil && !n.regular() {
			m.t.mu.Unlock()
			return fail("lock", p, hostio.ErrKind, n.describe())
		}
		now := clock.Now()
		if n != nil && staleMs > 0 && now.Sub(n.mtime) > time.Duration(staleMs)*time.Millisecond {
			delete(m.t.nodes, at) // stale: break it; the tree's mutex makes this race-free
			n = nil
		}
		if n == nil {
			token := lockContent(m.id, now)
			m.t.put(at, token)
			m.held[p] = token
			m.t.mu.Unlock()
			return nil
		}
		holder := bytes.Clone(n.data)
		m.t.mu.Unlock()
		left := deadline.Sub(now)
		if left <= 0 {
			return busy(p, holder, waitMs, staleMs)
		}
		clock.Sleep(min(left, pollMs*time.Millisecond))
	}
}

func (m *Mem) Unlock(p string) error {
	p, err := checkPath("unlock", p)
	if err != nil {
		return err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	token, ok := m.held[p]
	if !ok {
		return fail("unlock", p, hostio.ErrInvalid, "this instance holds no lock here")
	}
	delete(m.held, p)
	at, n, err := m.t.lookup("unlock", p, false)
	switch {
	case err != nil:
		return err
	case n == nil:
		return fail("unlock", p, hostio.ErrNotFound, lockGone)
	case !n.regular():
		return fail("unlock", p, hostio.ErrKind, n.describe()+lockReplaced)
	case !bytes.Equal(n.data, token):
		return fail("unlock", p, hostio.ErrBusy, "another process broke this lock as stale and now holds it ("+strings.TrimSpace(string(n.data))+")")
	}
	delete(m.t.nodes, at)
	m.t.nodes[path.Dir(at)].mtime = m.t.clock.Now()
	return nil
}
