package embeddings

import (
	"encoding/hex"
	"errors"
	"path"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/vectors"
)

// The cache, <agent dir>/pi-memory/vectors/<model key>.vec, is derived:
// deleted, it is rebuilt by the same background work. It is append-only,
// one record a line, written under its lock:
//
//	<stamp> <line> <vector> <session file>
//
// stamp is the session file's stamp (16 hex digits: its size and mtime,
// history.Stamp) when the message was read; line is the message's line in
// the file; vector is its int8 dimensions as hex, two digits each. A record
// whose vector is "-" says the session, at that stamp, is embedded whole,
// and its line is how many messages it has. A session whose stamp changed
// is embedded again; a newer stamp's records replace an older's as the file
// is read. A record that cannot be read (a torn line, an edit) is skipped
// and counted, never fatal.

// maxDims is the most dimensions kept (vectors.MaxDims).
const maxDims = vectors.MaxDims

// maxCacheBytes bounds the cache file: past it no more is embedded, and
// the status says to delete it (a rebuild keeps the newest sessions first).
// About 50,000 messages at 384 dimensions.
const maxCacheBytes = 48 << 20

// maxCacheSlack is how far past maxCacheBytes the cache is read: the last
// requests' records, written after it was last seen under the bound.
const maxCacheSlack = 1 << 20

// maxRecordLine is the longest record: a vector of maxDims and a path.
const maxRecordLine = 2*maxDims + 4096 + 64

// record is one line of the cache.
type record struct {
	File  string
	Stamp uint64
	// Line is the message's line; for a record that closes a session (Vec
	// nil), how many messages it has.
	Line int
	Vec  []int8
}

// appendRecord is r as a line of the cache, after b.
//
//	appendRecord(nil, record{File: "/a/s.jsonl", Stamp: 1, Line: 3, Vec: []int8{1, -1}}) => "0000000000000001 3 01ff /a/s.jsonl\n"
func appendRecord(b []byte, r record) []byte {
	var st [8]byte
	for i := range st {
		st[i] = byte(r.Stamp >> (56 - 8*i))
	}
	b = hex.AppendEncode(b, st[:])
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(r.Line), 10)
	b = append(b, ' ')
	if r.Vec == nil {
		b = append(b, '-')
	} else {
		b = hex.AppendEncode(b, int8Bytes(r.Vec))
	}
	b = append(b, ' ')
	b = append(b, r.File...)
	return append(b, '\n')
}

// parseRecord reads one line of the cache (without its newline).
func parseRecord(line []byte) (record, error) {
	var r record
	field := func() []byte {
		for i, c := range line {
			if c == ' ' {
				f := line[:i]
				line = line[i+1:]
				return f
			}
		}
		return nil
	}
	stamp, num, vec := field(), field(), field()
	if len(stamp) != 16 || num == nil || vec == nil {
		return r, errors.New("is not <stamp> <line> <vector> <file>")
	}
	var st [8]byte
	if !unhex(st[:], stamp) {
		return r, errors.New("has a stamp that is not 16 hex digits")
	}
	for _, c := range st {
		r.Stamp = r.Stamp<<8 | uint64(c)
	}
	n, err := strconv.Atoi(string(num))
	if err != nil || n < 0 || n > 1<<30 {
		return r, errors.New("has a line that is not a number")
	}
	r.Line = n
	if string(vec) != "-" {
		if n == 0 || len(vec) < 2 || len(vec) > 2*maxDims || len(vec)%2 != 0 {
			return r, errors.New("has a vector of no dimensions, too many, or no line")
		}
		buf := make([]byte, len(vec)/2)
		if !unhex(buf, vec) {
			return r, errors.New("has a vector that is not hex")
		}
		r.Vec = bytesInt8(buf)
	}
	if len(line) < 2 || line[0] != '/' || len(line) > 4096 {
		return r, errors.New("names no absolute session file")
	}
	for _, c := range line {
		if c < ' ' || c == 0x7f {
			return r, errors.New("names a session file with a control character")
		}
	}
	r.File = string(line)
	return r, nil
}

// unhex decodes the hex digits of src (lower or upper case) into dst, of
// half its length; false for a byte that is not one. (encoding/hex's
// Decode would bring fmt into the module with its error type.)
func unhex(dst, src []byte) bool {
	digit := func(c byte) (byte, bool) {
		switch {
		case c >= '0' && c <= '9':
			return c - '0', true
		case c >= 'a' && c <= 'f':
			return c - 'a' + 10, true
		case c >= 'A' && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	for i := range dst {
		hi, ok1 := digit(src[2*i])
		lo, ok2 := digit(src[2*i+1])
		if !ok1 || !ok2 {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

func int8Bytes(v []int8) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte(x)
	}
	return b
}

func bytesInt8(b []byte) []int8 {
	v := make([]int8, len(b))
	for i, x := range b {
		v[i] = int8(x)
	}
	return v
}

// prevWeight is how much of the message before goes into a message's
// vector (decision 019 measured 0.3): an answer is found by its question's
// words, and a reply such as "yes, do that" by what it agreed to.
const prevWeight = 0.3

// blend is a message's vector: its own plus prevWeight of the message
// before it (nil for the first), cut to dims when dims > 0, of unit length
// again. False when the sum has no length (a message and the one before it
// opposite: it keeps its own).
//
//	blend([]int8{127, 0}, []int8{0, 127}, 0) => [122 36]
func blend(own, prev []int8, dims int) ([]int8, bool) {
	n := len(own)
	if dims > 0 && dims < n {
		n = dims
	}
	f := make([]float64, n)
	for i := range f {
		f[i] = float64(own[i])
		if len(prev) == len(own) {
			f[i] += prevWeight * float64(prev[i])
		}
	}
	return vectors.Quantize(f)
}

// vecs is what the cache holds of one session file at its newest stamp.
type vecs struct {
	file  string
	name  string // the file's name: pi's start with their time, so the newest sorts last
	aged  bool   // in the table's byAge
	stamp uint64
	done  bool // a closing record was read: every message is embedded
	msgs  int  // the closing record's count
	lines []int32
	flat  []int8 // len(lines) vectors of the cache's dimensions
}

// holds says whether v holds the vector of the message at line.
func (v *vecs) holds(line int) bool {
	for _, l := range v.lines {
		if int(l) == line {
			return true
		}
	}
	return false
}

// table is the cache as read: the sessions' vectors by session file, and
// the dimensions every vector has (the first one read decides). Past
// maxHeld vectors it holds the newest sessions' (by name, as the
// background work embeds them): a session newer than the oldest held
// takes its place, whole.
type table struct {
	dims     int
	sessions map[string]*vecs
	order    []*vecs // the sessions in the order first read: a ranking's steps
	// gen changes when what a ranking scored already may name another
	// message: a session started again in place (its file changed), the
	// table emptied. A ranking begun before starts again. Records
	// appended do not change it, nor vectors given up for a newer
	// session's (what was scored of them is still the message it was):
	// pi's background work appends between a search's slices, and a
	// ranking started again at each would wait for it to end.
	gen  int
	bad  int // records skipped: not readable, or of other dimensions
	held int // vectors held, over every session
	over int // vectors not held: read past maxHeld
	// floor is the newest name of a session whose vectors are not all
	// held (past maxHeld, or a closing record with none: a rewrite dropped
	// them): a session no newer is not worth embedding, it would be
	// dropped first.
	floor string
	byAge []*vecs // the sessions holding vectors, a heap by name (pushAge)
}

// reset empties the table, to read the cache again from its start: a
// ranking begun on what it held starts again.
func (t *table) reset() { *t = table{gen: t.gen + 1} }

// add takes a record read from the cache. A record of a newer stamp than a
// session's starts it again; one of an older stamp is stale and dropped;
// one whose vector has other dimensions than the cache's is counted bad.
// keep says whether its session is one held (this project's); of its
// vectors, at most maxHeld over every session.
func (t *table) add(r record, keep func(file string) bool) {
	if r.Vec != nil {
		if t.dims == 0 {
			t.dims = len(r.Vec)
		}
		if len(r.Vec) != t.dims {
			t.bad++
			return
		}
	}
	if !keep(r.File) {
		return
	}
	if t.sessions == nil {
		t.sessions = map[string]*vecs{}
	}
	v := t.sessions[r.File]
	if v == nil {
		v = &vecs{file: r.File, name: path.Base(r.File), stamp: r.Stamp}
		t.sessions[r.File] = v
		t.order = append(t.order, v)
	} else if v.stamp != r.Stamp {
		// A newer stamp starts the session again, in place.
		t.gen++
		t.held -= len(v.lines)
		*v = vecs{file: r.File, name: v.name, stamp: r.Stamp, aged: v.aged, lines: v.lines[:0], flat: v.flat[:0]}
	}
	if r.Vec == nil {
		v.done, v.msgs = true, r.Line
		if r.Line > 0 && len(v.lines) == 0 {
			t.drop(v) // its vectors were dropped by a rewrite
		}
		return
	}
	if t.held >= maxHeld && !t.evictOlderThan(v) {
		// Past the bound the vectors of the oldest sessions are not held,
		// but a session is closed as any other (else it would be embedded
		// again and again).
		t.over++
		t.drop(v)
		return
	}
	v.lines = append(v.lines, int32(r.Line))
	v.flat = append(v.flat, r.Vec...)
	t.held++
	if !v.aged {
		t.pushAge(v)
	}
}

// newer says a session of that name is newer than the oldest the table
// has (held or not): the one a rewrite of the cache would drop for it.
func (t *table) newer(name string) bool {
	for _, v := range t.order {
		if v.name < name {
			return true
		}
	}
	return false
}

// drop notes that v's vectors are not all held.
func (t *table) drop(v *vecs) {
	if v.name > t.floor {
		t.floor = v.name
	}
}

// evictOlderThan frees the vectors of the oldest session holding any, if
// it is older than v, and says whether it did.
func (t *table) evictOlderThan(v *vecs) bool {
	for len(t.byAge) > 0 && len(t.byAge[0].lines) == 0 {
		t.byAge[0].aged = false
		t.popOldest()
	}
	if len(t.byAge) == 0 || t.byAge[0] == v || t.byAge[0].name >= v.name {
		return false
	}
	o := t.popOldest()
	t.held -= len(o.lines)
	t.over += len(o.lines)
	o.lines, o.flat, o.aged = nil, nil, false
	t.drop(o)
	return true
}

// The sessions holding vectors are a heap, oldest first: each eviction
// costs a logarithm of them, whatever order the cache has them in.
func (t *table) pushAge(v *vecs) {
	v.aged = true
	t.byAge = append(t.byAge, v)
	for i := len(t.byAge) - 1; i > 0; {
		up := (i - 1) / 2
		if t.byAge[up].name <= t.byAge[i].name {
			break
		}
		t.byAge[up], t.byAge[i] = t.byAge[i], t.byAge[up]
		i = up
	}
}

func (t *table) popOldest() *vecs {
	h := t.byAge
	o := h[0]
	h[0] = h[len(h)-1]
	h = h[:len(h)-1]
	for i := 0; ; {
		least, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h[l].name < h[least].name {
			least = l
		}
		if r < len(h) && h[r].name < h[least].name {
			least = r
		}
		if least == i {
			break
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
	t.byAge = h
	return o
}

// scored is a message of a session by its cosine to a query (×127²).
type scored struct {
	file  string
	line  int32
	score int32
}

// nearest are the n messages whose vectors are nearest q, best first
// (ties: file then line, so a ranking is the same every time); a message
// held twice (two processes embedded it) counts once.
func (t *table) nearest(q []int8, n int) []scored {
	r := ranking{q: q, n: n}
	t.rank(&r, -1)
	return r.top
}

// ranking is nearest in steps (rank), for a host whose event loop must get
// its thread back between them.
type ranking struct {
	q   []int8
	n   int
	gen int
	at  int // the next session of the table's order
	top []scored
}

// rank scores the vectors of r's next sessions, at least budget of them
// when there are (a negative budget: all), and says whether every session
// is done. A session started again in place since the ranking began has
// it start again; records appended meanwhile are scored when their session
// is not yet (a session new to the table comes last in its order).
func (t *table) rank(r *ranking, budget int) bool {
	if len(r.q) != t.dims || r.n <= 0 {
		return true
	}
	if r.gen != t.gen {
		r.gen, r.at, r.top = t.gen, 0, r.top[:0]
	}
	for ; r.at < len(t.order) && budget != 0; r.at++ {
		v := t.order[r.at]
		if budget > 0 {
			budget = max(budget-len(v.lines), 0)
		}
		for i, line := range v.lines {
			c := scored{v.file, line, vectors.Dot(r.q, v.flat[i*t.dims:(i+1)*t.dims])}
			if len(r.top) == r.n && !better(c, r.top[r.n-1]) {
				continue
			}
			at := len(r.top)
			for at > 0 && better(c, r.top[at-1]) {
				at--
			}
			if at > 0 && r.top[at-1].file == c.file && r.top[at-1].line == line ||
				at < len(r.top) && r.top[at].file == c.file && r.top[at].line == line {
				continue
			}
			if len(r.top) < r.n {
				r.top = append(r.top, scored{})
			}
			copy(r.top[at+1:], r.top[at:])
			r.top[at] = c
		}
	}
	return r.at == len(t.order)
}

func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.file != b.file {
		return a.file < b.file
	}
	return a.line < b.line
}

// cut is a query's vector cut to dims and of unit length again (dims 0 or
// more than it has: as it is); nil when the cut has no length.
func cut(q []int8, dims int) []int8 {
	if dims <= 0 || dims >= len(q) {
		return q
	}
	v, ok := blend(q, nil, dims)
	if !ok {
		return nil
	}
	return v
}
