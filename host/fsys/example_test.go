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
