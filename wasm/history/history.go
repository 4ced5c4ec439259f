// Package history is the store of this project's earlier pi sessions, as
// memory_search reads them: the user's and the assistant's messages and the
// observations our observational memory recorded in each session file pi
// kept under <agentDir>/sessions/--<cwd>--/. It reads; it never writes, and
// holds nothing a person edits (pi owns the session files).
//
// Read (this file) is the pure part: one session file's bytes in, its
// searchable entries out, each with its line, so a hit cites
// "<file>:<line>" and the day it was said. The driver (driver.go) finds the
// project's session files and hands them to the orchestrator's search index
// as sources (store.Searcher), read again only when a file changed.
package history

import (
	"errors"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonl"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"github.com/pi-memory/pi-memory/wasm/internal/pisession"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/tidwall/gjson"
)

// customObservations is the custom type of our observational memory's
// ledger entries (wasm/observe.CustomTypeLedger; a test keeps them equal).
const customObservations = "pi-memory-om"

// maxText caps one entry's text: a pasted log is not something to find
// line by line, and the index stays small.
const maxText = 8000

// maxRaw is how much of a message's text is read for its entry: room for
// injected blocks before the text that is kept.
const maxRaw = 64 << 10

// Session is what search keeps of one session file.
type Session struct {
	ID      string // the header's id
	Cwd     string // the header's cwd: where the session ran
	Start   int64  // Unix ms of the header's timestamp, 0 when unreadable
	Entries []Entry
	// Cut: the entries reached maxSessionText and the rest was not read.
	Cut bool
}

// Entry is one searchable part of a session: a message, or an observation.
type Entry struct {
	Line        int    // the line of the file it is on, from 1
	Observation bool   // an observation of ours, not a message
	Role        string // "User" or "Assistant" for a message
	Text        string // markers of injected memory stripped, one line (search redacts it)
	Time        int64  // Unix ms of the entry, else the session's start
}

// Read reads one pi session file (JSON Lines: a header, then entries). Every
// user and assistant message with text is an entry, whatever branch it is
// on (an abandoned attempt was still said); tool calls, tool results and
// thinking are not. The observations of our ledger entries (observe and
// reflect records) are entries too, once each. Blocks of memory we injected
// are stripped (they are memory already, found where they live), and a
// text is cut at 8,000 bytes. A line that is not JSON
// is skipped. A file whose first line is not a session header is refused.
// Secrets are not redacted here: the search index redacts every entry it
// takes (search.Index), whichever store gave it.
// Entries stop once their text reaches maxSessionText (Session.Cut): what
// one session gives search is bounded, whatever its size.
//
//	Read(`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/w/app"}
//	{"type":"message","id":"a","timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"user","content":"Use tabs"}}`)
//	  => Session{ID: "s1", Cwd: "/w/app", Entries: [{Line: 2, Role: "User", Text: "Use tabs"}]}
func Read(data []byte) (Session, error) {
	var r reader
	jsonl.Lines(data, r.line)
	return r.end()
}

// maxSessionText bounds the text of one session's entries: past it the
// rest of the session is not read (a 60 MB session of pasted logs gives its
// first megabyte).
const maxSessionText = 1 << 20

// reader reads a session's lines in order, one at a time (Read, and the
// driver reading a large file in steps).
type reader struct {
	s      Session
	header bool
	err    error
	seen   map[string]bool
	text   int  // bytes of the entries' text so far
	long   bool // a line too long to read was skipped (the driver's maxLine)
}

// line reads the line numbered n; false when the rest need not be read:
// the file is not a session, or the entries are full (Session.Cut).
func (r *reader) line(n int, line []byte, _ bool) bool {
	s := &r.s
	if !jsonr.ValidBytes(line) {
		if !r.header {
			r.err = errors.New("line " + numstr.Itoa(n) + " is not JSON, so this is not a pi session file")
			return false
		}
		return true
	}
	e := gjson.ParseBytes(line)
	if !r.header {
		if jsonr.Get(e, "type").Str != "session" {
			r.err = errors.New("line " + numstr.Itoa(n) + " is not a session header, so this is not a pi session file")
			return false
		}
		r.header = true
		s.ID = jsonr.Get(e, "id").Str
		s.Cwd = jsonr.Get(e, "cwd").Str
		s.Start = civil.ParseTime(jsonr.Get(e, "timestamp").Str)
		return true
	}
	t := civil.ParseTime(jsonr.Get(e, "timestamp").Str)
	if t == 0 {
		t = s.Start
	}
	add := func(e Entry) {
		s.Entries = append(s.Entries, e)
		r.text += len(e.Text)
	}
	switch jsonr.Get(e, "type").Str {
	case "message":
		m := jsonr.Get(e, "message")
		role := ""
		switch jsonr.Get(m, "role").Str {
		case "user":
			role = "User"
		case "assistant":
			role = "Assistant"
		default:
			return true
		}
		if text := clean(pisession.ContentText(jsonr.Get(m, "content"), "\n\n")); text != "" {
			add(Entry{Line: n, Role: role, Text: text, Time: t})
		}
	case "custom":
		if jsonr.Get(e, "customType").Str != customObservations {
			return true
		}
		d := jsonr.Get(e, "data")
		if op := jsonr.Get(d, "op").Str; op != "observe" && op != "reflect" {
			return true
		}
		if r.seen == nil {
			r.seen = map[string]bool{}
		}
		for _, l := range strings.Split(jsonr.Get(d, "obs").Str, "\n") {
			text := clean(observationText(l))
			if text == "" || r.seen[text] {
				continue
			}
			r.seen[text] = true
			add(Entry{Line: n, Observation: true, Text: text, Time: t})
		}
	}
	s.Cut = r.text >= maxSessionText
	return !s.Cut
}

// end is the session read, or why it is not one.
func (r *reader) end() (Session, error) {
	if r.err == nil && !r.header {
		r.err = errors.New("is empty: a pi session file starts with a session header line")
	}
	if r.err != nil {
		return Session{}, r.err
	}
	return r.s, nil
}

// observationText is one line of the observer's format without its date
// header, bullet, priority and time: "* 🔴 (14:30) User prefers pnpm" is
// "User prefers pnpm".
func observationText(l string) string {
	l = strings.TrimSpace(l)
	if strings.HasPrefix(l, "Date:") {
		return ""
	}
	l = strings.TrimLeft(l, "*-> ")
	for _, p := range [...]string{"🔴", "🟡", "🟢", "✅"} {
		l = strings.TrimPrefix(l, p)
	}
	l = strings.TrimSpace(l)
	if len(l) >= 7 && l[0] == '(' && l[3] == ':' && l[6] == ')' {
		l = strings.TrimSpace(l[7:])
	}
	return l
}

// clean is a text as search keeps it: injected blocks stripped, cut,
// redacted with its lines (a Markdown table's rows: redaction reads them
// as lines), on one line (search redacts every entry it indexes again, so a
// label and its value on two lines go too). Only its first maxRaw bytes are
// read: a paste of megabytes is not searched past them.
func clean(s string) string {
	// The first maxRaw bytes as written, redacted with what follows them
	// (redact.Head: a URL's password whose "@host" lies past the cut is
	// still one, h-v94 c5); the second cut is made after the redaction, and
	// a mark holds no blank, so it keeps a mark whole or not at all.
	s = redact.Head(marker.Strip(text.Bytes(s, maxRaw+redact.Window)), maxRaw)
	return strings.Join(strings.Fields(text.Whole(s, maxText)), " ")
}
