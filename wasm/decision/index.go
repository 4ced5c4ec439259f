package decision

// index maps decision ids to positions in state.list. It is an
// open-addressing hash table over two flat slices rather than a Go map:
// under TinyGo one garbage collection with a 40k-entry map[uint64]int32
// alive took 25 s (90 s with pointer values), while flat slices of the same
// size cost nothing to scan (measured with TinyGo 0.41 under wazero; see
// docs/decisions/003-tinygo-heap.md). Key 0 marks an empty slot; callers
// never use it.
type index struct {
	keys []uint64
	vals []int32
	n    int
	// load reads the table from a snapshot on first use.
	load func()
}

// ready reads a snapshot's table the first time it is needed.
func (x *index) ready() {
	if x.load != nil {
		load := x.load
		x.load = nil
		load()
	}
}

func (x *index) grow() {
	size := 1024
	if len(x.keys) > 0 {
		size = 2 * len(x.keys)
	}
	old, oldVals := x.keys, x.vals
	x.keys, x.vals, x.n = make([]uint64, size), make([]int32, size), 0
	for i, k := range old {
		if k != 0 {
			x.insert(k, oldVals[i])
		}
	}
}

func (x *index) slot(k uint64) int {
	h := k * 0x9E3779B97F4A7C15 // Fibonacci hashing spreads sequential ids
	return int(h >> 32 & uint64(len(x.keys)-1))
}

// insert adds a new entry; it does not look for an existing key, so a key
// may appear more than once (hashed keys of different ids can collide).
func (x *index) insert(k uint64, v int32) {
	x.ready()
	if (x.n+1)*4 > len(x.keys)*3 {
		x.grow()
	}
	i := x.slot(k)
	for x.keys[i] != 0 {
		i = (i + 1) & (len(x.keys) - 1)
	}
	x.keys[i], x.vals[i] = k, v
	x.n++
}

// setFirst replaces the value of the first entry with key k, or inserts one.
// Only for keys that identify one entry (packed ids, days).
func (x *index) setFirst(k uint64, v int32) {
	x.ready()
	if len(x.keys) > 0 {
		for i := x.slot(k); x.keys[i] != 0; i = (i + 1) & (len(x.keys) - 1) {
			if x.keys[i] == k {
				x.vals[i] = v
				return
			}
		}
	}
	x.insert(k, v)
}

// dayIndex remembers, per UTC day (yyyymmdd), the highest id number ever added.
type dayIndex struct{ index }

func (x *dayIndex) get(day uint64) int {
	x.ready()
	if len(x.keys) == 0 {
		return 0
	}
	for i := x.slot(day); x.keys[i] != 0; i = (i + 1) & (len(x.keys) - 1) {
		if x.keys[i] == day {
			return int(x.vals[i])
		}
	}
	return 0
}

func (x *dayIndex) raise(day uint64, seq int) {
	if seq <= x.get(day) {
		return
	}
	x.setFirst(day, int32(seq))
}
