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
}

// part is one source's entries and their inverted index.
type part struct {
	stamp string
	docs  []Doc
	lens  []uint16         // indexed words per entry
	terms map[string]int32 // canonical word → its postings
	post  [][]uint32       // per term: entry<<8 | occurrences (at most 255)
	words int
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
			p = build(s.Load())
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

// build indexes one source's entries.
func build(docs []Doc) *part {
	p := &part{docs: docs, lens: make([]uint16, len(docs)), terms: map[string]int32{}}
	var sp splitter
	var tfs []uint16 // occurrences of each term in the entry being read
	var ids []int32  // the terms of that entry, in order of first appearance
	for i := range docs {
		d := &docs[i]
		n := 0
		add := func(w string, _, _ int) {
			id, ok := p.terms[w]
			if !ok {
				id = int32(len(p.post))
				p.terms[strings.Clone(w)] = id
				p.post = append(p.post, nil)
				tfs = append(tfs, 0)
			}
			if tfs[id] == 0 {
				ids = append(ids, id)
			}
			if tfs[id] < 255 {
				tfs[id]++
			}
			n++
		}
		sp.words(d.Title, add)
		sp.words(d.Text, add)
		sp.words(d.Extra, add)
		if n > 0xFFFF {
			n = 0xFFFF
		}
		p.lens[i] = uint16(n)
		p.words += n
		for _, id := range ids {
			p.post[id] = append(p.post[id], uint32(i)<<8|uint32(tfs[id]))
			tfs[id] = 0
		}
		ids = ids[:0]
	}
	return p
}
