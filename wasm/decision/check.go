package decision

import (
	"github.com/pi-memory/pi-memory/wasm/similarity"
)

// verdict is how a new text relates to an existing decision (see the
// similarity package for the measure and its fixture).
type verdict = similarity.Verdict

const (
	unrelated = similarity.Unrelated
	duplicate = similarity.Duplicate
	conflict  = similarity.Conflict
)

// match is one existing active decision that a new text duplicates or contradicts.
type match struct {
	D       *decision
	Verdict verdict
	Score   float64
	Reason  string
}

// features are a decision's prepared similarity features, remembered with
// the refs of the text they were prepared from so an edit invalidates them.
type features struct {
	title, text ref
	f           similarity.Features
}

// Check compares a new decision text with every active decision (their
// short text: title, else text) and returns the duplicates and the
// conflicts, best first. except names decisions to leave out (the one being
// updated or superseded).
func (s *state) Check(text string, except ...string) (dups, conflicts []match) {
	// Compared redacted: a verdict's reason quotes the texts it compared,
	// and it is shown to people (doctor, dialogs).
	nf := similarity.Prepare(clean(text))
	for h := int32(0); h < int32(s.recs.n); h++ {
		r := s.recs.at(h)
		if r.removed || r.status != Active || len(except) > 0 && contains(except, s.strs.get(r.id)) {
			continue
		}
		res := similarity.Compare(&nf, s.featuresOf(h))
		switch res.Verdict {
		case similarity.Duplicate:
			dups = append(dups, match{D: s.view(h), Verdict: duplicate, Score: res.Score, Reason: res.Reason})
		case similarity.Conflict:
			conflicts = append(conflicts, match{D: s.view(h), Verdict: conflict, Score: res.Score, Reason: res.Reason})
		}
	}
	sortMatches(dups)
	sortMatches(conflicts)
	return dups, conflicts
}

// featuresOf prepares a decision's features once per text.
func (s *state) featuresOf(h int32) *similarity.Features {
	for int(h) >= len(s.feats) {
		s.feats = append(s.feats, nil)
	}
	r := s.recs.at(h)
	f := s.feats[h]
	if f == nil || f.title != r.title || f.text != r.text {
		f = &features{title: r.title, text: r.text, f: similarity.Prepare(clean(short(s.strs.get(r.title), s.strs.get(r.text))))}
		s.feats[h] = f
	}
	return &f.f
}

func sortMatches(m []match) {
	sortBy(len(m), func(i, j int) bool {
		if m[i].Score != m[j].Score {
			return m[i].Score > m[j].Score
		}
		return newerThan(m[i].D, m[j].D)
	}, func(i, j int) { m[i], m[j] = m[j], m[i] })
}

// normalize is the exact-match form of a text (see similarity.Normalize).
func normalize(s string) string { return similarity.Normalize(s) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
