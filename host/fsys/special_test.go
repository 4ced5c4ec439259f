package fsys_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// watchdog is how long a call may run before a test calls it blocked. Every
// call here returns at once or never (a host waiting on a FIFO), so this is
// no speed limit: it turns a hang, which in pi would freeze the event loop,
// into a failure instead of a suite that never ends.
const watchdog = 5 * time.Second

// within runs call in a goroutine and fails the test if it has not returned
// after watchdog.
func within[T any](t *testing.T, what string, call func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- call() }()
	select {
	case v := <-done:
		return v
	case <-time.After(watchdog):
		t.Fatalf("%s has not returned after %s: it is blocked", what, watchdog)
		panic("unreachable")
	}
}

// outcome is a call's result as one line that OS and Mem must give alike:
// its value ("ok", the bytes read), or the contract's code and the host's
// own words.
func outcome(v string, err error) string {
	if err == nil {
		return v
	}
	var pe *hostio.PathError
	if !errors.As(err, &pe) {
		return "not a *hostio.PathError: " + err.Error()
	}
	return strconv.FormatInt(hostio.CodeForError(err), 10) + " " + pe.Msg
}

func ok(err error) (string, error) { return "ok", err }

func readAll(fs fsys.FS, p string) (string, error) {
	var out []byte
	buf := make([]byte, 64)
	for off := int64(0); ; {
		n, err := fs.ReadAt(p, off, buf)
		if err != nil || n == 0 {
			return string(out), err
		}
		out = append(out, buf[:n]...)
		off += int64(n)
	}
}

// statLine is a stat's kind and size; a folder's size is the file
// system's (fsys_test.go checks it), written 0 here as Mem has it.
func statLine(fi hostio.FileInfo, err error) (string, error) {
	if fi.Dir {
		fi.Size = 0
	}
	return "kind " + strconv.Itoa(int(fi.Kind)) + " size " + strconv.FormatInt(fi.Size, 10), err
}

func list(fs fsys.FS, p string) (string, error) {
	names, err := fs.List(p)
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ","
		}
		s += n
	}
	return s, err
}

type step struct {
	name string
	call func() (string, error)
	want string
}

// run performs the steps in order, each under the watchdog.
func run(t *testing.T, steps []step) {
	t.Helper()
	for _, s := range steps {
		got := within(t, s.name, func() string { return outcome(s.call()) })
		require.Equal(t, s.want, got, s.name)
	}
}

func TestNothingBlocksOnOrWritesToAFileThatIsNotRegular(t *testing.T) {
	for _, kind := range []fsys.Special{fsys.FIFO, fsys.Socket, fsys.CharDevice} {
		t.Run(kind.String(), func(t *testing.T) {
			forEach(t, both(), func(t *testing.T, f fixture) {
				p := f.root + "/decisions.jsonl"
				link := f.root + "/MEMORY.md"
				f.special(t, p, kind)
				f.symlink(t, "decisions.jsonl", link)
				is := "-4 is a " + kind.String() + ", not a regular file"
				run(t, []step{
					{"read", func() (string, error) { return readAll(f.fs, p) }, is},
					{"read into an empty buffer", func() (string, error) { _, err := f.fs.ReadAt(p, 0, nil); return ok(err) }, is},
					{"read through a link", func() (string, error) { return readAll(f.fs, link) }, is},
					{"append", func() (string, error) { return ok(f.fs.Append(p, []byte("{}\n"))) }, is},
					{"append nothing", func() (string, error) { return ok(f.fs.Append(p, nil)) }, is},
					{"append through a link", func() (string, error) { return ok(f.fs.Append(link, []byte("{}\n"))) }, is},
					{"write atomically over it", func() (string, error) { return ok(f.fs.WriteAtomic(p, []byte("x"))) }, is},
					{"lock it, even as stale", func() (string, error) { return ok(f.fs.Lock(p, 60_000, 1)) }, is},
					{"list it", func() (string, error) { return list(f.fs, p) }, "-4 not a directory"},
					{"stat", func() (string, error) { return statLine(f.fs.Stat(p)) }, "kind 0 size 0"},
					{"stat through a link", func() (string, error) { return statLine(f.fs.Stat(link)) }, "kind 0 size 0"},
					{"lstat", func() (string, error) { return statLine(f.fs.Lstat(p)) }, "kind 0 size 0"},
					{"the folder lists it", func() (string, error) { return list(f.fs, f.root) }, "MEMORY.md,decisions.jsonl"},
				})
			})
		})
	}
}

func TestUnlockLeavesAloneALockReplacedByAFIFO(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		p := f.root + "/decisions.jsonl.lock"
		require.NoError(t, f.fs.Lock(p, 0, 0))
		require.NoError(t, f.fs.Remove(p))
		f.special(t, p, fsys.FIFO)
		run(t, []step{
			{"unlock", func() (string, error) { return ok(f.fs.Unlock(p)) },
				"-4 is a FIFO, not a regular file; this is not the lock file this instance wrote, so it was left alone"},
			{"the FIFO is still there", func() (string, error) { return statLine(f.fs.Lstat(p)) }, "kind 0 size 0"},
			{"the lock is forgotten", func() (string, error) { return ok(f.fs.Unlock(p)) }, "-7 this instance holds no lock here"},
		})
	})
}

func TestLinksAreFollowedToReadAndAppendButReplacedByWrites(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		r := f.root
		require.NoError(t, f.fs.WriteAtomic(r+"/target", []byte("data")))
		require.NoError(t, f.fs.Mkdir(r+"/dir"))
		require.NoError(t, f.fs.WriteAtomic(r+"/dir/inner", []byte("in")))
		for _, l := range [][2]string{
			{"target", "to-file"},
			{"dir", "to-dir"},
			{"missing", "dangling"},
			{"nofolder/x", "dangling-deep"},
			{"loop", "loop"},
			{"dir/../target", "up"},
			{r + "/target", "abs"},
		} {
			f.symlink(t, l[0], r+"/"+l[1])
		}
		read := func(p string) func() (string, error) { return func() (string, error) { return readAll(f.fs, r+"/"+p) } }
		stat := func(p string) func() (string, error) {
			return func() (string, error) { return statLine(f.fs.Stat(r + "/" + p)) }
		}
		lstat := func(p string) func() (string, error) {
			return func() (string, error) { return statLine(f.fs.Lstat(r + "/" + p)) }
		}
		appendTo := func(p, data string) func() (string, error) {
			return func() (string, error) { return ok(f.fs.Append(r+"/"+p, []byte(data))) }
		}
		write := func(p, data string) func() (string, error) {
			return func() (string, error) { return ok(f.fs.WriteAtomic(r+"/"+p, []byte(data))) }
		}
		const (
			missing  = "-1 no such file or directory"
			loop     = "-6 too many levels of symbolic links"
			dangling = "-4 is a symbolic link to a missing file; append creates a missing file, but never through a link"
			isLink   = "-4 is a symbolic link, not a regular file"
		)
		run(t, []step{
			{"read a link to a file", read("to-file"), "data"},
			{"read an absolute link", read("abs"), "data"},
			{"read a link that goes up", read("up"), "data"},
			{"read a link to a folder", read("to-dir"), "-4 is a folder"},
			{"read through a linked folder", read("to-dir/inner"), "in"},
			{"read a dangling link", read("dangling"), missing},
			{"read a link loop", read("loop"), loop},
			{"stat follows", stat("to-file"), "kind 1 size 4"},
			{"lstat does not", lstat("to-file"), "kind 3 size 6"},
			{"stat a link to a folder", stat("to-dir"), "kind 2 size 0"},
			{"lstat a link to a folder", lstat("to-dir"), "kind 3 size 3"},
			{"stat a dangling link", stat("dangling"), missing},
			{"lstat a dangling link", lstat("dangling"), "kind 3 size 7"},
			{"lstat a link loop", lstat("loop"), "kind 3 size 4"},

			// What the core's policy (Lstat, then refuse) guards against:
			// the host itself follows a link to append.
			{"append through a link", appendTo("to-file", "+"), "ok"},
			{"the target grew", read("target"), "data+"},
			{"append to a dangling link", appendTo("dangling", "x"), dangling},
			{"append to a link into a missing folder", appendTo("dangling-deep", "x"), dangling},
			{"no target was created", lstat("missing"), missing},
			{"append creates a file in a linked folder", appendTo("to-dir/new", "n"), "ok"},
			{"in the folder itself", read("dir/new"), "n"},
			{"append to a link loop", appendTo("loop", "x"), loop},

			{"lock a link to a file", func() (string, error) { return ok(f.fs.Lock(r+"/to-file", 0, 0)) }, isLink},
			{"lock a dangling link", func() (string, error) { return ok(f.fs.Lock(r+"/dangling", 0, 1)) }, isLink},
			{"list marks links to folders", func() (string, error) { return list(f.fs, r) },
				"abs,dangling,dangling-deep,dir/,loop,target,to-dir/,to-file,up"},
			{"list a linked folder", func() (string, error) { return list(f.fs, r+"/to-dir") }, "inner,new"},
			{"mkdir a link to a folder", func() (string, error) { return ok(f.fs.Mkdir(r + "/to-dir")) }, "ok"},
			{"mkdir in a linked folder", func() (string, error) { return ok(f.fs.Mkdir(r + "/to-dir/sub")) }, "ok"},
			{"made in the folder itself", stat("dir/sub"), "kind 2 size 0"},
			{"mkdir a dangling link", func() (string, error) { return ok(f.fs.Mkdir(r + "/dangling")) }, "-2 file exists"},
			{"rename a link to a folder", func() (string, error) { return ok(f.fs.Rename(r+"/to-dir", r+"/x")) }, "-4 is a folder; only files are renamed"},

			{"write over a link to a file", write("to-file", "new"), "ok"},
			{"replaces the link", lstat("to-file"), "kind 1 size 3"},
			{"leaves the target alone", read("target"), "data+"},
			{"write over a link to a folder", write("to-dir", "x"), "ok"},
			{"replaces that link", lstat("to-dir"), "kind 1 size 1"},
			{"leaves the folder alone", stat("dir"), "kind 2 size 0"},
			{"write over a dangling link", write("dangling", "x"), "ok"},
			{"creates nothing where it pointed", lstat("missing"), missing},

			{"remove a link", func() (string, error) { return ok(f.fs.Remove(r + "/up")) }, "ok"},
			{"removes only the link", stat("target"), "kind 1 size 5"},
			{"rename a link", func() (string, error) { return ok(f.fs.Rename(r+"/abs", r+"/moved")) }, "ok"},
			{"moves the link", read("moved"), "data+"},
		})
	})
}

func TestStatFollowsLinksAndLstatReportsThem(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		r := f.root
		require.NoError(t, f.fs.WriteAtomic(r+"/file", []byte("12345")))
		require.NoError(t, f.fs.Mkdir(r+"/folder"))
		f.special(t, r+"/fifo", fsys.FIFO)
		for _, l := range [][2]string{{"file", "to-file"}, {"folder", "to-folder"}, {"fifo", "to-fifo"}, {"none", "to-none"}} {
			f.symlink(t, l[0], r+"/"+l[1])
		}
		cases := []struct {
			name        string
			stat, lstat hostio.Kind
		}{
			{"file", hostio.KindFile, hostio.KindFile},
			{"folder", hostio.KindFolder, hostio.KindFolder},
			{"fifo", hostio.KindOther, hostio.KindOther},
			{"to-file", hostio.KindFile, hostio.KindSymlink},
			{"to-folder", hostio.KindFolder, hostio.KindSymlink},
			{"to-fifo", hostio.KindOther, hostio.KindSymlink},
		}
		for _, c := range cases {
			fi, err := f.fs.Stat(r + "/" + c.name)
			require.NoError(t, err, c.name)
			require.Equal(t, c.stat, fi.Kind, "stat %s", c.name)
			require.Equal(t, c.stat == hostio.KindFolder, fi.Dir, "stat %s: Dir must agree with Kind", c.name)
			li, err := f.fs.Lstat(r + "/" + c.name)
			require.NoError(t, err, c.name)
			require.Equal(t, c.lstat, li.Kind, "lstat %s", c.name)
			require.Equal(t, c.lstat == hostio.KindFolder, li.Dir, "lstat %s: Dir must agree with Kind", c.name)
		}
		_, err := f.fs.Stat(r + "/to-none")
		require.ErrorIs(t, err, hostio.ErrNotFound)
		li, err := f.fs.Lstat(r + "/to-none")
		require.NoError(t, err)
		require.Equal(t, hostio.NewFileInfo(4, li.MtimeMs, hostio.KindSymlink), li)
		_, err = f.fs.Lstat(r + "/none")
		require.ErrorIs(t, err, hostio.ErrNotFound)
	})
}
