package decision

import (
	"sort"
	"strings"
	"unicode"
)

// Verdict is how a new text relates to an existing decision.
type Verdict uint8

const (
	Unrelated Verdict = iota
	Duplicate
	Conflict
)

// Match is one existing active decision that a new text duplicates or contradicts.
type Match struct {
	D       *Decision
	Verdict Verdict
	Score   float64
	Reason  string
}

// Check compares a new decision text with every active decision and returns
// the duplicates (best first) and the conflicts (best first). except names
// decisions to leave out (the one being edited or superseded).
func (s *State) Check(text string, except ...string) (dups, conflicts []Match) {
	norm := Normalize(text)
	s.each(func(d *Decision) {
		if d.Status != Active || contains(except, d.ID) {
			return
		}
		if Normalize(d.Text) == norm || Normalize(d.Title) == norm {
			dups = append(dups, Match{D: d, Verdict: Duplicate, Score: 1, Reason: "same text"})
		}
	})
	sortMatches(dups)
	sortMatches(conflicts)
	return dups, conflicts
}

func sortMatches(m []Match) {
	sort.Slice(m, func(i, j int) bool {
		if m[i].Score != m[j].Score {
			return m[i].Score > m[j].Score
		}
		return Newer(m[i].D, m[j].D)
	})
}

// Normalize is the exact-match form of a text: lower case, punctuation and
// symbols removed, whitespace collapsed.
//
//	Normalize("  Use   PostgreSQL, always! ") => "use postgresql always"
func Normalize(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		} else {
			space = true
		}
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
