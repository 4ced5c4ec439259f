package lifecycle

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A committed repository can hold a symbolic link where a memory file should
// be. pi-memory neither reads nor writes through one, names the file, and the
// file the link points at is never touched.
func TestMemoryFilesThatAreLinksAreNeitherReadNorWritten(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, r *rig, outside string)
		act   func(r *rig) string
		want  string
	}{
		{"decisions.jsonl links outside", func(t *testing.T, r *rig, outside string) {
			os.MkdirAll(filepath.Join(r.project, ".pi/decision-memory"), 0o755)
			os.Symlink(outside, filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl"))
		}, func(r *rig) string { r.cmd("add Use Go for services"); return r.text() }, "decisions.jsonl is a symbolic link"},
		{"the decision-memory folder is a link", func(t *testing.T, r *rig, outside string) {
			os.MkdirAll(filepath.Join(r.project, ".pi"), 0o755)
			os.Symlink(filepath.Dir(outside), filepath.Join(r.project, ".pi/decision-memory"))
		}, func(r *rig) string { r.cmd("add Use Go for services"); return r.text() }, "decision-memory is a symbolic link"},
		{"MEMORY.md links outside: not injected", func(t *testing.T, r *rig, outside string) {
			os.MkdirAll(filepath.Join(r.project, ".pi/memory"), 0o755)
			os.Symlink(outside, filepath.Join(r.project, ".pi/memory/MEMORY.md"))
		}, func(r *rig) string {
			got := r.injected("hi")
			if strings.Contains(got, "outside content") {
				return "INJECTED: " + got
			}
			r.mem("remember project Lint before pushing")
			return r.text()
		}, "MEMORY.md is a symbolic link"},
		{"a topic file links outside: recall does not read it", func(t *testing.T, r *rig, outside string) {
			os.MkdirAll(filepath.Join(r.project, ".pi/memory"), 0o755)
			os.WriteFile(filepath.Join(r.project, ".pi/memory/MEMORY.md"), []byte("- See [build](build.md)\n"), 0o644)
			os.Symlink(outside, filepath.Join(r.project, ".pi/memory/build.md"))
		}, func(r *rig) string { r.mem("recall outside content"); return r.text() }, "build.md is a symbolic link"},
		{"the agent's notes folder is a link", func(t *testing.T, r *rig, outside string) {
			os.MkdirAll(filepath.Join(r.agent, "pi-memory"), 0o755)
			os.Symlink(filepath.Dir(outside), filepath.Join(r.agent, "pi-memory/notes"))
		}, func(r *rig) string { r.mem("remember global Prefer small commits"); return r.text() }, "notes is a symbolic link"},
		{".gitignore links outside", func(t *testing.T, r *rig, outside string) {
			os.Symlink(outside, filepath.Join(r.project, ".gitignore"))
		}, func(r *rig) string { r.mem("gitignore"); return r.text() }, ".gitignore is a symbolic link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, false)
			outside := filepath.Join(t.TempDir(), "outside.txt")
			os.WriteFile(outside, []byte("outside content\n"), 0o644)
			tt.setup(t, r, outside)
			r.start(false, true)
			got := tt.act(r)
			if !strings.Contains(got, tt.want) {
				t.Fatalf("want %q in %q", tt.want, got)
			}
			if b, _ := os.ReadFile(outside); string(b) != "outside content\n" {
				t.Fatalf("the file outside was written: %q", b)
			}
			if r.exit() == 0 && !strings.Contains(tt.name, "recall") {
				t.Errorf("exit 0 for a refusal: %s", got)
			}
		})
	}
}

// A FIFO where the log should be makes no command hang (it would freeze pi)
// and leaves no lock behind.
func TestAFIFOAsTheLogIsRefusedWithoutBlocking(t *testing.T) {
	r := newRig(t, false)
	os.MkdirAll(filepath.Join(r.project, ".pi/decision-memory"), 0o755)
	fifo := filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here: ", err)
	}
	done := make(chan string, 1)
	go func() {
		r.start(false, true)
		r.cmd("add Use Go for services")
		done <- r.text()
	}()
	select {
	case got := <-done:
		if !strings.Contains(got, "not a regular file") {
			t.Fatalf("refused naming the file: %q", got)
		}
	case <-time.After(60 * time.Second): // a blocked open never returns; a loaded machine is slow
		t.Fatal("a command blocked on a FIFO")
	}
	if _, err := os.Stat(fifo + ".lock"); err == nil {
		t.Fatal("the lock was left behind")
	}
}
