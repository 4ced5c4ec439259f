//go:build !(linux || darwin)

package host

import "github.com/tetratelabs/wazero/experimental"

// linearMemory grows the core's memory as wazero does by default where no
// mapping is reserved (linearmem_unix.go says why one is on Linux and macOS).
func linearMemory() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(cap, max uint64) experimental.LinearMemory { return &sliceMemory{max: max} })
}
