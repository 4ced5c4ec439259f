package search

import "strings"

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

// part is one source's entries and their inverted index, its postings in
// one array (a term's are post[off[t]:off[t+1]]), so a large source is a few
// large blocks rather than a slice per word.
type part struct {
	stamp string
	docs  []Doc
	lens  []uint16         // indexed words per entry
	terms map[string]int32 // canonical word → its postings
	off   []int32          // per term, where its postings start in post; one more at the end
	post  []uint32         // entry<<8 | occurrences (at most 255)
	words int
}

// postings are the entries holding term id.
func (p *part) postings(id int32) []uint32 { return p.post[p.off[id]:p.off[id+1]] }

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
	sp   splitter
	seen map[string]int32 // a word as written → its term in the part being built, -1 for a stop word
	last []int32          // per term, the last entry counted (pass 1), then where its next posting goes (pass 2)
	tfs  []uint16         // occurrences of each term in the entry being read
	ids  []int32          // the terms of that entry, in order of first appearance
}

// build indexes one source's entries in two passes over their words: the
// first counts each term's entries, the second writes the postings into one
// array of exactly that size. Reading the words twice costs less than a
// temporary array of every entry's terms, which under TinyGo would grow the
// heap for good (docs/decisions/003-tinygo-heap.md).
func (bd *builder) build(docs []Doc) *part {
	p := &part{docs: docs, lens: make([]uint16, len(docs)), terms: map[string]int32{}}
	bd.seen = map[string]int32{}
	bd.last, bd.tfs = bd.last[:0], bd.tfs[:0]
	var df []int32
	// Pass 1: the terms, each entry's length, each term's entries.
	for i := range docs {
		d := &docs[i]
		n := 0
		count := func(w string, _, _ int) {
			id := bd.term(p, w, &df)
			if id < 0 {
				return
			}
			n++
			if bd.last[id] != int32(i) {
				bd.last[id] = int32(i)
				df[id]++
			}
		}
		bd.sp.raw(d.Title, count)
		bd.sp.raw(d.Text, count)
		bd.sp.raw(d.Extra, count)
		if n > 0xFFFF {
			n = 0xFFFF
		}
		p.lens[i] = uint16(n)
		p.words += n
	}
	p.off = make([]int32, len(df)+1)
	for t, n := range df {
		p.off[t+1] = p.off[t] + n
	}
	p.post = make([]uint32, p.off[len(df)])
	next := bd.last // where the next posting of each term goes
	copy(next, p.off[:len(df)])
	// Pass 2: each entry's occurrences of each term, into the postings.
	for i := range docs {
		d := &docs[i]
		add := func(w string, _, _ int) {
			id := bd.seen[w]
			if id < 0 {
				return
			}
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
		for _, id := range bd.ids {
			p.post[next[id]] = uint32(i)<<8 | uint32(bd.tfs[id])
			next[id]++
			bd.tfs[id] = 0
		}
		bd.ids = bd.ids[:0]
	}
	bd.seen = nil
	return p
}

// term is the term a word as written stands for in p, added on its first
// appearance; -1 for a stop word.
func (bd *builder) term(p *part, w string, df *[]int32) int32 {
	if id, ok := bd.seen[w]; ok {
		return id
	}
	id := int32(-1)
	if c, keep := canon(w); keep {
		var ok bool
		if id, ok = p.terms[c]; !ok {
			id = int32(len(*df))
			p.terms[strings.Clone(c)] = id
			*df = append(*df, 0)
			bd.last = append(bd.last, -1)
			bd.tfs = append(bd.tfs, 0)
		}
	}
	bd.seen[strings.Clone(w)] = id
	return id
}
