package fsys

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// OS is FS over the real file system. Each OS value is one lock holder: two
// values in one process contend for a lock exactly as two processes would.
type OS struct {
	id   string
	mu   sync.Mutex
	held map[string][]byte // lock path → the bytes this holder wrote into it
}

var _ FS = (*OS)(nil)

// NewOS returns an FS over the real file system with its own lock identity.
func NewOS() *OS { return &OS{id: newHolderID(), held: map[string][]byte{}} }

func native(p string) string { return filepath.FromSlash(p) }

func (o *OS) ReadAt(p string, off int64, dst []byte) (int, error) {
	p, err := checkPath("read", p)
	if err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, fail("read", p, hostio.ErrInvalid, "negative offset "+strconv.FormatInt(off, 10))
	}
	f, err := os.Open(native(p))
	if err != nil {
		return 0, osFail("read", p, err)
	}
	defer f.Close()
	if len(dst) == 0 {
		// File.ReadAt makes no system call for an empty buffer; stat so a
		// folder is still reported as one.
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			return 0, fail("read", p, hostio.ErrKind, "is a folder")
		}
		return 0, nil
	}
	n, err := f.ReadAt(dst, off)
	if err == io.EOF {
		err = nil
	}
	if err != nil {
		return n, osFail("read", p, err)
	}
	return n, nil
}

func (o *OS) Stat(p string) (hostio.FileInfo, error) {
	p, err := checkPath("stat", p)
	if err != nil {
		return hostio.FileInfo{}, err
	}
	fi, err := os.Stat(native(p))
	if err != nil {
		return hostio.FileInfo{}, osFail("stat", p, err)
	}
	return infoOf(fi), nil
}

// infoOf reports folders with size 0: their on-disk size means nothing to the
// core, and Mem has none.
func infoOf(fi fs.FileInfo) hostio.FileInfo {
	info := hostio.FileInfo{MtimeMs: fi.ModTime().UnixMilli(), Dir: fi.IsDir()}
	if !info.Dir {
		info.Size = fi.Size()
	}
	return info
}

func (o *OS) Append(p string, data []byte) error {
	p, err := checkPath("append", p)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(native(p), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return createFail("append", p, err)
	}
	// One Write is one write(2) for a regular file (Go only loops on a short
	// write, which the kernel gives a regular file only when the disk fills),
	// so concurrent appenders never interleave inside a line.
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return osFail("append", p, err)
	}
	return nil
}

func (o *OS) WriteAtomic(p string, data []byte) error {
	p, err := checkPath("write", p)
	if err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(native(p)); err == nil {
		if fi.IsDir() {
			return fail("write", p, hostio.ErrKind, "is a folder")
		}
		mode = fi.Mode().Perm()
	}
	dir := path.Dir(p)
	tmp, err := os.CreateTemp(native(dir), "."+path.Base(p)+".tmp-*")
	if err != nil {
		return createFail("write", p, err)
	}
	name := tmp.Name()
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := tmp.Chmod(mode); err != nil {
		return osFail("write", p, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return osFail("write", p, err)
	}
	if err := tmp.Sync(); err != nil {
		return osFail("write", p, err)
	}
	if err := tmp.Close(); err != nil {
		return osFail("write", p, err)
	}
	if err := os.Rename(name, native(p)); err != nil {
		os.Remove(name)
		done = true
		return osFail("write", p, err)
	}
	done = true
	syncDir(dir)
	return nil
}

// syncDir makes a rename durable. Best effort: some systems cannot open or
// sync a folder, and the rename itself already happened.
func syncDir(dir string) {
	if d, err := os.Open(native(dir)); err == nil {
		d.Sync()
		d.Close()
	}
}

func (o *OS) List(p string) ([]string, error) {
	p, err := checkPath("list", p)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(native(p))
	if err != nil {
		return nil, osFail("list", p, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		// The list travels as "name\n" lines in UTF-8; a name that cannot is
		// not one the core ever wrote, so it is left out rather than garbled.
		if strings.IndexByte(name, '\n') >= 0 || !utf8.ValidString(name) {
			continue
		}
		dir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(native(p), name)); err == nil {
				dir = fi.IsDir()
			}
		}
		if dir {
			name += "/"
		}
		names = append(names, name)
	}
	// Re-sort: the "/" suffix changes bytewise order ("a-b" < "a/").
	sort.Strings(names)
	return names, nil
}

func (o *OS) Mkdir(p string) error {
	p, err := checkPath("mkdir", p)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(native(p), 0o755); err != nil {
		return osFail("mkdir", p, err)
	}
	return nil
}

func (o *OS) Remove(p string) error {
	p, err := checkPath("remove", p)
	if err != nil {
		return err
	}
	if err := os.Remove(native(p)); err != nil {
		if classify(err) == hostio.ErrExists {
			return fail("remove", p, hostio.ErrExists, "folder is not empty; remove its entries first")
		}
		return osFail("remove", p, err)
	}
	return nil
}

func (o *OS) Rename(from, to string) error {
	from, err := checkPath("rename", from)
	if err != nil {
		return err
	}
	to, err = checkPath("rename", to)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(native(from)); err == nil && fi.IsDir() {
		return fail("rename", from, hostio.ErrKind, "is a folder; only files are renamed")
	}
	if err := os.Rename(native(from), native(to)); err != nil {
		return osFail("rename", from+" -> "+to, err)
	}
	return nil
}

func (o *OS) Lock(p string, waitMs, staleMs int) error {
	p, err := checkPath("lock", p)
	if err != nil {
		return err
	}
	if waitMs < 0 || staleMs < 0 {
		return fail("lock", p, hostio.ErrInvalid, "negative wait or stale time")
	}
	o.mu.Lock()
	_, mine := o.held[p]
	o.mu.Unlock()
	if mine {
		return fail("lock", p, hostio.ErrExists, "already held by this instance; unlock it first")
	}
	token := lockContent(o.id, time.Now())
	deadline := time.Now().Add(time.Duration(waitMs) * time.Millisecond)
	for {
		err := createExclusive(native(p), token)
		if err == nil {
			o.mu.Lock()
			o.held[p] = token
			o.mu.Unlock()
			return nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return createFail("lock", p, err)
		}
		if fi, err := os.Stat(native(p)); err == nil && fi.IsDir() {
			return fail("lock", p, hostio.ErrKind, "is a folder")
		}
		if staleMs > 0 && breakStale(native(p), time.Duration(staleMs)*time.Millisecond) {
			continue
		}
		left := time.Until(deadline)
		if left <= 0 {
			holder, _ := os.ReadFile(native(p))
			return busy(p, holder, waitMs, staleMs)
		}
		time.Sleep(min(left, pollMs*time.Millisecond))
	}
}

func createExclusive(name string, token []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(token)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

// breakStale removes the lock file at name if it is older than stale, and
// reports whether the caller should try to create it again at once.
//
// Two waiters may judge the same lock stale; if both removed it by name, the
// slower one could delete the fresh lock the faster one just took. So breaking
// is itself serialised by a second lock file, name+".break", created
// exclusively: its holder judges the lock again and removes it only if it is
// still stale. A fresh lock is never older than stale, so it is never removed.
// A ".break" file left by a process that died inside these few calls is
// removed once it is older than stale too.
func breakStale(name string, stale time.Duration) bool {
	brk := name + ".break"
	f, err := os.OpenFile(brk, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if fi, serr := os.Stat(brk); serr == nil && time.Since(fi.ModTime()) > stale {
			os.Remove(brk)
		}
		return false
	}
	f.Close()
	defer os.Remove(brk)
	fi, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil || time.Since(fi.ModTime()) <= stale {
		return false
	}
	err = os.Remove(name)
	return err == nil || errors.Is(err, fs.ErrNotExist)
}

func (o *OS) Unlock(p string) error {
	p, err := checkPath("unlock", p)
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	token, ok := o.held[p]
	if !ok {
		return fail("unlock", p, hostio.ErrInvalid, "this instance holds no lock here")
	}
	got, err := os.ReadFile(native(p))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			delete(o.held, p)
			return fail("unlock", p, hostio.ErrNotFound, "the lock file is gone: another process broke it as stale while this one held it")
		}
		return osFail("unlock", p, err)
	}
	if !bytes.Equal(got, token) {
		delete(o.held, p)
		return fail("unlock", p, hostio.ErrBusy, "another process broke this lock as stale and now holds it ("+strings.TrimSpace(string(got))+")")
	}
	if err := os.Remove(native(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return osFail("unlock", p, err)
	}
	delete(o.held, p)
	return nil
}

// classify maps an operating-system error to the contract's sentinel.
func classify(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		switch errno {
		case syscall.ENOENT:
			return hostio.ErrNotFound
		case syscall.EEXIST, syscall.ENOTEMPTY:
			return hostio.ErrExists
		case syscall.EACCES, syscall.EPERM, syscall.EROFS:
			return hostio.ErrPermission
		case syscall.ENOTDIR, syscall.EISDIR:
			return hostio.ErrKind
		case syscall.EINVAL, syscall.ENAMETOOLONG:
			return hostio.ErrInvalid
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return hostio.ErrNotFound
	case errors.Is(err, fs.ErrExist):
		return hostio.ErrExists
	case errors.Is(err, fs.ErrPermission):
		return hostio.ErrPermission
	case errors.Is(err, fs.ErrInvalid):
		return hostio.ErrInvalid
	}
	return hostio.ErrIO
}

// osFail wraps an operating-system error: the sentinel plus the system's own
// words ("no such file or directory", "no space left on device").
func osFail(op, p string, err error) error {
	return fail(op, p, classify(err), detail(err))
}

// createFail is osFail for calls that create a file, where "not found" can
// only mean the folder is missing, which the core must create itself.
func createFail(op, p string, err error) error {
	if classify(err) == hostio.ErrNotFound {
		return fail(op, p, hostio.ErrNotFound, "folder "+path.Dir(p)+" does not exist; "+op+" never creates folders")
	}
	return osFail(op, p, err)
}

func detail(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}
