package decision

import "unsafe"

// The state is stored without Go pointers: strings live in byte pages and
// records refer to them by number. TinyGo's collector scans every pointer of
// every live object at each collection, walking back from interior pointers
// to their object's start; with a pointer-rich state of 100k events that was
// 40% of replay time and pauses of seconds (docs/decisions/003-tinygo-heap.md).
// Pages and record chunks are pointer-free, so a collection sees a few
// hundred objects it never looks inside, however large the log. The same
// layout is what a snapshot writes and reads back.

const (
	pageSize = 64 << 10
	// maxField is the longest string a field keeps (1 MiB - 1); longer ones
	// are cut, which no real decision comes near.
	maxField = 1<<20 - 1
	// Records come in chunks of 64 (about 9 KiB): small enough that a
	// snapshot's records can be read one chunk at a time, on first use.
	chunkBits = 6
	chunkSize = 1 << chunkBits
	// Tag and conflict lists are stored in chunks of 4096 references, read
	// from a snapshot one chunk at a time, like records.
	listChunk = 4096
)

// ref locates a string: page (24 bits) | offset in the page (20) | length (20).
// The zero ref is the empty string.
type ref uint64

func mkref(page, off, n int) ref { return ref(uint64(page)<<40 | uint64(off)<<20 | uint64(n)) }
func (r ref) page() int          { return int(r >> 40) }
func (r ref) off() int           { return int(r >> 20 & 0xFFFFF) }
func (r ref) size() int          { return int(r & 0xFFFFF) }

// list locates a run of refs in the list store: start (40 bits, as chunk ×
// listChunk + offset) | count (24). A list never spans two chunks.
type list uint64

func mklist(start, n int) list { return list(uint64(start)<<24 | uint64(n)) }
func (l list) start() int      { return int(l >> 24) }
func (l list) size() int       { return int(l & 0xFFFFFF) }

// strs owns the pages and the list store.
type strs struct {
	pages [][]byte
	lists [][]ref // chunks of listChunk references
	nlist int     // references in use, as a global index
	// The first sealed pages and sealedLists list chunks came from a
	// snapshot: nil until load or loadList reads them on first use. broken
	// records that a read failed.
	sealed, sealedLists int
	load                func(page int) []byte
	loadList            func(chunk int) []ref
	broken              bool
}

func (p *strs) put(v string) ref {
	n := len(v)
	if n == 0 {
		return 0
	}
	if n > maxField {
		n = maxField
	}
	last := len(p.pages) - 1
	if last < p.sealed || len(p.pages[last])+n > cap(p.pages[last]) {
		size := pageSize
		if n > size {
			size = n
		}
		p.pages = append(p.pages, make([]byte, 0, size))
		last = len(p.pages) - 1
	}
	pg := p.pages[last]
	off := len(pg)
	p.pages[last] = append(pg, v[:n]...)
	return mkref(last, off, n)
}

// get returns the string r refers to, as a view into its page (no copy). A
// reference that does not fit its page, or a page that cannot be read, gives
// "" and marks the state broken rather than trapping.
func (p *strs) get(r ref) string {
	n := r.size()
	if n == 0 {
		return ""
	}
	i := r.page()
	if i >= len(p.pages) {
		p.broken = true
		return ""
	}
	pg := p.pages[i]
	if pg == nil {
		if p.load == nil {
			p.broken = true
			return ""
		}
		if pg = p.load(i); pg == nil {
			return ""
		}
		p.pages[i] = pg
	}
	off := r.off()
	if off+n > len(pg) {
		p.broken = true
		return ""
	}
	return unsafe.String(&pg[off], n)
}

func (p *strs) putList(vs []string) list {
	if len(vs) == 0 {
		return mklist(0, 0)
	}
	if len(vs) > listChunk {
		vs = vs[:listChunk]
	}
	c, off := p.nlist/listChunk, p.nlist%listChunk
	if off+len(vs) > listChunk {
		c, off = c+1, 0
	}
	chunk := p.listChunk(c, true)
	if chunk == nil {
		// A snapshot's chunk that could not be read: the state is broken
		// already and will be rebuilt from the log; it must not trap first.
		p.broken = true
		return mklist(0, 0)
	}
	for i, v := range vs {
		chunk[off+i] = p.put(v)
	}
	start := c*listChunk + off
	p.nlist = start + len(vs)
	return mklist(start, len(vs))
}

// listChunk returns chunk c, reading it from the snapshot or (when grow is
// set and it does not exist yet) making it.
func (p *strs) listChunk(c int, grow bool) []ref {
	for grow && len(p.lists) <= c {
		p.lists = append(p.lists, nil)
	}
	if c >= len(p.lists) {
		return nil
	}
	if p.lists[c] == nil {
		switch {
		case c < p.sealedLists && p.loadList != nil:
			p.lists[c] = p.loadList(c)
		case c >= p.sealedLists && grow:
			p.lists[c] = make([]ref, listChunk)
		}
	}
	return p.lists[c]
}

// refs returns the references of a list (a view into its chunk); nil, and
// the state marked broken, when the list does not fit the store.
func (p *strs) refs(l list) []ref {
	n := l.size()
	if n == 0 {
		return nil
	}
	c, off := l.start()/listChunk, l.start()%listChunk
	chunk := p.listChunk(c, false)
	if chunk == nil || off+n > len(chunk) {
		p.broken = true
		return nil
	}
	return chunk[off : off+n]
}

// getList materializes a list as views (one allocation for the slice).
func (p *strs) getList(l list) []string {
	rs := p.refs(l)
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = p.get(r)
	}
	return out
}

// rec is one decision as stored: numbers and refs only.
type rec struct {
	id, project, title, text, reason, supersedes, supersededBy, conflictNote, source, category, createdBy ref
	tags, conflicts                                                                                       list
	createdAt, updatedAt, removedAt                                                                       int64
	confidence                                                                                            float64
	addLine, lastLine, removedLine                                                                        int32
	status                                                                                                Status
	removed, hasConf                                                                                      bool
}

// recs stores records in fixed chunks, so growing never copies (or doubles)
// a large array. Chunks that came from a snapshot are nil until load reads
// them (it returns a zeroed chunk, and marks the state broken, on failure).
type recs struct {
	chunks [][]rec
	n      int
	load   func(chunk int) []rec
}

func (r *recs) add() (int32, *rec) {
	if r.n>>chunkBits == len(r.chunks) {
		r.chunks = append(r.chunks, make([]rec, chunkSize))
	}
	h := r.n
	r.n++
	return int32(h), r.at(int32(h))
}

func (r *recs) at(h int32) *rec {
	c := r.chunks[h>>chunkBits]
	if c == nil {
		c = r.load(int(h >> chunkBits))
		r.chunks[h>>chunkBits] = c
	}
	return &c[int(h)&(chunkSize-1)]
}
