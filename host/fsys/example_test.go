package fsys_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// Mem behaves like the real disk, with time under the test's control.
func ExampleMem() {
	clock := fsys.NewManual(time.UnixMilli(0))
	m := fsys.NewMem(clock)

	err := m.Append("/repo/.pi/decisions.jsonl", []byte("{}\n"))
	fmt.Println(errors.Is(err, hostio.ErrNotFound), err)

	m.Mkdir("/repo/.pi")
	m.Append("/repo/.pi/decisions.jsonl", []byte("{}\n"))
	names, _ := m.List("/repo/.pi")
	fmt.Println(names)

	m.Lock("/repo/.pi/decisions.lock", 0, 30_000)
	clock.Advance(time.Minute)
	fmt.Println(m.Share().Lock("/repo/.pi/decisions.lock", 0, 30_000)) // the first holder is gone: broken as stale
	// Output:
	// true append /repo/.pi/decisions.jsonl: not found (folder /repo/.pi does not exist; append never creates folders)
	// [decisions.jsonl]
	// <nil>
}

// A FIFO where a log should be is refused at once, never waited on.
func ExampleMem_MakeSpecial() {
	m := fsys.NewMem(nil)
	m.MakeSpecial("/decisions.jsonl", fsys.FIFO)

	err := m.Append("/decisions.jsonl", []byte("{}\n"))
	fmt.Println(errors.Is(err, hostio.ErrKind), err)
	fi, _ := m.Stat("/decisions.jsonl")
	fmt.Println(fi.Kind == hostio.KindOther)
	// Output:
	// true append /decisions.jsonl: wrong kind of file (is a FIFO, not a regular file)
	// true
}

// Stat and reads follow a link; Lstat shows it (kind 3), which is how the core
// can tell a memory file that is a link.
func ExampleMem_Symlink() {
	m := fsys.NewMem(nil)
	m.Mkdir("/dotfiles")
	m.WriteAtomic("/dotfiles/MEMORY.md", []byte("- tabs\n"))
	m.Mkdir("/repo/.pi/memory")
	m.Symlink("/dotfiles/MEMORY.md", "/repo/.pi/memory/MEMORY.md")

	st, _ := m.Stat("/repo/.pi/memory/MEMORY.md")
	lst, _ := m.Lstat("/repo/.pi/memory/MEMORY.md")
	fmt.Println(st.Kind, st.Size, lst.Kind, lst.Size)
	// Output:
	// 1 7 3 19
}
