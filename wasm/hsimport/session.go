package hsimport

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/pisession"
	"github.com/tidwall/gjson"
)

// Session is what an import keeps of one pi session file.
type Session struct {
	ID      string // the header's id
	Cwd     string // the header's cwd: the project the session ran in
	Start   int64  // Unix ms of the header's timestamp; 0 when it is absent or unreadable
	Parent  string // the header's parentSession (a fork's origin), or ""
	Version int    // the header's version (absent: 1)

	Turns    []Turn // the current branch's conversation, oldest first
	Messages int    // user, assistant, tool-result and shell messages in Turns

	Entries  int   // entries in the file, the header excluded
	Branch   int   // entries on the current branch
	Corrupt  []int // line numbers (from 1) skipped: not JSON, or not an entry object
	Broken   bool  // the branch names a parent the file does not hold (or loops): it starts there
	Omitted  int   // messages on the branch that are not sent: ours, extensions', empty, hidden
	Redacted int   // secrets replaced by "[REDACTED:kind]"
	Cut      int   // turns left out of the middle to keep the content within Limits.SessionChars
}

// Turn is one part of the conversation as it is sent: who spoke and the
// text, already stripped of our blocks, redacted and cut to its limit.
type Turn struct {
	Role string // a Role… constant
	Text string

	first bool // the first turn of a message (an assistant message may give several)
}

// The roles of a Turn, and the word each is written with.
const (
	RoleUser       = "User"
	RoleAssistant  = "Assistant"
	RoleToolCall   = "Tool call"
	RoleToolResult = "Tool result"
	RoleShell      = "User ran"
	RoleSummary    = "Summary of a branch left earlier"
	RoleGap        = "Not sent"
)

// CurrentVersion is the newest session format this import reads (pi's
// CURRENT_SESSION_VERSION).
const CurrentVersion = 3

// Parse reads one pi session file (JSON Lines: a header, then entries that
// form a tree through id and parentId) and keeps the conversation of its
// current branch: from the leaf, the file's last entry, as pi resumes it,
// up through each parentId to the root.
//
// Only the current branch is imported. A branch the user left through /tree
// was usually an attempt they turned away from; pi keeps what it was worth
// as a branch summary on the branch they went on with, and that summary is
// imported. Entries before a compaction stay on the branch in the file, so
// the whole conversation is read and pi's compaction summary (a digest of
// what is read in full) is not.
//
// A UTF-8 byte-order mark is accepted; blank lines are ignored; a line that
// is not a JSON object is skipped and its number kept in Corrupt. A file
// whose first line is not a session header (or whose version is newer than
// CurrentVersion) is refused with an error saying why; the caller names the
// file.
//
//	Parse([]byte(`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/w/app"}
//	{"type":"message","id":"a","parentId":null,"timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"user","content":"Use tabs"}}`), Limits{})
//	  => Session{ID: "s1", Cwd: "/w/app", Turns: [{User, "Use tabs"}], Messages: 1, …}
func Parse(data []byte, lim Limits) (Session, error) {
	lim = lim.withDefaults()
	var s Session
	f := pisession.Read(data)
	if f.HeaderLine == 0 {
		return Session{}, errors.New("is empty: a pi session file starts with a session header line; nothing to import")
	}
	if err := s.readHeader(f.First, f.HeaderLine); err != nil {
		return Session{}, err
	}
	s.Corrupt = f.Corrupt
	entries := f.Entries
	s.Entries = len(entries)
	if s.Start == 0 { // an unreadable header time: the first entry's
		for _, e := range entries {
			if t := civil.ParseTime(jsonr.Get(e, "timestamp").Str); t != 0 {
				s.Start = t
				break
			}
		}
	}
	branch, broken := f.Branch()
	s.Broken = broken
	s.Branch = len(branch)
	r := renderer{lim: lim, s: &s, calls: map[string]string{}, withheld: map[string]bool{}, edits: editsOf(branch)}
	for _, e := range branch {
		r.entry(e)
	}
	s.trim(lim.SessionChars)
	return s, nil
}

func (s *Session) readHeader(line string, n int) error {
	where := "line " + numstr.Itoa(n)
	if !jsonr.Valid(line) {
		return errors.New(where + " is not JSON, so this is not a pi session file (pi writes {\"type\":\"session\",\"version\":3,\"id\":…} first); nothing imported")
	}
	h := gjson.Parse(line)
	if jsonr.Get(h, "type").Str != "session" {
		return errors.New(where + " is not a session header (its type is " + strconv.Quote(jsonr.Get(h, "type").String()) + ", not \"session\"), so this is not a pi session file; nothing imported")
	}
	s.ID = jsonr.Get(h, "id").Str
	if strings.TrimSpace(s.ID) == "" {
		return errors.New("the session header (" + where + ") has no id, so the session cannot be given a document id; nothing imported")
	}
	s.Version = 1
	if v := jsonr.Get(h, "version"); v.Type == gjson.Number {
		s.Version = int(v.Num)
	}
	if s.Version > CurrentVersion {
		return errors.New("was written by a newer pi (session version " + numstr.Itoa(s.Version) + "; this import reads 1 to " + numstr.Itoa(CurrentVersion) + "): update pi-memory to import it")
	}
	s.Cwd = jsonr.Get(h, "cwd").Str
	s.Start = civil.ParseTime(jsonr.Get(h, "timestamp").Str)
	s.Parent = jsonr.Get(h, "parentSession").Str
	return nil
}

// editsOf collects the context edits on the branch: pi sends the model an
// edited entry's replacement content (or nothing, for null), and the import
// keeps what the model saw. Raw JSON, keyed by the edited entry's id.
func editsOf(branch []gjson.Result) map[string]string {
	var edits map[string]string
	for _, e := range branch {
		if jsonr.Get(e, "type").Str != "context_edit" {
			continue
		}
		if edits == nil {
			edits = map[string]string{}
		}
		edits[jsonr.Get(e, "targetId").Str] = jsonr.Get(e, "replacement").Raw
	}
	return edits
}

// Content is the conversation as one text: each turn on its own paragraph
// ("User: …", "Assistant: …"), so the server's chunker splits between turns.
func (s *Session) Content() string {
	var b text.Builder
	for i, t := range s.Turns {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(t.Role)
		b.WriteString(": ")
		b.WriteString(t.Text)
	}
	return b.String()
}
