package notes

// table64 is an open-addressing hash table from 64-bit keys to small
// positive numbers, in two flat slices. It replaces Go maps on paths that see
// thousands of pages: TinyGo allocates map buckets without a pointer layout
// and so scans them conservatively, and their hash bytes, lengths and dates
// then read as pointers that keep dead arrays alive (a 5,000-line index
// rebuilt 20 times grew linear memory to 512 MiB). Slices of numbers are
// never scanned. Sized for at most n keys; it never grows.
type table64 struct {
	keys []uint64
	vals []int32 // 0: empty slot
}

func newTable64(n int) table64 {
	var t table64
	t.reset(n)
	return t
}

// reset empties the table for at most n keys, keeping its arrays when they
// are large enough: a caller that fills a table again and again allocates
// once.
func (t *table64) reset(n int) {
	size := 8
	for size < 2*n {
		size <<= 1
	}
	if cap(t.keys) >= size {
		t.keys, t.vals = t.keys[:size], t.vals[:size]
		clear(t.keys)
		clear(t.vals)
		return
	}
	t.keys, t.vals = make([]uint64, size), make([]int32, size)
}

// home is the first slot to probe for key; next the one after i.
func (t *table64) home(key uint64) int {
	// splitmix64's finaliser: every key bit moves the slot.
	key ^= key >> 30
	key *= 0xbf58476d1ce4e5b9
	key ^= key >> 27
	key *= 0x94d049bb133111eb
	key ^= key >> 31
	return int(key & uint64(len(t.keys)-1))
}

func (t *table64) next(i int) int { return (i + 1) & (len(t.keys) - 1) }

// hash64 is FNV-1a of s: the key of a string that is not hex already.
func hash64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
