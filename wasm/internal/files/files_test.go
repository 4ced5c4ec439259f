package files

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/errs"
)

// rig is a real folder with a project and an agent folder, and the host a
// session has there, guarded.
type rig struct {
	root, project, agent string
	fs                   *FS
}

func newRig(t *testing.T) *rig {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	r := &rig{root: root, project: filepath.Join(root, "project"), agent: filepath.Join(root, "agent")}
	require.NoError(t, os.MkdirAll(r.project, 0o755))
	require.NoError(t, os.MkdirAll(r.agent, 0o755))
	h := fsys.NewHost(fsys.NewOS(), fsys.NewManual(time.Unix(1772172000, 0)), bytes.NewReader(make([]byte, 64)), nil)
	r.fs = Guard(h, r.project, r.agent)
	return r
}

func (r *rig) write(t *testing.T, rel, text string) string {
	t.Helper()
	p := filepath.Join(r.root, rel)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

// The guard refuses a link or a special file anywhere under a memory
// folder, names it, and never touches what it points at; paths outside the
// memory folders pass.
func TestTheGuardRefusesLinksAndSpecialFilesUnderMemoryFolders(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, r *rig) string // returns the path operated on
		want  string                            // "" = allowed
	}{
		{"a plain file under .pi", func(t *testing.T, r *rig) string {
			return r.write(t, "project/.pi/memory/MEMORY.md", "x\n")
		}, ""},
		{"a file not yet there", func(t *testing.T, r *rig) string { return filepath.Join(r.project, ".pi/new/file.jsonl") }, ""},
		{"a link as the file", func(t *testing.T, r *rig) string {
			out := r.write(t, "outside.txt", "secret\n")
			p := filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl")
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.Symlink(out, p))
			return p
		}, "decisions.jsonl is a symbolic link"},
		{"a link as a folder on the way", func(t *testing.T, r *rig) string {
			require.NoError(t, os.MkdirAll(filepath.Join(r.root, "elsewhere"), 0o755))
			require.NoError(t, os.Symlink(filepath.Join(r.root, "elsewhere"), filepath.Join(r.agent, "pi-memory")))
			return filepath.Join(r.agent, "pi-memory/hindsight/outbox.jsonl")
		}, "pi-memory is a symbolic link"},
		{"a FIFO", func(t *testing.T, r *rig) string {
			p := filepath.Join(r.agent, "memory/MEMORY.md")
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, syscall.Mkfifo(p, 0o644))
			return p
		}, "not a regular file"},
		{"a file where a folder should be", func(t *testing.T, r *rig) string {
			r.write(t, "project/.pi/memory", "not a folder\n")
			return filepath.Join(r.project, ".pi/memory/MEMORY.md")
		}, "memory is not a folder"},
		{"outside the memory folders: unchecked", func(t *testing.T, r *rig) string {
			out := r.write(t, "outside.txt", "x\n")
			p := filepath.Join(r.agent, "decision-memory.config.json")
			require.NoError(t, os.Symlink(out, p))
			return p
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t)
			p := tt.setup(t, r)
			err := r.fs.Check(p)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Contains(t, err.Error(), tt.want)
			_, ok := errs.As[*NotPlain](err)
			require.True(t, ok, "a NotPlain")
			require.True(t, errs.Is(err, hostio.ErrKind), "of kind ErrKind")
			for _, op := range []func() error{
				func() error { _, err := r.fs.ReadAt(p, 0, make([]byte, 8)); return err },
				func() error { return r.fs.Append(p, []byte("x\n")) },
				func() error { return r.fs.WriteAtomic(p, []byte("x\n")) },
				func() error { _, err := r.fs.Stat(p); return err },
				func() error { return r.fs.Remove(p) },
			} {
				r.fs.Fresh()
				require.Error(t, op(), "every operation is refused")
			}
			if data, err := os.ReadFile(filepath.Join(r.root, "outside.txt")); err == nil {
				require.Equal(t, "secret\n", string(data), "the target is untouched")
			}
		})
	}
}

// A folder swapped for a link between two calls is caught by the next one:
// what a call found real is forgotten when the next starts.
func TestAFolderSwappedForALinkIsCaughtByTheNextCall(t *testing.T) {
	r := newRig(t)
	p := r.write(t, "agent/pi-memory/hindsight/outbox.jsonl", "")
	require.NoError(t, r.fs.Append(p, []byte("a\n")))
	require.NoError(t, os.RemoveAll(filepath.Join(r.agent, "pi-memory")))
	require.NoError(t, os.MkdirAll(filepath.Join(r.root, "elsewhere/hindsight"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(r.root, "elsewhere"), filepath.Join(r.agent, "pi-memory")))
	r.fs.Fresh()
	require.Error(t, r.fs.Append(p, []byte("b\n")))
	_, err := os.Stat(filepath.Join(r.root, "elsewhere/hindsight/outbox.jsonl"))
	require.True(t, os.IsNotExist(err), "nothing was written through the link")
}

func TestWatchReportsAChangeOnlyWhenAFileChanged(t *testing.T) {
	r := newRig(t)
	a := filepath.Join(r.project, ".pi/a.json")
	var w Watch
	require.True(t, w.Changed(r.fs, a), "the first look is a change")
	require.False(t, w.Changed(r.fs, a), "absent, still absent")
	r.write(t, "project/.pi/a.json", "{}\n")
	require.True(t, w.Changed(r.fs, a), "it appeared")
	require.False(t, w.Changed(r.fs, a))
	r.write(t, "project/.pi/a.json", "{\"enabled\":false}\n")
	require.True(t, w.Changed(r.fs, a), "its size changed")
	w.Forget()
	require.True(t, w.Changed(r.fs, a), "forgotten: read again")
	require.NoError(t, os.Remove(a))
	require.True(t, w.Changed(r.fs, a), "it went away")

	var none Watch
	require.True(t, none.Changed(r.fs), "no file at all: the first look still counts")
	require.False(t, none.Changed(r.fs))
}

func TestSealedStartsALineOfItsOwnAfterATornOne(t *testing.T) {
	r := newRig(t)
	for _, tt := range []struct{ file, want string }{
		{"", "x\n"},
		{"a\n", "x\n"},
		{"a", "\nx\n"},
	} {
		p := filepath.Join(r.project, ".pi/log.jsonl")
		os.Remove(p)
		if tt.file != "" {
			r.write(t, "project/.pi/log.jsonl", tt.file)
		}
		require.Equal(t, tt.want, string(Sealed(r.fs, p, []byte("x\n"))), "after %q", tt.file)
	}
}

func TestReadRefusesAFolderAndAFileOverItsBound(t *testing.T) {
	r := newRig(t)
	p := r.write(t, "project/.pi/big.json", strings.Repeat("x", 100))
	_, err := Read(r.fs, p, 99)
	require.Error(t, err)
	require.Contains(t, err.Error(), "larger than 99 bytes")
	data, err := Read(r.fs, p, 100)
	require.NoError(t, err)
	require.Equal(t, 100, len(data))
	_, err = Read(r.fs, filepath.Join(r.project, ".pi"), MaxConfig)
	require.True(t, errs.Is(err, hostio.ErrKind), "a folder: %v", err)
	buf := make([]byte, 0, 256)
	again, err := ReadInto(r.fs, p, 100, buf)
	require.NoError(t, err)
	require.True(t, &again[0] == &buf[:1][0], "read into the array it was given")
}

func TestConfigOfAFileThatCannotBeReadTurnsItsStoreOff(t *testing.T) {
	r := newRig(t)
	require.False(t, Config(r.fs, "").Present, "no path: no file")
	require.False(t, Config(r.fs, filepath.Join(r.agent, "absent.json")).Present)
	p := r.write(t, "project/.pi/x.json", "{\"enabled\": true}\n")
	f, data := ConfigData(r.fs, p)
	require.True(t, f.Present)
	require.Equal(t, "{\"enabled\": true}\n", string(data))
	empty := r.write(t, "project/.pi/empty.json", "")
	f = Config(r.fs, empty)
	require.True(t, f.Present, "an empty file is there, not absent")
	_, _, why := f.Switch("enabled")
	require.Contains(t, why, "is empty; write {} in it", "an empty config turns its store off, as a byte-order mark alone does")
	out := r.write(t, "outside.json", "{}\n")
	link := filepath.Join(r.project, ".pi/linked.json")
	require.NoError(t, os.Symlink(out, link))
	_, _, why = Config(r.fs, link).Switch("enabled")
	require.Contains(t, why, "symbolic link", "a linked config turns its store off, naming the link")
}

func TestLockSaysWhoToAskWhenItIsHeldTooLong(t *testing.T) {
	r := newRig(t)
	lock := filepath.Join(r.agent, "pi-memory/x.lock")
	require.NoError(t, os.MkdirAll(filepath.Dir(lock), 0o755))
	require.NoError(t, Lock(r.fs, lock))
	defer r.fs.Unlock(lock)
	h := fsys.NewHost(fsys.NewOS(), fsys.NewManual(time.Unix(1772172000, 0)), bytes.NewReader(make([]byte, 64)), nil)
	other := Guard(h, r.project, r.agent)
	err := other.Lock(lock, 10, LockStaleMs)
	require.True(t, errs.Is(err, hostio.ErrBusy), "held: %v", err)
}

func TestCleanAndPresence(t *testing.T) {
	require.Equal(t, "", Clean(""))
	require.Equal(t, "C:/Users/ada/proj", Clean(`C:\Users\ada\proj\`))
	require.Equal(t, "/a/c", Clean("/a/b/../c/"))
	require.Equal(t, "(none)", Presence("", false))
	require.Equal(t, "/p/x.json", Presence("/p/x.json", true))
	require.Equal(t, "/p/x.json (absent)", Presence("/p/x.json", false))
}

// The locked, sealed append makes the folder on the first write, starts
// after a torn line, and holds the lock while the store looks at the file.
func TestAppendLockedMakesTheFolderSealsATornLineAndHoldsTheLock(t *testing.T) {
	r := newRig(t)
	file := filepath.Join(r.agent, "pi-memory/queue/q.jsonl")
	lock := file + ".lock"
	require.NoError(t, Append(r.fs, file, lock, []byte("a\n")))
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Equal(t, "a\n", string(data), "the folder was made on the first write")
	require.NoError(t, os.WriteFile(file, []byte("a\ntor"), 0o644))
	var sealed bool
	err = AppendLocked(r.fs, file, lock, func(appendLine func([]byte) (bool, error)) error {
		_, statErr := os.Stat(lock)
		require.NoError(t, statErr, "the lock is held while the store works")
		var err error
		sealed, err = appendLine([]byte("b\n"))
		return err
	})
	require.NoError(t, err)
	require.True(t, sealed, "it had to seal the torn line")
	data, _ = os.ReadFile(file)
	require.Equal(t, "a\ntor\nb\n", string(data))
	_, err = os.Stat(lock)
	require.True(t, os.IsNotExist(err), "the lock is released")
	require.Error(t, AppendLocked(r.fs, file, lock, func(func([]byte) (bool, error)) error { return errors.New("stop") }))
	_, err = os.Stat(lock)
	require.True(t, os.IsNotExist(err), "released on an error too")
}

// A global config (outside the guarded folders, so a link is followed) that
// is a FIFO, or a link to a device, is not an empty file: reading it is
// refused by kind, so its store says it cannot be read instead of taking it
// for absent and saying nothing.
func TestConfigOutsideTheGuardThatIsAFIFOOrADeviceIsUnreadableNotAbsent(t *testing.T) {
	r := newRig(t)
	fifo := filepath.Join(r.agent, "decision-memory.config.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	dev := filepath.Join(r.agent, "om-config.json")
	require.NoError(t, os.Symlink("/dev/zero", dev))
	for _, p := range []string{fifo, dev} {
		_, err := Read(r.fs, p, MaxConfig)
		require.True(t, errs.Is(err, hostio.ErrKind), "%s: %v", p, err)
		f := Config(r.fs, p)
		require.True(t, f.Present, "%s is there", p)
		_, _, why := f.Switch("enabled")
		require.Contains(t, why, "a FIFO, socket or device", p)
	}
	real := r.write(t, "dotfiles/om-config.json", "{\"enabled\": true}\n")
	linked := filepath.Join(r.agent, "linked.json")
	require.NoError(t, os.Symlink(real, linked))
	data, err := Read(r.fs, linked, MaxConfig)
	require.NoError(t, err, "a global config linked to a file (dotfiles) is read")
	require.Equal(t, "{\"enabled\": true}\n", string(data))
	// Linked to a file that is not there (dotfiles not mounted): not absent,
	// which would turn on a store the file may turn off.
	dangling := filepath.Join(r.agent, "decision-memory.dangling.json")
	require.NoError(t, os.Symlink(filepath.Join(r.agent, "dotfiles/missing.json"), dangling))
	f := Config(r.fs, dangling)
	require.True(t, f.Present, "a dangling link is there")
	_, _, why := f.Switch("enabled")
	require.Contains(t, why, "a symbolic link to a missing file")
	require.False(t, Config(r.fs, filepath.Join(r.agent, "absent.json")).Present, "a file that is not there is absent")
}

// A holder stopped past a lock's stale time has its lock broken, and the
// process that broke it writes. When the first goes on, its write (of what it
// read before it stopped) would land over that one's: it is refused, as is
// every write under a lock that is no longer this session's, whichever way it
// was lost (broken and retaken, broken and left missing).
func TestAWriteUnderALockAnotherProcessBrokeIsRefused(t *testing.T) {
	cases := []struct {
		name    string
		breakIt func(lock string)
	}{
		{"broken and taken by another process", func(lock string) {
			require.NoError(t, os.WriteFile(lock, []byte("pid=1 host=elsewhere time=2026-11-29T17:00:00.000Z holder=0123456789abcdef\n"), 0o644))
		}},
		{"broken and left missing", func(lock string) { require.NoError(t, os.Remove(lock)) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t)
			file := r.write(t, "project/.pi/memory/MEMORY.md", "- theirs\n")
			lock := filepath.Join(r.agent, "pi-memory/memory.lock")
			require.NoError(t, os.MkdirAll(filepath.Dir(lock), 0o755))
			require.NoError(t, Lock(r.fs, lock))
			c.breakIt(lock)
			for what, write := range map[string]func() error{
				"WriteAtomic": func() error { return r.fs.WriteAtomic(file, []byte("- mine\n")) },
				"Append":      func() error { return r.fs.Append(file, []byte("- mine\n")) },
				"Rename":      func() error { return r.fs.Rename(file, file+".moved") },
			} {
				err := write()
				var lost *LockLost
				require.True(t, errors.As(err, &lost), what, err)
				require.True(t, errors.Is(err, hostio.ErrBusy), what)
			}
			data, _ := os.ReadFile(file)
			require.Equal(t, "- theirs\n", string(data), "nothing was written")
			r.fs.Unlock(lock)
			require.NoError(t, r.fs.WriteAtomic(file, []byte("- mine\n")), "a write with no lock held is the caller's to judge")
		})
	}
}

// stallingHost runs during once, inside the next atomic write, after its data
// is written and before it returns: what another process can do while this
// one's write is stalled (a slow fsync, a stop mid-write).
type stallingHost struct {
	hostio.Host
	during func()
}

func (s *stallingHost) WriteAtomic(p string, data []byte) error {
	err := s.Host.WriteAtomic(p, data)
	if f := s.during; f != nil {
		s.during = nil
		f()
	}
	return err
}

// A write under a lock that stalls inside the host past the lock's stale
// time, while another process breaks the lock and writes, does not land over
// that process's write; a write that does not stall lands, keeps the file's
// mode and leaves no staged file behind.
func TestAWriteStalledWhileItsLockIsBrokenLandsOverNothing(t *testing.T) {
	for _, stall := range []bool{true, false} {
		r := newRig(t)
		file := r.write(t, "project/.pi/memory/MEMORY.md", "- theirs\n")
		require.NoError(t, os.Chmod(file, 0o600))
		lock := filepath.Join(r.agent, "pi-memory/memory.lock")
		require.NoError(t, os.MkdirAll(filepath.Dir(lock), 0o755))
		sh := &stallingHost{Host: fsys.NewHost(fsys.NewOS(), fsys.NewManual(time.Unix(1772172000, 0)), bytes.NewReader(make([]byte, 64)), nil)}
		g := Guard(sh, r.project, r.agent)
		require.NoError(t, Lock(g, lock))
		if stall {
			sh.during = func() {
				require.NoError(t, os.WriteFile(lock, []byte("pid=1 host=elsewhere time=2026-11-29T17:00:00.000Z holder=0123456789abcdef\n"), 0o644))
				require.NoError(t, os.WriteFile(file, []byte("- theirs\n- other\n"), 0o600))
			}
		}
		err := g.WriteAtomic(file, []byte("- theirs\n- mine\n"))
		data, _ := os.ReadFile(file)
		if stall {
			var lost *LockLost
			require.True(t, errors.As(err, &lost), err)
			require.Equal(t, "- theirs\n- other\n", string(data), "the other process's write stands")
		} else {
			require.NoError(t, err)
			require.Equal(t, "- theirs\n- mine\n", string(data))
			fi, err := os.Stat(file)
			require.NoError(t, err)
			require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the file keeps its mode")
			g.Unlock(lock)
		}
		names, err := os.ReadDir(filepath.Dir(file))
		require.NoError(t, err)
		require.Equal(t, 1, len(names), "nothing staged is left beside the file")
	}
}

func TestHomeRelativeWritesTheHomeFolderAsTilde(t *testing.T) {
	for _, tt := range []struct{ home, p, want string }{
		{"/home/ada", "/home/ada/.pi/agent/memory", "~/.pi/agent/memory"},
		{"/home/ada", "/home/adam/x", "/home/adam/x"},
		{"/home/ada", "/home/ada", "/home/ada"},
		{"/", "/etc/x", "/etc/x"},
		{"", "/home/ada/x", "/home/ada/x"},
	} {
		require.Equal(t, tt.want, HomeRelative(tt.home, tt.p), "HomeRelative(%q, %q)", tt.home, tt.p)
	}
}

// A write over a file read before is refused when another program wrote the
// file since, even during the write itself (an editor's save, `echo >>`,
// which take none of our locks): its lines stand, nothing staged is left.
// Unchanged, or absent as it was, the write lands.
func TestAWriteOverAFileAnotherProgramWroteSinceItWasReadIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		was   string // "" with absent: the file was not there
		other func(file string)
		want  string // the file after; "" when the write lands
	}{
		{"appended while staged", "- theirs\n", func(file string) {
			f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			f.WriteString("- appended\n")
			f.Close()
		}, "- theirs\n- appended\n"},
		{"rewritten at the same size", "- theirs\n", func(file string) { require.NoError(t, os.WriteFile(file, []byte("- THEIRS\n"), 0o644)) }, "- THEIRS\n"},
		{"created while staged", "", func(file string) { require.NoError(t, os.WriteFile(file, []byte("- new\n"), 0o644)) }, "- new\n"},
		{"unchanged", "- theirs\n", nil, ""},
		{"absent as it was", "", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			file := r.write(t, "project/.pi/memory/MEMORY.md", tc.was)
			if tc.was == "" {
				require.NoError(t, os.Remove(file))
			}
			lock := filepath.Join(r.agent, "pi-memory/memory.lock")
			require.NoError(t, os.MkdirAll(filepath.Dir(lock), 0o755))
			sh := &stallingHost{Host: fsys.NewHost(fsys.NewOS(), fsys.NewManual(time.Unix(1772172000, 0)), bytes.NewReader(make([]byte, 64)), nil)}
			g := Guard(sh, r.project, r.agent)
			require.NoError(t, Lock(g, lock))
			defer g.Unlock(lock)
			if tc.other != nil {
				sh.during = func() { tc.other(file) }
			}
			var was []byte
			if tc.was != "" {
				was = []byte(tc.was)
			}
			err := g.WriteAtomicOver(file, []byte("- mine\n"), was)
			data, _ := os.ReadFile(file)
			if tc.want == "" {
				require.NoError(t, err)
				require.Equal(t, "- mine\n", string(data))
			} else {
				var changed *Changed
				require.True(t, errors.As(err, &changed), err)
				require.Equal(t, "another program wrote to "+file+" since pi-memory read it; try again", err.Error())
				require.Equal(t, tc.want, string(data), "the other program's write stands")
			}
			names, err := os.ReadDir(filepath.Dir(file))
			require.NoError(t, err)
			require.True(t, len(names) <= 1, "nothing staged is left beside the file: %v", names)
		})
	}
}

// Without a lock (a config file), the file is read again just before the
// write: one another program wrote since it was read is not written over.
func TestAWriteOverWithoutALockIsRefusedWhenTheFileChanged(t *testing.T) {
	r := newRig(t)
	file := r.write(t, "project/.pi/decision-memory/config.json", `{"enabled": true}`+"\n")
	require.NoError(t, os.WriteFile(file, []byte(`{"enabled": true, "theirs": 1}`+"\n"), 0o644))
	err := r.fs.WriteAtomicOver(file, []byte(`{"enabled": false}`+"\n"), []byte(`{"enabled": true}`+"\n"))
	var changed *Changed
	require.True(t, errors.As(err, &changed), err)
	data, _ := os.ReadFile(file)
	require.Equal(t, `{"enabled": true, "theirs": 1}`+"\n", string(data))
	require.NoError(t, r.fs.WriteAtomicOver(file, []byte(`{"enabled": false}`+"\n"), data))
}

// h-v93 b2: what the core logs is text and nothing else, however it was
// made (a model's plain-text error body went to pi's stderr with OSC 52 in
// it), and a megabyte of it is one bounded line.
func TestWhatIsLoggedIsTextWithoutSecrets(t *testing.T) {
	var got []string
	h := fsys.NewHost(fsys.NewOS(), fsys.NewManual(time.Unix(1772172000, 0)), bytes.NewReader(make([]byte, 64)), func(_ int, msg string) { got = append(got, msg) })
	g := Guard(h, "/p/project", "/p/agent")
	g.Log(hostio.Warn, "the classifier gave no usable answer (502 bad \x1b]52;c;SEVMTE8=\a \x1b[31mRED\x1b[0m token=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5 \u202eevil)")
	g.Log(hostio.Warn, strings.Repeat("x", 1<<20)+" password: Vq7Lm2Zr9KxW")
	require.Equal(t, 2, len(got))
	require.Equal(t, "the classifier gave no usable answer (502 bad  RED token=[REDACTED:github-token] evil)", got[0])
	require.True(t, len(got[1]) <= 4200, "%d bytes", len(got[1]))
	require.NotContains(t, got[1], "Vq7Lm2Zr9KxW")
}
