// Package relevance measures memory_search against the conversation relevance
// set, testdata/search/conversations: it loads the set (pi session files of
// one project and the questions, each with the turns that answer it), scores
// a ranking's answers per kind of question (Measure), and ranks the same
// turns with BM25, the baseline every figure is read against.
//
// It is measuring code for tests and host/cmd/bench: the core never imports
// it, and it never changes a ranking.
package relevance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pi-memory/pi-memory/wasm/history"
)

// Set is the conversation relevance set as Load reads it.
type Set struct {
	Now       time.Time // when the questions are asked; relative times count from it
	Cwd       string    // the folder the sessions ran in, as their headers say
	Kinds     []Kind    // in the file's order
	Sessions  []Session // by file name
	Questions []Question
	turns     map[Ref]Turn
	lines     map[lineKey]Ref
}

// Kind is a kind of question and what makes a question that kind.
type Kind struct {
	Name, About string
}

// Session is one pi session file of the set.
type Session struct {
	Name  string // the file's name
	Data  []byte // as written in testdata
	Turns []Turn // its searchable messages, in file order
}

// Turn is one user or assistant message with text: what wasm/history makes
// a search entry of, with the text it indexes.
type Turn struct {
	Ref
	Line int    // the file's line, from 1
	Role string // "User" or "Assistant"
	Text string // as history.Read cleans it
	Time int64  // Unix ms
}

// Ref names a turn: its session file and its message id.
type Ref struct {
	Session string `json:"session"`
	ID      string `json:"id"`
}

// Question is a question of the set and the turns that answer it.
type Question struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Q       string `json:"q"`
	Answers []Ref  `json:"answers"`
	// All: every answer turn is needed (the score is the share found);
	// otherwise any one of them answers.
	All bool `json:"all"`
}

type lineKey struct {
	session string
	line    int
}

// Load reads the set in dir: questions.json and every *.jsonl beside it. It
// refuses a question whose answer is not a turn of the set, or whose kind is
// not listed.
func Load(dir string) (*Set, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "questions.json"))
	if err != nil {
		return nil, err
	}
	var file struct {
		Now       string          `json:"now"`
		Cwd       string          `json:"cwd"`
		Kinds     json.RawMessage `json:"kinds"`
		Questions []Question      `json:"questions"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "questions.json"), err)
	}
	s := &Set{Cwd: file.Cwd, Questions: file.Questions, turns: map[Ref]Turn{}, lines: map[lineKey]Ref{}}
	if s.Now, err = time.Parse(time.RFC3339, file.Now); err != nil {
		return nil, fmt.Errorf("questions.json: \"now\": %w", err)
	}
	if s.Kinds, err = kinds(file.Kinds); err != nil {
		return nil, fmt.Errorf("questions.json: \"kinds\": %w", err)
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	for _, p := range names {
		sess, err := readSession(p)
		if err != nil {
			return nil, err
		}
		for _, t := range sess.Turns {
			s.turns[t.Ref] = t
			s.lines[lineKey{t.Session, t.Line}] = t.Ref
		}
		s.Sessions = append(s.Sessions, sess)
	}
	known := map[string]bool{}
	for _, k := range s.Kinds {
		known[k.Name] = true
	}
	for _, q := range s.Questions {
		if !known[q.Kind] {
			return nil, fmt.Errorf("questions.json: %s: unknown kind %q", q.ID, q.Kind)
		}
		if len(q.Answers) == 0 {
			return nil, fmt.Errorf("questions.json: %s: no answer", q.ID)
		}
		for _, a := range q.Answers {
			if _, ok := s.turns[a]; !ok {
				return nil, fmt.Errorf("questions.json: %s: %s#%s is not a user or assistant message with text", q.ID, a.Session, a.ID)
			}
		}
	}
	return s, nil
}

// kinds reads the "kinds" object in its order.
func kinds(raw json.RawMessage) ([]Kind, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var ks []Kind
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var about string
		if err := dec.Decode(&about); err != nil {
			return nil, err
		}
		ks = append(ks, Kind{Name: t.(string), About: about})
	}
	return ks, nil
}

// readSession reads one session file: its turns are history.Read's message
// entries, each given the id of the line it came from.
func readSession(p string) (Session, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return Session{}, err
	}
	name := filepath.Base(p)
	h, err := history.Read(data)
	if err != nil {
		return Session{}, fmt.Errorf("%s: %w", name, err)
	}
	lines := bytes.Split(data, []byte("\n"))
	sess := Session{Name: name, Data: data}
	for _, e := range h.Entries {
		if e.Observation {
			continue
		}
		var m struct {
			ID string `json:"id"`
		}
		if e.Line > len(lines) || json.Unmarshal(lines[e.Line-1], &m) != nil || m.ID == "" {
			return Session{}, fmt.Errorf("%s:%d: a message without an id", name, e.Line)
		}
		sess.Turns = append(sess.Turns, Turn{Ref: Ref{name, m.ID}, Line: e.Line, Role: e.Role, Text: e.Text, Time: e.Time})
	}
	return sess, nil
}

// Turns is every turn of the set, session by session in file order.
func (s *Set) Turns() []Turn {
	var ts []Turn
	for _, sess := range s.Sessions {
		ts = append(ts, sess.Turns...)
	}
	return ts
}

// Turn is the turn r names.
func (s *Set) Turn(r Ref) (Turn, bool) {
	t, ok := s.turns[r]
	return t, ok
}

// Files are the session files as written into a project at cwd: the same
// bytes, the header's cwd replaced, so the project's search finds them.
func (s *Set) Files(cwd string) map[string][]byte {
	quoted, _ := json.Marshal(s.Cwd)
	to, _ := json.Marshal(cwd)
	files := map[string][]byte{}
	for _, sess := range s.Sessions {
		files[sess.Name] = bytes.Replace(sess.Data, []byte(`"cwd":`+string(quoted)), []byte(`"cwd":`+string(to)), 1)
	}
	return files
}

// Cited is the turns a search hit cites: its Ref is "<session file>:<line>"
// (the folder does not matter), or several lines, "<file>:<line>-<line>" or
// "<file>:<line>,<line>", for a hit that shows more than one message. A
// line that is no turn of the set (an observation, say) is left out.
//
//	Cited("/home/maya/.pi/agent/sessions/--home-maya-src-tally--/2026-09-07T08-40-00-000Z_….jsonl:5")
//	  => the turn on line 5 of that file
func (s *Set) Cited(ref string) []Ref {
	i := strings.LastIndexByte(ref, ':')
	if i < 0 {
		return nil
	}
	name := filepath.Base(filepath.FromSlash(ref[:i]))
	var out []Ref
	for _, part := range strings.Split(ref[i+1:], ",") {
		from, to, ok := strings.Cut(part, "-")
		if !ok {
			to = from
		}
		a, err1 := strconv.Atoi(from)
		b, err2 := strconv.Atoi(to)
		if err1 != nil || err2 != nil || b < a || b-a > 1000 {
			continue
		}
		for l := a; l <= b; l++ {
			if r, ok := s.lines[lineKey{name, l}]; ok {
				out = append(out, r)
			}
		}
	}
	return out
}
