package decision

import (
	"bytes"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Merging two branches' logs (docs/decisions/008-merging-decision-logs.md).
// Both branches append at the end of the same file and hand out ids by day,
// so any two that add a decision on the same day conflict in git and give
// two decisions one id. merge is the rule git's merge driver runs; it is a
// pure function of the three versions of the file.

// renumbering is one decision id changed on one side of a merge, or by a repair.
type renumbering struct {
	Side     string // whose lines were rewritten: "ours" or "theirs" (a repair: "")
	Old, New string
	Line     int    // the line of the add that got the new id, in that side's file
	First    int    // a repair: the line of the add that keeps the id
	Text     string // what the decision says (its title, else its text)
}

// badLine is a line that is not an event, kept in the result where it stood.
type badLine struct {
	Side   string // "ours" or "theirs"
	Line   int    // its line in that side's file
	At     int    // its line in the result
	Sealed bool   // it was that side's last line, cut short; it now ends with a newline
	Msg    string // what is wrong with it
}

// mergeResult is a merged log and what the merge did to make it.
type mergeResult struct {
	Out []byte
	// Renumbered are theirs' decisions whose ids ours had given to other
	// decisions since the common ancestor.
	Renumbered []renumbering
	// Followed are ids one side had already renumbered (a rebase replaying
	// commits one by one, a repaired log): the other side's new lines that
	// still used the old id now use the new one.
	Followed []renumbering
	// Rewritten is how many lines changed bytes: only their ids did.
	Rewritten int
	// Bad are the lines of either side that are not events; none is dropped.
	Bad []badLine
	// Dropped is how many lines of the ancestor one side had deleted (a
	// repair, a hand edit) and the other kept unchanged: they stay deleted.
	Dropped int
}

// notALogError is a side of a merge that is not a decision log: git must
// stop and let a person look.
type notALogError struct {
	Side  string
	Lines int
}

func (e *notALogError) Error() string {
	return e.Side + " is not a decision log: none of its " + text.Plural(e.Lines, "line", "lines") + " is an event"
}

// merge merges two versions of a log, ours and theirs, that grew apart from
// their common ancestor. The rules, pinned by merge_test.go:
//
//   - Every line either side added since the ancestor is in the result once:
//     a line both added (a cherry-pick) is kept once; the ancestor's lines are
//     kept once. A line of the ancestor that one side deleted and the other
//     kept unchanged stays deleted (logs only lose lines on purpose).
//   - Lines are in time order, by merging the two sides like sorted lists:
//     neither side's own order changes, and on equal times ours come first;
//     a line of theirs never goes above a line of the result it followed in
//     theirs, whatever its time (a clock behind).
//     A line without a time (a bad line, a blank line) follows the line
//     before it in its own file.
//   - A decision id both sides added since the ancestor, for different
//     decisions, is renumbered on theirs: the next number of that day not
//     used in any of the three files, in the time order of theirs' adds.
//     Every reference theirs' new lines make to it ("i", "sp", "sb", "c")
//     follows, and so does every reference to an id one side had already
//     renumbered. Only those lines change bytes, and in them only the ids.
//   - A line both sides added that names a renumbered id means a different
//     decision on each side (each removed or edited its own): it is kept
//     twice, ours as written and theirs with the new id, so the result
//     folds to what applying both sides does.
//   - A line that is not an event (torn, corrupt, newer version) is kept as
//     written and reported; a torn last line that is no longer last gets a
//     newline.
//
// merge(o, r, r) is r, byte for byte, whatever r holds: a merge may leave a
// log with no event in it, and merging it again must not refuse it.
// Otherwise merge fails only when ours or theirs holds lines and none of
// them is an event.
//
//	merge(`a 0001 "Use Go"`, `… a 0002 "Use gRPC"`, `… a 0002 "Use REST"`)
//	=> `a 0001 "Use Go"`, `a 0002 "Use gRPC"`, `a 0003 "Use REST"` (theirs' 0002 renumbered)
func merge(ancestor, ours, theirs []byte) (mergeResult, error) {
	O, _ := splitLog(ancestor)
	A, bom := splitLog(ours)
	B, _ := splitLog(theirs)
	if !bytes.Equal(ours, theirs) {
		if !looksLikeLog(A) {
			return mergeResult{}, &notALogError{Side: "ours", Lines: len(A)}
		}
		if !looksLikeLog(B) {
			return mergeResult{}, &notALogError{Side: "theirs", Lines: len(B)}
		}
	}
	m := merger{O: O, A: A, B: B, counts: map[string]*lineCount{}}
	m.count()
	seqA, seqB := m.pick()
	m.renames()
	m.collisions()
	seqB = m.splitShared(seqB)
	return m.emit(seqA, seqB, bom), nil
}

// lineCount is how often one line occurs in each version, and how many
// copies the result keeps.
type lineCount struct {
	o, a, b int
	r       int // copies in the result
	fromA   int // of which from ours
	aOnly   int // of ours' copies, how many neither the ancestor nor theirs has
}

type merger struct {
	O, A, B []logLine
	counts  map[string]*lineCount
	lostA   bool              // ours deleted a line of the ancestor
	lostB   bool              // theirs did
	onlyA   []bool            // ours' kept lines that are ours alone
	extraB  []bool            // theirs' lines the result takes from theirs
	toA     map[string]string // ids theirs renumbered, followed by ours' new lines
	toB     map[string]string // ids ours renumbered, followed by theirs' new lines
	renum   map[string]string // theirs' colliding ids and their new numbers
	from    map[string]int    // the line of theirs from which a renumbered id means theirs' new decision
	res     mergeResult
	follow  map[string]bool // "side id" of each renumbering followed, reported once
}

func (m *merger) get(key string) *lineCount {
	c := m.counts[key]
	if c == nil {
		c = &lineCount{}
		m.counts[key] = c
	}
	return c
}

// count decides how many copies of each line the result keeps: each side's
// change since the ancestor (copies added or deleted) applies; the same
// change on both sides applies once.
func (m *merger) count() {
	for i := range m.O {
		m.get(m.O[i].key).o++
	}
	for i := range m.A {
		m.get(m.A[i].key).a++
	}
	for i := range m.B {
		m.get(m.B[i].key).b++
	}
	for _, c := range m.counts {
		da, db := c.a-c.o, c.b-c.o
		switch {
		case da >= 0 && db >= 0:
			c.r = max(c.a, c.b)
		case da <= 0 && db <= 0:
			c.r = min(c.a, c.b)
		default:
			c.r = c.a + c.b - c.o
		}
		m.lostA = m.lostA || c.a < c.o
		m.lostB = m.lostB || c.b < c.o
		c.fromA = min(c.a, c.r)
		c.aOnly = min(c.fromA, max(0, c.a-max(c.o, c.b)))
	}
}

// pick lists the lines the result takes: ours' first copies of each line,
// then theirs' last ones (what theirs appended) for the copies ours lacks.
func (m *merger) pick() (seqA, seqB []int) {
	seen := map[string]int{}
	m.onlyA = make([]bool, len(m.A))
	for i := range m.A {
		c := m.counts[m.A[i].key]
		n := seen[m.A[i].key]
		seen[m.A[i].key] = n + 1
		if n < c.fromA {
			seqA = append(seqA, i)
			m.onlyA[i] = n >= c.fromA-c.aOnly
		}
	}
	seen = map[string]int{}
	m.extraB = make([]bool, len(m.B))
	for i := range m.B {
		c := m.counts[m.B[i].key]
		n := seen[m.B[i].key]
		seen[m.B[i].key] = n + 1
		if extra := c.r - c.fromA; extra > 0 && n >= c.b-extra {
			seqB = append(seqB, i)
			m.extraB[i] = true
		}
	}
	for _, c := range m.counts {
		if c.o > c.r {
			m.res.Dropped += c.o - c.r
		}
	}
	return seqA, seqB
}

// renames finds the ids each side renumbered since the ancestor: the
// ancestor's add of a decision is gone from that side, and a new add with
// the same time, project, title and text but another id took its place. The
// other side's new lines, written before that, still use the old id.
func (m *merger) renames() {
	if !m.lostA && !m.lostB {
		return // the usual case: both sides only appended
	}
	live := liveAdds(m.O)
	if m.lostA {
		m.toB = m.renamed(live, m.A, func(c *lineCount) int { return c.a })
	}
	if m.lostB {
		m.toA = m.renamed(live, m.B, func(c *lineCount) int { return c.b })
	}
}

func (m *merger) renamed(live map[string]int, S []logLine, n func(*lineCount) int) map[string]string {
	out := map[string]string{}
	var fresh map[string][]*Event
	for id, i := range live {
		l := &m.O[i]
		if c := m.counts[l.key]; n(c) >= c.o {
			continue // that side still has the ancestor's add
		}
		if fresh == nil {
			fresh = map[string][]*Event{}
			for j := range S {
				s := &S[j]
				if c := m.counts[s.key]; s.ok && s.ev.Code == Add && n(c) > c.o {
					k := s.ev.Time + "\x00" + s.ev.Data.Text
					fresh[k] = append(fresh[k], &s.ev)
				}
			}
		}
		var to string
		matches := 0
		for _, ev := range fresh[l.ev.Time+"\x00"+l.ev.Data.Text] {
			if ev.ID != id && ev.Project == l.ev.Project && ev.Data.Title == l.ev.Data.Title {
				to = ev.ID
				matches++
			}
		}
		if matches == 1 {
			out[id] = to
		}
	}
	return out
}

// liveAdds maps each id of a log to the add that replay holds for it at the
// end (the first add while it lives; after a remove, the last add).
func liveAdds(lines []logLine) map[string]int {
	at := map[string]int{}
	live := map[string]bool{}
	for i := range lines {
		l := &lines[i]
		if !l.ok {
			continue
		}
		switch l.ev.Code {
		case Add:
			if !live[l.ev.ID] {
				at[l.ev.ID], live[l.ev.ID] = i, true
			}
		case Remove:
			live[l.ev.ID] = false
		}
	}
	return at
}

// collisions renumbers theirs' new decisions whose ids ours' new lines gave
// to other decisions.
func (m *merger) collisions() {
	ours := map[string]bool{}
	for i := range m.A {
		if l := &m.A[i]; m.onlyA[i] && l.ok && l.ev.Code == Add {
			ours[l.ev.ID] = true
		}
	}
	type clash struct {
		id string
		at int // index in theirs of its first add
	}
	var clashes []clash
	seen := map[string]bool{}
	for i := range m.B {
		l := &m.B[i]
		if !m.extraB[i] || !l.ok || l.ev.Code != Add {
			continue
		}
		id := l.ev.ID
		if ours[id] && !seen[id] {
			seen[id] = true
			clashes = append(clashes, clash{id, i})
		}
	}
	if len(clashes) == 0 {
		return
	}
	sortBy(len(clashes), func(i, j int) bool {
		ti, tj := m.B[clashes[i].at].ev.TimeMs, m.B[clashes[j].at].ev.TimeMs
		return ti < tj || ti == tj && clashes[i].at < clashes[j].at
	}, func(i, j int) { clashes[i], clashes[j] = clashes[j], clashes[i] })
	used := newIDsInUse()
	used.noteLines(m.O)
	used.noteLines(m.A)
	used.noteLines(m.B)
	m.renum, m.from = map[string]string{}, map[string]int{}
	for _, c := range clashes {
		l := &m.B[c.at]
		m.renum[c.id], m.from[c.id] = used.next(c.id), c.at
		m.res.Renumbered = append(m.res.Renumbered, renumbering{Side: "theirs", Old: c.id, New: m.renum[c.id], Line: l.num, Text: short(l.ev.Data.Title, l.ev.Data.Text)})
	}
}

// splitShared adds to seqB the lines theirs shares with ours (added since
// the ancestor by both, byte for byte, so kept once as ours) that name an id
// collisions renumbered, from theirs' add of it on: there the id means
// theirs' decision, and ours' copy still means ours'. Both sides removing
// the id they each gave a decision, in the same millisecond (or a
// cherry-pick of that remove), left one remove for two decisions; with a
// restore (an add after a remove of the same id) on theirs, the renumbered
// id was then added twice while live. seqB stays in theirs' order.
func (m *merger) splitShared(seqB []int) []int {
	if len(m.renum) == 0 {
		return seqB
	}
	seen := map[string]int{}
	added := false
	for i := range m.B {
		l := &m.B[i]
		n := seen[l.key]
		seen[l.key] = n + 1
		if m.extraB[i] || !l.ok || n < m.counts[l.key].o {
			continue // theirs' own line, a bad one, or the ancestor's copy
		}
		if _, renamed := rewriteIDs(l.raw, func(id string) (string, bool) {
			to, ok := m.renum[id]
			return to, ok && i >= m.from[id]
		}); renamed {
			m.extraB[i], added = true, true
		}
	}
	if !added {
		return seqB
	}
	seqB = seqB[:0]
	for i := range m.B {
		if m.extraB[i] {
			seqB = append(seqB, i)
		}
	}
	return seqB
}

// theirs is the id a line of theirs (at index i) means by id in the result.
// A renumbered id is theirs' new decision from its add on; before that it
// named an older decision (an id reused after a remove), which keeps it.
func (m *merger) theirs(i int, id string) (string, bool) {
	if n, ok := m.renum[id]; ok && i >= m.from[id] {
		return n, true
	}
	if n, ok := m.toB[id]; ok {
		m.followed("theirs", id, n)
		return n, true
	}
	return "", false
}

// ours is the id a new line of ours means by id in the result.
func (m *merger) ours(id string) (string, bool) {
	if n, ok := m.toA[id]; ok {
		m.followed("ours", id, n)
		return n, true
	}
	return "", false
}

// emit writes the result: the two sides merged by time, ids rewritten where
// the merge renumbered them.
func (m *merger) emit(seqA, seqB []int, bom bool) mergeResult {
	res := &m.res
	m.follow = map[string]bool{}
	size := 3
	for _, i := range seqA {
		size += len(m.A[i].raw) + 1
	}
	for _, i := range seqB {
		size += len(m.B[i].raw) + 1
	}
	out := make([]byte, 0, size+size/64)
	if bom {
		out = append(out, 0xEF, 0xBB, 0xBF)
	}
	total := len(seqA) + len(seqB)
	at := 0
	put := func(l *logLine, side string, to func(id string) (string, bool)) {
		at++
		raw := l.raw
		if l.ok && to != nil {
			if b, changed := rewriteIDs(raw, to); changed {
				raw = b
				res.Rewritten++
			}
		}
		out = append(out, raw...)
		last := at == total
		if l.nl || !last {
			out = append(out, '\n')
		}
		if !l.ok && !l.blank() {
			res.Bad = append(res.Bad, badLine{Side: side, Line: l.num, At: at, Sealed: !l.nl && !last, Msg: l.err.Error()})
		}
	}
	after := m.shared(seqA, seqB)
	i, j := 0, 0
	for i < len(seqA) || j < len(seqB) {
		if j < len(seqB) && (i == len(seqA) || m.B[seqB[j]].eff < m.A[seqA[i]].eff && i > after[j]) {
			k := seqB[j]
			var to func(string) (string, bool)
			if len(m.renum)+len(m.toB) > 0 {
				to = func(id string) (string, bool) { return m.theirs(k, id) }
			}
			put(&m.B[k], "theirs", to)
			j++
			continue
		}
		k := seqA[i]
		var to func(string) (string, bool)
		if m.onlyA[k] && len(m.toA) > 0 {
			to = m.ours
		}
		put(&m.A[k], "ours", to)
		i++
	}
	res.Out = out
	sortBy(len(res.Followed), func(i, j int) bool {
		if res.Followed[i].Side != res.Followed[j].Side {
			return res.Followed[i].Side < res.Followed[j].Side
		}
		return res.Followed[i].Old < res.Followed[j].Old
	}, func(i, j int) { res.Followed[i], res.Followed[j] = res.Followed[j], res.Followed[i] })
	return *res
}

// shared is, for each of theirs' lines the result takes (seqB), the place
// in seqA of the last line theirs holds before it that the result takes
// from ours (-1 for none): a line of theirs goes after it, whatever its
// time says. A line stamped earlier than a line it followed (a teammate's
// clock behind) went above the ancestor's add of its own decision, and its
// remove was then read before the add and ignored (h-v100 d3).
func (m *merger) shared(seqA, seqB []int) []int {
	at := map[string][]int{} // each line's places in seqA, in order
	for p, i := range seqA {
		at[m.A[i].key] = append(at[m.A[i].key], p)
	}
	taken := make([]bool, len(m.B))
	for _, k := range seqB {
		taken[k] = true
	}
	seen := map[string]int{}
	after := make([]int, 0, len(seqB))
	last := -1
	for k := range m.B {
		if taken[k] {
			after = append(after, last)
			continue
		}
		key := m.B[k].key
		if n := seen[key]; n < len(at[key]) {
			last = max(last, at[key][n])
		}
		seen[key]++
	}
	return after
}

func (m *merger) followed(side, old, to string) {
	if k := side + " " + old; !m.follow[k] {
		m.follow[k] = true
		m.res.Followed = append(m.res.Followed, renumbering{Side: side, Old: old, New: to})
	}
}

// Text says what the merge changed beyond putting lines together, starting
// with its separator from what comes before ("path:" + Text reads well);
// "" when nothing did: a clean merge is silent, as git's own are.
func (res *mergeResult) Text() string {
	var parts []string
	for _, r := range res.Renumbered {
		parts = append(parts, "theirs' "+r.Old+" is now "+r.New+" ("+strconv.Quote(oneLine(r.Text))+"): ours had given "+r.Old+" to another decision")
	}
	for _, r := range res.Followed {
		parts = append(parts, r.Side+"' new lines now say "+r.New+" for "+r.Old+", which the other side had renumbered")
	}
	if res.Dropped > 0 {
		parts = append(parts, "left out "+text.Plural(res.Dropped, "line", "lines")+" of the common ancestor that one side had removed or rewritten")
	}
	for _, b := range res.Bad {
		s := "kept a bad line: " + b.Side + " line " + numstr.Itoa(b.Line) + " (now line " + numstr.Itoa(b.At) + "): " + b.Msg
		if b.Sealed {
			s += "; it was cut short and now ends with a newline"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	sep := " "
	if len(parts) > 1 {
		sep = "\n  "
	}
	text := sep + strings.Join(parts, "\n  ")
	if len(res.Bad) > 0 {
		text += "\nRun pimem decision doctor after the merge."
	}
	return text
}
