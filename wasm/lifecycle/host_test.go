package lifecycle

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// osHost is a minimal real-folder host for the lifecycle's own tests; the
// conformance suite runs the same engine over host/fsys.
type osHost struct {
	now  int64
	logs []string
	// failWrite, when set, fails every atomic write of a path holding it
	// (a full disk, a read-only folder).
	failWrite string
}

func (h *osHost) wrap(op, p string, err error) error {
	if err == nil {
		return nil
	}
	var sentinel error = hostio.ErrIO
	switch {
	case errors.Is(err, fs.ErrNotExist):
		sentinel = hostio.ErrNotFound
	case errors.Is(err, fs.ErrExist):
		sentinel = hostio.ErrExists
	}
	return &hostio.PathError{Op: op, Path: p, Err: sentinel, Msg: err.Error()}
}

func (h *osHost) ReadAt(p string, off int64, dst []byte) (int, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, h.wrap("read", p, err)
	}
	defer f.Close()
	n, err := f.ReadAt(dst, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, h.wrap("read", p, err)
	}
	return n, nil
}

func (h *osHost) Stat(p string) (hostio.FileInfo, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return hostio.FileInfo{}, h.wrap("stat", p, err)
	}
	return infoOf(fi), nil
}

func (h *osHost) Lstat(p string) (hostio.FileInfo, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return hostio.FileInfo{}, h.wrap("lstat", p, err)
	}
	return infoOf(fi), nil
}

// infoOf reports kinds as the real hosts do (host/fsys); sizes are kept only
// for files and links.
func infoOf(fi fs.FileInfo) hostio.FileInfo {
	kind, size := hostio.KindOther, int64(0)
	switch m := fi.Mode(); {
	case m.IsRegular():
		kind, size = hostio.KindFile, fi.Size()
	case m.IsDir():
		kind = hostio.KindFolder
	case m&fs.ModeSymlink != 0:
		kind, size = hostio.KindSymlink, fi.Size()
	}
	info := hostio.NewFileInfo(size, fi.ModTime().UnixMilli(), kind)
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && kind == hostio.KindFile {
		info.ID = hostio.FileID(uint64(st.Dev), uint64(st.Ino))
	}
	return info
}

func (h *osHost) Append(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return h.wrap("append", p, err)
	}
	defer f.Close()
	_, err = f.Write(data)
	return h.wrap("append", p, err)
}

func (h *osHost) WriteAtomic(p string, data []byte) error {
	if h.failWrite != "" && strings.Contains(p, h.failWrite) {
		return h.wrap("write", p, syscall.ENOSPC)
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return h.wrap("write", p, err)
	}
	return h.wrap("write", p, os.Rename(tmp, p))
}

func (h *osHost) List(p string) ([]string, error) {
	es, err := os.ReadDir(p)
	if err != nil {
		return nil, h.wrap("list", p, err)
	}
	var out []string
	for _, e := range es {
		n := e.Name()
		if strings.IndexByte(n, '\n') >= 0 || !utf8.ValidString(n) {
			q, _ := json.Marshal(n)
			n = "/" + string(q) // as the hosts list it (fsys.Entry)
		}
		if e.IsDir() {
			n += "/"
		}
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

func (h *osHost) Mkdir(p string) error { return h.wrap("mkdir", p, os.MkdirAll(p, 0o755)) }
func (h *osHost) Rename(from, to string) error {
	return h.wrap("rename", from, os.Rename(from, to))
}
func (h *osHost) Remove(p string) error { return h.wrap("remove", p, os.Remove(p)) }
func (h *osHost) Lock(p string, waitMs, staleMs int) error {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return h.wrap("lock", p, err)
	}
	return f.Close()
}
func (h *osHost) Unlock(p string) error { return h.wrap("unlock", p, os.Remove(p)) }
func (h *osHost) Now() int64            { return h.now }
func (h *osHost) Random(dst []byte) {
	for i := range dst {
		dst[i] = byte(i)
	}
}
func (h *osHost) Log(level hostio.Level, msg string) { h.logs = append(h.logs, msg) }

// tree lists every file under dir with its content, to compare before/after.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, _ := os.ReadFile(p)
		out[rel] = string(b)
		return nil
	})
	return out
}
