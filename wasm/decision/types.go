// Package decision owns project decision memory, one of the stores
// (wasm/store): the event codec, replay into indexes, ids, duplicate and
// conflict verdicts, search, purge and the injected section, and the driver
// that runs them for a session. The rules take values and return values; they
// never touch files, clocks or the host. The driver (driver*.go; Open) is the
// only code here that does, and only through the guarded host it is handed
// (store.Env's FS); GitMerge, git's merge driver for the log, is its one
// other entry point.
package decision

import "github.com/pi-memory/pi-memory/wasm/internal/civil"

// Status is a decision's state. Only Active decisions are injected.
//
// Status, Code and Field are exported with the event (Event, Data, Encode)
// for the one other package that writes events (host/cmd/gendata, test
// logs); of their values, only those it names are.
type Status uint8

const (
	statusNone Status = iota // absent from an event
	Active
	draft
	rejected
	Superseded
	numStatus
)

var statusNames = [...]string{"", "active", "draft", "rejected", "superseded"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return ""
}

// ParseStatus maps a status name to its Status; statusNone when unknown.
func ParseStatus(name string) Status {
	for i := Active; i < numStatus; i++ {
		if statusNames[i] == name {
			return i
		}
	}
	return statusNone
}

// Code is an event kind. On disk it is the compact code (a, ed, st, su, rm).
type Code uint8

const (
	codeNone Code = iota
	Add
	Edit
	SetStatus
	Supersede
	Remove
)

var codeNames = [...]string{"", "a", "ed", "st", "su", "rm"}

func (c Code) String() string { return codeNames[c] }

// Readable names of the event kinds, as the runtime shape spells them.
var codeLongNames = [...]string{"", "decision.add", "decision.edit", "decision.status", "decision.supersede", "decision.remove"}

// longName is the readable runtime name of the code ("decision.add").
func (c Code) longName() string { return codeLongNames[c] }

// Field bits say which data keys an event carried; absent keys leave a
// decision's field unchanged on replay.
type Field uint16

const (
	HasTitle Field = 1 << iota
	HasText
	HasTags
	HasStatus
	HasReason
	hasSupersedes
	hasConflicts
	HasSupersededBy
	hasConflictNote
	HasSource
	HasConfidence
	HasCategory
)

// Data is the readable form of an event's "d" object. Keys we do not know stay
// on disk untouched: the log is never re-encoded.
type Data struct {
	Has          Field
	Title        string   // ti
	Text         string   // tx
	Tags         []string // tg
	Status       Status   // s
	Reason       string   // r
	Supersedes   string   // sp (null reads as "")
	Conflicts    []string // c
	SupersededBy string   // sb: pi-memory's back link from a superseded decision
	ConflictNote string   // cn: note given with /decision conflict
	Source       string   // so (zeflq/pi-decision-memory)
	Confidence   float64  // cf (zeflq/pi-decision-memory)
	Category     string   // cg (zeflq/pi-decision-memory)
}

// Event is the readable runtime shape of one log line.
type Event struct {
	V       int
	Time    string // t, as written
	TimeMs  int64  // t parsed; 0 when it did not parse
	Project string // p
	Code    Code   // e
	ID      string // i
	Data    Data   // d
	Actor   string // u
}

// decision is the materialized view of one decision after replay.
type decision struct {
	ID           string
	ProjectID    string
	Title        string
	Text         string
	Tags         []string
	Status       Status
	Reason       string
	Supersedes   string
	SupersededBy string
	Conflicts    []string
	ConflictNote string
	Source       string
	Confidence   float64
	HasConf      bool
	Category     string
	CreatedAt    int64 // ms, time of the add event
	UpdatedAt    int64 // ms, newest event time seen for this decision
	CreatedBy    string
	AddLine      int // line of the add event, 1-based
	LastLine     int // line of the newest applied event

	h int32 // its handle in the state it was viewed from
}

// Short is the text used where one line is wanted: the title, else the text.
// A title that is only the start of the text (pi-decision-memory cuts titles
// from the text at 80 characters) is not a title: the text is used, so a
// long decision is shortened with "…" rather than cut mid-word.
func (d *decision) Short() string { return short(d.Title, d.Text) }

// derivedTitle reports whether the title is just the beginning of the text.
func (d *decision) derivedTitle() bool { return derived(d.Title, d.Text) }

//go:noinline
func short(title, text string) string {
	if title != "" && !derived(title, text) {
		return title
	}
	return text
}

//go:noinline
func derived(title, text string) bool {
	return title != "" && len(text) >= len(title) && text[:len(title)] == title
}

// Created is the add event's time as events write it ("" if it did not parse).
func (d *decision) Created() string { return timeText(d.CreatedAt) }

// Updated is the newest event time seen for the decision.
func (d *decision) Updated() string { return timeText(d.UpdatedAt) }

func timeText(ms int64) string {
	if ms == 0 {
		return ""
	}
	return civil.FormatTime(ms)
}
