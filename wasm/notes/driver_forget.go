package notes

import (
	"errors"
	"path"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// Forget and Restore (store.Forgetter): the orchestrator's memory_forget
// and memory_restore, and /memory forget and /memory restore, reach markdown
// memory here. The rules are forget.go's; this file holds the lock, reads
// and writes the file and keeps the recovery records.

// forgottenName is the recovery records' file, in a scope's machine-local
// data folder (beside its journal): global memory's in notes/global, the
// project's and the personal notes' in notes/<project id>.
const forgottenName = "forgotten.jsonl"

// Forget removes the entry ref names ("<file>:<line>", forget.go), under the
// scope's lock, after keeping a recovery record of it. ok is false for a
// reference that is not a markdown memory file's.
func (n *driver) Forget(_ *store.Out, ref string) (store.Forgot, bool, error) {
	file, line, ok := parseRef(ref)
	if !ok {
		return store.Forgot{}, false, nil
	}
	sc, display, mine, err := n.noteFile(file)
	if !mine {
		return store.Forgot{}, false, nil
	}
	if err != nil {
		return store.Forgot{}, true, err
	}
	if why := n.env.May(n, store.Write); why != "" {
		return store.Forgot{}, true, errors.New(why)
	}
	file = n.absolute(file)
	// A file that is a link is refused before anything is made.
	if err := n.h.Check(file); err != nil {
		return store.Forgot{}, true, err
	}
	if err := files.LockMaking(n.h, sc.lock); err != nil {
		return store.Forgot{}, true, err
	}
	defer n.h.Unlock(sc.lock)
	data, err := files.Read(n.h, file, maxNoteFile)
	if hostio.IsNotFound(err) {
		return store.Forgot{}, true, errors.New(display + " does not exist; nothing was forgotten")
	}
	if err != nil {
		return store.Forgot{}, true, errors.New("could not read " + file + ": " + err.Error() + "; nothing was forgotten")
	}
	view, _ := redactedView(data, nil)
	pages := parse(sc.name, view)
	i, count, why := entryAt(pages, line, lineCount(data))
	if i < 0 {
		return store.Forgot{}, true, errors.New(display + ": " + why + "; nothing was forgotten")
	}
	p := pages[i]
	out, _, _ := removeEntry(data, p.Line, count)
	// The record keeps the redacted lines: a secret written by hand into
	// the file does not move into a sidecar.
	_, removed, before := removeEntry(view, p.Line, count)
	rec := forgotten{
		ID: n.newID("F-", file+"\x00"+strconv.Itoa(p.Line)+"\x00"+p.Text), T: n.h.Now(), Scope: sc.name,
		File: file, Line: p.Line, Section: p.Section, Text: p.Text, Src: removed, Before: before,
	}
	// The record first: if the file cannot be written after it, the entry
	// is still in the file, and a restore would be refused as a duplicate.
	records := path.Join(sc.dataDir, forgottenName)
	if err := n.h.Append(records, files.Sealed(n.h, records, rec.encode())); err != nil {
		return store.Forgot{}, true, errors.New("could not keep the recovery record in " + records + ": " + err.Error() + "; nothing was forgotten")
	}
	if err := n.h.WriteAtomic(file, out); err != nil {
		return store.Forgot{}, true, errors.New("could not write " + file + ": " + err.Error() + "; nothing was forgotten")
	}
	n.written(sc, file)
	return store.Forgot{Said: "Forgot " + quoteFact(p.Text) + " (" + display + ").", Restore: rec.ID}, true, nil
}

// Restore brings back the entry of a recovery record ("F-…"), refusing when
// an entry with the same text is there again, and marks the record
// restored. ok is false for a reference that is not a recovery record's id.
func (n *driver) Restore(_ *store.Out, ref string) (string, bool, error) {
	if !isRestoreID(ref) {
		return "", false, nil
	}
	if why := n.env.May(n, store.Write); why != "" {
		return "", true, errors.New(why)
	}
	rec, records, problems := n.findForgotten(ref)
	if rec == nil {
		msg := "no forgotten entry " + ref + " in this session's memory"
		if len(problems) > 0 {
			msg += " (" + strings.Join(problems, "; ") + ")"
		}
		return "", true, errors.New(msg)
	}
	sc, display, mine, err := n.noteFile(rec.File)
	switch {
	case !mine:
		return "", true, errors.New(ref + " names " + rec.File + ", which is not a memory file of this session; nothing was restored")
	case err != nil:
		return "", true, err
	}
	if err := n.h.Check(rec.File); err != nil {
		return "", true, err
	}
	if err := files.LockMaking(n.h, sc.lock); err != nil {
		return "", true, err
	}
	defer n.h.Unlock(sc.lock)
	// Read again under the lock: another process may have restored it.
	if rec, _, _ = n.findForgotten(ref); rec == nil {
		return "", true, errors.New("no forgotten entry " + ref + " in this session's memory")
	}
	if rec.Restored != 0 {
		return "", true, errors.New(ref + " was already restored, to " + display + " line " + strconv.Itoa(rec.RestoredLine))
	}
	data, err := files.Read(n.h, rec.File, maxNoteFile)
	if err != nil && !hostio.IsNotFound(err) {
		return "", true, errors.New("could not read " + rec.File + ": " + err.Error() + "; nothing was restored")
	}
	view, _ := redactedView(data, nil)
	pages := parse(sc.name, view)
	if i := duplicate(rec.Text, pages); i >= 0 {
		return "", true, errors.New(display + " line " + strconv.Itoa(pages[i].Line) + " already says " + quoteFact(pages[i].Text) + "; nothing was restored")
	}
	out, line := restoreEntry(data, rec)
	if err := n.h.Mkdir(path.Dir(rec.File)); err != nil {
		return "", true, errors.New("could not create " + path.Dir(rec.File) + ": " + err.Error() + "; nothing was restored")
	}
	if err := n.h.WriteAtomic(rec.File, out); err != nil {
		return "", true, errors.New("could not write " + rec.File + ": " + err.Error() + "; nothing was restored")
	}
	if err := n.h.Append(records, files.Sealed(n.h, records, restoreRecord(rec.ID, n.h.Now(), rec.File, line))); err != nil {
		n.h.Log(hostio.Warn, "pi-memory: restored "+rec.ID+" but could not mark it in "+records+": "+err.Error())
	}
	n.written(sc, rec.File)
	return "Restored " + quoteFact(rec.Text) + " to " + display + ", line " + strconv.Itoa(line) + ".", true, nil
}

// written follows a write to file: an index is read again and its page
// table rebuilt (a topic file has none).
func (n *driver) written(sc *noteScope, file string) {
	if file != sc.file {
		return
	}
	sc.stamped = false
	if err := n.rebuildTable(sc, nil); err != nil {
		n.h.Log(hostio.Warn, "pi-memory: could not rebuild "+sc.table+": "+err.Error())
	}
}

// forgottenFiles reads the recovery records of every scope of this session
// (the project and personal notes share one file), calling each with a
// file's path and records until it returns false. A file that does not
// exist is skipped; one that cannot be read is a problem.
func (n *driver) forgottenFiles(each func(p string, f *forgottenFile) bool) (problems []string) {
	seen := map[string]bool{}
	for _, sc := range n.scopes {
		p := path.Join(sc.dataDir, forgottenName)
		if seen[p] {
			continue
		}
		seen[p] = true
		data, err := files.Read(n.h, p, maxSidecar)
		if hostio.IsNotFound(err) {
			continue
		}
		if err != nil {
			problems = append(problems, "could not read "+p+": "+err.Error())
			continue
		}
		f := decodeForgotten(data)
		for _, pr := range f.Problems {
			problems = append(problems, p+": "+pr.String())
		}
		if !each(p, &f) {
			break
		}
	}
	return problems
}

// findForgotten looks for the record id in the recovery records of every
// scope of this session. It returns the record, its file and the problems
// of the files it read (each bad line named; the lines stay on disk).
func (n *driver) findForgotten(id string) (*forgotten, string, []string) {
	var found *forgotten
	var file string
	problems := n.forgottenFiles(func(p string, f *forgottenFile) bool {
		found, file = f.find(id), p
		return found == nil
	})
	if found == nil {
		file = ""
	}
	return found, file, problems
}

// Forgotten are the entries still forgotten in this session's scopes (their
// recovery records), newest first: each restores by its F- id. A record
// whose file is no memory file of this session now is left out, as
// Restore would refuse it; an unreadable file is named when one of its ids
// is asked for.
func (n *driver) Forgotten(_ *store.Out, limit int) []store.Forgot {
	var fs []store.Forgot
	n.forgottenFiles(func(_ string, f *forgottenFile) bool {
		for _, r := range f.unrestored() {
			if _, display, mine, err := n.noteFile(r.File); mine && err == nil {
				fs = append(fs, store.Forgot{Said: quoteFact(r.Text) + " (" + display + ")", Restore: r.ID, At: r.T})
			}
		}
		return true
	})
	store.NewestFirst(fs)
	return fs[:min(limit, len(fs))]
}

// absolute is a reference's file as an absolute, clean path: a relative one
// is relative to the project root.
func (n *driver) absolute(file string) string {
	if !path.IsAbs(file) && n.s.ProjectRoot != "" {
		file = path.Join(n.s.ProjectRoot, file)
	}
	return path.Clean(file)
}

// noteFile says whether file is a markdown memory file: an index of this
// session's scopes, or a topic file (any .md) under the folder of the
// global or project index. mine is false for any other file; err says why
// a file of markdown memory cannot be written this session (an untrusted
// project's). display names it as a person opens it.
func (n *driver) noteFile(file string) (sc *noteScope, display string, mine bool, err error) {
	file = n.absolute(file)
	for _, s := range n.scopes {
		if s.file == file {
			return s, s.display, true, nil
		}
	}
	for _, s := range n.scopes {
		if s.name != scopeLocal && strings.HasPrefix(file, s.dir+"/") {
			rel := file[len(s.dir)+1:]
			return s, path.Join(path.Dir(s.display), rel), true, nil
		}
	}
	if n.s.ProjectRoot != "" && strings.HasPrefix(file, path.Join(n.s.ProjectRoot, notesProjectDir)+"/") {
		_, err := n.scopeFor(scopeProject)
		if err == nil {
			err = errors.New("this session has no project memory")
		}
		return nil, "", true, err
	}
	return nil, "", false, nil
}
