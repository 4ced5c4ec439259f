package decision

import (
	"sort"
	"strings"

	txt "github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Conflicts a person marked ("Keep both and mark the conflict", /decision
// conflict) stay visible until /decision resolve or a supersede settles
// them: a mark in lists, a count in the footer, doctor's finding, and in the
// injected section a question for the user instead of two orders.

// remark keeps h in marked exactly while it is live with conflict marks.
func (s *state) remark(h int32) {
	r := s.recs.at(h)
	want := !r.removed && r.conflicts.size() > 0
	i := sort.Search(len(s.marked), func(i int) bool { return s.marked[i] >= h })
	has := i < len(s.marked) && s.marked[i] == h
	switch {
	case want && !has:
		s.marked = append(s.marked, 0)
		copy(s.marked[i+1:], s.marked[i:])
		s.marked[i] = h
	case !want && has:
		s.marked = append(s.marked[:i], s.marked[i+1:]...)
	}
}

// conflictPair is two active decisions marked as conflicting: Old was added
// before New.
type conflictPair struct{ Old, New *decision }

// Conflicts are the unresolved conflicts: pairs of active decisions either
// of which marks the other, each pair once, in the order of their newer
// side's add. A mark towards a decision that is removed or no longer active
// (superseded, rejected) is settled.
func (s *state) Conflicts() []conflictPair {
	var pairs []conflictPair
	for _, h := range s.marked {
		r := s.recs.at(h)
		if r.removed || r.status != Active {
			continue
		}
		for _, id := range s.strs.getList(r.conflicts) {
			o := s.liveHandle(id)
			if o < 0 || o == h || s.recs.at(o).status != Active {
				continue
			}
			old, nw := o, h
			if old > nw {
				old, nw = nw, old
			}
			if !hasPair(pairs, old, nw) {
				pairs = append(pairs, conflictPair{s.view(old), s.view(nw)})
			}
		}
	}
	sortBy(len(pairs), func(i, j int) bool {
		if pairs[i].New.h != pairs[j].New.h {
			return pairs[i].New.h < pairs[j].New.h
		}
		return pairs[i].Old.h < pairs[j].Old.h
	}, func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	return pairs
}

func hasPair(pairs []conflictPair, old, nw int32) bool {
	for _, p := range pairs {
		if p.Old.h == old && p.New.h == nw {
			return true
		}
	}
	return false
}

// inConflict is the set of handles of the decisions in pairs.
func inConflict(pairs []conflictPair) map[int32]bool {
	set := make(map[int32]bool, 2*len(pairs))
	for _, p := range pairs {
		set[p.Old.h], set[p.New.h] = true, true
	}
	return set
}

// conflictsWith are the ids among x's conflict marks that name a pair of
// pairs: what a list marks x with.
func conflictsWith(x *decision, pairs []conflictPair) []string {
	var ids []string
	for _, p := range pairs {
		switch x.h {
		case p.Old.h:
			ids = append(ids, p.New.ID)
		case p.New.h:
			ids = append(ids, p.Old.ID)
		}
	}
	return ids
}

// Budgets of the conflicts part of the injected section.
const (
	maxConflictLines = 5  // pairs shown; the rest are counted
	maxConflictSide  = 70 // characters of each side's text
)

// conflictsHeader opens the conflicts part of the section: the model is
// told to ask, not to follow either side.
const conflictsHeader = "Unresolved conflicts: the user kept both decisions of each pair below, and they contradict each other. Follow neither side of a pair; when the work depends on it, ask the user which holds (they settle it with /decision resolve).\n"

// conflictLine is one pair as injected:
// `D-…-0001 | Use PostgreSQL … <-> D-…-0002 | Use MySQL …`.
func conflictLine(p conflictPair) string {
	side := func(x *decision) string {
		return x.ID + " | " + txt.Runes(clean(txt.OneLine(x.Short())), maxConflictSide)
	}
	return side(p.Old) + " <-> " + side(p.New)
}

// conflictsPart is the conflicts part of the section, "" without pairs.
func conflictsPart(pairs []conflictPair) string {
	if len(pairs) == 0 {
		return ""
	}
	var b txt.Builder
	b.WriteString(conflictsHeader)
	for i, p := range pairs {
		if i == maxConflictLines {
			b.WriteString("(+" + txt.Plural(len(pairs)-i, "more unresolved conflict", "more unresolved conflicts") + "; /decision doctor lists them)\n")
			break
		}
		b.WriteString(conflictLine(p))
		b.WriteByte('\n')
	}
	return b.String()
}

// conflictsFinding is doctor's line for an unresolved pair, with the whole
// command for each way to settle it.
func conflictsFinding(p conflictPair) string {
	return "unresolved conflict: " + p.New.ID + " ↔ " + p.Old.ID + " (marked by you). Settle it: " + settle(p.Old.ID, p.New.ID)
}

// settle names the commands that settle the conflict of a and b: reject
// the one that no longer holds, or replace one.
func settle(a, b string) string {
	return strings.Join([]string{"/decision resolve ", a, " rejected (", b, " holds), /decision resolve ", b, " rejected (", a, " holds), or /decision supersede <id> <text> --reason R."}, "")
}
