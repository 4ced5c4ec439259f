package decision

import (
	"sort"
	"strconv"
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

// State is the materialized decision memory: every live decision by id, with
// indexes by status and tag derived on demand. Apply is the only way it changes.
type State struct {
	// Live decisions by id: canonical ids by their packed key (see idKey),
	// anything else by the string.
	byKey   map[uint64]*Decision
	byOther map[string]*Decision
	live    int
	removed map[string]int // id -> line of its rm event
	maxSeq  map[string]int // "D-2026-02-27-" -> highest NNNN ever added (rarely touched: see lastPrefix)
	// The day most recently noted, so a log written in order costs no map
	// access per add.
	lastPrefix string
	lastSeq    int
	slab       []Decision
	counts     [numStatus]int

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
func NewState() *State {
	return &State{
		byKey:   make(map[uint64]*Decision),
		byOther: make(map[string]*Decision),
		removed: make(map[string]int),
		maxSeq:  make(map[string]int),
	}
}

// Len is the number of live decisions.
func (s *State) Len() int { return s.live }

// Count is the number of live decisions with status st.
func (s *State) Count(st Status) int { return s.counts[st] }

// Get returns the live decision with id, or nil.
func (s *State) Get(id string) *Decision {
	if k, ok := idKey(id); ok {
		return s.byKey[k]
	}
	return s.byOther[id]
}

func (s *State) put(d *Decision) {
	if k, ok := idKey(d.ID); ok {
		s.byKey[k] = d
	} else {
		s.byOther[d.ID] = d
	}
	s.live++
}

func (s *State) drop(id string) {
	if k, ok := idKey(id); ok {
		delete(s.byKey, k)
	} else {
		delete(s.byOther, id)
	}
	s.live--
}

// each calls f for every live decision, in no particular order.
func (s *State) each(f func(d *Decision)) {
	for _, d := range s.byKey {
		f(d)
	}
	for _, d := range s.byOther {
		f(d)
	}
}

// WasRemoved reports whether id existed and was removed.
func (s *State) WasRemoved(id string) bool {
	if len(s.removed) == 0 {
		return false
	}
	_, ok := s.removed[id]
	return ok
}

func (s *State) newDecision() *Decision {
	if len(s.slab) == cap(s.slab) {
		// Small slabs: see Arena on TinyGo's interior-pointer cost.
		s.slab = make([]Decision, 0, 8)
	}
	s.slab = s.slab[:len(s.slab)+1]
	return &s.slab[len(s.slab)-1]
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
		if len(s.removed) > 0 {
			delete(s.removed, ev.ID)
		}
		d = s.newDecision()
		d.ID = ev.ID
		d.ProjectID = ev.Project
		d.Status = Active
		d.CreatedAt, d.UpdatedAt = ev.TimeMs, ev.TimeMs
		d.Created, d.Updated = ev.Time, ev.Time
		d.CreatedBy = ev.Actor
		d.AddLine, d.LastLine = line, line
		merge(d, &ev.Data)
		s.put(d)
		s.counts[d.Status]++
	case Remove:
		if d == nil {
			s.orphan(ev, line)
			return
		}
		s.counts[d.Status]--
		s.drop(ev.ID)
		s.removed[ev.ID] = line
	default:
		if d == nil {
			s.orphan(ev, line)
			return
		}
		if ev.TimeMs < d.UpdatedAt && ev.TimeMs != 0 {
			s.problem(line, BackwardsTime, ev.ID, "event time "+ev.Time+" is older than the previous event for "+ev.ID+" ("+d.Updated+")")
		}
		s.counts[d.Status]--
		merge(d, &ev.Data)
		s.counts[d.Status]++
		if ev.TimeMs > d.UpdatedAt {
			d.UpdatedAt, d.Updated = ev.TimeMs, ev.Time
		}
		d.LastLine = line
	}
	s.Events++
	s.Gen++
}

func (s *State) orphan(ev *Event, line int) {
	if rl, ok := s.removed[ev.ID]; ok && len(s.removed) > 0 {
		s.problem(line, RemovedID, ev.ID, ev.Code.LongName()+" for "+ev.ID+", removed at line "+strconv.Itoa(rl)+"; ignored")
		return
	}
	s.problem(line, UnknownID, ev.ID, ev.Code.LongName()+" for "+ev.ID+", which was never added; ignored")
}

// noteID remembers the highest daily sequence number ever used, so ids are
// never reused, even after a remove.
func (s *State) noteID(id string) {
	prefix, seq, ok := splitID(id)
	if !ok {
		return
	}
	if prefix == s.lastPrefix {
		if seq > s.lastSeq {
			s.lastSeq = seq
			s.maxSeq[prefix] = seq
		}
		return
	}
	if seq > s.maxSeq[prefix] {
		s.maxSeq[prefix] = seq
	}
	s.lastPrefix, s.lastSeq = prefix, s.maxSeq[prefix]
}

func merge(d *Decision, data *Data) {
	h := data.Has
	if h&HasTitle != 0 {
		d.Title = data.Title
	}
	if h&HasText != 0 {
		d.Text = data.Text
	}
	if h&HasTags != 0 {
		d.Tags = data.Tags
	}
	if h&HasStatus != 0 {
		d.Status = data.Status
	}
	if h&HasReason != 0 {
		d.Reason = data.Reason
	}
	if h&HasSupersedes != 0 {
		d.Supersedes = data.Supersedes
	}
	if h&HasConflicts != 0 {
		d.Conflicts = data.Conflicts
	}
	if h&HasSupersededBy != 0 {
		d.SupersededBy = data.SupersededBy
	}
	if h&HasConflictNote != 0 {
		d.ConflictNote = data.ConflictNote
	}
	if h&HasSource != 0 {
		d.Source = data.Source
	}
	if h&HasConfidence != 0 {
		d.Confidence, d.HasConf = data.Confidence, true
	}
	if h&HasCategory != 0 {
		d.Category = data.Category
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
