// Package pisession reads pi's session files: JSON Lines, a session header
// first, then entries that form a tree through id and parentId. It finds the
// current branch once, for every reader in the core (the past sessions
// Hindsight imports, the branch `pimem --session` gives a command). This is
// pi's format, not a memory rule: what a branch means is each store's.
package pisession

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonl"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/tidwall/gjson"
)

// File is a session file as read: its header, and its entries in file order.
type File struct {
	// Header is the first line when it is a session header ({"type":
	// "session", …}); it does not Exist otherwise.
	Header gjson.Result
	// First is the file's first line that is not blank (the header's, when
	// it is one), and HeaderLine its number; 0 when the file has no line.
	First      string
	HeaderLine int
	// Version is the header's version, 1 when it has none (pi's first
	// format, whose entries have no ids).
	Version int
	// Entries are the lines after the header that are JSON objects with a
	// string "type", in file order.
	Entries []gjson.Result
	// Corrupt are the numbers of the lines after the header that are not.
	Corrupt []int
}

// Read reads a session file's bytes, line by line as jsonl.Lines reads
// them. It never fails: a file that is not a session file has no Header,
// and what it holds is left for the caller to judge.
//
//	Read([]byte(`{"type":"session","version":3,"id":"s1"}` + "\n" + `{"type":"message","id":"a","parentId":null}`))
//	  => File{Header: {…}, HeaderLine: 1, Version: 3, Entries: [{…"id":"a"…}]}
func Read(data []byte) File {
	f := File{Version: 1}
	first := true
	jsonl.Lines(data, func(n int, b []byte, _ bool) bool {
		line := string(b)
		if first {
			first = false
			f.HeaderLine, f.First = n, line
			if jsonr.Valid(line) {
				if h := gjson.Parse(line); h.IsObject() && jsonr.Get(h, "type").Str == "session" {
					f.Header = h
					if v := jsonr.Get(h, "version"); v.Type == gjson.Number {
						f.Version = int(v.Num)
					}
					return true
				}
			}
		}
		if !jsonr.Valid(line) {
			f.Corrupt = append(f.Corrupt, n)
			return true
		}
		v := gjson.Parse(line)
		if !v.IsObject() || jsonr.Get(v, "type").Type != gjson.String {
			f.Corrupt = append(f.Corrupt, n)
			return true
		}
		f.Entries = append(f.Entries, v)
		return true
	})
	return f
}

// Branch is the current branch, root first, as pi resumes the session and
// its sessionManager.getBranch() gives it: the file's last entry and, up
// through each parentId, its ancestors. A file of version 1 has no tree (its
// entries have no ids; pi migrates them into a chain): there the branch is
// every entry in order. broken says the branch names a parent the file does
// not hold, or loops: it then starts where the chain breaks.
func (f *File) Branch() (branch []gjson.Result, broken bool) {
	entries := f.Entries
	if len(entries) == 0 {
		return nil, false
	}
	leaf := entries[len(entries)-1]
	if f.Version < 2 && jsonr.Get(leaf, "id").Str == "" {
		return entries, false
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
			broken = true
			path = path[:len(entries)]
			break
		}
		p := jsonr.Get(cur, "parentId")
		if p.Type != gjson.String || p.Str == "" {
			break
		}
		i, ok := byID[p.Str]
		if !ok {
			broken = true
			break
		}
		cur = entries[i]
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, broken
}

// BranchJSON is the current branch as a JSON array of its entries, as pi's
// adapter sends the branch with an event.
//
//	BranchJSON(`{"type":"session","id":"s"}` + "\n" + `{"type":"message","id":"a","parentId":null}`) => `[{"type":"message","id":"a","parentId":null}]`
func (f *File) BranchJSON() []byte {
	branch, _ := f.Branch()
	out := []byte{'['}
	for i, e := range branch {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, e.Raw...)
	}
	return append(out, ']')
}

// ContentText is the text of a pi message's content: the string, or the
// text blocks of a block list joined by sep (images, thinking and tool
// calls left out).
//
//	ContentText(`[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]`, "\n") => "a\nb"
func ContentText(c gjson.Result, sep string) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var parts []string
	c.ForEach(func(_, b gjson.Result) bool {
		if jsonr.Get(b, "type").Str == "text" {
			parts = append(parts, jsonr.Get(b, "text").Str)
		}
		return true
	})
	return strings.Join(parts, sep)
}
