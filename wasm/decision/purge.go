package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// dayMs is one day in milliseconds.
const dayMs = 86400000

// PurgeCandidates lists the decisions purge would remove at nowMs: non-active
// decisions that have been in their status longer than its retention, oldest
// first. Active decisions are never candidates.
//
//	PurgeCandidates(state with a draft updated 40 days ago, retention draft=30, now)
//	=> [that draft]
func (s *state) PurgeCandidates(nowMs int64, retention [numStatus]int) []*decision {
	var out []*decision
	for h := int32(0); h < int32(s.recs.n); h++ {
		r := s.recs.at(h)
		if r.removed || r.status == Active || r.status == statusNone {
			continue
		}
		if nowMs-r.updatedAt > int64(retention[r.status])*dayMs {
			out = append(out, s.view(h))
		}
	}
	sortNewest(out)
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// retention is a per-status table of retention days, indexed by Status.
type retention = [numStatus]int

// purgePreview is what /decision purge would remove (cands, oldest first)
// under retention r, for the person to confirm: one listLine each with when
// it last changed. With no candidate it says there is nothing to purge.
func purgePreview(cands []*decision, r retention) string {
	if len(cands) == 0 {
		return "Nothing to purge: no draft, rejected or superseded decision is past its retention (" + retentionText(r) + ")."
	}
	var sb text.Builder
	sb.WriteString("Purge would remove " + text.Plural(len(cands), "decision", "decisions") + " past retention (" + retentionText(r) + "); active decisions are always kept:")
	for _, x := range cands {
		sb.WriteString("\n" + listLine(x) + " (updated " + x.Updated() + ")")
	}
	return sb.String()
}
