package decision

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// namesID reports a synopsis placeholder that takes a decision id.
//
//	namesID("<id>") => true; namesID("<oldId>") => true; namesID("<text>") => false
func namesID(placeholder string) bool {
	p := strings.ToLower(strings.Trim(placeholder, "<>"))
	return p == "id" || strings.HasSuffix(p, "id") || (strings.HasPrefix(p, "id") && len(p) == 3)
}

// completeIDs are at most n of the live decisions whose id begins or ends
// with prefix, active ones before the others, each group newest first, each
// with its status and text on one line. pi asks at every key typed: the ids
// and statuses are read from the records, and only the decisions offered
// are materialized, so a log of 20,000 decisions costs one pass.
//
//	completeIDs("02", 5) over [D-…-0002 active "Use pnpm"] => [{D-…-0002, "active · Use pnpm"}]
func (s *state) completeIDs(prefix string, n int) []store.Completion {
	prefix = strings.ToUpper(prefix)
	var active, other []int32
	for h := int32(0); h < int32(s.recs.n); h++ {
		r := s.recs.at(h)
		if r.removed {
			continue
		}
		if id := s.strs.get(r.id); prefix != "" && !strings.HasPrefix(id, prefix) && !strings.HasSuffix(id, prefix) {
			continue
		}
		if r.status == Active {
			active = append(active, h)
		} else {
			other = append(other, h)
		}
	}
	var out []store.Completion
	for _, group := range [...]hits{s.hits(active), s.hits(other)} {
		for i := 0; i < group.Len() && len(out) < n; i++ {
			x := group.At(i)
			out = append(out, store.Completion{Value: x.ID, Description: x.Status.String() + " · " + text.Runes(text.OneLine(x.Text), 70)})
		}
	}
	return out
}
