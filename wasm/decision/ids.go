package decision

import "strconv"

// splitID splits "D-2026-02-27-0042" into "D-2026-02-27-" and 42.
func splitID(id string) (string, int, bool) {
	if len(id) < 17 || id[0] != 'D' || id[1] != '-' || id[6] != '-' || id[9] != '-' || id[12] != '-' {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[13:])
	if err != nil || n < 0 {
		return "", 0, false
	}
	return id[:13], n, true
}

// NextID is the id for a decision added at nowMs: D-YYYY-MM-DD-NNNN with the
// UTC day and one more than the highest number ever used that day (removed
// decisions included). Callers hold the log lock and have replayed the tail,
// so two processes never hand out the same id.
//
//	NextID(state with D-2026-02-27-0001, 2026-02-27T10:00Z) => "D-2026-02-27-0002"
func (s *State) NextID(nowMs int64) string {
	prefix := "D-" + Day(nowMs) + "-"
	n := s.maxSeq[prefix] + 1
	num := strconv.Itoa(n)
	for len(num) < 4 {
		num = "0" + num
	}
	return prefix + num
}

// ValidID reports whether id has the decision id shape.
func ValidID(id string) bool {
	_, _, ok := splitID(id)
	return ok
}
