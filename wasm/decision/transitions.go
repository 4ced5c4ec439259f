package decision

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
)

// The transitions below are the decision store's only way to change: each
// takes the state as it is now and returns the events that make the change,
// or an error saying why the change does not apply to this state. The
// driver calls them under the log lock, after catching up with other
// writers, so a choice a person made in a dialog is always checked against
// the state as it is when it is written, not as it was when they were asked.

// Reasons a transition refuses, for callers that react to one (errs.Is).
var (
	errNotFound = errors.New("no such decision")
	errStatus   = errors.New("the decision's status does not allow this")
	errSelf     = errors.New("a decision cannot conflict with itself")
	errNothing  = errors.New("nothing to change")
)

// transitionError is a refused transition: Err is one of the reasons above,
// Msg says it for a person, naming the decision.
type transitionError struct {
	ID  string
	Err error
	Msg string
}

func (e *transitionError) Error() string { return e.Msg }
func (e *transitionError) Unwrap() error { return e.Err }

func refuse(id string, err error, msg string) error {
	return &transitionError{ID: id, Err: err, Msg: msg}
}

// proposal is a decision about to be written.
type proposal struct {
	Text, Title, Reason string
	Tags                []string
	Conflicts           []string // ids of active decisions it is marked as conflicting with
	Source              string   // "auto-capture" for captured candidates
	Confidence          float64  // with Source: the classifier's score
}

func (d *proposal) data() Data {
	data := Data{Text: d.Text, Tags: d.Tags, Status: Active, Conflicts: d.Conflicts}
	if d.Title != "" {
		data.Title, data.Has = d.Title, data.Has|HasTitle
	}
	if d.Reason != "" {
		data.Reason, data.Has = d.Reason, data.Has|HasReason
	}
	if d.Source != "" {
		data.Source, data.Has = d.Source, data.Has|HasSource
		data.Confidence, data.Has = d.Confidence, data.Has|HasConfidence
	}
	return data
}

// need returns the live decision id names, or a refusal.
func (s *state) need(id string) (*decision, error) {
	if x := s.Get(id); x != nil {
		return x, nil
	}
	if s.WasRemoved(id) {
		return nil, refuse(id, errNotFound, id+" was removed (by another pi process, if not by you)")
	}
	return nil, refuse(id, errNotFound, "no decision "+id)
}

// Add returns the events that record d as a new decision at nowMs: its add
// event, then, for each decision d conflicts with that is still live, an edit
// marking the conflict on that side too, so both decisions show it.
//
//	Add(proposal{Text: "Use SQLite", Conflicts: ["D-…-0001"]}) => [a D-…-0002 {c:[D-…-0001]}, ed D-…-0001 {c:[D-…-0002]}]
func (s *state) Add(d proposal, nowMs int64) []Event {
	id := s.NextID(nowMs)
	var marked []string
	var edits []Event
	for _, other := range d.Conflicts {
		if x := s.Get(other); x != nil {
			marked = append(marked, other)
			edits = append(edits, Event{Code: Edit, ID: other, Data: Data{Has: hasConflicts, Conflicts: appendUnique(x.Conflicts, id)}})
		}
	}
	d.Conflicts = marked
	return append([]Event{{Code: Add, ID: id, Data: d.data()}}, edits...)
}

// Supersede returns the pair of events that replace the decision oldID with
// d: the add of the new decision, linked back to the old one, and the
// supersede of the old one, linked forward. Only an active or draft decision
// can be superseded. d keeps the old decision's tags when it has none.
func (s *state) Supersede(oldID string, d proposal, nowMs int64) ([]Event, error) {
	x, err := s.need(oldID)
	if err != nil {
		return nil, err
	}
	if x.Status != Active && x.Status != draft {
		msg := oldID + " is " + x.Status.String()
		if x.SupersededBy != "" {
			msg += " by " + x.SupersededBy
		}
		return nil, refuse(oldID, errStatus, msg+"; only an active or draft decision can be superseded")
	}
	if len(d.Tags) == 0 {
		d.Tags = x.Tags
	}
	id := s.NextID(nowMs)
	data := d.data()
	data.Supersedes, data.Has = oldID, data.Has|hasSupersedes
	return []Event{
		{Code: Add, ID: id, Data: data},
		{Code: Supersede, ID: oldID, Data: Data{Has: HasStatus | HasSupersededBy, Status: Superseded, SupersededBy: id}},
	}, nil
}

// change is an edit of some of a decision's fields: Has says which.
type change struct {
	Has                 Field // of HasText, HasTitle, HasTags, HasReason
	Text, Title, Reason string
	Tags                []string
}

// Edit returns the event that applies c to the decision id. A title that was
// only the start of the old text (as pi-decision-memory derives titles) is
// cleared with a new text, so it never shows stale words.
func (s *state) Edit(id string, c change) ([]Event, error) {
	x, err := s.need(id)
	if err != nil {
		return nil, err
	}
	if c.Has == 0 {
		return nil, refuse(id, errNothing, "nothing to change in "+id)
	}
	data := Data{Has: c.Has, Text: c.Text, Title: c.Title, Reason: c.Reason, Tags: c.Tags}
	if c.Has&HasText != 0 && c.Has&HasTitle == 0 && x.derivedTitle() {
		data.Has |= HasTitle
		data.Title = ""
	}
	return []Event{{Code: Edit, ID: id, Data: data}}, nil
}

// MarkConflict returns the edits that mark a and b as conflicting, on both
// sides, with an optional note.
func (s *state) MarkConflict(a, b, note string) ([]Event, error) {
	if a == b {
		return nil, refuse(a, errSelf, a+" cannot conflict with itself; name two different decisions")
	}
	xa, err := s.need(a)
	if err != nil {
		return nil, err
	}
	xb, err := s.need(b)
	if err != nil {
		return nil, err
	}
	mk := func(x *decision, other string) Event {
		data := Data{Has: hasConflicts, Conflicts: appendUnique(x.Conflicts, other)}
		if note != "" {
			data.Has |= hasConflictNote
			data.ConflictNote = note
		}
		return Event{Code: Edit, ID: x.ID, Data: data}
	}
	return []Event{mk(xa, b), mk(xb, a)}, nil
}

// Resolve returns the events that give the decision id status st and clear
// its conflict marks, on both sides.
func (s *state) Resolve(id string, st Status) ([]Event, error) {
	x, err := s.need(id)
	if err != nil {
		return nil, err
	}
	if st <= statusNone || st >= numStatus {
		return nil, refuse(id, errStatus, "unknown status "+numstr.Itoa(int(st)))
	}
	evs := []Event{{Code: SetStatus, ID: id, Data: Data{Has: HasStatus | hasConflicts, Status: st, Conflicts: []string{}}}}
	for _, other := range x.Conflicts {
		if o := s.Get(other); o != nil {
			evs = append(evs, Event{Code: Edit, ID: other, Data: Data{Has: hasConflicts, Conflicts: without(o.Conflicts, id)}})
		}
	}
	return evs, nil
}

// Remove returns one remove event per id. Every id must name a live
// decision: a list with one bad id removes nothing, so a typo never leaves
// half of a command done.
func (s *state) Remove(ids []string) ([]Event, error) {
	seen := map[string]bool{}
	var evs []Event
	for _, id := range ids {
		if _, err := s.need(id); err != nil {
			return nil, err
		}
		if !seen[id] {
			seen[id] = true
			evs = append(evs, Event{Code: Remove, ID: id})
		}
	}
	return evs, nil
}

// RemoveLive returns remove events for the ids still live and skips the
// others (purge and reset: a decision another process removed meanwhile is
// already gone, which is what was asked).
func (s *state) RemoveLive(ids []string) []Event {
	var evs []Event
	for _, id := range ids {
		if s.Get(id) != nil {
			evs = append(evs, Event{Code: Remove, ID: id})
		}
	}
	return evs
}

// Restore returns the event that brings back the removed decision id: an
// add under the same id, which replay reads as the decision starting again
// (docs/formats.md), carrying what the decision said when it was removed —
// its status, text, title, tags, reason and links — with its conflict marks
// kept only towards decisions still live. The log's history between the
// two adds stays as it was.
//
//	Restore("D-…-0002") after `rm D-…-0002` => [a D-…-0002 {tx:…, s:"active", …}]
func (s *state) Restore(id string) ([]Event, error) {
	h := s.lookup(id)
	if h < 0 {
		return nil, refuse(id, errNotFound, "no decision "+id)
	}
	if !s.recs.at(h).removed {
		return nil, refuse(id, errStatus, id+" is not removed; there is nothing to restore")
	}
	x := s.view(h)
	if x.Text == "" && x.Title == "" {
		// Never an empty decision: its words are not in this state.
		return nil, refuse(id, errNotFound, "the text of "+id+" is not known here; nothing was restored (read it from the log's history: git log -p .pi/decision-memory/decisions.jsonl)")
	}
	p := proposal{Text: x.Text, Title: x.Title, Reason: x.Reason, Tags: x.Tags, Source: x.Source, Confidence: x.Confidence}
	data := p.data()
	if x.Source != "" && !x.HasConf {
		data.Has &^= HasConfidence
	}
	data.Status = x.Status
	data.Conflicts = []string{}
	for _, other := range x.Conflicts {
		if s.Get(other) != nil {
			data.Conflicts = append(data.Conflicts, other)
		}
	}
	if x.Supersedes != "" {
		data.Supersedes, data.Has = x.Supersedes, data.Has|hasSupersedes
	}
	if x.SupersededBy != "" {
		data.SupersededBy, data.Has = x.SupersededBy, data.Has|HasSupersededBy
	}
	if x.ConflictNote != "" && len(data.Conflicts) > 0 {
		data.ConflictNote, data.Has = x.ConflictNote, data.Has|hasConflictNote
	}
	if x.Category != "" {
		data.Category, data.Has = x.Category, data.Has|HasCategory
	}
	return []Event{{Code: Add, ID: id, Data: data}}, nil
}

func appendUnique(list []string, id string) []string {
	out := append([]string(nil), list...)
	for _, x := range out {
		if x == id {
			return out
		}
	}
	return append(out, id)
}

func without(list []string, id string) []string {
	out := []string{}
	for _, x := range list {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}
