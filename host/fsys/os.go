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

// inReadOnlyFolder refuses op on p when p's folder (links followed) is one no
// one may write: what root would create, replace or remove there anyone else
// could not (readOnlyFolder). A folder that cannot be looked at is left to
// the operation itself to report.
func inReadOnlyFolder(op, p string) error {
	if fi, err := os.Stat(native(path.Dir(p))); err == nil && fi.IsDir() && fi.Mode().Perm()&0o222 == 0 {
		return fail(op, p, hostio.ErrPermission, readOnlyFolder)
	}
	return nil
}

func (o *OS) ReadAt(p string, off int64, dst []byte) (int, error) {
	p, err := checkPath("read", p)
	if err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, fail("read", p, hostio.ErrInvalid, "negative offset "+strconv.FormatInt(off, 10))
	}
	f, err := openRegular("read", p, os.O_RDONLY)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if len(dst) == 0 {
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
	return o.stat("stat", p, os.Stat)
}

func (o *OS) Lstat(p string) (hostio.FileInfo, error) {
	return o.stat("lstat", p, os.Lstat)
}

func (o *OS) stat(op, p string, stat func(string) (fs.FileInfo, error)) (hostio.FileInfo, error) {
	p, err := checkPath(op, p)
	if err != nil {
		return hostio.FileInfo{}, err
	}
	fi, err := stat(native(p))
	if err != nil {
		return hostio.FileInfo{}, osFail(op, p, err)
	}
	return infoOf(fi), nil
}

// infoOf gives the size of files, links (the length of the target's path)
// and folders (what their entries take in the file system, tens of bytes
// each: the core tells a folder of thousands of entries without listing
// it); none to the rest.
func infoOf(fi fs.FileInfo) hostio.FileInfo {
	kind := kindOf(fi.Mode())
	var size int64
	if kind != hostio.KindOther {
		size = fi.Size()
	}
	info := hostio.NewFileInfo(size, fi.ModTime().UnixMilli(), kind)
	if kind == hostio.KindFile {
		info.ID = fileID(fi)
	}
	return info
}

func kindOf(m fs.FileMode) hostio.Kind {
	switch {
	case m.IsRegular():
		return hostio.KindFile
	case m.IsDir():
		return hostio.KindFolder
	case m&fs.ModeSymlink != 0:
		return hostio.KindSymlink
	}
	return hostio.KindOther
}

// describe says what a path that is not a regular file is.
func describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return notRegular("folder")
	case m&fs.ModeSymlink != 0:
		return notRegular("symbolic link")
	case m&fs.ModeNamedPipe != 0:
		return notRegular(FIFO.String())
	case m&fs.ModeSocket != 0:
		return notRegular(Socket.String())
	case m&fs.ModeCharDevice != 0:
		return notRegular(CharDevice.String())
	case m&fs.ModeDevice != 0:
		return notRegular(BlockDevice.String())
	}
	return notRegular("")
}

// openRegular opens a file that exists, never waiting on it (openFlags), and
// keeps the descriptor only if fstat on it says it is a regular file: a check
// on the descriptor itself, which nothing can swap between check and use.
// Opening a FIFO for writing with no reader, a socket, or a device without a
// driver fails at once (ENXIO) and is reported the same way, as ErrKind.
func openRegular(op, p string, flag int) (*os.File, error) {
	// Opened for writing, a file no one may write (a person's chmod a-w) is
	// refused as pi-memory's write and rename refuse it, root included
	// (root's open succeeds), and in the same words when the open refused it.
	writing := flag&(os.O_WRONLY|os.O_RDWR) != 0
	f, err := os.OpenFile(native(p), flag|openFlags, 0)
	if err != nil {
		// Say what stands there when open refused it for being what it is:
		// ENXIO (EOPNOTSUPP for a socket on some systems), or ELOOP for a
		// link that noFollow would not follow; or, for writing, a file no
		// one may write.
		noLinks := flag&noFollow != 0
		if errors.Is(err, syscall.ENXIO) || errors.Is(err, syscall.EOPNOTSUPP) || noLinks && errors.Is(err, syscall.ELOOP) || writing && errors.Is(err, fs.ErrPermission) {
			stat := os.Stat
			if noLinks {
				stat = os.Lstat
			}
			if fi, serr := stat(native(p)); serr == nil {
				if !fi.Mode().IsRegular() {
					return nil, fail(op, p, hostio.ErrKind, describe(fi.Mode()))
				}
				if writing && fi.Mode().Perm()&0o222 == 0 {
					return nil, fail(op, p, hostio.ErrPermission, readOnlyAppend)
				}
			}
		}
		return nil, osFail(op, p, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, osFail(op, p, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fail(op, p, hostio.ErrKind, describe(fi.Mode()))
	}
	if writing && fi.Mode().Perm()&0o222 == 0 {
		f.Close()
		return nil, fail(op, p, hostio.ErrPermission, readOnlyAppend)
	}
	return f, nil
}

func (o *OS) Append(p string, data []byte) error {
	p, err := checkPath("append", p)
	if err != nil {
		return err
	}
	f, err := openAppend(p)
	if err != nil {
		return err
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

// openAppend opens p for appending, creating it when it is missing. Creating
// is exclusive (O_EXCL), which never follows a link: a dangling link at p is
// refused instead of creating its target wherever it points. A file that
// another process creates or removes meanwhile is simply tried again.
func openAppend(p string) (*os.File, error) {
	for try := 0; ; try++ {
		f, err := openRegular("append", p, os.O_WRONLY|os.O_APPEND)
		if !errors.Is(err, hostio.ErrNotFound) {
			return f, err
		}
		if err := inReadOnlyFolder("append", p); err != nil {
			return nil, err
		}
		f, err = os.OpenFile(native(p), os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL|openFlags, 0o644)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, createFail("append", p, err)
		}
		if fi, lerr := os.Lstat(native(p)); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fail("append", p, hostio.ErrKind, danglingLink)
		}
		if try == 3 {
			return nil, fail("append", p, hostio.ErrIO, "another process keeps creating and removing it; try again")
		}
	}
}

func (o *OS) WriteAtomic(p string, data []byte) error {
	p, err := checkPath("write", p)
	if err != nil {
		return err
	}
	// The rename replaces whatever name p is, never writing through it: a
	// link is replaced by the file (and the new file does not take the mode
	// of the link's target). A folder or a FIFO, socket or device is refused
	// instead. Lstat then rename can race, harmlessly: rename(2) itself
	// refuses to replace a folder with a file, and replacing anything else
	// writes nothing through it.
	mode := fs.FileMode(0o644)
	dir := path.Dir(p)
	if err := inReadOnlyFolder("write", p); err != nil {
		return err
	}
	if fi, err := os.Lstat(native(p)); err == nil {
		switch m := fi.Mode(); {
		case m.IsRegular() && m.Perm()&0o222 == 0:
			return fail("write", p, hostio.ErrPermission, readOnly)
		case m.IsRegular():
			mode = m.Perm()
		case m&fs.ModeSymlink == 0:
			return fail("write", p, hostio.ErrKind, describe(m))
		}
	} else if base, ok := stagedFor(path.Base(p)); ok {
		// A write the guard stages beside its file, to rename in: no more
		// readable than that file, even before the rename.
		if fi, err := os.Lstat(filepath.Join(native(dir), base)); err == nil && fi.Mode().IsRegular() {
			mode = fi.Mode().Perm()
		}
	}
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
	sweepTemps(dir, path.Base(p))
	return nil
}

// staleTemp is when a temp file of an atomic write is nobody's: a write
// takes seconds at most.
const staleTemp = 10 * time.Minute

// sweepTemps removes what atomic writes of base killed mid-way (SIGKILL, a
// power cut) left beside it: temp files of base's, by either host's name
// for them (".MEMORY.md.tmp-123", ".MEMORY.md.4242.9f86d081884c.tmp"),
// older than staleTemp. They sit in folders people commit. Best effort.
func sweepTemps(dir, base string) {
	entries, err := os.ReadDir(native(dir))
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !isTempOf(e.Name(), base) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
			os.Remove(filepath.Join(native(dir), e.Name()))
		}
	}
}

// isTempOf reports whether name is a temp file of an atomic write of base,
// as the Go host (".<base>.tmp-<digits>") or the TypeScript host
// (".<base>.<pid>.<12 hex digits>.tmp") names it.
func isTempOf(name, base string) bool {
	// The host's own temp file of a staged write of base (the guard's
	// ".<base>.tmp-<digits>", written atomically like any file) is one too.
	if rest, ok := strings.CutPrefix(name, ".."+base+".tmp-"); ok {
		if i := strings.IndexByte(rest, '.'); i > 0 && strings.Trim(rest[:i], "0123456789") == "" && isTempOf(name, "."+base+".tmp-"+rest[:i]) {
			return true
		}
	}
	rest, ok := strings.CutPrefix(name, "."+base+".")
	if !ok {
		return false
	}
	if digits, ok := strings.CutPrefix(rest, "tmp-"); ok {
		return digits != "" && strings.Trim(digits, "0123456789") == ""
	}
	pid, hex, ok := strings.Cut(strings.TrimSuffix(rest, ".tmp"), ".")
	return ok && strings.HasSuffix(rest, ".tmp") && pid != "" && strings.Trim(pid, "0123456789") == "" &&
		len(hex) == 12 && strings.Trim(hex, "0123456789abcdef") == ""
}

// stagedFor returns the file a staged write's name is beside: the guard
// stages a write under a lock as ".<base>.tmp-<digits>" and renames it in.
func stagedFor(name string) (string, bool) {
	i := strings.LastIndex(name, ".tmp-")
	if i < 2 || name[0] != '.' {
		return "", false
	}
	base := name[1:i]
	return base, isTempOf(name, base)
}

// syncDir makes a rename durable. Best effort: some systems cannot open or
// sync a folder, and the rename itself already happened.
func syncDir(dir string) {
	if d, err := os.OpenFile(native(dir), os.O_RDONLY|openFlags|dirOnly, 0); err == nil {
		d.Sync()
		d.Close()
	}
}

func (o *OS) List(p string) ([]string, error) {
	p, err := checkPath("list", p)
	if err != nil {
		return nil, err
	}
	// dirOnly: a FIFO standing where a folder should be fails at once
	// (os.ReadDir would wait on it for a writer).
	d, err := os.OpenFile(native(p), os.O_RDONLY|openFlags|dirOnly, 0)
	if err != nil {
		return nil, osFail("list", p, err)
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return nil, osFail("list", p, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		dir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(native(p), name)); err == nil {
				dir = fi.IsDir()
			}
		}
		names = append(names, Entry(name, dir))
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
	// The first folder missing on the way is made in the nearest one that
	// is there, which must be one that may be written.
	for q, made := p, ""; ; q, made = path.Dir(q), q {
		if fi, err := os.Stat(native(q)); err == nil {
			if made != "" && fi.IsDir() && fi.Mode().Perm()&0o222 == 0 {
				return fail("mkdir", made, hostio.ErrPermission, readOnlyFolder)
			}
			break
		}
		if q == path.Dir(q) {
			break
		}
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
	if err := inReadOnlyFolder("remove", p); err != nil {
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
	for _, q := range [...]string{from, to} {
		if err := inReadOnlyFolder("rename", q); err != nil {
			return err
		}
	}
	// A file replaced keeps its mode, as an atomic write keeps it: the
	// guard stages a locked write beside the file and renames it in. Only
	// a regular file takes it: chmod through a link at from would change
	// the mode of a file elsewhere, which the rename leaves where it is.
	if fi, err := os.Lstat(native(to)); err == nil && fi.Mode().IsRegular() {
		if fi.Mode().Perm()&0o222 == 0 {
			return fail("rename", to, hostio.ErrPermission, readOnly)
		}
		if ff, err := os.Lstat(native(from)); err == nil && ff.Mode().IsRegular() {
			os.Chmod(native(from), fi.Mode().Perm())
		}
	}
	if err := os.Rename(native(from), native(to)); err != nil {
		return osFail("rename", from+" -> "+to, err)
	}
	syncDir(path.Dir(to))
	// A staged write renamed in ends an atomic write: what killed ones left
	// beside to goes, as after a direct write.
	sweepTemps(path.Dir(to), path.Base(to))
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
	if err := inReadOnlyFolder("lock", p); err != nil {
		return err
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
		// Only a regular file is a lock; anything else (a folder, a link, a
		// FIFO) was put there by someone else, and waiting would not help.
		if fi, err := os.Lstat(native(p)); err == nil && !fi.Mode().IsRegular() {
			return fail("lock", p, hostio.ErrKind, describe(fi.Mode()))
		}
		// Retry at once after breaking a stale lock, or one whose holder is
		// gone; staleMs 0 means never break. The lock is judged before
		// .break is taken, and again under it (breakStale).
		if staleMs > 0 {
			if _, ok := staleLine(native(p), time.Duration(staleMs)*time.Millisecond); ok {
				broken, err := breakStale(native(p), time.Duration(staleMs)*time.Millisecond)
				if err != nil {
					return fail("lock", p, hostio.ErrKind, err.Error())
				}
				if broken {
					continue
				}
			}
		}
		left := time.Until(deadline)
		if left <= 0 {
			holder, _ := readLock("lock", p)
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

// staleLine reads the lock file at name and reports whether it may be
// broken: it is older than stale, or its holder is gone (holderGone). The
// line is read before the file's age is looked at, so a lock replaced in
// between is judged by its own (fresh) time. A lock that is missing is
// judged breakable: the caller tries to create it at once.
func staleLine(name string, stale time.Duration) ([]byte, bool) {
	line, err := readLock("lock", filepath.ToSlash(name))
	if errors.Is(err, hostio.ErrNotFound) {
		return nil, true
	}
	if line == nil {
		// A lock that cannot be read is judged by its age alone, and read
		// as empty.
		line = []byte{}
	}
	gone := holderGone(line)
	fi, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true
	}
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	return line, gone || time.Since(fi.ModTime()) > stale
}

// breakStale removes the lock file at name if it is still stale, and reports whether the caller should
// try to create it again at once.
//
// Two waiters may judge the same lock stale; if both removed it by name, the
// slower one could delete the fresh lock the faster one just took. So breaking
// is itself serialised by a second lock file, name+".break", created
// exclusively: its holder judges the lock again (staleLine) and removes it
// only if it is still stale and still the very line judged. A holder that
// unlocks between the two judgements (a slow one past the age, or one whose
// pid was being looked up), and a successor that takes the lock, leave
// another line: the successor's lock is left alone. A ".break" names its
// holder as a lock does; one left by a process that died inside these few
// calls is removed once its holder is gone (holderGone), or once it is older
// than stale (a holder that cannot be judged): until then no lock could be
// broken, and a lock whose holder was SIGKILLed would hold every writer for
// the stale time. Anything but a regular file there (a folder, a link, a
// FIFO) is no breaker's: it was put there by someone else, is never
// removed, and is the error returned, at once, since it would hold every
// writer for good.
func breakStale(name string, stale time.Duration) (bool, error) {
	brk := name + ".break"
	f, err := os.OpenFile(brk, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if fi, lerr := os.Lstat(brk); lerr == nil && !fi.Mode().IsRegular() {
			return false, errors.New(staleUnbreakable(filepath.ToSlash(brk), describe(fi.Mode())))
		}
		line, _ := readLock("lock", filepath.ToSlash(brk))
		if fi, serr := os.Stat(brk); serr == nil && (holderGone(line) || time.Since(fi.ModTime()) > stale) {
			os.Remove(brk)
		}
		return false, nil
	}
	f.Write(lockContent("break", time.Now()))
	f.Close()
	defer os.Remove(brk)
	line, ok := staleLine(name, stale)
	if !ok {
		return false, nil
	}
	if line == nil {
		return true, nil
	}
	// The line is read once more now that its judgement is done: a holder
	// that unlocked meanwhile, and a successor, leave another line.
	if again, _ := readLock("lock", filepath.ToSlash(name)); !bytes.Equal(again, line) {
		return false, nil
	}
	err = os.Remove(name)
	return err == nil || errors.Is(err, fs.ErrNotExist), nil
}

// staleUnbreakable says why a stale lock cannot be broken: its .break file
// at brk is what (describe says) instead of a breaker's regular file. The
// TypeScript host says the same.
func staleUnbreakable(brk, what string) string {
	return "the lock is stale but cannot be broken: " + brk + " " + what + ", where only a breaker's regular file may be; remove it by hand"
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
	got, err := readLock("unlock", p)
	if err != nil {
		switch {
		case errors.Is(err, hostio.ErrNotFound):
			delete(o.held, p)
			return fail("unlock", p, hostio.ErrNotFound, lockGone)
		case errors.Is(err, hostio.ErrKind):
			delete(o.held, p)
			var pe *hostio.PathError
			errors.As(err, &pe)
			return fail("unlock", p, hostio.ErrKind, pe.Msg+lockReplaced)
		}
		return err
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

// readLock reads what a lock file says about its holder, without following
// a link or waiting on a FIFO: a lock file is always a regular file.
func readLock(op, p string) ([]byte, error) {
	f, err := openRegular(op, p, os.O_RDONLY|noFollow)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxLockBytes))
	if err != nil {
		return nil, osFail(op, p, err)
	}
	return b, nil
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

// NoWaitNoLink are the flags for opening a file that comes with a
// repository outside this package's guarded calls (pimem git setup's
// .gitattributes): a FIFO never waits for its other end and a symbolic
// link is not followed (0 where the platform has neither).
const NoWaitNoLink = openFlags | noFollow
