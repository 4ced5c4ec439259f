package hsimport

import (
	"errors"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
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
	var entries []gjson.Result
	header := false
	var err error
	eachLine(data, func(n int, line string, _ bool) bool {
		if !header {
			if err = s.readHeader(line, n); err != nil {
				return false
			}
			header = true
			return true
		}
		if !gjson.Valid(line) {
			s.Corrupt = append(s.Corrupt, n)
			return true
		}
		v := gjson.Parse(line)
		if !v.IsObject() || jsonr.Get(v, "type").Type != gjson.String {
			s.Corrupt = append(s.Corrupt, n)
			return true
		}
		entries = append(entries, v)
		return true
	})
	if err != nil {
		return Session{}, err
	}
	if !header {
		return Session{}, errors.New("is empty: a pi session file starts with a session header line; nothing to import")
	}
	s.Entries = len(entries)
	if s.Start == 0 { // an unreadable header time: the first entry's
		for _, e := range entries {
			if t := civil.ParseTime(jsonr.Get(e, "timestamp").Str); t != 0 {
				s.Start = t
				break
			}
		}
	}
	branch := s.branchOf(entries)
	s.Branch = len(branch)
	r := renderer{lim: lim, s: &s, calls: map[string]string{}, edits: editsOf(branch)}
	for _, e := range branch {
		r.entry(e)
	}
	s.trim(lim.SessionChars)
	return s, nil
}

func (s *Session) readHeader(line string, n int) error {
	where := "line " + strconv.Itoa(n)
	if !gjson.Valid(line) {
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
		return errors.New("was written by a newer pi (session version " + strconv.Itoa(s.Version) + "; this import reads 1 to " + strconv.Itoa(CurrentVersion) + "): update pi-memory to import it")
	}
	s.Cwd = jsonr.Get(h, "cwd").Str
	s.Start = civil.ParseTime(jsonr.Get(h, "timestamp").Str)
	s.Parent = jsonr.Get(h, "parentSession").Str
	return nil
}

// branchOf returns the current branch, root first: the last entry and its
// ancestors. A file of version 1 has no tree (its entries have no ids; pi
// migrates them into a chain): there the branch is every entry in order.
func (s *Session) branchOf(entries []gjson.Result) []gjson.Result {
	if len(entries) == 0 {
		return nil
	}
	leaf := entries[len(entries)-1]
	if s.Version < 2 && jsonr.Get(leaf, "id").Str == "" {
		return entries
	}
	byID := make(map[string]int, len(entries))
	for i, e := range entries {
		if id := jsonr.Get(e, "id").Str; id != "" {
			byID[id] = i
		}
	}
	var path []gjson.Result
	for cur := leaf; ; {
		path = append(path, cur)
		if len(path) > len(entries) { // a loop of parentIds
			s.Broken = true
			path = path[:len(entries)]
			break
		}
		p := jsonr.Get(cur, "parentId")
		if p.Type != gjson.String || p.Str == "" {
			break
		}
		i, ok := byID[p.Str]
		if !ok {
			s.Broken = true
			break
		}
		cur = entries[i]
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
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
	var b strings.Builder
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

// eachLine calls f with each line of a JSON Lines text that is not blank
// (a BOM dropped, \r\n accepted), its number from 1 and whether it is the
// text's last; f returning false stops. Session files and checkpoints are
// both read with it.
func eachLine(data []byte, f func(n int, line string, last bool) bool) {
	rest := strings.TrimPrefix(string(data), "\uFEFF")
	for n := 1; rest != ""; n++ {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if line = strings.TrimSpace(line); line != "" && !f(n, line, rest == "") {
			return
		}
	}
}
