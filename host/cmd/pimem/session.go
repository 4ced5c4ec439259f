package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// maxSessionFile bounds what --session reads: a session file is the user's
// own, but a wrong path (a log, a disk image) must not be read whole.
const maxSessionFile = 256 << 20

// readBranch reads a pi session file (JSON Lines: a header, then entries
// with id and parentId) and returns its current branch as pi's
// sessionManager.getBranch() would: the entries from the root to the last
// entry of the file, in order, as a JSON array. This is pi's file format,
// not a memory rule; the core decides what the branch means.
func readBranch(file string) (json.RawMessage, error) {
	info, err := os.Stat(file)
	if err != nil {
		return nil, fmt.Errorf("--session: %w", err)
	}
	if info.Size() > maxSessionFile {
		return nil, fmt.Errorf("--session: %s is %d bytes, more than the %d a session file may have", file, info.Size(), maxSessionFile)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--session: %w", err)
	}
	branch, err := branchOf(data)
	if err != nil {
		return nil, fmt.Errorf("--session: %s %w; is it a pi session file?", file, err)
	}
	return branch, nil
}

// branchOf is the branch to the last entry of a session file's bytes, as a
// JSON array of its lines.
func branchOf(data []byte) (json.RawMessage, error) {
	type entry struct {
		ID       string  `json:"id"`
		ParentID *string `json:"parentId"`
		Type     string  `json:"type"`
	}
	raw := map[string][]byte{}
	parent := map[string]string{}
	leaf := ""
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var e entry
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("line %d is not a JSON object (%v)", n+1, err)
		}
		if e.Type == "session" || e.ID == "" {
			continue
		}
		raw[e.ID] = line
		if e.ParentID != nil {
			parent[e.ID] = *e.ParentID
		}
		leaf = e.ID
	}
	var path [][]byte
	for id, seen := leaf, map[string]bool{}; id != "" && !seen[id]; id = parent[id] {
		seen[id] = true
		line, ok := raw[id]
		if !ok {
			break // a parent outside the file: the branch starts here
		}
		path = append(path, line)
	}
	out := []byte{'['}
	for i := len(path) - 1; i >= 0; i-- {
		out = append(out, path[i]...)
		if i > 0 {
			out = append(out, ',')
		}
	}
	return append(out, ']'), nil
}
