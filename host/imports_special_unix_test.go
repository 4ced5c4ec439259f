//go:build unix

package host

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
)

// watchdog is how long a probe call may run before the test calls it
// blocked: every call here returns at once or never (a host waiting on a
// FIFO), so it is no speed limit, only what turns a hang into a failure.
const watchdog = 5 * time.Second

// guarded is a probe instance whose calls run under the watchdog. After a
// hang, Close would wait on the stuck call forever, so the instance is then
// left to the end of the test binary.
type guarded struct {
	i    *Instance
	hung bool
}

func newGuarded(t *testing.T, fs fsys.FS) *guarded {
	t.Helper()
	i, err := probeRuntime(t).NewInstance(t.Context(), Config{FS: fs})
	require.NoError(t, err)
	g := &guarded{i: i}
	t.Cleanup(func() {
		if !g.hung {
			i.Close()
		}
	})
	return g
}

// probe runs one probe op and returns its answer decoded.
func (g *guarded) probe(t *testing.T, op obj) obj {
	t.Helper()
	in, _ := json.Marshal(op)
	type result struct {
		env Envelope
		err error
	}
	done := make(chan result, 1)
	go func() {
		env, err := g.i.Call("probe", in)
		done <- result{env, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(watchdog):
		g.hung = true
		t.Fatalf("probe %s has not returned after %s: the host is blocked", in, watchdog)
	}
	require.NoError(t, r.err, "probe %s", in)
	require.Equal(t, 1, len(r.env.Effects), "probe %s answered %+v", in, r.env)
	var m obj
	require.NoError(t, json.Unmarshal([]byte(r.env.Effects[0].Text), &m))
	return m
}

// disk is one FS the imports run on, with a way to put links and special
// files in it: the real disk or Mem, which must answer alike.
type disk struct {
	name    string
	make    func(t *testing.T) (fs fsys.FS, root string)
	special func(t *testing.T, fs fsys.FS, p string, s fsys.Special)
	symlink func(t *testing.T, fs fsys.FS, target, p string)
}

func disks() []disk {
	return []disk{
		{
			name: "OS",
			make: func(t *testing.T) (fsys.FS, string) { return fsys.NewOS(), filepath.ToSlash(t.TempDir()) },
			special: func(t *testing.T, _ fsys.FS, p string, s fsys.Special) {
				switch s {
				case fsys.FIFO:
					require.NoError(t, syscall.Mkfifo(p, 0o644))
				case fsys.Socket:
					l, err := net.Listen("unix", p)
					if err != nil {
						t.Skipf("cannot make a unix socket at %s (%v); the path may be too long for one", p, err)
					}
					t.Cleanup(func() { l.Close() })
				case fsys.CharDevice:
					if runtime.GOOS != "linux" {
						t.Skip("making a character device is only done on Linux, where /dev/null's numbers are known")
					}
					if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
						t.Skipf("cannot make a character device here (%v): mknod needs CAP_MKNOD, which this test does not try to get", err)
					}
				}
			},
			symlink: func(t *testing.T, _ fsys.FS, target, p string) { require.NoError(t, os.Symlink(target, p)) },
		},
		{
			name: "Mem",
			make: func(t *testing.T) (fsys.FS, string) {
				m := fsys.NewMem(nil)
				require.NoError(t, m.Mkdir("/work"))
				return m, "/work"
			},
			special: func(t *testing.T, fs fsys.FS, p string, s fsys.Special) {
				require.NoError(t, fs.(*fsys.Mem).MakeSpecial(p, s))
			},
			symlink: func(t *testing.T, fs fsys.FS, target, p string) {
				require.NoError(t, fs.(*fsys.Mem).Symlink(target, p))
			},
		},
	}
}

// failure is the part of a probe answer that both disks give alike.
func failure(m obj) obj {
	if _, failed := m["code"]; !failed {
		return m
	}
	return obj{"code": m["code"], "err": m["err"]}
}

// kindAndSize drops the mtime, which differs between disks.
func kindAndSize(m obj) obj {
	if _, failed := m["code"]; failed {
		return failure(m)
	}
	size := m["size"]
	if m["kind"] == float64(2) {
		size = float64(0) // a folder's size is the file system's (checked in TestStatGivesAFolderItsSizeInTheFileSystem)
	}
	return obj{"kind": m["kind"], "size": size, "dir": m["dir"]}
}

func TestImportsNeverBlockOnOrWriteToAFileThatIsNotRegular(t *testing.T) {
	for _, kind := range []fsys.Special{fsys.FIFO, fsys.Socket, fsys.CharDevice} {
		for _, d := range disks() {
			t.Run(kind.String()+"/"+d.name, func(t *testing.T) {
				fs, root := d.make(t)
				p := root + "/decisions.jsonl"
				link := root + "/MEMORY.md"
				d.special(t, fs, p, kind)
				d.symlink(t, fs, "decisions.jsonl", link)
				g := newGuarded(t, fs)
				refused := func(op, path string) obj {
					return obj{"code": float64(-4), "err": op + " " + path + ": wrong kind of file (is a " + kind.String() + ", not a regular file)"}
				}
				steps := []struct {
					op   obj
					want obj
				}{
					{obj{"op": "read", "path": p, "n": 8}, refused("read", p)},
					{obj{"op": "read", "path": link, "n": 8}, refused("read", link)},
					{obj{"op": "append", "path": p, "data": "{}\n"}, refused("append", p)},
					{obj{"op": "append", "path": link, "data": "{}\n"}, refused("append", link)},
					{obj{"op": "write", "path": p, "data": "x"}, refused("write", p)},
					{obj{"op": "lock", "path": p, "wait": 60_000, "stale": 1}, refused("lock", p)},
					{obj{"op": "list", "path": p}, obj{"code": float64(-4), "err": "list " + p + ": wrong kind of file (not a directory)"}},
					{obj{"op": "stat", "path": p}, obj{"kind": float64(0), "size": float64(0), "dir": false}},
					{obj{"op": "stat", "path": link}, obj{"kind": float64(0), "size": float64(0), "dir": false}},
					{obj{"op": "lstat", "path": p}, obj{"kind": float64(0), "size": float64(0), "dir": false}},
				}
				for _, s := range steps {
					require.Equal(t, s.want, kindAndSize(g.probe(t, s.op)), "%v", s.op)
				}
			})
		}
	}
}

func TestImportsLstatSeesLinksThatStatAndReadsFollow(t *testing.T) {
	for _, d := range disks() {
		t.Run(d.name, func(t *testing.T) {
			fs, r := d.make(t)
			require.NoError(t, fs.WriteAtomic(r+"/target", []byte("data")))
			require.NoError(t, fs.Mkdir(r+"/dir"))
			d.special(t, fs, r+"/fifo", fsys.FIFO)
			for _, l := range [][2]string{{"target", "to-file"}, {"dir", "to-dir"}, {"missing", "dangling"}, {"fifo", "to-fifo"}} {
				d.symlink(t, fs, l[0], r+"/"+l[1])
			}
			g := newGuarded(t, fs)
			info := func(kind, size float64) obj { return obj{"kind": kind, "size": size, "dir": kind == 2} }
			steps := []struct {
				op   obj
				want obj
			}{
				{obj{"op": "stat", "path": r + "/target"}, info(1, 4)},
				{obj{"op": "lstat", "path": r + "/target"}, info(1, 4)},
				{obj{"op": "stat", "path": r + "/dir"}, info(2, 0)},
				{obj{"op": "lstat", "path": r + "/dir"}, info(2, 0)},
				{obj{"op": "lstat", "path": r + "/fifo"}, info(0, 0)},
				{obj{"op": "stat", "path": r + "/to-file"}, info(1, 4)},
				{obj{"op": "lstat", "path": r + "/to-file"}, info(3, 6)},
				{obj{"op": "stat", "path": r + "/to-dir"}, info(2, 0)},
				{obj{"op": "lstat", "path": r + "/to-dir"}, info(3, 3)},
				{obj{"op": "stat", "path": r + "/to-fifo"}, info(0, 0)},
				{obj{"op": "lstat", "path": r + "/to-fifo"}, info(3, 4)},
				// A stat that finds nothing is not worded by the host: the core does not ask.
				{obj{"op": "stat", "path": r + "/dangling"}, obj{"code": float64(-1), "err": "stat " + r + "/dangling: not found"}},
				{obj{"op": "lstat", "path": r + "/dangling"}, info(3, 7)},
				{obj{"op": "lstat", "path": r + "/none"}, obj{"code": float64(-1), "err": "lstat " + r + "/none: not found"}},
				{obj{"op": "read", "path": r + "/to-file", "n": 8}, obj{"n": float64(4), "data": "data"}},
				{obj{"op": "append", "path": r + "/to-file", "data": "+"}, obj{"ok": true}},
				{obj{"op": "read", "path": r + "/target", "n": 8}, obj{"n": float64(5), "data": "data+"}},
				{obj{"op": "append", "path": r + "/dangling", "data": "x"}, obj{"code": float64(-4), "err": "append " + r + "/dangling: wrong kind of file (is a symbolic link to a missing file; append creates a missing file, but never through a link)"}},
				{obj{"op": "lstat", "path": r + "/missing"}, obj{"code": float64(-1), "err": "lstat " + r + "/missing: not found"}},
				{obj{"op": "lock", "path": r + "/to-file", "wait": 0, "stale": 0}, obj{"code": float64(-4), "err": "lock " + r + "/to-file: wrong kind of file (is a symbolic link, not a regular file)"}},
				{obj{"op": "write", "path": r + "/to-file", "data": "new"}, obj{"ok": true}},
				{obj{"op": "lstat", "path": r + "/to-file"}, info(1, 3)},
				{obj{"op": "read", "path": r + "/target", "n": 8}, obj{"n": float64(5), "data": "data+"}},
			}
			for _, s := range steps {
				got := g.probe(t, s.op)
				if s.op["op"] == "stat" || s.op["op"] == "lstat" {
					got = kindAndSize(got)
				}
				require.Equal(t, s.want, got, "%v", s.op)
			}
		})
	}
}
