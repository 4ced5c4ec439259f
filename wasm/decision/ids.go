package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

// splitID splits "D-2026-02-27-0042" into "D-2026-02-27-" and 42.
//
//go:noinline
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
func (s *state) NextID(nowMs int64) string {
	day := civil.Day(nowMs)
	var date uint64
	for i := 0; i < len(day); i++ {
		if c := day[i]; c != '-' {
			date = date*10 + uint64(c-'0')
		}
	}
	num := numstr.Itoa(s.days.get(date) + 1)
	for len(num) < 4 {
		num = "0" + num
	}
	return "D-" + day + "-" + num
}

// validID reports whether id has the decision id shape.
func validID(id string) bool {
	_, _, ok := splitID(id)
	return ok
}

// idKey packs a canonical id (D-YYYY-MM-DD-NNNN, the number zero-padded to at
// least four digits) into a uint64: yyyymmdd*1e7 + number. Maps keyed by it
// cost no allocation per lookup under TinyGo, where a string-keyed lookup
// allocates — at 100k events that difference is most of the replay. Ids of
// any other shape report false and live in a string-keyed map instead.
func idKey(id string) (uint64, bool) {
	if len(id) < 17 || len(id) > 19 || id[0] != 'D' || id[1] != '-' || id[6] != '-' || id[9] != '-' || id[12] != '-' {
		return 0, false
	}
	if len(id) > 17 && id[13] == '0' {
		return 0, false // not canonical: "D-…-00012" would collide with "D-…-0012"
	}
	var date, seq uint64
	for i := 2; i < 12; i++ {
		if i == 6 || i == 9 {
			continue
		}
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		date = date*10 + uint64(c-'0')
	}
	for i := 13; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		seq = seq*10 + uint64(c-'0')
	}
	return date*10_000_000 + seq, true
}

// tornID is the decision id a torn line (cut short by a crash) was writing,
// when its id field survived whole; "" otherwise. The next add must not issue
// that id again: if someone repairs the torn line later, the two decisions
// would share an id and replay would keep only the first.
//
//	tornID(`{"v":1,"t":"…","e":"a","i":"D-2026-03-01-0004","d":{"tx":"Use`) => "D-2026-03-01-0004"
func tornID(text string) string {
	for i := 0; i+3 <= len(text); i++ {
		if text[i] != '"' || text[i+1] != 'i' || text[i+2] != '"' {
			continue
		}
		j := i + 3
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if j >= len(text) || text[j] != ':' {
			continue
		}
		j++
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if j >= len(text) || text[j] != '"' {
			continue
		}
		end := j + 1
		for end < len(text) && text[end] != '"' {
			end++
		}
		if end < len(text) && validID(text[j+1:end]) {
			return text[j+1 : end]
		}
	}
	return ""
}

// Reserve marks id as used, so NextID never issues it (see tornID).
func (s *state) Reserve(id string) { s.noteID(id) }
