package fsys_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// fixture is one FS implementation prepared for a test: an empty folder to
// work in, a second lock holder over the same files, and a way to age a file.
type fixture struct {
	fs    fsys.FS
	root  string
	other func() fsys.FS
	// age makes p's mtime d older than now.
	age func(t *testing.T, p string, d time.Duration)
	now func() time.Time
	// special puts a FIFO, socket or device at p, skipping the test where
	// the system cannot make one.
	special func(t *testing.T, p string, s fsys.Special)
	// symlink makes p a link to target.
	symlink func(t *testing.T, target, p string)
}

type maker struct {
	name string
	make func(t *testing.T) fixture
}

func osFixture(t *testing.T) fixture {
	root := filepath.ToSlash(t.TempDir())
	return fixture{
		fs:    fsys.NewOS(),
		root:  root,
		other: func() fsys.FS { return fsys.NewOS() },
		age: func(t *testing.T, p string, d time.Duration) {
			old := time.Now().Add(-d)
			require.NoError(t, os.Chtimes(p, old, old))
		},
		now:     time.Now,
		special: makeSpecial,
		symlink: func(t *testing.T, target, p string) { require.NoError(t, os.Symlink(target, p)) },
	}
}

func memFixture(clock fsys.Clock) func(t *testing.T) fixture {
	return func(t *testing.T) fixture {
		m := fsys.NewMem(clock)
		require.NoError(t, m.Mkdir("/work"))
		return fixture{
			fs:    m,
			root:  "/work",
			other: func() fsys.FS { return m.Share() },
			age: func(t *testing.T, p string, d time.Duration) {
				require.NoError(t, m.SetMtime(p, clock.Now().Add(-d)))
			},
			now:     clock.Now,
			special: func(t *testing.T, p string, s fsys.Special) { require.NoError(t, m.MakeSpecial(p, s)) },
			symlink: func(t *testing.T, target, p string) { require.NoError(t, m.Symlink(target, p)) },
		}
	}
}

// both is every implementation; the suite below runs each behaviour on each.
func both() []maker {
	return []maker{
		{"OS", osFixture},
		{"Mem", memFixture(fsys.NewManual(time.UnixMilli(1_763_760_000_000)))},
	}
}

// realTime is both, with Mem on the real clock, for tests where goroutines
// wait for one another.
func realTime() []maker {
	return []maker{{"OS", osFixture}, {"Mem", memFixture(fsys.Real{})}}
}

func forEach(t *testing.T, makers []maker, test func(t *testing.T, f fixture)) {
	for _, m := range makers {
		t.Run(m.name, func(t *testing.T) { test(t, m.make(t)) })
	}
}

func read(t *testing.T, fs fsys.FS, p string) string {
	t.Helper()
	var out []byte
	buf := make([]byte, 7) // odd size: exercises reads that end mid-file
	for off := int64(0); ; {
		n, err := fs.ReadAt(p, off, buf)
		require.NoError(t, err)
		if n == 0 {
			return string(out)
		}
		out = append(out, buf[:n]...)
		off += int64(n)
	}
}

func TestReadAtReadsUpToBufferAndZeroAtEnd(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		p := f.root + "/f.txt"
		require.NoError(t, f.fs.WriteAtomic(p, []byte("hello world")))
		for _, c := range []struct {
			off  int64
			size int
			want string
		}{
			{0, 5, "hello"},
			{6, 100, "world"},
			{10, 1, "d"},
			{11, 4, ""},
			{1000, 4, ""},
			{3, 0, ""},
		} {
			buf := make([]byte, c.size)
			n, err := f.fs.ReadAt(p, c.off, buf)
			require.NoError(t, err, "off %d", c.off)
			require.Equal(t, c.want, string(buf[:n]), "off %d size %d", c.off, c.size)
		}
	})
}

func TestStatReportsSizeMtimeAndKind(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		before := f.now().Add(-2 * time.Second).UnixMilli()
		require.NoError(t, f.fs.WriteAtomic(f.root+"/f", []byte("12345")))
		require.NoError(t, f.fs.Mkdir(f.root+"/d"))
		after := f.now().Add(2 * time.Second).UnixMilli()

		fi, err := f.fs.Stat(f.root + "/f")
		require.NoError(t, err)
		require.Equal(t, int64(5), fi.Size)
		require.Equal(t, hostio.KindFile, fi.Kind)
		require.Equal(t, false, fi.Dir)
		require.True(t, fi.MtimeMs >= before && fi.MtimeMs <= after, "mtime %d outside [%d, %d]", fi.MtimeMs, before, after)

		di, err := f.fs.Stat(f.root + "/d")
		require.NoError(t, err)
		// A folder's size is the file system's, what its entries take (none in Mem).
		require.Equal(t, hostio.FileInfo{Size: di.Size, MtimeMs: di.MtimeMs, Kind: hostio.KindFolder, Dir: true}, di)
	})
}

// A file's identity stays while it is appended to and is another once a
// file is renamed over its path, in both trees: the core tells a rewritten
// decision log by it.
func TestStatIdentityFollowsTheFileNotItsPath(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		p := f.root + "/log"
		require.NoError(t, f.fs.Append(p, []byte("one\n")))
		first, err := f.fs.Stat(p)
		require.NoError(t, err)
		require.True(t, first.ID != 0, "a file has an identity")
		require.NoError(t, f.fs.Append(p, []byte("two\n")))
		grown, err := f.fs.Stat(p)
		require.NoError(t, err)
		require.Equal(t, first.ID, grown.ID, "an append keeps the file")
		require.NoError(t, f.fs.WriteAtomic(p, []byte("one\ntwo\n")))
		rewritten, err := f.fs.Stat(p)
		require.NoError(t, err)
		require.Equal(t, grown.Size, rewritten.Size)
		require.True(t, rewritten.ID != grown.ID, "a file renamed over the path is another")
		require.NoError(t, f.fs.Mkdir(f.root+"/d"))
		di, err := f.fs.Stat(f.root + "/d")
		require.NoError(t, err)
		require.Equal(t, uint32(0), di.ID, "only files carry one")
	})
}

func TestAppendCreatesFileButNeverFolder(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		p := f.root + "/log.jsonl"
		require.NoError(t, f.fs.Append(p, []byte("one\n")))
		require.NoError(t, f.fs.Append(p, []byte("two\n")))
		require.NoError(t, f.fs.Append(p, nil))
		require.Equal(t, "one\ntwo\n", read(t, f.fs, p))

		err := f.fs.Append(f.root+"/missing/log.jsonl", []byte("x"))
		require.ErrorIs(t, err, hostio.ErrNotFound)
		require.Contains(t, err.Error(), "never creates folders")
		_, err = f.fs.Stat(f.root + "/missing")
		require.ErrorIs(t, err, hostio.ErrNotFound)
	})
}

func TestWriteAtomicReplacesWholeFileAndLeavesNoTemp(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		p := f.root + "/page.md"
		require.NoError(t, f.fs.WriteAtomic(p, []byte("a long first version")))
		require.NoError(t, f.fs.WriteAtomic(p, []byte("short")))
		require.Equal(t, "short", read(t, f.fs, p))
		names, err := f.fs.List(f.root)
		require.NoError(t, err)
		require.Equal(t, []string{"page.md"}, names)

		require.ErrorIs(t, f.fs.WriteAtomic(f.root+"/no/page.md", []byte("x")), hostio.ErrNotFound)
	})
}

func TestListSortsBytewiseAndMarksFolders(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		for _, d := range []string{"a", "c", "a/inner"} {
			require.NoError(t, f.fs.Mkdir(f.root+"/"+d))
		}
		for _, name := range []string{"b", "a-b", "B", "é", "a/inner/deep"} {
			require.NoError(t, f.fs.WriteAtomic(f.root+"/"+name, nil))
		}
		names, err := f.fs.List(f.root)
		require.NoError(t, err)
		// "a-b" sorts before "a/" because '-' < '/'; "é" (UTF-8 0xC3…) last.
		require.Equal(t, []string{"B", "a-b", "a/", "b", "c/", "é"}, names)

		empty, err := f.fs.List(f.root + "/c")
		require.NoError(t, err)
		require.Equal(t, []string{}, empty)
	})
}

// A name that cannot travel as a line of the list (a newline in it) is
// listed quoted after a "/", which no name starts with, so the core can
// name it in an answer rather than lose it (or read "a" and "b.md").
func TestListQuotesANameThatHoldsANewline(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		require.NoError(t, f.fs.Mkdir(f.root+"/d\nir"))
		for _, name := range []string{"a\nb.md", "b.md", "tab\t\"q\".md"} {
			require.NoError(t, f.fs.WriteAtomic(f.root+"/"+name, nil))
		}
		names, err := f.fs.List(f.root)
		require.NoError(t, err)
		require.Equal(t, []string{`/"a\nb.md"`, `/"d\nir"/`, "b.md", "tab\t\"q\".md"}, names)
	})
}

func TestEntry(t *testing.T) {
	for _, tt := range []struct {
		name string
		dir  bool
		want string
	}{
		{"MEMORY.md", false, "MEMORY.md"},
		{"archive", true, "archive/"},
		{"a\nb.md", false, `/"a\nb.md"`},
		{"a\nb", true, `/"a\nb"/`},
		{"q\"\\\n\r\x1b\x7f\u202e.md", false, `/"q\"\\\n\r\u001b` + "\x7f\u202e" + `.md"`},
		{"bad\xff.md", false, `/"bad` + "\uFFFD" + `.md"`},
		// One U+FFFD for each maximal part of a sequence, as Node reads a
		// name: the TypeScript host lists the same.
		{"a\xe2\x82.md", false, `/"a` + "\uFFFD" + `.md"`},
		{"b\xff\xfe.md", false, `/"b` + "\uFFFD\uFFFD" + `.md"`},
		{"c\xf0\x9f\x98.md", false, `/"c` + "\uFFFD" + `.md"`},
		{"d\xed\xa0\x80.md", false, `/"d` + "\uFFFD\uFFFD\uFFFD" + `.md"`},
		{"e\xc0\xaf.md", false, `/"e` + "\uFFFD\uFFFD" + `.md"`},
		{"f\xe0\x80.md", false, `/"f` + "\uFFFD\uFFFD" + `.md"`},
		{"g\xf4\x90.md", false, `/"g` + "\uFFFD\uFFFD" + `.md"`},
		{"tab\t.md", false, "tab\t.md"},
	} {
		require.Equal(t, tt.want, fsys.Entry(tt.name, tt.dir), tt.name)
	}
}

func TestMkdirCreatesParentsAndAcceptsExisting(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		p := f.root + "/x/y/z"
		require.NoError(t, f.fs.Mkdir(p))
		require.NoError(t, f.fs.Mkdir(p))
		fi, err := f.fs.Stat(f.root + "/x/y")
		require.NoError(t, err)
		require.True(t, fi.Dir)
	})
}

func TestRemoveDeletesFileOrEmptyFolderOnly(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		require.NoError(t, f.fs.Mkdir(f.root+"/d"))
		require.NoError(t, f.fs.WriteAtomic(f.root+"/d/f", []byte("x")))

		err := f.fs.Remove(f.root + "/d")
		require.ErrorIs(t, err, hostio.ErrExists)
		require.Contains(t, err.Error(), "not empty")

		require.NoError(t, f.fs.Remove(f.root+"/d/f"))
		require.NoError(t, f.fs.Remove(f.root+"/d"))
		_, err = f.fs.Stat(f.root + "/d")
		require.ErrorIs(t, err, hostio.ErrNotFound)
	})
}

func TestRenameReplacesTheDestinationFile(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		a, b := f.root+"/a.tmp", f.root+"/b.snap"
		require.NoError(t, f.fs.WriteAtomic(b, []byte("old")))
		require.NoError(t, f.fs.Append(a, []byte("new ")))
		require.NoError(t, f.fs.Append(a, []byte("content")))
		require.NoError(t, f.fs.Rename(a, b))
		require.Equal(t, "new content", read(t, f.fs, b))
		_, err := f.fs.Stat(a)
		require.ErrorIs(t, err, hostio.ErrNotFound, "source gone")
		require.ErrorIs(t, f.fs.Rename(a, b), hostio.ErrNotFound, "missing source")
		require.ErrorIs(t, f.fs.Rename(b, f.root+"/no/such/folder/x"), hostio.ErrNotFound, "missing folder")
		require.NoError(t, f.fs.Mkdir(f.root+"/dir"))
		require.ErrorIs(t, f.fs.Rename(f.root+"/dir", f.root+"/dir2"), hostio.ErrKind, "folders are not renamed")
	})
}

func TestErrorsWrapTheContractSentinels(t *testing.T) {
	type op func(fs fsys.FS, root string) error
	buf := make([]byte, 8)
	cases := []struct {
		name string
		op   op
		want error
	}{
		{"read missing file", func(fs fsys.FS, r string) error { _, err := fs.ReadAt(r+"/none", 0, buf); return err }, hostio.ErrNotFound},
		{"read a folder", func(fs fsys.FS, r string) error { _, err := fs.ReadAt(r+"/dir", 0, buf); return err }, hostio.ErrKind},
		{"read a folder into nothing", func(fs fsys.FS, r string) error { _, err := fs.ReadAt(r+"/dir", 0, nil); return err }, hostio.ErrKind},
		{"read at negative offset", func(fs fsys.FS, r string) error { _, err := fs.ReadAt(r+"/file", -1, buf); return err }, hostio.ErrInvalid},
		{"stat missing", func(fs fsys.FS, r string) error { _, err := fs.Stat(r + "/none"); return err }, hostio.ErrNotFound},
		{"stat under missing folder", func(fs fsys.FS, r string) error { _, err := fs.Stat(r + "/none/x"); return err }, hostio.ErrNotFound},
		{"stat through a file", func(fs fsys.FS, r string) error { _, err := fs.Stat(r + "/file/x"); return err }, hostio.ErrKind},
		{"append to a folder", func(fs fsys.FS, r string) error { return fs.Append(r+"/dir", []byte("x")) }, hostio.ErrKind},
		{"append through a file", func(fs fsys.FS, r string) error { return fs.Append(r+"/file/x", []byte("x")) }, hostio.ErrKind},
		{"write over a folder", func(fs fsys.FS, r string) error { return fs.WriteAtomic(r+"/dir", []byte("x")) }, hostio.ErrKind},
		{"list missing", func(fs fsys.FS, r string) error { _, err := fs.List(r + "/none"); return err }, hostio.ErrNotFound},
		{"list a file", func(fs fsys.FS, r string) error { _, err := fs.List(r + "/file"); return err }, hostio.ErrKind},
		{"mkdir over a file", func(fs fsys.FS, r string) error { return fs.Mkdir(r + "/file") }, hostio.ErrKind},
		{"mkdir under a file", func(fs fsys.FS, r string) error { return fs.Mkdir(r + "/file/sub") }, hostio.ErrKind},
		{"remove missing", func(fs fsys.FS, r string) error { return fs.Remove(r + "/none") }, hostio.ErrNotFound},
		{"lock in missing folder", func(fs fsys.FS, r string) error { return fs.Lock(r+"/none/x.lock", 0, 0) }, hostio.ErrNotFound},
		{"lock a folder", func(fs fsys.FS, r string) error { return fs.Lock(r+"/dir", 0, 0) }, hostio.ErrKind},
		{"lock with negative wait", func(fs fsys.FS, r string) error { return fs.Lock(r+"/x.lock", -1, 0) }, hostio.ErrInvalid},
		{"unlock what is not held", func(fs fsys.FS, r string) error { return fs.Unlock(r + "/x.lock") }, hostio.ErrInvalid},
		{"relative path", func(fs fsys.FS, r string) error { _, err := fs.Stat("work/file"); return err }, hostio.ErrInvalid},
		{"empty path", func(fs fsys.FS, r string) error { return fs.Append("", []byte("x")) }, hostio.ErrInvalid},
		{"path with NUL", func(fs fsys.FS, r string) error { return fs.Mkdir(r + "/a\x00b") }, hostio.ErrInvalid},
		{"path not UTF-8", func(fs fsys.FS, r string) error { return fs.WriteAtomic(r+"/\xff", nil) }, hostio.ErrInvalid},
	}
	forEach(t, both(), func(t *testing.T, f fixture) {
		require.NoError(t, f.fs.Mkdir(f.root+"/dir"))
		require.NoError(t, f.fs.WriteAtomic(f.root+"/file", []byte("content")))
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				err := c.op(f.fs, f.root)
				require.ErrorIs(t, err, c.want)
				var pe *hostio.PathError
				require.True(t, errors.As(err, &pe), "error %v is not a *hostio.PathError", err)
				require.True(t, pe.Msg != "", "error %v carries no detail for a person", err)
			})
		}
	})
}

func TestLockIsExclusiveBetweenHolders(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		p := f.root + "/store.lock"
		b := f.other()
		require.NoError(t, f.fs.Lock(p, 0, 60_000))

		err := b.Lock(p, 30, 60_000)
		require.ErrorIs(t, err, hostio.ErrBusy)
		require.Contains(t, err.Error(), "pid="+strconv.Itoa(os.Getpid()))

		require.NoError(t, f.fs.Unlock(p))
		require.NoError(t, b.Lock(p, 0, 60_000))
		require.NoError(t, b.Unlock(p))
		_, err = f.fs.Stat(p)
		require.ErrorIs(t, err, hostio.ErrNotFound, "unlock must remove the lock file")
	})
}

func TestLockFileSaysWhoHoldsItAndSince(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		p := f.root + "/store.lock"
		before := f.now().Add(-time.Second)
		require.NoError(t, f.fs.Lock(p, 0, 0))
		after := f.now().Add(time.Second)
		content := read(t, f.fs, p)
		require.Contains(t, content, "pid="+strconv.Itoa(os.Getpid())+" ")
		_, stamp, _ := strings.Cut(content, " time=")
		stamp, _, _ = strings.Cut(stamp, " ")
		when, err := time.Parse(time.RFC3339Nano, stamp)
		require.NoError(t, err, "lock file %q", content)
		require.True(t, !when.Before(before) && !when.After(after), "lock time %s outside [%s, %s]", when, before, after)
		require.NoError(t, f.fs.Unlock(p))
	})
}

func TestLockBreaksOnlyStaleLocks(t *testing.T) {
	cases := []struct {
		name    string
		age     time.Duration
		staleMs int
		broken  bool
	}{
		{"older than stale is broken", 10 * time.Second, 5_000, true},
		{"younger than stale is kept", 1 * time.Second, 60_000, false},
		{"stale 0 never breaks", time.Hour, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEach(t, both(), func(t *testing.T, f fixture) {
				p := f.root + "/store.lock"
				crashed, b := f.fs, f.other()
				require.NoError(t, crashed.Lock(p, 0, 0))
				f.age(t, p, c.age)

				err := b.Lock(p, 0, c.staleMs)
				if !c.broken {
					require.ErrorIs(t, err, hostio.ErrBusy)
					return
				}
				require.NoError(t, err)
				// The crashed holder's late unlock must not remove b's lock.
				require.ErrorIs(t, crashed.Unlock(p), hostio.ErrBusy)
				_, err = f.fs.Stat(p)
				require.NoError(t, err, "b's lock must survive the old holder's unlock")
				require.NoError(t, b.Unlock(p))
			})
		})
	}
}

func TestLockTakenTwiceByOneHolderIsExists(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		p := f.root + "/store.lock"
		require.NoError(t, f.fs.Lock(p, 0, 0))
		require.ErrorIs(t, f.fs.Lock(p, 1000, 0), hostio.ErrExists)
		require.NoError(t, f.fs.Unlock(p))
	})
}

func TestUnlockAfterLockFileVanishedIsNotFound(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		p := f.root + "/store.lock"
		require.NoError(t, f.fs.Lock(p, 0, 0))
		require.NoError(t, f.fs.Remove(p))
		require.ErrorIs(t, f.fs.Unlock(p), hostio.ErrNotFound)
		require.ErrorIs(t, f.fs.Unlock(p), hostio.ErrInvalid, "a failed unlock still forgets the lock")
	})
}

func TestLockWaiterGetsLockWhenHolderReleases(t *testing.T) {
	forEach(t, realTime(), func(t *testing.T, f fixture) {
		p := f.root + "/store.lock"
		b := f.other()
		require.NoError(t, f.fs.Lock(p, 0, 0))
		got := make(chan error)
		go func() { got <- b.Lock(p, 60_000, 0) }()
		time.Sleep(20 * time.Millisecond) // let b start waiting; correctness does not depend on it
		require.NoError(t, f.fs.Unlock(p))
		require.NoError(t, <-got)
		require.NoError(t, b.Unlock(p))
	})
}

func TestLockUnderContentionNeverAdmitsTwoHolders(t *testing.T) {
	forEach(t, realTime(), func(t *testing.T, f fixture) {
		p := f.root + "/store.lock"
		counter := f.root + "/counter"
		require.NoError(t, f.fs.WriteAtomic(counter, []byte("0")))
		const holders, rounds = 4, 25
		var inside, maxInside atomic.Int32
		var wg sync.WaitGroup
		errs := make(chan error, holders)
		for h := 0; h < holders; h++ {
			fs := f.other()
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := 0; r < rounds; r++ {
					if err := fs.Lock(p, 60_000, 0); err != nil {
						errs <- err
						return
					}
					n := inside.Add(1)
					if n > maxInside.Load() {
						maxInside.Store(n)
					}
					// Read-modify-write: lost updates show a double acquisition.
					buf := make([]byte, 16)
					k, _ := fs.ReadAt(counter, 0, buf)
					v, _ := strconv.Atoi(string(buf[:k]))
					fs.WriteAtomic(counter, []byte(strconv.Itoa(v+1)))
					inside.Add(-1)
					if err := fs.Unlock(p); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
		require.Equal(t, int32(1), maxInside.Load())
		require.Equal(t, strconv.Itoa(holders*rounds), read(t, f.fs, counter))
	})
}

func TestConcurrentAppendsKeepEveryLineWhole(t *testing.T) {
	forEach(t, realTime(), func(t *testing.T, f fixture) {
		p := f.root + "/log.jsonl"
		const writers, lines = 8, 50
		var wg sync.WaitGroup
		for w := 0; w < writers; w++ {
			fs := f.other()
			wg.Add(1)
			// Off the test's goroutine: t.Error and return, not require.
			go func() {
				defer wg.Done()
				for i := 0; i < lines; i++ {
					line := fmt.Sprintf("{\"w\":%d,\"i\":%d,\"pad\":%q}\n", w, i, strings.Repeat("x", 200))
					if err := fs.Append(p, []byte(line)); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		got := strings.Split(strings.TrimSuffix(read(t, f.fs, p), "\n"), "\n")
		require.Equal(t, writers*lines, len(got))
		seen := map[string]bool{}
		for _, l := range got {
			require.True(t, strings.HasPrefix(l, "{") && strings.HasSuffix(l, "\"}"), "torn line %q", l)
			seen[l] = true
		}
		require.Equal(t, writers*lines, len(seen))
	})
}

func TestMemMtimeFollowsItsClock(t *testing.T) {
	clock := fsys.NewManual(time.UnixMilli(1_000_000))
	m := fsys.NewMem(clock)
	require.NoError(t, m.WriteAtomic("/a", []byte("x")))
	clock.Advance(time.Minute)
	require.NoError(t, m.Append("/b", []byte("y")))
	a, _ := m.Stat("/a")
	b, _ := m.Stat("/b")
	require.Equal(t, int64(1_000_000), a.MtimeMs)
	require.Equal(t, int64(1_060_000), b.MtimeMs)
	require.NoError(t, m.SetMtime("/a", time.UnixMilli(5)))
	a, _ = m.Stat("/a")
	require.Equal(t, int64(5), a.MtimeMs)
}

func TestMemLockWaitRunsOnItsClock(t *testing.T) {
	clock := fsys.NewManual(time.UnixMilli(0))
	m := fsys.NewMem(clock)
	require.NoError(t, m.Lock("/x.lock", 0, 0))
	err := m.Share().Lock("/x.lock", 10_000, 0)
	require.ErrorIs(t, err, hostio.ErrBusy)
	require.True(t, clock.Now().UnixMilli() >= 10_000, "the wait must have advanced the manual clock by 10 s, got %d ms", clock.Now().UnixMilli())
}

func TestMemReadsAreCopies(t *testing.T) {
	m := fsys.NewMem(nil)
	data := []byte("abc")
	require.NoError(t, m.WriteAtomic("/f", data))
	data[0] = 'X'
	buf := make([]byte, 3)
	n, _ := m.ReadAt("/f", 0, buf)
	require.Equal(t, "abc", string(buf[:n]))
	buf[0] = 'Y'
	n, _ = m.ReadAt("/f", 0, buf)
	require.True(t, bytes.Equal([]byte("abc"), buf[:n]))
}

func TestPathsAreCleanedBeforeUse(t *testing.T) {
	forEach(t, both(), func(t *testing.T, f fixture) {
		require.NoError(t, f.fs.Mkdir(f.root+"/d"))
		require.NoError(t, f.fs.WriteAtomic(f.root+"/d/../f", []byte("x")))
		_, err := f.fs.Stat(path.Join(f.root, "f"))
		require.NoError(t, err)
	})
}
