package decision

import (
	"sort"
	"strconv"
	"unsafe"
)

// ProblemKind classifies what doctor reports about a log.
type ProblemKind uint8

const (
	Corrupt       ProblemKind = iota + 1 // the line is not a valid event; skipped
	Torn                                 // last line cut short by a crash; skipped
	NoNewline                            // last line complete but unterminated; applied
	NewerVersion                         // written by a newer format; skipped
	UnknownID                            // event for an id never added; ignored
	RemovedID                            // event for an id already removed; ignored
	DuplicateAdd                         // add for an id that exists; ignored
	BackwardsTime                        // event older than the id's previous event; applied
	BadTime                              // t does not parse; applied with time 0
)

var problemNames = [...]string{"", "corrupt", "torn", "no-newline", "newer-version", "unknown-id", "removed-id", "duplicate-add", "backwards-time", "bad-time"}

func (k ProblemKind) String() string { return problemNames[k] }

// Problem is one finding about one line of the log.
type Problem struct {
	Line int
	Kind ProblemKind
	ID   string
	Msg  string
}

// State is the materialized decision memory: every decision by id, with
// indexes by status and tag derived on demand. Apply is the only way it
// changes. Its storage is shaped for TinyGo's collector: a flat list, a
// flat id table and small slabs — no Go map that grows with the log.
type State struct {
	list []*Decision // every decision ever added, in log order; removed ones flagged
	strs Arena       // the strings decisions keep
	ids  index       // id key -> position in list
	days dayIndex    // yyyymmdd -> highest id number ever added that day
	slab []Decision
	live int

	counts [numStatus]int

	// Problems found while replaying, in line order.
	Problems []Problem
	// Lines is the number of lines consumed (including blank and bad ones).
	Lines int
	// Events is the number of events applied.
	Events int
	// Gen changes whenever a decision changes; caches compare it.
	Gen uint64

	byTag    map[string][]*Decision // built on demand, dropped on change
	byTagGen uint64
}

// NewState returns an empty state.
func NewState() *State { return &State{} }

// Len is the number of live decisions.
func (s *State) Len() int { return s.live }

// Count is the number of live decisions with status st.
func (s *State) Count(st Status) int { return s.counts[st] }

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

// lookup returns the decision (live or removed) last added with id.
func (s *State) lookup(id string) *Decision {
	if len(s.ids.keys) == 0 {
		return nil
	}
	k, exact := keyOf(id)
	x := &s.ids
	for i := x.slot(k); x.keys[i] != 0; i = (i + 1) & (len(x.keys) - 1) {
		if x.keys[i] == k {
			if d := s.list[x.vals[i]]; exact || d.ID == id {
				return d
			}
		}
	}
	return nil
}

// Get returns the live decision with id, or nil.
func (s *State) Get(id string) *Decision {
	if d := s.lookup(id); d != nil && !d.Removed {
		return d
	}
	return nil
}

// WasRemoved reports whether id existed and was removed.
func (s *State) WasRemoved(id string) bool {
	d := s.lookup(id)
	return d != nil && d.Removed
}

func (s *State) put(d *Decision) {
	pos := int32(len(s.list))
	s.list = append(s.list, d)
	k, exact := keyOf(d.ID)
	x := &s.ids
	if exact {
		x.setFirst(k, pos)
	} else {
		// A hashed key may be shared by another id: replace only this id's entry.
		replaced := false
		for i := x.slot(k); len(x.keys) > 0 && x.keys[i] != 0; i = (i + 1) & (len(x.keys) - 1) {
			if x.keys[i] == k && s.list[x.vals[i]].ID == d.ID {
				x.vals[i], replaced = pos, true
				break
			}
		}
		if !replaced {
			x.insert(k, pos)
		}
	}
	s.live++
}

// each calls f for every live decision, in log order.
func (s *State) each(f func(d *Decision)) {
	for _, d := range s.list {
		if !d.Removed {
			f(d)
		}
	}
}

func (s *State) newDecision() *Decision {
	if len(s.slab) == cap(s.slab) {
		// Small slabs: see Arena on TinyGo's interior-pointer cost.
		s.slab = make([]Decision, 0, 32)
	}
	s.slab = s.slab[:len(s.slab)+1]
	return &s.slab[len(s.slab)-1]
}

// Sealed forgets the no-newline finding once a writer has ended that line.
func (s *State) Sealed() {
	out := s.Problems[:0]
	for _, p := range s.Problems {
		if p.Kind != NoNewline {
			out = append(out, p)
		}
	}
	s.Problems = out
}

func (s *State) problem(line int, kind ProblemKind, id, msg string) {
	s.Problems = append(s.Problems, Problem{Line: line, Kind: kind, ID: id, Msg: msg})
}

// Apply replays one decoded event read from line (1-based). The outcomes for
// odd logs are part of the format (docs/formats.md):
//   - an add for a live id is ignored (first add wins);
//   - an add for a removed id starts a new decision with that id;
//   - any other event for an unknown or removed id is ignored;
//   - edit, status and supersede merge the keys they carry, in file order;
//   - a decision's UpdatedAt is the newest event time seen, so an event with an
//     older time still applies but does not make the decision "newer".
func (s *State) Apply(ev *Event, line int) {
	if ev.TimeMs == 0 && ev.Time != "" {
		s.problem(line, BadTime, ev.ID, "time "+strconv.Quote(ev.Time)+" is not RFC 3339")
	}
	d := s.Get(ev.ID)
	switch ev.Code {
	case Add:
		if d != nil {
			s.problem(line, DuplicateAdd, ev.ID, "second add of "+ev.ID+" (first added at line "+strconv.Itoa(d.AddLine)+"); ignored")
			return
		}
		s.noteID(ev.ID)
		d = s.newDecision()
		d.ID = s.keep(ev.ID)
		d.ProjectID = s.keep(ev.Project)
		d.Status = Active
		d.CreatedAt, d.UpdatedAt = ev.TimeMs, ev.TimeMs
		d.CreatedBy = s.keep(ev.Actor)
		d.AddLine, d.LastLine = line, line
		s.merge(d, &ev.Data)
		s.put(d)
		// pi-decision-memory writes no back link when it supersedes: derive it.
		if d.Supersedes != "" {
			if old := s.Get(d.Supersedes); old != nil && old.SupersededBy == "" {
				old.SupersededBy = d.ID
			}
		}
		s.counts[d.Status]++
	case Remove:
		if d == nil {
			s.orphan(ev, line)
			return
		}
		s.counts[d.Status]--
		d.Removed, d.RemovedLine = true, line
		s.live--
	default:
		if d == nil {
			s.orphan(ev, line)
			return
		}
		if ev.TimeMs < d.UpdatedAt && ev.TimeMs != 0 {
			s.problem(line, BackwardsTime, ev.ID, "event time "+ev.Time+" is older than the previous event for "+ev.ID+" ("+d.Updated()+")")
		}
		s.counts[d.Status]--
		s.merge(d, &ev.Data)
		s.counts[d.Status]++
		if ev.TimeMs > d.UpdatedAt {
			d.UpdatedAt = ev.TimeMs
		}
		d.LastLine = line
	}
	s.Events++
	s.Gen++
}

func (s *State) orphan(ev *Event, line int) {
	if d := s.lookup(ev.ID); d != nil && d.Removed {
		s.problem(line, RemovedID, ev.ID, ev.Code.LongName()+" for "+ev.ID+", removed at line "+strconv.Itoa(d.RemovedLine)+"; ignored")
		return
	}
	s.problem(line, UnknownID, ev.ID, ev.Code.LongName()+" for "+ev.ID+", which was never added; ignored")
}

// noteID remembers the highest daily number ever used, so ids are never
// reused, even after a remove.
func (s *State) noteID(id string) {
	if k, ok := idKey(id); ok {
		s.days.raise(k/10_000_000, int(k%10_000_000))
	}
}

// keep copies a string an event carried into the state's arena: events read
// by a Reader point into its buffer, which the next chunk overwrites.
func (s *State) keep(v string) string {
	switch v {
	case "":
		return ""
	case "user":
		return "user" // the actor of almost every event: the constant, not the view
	}
	return s.strs.String(unsafe.Slice(unsafe.StringData(v), len(v)))
}

func (s *State) keepList(list []string) []string {
	if len(list) == 0 {
		return []string{}
	}
	out := s.strs.slots(len(list))
	for i, v := range list {
		out[i] = s.keep(v)
	}
	return out
}

func (s *State) merge(d *Decision, data *Data) {
	h := data.Has
	if h&HasTitle != 0 {
		d.Title = s.keep(data.Title)
	}
	if h&HasText != 0 {
		d.Text = s.keep(data.Text)
	}
	if h&HasTags != 0 {
		d.Tags = s.keepList(data.Tags)
	}
	if h&HasStatus != 0 {
		d.Status = data.Status
	}
	if h&HasReason != 0 {
		d.Reason = s.keep(data.Reason)
	}
	if h&HasSupersedes != 0 {
		d.Supersedes = s.keep(data.Supersedes)
	}
	if h&HasConflicts != 0 {
		d.Conflicts = s.keepList(data.Conflicts)
	}
	if h&HasSupersededBy != 0 {
		d.SupersededBy = s.keep(data.SupersededBy)
	}
	if h&HasConflictNote != 0 {
		d.ConflictNote = s.keep(data.ConflictNote)
	}
	if h&HasSource != 0 {
		d.Source = s.keep(data.Source)
	}
	if h&HasConfidence != 0 {
		d.Confidence, d.HasConf = data.Confidence, true
	}
	if h&HasCategory != 0 {
		d.Category = s.keep(data.Category)
	}
}

// Newer orders decisions newest first: by UpdatedAt, then by id (ids grow with
// time within a day), so the order never depends on map iteration.
func Newer(a, b *Decision) bool {
	if a.UpdatedAt != b.UpdatedAt {
		return a.UpdatedAt > b.UpdatedAt
	}
	return a.ID > b.ID
}

// All returns the live decisions, newest first.
func (s *State) All() []*Decision {
	out := make([]*Decision, 0, s.live)
	s.each(func(d *Decision) { out = append(out, d) })
	sort.Slice(out, func(i, j int) bool { return Newer(out[i], out[j]) })
	return out
}

// WithStatus returns the live decisions with status st, newest first (byStatus).
func (s *State) WithStatus(st Status) []*Decision {
	out := make([]*Decision, 0, s.counts[st])
	s.each(func(d *Decision) {
		if d.Status == st {
			out = append(out, d)
		}
	})
	sort.Slice(out, func(i, j int) bool { return Newer(out[i], out[j]) })
	return out
}

// WithTag returns the live decisions carrying tag (case-insensitive), newest
// first (byTag). The index is built on first use and rebuilt after changes.
func (s *State) WithTag(tag string) []*Decision {
	if s.byTag == nil || s.byTagGen != s.Gen {
		s.byTag = make(map[string][]*Decision)
		s.each(func(d *Decision) {
			for _, t := range d.Tags {
				k := foldTag(t)
				s.byTag[k] = append(s.byTag[k], d)
			}
		})
		for _, list := range s.byTag {
			sort.Slice(list, func(i, j int) bool { return Newer(list[i], list[j]) })
		}
		s.byTagGen = s.Gen
	}
	return s.byTag[foldTag(tag)]
}

// NewestActive returns up to n active decisions, newest first, in one pass
// without sorting everything: injection runs this on every changed turn.
func (s *State) NewestActive(n int) []*Decision {
	top := make([]*Decision, 0, n+1)
	s.each(func(d *Decision) {
		if d.Status != Active || len(top) == n && !Newer(d, top[n-1]) {
			return
		}
		i := len(top)
		for i > 0 && Newer(d, top[i-1]) {
			i--
		}
		top = append(top, nil)
		copy(top[i+1:], top[i:])
		top[i] = d
		if len(top) > n {
			top = top[:n]
		}
	})
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

func sortNewest(list []*Decision) {
	sort.Slice(list, func(i, j int) bool { return Newer(list[i], list[j]) })
}
