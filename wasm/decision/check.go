package decision

import (
	"sort"

	"github.com/pi-memory/pi-memory/wasm/similarity"
)

// Verdict is how a new text relates to an existing decision (see the
// similarity package for the measure and its fixture).
type Verdict = similarity.Verdict

const (
	Unrelated = similarity.Unrelated
	Duplicate = similarity.Duplicate
	Conflict  = similarity.Conflict
)

// Match is one existing active decision that a new text duplicates or contradicts.
type Match struct {
	D       *Decision
	Verdict Verdict
	Score   float64
	Reason  string
}

// features are a decision's prepared similarity features, remembered with
// the text they were prepared from so an edit invalidates them.
type features struct {
	text string
	f    similarity.Features
}

// Check compares a new decision text with every active decision (their
// short text: title, else text) and returns the duplicates and the
// conflicts, best first. except names decisions to leave out (the one being
// updated or superseded).
func (s *State) Check(text string, except ...string) (dups, conflicts []Match) {
	nf := similarity.Prepare(text)
	s.each(func(d *Decision) {
		if d.Status != Active || contains(except, d.ID) {
			return
		}
		r := similarity.Compare(&nf, s.featuresOf(d))
		switch r.Verdict {
		case similarity.Duplicate:
			dups = append(dups, Match{D: d, Verdict: Duplicate, Score: r.Score, Reason: r.Reason})
		case similarity.Conflict:
			conflicts = append(conflicts, Match{D: d, Verdict: Conflict, Score: r.Score, Reason: r.Reason})
		}
	})
	sortMatches(dups)
	sortMatches(conflicts)
	return dups, conflicts
}

// featuresOf prepares a decision's features once per text.
func (s *State) featuresOf(d *Decision) *similarity.Features {
	text := d.Short()
	if d.feat == nil || d.feat.text != text {
		d.feat = &features{text: text, f: similarity.Prepare(text)}
	}
	return &d.feat.f
}

func sortMatches(m []Match) {
	sort.Slice(m, func(i, j int) bool {
		if m[i].Score != m[j].Score {
			return m[i].Score > m[j].Score
		}
		return Newer(m[i].D, m[j].D)
	})
}

// Normalize is the exact-match form of a text (see similarity.Normalize).
func Normalize(s string) string { return similarity.Normalize(s) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
