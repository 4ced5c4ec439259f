package decision

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// plainID: an id a person wrote is one line of plain text: no line break,
// tab or "|" (a list's column), nothing marker.Check refuses.
func plainID(id string) bool {
	return len(id) <= maxIDBytes && !strings.ContainsAny(id, "\t|") && plainLine(id) == ""
}

// maxIDBytes bounds an id a person wrote: one of 2,300 bytes took the
// decisions' whole budget in the prompt (h-v79 B1).
const maxIDBytes = 64

// plainLine says what in s would not be one line of plain text wherever it
// is shown: a line break (U+2028, U+2029 and U+0085 too) or what
// marker.Check refuses; "" when there is none. A tag is held to it when it
// is written (plainWhy) and when it is read.
func plainLine(s string) string {
	if k := strings.IndexAny(s, "\n\u2028\u2029\u0085"); k >= 0 {
		return "a line break at character " + numstr.Itoa(utf8.RuneCountInString(s[:k])+1)
	}
	return marker.Check(s)
}

// excerpt is the start of a bad value a problem quotes, redacted whole
// before it is cut: the problem is kept in the snapshot and shown by
// doctor, and the value's secret may span its lines.
func excerpt(v string) string {
	r, _ := redact.String(v)
	return strconv.Quote(text.Runes(r, 40))
}

// problemKind classifies what doctor reports about a log.
type problemKind uint8

const (
	corrupt       problemKind = iota + 1 // the line is not a valid event; skipped
	torn                                 // last line cut short by a crash; skipped
	noNewline                            // last line complete but unterminated; applied
	newerVersion                         // written by a newer format; skipped
	unknownID                            // event for an id never added; ignored
	removedID                            // event for an id already removed; ignored
	duplicateAdd                         // add for an id that exists; ignored
	backwardsTime                        // event older than the id's previous event; applied
	badTime                              // t does not parse; applied with time 0
	tooLong                              // longer than maxLine; skipped unread
)

var problemNames = [...]string{"", "corrupt", "torn", "no-newline", "newer-version", "unknown-id", "removed-id", "duplicate-add", "backwards-time", "bad-time", "too-long"}

// String is the kind's name in doctor's report; a kind this build does not
// know (a damaged snapshot) is "unknown".
func (k problemKind) String() string {
	if int(k) >= len(problemNames) {
		return "unknown"
	}
	return problemNames[k]
}

// problem is one finding about one line of the log.
type problem struct {
	Line int
	Kind problemKind
	ID   string
	Msg  string
}

// state is the materialized decision memory: every decision by id, with
// views by status, tag and time built on demand. apply is the only way it
// changes. It holds no Go pointers per decision (see store.go).
type state struct {
	strs strs
	recs recs     // every decision ever added, in log order; removed ones flagged
	ids  index    // id key -> handle
	days dayIndex // yyyymmdd -> highest id number ever added that day
	live int
	// common remembers the refs of the last project id and actor seen, which
	// repeat on nearly every line, so they are stored once.
	common [2]struct {
		v string
		r ref
	}

	counts [numStatus]int

	// Problems found while replaying, in line order.
	Problems []problem
	// Lines is the number of lines consumed (including blank and bad ones).
	Lines int
	// Events is the number of events applied.
	Events int
	// Gen changes whenever a decision changes; caches compare it.
	Gen uint64

	byTag    map[string][]int32 // built on demand, dropped on change; the tag vocabulary is small
	byTagGen uint64
	feats    []*features // similarity features by handle, prepared on first Check

	base *base // what the snapshot this state started from said; nil after a cold replay

	// marked are the handles of the live decisions that carry conflict
	// marks, ascending: few, kept as the log replays (and in a snapshot), so
	// the footer and the section find unresolved conflicts without reading
	// every record.
	marked []int32
}

// base is what a snapshot said about the newest active decisions and the
// active tags, and which decisions changed since: together they answer the
// injection's questions without reading every record.
type base struct {
	n           int32      // records in the snapshot; higher handles are new
	hot         []int32    // the hotSize newest active decisions then, newest first
	hotSaid     []hotEntry // what the snapshot said of each, for the first injection
	edge        bool       // hot was full: every other active decision ranked below edgeUpdated/edgeID
	edgeUpdated int64
	edgeID      string
	tags        tagCounts // tags of the active decisions then
	touchedBit  []uint64
	touched     []touch // snapshot decisions changed since, with what they were
}

// hotEntry is what a snapshot keeps of a hot decision: its order and what
// the injected section shows of it. A session whose log did not touch it
// renders it from these, reading neither its record nor its strings: the
// first prompt after a start once paged in a megabyte of a 100k-event log's
// snapshot for twenty lines the last session had rendered already.
type hotEntry struct {
	updated  int64
	id, line string
	tags     []string // its own tags, as the summary counts them
}

// said is the snapshot's entry for h when h is a hot decision its log left
// untouched, else nil.
//
//go:noinline
func (b *base) said(h int32) *hotEntry {
	if b == nil || b.isTouched(h) {
		return nil
	}
	for i, x := range b.hot {
		if x == h && i < len(b.hotSaid) {
			return &b.hotSaid[i]
		}
	}
	return nil
}

type touch struct {
	h      int32
	status Status
	tags   list
}

// touch notes that the snapshot decision h is about to change.
func (s *state) touch(h int32) {
	b := s.base
	if b == nil || h >= b.n || b.touchedBit[h>>6]&(1<<(h&63)) != 0 {
		return
	}
	b.touchedBit[h>>6] |= 1 << (h & 63)
	r := s.recs.at(h)
	b.touched = append(b.touched, touch{h: h, status: r.status, tags: r.tags})
}

func (b *base) isTouched(h int32) bool { return h < b.n && b.touchedBit[h>>6]&(1<<(h&63)) != 0 }

// newState returns an empty state.
func newState() *state { return &state{} }

// Len is the number of live decisions.
func (s *state) Len() int { return s.live }

// Count is the number of live decisions with status st.
func (s *state) Count(st Status) int { return s.counts[st] }

// keyOf is an id's key in the index: its packed form when canonical, else a
// 63-bit FNV-1a hash with the top bit set (so it can never equal a packed key).
func keyOf(id string) (uint64, bool) {
	if k, ok := idKey(id); ok {
		return k, true
	}
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	return h | 1<<63, false
}

// lookup returns the handle of the decision (live or removed) last added
// with id, or -1.
func (s *state) lookup(id string) int32 {
	x := &s.ids
	x.ready()
	if len(x.keys) == 0 {
		return -1
	}
	k, exact := keyOf(id)
	for i := x.slot(k); x.keys[i] != 0; i = (i + 1) & (len(x.keys) - 1) {
		if x.keys[i] == k {
			h := x.vals[i]
			if exact || s.strs.get(s.recs.at(h).id) == id {
				return h
			}
		}
	}
	return -1
}

//go:noinline
func (s *state) liveHandle(id string) int32 {
	if h := s.lookup(id); h >= 0 && !s.recs.at(h).removed {
		return h
	}
	return -1
}

// Get returns a view of the live decision with id, or nil.
//
//go:noinline
func (s *state) Get(id string) *decision {
	if h := s.liveHandle(id); h >= 0 {
		return s.view(h)
	}
	return nil
}

// WasRemoved reports whether id existed and was removed.
func (s *state) WasRemoved(id string) bool {
	h := s.lookup(id)
	return h >= 0 && s.recs.at(h).removed
}

// index points id at handle h, replacing an earlier decision with that id.
func (s *state) index(id string, h int32) {
	k, exact := keyOf(id)
	x := &s.ids
	x.ready()
	if exact {
		x.setFirst(k, h)
		return
	}
	// A hashed key may be shared by another id: replace only this id's entry.
	for i := x.slot(k); len(x.keys) > 0 && x.keys[i] != 0; i = (i + 1) & (len(x.keys) - 1) {
		if x.keys[i] == k && s.strs.get(s.recs.at(x.vals[i]).id) == id {
			x.vals[i] = h
			return
		}
	}
	x.insert(k, h)
}

// putCommon stores a string that repeats on most lines once.
func (s *state) putCommon(i int, v string) ref {
	c := &s.common[i]
	if c.r != 0 && c.v == v {
		return c.r
	}
	r := s.strs.put(v)
	c.v, c.r = s.strs.get(r), r
	return r
}

//go:noinline
func (s *state) problem(line int, kind problemKind, id, msg string) {
	s.Problems = append(s.Problems, problem{Line: line, Kind: kind, ID: id, Msg: msg})
}

// Sealed forgets the no-newline finding once a writer has ended that line.
func (s *state) Sealed() {
	out := s.Problems[:0]
	for _, p := range s.Problems {
		if p.Kind != noNewline {
			out = append(out, p)
		}
	}
	s.Problems = out
}

// apply replays one decoded event read from line (1-based). The outcomes for
// odd logs are part of the format (docs/formats.md):
//   - an add for a live id is ignored (first add wins);
//   - an add for a removed id starts a new decision with that id;
//   - any other event for an unknown or removed id is ignored;
//   - edit, status and supersede merge the keys they carry, in file order;
//   - a decision's UpdatedAt is the newest event time seen, so an event with an
//     older time still applies but does not make the decision "newer".
//
// The event's strings may point into a reader's buffer: apply copies what it keeps.
func (s *state) apply(ev *Event, line int) {
	// An id is shown everywhere (lists, search, the injected prompt): one a
	// person wrote that holds a secret makes the line corrupt, said without
	// it. A canonical id (D-2026-02-27-0042) cannot, and is not looked at.
	if !validID(ev.ID) && redact.Contains(ev.ID) {
		s.problem(line, corrupt, "", "its id holds what looks like a secret; skipped (remove the secret by hand, and rotate it)")
		return
	}
	// And one line of plain text, as every id it names: a line break, a
	// "|", a control character or a marker in one forged lines wherever it
	// is shown (h-v77 B2, B3).
	for _, id := range append([]string{ev.ID, ev.Data.Supersedes, ev.Data.SupersededBy}, ev.Data.Conflicts...) {
		if !validID(id) && !plainID(id) {
			s.problem(line, corrupt, "", "an id it names ("+excerpt(id)+") is not one short line of plain text; skipped")
			return
		}
	}
	for _, tag := range ev.Data.Tags {
		if why := plainLine(tag); why != "" {
			s.problem(line, corrupt, ev.ID, "a tag ("+excerpt(tag)+") holds "+why+"; skipped")
			return
		}
	}
	if ev.TimeMs == 0 && ev.Time != "" {
		s.problem(line, badTime, ev.ID, "time "+strconv.Quote(ev.Time)+" is not RFC 3339")
	}
	h := s.liveHandle(ev.ID)
	switch ev.Code {
	case Add:
		if h >= 0 {
			s.problem(line, duplicateAdd, ev.ID, "second add of "+ev.ID+" (first added at line "+numstr.Itoa(int(s.recs.at(h).addLine))+"); ignored")
			return
		}
		s.noteID(ev.ID)
		h, r := s.recs.add()
		r.id = s.strs.put(ev.ID)
		r.project = s.putCommon(0, ev.Project)
		r.createdBy = s.putCommon(1, ev.Actor)
		r.status = Active
		r.createdAt, r.updatedAt = ev.TimeMs, ev.TimeMs
		r.addLine, r.lastLine = int32(line), int32(line)
		s.merge(r, &ev.Data)
		s.index(ev.ID, h)
		s.live++
		s.counts[r.status]++
		s.remark(h)
		// pi-decision-memory writes no back link when it supersedes: derive it.
		if r.supersedes != 0 {
			if old := s.liveHandle(s.strs.get(r.supersedes)); old >= 0 && s.recs.at(old).supersededBy == 0 {
				s.touch(old)
				s.recs.at(old).supersededBy = r.id
			}
		}
	case Remove:
		if h < 0 {
			s.orphan(ev, line)
			return
		}
		s.touch(h)
		r := s.recs.at(h)
		s.counts[r.status]--
		r.removed, r.removedLine, r.removedAt = true, int32(line), ev.TimeMs
		s.live--
		s.remark(h)
	default:
		if h < 0 {
			s.orphan(ev, line)
			return
		}
		s.touch(h)
		r := s.recs.at(h)
		if ev.TimeMs < r.updatedAt && ev.TimeMs != 0 {
			s.problem(line, backwardsTime, ev.ID, "event time "+ev.Time+" is older than the previous event for "+ev.ID+" ("+timeText(r.updatedAt)+")")
		}
		s.counts[r.status]--
		s.merge(r, &ev.Data)
		s.counts[r.status]++
		s.remark(h)
		if ev.TimeMs > r.updatedAt {
			r.updatedAt = ev.TimeMs
		}
		r.lastLine = int32(line)
	}
	s.Events++
	s.Gen++
}

func (s *state) orphan(ev *Event, line int) {
	if h := s.lookup(ev.ID); h >= 0 && s.recs.at(h).removed {
		s.problem(line, removedID, ev.ID, ev.Code.longName()+" for "+ev.ID+", removed at line "+numstr.Itoa(int(s.recs.at(h).removedLine))+"; ignored")
		return
	}
	s.problem(line, unknownID, ev.ID, ev.Code.longName()+" for "+ev.ID+", which was never added; ignored")
}

// noteID remembers the highest daily number ever used, so ids are never
// reused, even after a remove.
func (s *state) noteID(id string) {
	if k, ok := idKey(id); ok {
		s.days.raise(k/10_000_000, int(k%10_000_000))
	}
}

func (s *state) merge(r *rec, data *Data) {
	h := data.Has
	if h&HasTitle != 0 {
		r.title = s.strs.put(data.Title)
	}
	if h&HasText != 0 {
		r.text = s.strs.put(data.Text)
	}
	if h&HasTags != 0 {
		r.tags = s.strs.putList(data.Tags)
	}
	if h&HasStatus != 0 {
		r.status = data.Status
	}
	if h&HasReason != 0 {
		r.reason = s.strs.put(data.Reason)
	}
	if h&hasSupersedes != 0 {
		r.supersedes = s.strs.put(data.Supersedes)
	}
	if h&hasConflicts != 0 {
		r.conflicts = s.strs.putList(data.Conflicts)
	}
	if h&HasSupersededBy != 0 {
		r.supersededBy = s.strs.put(data.SupersededBy)
	}
	if h&hasConflictNote != 0 {
		r.conflictNote = s.strs.put(data.ConflictNote)
	}
	if h&HasSource != 0 {
		r.source = s.strs.put(data.Source)
	}
	if h&HasConfidence != 0 {
		r.confidence, r.hasConf = data.Confidence, true
	}
	if h&HasCategory != 0 {
		r.category = s.strs.put(data.Category)
	}
}

// view materializes the decision at handle h (strings are views into the
// pages; the tag and conflict slices are allocated).
func (s *state) view(h int32) *decision {
	r := s.recs.at(h)
	p := &s.strs
	return &decision{
		h:            h,
		ID:           p.get(r.id),
		ProjectID:    p.get(r.project),
		Title:        p.get(r.title),
		Text:         p.get(r.text),
		Tags:         p.getList(r.tags),
		Status:       r.status,
		Reason:       p.get(r.reason),
		Supersedes:   p.get(r.supersedes),
		SupersededBy: p.get(r.supersededBy),
		Conflicts:    p.getList(r.conflicts),
		ConflictNote: p.get(r.conflictNote),
		Source:       p.get(r.source),
		Confidence:   r.confidence,
		HasConf:      r.hasConf,
		Category:     p.get(r.category),
		CreatedAt:    r.createdAt,
		UpdatedAt:    r.updatedAt,
		CreatedBy:    p.get(r.createdBy),
		AddLine:      int(r.addLine),
		LastLine:     int(r.lastLine),
	}
}

// newer orders handles newest first: by updated time, then by id (ids grow
// with time within a day), so the order never depends on storage order.
func (s *state) newer(a, b int32) bool {
	ra, rb := s.recs.at(a), s.recs.at(b)
	if ra.updatedAt != rb.updatedAt {
		return ra.updatedAt > rb.updatedAt
	}
	return s.strs.get(ra.id) > s.strs.get(rb.id)
}

// newerThan orders decisions newest first, like the state's own lists.
func newerThan(a, b *decision) bool {
	if a.UpdatedAt != b.UpdatedAt {
		return a.UpdatedAt > b.UpdatedAt
	}
	return a.ID > b.ID
}

// hits is a list of decisions found, newest first, materialized on demand:
// a search may find 100k decisions of which a person sees fifty. It is also
// ordered on demand: showing the first fifty orders only the top of the list.
type hits struct {
	s      *state
	h      []int32
	sorted *int // how many leading entries are in final order (shared by copies)
}

// Len is the number of decisions found.
func (x hits) Len() int { return len(x.h) }

// At materializes the i-th decision, newest first.
func (x hits) At(i int) *decision {
	x.order(i + 1)
	return x.s.view(x.h[i])
}

// All materializes every decision found.
func (x hits) All() []*decision {
	x.order(len(x.h))
	out := make([]*decision, len(x.h))
	for i := range x.h {
		out[i] = x.s.view(x.h[i])
	}
	return out
}

// order puts at least the first n entries in final order: by one bounded
// pass when n is small next to the list, else by sorting everything.
func (x hits) order(n int) {
	if x.sorted == nil || *x.sorted >= n {
		return
	}
	s, h := x.s, x.h
	const top = 64
	if n > top || len(h) <= 4*top {
		sortBy(len(h), func(i, j int) bool { return s.newer(h[i], h[j]) }, func(i, j int) { h[i], h[j] = h[j], h[i] })
		*x.sorted = len(h)
		return
	}
	// Move the top entries to the front in order; the rest stay after them.
	best := make([]int32, 0, top+1)
	for _, v := range h {
		best = s.keepNewest(best, top, v)
	}
	rest := make([]int32, 0, len(h)-len(best))
	in := make(map[int32]bool, len(best))
	for _, v := range best {
		in[v] = true
	}
	for _, v := range h {
		if !in[v] {
			rest = append(rest, v)
		}
	}
	copy(h, best)
	copy(h[len(best):], rest)
	*x.sorted = len(best)
}

func (s *state) hits(h []int32) hits {
	n := 0
	return hits{s: s, h: h, sorted: &n}
}

// All returns the live decisions, newest first.
func (s *state) All() hits {
	out := make([]int32, 0, s.live)
	for h := int32(0); h < int32(s.recs.n); h++ {
		if !s.recs.at(h).removed {
			out = append(out, h)
		}
	}
	return s.hits(out)
}

// WithStatus returns the live decisions with status st, newest first (byStatus).
func (s *state) WithStatus(st Status) hits {
	out := make([]int32, 0, s.counts[st])
	for h := int32(0); h < int32(s.recs.n); h++ {
		if r := s.recs.at(h); !r.removed && r.status == st {
			out = append(out, h)
		}
	}
	return s.hits(out)
}

// withTag returns the live decisions carrying tag (case-insensitive), newest
// first (byTag). The index is built on first use and rebuilt after changes.
func (s *state) withTag(tag string) hits {
	if s.byTag == nil || s.byTagGen != s.Gen {
		s.byTag = make(map[string][]int32)
		for h := int32(0); h < int32(s.recs.n); h++ {
			r := s.recs.at(h)
			if r.removed {
				continue
			}
			for _, t := range s.strs.refs(r.tags) {
				k := foldTag(s.strs.get(t))
				s.byTag[k] = append(s.byTag[k], h)
			}
		}
		for _, l := range s.byTag {
			sortBy(len(l), func(i, j int) bool { return s.newer(l[i], l[j]) }, func(i, j int) { l[i], l[j] = l[j], l[i] })
		}
		s.byTagGen = s.Gen
	}
	done := len(s.byTag[foldTag(tag)])
	return hits{s: s, h: s.byTag[foldTag(tag)], sorted: &done}
}

// newestActive returns up to n active decisions, newest first: from what the
// snapshot listed plus what changed since when that is provably complete,
// else in one pass over every record (injection runs this on every changed
// turn).
func (s *state) newestActive(n int) []int32 {
	top, ok := s.newestFromBase(n)
	if !ok {
		top = s.newestScan(n)
	}
	return top
}

// newestFromBase ranks the snapshot's hot list (less what changed) together
// with every decision changed or added since. Any other active decision is
// unchanged and ranked below the hot list's edge when the snapshot was
// written, so the candidates' top n is the answer when the n-th of them
// still ranks above that edge (or the hot list held every active decision).
// An untouched hot decision is ranked by what the snapshot said of it.
func (s *state) newestFromBase(n int) ([]int32, bool) {
	b := s.base
	if b == nil || s.strs.broken {
		return nil, false
	}
	var active []int32
	for _, h := range b.hot {
		if !b.isTouched(h) {
			active = append(active, h)
		}
	}
	for _, t := range b.touched {
		active = append(active, t.h)
	}
	for h := b.n; h < int32(s.recs.n); h++ {
		active = append(active, h)
	}
	k := 0
	for _, h := range active {
		if b.said(h) != nil || !s.recs.at(h).removed && s.recs.at(h).status == Active {
			active[k] = h
			k++
		}
	}
	active = active[:k]
	sortBy(len(active), func(i, j int) bool { return s.newerSaid(active[i], active[j]) }, func(i, j int) { active[i], active[j] = active[j], active[i] })
	if len(active) > n {
		active = active[:n]
	}
	if !b.edge {
		return active, true
	}
	if len(active) < n {
		return nil, false
	}
	last := active[n-1]
	if at := s.updated(last); b.edgeUpdated > at || b.edgeUpdated == at && b.edgeID > s.idOf(last) {
		return nil, false
	}
	return active, true
}

// newerSaid is newer, reading what the snapshot said of a hot decision.
func (s *state) newerSaid(a, b int32) bool {
	if ta, tb := s.updated(a), s.updated(b); ta != tb {
		return ta > tb
	}
	return s.idOf(a) > s.idOf(b)
}

func (s *state) updated(h int32) int64 {
	if e := s.base.said(h); e != nil {
		return e.updated
	}
	return s.recs.at(h).updatedAt
}

func (s *state) idOf(h int32) string {
	if e := s.base.said(h); e != nil {
		return e.id
	}
	return s.strs.get(s.recs.at(h).id)
}

// newestScan is newestActive by one pass over every record.
func (s *state) newestScan(n int) []int32 {
	top := make([]int32, 0, n+1)
	for h := int32(0); h < int32(s.recs.n); h++ {
		if r := s.recs.at(h); !r.removed && r.status == Active {
			top = s.keepNewest(top, n, h)
		}
	}
	return top
}

// keepNewest adds h to top, the n newest handles seen so far in order, newest
// first: one bounded insertion, so the newest n of a long list cost a pass,
// not a sort.
func (s *state) keepNewest(top []int32, n int, h int32) []int32 {
	if len(top) == n && !s.newer(h, top[n-1]) {
		return top
	}
	i := len(top)
	for i > 0 && s.newer(h, top[i-1]) {
		i--
	}
	top = append(top, 0)
	copy(top[i+1:], top[i:])
	top[i] = h
	if len(top) > n {
		top = top[:n]
	}
	return top
}

func foldTag(t string) string {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c >= 'A' && c <= 'Z' || c == '#' {
			b := []byte(t)
			for j := range b {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			if len(b) > 0 && b[0] == '#' {
				b = b[1:]
			}
			return string(b)
		}
	}
	return t
}

func sortNewest(list []*decision) {
	sortBy(len(list), func(i, j int) bool { return newerThan(list[i], list[j]) }, func(i, j int) { list[i], list[j] = list[j], list[i] })
}
