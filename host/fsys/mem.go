package fsys

import (
	"bytes"
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
// old a file (or a lock) is. Safe for concurrent use.
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
}

type memNode struct {
	dir   bool
	data  []byte
	mtime time.Time
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

// SetMtime sets the modification time of a file or folder.
func (m *Mem) SetMtime(p string, t time.Time) error {
	p, err := checkPath("touch", p)
	if err != nil {
		return err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	n, err := m.t.get("touch", p)
	if err != nil {
		return err
	}
	n.mtime = t
	return nil
}

// get finds p, telling "a folder on the way is missing" (ErrNotFound) from "a
// file stands where a folder should" (ErrKind), as the OS does.
func (t *memTree) get(op, p string) (*memNode, error) {
	if n := t.nodes[p]; n != nil {
		return n, nil
	}
	if err := t.walk(op, p, path.Dir(p)); err != nil {
		return nil, err
	}
	return nil, fail(op, p, hostio.ErrNotFound, "no such file or directory")
}

// walk checks that every folder from the root down to dir exists.
func (t *memTree) walk(op, p, dir string) error {
	if dir == "/" || path.Dir(dir) == dir {
		return nil
	}
	if err := t.walk(op, p, path.Dir(dir)); err != nil {
		return err
	}
	n := t.nodes[dir]
	switch {
	case n == nil:
		return fail(op, p, hostio.ErrNotFound, "no such file or directory")
	case !n.dir:
		return fail(op, p, hostio.ErrKind, "not a directory")
	}
	return nil
}

// parent checks that p's folder exists, for calls that create p.
func (t *memTree) parent(op, p string) error {
	if err := t.walk(op, p, path.Dir(p)); err != nil {
		if err.(*hostio.PathError).Err == hostio.ErrNotFound {
			return fail(op, p, hostio.ErrNotFound, "folder "+path.Dir(p)+" does not exist; "+op+" never creates folders")
		}
		return err
	}
	return nil
}

// put creates or replaces a file, touching its folder when it is new.
func (t *memTree) put(p string, data []byte) {
	now := t.clock.Now()
	if t.nodes[p] == nil {
		t.nodes[path.Dir(p)].mtime = now
	}
	t.nodes[p] = &memNode{data: data, mtime: now}
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
	n, err := m.t.get("read", p)
	if err != nil {
		return 0, err
	}
	if n.dir {
		return 0, fail("read", p, hostio.ErrKind, "is a folder")
	}
	if off >= int64(len(n.data)) {
		return 0, nil
	}
	return copy(dst, n.data[off:]), nil
}

func (m *Mem) Stat(p string) (hostio.FileInfo, error) {
	p, err := checkPath("stat", p)
	if err != nil {
		return hostio.FileInfo{}, err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	n, err := m.t.get("stat", p)
	if err != nil {
		return hostio.FileInfo{}, err
	}
	info := hostio.FileInfo{MtimeMs: n.mtime.UnixMilli(), Dir: n.dir}
	if !n.dir {
		info.Size = int64(len(n.data))
	}
	return info, nil
}

func (m *Mem) Append(p string, data []byte) error {
	p, err := checkPath("append", p)
	if err != nil {
		return err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	if err := m.t.parent("append", p); err != nil {
		return err
	}
	n := m.t.nodes[p]
	if n == nil {
		m.t.put(p, bytes.Clone(data))
		return nil
	}
	if n.dir {
		return fail("append", p, hostio.ErrKind, "is a folder")
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
	if err := m.t.parent("write", p); err != nil {
		return err
	}
	if n := m.t.nodes[p]; n != nil && n.dir {
		return fail("write", p, hostio.ErrKind, "is a folder")
	}
	m.t.put(p, bytes.Clone(data))
	return nil
}

func (m *Mem) List(p string) ([]string, error) {
	p, err := checkPath("list", p)
	if err != nil {
		return nil, err
	}
	m.t.mu.Lock()
	defer m.t.mu.Unlock()
	n, err := m.t.get("list", p)
	if err != nil {
		return nil, err
	}
	if !n.dir {
		return nil, fail("list", p, hostio.ErrKind, "not a directory")
	}
	prefix := strings.TrimSuffix(p, "/") + "/"
	names := []string{}
	for name, c := range m.t.nodes {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || rest == "" || strings.Contains(rest, "/") {
			continue
		}
		if c.dir {
			rest += "/"
		}
		names = append(names, rest)
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

func (t *memTree) mkdirAll(p string) error {
	if p == "/" {
		return nil
	}
	if n := t.nodes[p]; n != nil {
		if !n.dir {
			return fail("mkdir", p, hostio.ErrKind, "not a directory")
		}
		return nil
	}
	if err := t.mkdirAll(path.Dir(p)); err != nil {
		return err
	}
	now := t.clock.Now()
	t.nodes[path.Dir(p)].mtime = now
	t.nodes[p] = &memNode{dir: true, mtime: now}
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
	n, err := m.t.get("remove", p)
	if err != nil {
		return err
	}
	if n.dir {
		prefix := p + "/"
		for name := range m.t.nodes {
			if strings.HasPrefix(name, prefix) {
				return fail("remove", p, hostio.ErrExists, "folder is not empty; remove its entries first")
			}
		}
	}
	delete(m.t.nodes, p)
	m.t.nodes[path.Dir(p)].mtime = m.t.clock.Now()
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
	n, err := m.t.get("rename", from)
	if err != nil {
		return err
	}
	if n.dir {
		return fail("rename", from, hostio.ErrKind, "is a folder; only files are renamed")
	}
	if err := m.t.parent("rename", to); err != nil {
		return err
	}
	if dst := m.t.nodes[to]; dst != nil && dst.dir {
		return fail("rename", to, hostio.ErrKind, "is a folder")
	}
	now := m.t.clock.Now()
	delete(m.t.nodes, from)
	m.t.nodes[to] = n
	m.t.nodes[path.Dir(from)].mtime = now
	m.t.nodes[path.Dir(to)].mtime = now
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
		if err := m.t.parent("lock", p); err != nil {
			m.t.mu.Unlock()
			return err
		}
		n := m.t.nodes[p]
		if n != nil && n.dir {
			m.t.mu.Unlock()
			return fail("lock", p, hostio.ErrKind, "is a folder")
		}
		now := clock.Now()
		if n != nil && staleMs > 0 && now.Sub(n.mtime) > time.Duration(staleMs)*time.Millisecond {
			delete(m.t.nodes, p) // stale: break it; the tree's mutex makes this race-free
			n = nil
		}
		if n == nil {
			token := lockContent(m.id, now)
			m.t.put(p, token)
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
	n := m.t.nodes[p]
	switch {
	case n == nil:
		return fail("unlock", p, hostio.ErrNotFound, "the lock file is gone: another process broke it as stale while this one held it")
	case n.dir || !bytes.Equal(n.data, token):
		return fail("unlock", p, hostio.ErrBusy, "another process broke this lock as stale and now holds it ("+strings.TrimSpace(string(n.data))+")")
	}
	delete(m.t.nodes, p)
	m.t.nodes[path.Dir(p)].mtime = m.t.clock.Now()
	return nil
}
