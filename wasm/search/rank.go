package search

import (
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"

	textpkg "github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/similarity"
)

// BM25's constants, the textbook values: k1 how fast repeated words stop
// counting, b how much a long entry is discounted.
const (
	k1 = 1.2
	b  = 0.75
)

// rerank is how many of the best candidates similarity.Compare looks at
// again; compared with a whole decision it is too slow for every match.
// rerankBytes is how much of an entry's text it reads: a past session's
// message of 8,000 bytes, forty times, held a search's last call too long.
const (
	rerank      = 40
	rerankBytes = 1000
)

// MaxLimit is the most hits one search returns; DefaultLimit when none is asked.
const (
	DefaultLimit = 8
	MaxLimit     = 20
)

// kindWeight puts curated memory (decisions, notes) before what was only
// observed or said: a message that mentions a word is weaker evidence than
// a rule that states it.
var kindWeight = [...]float64{Decision: 1, Note: 1, Observation: 0.9, Message: 0.75}

// markWeight lowers decisions that no longer hold; they are still found,
// and marked.
func markWeight(mark string) float64 {
	if strings.HasPrefix(mark, "superseded") || mark == "rejected" {
		return 0.8
	}
	return 1
}

// recency is 1 for an entry written now, falling to 0.8 for an old one with
// a half-life of 90 days; 0.9 when the time is unknown.
func recency(t, now int64) float64 {
	if t <= 0 || now <= 0 {
		return 0.9
	}
	age := float64(now-t) / 86400000
	if age < 0 {
		age = 0
	}
	return 0.8 + 0.2*math.Exp2(-age/90)
}

// askedWeight is how much of the score of the message before an earlier
// session's message counts in its own (docs/search.md, "Conversations":
// measured on the conversation set; counting the message after too ranked
// worse).
const askedWeight = 0.3

// timeBoost is how much an entry of the time a query names (Options.When)
// gains.
var timeBoost = 1.5

// asked marks, in a ranking's has, an entry that holds no word of the
// query but follows one that does (the bit of no term: MaxTerms is 32).
const asked = 1 << 31

// coordination favours entries holding more of the query's words: one of
// three keeps 60% of its score, all three keep all of it.
func coordination(matched, terms int) float64 {
	return 0.4 + 0.6*float64(matched)/float64(terms)
}

// Search ranks the indexed entries against q, best first, at most limit
// (DefaultLimit when 0 or less, MaxLimit at most). now is the time recency
// counts from (Unix ms; 0 leaves recency out).
//
// An entry's score is
//
//	Σ over the query's words idf(w) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))
//	  × coordination × kind weight × status weight × recency
//
// over every source at once (idf and the average length count all of them),
// and the best candidates are then multiplied by 1 + ½·similarity.Compare of
// the query and the entry, which links typos, prefixes and acronyms the
// words alone miss. Equal scores keep kind, then citation order.
//
//	entries: D-1 "Use PostgreSQL for the primary database", MEMORY.md:3 "Run tests with -race"
//	Search("which databases", 5, now) => [D-1]
func (x *Index) Search(q string, limit int, now int64) []Hit {
	r := x.Rank(q, Options{Limit: limit, Now: now})
	r.Run(nil)
	return r.Hits()
}

// ForForget is Search for a forget by words (ToForget): the entries
// forgotten already (Doc.Gone) are ranked too.
func (x *Index) ForForget(q string, now int64) []Hit {
	r := x.Rank(q, Options{Limit: MaxLimit, Now: now, Gone: true})
	r.Run(nil)
	return r.Hits()
}

// partUnits is the work of looking a word up in a part (Work), about as
// long as reading a few dozen bytes.
const partUnits = 32

// Options narrow a search (Find). The zero value is memory_search's: any
// word matches, DefaultLimit hits, no recency, nothing forgotten.
type Options struct {
	// Limit is how many hits: DefaultLimit when 0 or less. Find does not
	// cap it (a command lists every match); Rank caps it at MaxLimit.
	Limit int
	// Now is the time recency counts from (Unix ms; 0 leaves recency out).
	Now int64
	// Gone ranks the entries forgotten already too (a forget by words).
	Gone bool
	// Every: an entry matches only if it holds every word of the query
	// (/decision search); else one is enough (recall, memory_search).
	Every bool
	// When is the time the query names (WhenOf): an entry of that time
	// ranks higher (timeBoost).
	When When
	// Span, when set, keeps only the entries of that time (since: and
	// until:, SpanOf); an entry of no known time is left out.
	Span When
	// Keep, when set, keeps an entry among the matches by its source's Key
	// and its Ref (a store's filters: status:, tag:). The Ref is valid only
	// during the call.
	Keep func(key, ref string) bool
}

// Ranking is a search over the index in steps (Run), for an index of
// thousands of sources: it scores them a few at a time, and starts again if
// the index changed meanwhile.
type Ranking struct {
	x       *Index
	gen     int
	q       Query
	o       Options
	terms   []string // the words, then the phrases' words not among them
	loose   uint32   // the bits of the words in a match's mask
	part    int      // the next part to count or score
	scoring bool
	df      []int
	idf     []float64
	avg     float64
	top     candidates
	words   []string // a buffer for checking phrases
}

// Rank starts a search for q (its first MaxTerms distinct words, Terms),
// as memory_search asks it: at most MaxLimit hits, any word a match, the
// entries of the time q names first (o.When is WhenOf(q, o.Now)).
func (x *Index) Rank(q string, o Options) *Ranking {
	if o.Limit <= 0 {
		o.Limit = DefaultLimit
	}
	o.Limit, o.When = min(o.Limit, MaxLimit), WhenOf(q, o.Now)
	return x.Find(Query{Words: Terms(q), Text: q}, o)
}

// Find starts a search for a parsed query (Parse) with its options: the
// one ranking every command and memory_search share. An entry matches when
// it holds a word of the query (every word with Options.Every) and each of
// its phrases, and Options.Keep keeps it; the phrases' words count in its
// score like the words. A query of no words and no phrases finds nothing.
func (x *Index) Find(q Query, o Options) *Ranking {
	if o.Limit <= 0 {
		o.Limit = DefaultLimit
	}
	terms := q.Words[:len(q.Words):len(q.Words)]
	if len(terms) > MaxTerms {
		terms = terms[:MaxTerms]
	}
	loose := uint32(1)<<len(terms) - 1
	for _, ph := range q.Phrases {
		for _, w := range ph {
			if !slices.Contains(terms, w) && len(terms) < MaxTerms {
				terms = append(terms, w)
			}
		}
	}
	r := &Ranking{x: x, gen: x.gen, q: q, o: o, terms: terms, loose: loose}
	r.reset()
	return r
}

// reset starts the ranking over, on the index as it is now.
func (r *Ranking) reset() {
	r.gen, r.part, r.scoring, r.idf = r.x.gen, 0, false, nil
	r.df = make([]int, len(r.terms))
	r.top = candidates{}
}

// Run counts the query's words over every part, then scores every part,
// until work ends the slice (false: call again) or it is done.
func (r *Ranking) Run(work Work) bool {
	x := r.x
	if len(r.terms) == 0 || x.docs == 0 {
		return true
	}
	if r.gen != x.gen {
		r.reset()
	}
	for !r.scoring {
		if r.part == len(x.order) {
			n := float64(x.docs)
			r.idf = make([]float64, len(r.terms))
			for t, df := range r.df {
				r.idf[t] = math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
			}
			r.avg = max(float64(x.words)/float64(x.docs), 1)
			r.top = candidates{max: max(rerank, r.o.Limit)}
			r.scoring, r.part = true, 0
			break
		}
		p := x.order[r.part]
		if r.part == 0 {
			x.ids, x.idsOf = slices.Grow(x.ids[:0], len(x.order)*len(r.terms))[:len(x.order)*len(r.terms)], r
		}
		for t, w := range r.terms {
			id, ok := p.term(w)
			if ok {
				r.df[t] += p.df(id)
			} else {
				id = -1
			}
			if x.idsOf == r {
				x.ids[r.part*len(r.terms)+t] = id
			}
		}
		r.part++
		if !work.spend(partUnits * (1 + len(r.terms))) {
			return false
		}
	}
	for r.part < len(x.order) {
		n := r.score(r.part)
		r.part++
		if !work.spend(partUnits*(1+len(r.terms)) + 8*n) {
			return r.part == len(x.order)
		}
	}
	return true
}

// score adds the entries of part pi that match to the candidates; it
// returns how many it looked at.
func (r *Ranking) score(pi int) int {
	x, p := r.x, r.x.order[pi]
	if cap(x.acc) < int(p.docs) {
		x.acc = make([]float32, p.docs)
		x.has = make([]uint32, p.docs)
	}
	acc, has := x.acc[:p.docs], x.has[:p.docs]
	touched := x.hit[:0]
	for t, w := range r.terms {
		var id int32 = -1
		if x.idsOf == r {
			id = x.ids[pi*len(r.terms)+t]
		} else if i, ok := p.term(w); ok {
			id = i
		}
		if id < 0 {
			continue
		}
		for bi := range p.blocks {
			bl := p.block(bi)
			for _, v := range p.postings(&bl, id) {
				d, tf := v>>8, float64(v&0xFF)
				norm := k1 * (1 - b + b*float64(p.length(int32(d)))/r.avg)
				if has[d] == 0 {
					touched = append(touched, int32(d))
				}
				acc[d] += float32(r.idf[t] * tf * (k1 + 1) / (tf + norm))
				has[d] |= 1 << t
			}
		}
	}
	// A message of an earlier session is scored with the one before it,
	// what was asked: an answer seldom repeats the question's words, and
	// so ranked under the question and other turns that only mention
	// them. The message after a matching one is a candidate too, though it
	// holds no word of the query: it is where an answer is. Its
	// coordination counts the words of both.
	talk := p.talk && r.o.Keep == nil && !r.o.Every && len(r.q.Phrases) == 0
	if talk {
		for _, d := range touched {
			if e := d + 1; e < p.docs && has[e] == 0 && p.kind(d) == Message && p.kind(e) == Message {
				touched = append(touched, e)
				has[e] = asked // touched, holding no term
			}
		}
	}
	for _, d := range touched {
		own, mask := float64(acc[d]), has[d]&^asked
		if talk && d > 0 && p.kind(d) == Message && p.kind(d-1) == Message {
			own += askedWeight * float64(acc[d-1])
			mask |= has[d-1] &^ asked
		}
		if own <= 0 {
			continue
		}
		// The most the entry can score: kind, status and recency weigh at
		// most 1, the time a query names 1.5. One that cannot enter the full
		// list is not looked at further (its numbers are far from here).
		s := own * coordination(bits.OnesCount32(mask), len(r.terms))
		most := s
		if r.o.When.To > 0 {
			most *= timeBoost
		}
		if r.top.below(most) {
			continue
		}
		if r.matches(p, d, mask) {
			s = s * kindWeight[p.kind(d)] * p.weight(d) * recency(p.time(d), r.o.Now)
			if r.o.When.Has(p.time(d)) {
				s *= timeBoost
			}
			r.top.add(candidate{part: int32(pi), doc: d, score: s})
		}
	}
	for _, d := range touched {
		acc[d], has[d] = 0, 0
	}
	x.hit = touched[:0]
	return len(touched)
}

// matches reports whether entry d of p, holding the terms of mask, is a
// match: its words, its phrases, not forgotten, and kept by the caller.
func (r *Ranking) matches(p *part, d int32, mask uint32) bool {
	if p.gone(d) && !r.o.Gone || r.o.Span.To > 0 && !r.o.Span.Has(p.time(d)) {
		return false
	}
	if r.loose != 0 {
		if r.o.Every && mask&r.loose != r.loose || mask&r.loose == 0 {
			return false
		}
	}
	if len(r.q.Phrases) > 0 {
		r.words = r.words[:0]
		var sp splitter
		add := func(w string, _, _ int) { r.words = append(r.words, string([]byte(w))) }
		for _, k := range [...]int{3, 4, 5} {
			sp.words(p.str(d, k), add)
			r.words = append(r.words, "") // no phrase runs from one string into the next
		}
		for _, ph := range r.q.Phrases {
			if !hasRun(r.words, ph) {
				return false
			}
		}
	}
	if r.o.Keep == nil {
		return true
	}
	ref := p.str(d, 0)
	if p.nums[d*docWords+dFlags]&flagRefKey != 0 {
		ref = p.key + ref
	}
	return r.o.Keep(p.key, ref)
}

// Hits are the search's results, best first, once Run is done: the best
// candidates reranked with the similarity features of the decision store.
func (r *Ranking) Hits() []Hit {
	x := r.x
	if !r.scoring || r.gen != x.gen {
		return nil
	}
	top := r.top
	qf := similarity.Prepare(r.q.Text)
	sort.Sort(byScore{top.list, x})
	for i := range top.list[:min(len(top.list), rerank)] {
		c := &top.list[i]
		df := similarity.Prepare(textpkg.Bytes(x.order[c.part].text(c.doc), rerankBytes))
		c.score *= 1 + 0.5*similarity.Compare(&qf, &df).Score
	}
	sort.Sort(byScore{top.list, x})
	// A message of an earlier session is shown with the other half of its
	// exchange (Hit.Turn): a question with the answer after it, an answer
	// with the question before it. A message shown so is not a hit again.
	type at struct{ part, doc int32 }
	var shown []at
	var hits []Hit
	for _, c := range top.list {
		if len(hits) == r.o.Limit {
			break
		}
		if slices.Contains(shown, at{c.part, c.doc}) {
			continue
		}
		p := x.order[c.part]
		both := [2]int32{c.doc, -1}
		if t := p.turn(c.doc); t >= 0 && !r.o.Every && (r.o.Span.To == 0 || r.o.Span.Has(p.time(t))) {
			both[1] = t // within since/until too
		}
		var two [2]Hit
		for i, d := range both {
			if d >= 0 {
				two[i].Doc = p.doc(d) // one call of doc and Snippet: one copy of each in the module
				two[i].Snippet = Snippet(&two[i].Doc, r.terms, snippetBytes)
			}
		}
		h := two[0]
		h.Score = c.score
		if both[1] >= 0 {
			h.Turn = &two[1]
			shown = append(shown, at{c.part, both[1]})
		}
		hits = append(hits, h)
	}
	return hits
}

// The roles a message's text starts with (Kind Message).
const (
	asker    = "User: "
	answerer = "Assistant: "
)

// turn is the other half of message d's exchange in p: for a question (a
// user's message) the answer, the last of the assistant's messages that
// follow it (the first is often "let me look" before a tool call); for an
// answer, the question before it; -1 when d is not a message or has none.
func (p *part) turn(d int32) int32 {
	if p.kind(d) != Message {
		return -1
	}
	if !strings.HasPrefix(p.str(d, 4), asker) {
		for e := d - 1; e >= 0 && p.kind(e) == Message; e-- {
			if strings.HasPrefix(p.str(e, 4), asker) {
				return e
			}
		}
		return -1
	}
	t := int32(-1)
	for e := d + 1; e < p.docs && p.kind(e) == Message && strings.HasPrefix(p.str(e, 4), answerer); e++ {
		t = e
	}
	return t
}

// Refs calls f with the Ref of every match kept (at most Options.Limit),
// in no order, once Run is done, without making a Doc: a command that
// orders its matches its own way (/decision search, newest first). The
// string f receives is valid only during the call.
func (r *Ranking) Refs(f func(ref string)) {
	x := r.x
	if !r.scoring || r.gen != x.gen {
		return
	}
	for _, c := range r.top.list {
		p := x.order[c.part]
		ref := p.str(c.doc, 0)
		if p.nums[c.doc*docWords+dFlags]&flagRefKey != 0 {
			ref = p.key + ref
		}
		f(ref)
	}
}

type candidate struct {
	part, doc int32
	score     float64
}

// candidates keeps the max best seen.
type candidates struct {
	list []candidate
	max  int
	low  int // index of the lowest score in list, once full
}

func (c *candidates) add(x candidate) {
	if len(c.list) < c.max {
		c.list = append(c.list, x)
		if len(c.list) == c.max {
			c.findLow()
		}
		return
	}
	if x.score <= c.list[c.low].score {
		return
	}
	c.list[c.low] = x
	c.findLow()
}

// below reports whether a score is too low to enter the list: it is full
// and holds none lower.
func (c *candidates) below(score float64) bool {
	return len(c.list) == c.max && c.max > 0 && score <= c.list[c.low].score
}

func (c *candidates) findLow() {
	c.low = 0
	for i := range c.list {
		if c.list[i].score < c.list[c.low].score {
			c.low = i
		}
	}
}

// byScore orders candidates best first; equal scores by kind, then
// citation. sort.Interface rather than sort.Slice: no reflection under TinyGo.
type byScore struct {
	l []candidate
	x *Index
}

func (s byScore) Len() int      { return len(s.l) }
func (s byScore) Swap(i, j int) { s.l[i], s.l[j] = s.l[j], s.l[i] }
func (s byScore) Less(i, j int) bool {
	a, b := &s.l[i], &s.l[j]
	if a.score != b.score {
		return a.score > b.score
	}
	pa, pb := s.x.order[a.part], s.x.order[b.part]
	if ka, kb := pa.kind(a.doc), pb.kind(b.doc); ka != kb {
		return ka < kb
	}
	return refLess(pa, a.doc, pb, b.doc)
}

// ClearLead is how far the best entry a forget by words may remove must be
// ahead of the second to be removed without asking: half as good again.
const ClearLead = 1.5

// MaxCandidates is how many entries a forget by words that is not clear
// lists to choose from.
const MaxCandidates = 5

// ToForget is what a forget by words q removes, from the hits of
// ForForget: the best decision or note when it is the only one or ClearLead
// times the second's score, and it holds at least half of q's words
// (Terms), and two of them when q has two or more; else at most
// MaxCandidates to choose from. An entry that shares one word with "never
// push on fridays", or with "staging kubernetes", is not the one those
// words name, however alone it is. Both nil: none can be removed. A best that is gone
// (Doc.Gone) is returned as it is: the entry the words name was forgotten
// already, and no other one is.
//
//	ToForget(q, [note 3.0, decision 1.0]) => the note, nil
//	ToForget(q, [note 3.0, decision 2.5]) => nil, both
//	ToForget(q, [gone note 3.0, note 1.0]) => the gone note, nil
//	ToForget("never push on fridays", [note "always run make test before pushing"]) => nil, the note
func ToForget(q string, hits []Hit) (best *Hit, cands []Hit) {
	live := map[string]bool{}
	for _, h := range hits {
		if h.Doc.Forgettable() {
			live[h.Doc.Kind.String()+"\x00"+h.Doc.Text] = true
		}
	}
	var all []Hit
	for _, h := range hits {
		// A gone entry that reads as a live one of its kind is that entry,
		// forgotten since the index read its file or written again (a
		// decision removed and added again): the live one stands for both.
		if (h.Doc.Kind == Decision || h.Doc.Kind == Note) && !(h.Doc.Gone && live[h.Doc.Kind.String()+"\x00"+h.Doc.Text]) {
			all = append(all, h)
		}
	}
	switch {
	case len(all) == 0:
		return nil, nil
	case (len(all) == 1 || all[0].Score >= ClearLead*all[1].Score) && holdsHalf(q, &all[0].Doc) && !number(q):
		// A number alone is listed, never taken at once: typed after a
		// list of candidates it is a choice among them as often as words
		// (h-v100 d1), and "8080" names a port in more than one note.
		return &all[0], nil
	}
	for _, h := range all {
		if !h.Doc.Gone {
			cands = append(cands, h)
		}
	}
	if len(cands) == 0 {
		return &all[0], nil
	}
	if len(cands) > MaxCandidates {
		cands = cands[:MaxCandidates]
	}
	return nil, cands
}

// holdsHalf reports whether d holds at least half of q's words (Terms), in
// its title, its text or its section, and two of them when q has two or
// more (words that name an entry, "note", "decision", aside): one word in
// two is a guess, and a note removed on a guess may hold
// what its restore cannot give back (a secret, which its record keeps
// redacted).
func holdsHalf(q string, d *Doc) bool {
	var sp splitter
	have := map[string]bool{}
	sp.words(d.Title+"\n"+d.Text+"\n"+d.Extra, func(w string, _, _ int) { have[string([]byte(w))] = true })
	// Words that name the entry rather than say what it holds ("the note
	// about pnpm") are not counted, unless they are all q has.
	var terms []string
	all := Terms(q)
	naming := Terms("note decision entry memory fact rule")
	for _, t := range all {
		// Each word once: "staging staging" is one word, not two.
		if !slices.Contains(naming, t) && !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		terms = all
	}
	n := 0
	for _, t := range terms {
		if have[t] {
			n++
		}
	}
	return 2*n >= len(terms) && n >= min(2, len(terms))
}

// HitOf is the entry whose Ref is ref, made as Hits makes a hit (with the
// other half of its exchange and a snippet for q), for a ranking of another
// kind fused with the words' (embeddings, decision 019). ref is a source's
// Key, ":" and the rest, as an earlier session's message is named. False
// when the index holds no such entry, it is forgotten, or span (since:,
// until:) leaves it out.
func (x *Index) HitOf(ref, q string, span When) (Hit, bool) {
	i := strings.LastIndexByte(ref, ':')
	if i < 0 {
		return Hit{}, false
	}
	p := x.parts[ref[:i]]
	if p == nil {
		return Hit{}, false
	}
	for d := int32(0); d < p.docs; d++ {
		own := p.str(d, 0)
		if p.nums[d*docWords+dFlags]&flagRefKey != 0 {
			if own != ref[i:] {
				continue
			}
		} else if own != ref {
			continue
		}
		if p.gone(d) || span.To != 0 && !span.Has(p.time(d)) {
			return Hit{}, false
		}
		terms := Terms(q)
		h := Hit{Doc: p.doc(d)}
		h.Snippet = Snippet(&h.Doc, terms, snippetBytes)
		if t := p.turn(d); t >= 0 && (span.To == 0 || span.Has(p.time(t))) {
			h.Turn = &Hit{Doc: p.doc(t)}
			h.Turn.Snippet = Snippet(&h.Turn.Doc, terms, snippetBytes)
		}
		return h, true
	}
	return Hit{}, false
}

// number: q is digits alone (blanks around them).
func number(q string) bool {
	q = strings.TrimSpace(q)
	for i := 0; i < len(q); i++ {
		if q[i] < '0' || q[i] > '9' {
			return false
		}
	}
	return q != ""
}
