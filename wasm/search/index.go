package search

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"math"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// Index is the search index of every source, kept in the module's memory
// from one search to the next. An update (Plan, then Build until it is
// done) rebuilds a source only when its stamp changed and drops the sources
// no longer listed; Search ranks over all of them at once. It is derived
// from the stores' files and never written anywhere.
//
// An update is done in steps: Build stops whenever its Work says the slice
// is spent and goes on where it stopped at its next call, so a host with an
// event loop gets it back between slices (decision 018). Sources read in
// steps (Source.Open: earlier sessions, which may be many or large) are
// read while the search's budget lasts and within MaxBytes; the others (the
// curated memory of the stores) are always read.
type Index struct {
	parts map[string]*part
	order []*part // as last listed: the order ties fall back to
	docs  int     // entries over every source
	words int     // indexed words over every source
	gen   int     // changes whenever order does: a ranking begun before starts again

	// MaxBytes bounds what the sources read in steps hold in the index,
	// summed in their listed order (an estimate of their memory): those past
	// it are not read, and parts of them read earlier are dropped. 0: no
	// bound.
	MaxBytes int
	// Unread is what the last update did not read (Build's answer).
	Unread Unread
	// Read counts the work of reading and indexing sources read in steps,
	// over the index's life: a search's budget is spent on reading, not on
	// looking at the files it read before.
	Read int

	// The update in progress.
	plan   []Source
	at     int              // the next source of plan to visit
	next   map[string]*part // the parts kept or built so far
	order2 []*part          // their order
	// The map and the order an update before left, for the next (Plan).
	spare      map[string]*part
	spareOrder []*part
	used       int      // bytes of the parts of sources read in steps, kept so far
	loading    *builder // a source of plan[at] being indexed (Load)
	cur        reading  // the source read in steps being read
	rb         builder  // its part

	// Reused by every search (TinyGo frees large blocks reluctantly).
	acc []float32
	has []uint32 // the terms each entry holds, a bit each
	hit []int32
	// Each part's id of each of the query's terms (-1: none), found once by
	// the ranking idsOf: two searches may go on in turns (parallel tool
	// calls), and one that lost them looks its terms up again.
	ids   []int32
	idsOf *Ranking
	b     builder
}

// Unread is what an update did not read.
type Unread struct {
	// Skipped sources were not to be read at all (Source.Stat: an earlier
	// session over the size a search reads); Big names the first few
	// (maxNamed), by their Key.
	Skipped int
	Big     []string
	// Later sources were not read, or not read again since they changed,
	// within the search's budget of time or memory; a later search goes on.
	Later int
	// Part sources were read only in part (Step's cut: a session whose
	// entries reached their bound, or with a line too long to read).
	Part int
	// Once: the index ends with this search (a pimem command), so no later
	// search goes on with what it did not read.
	Once bool
	// Failed are the memory files that are there but could not be read
	// (Unreadable), named by their cite: the first maxNamed, then counted.
	Failed   []string
	Failures int
}

// maxNamed is how many skipped sources Unread names; the rest are counted.
const maxNamed = 3

// Said is what a search's answer says it did not read, "" when nothing:
// the query's words past its first MaxTerms (cut, Query), and the earlier
// sessions skipped (named), left for a later search, or read in part.
//
//	Unread{Later: 120}.Said(true) => "Not searched: the query's words after its first 32 distinct ones or its first 1,000 bytes; 120 earlier sessions, not read within this search's budget of time and memory (a later search goes on with them)."
//	Unread{Skipped: 1, Big: []string{"~/s/a.jsonl"}}.Said(false) => "Not searched: 1 earlier session, skipped for its size: ~/s/a.jsonl."
func (u Unread) Said(cut bool) string {
	var parts []string
	if cut {
		// Bounded cuts at either bound (h-v93 a7: a 60 KB query of 8 words was
		// told its 32nd word was where it stopped).
		parts = append(parts, "the query's words after its first "+numstr.Itoa(MaxTerms)+" distinct ones or its first 1,000 bytes")
	}
	if u.Skipped > 0 {
		said := text.Plural(u.Skipped, "earlier session, skipped for its size", "earlier sessions, skipped for their size")
		if len(u.Big) > 0 {
			said += ": " + strings.Join(u.Big, ", ")
			if more := u.Skipped - len(u.Big); more > 0 {
				said += " and " + numstr.Itoa(more) + " more"
			}
		}
		parts = append(parts, said)
	}
	if u.Later > 0 {
		later := " (a later search goes on with them)"
		if u.Once {
			later = " (each pimem command starts again from the newest; in pi or pimem mcp a later search goes on with them)"
		}
		parts = append(parts, text.Plural(u.Later, "earlier session", "earlier sessions")+", not read within this search's budget of time and memory"+later)
	}
	if u.Part > 0 {
		parts = append(parts, "the rest of "+text.Plural(u.Part, "long earlier session past its first megabyte, or a message in it too long to read", "long earlier sessions past their first megabyte, or messages in them too long to read"))
	}
	if u.Failures > 0 {
		said := text.Plural(u.Failures, "memory file that could not be read", "memory files that could not be read") + " (do not take what it holds for absent): " + strings.Join(u.Failed, ", ")
		if more := u.Failures - len(u.Failed); more > 0 {
			said += " and " + numstr.Itoa(more) + " more"
		}
		parts = append(parts, said)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Not searched: " + strings.Join(parts, "; ") + "."
}

// Work is told the units of work just done (bytes read or indexed, files
// looked at, entries scored) and says whether to go on: false ends the
// slice, and the caller comes back later. nil never ends it.
type Work func(units int) bool

func (w Work) spend(units int) bool { return w == nil || w(units) }

// The work units of what is not bytes: looking at a file (a stat), keeping
// a part as it was, scoring a part.
const (
	statUnits = 1024
	keepUnits = 16
)

// part is one source's entries and their inverted index, in three
// allocations whatever the number of entries: the part, blob with the
// strings (the stamp, every entry's, then the terms) and nums with the
// numbers (every entry's, the terms' starts and ids, the postings, where
// each block of postings is). TinyGo's collector marks every object on each
// collection (decision 003): with 20,000 earlier sessions in the index, a
// Doc of six strings per entry and a slice per term were 342,000 objects;
// now 142,000 (decision 018).
//
// Its postings are kept in blocks of up to blockDocs entries, each block's
// in one run of nums (a term's are post[off[t]:off[t+1]]): a large source
// is a few large blocks rather than a slice per word, and building one
// needs a buffer of one block's words only.
type part struct {
	key    string   // the source's Key (the Source's own string, not a copy)
	blob   string   // the stamp, every entry's strings, then the terms, one after another
	nums   []uint32 // every entry's docWords numbers, the terms' starts and ids, the blocks' postings, then where each block is
	blocks int32    // blocks of postings; where each is: three numbers at the end of nums (block)
	stamp  int32    // the stamp is blob[:stamp] (a source Load gives)
	stat   uint64   // the stamp of a source read in steps (Source.Stat)
	docs   int32    // entries
	terms  int32    // distinct terms
	keys   int32    // where the terms start in blob
	at     int32    // where the terms' starts in blob (terms+1) are in nums, then their ids (terms)
	words  int
	bytes  int // what it holds in memory, estimated
	// lens are the entries' indexed words, one after another: ranking
	// reads one for every posting, and apart from the rest of an entry's
	// numbers they share a cache line with their neighbours'.
	lens   []uint16
	talk   bool   // it holds messages of earlier sessions
	lazy   bool   // read in steps (Source.Open)
	cut    bool   // read only in part
	failed string // the cite of a source that could not be read (Unreadable)
}

// An entry's numbers in nums, docWords of them: its kind and flags, its
// time (two words), its status weight (float32 bits),
// and where each of its strings ends in blob (Ref, Cite, Mark, Title, Text,
// Extra); the first starts where the entry before ended.
const (
	dFlags = iota
	dTimeLo
	dTimeHi
	dWeight
	dEnds
	docWords = dEnds + nStrings
	nStrings = 6
)

// The flags of an entry, beside its kind (the low byte).
const (
	flagGone   = 1 << 8
	flagRefKey = 1 << 9 // its Ref is the part's key and then the string kept
)

// block is where the postings of a run of a part's entries are in nums:
// terms+1 offsets from off (one per term known when the block was built,
// one more at the end), each relative to post.
type block struct{ off, post, terms int32 }

// blockDocs is how many entries a block holds: few blocks for a large
// source, a small buffer to build each.
const blockDocs = 8192

// block is where block i of p's postings is.
func (p *part) block(i int32) block {
	at := int32(len(p.nums)) - 3*(p.blocks-i)
	return block{off: int32(p.nums[at]), post: int32(p.nums[at+1]), terms: int32(p.nums[at+2])}
}

// stampOf is the stamp the part was built at.
func (p *part) stampOf() string { return p.blob[:p.stamp] }

// postings are the entries of block bl holding term id: entry (in the
// part)<<8 | occurrences (at most 255).
func (p *part) postings(bl *block, id int32) []uint32 {
	if id >= bl.terms {
		return nil
	}
	o := bl.off + id
	return p.nums[bl.post+int32(p.nums[o]) : bl.post+int32(p.nums[o+1])]
}

// term is the id of canonical word w in p. The terms are one sorted string
// rather than a map: thousands of small parts (sessions) each with a map
// held most of the index.
func (p *part) term(w string) (int32, bool) {
	at := p.nums[p.at : p.at+p.terms+1]
	keys := p.blob[p.keys:]
	lo, hi := 0, int(p.terms)
	for lo < hi {
		m := (lo + hi) / 2
		if keys[at[m]:at[m+1]] < w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < int(p.terms) && keys[at[lo]:at[lo+1]] == w {
		return int32(p.nums[p.at+p.terms+1+int32(lo)]), true
	}
	return 0, false
}

// df is how many entries of p hold term id.
func (p *part) df(id int32) int {
	n := 0
	for i := range p.blocks {
		bl := p.block(i)
		n += len(p.postings(&bl, id))
	}
	return n
}

// meta is entry d's numbers.
func (p *part) meta(d int32) []uint32 { return p.nums[d*docWords : (d+1)*docWords] }

// kind, gone, time, weight and length of entry d, read without making its Doc.
func (p *part) kind(d int32) Kind     { return Kind(p.nums[d*docWords+dFlags] & 0xFF) }
func (p *part) gone(d int32) bool     { return p.nums[d*docWords+dFlags]&flagGone != 0 }
func (p *part) length(d int32) uint32 { return uint32(p.lens[d]) }
func (p *part) time(d int32) int64 {
	m := p.meta(d)
	return int64(uint64(m[dTimeHi])<<32 | uint64(m[dTimeLo]))
}
func (p *part) weight(d int32) float64 {
	return float64(math.Float32frombits(p.nums[d*docWords+dWeight]))
}

// str is entry d's string k (0 Ref, 1 Cite, 2 Mark, 3 Title, 4 Text, 5
// Extra) as kept in blob: a view, not a copy (the Ref without the part's
// key when the entry's flags say so).
func (p *part) str(d int32, k int) string {
	from := p.stamp
	if k > 0 {
		from = int32(p.nums[d*docWords+dEnds+int32(k)-1])
	} else if d > 0 {
		from = int32(p.nums[(d-1)*docWords+dEnds+nStrings-1])
	}
	return p.blob[from:p.nums[d*docWords+dEnds+int32(k)]]
}

// text is what entry d shows: its Text, else its Title (a view).
func (p *part) text(d int32) string {
	if t := p.str(d, 4); t != "" {
		return t
	}
	return p.str(d, 3)
}

// refLess orders entries a of p and b of q by their Ref, without making it.
func refLess(p *part, a int32, q *part, b int32) bool {
	ra, rb := p.str(a, 0), q.str(b, 0)
	ka, kb := "", ""
	if p.nums[a*docWords+dFlags]&flagRefKey != 0 {
		ka = p.key
	}
	if q.nums[b*docWords+dFlags]&flagRefKey != 0 {
		kb = q.key
	}
	if ka != kb {
		// Compare ka+ra with kb+rb byte by byte.
		n := min(len(ka)+len(ra), len(kb)+len(rb))
		at := func(k, r string, i int) byte {
			if i < len(k) {
				return k[i]
			}
			return r[i-len(k)]
		}
		for i := 0; i < n; i++ {
			if x, y := at(ka, ra, i), at(kb, rb, i); x != y {
				return x < y
			}
		}
		return len(ka)+len(ra) < len(kb)+len(rb)
	}
	return ra < rb
}

// doc is entry d as a Doc of its own strings (copies: a hit outlives no
// blob, and holds no pointer into the middle of one).
func (p *part) doc(d int32) Doc {
	m := p.meta(d)
	doc := Doc{
		Kind:  Kind(m[dFlags] & 0xFF),
		Ref:   strings.Clone(p.str(d, 0)),
		Cite:  strings.Clone(p.str(d, 1)),
		Mark:  strings.Clone(p.str(d, 2)),
		Title: strings.Clone(p.str(d, 3)),
		Text:  strings.Clone(p.str(d, 4)),
		Extra: strings.Clone(p.str(d, 5)),
		Time:  p.time(d),
		Gone:  m[dFlags]&flagGone != 0,
	}
	if m[dFlags]&flagRefKey != 0 {
		doc.Ref = p.key + doc.Ref
	}
	return doc
}

// Update brings the index up to the sources as they are now, in one go:
// Plan, then Build with no bound. It returns how many sources were
// (re)built.
func (x *Index) Update(srcs []Source) int {
	x.Plan(srcs)
	built := 0
	for _, s := range srcs {
		if p := x.parts[s.Key]; p == nil || s.Stat == nil && p.stampOf() != s.Stamp {
			built++
		}
	}
	x.Build(nil, false)
	return built
}

// Plan starts an update to the sources as they are listed now (without
// reading them: a source read in steps is looked at only when Build comes
// to it). An update in progress is dropped; what it built is kept.
func (x *Index) Plan(srcs []Source) {
	if x.parts == nil {
		x.parts = map[string]*part{}
	}
	x.plan, x.at = srcs, 0
	// The maps and the order of the update before are reused: a search of
	// 20,000 sources that reads nothing new allocates nothing for them.
	if x.next == nil {
		x.next, x.order2, x.spare, x.spareOrder = x.spare, x.spareOrder, nil, nil
	}
	if x.next == nil {
		x.next = make(map[string]*part, len(srcs))
	}
	clear(x.next)
	clear(x.order2[:cap(x.order2)])
	if x.order2 = x.order2[:0]; cap(x.order2) < len(srcs) {
		x.order2 = make([]*part, 0, len(srcs))
	}
	x.used, x.loading, x.Unread = 0, nil, Unread{}
}

// Build goes on with the update Plan started, source by source in their
// order, until work ends the slice (false: call again) or every source is
// visited (true: the index is up to date). late says the search's budget
// is spent: what must be read is still read (a source Load gives), but no
// source read in steps is started or gone on with, nor looked at again (a
// part of it read before is kept as it is).
func (x *Index) Build(work Work, late bool) bool {
	if x.next == nil {
		return true // no update in progress: another search finished it
	}
	for x.at < len(x.plan) {
		s := &x.plan[x.at]
		if bd := x.loading; bd != nil {
			if !bd.index(work) {
				return false
			}
			x.loading = nil
			x.keep(s.Key, bd.finish())
			x.at++
			continue
		}
		old := x.parts[s.Key]
		if _, dup := x.next[s.Key]; dup {
			x.at++
			continue
		}
		done := true
		if s.Open != nil {
			done = x.visit(s, old, work, late)
		} else if old != nil && old.stampOf() == s.Stamp {
			x.keep(s.Key, old)
		} else {
			x.loading = &x.b
			x.b.start(s.Key, s.Stamp, s.Load())
			done = false
		}
		if done {
			x.at++
		}
		if !work.spend(keepUnits) {
			return false
		}
	}
	x.finish()
	return true
}

// visit brings one source read in steps up to date; false when it is not
// done yet (work ended the slice in the middle of reading it). One source
// is read at a time: a large one paused when the search's budget ran out is
// gone on with by the next search, unless another needs reading first.
func (x *Index) visit(s *Source, old *part, work Work, late bool) bool {
	r := &x.cur
	mine := r.key == s.Key && r.step != nil
	keep := late // the part read before is kept as it is
	if !late && !(mine && r.checked) {
		stamp, skip := s.Stat(s.Key)
		work.spend(statUnits)
		switch {
		case skip:
			if x.Unread.Skipped++; len(x.Unread.Big) < maxNamed {
				x.Unread.Big = append(x.Unread.Big, s.Key)
			}
			return true
		case old != nil && old.stat == stamp:
			keep = true
		case mine && r.stamp == stamp:
			r.checked = true
		case x.MaxBytes > 0 && x.used >= x.MaxBytes:
			x.Unread.Later++
			return true
		default:
			*r = reading{key: s.Key, stamp: stamp, step: s.Open(s.Key), checked: true}
			x.rb.start(s.Key, "", nil)
			x.rb.p.lazy, x.rb.p.stat = true, stamp
		}
	}
	if keep {
		if mine && late {
			r.checked = true // kept for the next search, which goes on with it
		}
		if old != nil && (x.MaxBytes == 0 || x.used+old.bytes <= x.MaxBytes) {
			x.keep(s.Key, old)
		} else {
			x.Unread.Later++
		}
		return true
	}
	bd := &x.rb
	for {
		text := bd.text
		ok := bd.index(work)
		x.Read += bd.text - text
		if !ok {
			return false
		}
		if r.done {
			break
		}
		n, done, cut := r.step(readStep, func(d Doc) { bd.docs = append(bd.docs, d) })
		r.done, bd.p.cut = done, cut
		x.Read += n
		if !work.spend(n) {
			return false
		}
	}
	*r = reading{}
	x.keep(s.Key, bd.finish())
	return true
}

// readStep is how many bytes a step of a source read in steps reads at a
// time, between looks at the slice's work.
const readStep = 256 << 10

// reading is the source being read in steps (its part in Index.rb), kept
// from one slice, and one update, to the next while it is listed with the
// same stamp.
type reading struct {
	key     string
	stamp   uint64
	step    Step
	done    bool
	checked bool // its stamp was looked at in this update
}

// keep puts p in the update's new order.
func (x *Index) keep(key string, p *part) {
	if p.failed != "" {
		if x.Unread.Failures++; len(x.Unread.Failed) < maxNamed {
			x.Unread.Failed = append(x.Unread.Failed, p.failed)
		}
	}
	if p.lazy {
		x.used += p.bytes
		if p.cut {
			x.Unread.Part++
		}
	}
	x.next[key] = p
	x.order2 = append(x.order2, p)
}

// finish makes the update's parts the index's: the sources not listed are
// dropped, and so is the reading of a source not looked at.
func (x *Index) finish() {
	old, oldOrder := x.parts, x.order
	x.parts, x.order = x.next, x.order2
	clear(old) // what it held that is not kept goes now
	clear(oldOrder)
	x.spare, x.spareOrder = old, oldOrder[:0]
	x.next, x.order2, x.plan = nil, nil, nil
	x.docs, x.words = 0, 0
	for _, p := range x.order {
		x.docs += int(p.docs)
		x.words += p.words
	}
	if !x.cur.checked {
		x.cur = reading{} // no longer listed, or changed
	}
	x.cur.checked = false
	x.gen++
}

// Held is what the sources read in steps hold in the index, estimated: at
// most MaxBytes and one source more.
func (x *Index) Held() int { return x.used }

// Len is the number of entries indexed.
func (x *Index) Len() int { return x.docs }

// builder indexes one source's entries as they come, keeping its buffers
// from one source to the next: a part is laid out in them, then copied
// once into allocations of its own size.
type builder struct {
	p     *part
	docs  []Doc // the entries given (more may be appended before index)
	next  int   // the next entry of docs to index
	lo    int   // the first entry of the block being built
	sp    splitter
	canon map[string]string // a word as written → its canonical form, "" for a stop word
	local map[string]int32  // a canonical word → its term in the part being built
	words []string          // the part's terms, to sort
	tfs   []uint16          // occurrences of each term in the entry being read
	df    []int32           // entries of the block being built holding each term
	ids   []int32           // the terms of that entry, in order of first appearance
	pairs []uint32          // the block's entries' terms: term<<8 | occurrences
	ends  []int32           // where each entry's pairs end in pairs
	lens  []uint16          // the part's entries' indexed words (part.lens)
	text  int               // bytes of the entries' text
	// The part being laid out: its strings, its entries' numbers, its
	// blocks' offsets and postings (block.off and post relative to posts).
	blob   []byte
	meta   []uint32
	posts  []uint32
	blocks []block
}

// start begins the part of source key, at stamp, of the given entries
// (more may be appended to bd.docs before index).
func (bd *builder) start(key, stamp string, docs []Doc) {
	bd.p = &part{key: key}
	if len(docs) == 1 && docs[0].Kind == 0 {
		bd.p.failed, docs = docs[0].Cite, nil
	}
	bd.docs, bd.next, bd.lo, bd.text = docs, 0, 0, 0
	if bd.local == nil {
		bd.local, bd.canon = map[string]int32{}, map[string]string{}
	}
	clear(bd.local)
	bd.tfs, bd.df, bd.pairs, bd.ends, bd.lens = bd.tfs[:0], bd.df[:0], bd.pairs[:0], bd.ends[:0], bd.lens[:0]
	// Entries given at once (a source Load gives: the decision log's may be
	// 100,000) are laid out in buffers of their size, not grown by doubling.
	size := len(stamp)
	for i := range docs {
		d := &docs[i]
		size += len(d.Ref) + len(d.Cite) + len(d.Mark) + len(d.Title) + len(d.Text) + len(d.Extra)
	}
	if cap(bd.blob) < size {
		bd.blob = make([]byte, 0, size+size/16)
	}
	if n := len(docs) * docWords; cap(bd.meta) < n {
		bd.meta = make([]uint32, 0, n+n/16)
	}
	bd.blob, bd.meta, bd.posts, bd.blocks = append(bd.blob[:0], stamp...), bd.meta[:0], bd.posts[:0], bd.blocks[:0]
	bd.p.stamp = int32(len(stamp))
}

// keepBuffers is the most a builder keeps of its buffers from one part to
// the next: enough for thousands of earlier sessions, not a second copy of
// a large source's part.
const keepBuffers = 1 << 20

// index indexes the entries of the part not indexed yet, a block's
// postings laid out whenever it is full; false when work ended the slice
// first.
func (bd *builder) index(work Work) bool {
	p := bd.p
	for bd.next < len(bd.docs) {
		d := &bd.docs[bd.next]
		hide(d)
		n := 0
		add := func(w string, _, _ int) {
			id := bd.term(w)
			if id < 0 {
				return
			}
			n++
			if bd.tfs[id] == 0 {
				bd.ids = append(bd.ids, id)
			}
			if bd.tfs[id] < 255 {
				bd.tfs[id]++
			}
		}
		bd.sp.raw(d.Title, add)
		bd.sp.raw(d.Text, add)
		bd.sp.raw(d.Extra, add)
		p.words += min(n, 0xFFFF)
		for _, id := range bd.ids {
			bd.pairs = append(bd.pairs, uint32(id)<<8|uint32(bd.tfs[id]))
			bd.df[id]++
			bd.tfs[id] = 0
		}
		bd.ids = bd.ids[:0]
		bd.ends = append(bd.ends, int32(len(bd.pairs)))
		size := len(d.Ref) + len(d.Cite) + len(d.Mark) + len(d.Title) + len(d.Text) + len(d.Extra)
		bd.text += size
		bd.keep(d, n)
		bd.docs[bd.next] = Doc{} // its strings are the blob's now
		bd.next++
		if bd.next-bd.lo == blockDocs {
			bd.block(bd.lo)
			bd.lo = bd.next
		}
		if !work.spend(size + 64) {
			return false
		}
	}
	return true
}

// keep lays out entry d, of n indexed words, in the part's blob and meta.
func (bd *builder) keep(d *Doc, n int) {
	flags := uint32(d.Kind) & 0xFF
	if d.Gone {
		flags |= flagGone
	}
	ref := d.Ref
	if key := bd.p.key; key != "" && len(ref) > len(key) && ref[:len(key)] == key {
		ref, flags = ref[len(key):], flags|flagRefKey
	}
	t := uint64(d.Time)
	bd.meta = append(bd.meta, flags, uint32(t), uint32(t>>32), math.Float32bits(float32(markWeight(d.Mark))))
	bd.lens = append(bd.lens, uint16(min(n, 0xFFFF)))
	bd.p.talk = bd.p.talk || d.Kind == Message
	for _, str := range [nStrings]string{ref, d.Cite, d.Mark, d.Title, d.Text, d.Extra} {
		bd.blob = append(bd.blob, str...)
		bd.meta = append(bd.meta, uint32(len(bd.blob)))
	}
}

// finish lays out the last block and the terms, and returns the part
// built, in allocations of its own size.
func (bd *builder) finish() *part {
	p := bd.p
	if bd.next > bd.lo || len(bd.blocks) == 0 {
		bd.block(bd.lo)
	}
	p.docs = int32(bd.next)
	// The terms, sorted, one after another after the entries' strings.
	bd.words = bd.words[:0]
	for w := range bd.local {
		bd.words = append(bd.words, w)
	}
	sort.Strings(bd.words)
	p.keys, p.terms = int32(len(bd.blob)), int32(len(bd.words))
	p.at = int32(len(bd.meta))
	for _, w := range bd.words {
		bd.meta = append(bd.meta, uint32(len(bd.blob))-uint32(p.keys))
		bd.blob = append(bd.blob, w...)
	}
	bd.meta = append(bd.meta, uint32(len(bd.blob))-uint32(p.keys))
	for _, w := range bd.words {
		bd.meta = append(bd.meta, uint32(bd.local[w]))
	}
	base := uint32(len(bd.meta))
	for _, bl := range bd.blocks {
		bd.posts = append(bd.posts, uint32(bl.off)+base, uint32(bl.post)+base, uint32(bl.terms))
	}
	p.blocks = int32(len(bd.blocks))
	// A large part takes the builder's buffer when it is near its size
	// (laid out at the size of its entries, start): no second copy of the
	// decision log's strings at once.
	blob := bd.blob
	if len(blob) <= keepBuffers || cap(blob)-len(blob) > len(blob)/8 {
		blob = make([]byte, len(bd.blob))
		copy(blob, bd.blob)
	} else {
		bd.blob = nil
	}
	p.blob = unsafe.String(unsafe.SliceData(blob), len(blob))
	if n := len(bd.meta) + len(bd.posts); cap(bd.meta) >= n && len(bd.meta) > keepBuffers/4 && cap(bd.meta)-n <= n/8 {
		p.nums, bd.meta = append(bd.meta, bd.posts...), nil
	} else {
		p.nums = make([]uint32, n)
		copy(p.nums[copy(p.nums, bd.meta):], bd.posts)
	}
	p.lens = slices.Clone(bd.lens)
	// What the part holds: its strings, its numbers, and the part itself.
	p.bytes = len(p.blob) + 4*len(p.nums) + 2*len(p.lens) + 128
	bd.p, bd.docs = nil, nil
	clear(bd.local)
	if cap(bd.blob) > keepBuffers || 4*cap(bd.meta) > keepBuffers || 4*cap(bd.posts) > keepBuffers {
		bd.blob, bd.meta, bd.posts, bd.lens = nil, nil, nil, nil
	}
	if len(bd.words) > keepBuffers/64 || len(bd.canon) > keepBuffers/64 {
		bd.local, bd.canon, bd.words = nil, nil, nil // a map keeps its size once cleared
	}
	return p
}

// hide redacts an entry before it is indexed: what redaction removes is
// neither found nor quoted, so a search for a secret's value (a guess to
// confirm) finds nothing, whichever store the entry came from. Its mark too:
// a decision's names another by the id its log holds.
func hide(d *Doc) {
	for _, s := range [...]*string{&d.Title, &d.Text, &d.Extra, &d.Mark} {
		if redact.Contains(*s) {
			*s, _ = redact.String(*s)
		}
	}
}

// block lays out the postings of the entries from lo whose pairs the
// builder holds, and clears the counts for the next block.
func (bd *builder) block(lo int) {
	terms := int32(len(bd.df))
	bl := block{off: int32(len(bd.posts)), post: int32(len(bd.posts)) + terms + 1, terms: terms}
	n := len(bd.posts) + int(terms) + 1 + len(bd.pairs)
	if cap(bd.posts) < n {
		bd.posts = append(make([]uint32, 0, 2*n), bd.posts...)
	}
	bd.posts = bd.posts[:n]
	clear(bd.posts[bl.off:])
	off, post := bd.posts[bl.off:bl.post], bd.posts[bl.post:]
	for t, n := range bd.df {
		off[t+1] = off[t] + uint32(n)
	}
	next := bd.df // reused: where the next posting of each term goes
	for t := range next {
		next[t] = int32(off[t])
	}
	start := int32(0)
	for k, end := range bd.ends {
		for _, v := range bd.pairs[start:end] {
			t := v >> 8
			post[next[t]] = uint32(lo+k)<<8 | v&0xFF
			next[t]++
		}
		start = end
	}
	clear(bd.df)
	bd.pairs, bd.ends = bd.pairs[:0], bd.ends[:0]
	bd.blocks = append(bd.blocks, bl)
}

// term is the term a word as written stands for in the part being built,
// added on its first appearance; -1 for a stop word.
func (bd *builder) term(w string) int32 {
	c, ok := bd.canon[w]
	if !ok {
		if len(bd.canon) >= maxCanon {
			clear(bd.canon)
		}
		if cw, keep := canon(w); keep {
			c = strings.Clone(cw)
		}
		bd.canon[strings.Clone(w)] = c
	}
	if c == "" {
		return -1
	}
	id, ok := bd.local[c]
	if !ok {
		id = int32(len(bd.df))
		bd.local[c] = id
		bd.df = append(bd.df, 0)
		bd.tfs = append(bd.tfs, 0)
	}
	return id
}

// maxCanon bounds the words a builder remembers the canonical form of
// (each part's words are looked up again after it). The map is one of
// strings, which TinyGo's collector marks entry by entry (decision 003):
// at 65,536 entries, earlier sessions of many distinct words (ids,
// hashes) grew the module's memory to 512 MiB and held a core call for a
// second; at 4,096 they take 64 MiB and 50 ms.
const maxCanon = 1 << 12
