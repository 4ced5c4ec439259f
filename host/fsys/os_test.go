package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hostio"
)

func TestClassifyMapsSystemErrorsToSentinels(t *testing.T) {
	wrap := func(e error) error { return &fs.PathError{Op: "open", Path: "/x", Err: e} }
	cases := []struct {
		err  error
		want error
	}{
		{wrap(syscall.ENOENT), hostio.ErrNotFound},
		{wrap(syscall.EEXIST), hostio.ErrExists},
		{wrap(syscall.ENOTEMPTY), hostio.ErrExists},
		{wrap(syscall.EACCES), hostio.ErrPermission},
		{wrap(syscall.EPERM), hostio.ErrPermission},
		{wrap(syscall.EROFS), hostio.ErrPermission},
		{wrap(syscall.ENOTDIR), hostio.ErrKind},
		{wrap(syscall.EISDIR), hostio.ErrKind},
		{wrap(syscall.EINVAL), hostio.ErrInvalid},
		{wrap(syscall.ENAMETOOLONG), hostio.ErrInvalid},
		{wrap(syscall.ENOSPC), hostio.ErrIO},
		{&os.LinkError{Op: "rename", Old: "a", New: "b", Err: syscall.EXDEV}, hostio.ErrIO},
		{fs.ErrNotExist, hostio.ErrNotFound},
		{errors.New("something else"), hostio.ErrIO},
	}
	for _, c := range cases {
		t.Run(c.err.Error(), func(t *testing.T) {
			require.Equal(t, c.want, classify(c.err))
			err := osFail("open", "/x", c.err)
			require.ErrorIs(t, err, c.want)
		})
	}
}

func TestOSPermissionDeniedIsErrPermission(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permissions are not enforced, so there is nothing to deny")
	}
	root := filepath.ToSlash(t.TempDir())
	o := NewOS()
	require.NoError(t, o.Mkdir(root+"/ro"))
	require.NoError(t, os.Chmod(root+"/ro", 0o500))
	t.Cleanup(func() { os.Chmod(root+"/ro", 0o700) })
	require.ErrorIs(t, o.Append(root+"/ro/f", []byte("x")), hostio.ErrPermission)
	require.ErrorIs(t, o.WriteAtomic(root+"/ro/f", []byte("x")), hostio.ErrPermission)
}

func TestOSWriteAtomicKeepsTheModeOfTheFileItReplaces(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	o := NewOS()
	p := root + "/f"
	require.NoError(t, o.WriteAtomic(p, []byte("one")))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o644), fi.Mode().Perm(), "a new file is readable like any other")
	require.NoError(t, os.Chmod(p, 0o600))
	require.NoError(t, o.WriteAtomic(p, []byte("two")))
	fi, err = os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o600), fi.Mode().Perm())
	// So does a file staged beside it and renamed in (a write under a lock).
	require.NoError(t, o.WriteAtomic(root+"/.f.tmp-1", []byte("three")))
	require.NoError(t, o.Rename(root+"/.f.tmp-1", p))
	fi, err = os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o600), fi.Mode().Perm(), "renamed in")
}

func TestOSListFollowsSymlinksToFolders(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	require.NoError(t, os.Mkdir(root+"/real", 0o755))
	require.NoError(t, os.Symlink(root+"/real", root+"/link"))
	require.NoError(t, os.Symlink(root+"/nowhere", root+"/dangling"))
	names, err := NewOS().List(root)
	require.NoError(t, err)
	require.Equal(t, []string{"dangling", "link/", "real/"}, names)
}

func TestOSManyWaitersBreakOneStaleLockOnce(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	p := root + "/store.lock"
	require.NoError(t, os.WriteFile(p, []byte("pid=1 host=gone time=2020-01-01T00:00:00.000Z holder=dead\n"), 0o644))
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(p, old, old))

	const waiters = 8
	var inside, maxInside atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, waiters)
	for w := 0; w < waiters; w++ {
		o := NewOS()
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := o.Lock(p, 60_000, 30_000); err != nil {
				errs <- err
				return
			}
			n := inside.Add(1)
			if n > maxInside.Load() {
				maxInside.Store(n)
			}
			time.Sleep(2 * time.Millisecond) // hold it long enough for others to try
			inside.Add(-1)
			errs <- o.Unlock(p)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, int32(1), maxInside.Load())
	left, err := os.ReadDir(root)
	require.NoError(t, err)
	require.Equal(t, 0, len(left), fmt.Sprint("files left behind: ", left))
}

func TestIsTempOfNamesEitherHostsTempFiles(t *testing.T) {
	for name, want := range map[string]bool{
		".MEMORY.md.tmp-123456":              true,
		".MEMORY.md.4242.9f86d081884c.tmp":   true,
		".MEMORY.md.tmp-":                    false,
		".MEMORY.md.tmp-12a":                 false,
		".MEMORY.md.4242.9f86d081884.tmp":    false,
		".MEMORY.md.x.9f86d081884c.tmp":      false,
		".MEMORY.md.backup.tmp":              false,
		".notes.md.tmp-1":                    false,
		"MEMORY.md.tmp-1":                    false,
		".MEMORY.md.4242.9f86d081884c.tmp.x": false,
		// A host's temp file of a staged write (".MEMORY.md.tmp-<digits>").
		"..MEMORY.md.tmp-77.tmp-123":               true,
		"..MEMORY.md.tmp-77.4242.9f86d081884c.tmp": true,
		"..MEMORY.md.tmp-.tmp-123":                 false,
		"..MEMORY.md.tmp-7x.tmp-123":               false,
		"..MEMORY.md.tmp-77.tmp-":                  false,
		"..MEMORY.md.tmp-77.backup.tmp":            false,
		"..notes.md.tmp-77.tmp-1":                  false,
	} {
		require.Equal(t, want, isTempOf(name, "MEMORY.md"), name)
	}
}

// A write killed mid-way leaves its temp file; the next write of the file
// removes it once it is older than any write takes, and nothing else.
func TestWriteAtomicSweepsTheTempFilesOfKilledWrites(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	old := time.Now().Add(-time.Hour)
	for _, n := range []string{".MEMORY.md.tmp-123", ".MEMORY.md.4242.9f86d081884c.tmp", ".MEMORY.md.tmp-456", ".MEMORY.md.backup.tmp", ".other.md.tmp-1", "..MEMORY.md.tmp-9.tmp-12"} {
		require.NoError(t, os.WriteFile(root+"/"+n, []byte("half"), 0o644))
		if n != ".MEMORY.md.tmp-456" {
			require.NoError(t, os.Chtimes(root+"/"+n, old, old))
		}
	}
	require.NoError(t, NewOS().WriteAtomic(root+"/MEMORY.md", []byte("# Memory\n")))
	left, err := os.ReadDir(root)
	require.NoError(t, err)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{".MEMORY.md.backup.tmp", ".MEMORY.md.tmp-456", ".other.md.tmp-1", "MEMORY.md"}, names)
}

// A name that is not UTF-8 (written by another program) is listed quoted,
// its bad bytes as U+FFFD, as one holding a newline is: named, not lost.
func TestOSListQuotesANameThatIsNotUTF8(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "bad\xff.md"), nil, 0o644))
	names, err := NewOS().List(root)
	require.NoError(t, err)
	require.Equal(t, []string{`/"bad` + "\uFFFD" + `.md"`}, names)
}

// A write under a lock is staged beside its file (".f.tmp-<digits>") and
// renamed in: the staged file is never readable by more people than the file
// it will replace, even for the moment before the rename (or for good, when
// the write is killed there).
func TestOSAStagedWriteIsNoMoreReadableThanTheFileItWillReplace(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	o := NewOS()
	p := root + "/MEMORY.md"
	require.NoError(t, os.WriteFile(p, []byte("private"), 0o600))
	require.NoError(t, os.Chmod(p, 0o600))
	require.NoError(t, o.WriteAtomic(root+"/.MEMORY.md.tmp-77", []byte("still private")))
	fi, err := os.Stat(root + "/.MEMORY.md.tmp-77")
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o600), fi.Mode().Perm(), "staged")
	// A staged name whose file does not exist is a new file's: readable.
	require.NoError(t, o.WriteAtomic(root+"/.new.md.tmp-1", []byte("x")))
	fi, err = os.Stat(root + "/.new.md.tmp-1")
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o644), fi.Mode().Perm(), "staged for a new file")
}

// A write killed between staging and its rename leaves the staged file; the
// next staged write renamed in removes it once it is older than any write
// takes (as a direct write does).
func TestOSRenameSweepsWhatKilledStagedWritesLeft(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.WriteFile(root+"/.MEMORY.md.tmp-123", []byte("killed"), 0o644))
	require.NoError(t, os.Chtimes(root+"/.MEMORY.md.tmp-123", old, old))
	o := NewOS()
	require.NoError(t, o.WriteAtomic(root+"/.MEMORY.md.tmp-456", []byte("# Memory\n")))
	require.NoError(t, o.Rename(root+"/.MEMORY.md.tmp-456", root+"/MEMORY.md"))
	left, err := os.ReadDir(root)
	require.NoError(t, err)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{"MEMORY.md"}, names)
}

// A regular file no one may write (chmod a-w) is replaced neither by a
// write nor by a rename, root or not: a rename replaced it all the same.
func TestOSReadOnlyFileIsNotReplaced(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	file := root + "/MEMORY.md"
	require.NoError(t, os.WriteFile(file, []byte("locked by its owner"), 0o444))
	require.NoError(t, os.Chmod(file, 0o444))
	o := NewOS()
	err := o.WriteAtomic(file, []byte("new content"))
	require.True(t, errors.Is(err, hostio.ErrPermission), "%v", err)
	require.Contains(t, err.Error(), readOnly)
	staged := root + "/.MEMORY.md.tmp-7"
	require.NoError(t, o.WriteAtomic(staged, []byte("new content")))
	err = o.Rename(staged, file)
	require.True(t, errors.Is(err, hostio.ErrPermission), "%v", err)
	got, _ := os.ReadFile(file)
	require.Equal(t, "locked by its owner", string(got))
	require.NoError(t, os.Chmod(file, 0o644))
	require.NoError(t, o.Rename(staged, file))
	got, _ = os.ReadFile(file)
	require.Equal(t, "new content", string(got))
}

// Nor is anything added to it: root's open for appending succeeds, and
// appended all the same (a decision log its owner made read-only took a
// new decision); anyone else's open is refused, in the same words.
func TestOSReadOnlyFileIsNotAppendedTo(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	file := root + "/decisions.jsonl"
	require.NoError(t, os.WriteFile(file, []byte("{}\n"), 0o444))
	require.NoError(t, os.Chmod(file, 0o444))
	o := NewOS()
	err := o.Append(file, []byte("{\"added\":1}\n"))
	require.True(t, errors.Is(err, hostio.ErrPermission), "%v", err)
	require.Contains(t, err.Error(), readOnlyAppend)
	got, _ := os.ReadFile(file)
	require.Equal(t, "{}\n", string(got))
	require.NoError(t, os.Chmod(file, 0o644))
	require.NoError(t, o.Append(file, []byte("{\"added\":1}\n")))
	got, _ = os.ReadFile(file)
	require.Equal(t, "{}\n{\"added\":1}\n", string(got))
}

// A link renamed over a regular file is not chmodded to the file's mode:
// chmod would follow it and change a file elsewhere, which the rename
// leaves where it is.
func TestOSRenameOfALinkChangesNoModeThroughIt(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	require.NoError(t, os.WriteFile(root+"/elsewhere", []byte("x"), 0o644))
	require.NoError(t, os.Chmod(root+"/elsewhere", 0o644))
	require.NoError(t, os.WriteFile(root+"/MEMORY.md", []byte("private"), 0o600))
	require.NoError(t, os.Chmod(root+"/MEMORY.md", 0o600))
	require.NoError(t, os.Symlink(root+"/elsewhere", root+"/link"))
	require.NoError(t, NewOS().Rename(root+"/link", root+"/MEMORY.md"))
	fi, err := os.Stat(root + "/elsewhere")
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o644), fi.Mode().Perm())
}

// A folder's size is what the file system says its entries take: the core
// tells a folder of thousands of entries (20,000 other projects' session
// folders) without listing them.
func TestStatGivesAFolderItsSizeInTheFileSystem(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 2000; i++ {
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("2026-06-01T00-00-00-000Z_session-%05d.jsonl", i)), nil, 0o644))
	}
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	info, err := NewOS().Stat(filepath.ToSlash(dir))
	require.NoError(t, err)
	require.True(t, info.Dir)
	require.Equal(t, fi.Size(), info.Size)
}

// The identity is the device and inode folded as hostio.FileID says, the
// value the TypeScript host computes from the same numbers.
func TestOSStatIdentityIsDeviceAndInode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(p, []byte("x"), 0o644))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	st := fi.Sys().(*syscall.Stat_t)
	info, err := NewOS().Stat(filepath.ToSlash(p))
	require.NoError(t, err)
	require.Equal(t, hostio.FileID(uint64(st.Dev), uint64(st.Ino)), info.ID)
}

// A folder no one may write (chmod a-w on it) gets nothing created,
// replaced, renamed or removed in it, root or not: root's create, rename
// and unlink there succeed where anyone else's are refused.
func TestOSReadOnlyFolderIsNotWrittenIn(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	dir := root + "/memory"
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.WriteFile(dir+"/MEMORY.md", []byte("kept"), 0o644))
	require.NoError(t, os.WriteFile(dir+"/decisions.jsonl", []byte("{}\n"), 0o644))
	require.NoError(t, os.WriteFile(root+"/outside", []byte("x"), 0o644))
	require.NoError(t, os.Chmod(dir, 0o555))
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	o := NewOS()
	for name, err := range map[string]error{
		"write":            o.WriteAtomic(dir+"/MEMORY.md", []byte("new")),
		"write a new file": o.WriteAtomic(dir+"/new.md", []byte("new")),
		"append creating":  o.Append(dir+"/new.jsonl", []byte("{}\n")),
		"remove":           o.Remove(dir + "/MEMORY.md"),
		"rename in":        o.Rename(root+"/outside", dir+"/MEMORY.md"),
		"rename out":       o.Rename(dir+"/MEMORY.md", root+"/moved"),
		"lock":             o.Lock(dir+"/MEMORY.md.lock", 0, 0),
		"mkdir":            o.Mkdir(dir + "/sub/deeper"),
	} {
		require.True(t, errors.Is(err, hostio.ErrPermission), "%s: %v", name, err)
		require.Contains(t, err.Error(), readOnlyFolder, name)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Equal(t, 2, len(entries))
	got, _ := os.ReadFile(dir + "/MEMORY.md")
	require.Equal(t, "kept", string(got))
	// Appending to a file that is there writes no entry of the folder.
	require.NoError(t, o.Append(dir+"/decisions.jsonl", []byte("{\"added\":1}\n")))
	// A folder that is there is made again without a write.
	require.NoError(t, o.Mkdir(dir))
	require.NoError(t, os.Chmod(dir, 0o755))
	require.NoError(t, o.WriteAtomic(dir+"/MEMORY.md", []byte("new")))
	require.NoError(t, o.Mkdir(dir+"/sub/deeper"))
}
