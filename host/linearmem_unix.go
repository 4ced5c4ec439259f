//go:build linux || darwin

package host

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// mmapMemory backs the core's linear memory with one anonymous mapping as
// large as the memory may ever grow (its max: 4 GiB of address space for a
// module that declares none, reserved, not committed), so growing it never
// moves or copies it. wazero's own growth appends to a Go slice: each step
// allocates a larger one and copies everything, and in a fresh process each
// of those touches new pages. A session that loads a 16 MiB decision
// snapshot spent 150–300 ms there under wazero (45 ms with this, as in
// Node); every pimem command and `pimem mcp` start pays it.
func linearMemory() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(cap, max uint64) experimental.LinearMemory {
		b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
		if err != nil {
			// No address space to reserve (a ulimit -v, strict overcommit):
			// memory that grows as wazero's own does.
			return &sliceMemory{max: max}
		}
		return &mappedMemory{buf: b}
	})
}

// mappedMemory is a reserved mapping handed out a prefix at a time.
type mappedMemory struct{ buf []byte }

func (m *mappedMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size:size]
}

func (m *mappedMemory) Free() {
	if m.buf != nil {
		syscall.Munmap(m.buf)
		m.buf = nil
	}
}
