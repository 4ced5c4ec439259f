//go:build wasip1

package hostio

import "unsafe"

//go:wasmimport extism:host/user pm_fs_read
func pmRead(pathPtr, pathLen uint32, offset uint64, dstPtr, dstLen uint32) int64

//go:wasmimport extism:host/user pm_fs_stat
func pmStat(pathPtr, pathLen, outPtr uint32) int32

//go:wasmimport extism:host/user pm_fs_lstat
func pmLstat(pathPtr, pathLen, outPtr uint32) int32

//go:wasmimport extism:host/user pm_fs_append
func pmAppend(pathPtr, pathLen, dataPtr, dataLen uint32) int32

//go:wasmimport extism:host/user pm_fs_write_atomic
func pmWriteAtomic(pathPtr, pathLen, dataPtr, dataLen uint32) int32

//go:wasmimport extism:host/user pm_fs_list
func pmList(pathPtr, pathLen, dstPtr, dstLen uint32) int64

//go:wasmimport extism:host/user pm_fs_mkdir
func pmMkdir(pathPtr, pathLen uint32) int32

//go:wasmimport extism:host/user pm_fs_remove
func pmRemove(pathPtr, pathLen uint32) int32

//go:wasmimport extism:host/user pm_fs_rename
func pmRename(fromPtr, fromLen, toPtr, toLen uint32) int32

//go:wasmimport extism:host/user pm_lock
func pmLock(pathPtr, pathLen, waitMs, staleMs uint32) int32

//go:wasmimport extism:host/user pm_unlock
func pmUnlock(pathPtr, pathLen uint32) int32

//go:wasmimport extism:host/user pm_now
func pmNow() int64

//go:wasmimport extism:host/user pm_random
func pmRandom(dstPtr, dstLen uint32) int32

//go:wasmimport extism:host/user pm_log
func pmLog(level, ptr, length uint32)

//go:wasmimport extism:host/user pm_last_error
func pmLastError(dstPtr, dstLen uint32) int32

// Imports is the Host of a module running under pi or the Go host.
type Imports struct{ scratch [24]byte }

var _ Host = (*Imports)(nil)

func strPtr(s string) (uint32, uint32) {
	if len(s) == 0 {
		return 0, 0
	}
	return uint32(uintptr(unsafe.Pointer(unsafe.StringData(s)))), uint32(len(s))
}

func bytesPtr(b []byte) (uint32, uint32) {
	if len(b) == 0 {
		return 0, 0
	}
	return uint32(uintptr(unsafe.Pointer(&b[0]))), uint32(len(b))
}

func fail(op, path string, code int64) error {
	e := &PathError{Op: op, Path: path, Err: ErrorForCode(code)}
	var buf [512]byte
	n := pmLastError(bytesPtr(buf[:]))
	if n > 0 {
		if int(n) > len(buf) {
			n = int32(len(buf))
		}
		e.Msg = string(buf[:n])
	}
	return e
}

func (h *Imports) ReadAt(path string, off int64, dst []byte) (int, error) {
	if len(dst) == 0 {
		return 0, nil
	}
	pp, pl := strPtr(path)
	dp, dl := bytesPtr(dst)
	n := pmRead(pp, pl, uint64(off), dp, dl)
	if n < 0 {
		return 0, fail("read", path, n)
	}
	return int(n), nil
}

func (h *Imports) Stat(path string) (FileInfo, error) { return h.stat("stat", path, false) }

func (h *Imports) Lstat(path string) (FileInfo, error) { return h.stat("lstat", path, true) }

// stat decodes the 24-byte record both stat imports write. A kind this core
// does not know (a newer host's) is KindOther, which is never opened.
func (h *Imports) stat(op, path string, lstat bool) (FileInfo, error) {
	pp, pl := strPtr(path)
	out, _ := bytesPtr(h.scratch[:])
	var rc int32
	if lstat {
		rc = pmLstat(pp, pl, out)
	} else {
		rc = pmStat(pp, pl, out)
	}
	if rc == CodeNotFound {
		// The usual answer (a config file nobody wrote, a lock not yet
		// taken), and one the core mostly acts on without showing it: the
		// host's own wording is not asked for.
		return FileInfo{}, &PathError{Op: op, Path: path, Err: ErrNotFound}
	}
	if rc < 0 {
		return FileInfo{}, fail(op, path, int64(rc))
	}
	b := h.scratch[:]
	size := le64(b[0:8])
	mtime := le64(b[8:16])
	kind := Kind(uint32(b[16]) | uint32(b[17])<<8 | uint32(b[18])<<16 | uint32(b[19])<<24)
	if kind > KindSymlink {
		kind = KindOther
	}
	fi := NewFileInfo(int64(size), int64(mtime), kind)
	fi.ID = uint32(b[20]) | uint32(b[21])<<8 | uint32(b[22])<<16 | uint32(b[23])<<24
	return fi, nil
}

func le64(b []byte) uint64 {
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

func (h *Imports) Append(path string, data []byte) error {
	pp, pl := strPtr(path)
	dp, dl := bytesPtr(data)
	if rc := pmAppend(pp, pl, dp, dl); rc < 0 {
		return fail("append", path, int64(rc))
	}
	return nil
}

func (h *Imports) WriteAtomic(path string, data []byte) error {
	pp, pl := strPtr(path)
	dp, dl := bytesPtr(data)
	if rc := pmWriteAtomic(pp, pl, dp, dl); rc < 0 {
		return fail("write", path, int64(rc))
	}
	return nil
}

func (h *Imports) List(path string) ([]string, error) {
	pp, pl := strPtr(path)
	buf := make([]byte, 4096)
	for {
		dp, dl := bytesPtr(buf)
		n := pmList(pp, pl, dp, dl)
		if n < 0 {
			return nil, fail("list", path, n)
		}
		if int(n) <= len(buf) {
			return splitLines(buf[:n]), nil
		}
		buf = make([]byte, n)
	}
}

func splitLines(b []byte) []string {
	var out []string
	start := 0
	for i, c := range b {
		if c == '\n' {
			if i > start {
				out = append(out, string(b[start:i]))
			}
			start = i + 1
		}
	}
	if start < len(b) {
		out = append(out, string(b[start:]))
	}
	return out
}

func (h *Imports) Mkdir(path string) error {
	pp, pl := strPtr(path)
	if rc := pmMkdir(pp, pl); rc < 0 {
		return fail("mkdir", path, int64(rc))
	}
	return nil
}

func (h *Imports) Remove(path string) error {
	pp, pl := strPtr(path)
	if rc := pmRemove(pp, pl); rc < 0 {
		return fail("remove", path, int64(rc))
	}
	return nil
}

func (h *Imports) Rename(from, to string) error {
	fp, fl := strPtr(from)
	tp, tl := strPtr(to)
	if rc := pmRename(fp, fl, tp, tl); rc < 0 {
		return fail("rename", from+" -> "+to, int64(rc))
	}
	return nil
}

func (h *Imports) Lock(path string, waitMs, staleMs int) error {
	pp, pl := strPtr(path)
	if rc := pmLock(pp, pl, uint32(waitMs), uint32(staleMs)); rc < 0 {
		return fail("lock", path, int64(rc))
	}
	return nil
}

func (h *Imports) Unlock(path string) error {
	pp, pl := strPtr(path)
	if rc := pmUnlock(pp, pl); rc < 0 {
		return fail("unlock", path, int64(rc))
	}
	return nil
}

func (h *Imports) Now() int64 { return pmNow() }

func (h *Imports) Random(dst []byte) {
	dp, dl := bytesPtr(dst)
	pmRandom(dp, dl)
}

func (h *Imports) Log(level Level, msg string) {
	p, l := strPtr(msg)
	pmLog(uint32(level), p, l)
}
