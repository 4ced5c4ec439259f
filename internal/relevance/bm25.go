package relevance

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// BM25 parameters: the common defaults, the ones the baseline used.
const (
	k1 = 1.2
	b  = 0.75
)

// BM25 ranks turns by Okapi BM25 over plain words: text lower-cased and cut
// at every rune that is not a letter or a digit, nothing stemmed, nothing
// expanded. With stop words left out (NewBM25's noStop) it is the second
// baseline. A turn is scored alone, its own text only.
type BM25 struct {
	docs   []Ref
	tf     []map[string]int
	length []float64
	df     map[string]int
	avg    float64
	noStop bool
}

// NewBM25 indexes the turns; noStop leaves the English stop words
// (stopList) out of the turns and of every query.
func NewBM25(turns []Turn, noStop bool) *BM25 {
	x := &BM25{df: map[string]int{}, noStop: noStop}
	total := 0.0
	for _, t := range turns {
		tf := map[string]int{}
		n := 0
		for _, w := range x.words(t.Text) {
			tf[w]++
			n++
		}
		for w := range tf {
			x.df[w]++
		}
		x.docs = append(x.docs, t.Ref)
		x.tf = append(x.tf, tf)
		x.length = append(x.length, float64(n))
		total += float64(n)
	}
	if len(turns) > 0 {
		x.avg = total / float64(len(turns))
	}
	return x
}

// Search is the k best turns for q, best first; a tie keeps the turns'
// order. A turn that holds no word of q is not a hit.
//
//	score(d) = Σ over the distinct words w of q  idf(w) · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avg))
//	idf(w)   = ln(1 + (N − df + 0.5) / (df + 0.5))
func (x *BM25) Search(q string, k int) []Ref {
	seen := map[string]bool{}
	type hit struct {
		i     int
		score float64
	}
	scores := map[int]float64{}
	n := float64(len(x.docs))
	for _, w := range x.words(q) {
		if seen[w] {
			continue
		}
		seen[w] = true
		df := float64(x.df[w])
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for i, tf := range x.tf {
			f := float64(tf[w])
			if f == 0 {
				continue
			}
			scores[i] += idf * f * (k1 + 1) / (f + k1*(1-b+b*x.length[i]/x.avg))
		}
	}
	hits := make([]hit, 0, len(scores))
	for i, s := range scores {
		hits = append(hits, hit{i, s})
	}
	sort.Slice(hits, func(a, c int) bool {
		if hits[a].score != hits[c].score {
			return hits[a].score > hits[c].score
		}
		return hits[a].i < hits[c].i
	})
	var out []Ref
	for _, h := range hits[:min(k, len(hits))] {
		out = append(out, x.docs[h.i])
	}
	return out
}

func (x *BM25) words(s string) []string {
	ws := plainWords(s)
	if !x.noStop {
		return ws
	}
	kept := ws[:0]
	for _, w := range ws {
		if !stopWords[w] {
			kept = append(kept, w)
		}
	}
	return kept
}

// plainWords is s lower-cased and cut at every rune that is neither a
// letter nor a digit.
//
//	plainWords("Don't run `go test -race`!") => [don t run go test race]
func plainWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// stopList holds the English function words the second baseline leaves
// out: the common list of pronouns, auxiliaries, prepositions and conjunctions,
// with the pieces plainWords leaves of contractions ("don't" is "don", "t").
// Only the baseline and the set's own checks use it; the product's list is
// its own (wasm/search).
const stopList = `a about above after again against all also am an and any are aren as at
be because been before being below between both but by
can cannot could couldn d did didn do does doesn doing don down during
each few for from further
had hadn has hasn have haven having he her here hers herself him himself his how
i if in into is isn it its itself just let ll m me more most must mustn my myself
no nor not of off ok on once only or other ought our ours ourselves out over own
re s same shan she should shouldn so some such
t than that the their theirs them themselves then there these they this those through to too
under until up us ve very was wasn we were weren what when where which while who whom why will with won would wouldn
you your yours yourself yourselves`

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(stopList) {
		m[w] = true
	}
	return m
}()
