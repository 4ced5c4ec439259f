package search

import (
	"sort"
	"strconv"
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
	plan    []Source
	at      int              // the next source of plan to visit
	next    map[string]*part // the parts kept or built so far
	order2  []*part          // their order
	used    int              // bytes of the parts of sources read in steps, kept so far
	loading *builder         // a source of plan[at] being indexed (Load)
	cur     reading          // the source read in steps being read
	rb      builder          // its part

	// Reused by every search (TinyGo frees large blocks reluctantly).
	acc []float32
	cnt []uint8
	hit []int32
	b   builder
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
	// entries reached their bound).
	Part int
}

// maxNamed is how many skipped sources Unread names; the rest are counted.
const maxNamed = 3

// Said is what a search's answer says it did not read, "" when nothing:
// the query's words past its first MaxTerms (cut, Query), and the earlier
// sessions skipped (named), left for a later search, or read in part.
//
//	Unread{Later: 120}.Said(true) => "Not searched: the query's words after its first 32 distinct ones; 120 earlier sessions, not read within this search's budget of time and memory (a later search goes on with them)."
//	Unread{Skipped: 1, Big: []string{"~/s/a.jsonl"}}.Said(false) => "Not searched: 1 earlier session, skipped for its size: ~/s/a.jsonl."
func (u Unread) Said(cut bool) string {
	var parts []string
	if cut {
		parts = append(parts, "the query's words after its first "+strconv.Itoa(MaxTerms)+" distinct ones")
	}
	if u.Skipped > 0 {
		said := text.Plural(u.Skipped, "earlier session, skipped for its size", "earlier sessions, skipped for their size")
		if len(u.Big) > 0 {
			said += ": " + strings.Join(u.Big, ", ")
			if more := u.Skipped - len(u.Big); more > 0 {
				said += " and " + strconv.Itoa(more) + " more"
			}
		}
		parts = append(parts, said)
	}
	if u.Later > 0 {
		parts = append(parts, text.Plural(u.Later, "earlier session", "earlier sessions")+", not read within this search's budget of time and memory (a later search goes on with them)")
	}
	if u.Part > 0 {
		parts = append(parts, "the rest of "+text.Plural(u.Part, "long earlier session past its first megabyte", "long earlier sessions past their first megabyte"))
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

// part is one source's entries and their inverted index. Its postings are
// kept in blocks of up to blockDocs entries, each block's in one array (a
// term's are post[off[t]:off[t+1]]): a large source is a few large blocks
// rather than a slice per word, and building one needs a buffer of one
// block's words only.
type part struct {
	stamp  string
	docs   []Doc
	lens   []uint16 // indexed words per entry
	keys   string   // its terms (canonical words), sorted, one after another
	at     []int32  // where each term starts in keys; one more at the end
	ids    []int32  // each term's id
	blocks []block
	words  int
	bytes  int  // what it holds in memory, estimated
	lazy   bool // read in steps (Source.Open)
	cut    bool // read only in part
}

// block is the postings of a run of a part's entries.
type block struct {
	off  []int32  // per term known when the block was built, where its postings start; one more at the end
	post []uint32 // entry (in the part)<<8 | occurrences (at most 255)
}

// blockDocs is how many entries a block holds: few blocks for a large
// source, a small buffer to build each.
const blockDocs = 8192

// postings are the entries of block bl holding term id.
func (bl *block) postings(id int32) []uint32 {
	if int(id)+1 >= len(bl.off) {
		return nil
	}
	return bl.post[bl.off[id]:bl.off[id+1]]
}

// term is the id of canonical word w in p. The terms are one sorted string
// rather than a map: thousands of small parts (sessions) each with a map
// held most of the index.
func (p *part) term(w string) (int32, bool) {
	lo, hi := 0, len(p.ids)
	for lo < hi {
		m := (lo + hi) / 2
		if p.keys[p.at[m]:p.at[m+1]] < w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(p.ids) && p.keys[p.at[lo]:p.at[lo+1]] == w {
		return p.ids[lo], true
	}
	return 0, false
}

// df is how many entries of p hold term id.
func (p *part) df(id int32) int {
	n := 0
	for i := range p.blocks {
		n += len(p.blocks[i].postings(id))
	}
	return n
}

// Update brings the index up to the sources as they are now, in one go:
// Plan, then Build with no bound. It returns how many sources were
// (re)built.
func (x *Index) Update(srcs []Source) int {
	x.Plan(srcs)
	built := 0
	for _, s := range srcs {
		if p := x.parts[s.Key]; p == nil || s.Stat == nil && p.stamp != s.Stamp {
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
	x.next = make(map[string]*part, len(srcs))
	x.order2 = make([]*part, 0, len(srcs))
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
		} else if old != nil && old.stamp == s.Stamp {
			x.keep(s.Key, old)
		} else {
			x.loading = &x.b
			x.b.start(s.Stamp, s.Load())
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
		case old != nil && old.stamp == stamp:
			keep = true
		case mine && r.stamp == stamp:
			r.checked = true
		case x.MaxBytes > 0 && x.used >= x.MaxBytes:
			x.Unread.Later++
			return true
		default:
			*r = reading{key: s.Key, stamp: stamp, step: s.Open(s.Key), checked: true}
			x.rb.start(stamp, nil)
			x.rb.p.lazy = true
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
		n, done, cut := r.step(readStep, func(d Doc) { bd.p.docs = append(bd.p.docs, d) })
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
	key, stamp string
	step       Step
	done       bool
	checked    bool // its stamp was looked at in this update
}

// keep puts p in the update's new order.
func (x *Index) keep(key string, p *part) {
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
	x.parts, x.order = x.next, x.order2
	x.next, x.order2, x.plan = nil, nil, nil
	x.docs, x.words = 0, 0
	for _, p := range x.order {
		x.docs += len(p.docs)
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
// from one source to the next.
type builder struct {
	p     *part
	next  int // the next entry of p.docs to index
	lo    int // the first entry of the block being built
	sp    splitter
	canon map[string]string // a word as written → its canonical form, "" for a stop word
	local map[string]int32  // a canonical word → its term in the part being built
	words []string          // the part's terms, to sort
	tfs   []uint16          // occurrences of each term in the entry being read
	df    []int32           // entries of the block being built holding each term
	ids   []int32           // the terms of that entry, in order of first appearance
	pairs []uint32          // the block's entries' terms: term<<8 | occurrences
	ends  []int32           // where each entry's pairs end in pairs
	text  int               // bytes of the entries' text
}

// start begins a part of the given entries (more may be appended to
// p.docs before index).
func (bd *builder) start(stamp string, docs []Doc) {
	bd.p = &part{stamp: stamp, docs: docs, lens: make([]uint16, 0, len(docs))}
	bd.next, bd.lo, bd.text = 0, 0, 0
	if bd.local == nil {
		bd.local, bd.canon = map[string]int32{}, map[string]string{}
	}
	clear(bd.local)
	bd.tfs, bd.df, bd.pairs, bd.ends = bd.tfs[:0], bd.df[:0], bd.pairs[:0], bd.ends[:0]
}

// index indexes the entries of the part not indexed yet, a block's
// postings laid out whenever it is full; false when work ended the slice
// first.
func (bd *builder) index(work Work) bool {
	p := bd.p
	for bd.next < len(p.docs) {
		i := bd.next
		d := &p.docs[i]
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
		p.lens = append(p.lens, uint16(min(n, 0xFFFF)))
		p.words += int(p.lens[i])
		for _, id := range bd.ids {
			bd.pairs = append(bd.pairs, uint32(id)<<8|uint32(bd.tfs[id]))
			bd.df[id]++
			bd.tfs[id] = 0
		}
		bd.ids = bd.ids[:0]
		bd.ends = append(bd.ends, int32(len(bd.pairs)))
		size := len(d.Ref) + len(d.Cite) + len(d.Mark) + len(d.Title) + len(d.Text) + len(d.Extra)
		bd.text += size
		bd.next++
		if bd.next-bd.lo == blockDocs {
			p.blocks = append(p.blocks, bd.block(bd.lo))
			bd.lo = bd.next
		}
		if !work.spend(size + 64) {
			return false
		}
	}
	return true
}

// finish lays out the last block and returns the part built.
func (bd *builder) finish() *part {
	p := bd.p
	if bd.next > bd.lo || len(p.blocks) == 0 {
		p.blocks = append(p.blocks, bd.block(bd.lo))
	}
	// What the part holds: its entries (their strings and the Doc itself),
	// their lengths, the postings and the terms.
	posts := 0
	for _, bl := range p.blocks {
		posts += len(bl.post) + len(bl.off)
	}
	// The terms, sorted, in one string.
	bd.words = bd.words[:0]
	size := 0
	for w := range bd.local {
		bd.words = append(bd.words, w)
		size += len(w)
	}
	sort.Strings(bd.words)
	keys := make([]byte, 0, size)
	p.at, p.ids = make([]int32, len(bd.words)+1), make([]int32, len(bd.words))
	for i, w := range bd.words {
		p.at[i], p.ids[i] = int32(len(keys)), bd.local[w]
		keys = append(keys, w...)
	}
	p.at[len(bd.words)] = int32(len(keys))
	p.keys = unsafe.String(unsafe.SliceData(keys), len(keys))
	p.bytes = bd.text + 80*len(p.docs) + 4*posts + 8*len(p.ids) + len(keys) + 256
	bd.p = nil
	clear(bd.local)
	return p
}

// hide redacts an entry before it is indexed: what redaction removes is
// neither found nor quoted, so a search for a secret's value (a guess to
// confirm) finds nothing, whichever store the entry came from.
func hide(d *Doc) {
	for _, s := range [...]*string{&d.Title, &d.Text, &d.Extra} {
		if redact.Contains(*s) {
			*s, _ = redact.String(*s)
		}
	}
}

// block lays out the postings of the entries from lo whose pairs the
// builder holds, and clears the counts for the next block.
func (bd *builder) block(lo int) block {
	terms := len(bd.df)
	bl := block{off: make([]int32, terms+1), post: make([]uint32, len(bd.pairs))}
	for t, n := range bd.df {
		bl.off[t+1] = bl.off[t] + n
	}
	next := bd.df // reused: where the next posting of each term goes
	copy(next, bl.off[:terms])
	start := int32(0)
	for k, end := range bd.ends {
		for _, v := range bd.pairs[start:end] {
			t := v >> 8
			bl.post[next[t]] = uint32(lo+k)<<8 | v&0xFF
			next[t]++
		}
		start = end
	}
	clear(bd.df)
	bd.pairs, bd.ends = bd.pairs[:0], bd.ends[:0]
	return bl
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
// (each part's words are looked up again after it).
const maxCanon = 1 << 16
