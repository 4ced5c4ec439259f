package decision

import "unsafe"

// arena stores the strings decoded from a log in shared blocks, so replaying
// 100k events costs thousands of allocations instead of half a million —
// under TinyGo's garbage collector that is most of the replay time. Blocks are
// small on purpose: TinyGo's collector finds an object's start by walking
// back from each interior pointer, so a string in the middle of a 256 KiB
// block cost thousands of steps per collection (measured: 10-26 s collections
// at 100k events). Strings handed out stay valid for the life of the program.
type arena struct {
	block []byte
	lists []string
	size  int
}

const arenaBlock = 4 << 10

// String copies b into the arena and returns it as a string.
func (a *arena) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if a == nil {
		return string(b)
	}
	if len(b) > arenaBlock/4 {
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

// Strings copies a list of strings into a shared slab, so the tags of 100k
// events cost a handful of allocations.
func (a *arena) Strings(list []string) []string {
	if a == nil || len(list) > 16 {
		return append([]string(nil), list...)
	}
	if len(a.lists)+len(list) > cap(a.lists) {
		a.lists = make([]string, 0, 256)
	}
	start := len(a.lists)
	a.lists = append(a.lists, list...)
	return a.lists[start:len(a.lists):len(a.lists)]
}

// slots hands out n string slots from the list slab, for the caller to fill.
func (a *arena) slots(n int) []string {
	if n > 16 {
		return make([]string, n)
	}
	if len(a.lists)+n > cap(a.lists) {
		a.lists = make([]string, 0, 256)
	}
	start := len(a.lists)
	a.lists = a.lists[:start+n]
	return a.lists[start : start+n : start+n]
}
