package decision

// DayMs is one day in milliseconds.
const DayMs = 86400000

// PurgeCandidates lists the decisions purge would remove at nowMs: non-active
// decisions that have been in their status longer than its retention, oldest
// first. Active decisions are never candidates.
//
//	PurgeCandidates(state with a draft updated 40 days ago, retention draft=30, now)
//	=> [that draft]
func (s *State) PurgeCandidates(nowMs int64, retention [numStatus]int) []*Decision {
	var out []*Decision
	s.each(func(d *Decision) {
		if d.Status == Active || d.Status == StatusNone {
			return
		}
		if nowMs-d.UpdatedAt > int64(retention[d.Status])*DayMs {
			out = append(out, d)
		}
	})
	sortNewest(out)
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Retention is a per-status table of retention days, indexed by Status.
type Retention = [numStatus]int
