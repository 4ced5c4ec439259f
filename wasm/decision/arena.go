package decision

import "unsafe"

// Arena stores the strings decoded from a log in large blocks, so replaying
// 100k events costs a few hundred allocations instead of half a million —
// under TinyGo's garbage collector that is most of the replay time. Strings
// handed out stay valid for the life of the program.
type Arena struct {
	block []byte
	size  int
}

const arenaBlock = 256 << 10

// String copies b into the arena and returns it as a string.
func (a *Arena) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if a == nil {
		return string(b)
	}
	if len(b) > arenaBlock/8 {
		return string(b)
	}
	if len(a.block)+len(b) > cap(a.block) {
		a.block = make([]byte, 0, arenaBlock)
	}
	start := len(a.block)
	a.block = append(a.block, b...)
	a.size += len(b)
	return unsafe.String(&a.block[start], len(b))
}
