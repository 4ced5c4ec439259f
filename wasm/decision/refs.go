package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// A person names a decision by its id or by the end of it ("0002" for
// D-2026-03-01-0002), as long as only one decision's id ends that way.

// maxCandidates is how many decisions an ambiguous reference lists.
const maxCandidates = 5

// isRef reports whether ref can name a decision: an id, or the end of one
// (digits and dashes, at least one digit; "D-" may start it).
//
//	isRef("D-2026-03-01-0002") => true
//	isRef("0002")              => true
//	isRef("/p/MEMORY.md:3")    => false
func isRef(ref string) bool {
	if ref = normRef(ref); validID(ref) {
		return true
	}
	rest := strings.TrimPrefix(ref, "D-")
	digit := false
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c != '-':
			return false
		}
	}
	return digit
}

// dashes are the characters a pasted or autocorrected id may hold for its
// dashes.
var dashes = strings.NewReplacer("\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2212", "-", "\ufe63", "-", "\uff0d", "-")

// normRef is ref as a person typed or pasted it, spelled as ids are:
// blanks around it trimmed, a typographic dash read as "-", a small "d-"
// as "D-" ("d-2026-12-03-0002 " fell back to matching words: h-v97).
//
//	normRef(" d–2026-12-03-0002 ") => "D-2026-12-03-0002"
func normRef(ref string) string {
	ref = dashes.Replace(strings.TrimSpace(ref))
	if strings.HasPrefix(ref, "d-") {
		ref = "D-" + ref[2:]
	}
	return ref
}

// refError is a reference that names no decision (none), or more than one.
type refError struct {
	msg  string
	none bool
}

func (e *refError) Error() string { return e.msg }

// find is the id ref names: an id as it is (need says whether it is live),
// else the one decision whose id ends with ref. removed looks among the
// removed decisions instead of the live ones. An ambiguous ref is an error
// listing the candidates, newest first.
//
//	find("0002") with D-2026-03-01-0002 live => "D-2026-03-01-0002"
//	find("2") with …-0002 and …-0012 live   => error: "2" matches 2 decisions: …
func (s *state) find(ref string, removed bool) (string, error) {
	if ref = normRef(ref); validID(ref) {
		return ref, nil
	}
	if !isRef(ref) {
		return "", &refError{msg: strconv.Quote(ref) + " is not a decision id (they look like D-2026-02-27-0001; the last digits, 0001, are enough when only one id ends that way)."}
	}
	var found []int32
	for h := int32(0); h < int32(s.recs.n); h++ {
		r := s.recs.at(h)
		if r.removed != removed || !strings.HasSuffix(s.strs.get(r.id), ref) {
			continue
		}
		if removed && s.lookup(s.strs.get(r.id)) != h {
			continue // the id was added again since: its newest decision counts
		}
		found = append(found, h)
	}
	switch len(found) {
	case 1:
		return s.strs.get(s.recs.at(found[0]).id), nil
	case 0:
		if !removed {
			// A decision removed since is named as such (need says so).
			if id, err := s.find(ref, true); err == nil {
				return id, nil
			}
		}
		what := "No decision"
		if removed {
			what = "No removed decision"
		}
		return "", &refError{msg: what + "'s id ends with " + strconv.Quote(ref) + ".", none: true}
	}
	list := s.hits(found)
	var sb text.Builder
	sb.WriteString(strconv.Quote(ref) + " matches " + numstr.Itoa(len(found)) + " decisions; give more of the id:")
	for i := 0; i < list.Len() && i < maxCandidates; i++ {
		x := list.At(i)
		sb.WriteString("\n  " + x.ID + " | " + oneLine(x.Short()))
	}
	if len(found) > maxCandidates {
		sb.WriteString("\n  … " + numstr.Itoa(len(found)-maxCandidates) + " more")
	}
	return "", &refError{msg: sb.String()}
}

// removedNewest are the removed decisions Restore can bring back, the
// newest removal first (by its event's time, then its line), at most limit:
// an id added again since its removal is not one of them.
func (s *state) removedNewest(limit int) []*decision {
	var hs []int32
	for h := int32(0); h < int32(s.recs.n) && limit > 0; h++ {
		r := s.recs.at(h)
		if !r.removed || s.lookup(s.strs.get(r.id)) != h {
			continue
		}
		i := len(hs)
		for i > 0 && s.removedLater(h, hs[i-1]) {
			i--
		}
		if i >= limit {
			continue
		}
		hs = append(hs, 0)
		copy(hs[i+1:], hs[i:])
		hs[i] = h
		if len(hs) > limit {
			hs = hs[:limit]
		}
	}
	xs := make([]*decision, len(hs))
	for i, h := range hs {
		xs[i] = s.view(h)
	}
	return xs
}

func (s *state) removedLater(a, b int32) bool {
	ra, rb := s.recs.at(a), s.recs.at(b)
	if ra.removedAt != rb.removedAt {
		return ra.removedAt > rb.removedAt
	}
	return ra.removedLine > rb.removedLine
}
