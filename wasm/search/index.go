package search

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/redact"
)

// Index is the search index of every source, kept in the module's memory
// from one search to the next. Update rebuilds a source only when its
// stamp changed and drops the sources no longer listed; Search ranks over
// all of them at once. It is derived from the stores' files and never
// written anywhere.
type Index struct {
	parts map[string]*part
	order []*part // as last listed: the order ties fall back to
	docs  int     // entries over every source
	words int     // indexed words over every source

	// Reused by every search (TinyGo frees large blocks reluctantly).
	acc []float32
	cnt []uint8
	hit []int32
	b   builder
}

// part is one source's entries and their inverted index. Its postings are
// kept in blocks of up to blockDocs entries, each block's in one array (a
// term's are post[off[t]:off[t+1]]): a large source is a few large blocks
// rather than a slice per word, and building one needs a buffer of one
// block's words only.
type part struct {
	stamp  string
	docs   []Doc
	lens   []uint16         // indexed words per entry
	terms  map[string]int32 // canonical word → its term id
	blocks []block
	words  int
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

// df is how many entries of p hold term id.
func (p *part) df(id int32) int {
	n := 0
	for i := range p.blocks {
		n += len(p.blocks[i].postings(id))
	}
	return n
}

// Update brings the index up to the sources as they are now: a source whose
// stamp changed is loaded and indexed again, one no longer listed is
// dropped. It returns how many sources were (re)built.
func (x *Index) Update(srcs []Source) int {
	if x.parts == nil {
		x.parts = map[string]*part{}
	}
	built := 0
	next := make(map[string]*part, len(srcs))
	x.order = x.order[:0]
	x.docs, x.words = 0, 0
	for i := range srcs {
		s := &srcs[i]
		p := x.parts[s.Key]
		if p == nil || p.stamp != s.Stamp {
			p = x.b.build(s.Load())
			p.stamp = s.Stamp
			built++
		}
		if _, dup := next[s.Key]; dup {
			continue
		}
		next[s.Key] = p
		x.order = append(x.order, p)
		x.docs += len(p.docs)
		x.words += p.words
	}
	x.parts = next
	return built
}

// Len is the number of entries indexed.
func (x *Index) Len() int { return x.docs }

// builder indexes sources, keeping its buffers from one source to the next.
type builder struct {
	sp    splitter
	seen  map[string]int32 // a word as written → its term in the part being built, -1 for a stop word
	tfs   []uint16         // occurrences of each term in the entry being read
	df    []int32          // entries of the block being built holding each term
	ids   []int32          // the terms of that entry, in order of first appearance
	pairs []uint32         // the block's entries' terms: term<<8 | occurrences
	ends  []int32          // where each entry's pairs end in pairs
}

// build indexes one source's entries, a block at a time: each entry's terms
// and occurrences into a buffer the size of one block's, then the block's
// postings into one array of exactly their number.
func (bd *builder) build(docs []Doc) *part {
	p := &part{docs: docs, lens: make([]uint16, len(docs)), terms: map[string]int32{}}
	bd.seen = map[string]int32{}
	bd.tfs, bd.df = bd.tfs[:0], bd.df[:0]
	for lo := 0; lo < len(docs); lo += blockDocs {
		hi := min(lo+blockDocs, len(docs))
		bd.pairs, bd.ends = bd.pairs[:0], bd.ends[:0]
		for i := lo; i < hi; i++ {
			d := &docs[i]
			hide(d)
			n := 0
			add := func(w string, _, _ int) {
				id := bd.term(p, w)
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
			p.lens[i] = uint16(min(n, 0xFFFF))
			p.words += int(p.lens[i])
			for _, id := range bd.ids {
				bd.pairs = append(bd.pairs, uint32(id)<<8|uint32(bd.tfs[id]))
				bd.df[id]++
				bd.tfs[id] = 0
			}
			bd.ids = bd.ids[:0]
			bd.ends = append(bd.ends, int32(len(bd.pairs)))
		}
		p.blocks = append(p.blocks, bd.block(lo))
	}
	bd.seen = nil
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
	return bl
}

// term is the term a word as written stands for in p, added on its first
// appearance; -1 for a stop word.
func (bd *builder) term(p *part, w string) int32 {
	if id, ok := bd.seen[w]; ok {
		return id
	}
	id := int32(-1)
	if c, keep := canon(w); keep {
		var ok bool
		if id, ok = p.terms[c]; !ok {
			id = int32(len(bd.df))
			p.terms[strings.Clone(c)] = id
			bd.df = append(bd.df, 0)
			bd.tfs = append(bd.tfs, 0)
		}
	}
	bd.seen[strings.Clone(w)] = id
	return id
}
