// Package hsimport turns historical pi sessions into Hindsight retain items:
// it owns how a session file is read for import (the current branch, what is
// kept of each message, what is never sent), the retain item and request body
// each session becomes, and the checkpoint that lets an interrupted import
// resume and a second run send nothing.
//
// Everything here is a pure function over bytes and values. It never reads a
// file, lists a folder, calls the server or looks at the clock: the caller
// (wasm/lifecycle) does that I/O and hands the bytes, listings and times in.
// It must never decide a bank's id or a repo key (wasm/hindsight owns
// identity) and never write the outbox (an import sends its own requests and
// records them in its checkpoint).
//
// The flow, for one run of /hindsight import [--dry-run] [DIR]:
//
//	cp, warn := DecodeCheckpoint(checkpointBytes)    // absent file: nil bytes
//	todo := Plan(cp, listing)                       // listing: every *.jsonl under DIR
//	for each file in todo.Files:
//	    s, err := Parse(fileBytes, Limits{})        // err: refused, record it with cp.Skip
//	    item := NewItem(s, repoKeyOf(s.Cwd))
//	    body := RequestBody([]Item{item})          // POST …/banks/{bank}/memories
//	    on 2xx: cp.Mark(file, item.DocumentID, s.Messages, now)
//	    Progress.Text() after each file; cp.Encode() written atomically
package hsimport
