// Package hsimport turns historical pi sessions into Hindsight retain items:
// it owns how a session file is read for import (the current branch, what is
// kept of each message, what is never sent), the retain item and request body
// each session becomes, which sessions belong to a project, and the
// checkpoint that lets an interrupted import resume and a second run send
// nothing (docs/formats.md, "Import checkpoint").
//
// Everything here is a pure function over bytes and values. It never reads a
// file, lists a folder, calls the server or looks at the clock: the caller
// (wasm/hindsight's driver, driver_import.go) does that I/O and hands the
// bytes, listings and times in.
// It must never derive a repo key or a bank id (wasm/hindsight owns
// identity) and never write the outbox: an import sends its own requests and
// records each answer in its checkpoint.
//
// One run of /hindsight import [--dry-run] [DIR], as the caller drives it:
//
//	cp := DecodeCheckpoint(read(dir + CheckpointName(url)))  // missing file: nil
//	todo := Plan(cp, listing)        // listing: IsSessionFile files of DIR, or of the
//	                                 // <agentDir>/sessions/ folders FolderMayHold(root)
//	for each f in todo.Files:
//	    s, err := Parse(read(f.Path), Limits{})
//	    err != nil, !s.Under(root) (no DIR), s.Messages == 0:
//	        SkipLine; append Record{Op: OpSkip, Reason: …}.Line()
//	    it := NewItem(s, repoKey(s.Cwd))
//	    --dry-run: DryRunLine(f, s, it, bank); progress.Add(s, it)
//	    else: POST url+RequestPath(bank), body RequestBody([]Item{it})
//	        2xx: append Record{Op: OpDone, Doc: it.DocumentID, …}.Line(); progress.Add(s, it)
//	        else: progress.Failed++ (no record: the next run sends it again)
//	    status or progress line: progress.Text()
//	Summary(todo, progress, dryRun); NeedsCompaction → write Encode() atomically
package hsimport
