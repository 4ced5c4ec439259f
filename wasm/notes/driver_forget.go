package notes

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"path"
	"slices"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonl"
	markers "github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/similarity"
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

// Forget removes the entry ref names ("<file>:<line>#<page id>",
// forget.go), found under the scope's lock in the file as it is then, after
// keeping a recovery record of it. ok is false for a reference that is not
// a markdown memory file's. An entry forgotten already (by another process,
// or before) is said to be, with the id that restores it: nothing else is
// removed.
// Claims is store.Claimer's: a note's id (<file>:<line>#<page id>), a
// page id alone, or a restore reference.
func (n *driver) Claims(ref store.Ref) bool {
	_, ok := parseRef(ref.ID)
	return ok || isPageID(strings.TrimSpace(ref.ID)) || isRestoreID(normRestoreID(ref.ID))
}

func (n *driver) Forget(_ *store.Out, ref store.Ref) (store.Forgot, bool, error) {
	r, ok := parseRef(ref.ID)
	if !ok && isPageID(strings.TrimSpace(ref.ID)) {
		// A page's id alone, as a search cites it after the file and line.
		return store.Forgot{}, true, errors.New("A note is forgotten by its whole id, <file>:<line>#" + strings.TrimSpace(ref.ID) + ", as a search or /memory pages cites it; nothing was forgotten.")
	}
	if !ok {
		return store.Forgot{}, false, nil
	}
	sc, display, mine, err := n.noteFile(r.File)
	if mine && err == nil {
		if f := n.shownFile(r.File); f != r.File {
			r.File = f
			sc, display, mine, err = n.noteFile(r.File)
		}
	}
	if !mine {
		return store.Forgot{}, false, nil
	}
	if err != nil {
		return store.Forgot{}, true, err
	}
	if why := n.env.May(n, store.Write); why != "" {
		return store.Forgot{}, true, errors.New(why)
	}
	file := n.absolute(r.File)
	// A file that is a link is refused before anything is made.
	if err := n.h.Check(file); err != nil {
		return store.Forgot{}, true, err
	}
	if err := files.LockMaking(n.h, sc.lock); err != nil {
		return store.Forgot{}, true, err
	}
	defer n.h.Unlock(sc.lock)
	data, err := readNote(n.h, file, nil)
	missing := hostio.IsNotFound(err)
	switch {
	case missing && r.ID == "":
		return store.Forgot{}, true, errors.New(display + " does not exist; nothing was forgotten")
	case missing:
		data = nil
	case err != nil:
		return store.Forgot{}, true, errors.New("could not read " + file + ": " + err.Error() + "; nothing was forgotten")
	}
	from := files.Stamp(n.h, file)
	out, rec, secret, why := forgetEntry(sc.name, display, data, r, n.forgottenIDs(sc).taken(file, from))
	switch {
	case why != "":
		return store.Forgot{}, true, errors.New(why)
	case out == nil:
		return n.notThere(sc, file, display, r, missing)
	case rec.Line != r.Line:
		// An id names an entry by its text and its order among the
		// entries saying the same: when the first of two twins goes, the
		// second takes its id. A reference cited where an entry of that id
		// was forgotten (by another process a moment ago) names that one,
		// not the twin now holding its id elsewhere (h-v83: two forgets
		// of one twin at once removed both).
		if g, _ := n.goneRecord(sc, file, r.ID, r.Line); g != nil {
			return n.forgottenAlready(g, display)
		}
	}
	rec.From = from
	rec.ID, rec.T, rec.Scope, rec.File = n.newID("F-", file+"\x00"+numstr.Itoa(rec.Line)+"\x00"+rec.Text), n.h.Now(), sc.name, file
	records := path.Join(sc.dataDir, forgottenName)
	// Its twins forgotten before it and not restored yet may come back
	// beside it, in any order: they count as twins too.
	rec.Twins += n.pendingTwins(records, rec)
	// The record first: a process killed after the write still leaves what
	// restores the entry. When the file cannot be written after it, the
	// entry is still in the file: the record is closed as restored, there,
	// so it is not listed as forgotten (were that append lost too, a
	// restore would be refused as a duplicate).
	line := rec.encode()
	if len(line)+1024 > maxForgottenLine { // its seal and newline fit in the margin
		// A record that could not be read back would promise a restore it
		// cannot give (h-v93 d4: control bytes are six bytes each in JSON).
		return store.Forgot{}, true, errors.New("the entry's recovery record would be " + numstr.Itoa(len(line)) + " bytes, over the " + numstr.Itoa(maxForgottenLine) + " a record may be; remove it by hand; nothing was forgotten")
	}
	if err := n.h.Append(records, files.Sealed(n.h, records, line)); err != nil {
		return store.Forgot{}, true, errors.New("could not keep the recovery record in " + records + ": " + err.Error() + "; nothing was forgotten")
	}
	if err := n.h.WriteAtomicOver(file, out, data); err != nil {
		n.h.Append(records, files.Sealed(n.h, records, restoreRecord(rec.ID, n.h.Now(), rec.File, rec.Line, 0, 0)))
		return store.Forgot{}, true, errors.New("could not write " + file + ": " + err.Error() + "; nothing was forgotten")
	}
	n.written(sc, file)
	said := "Forgot " + quoteFact(rec.Text) + " (" + display + ")."
	if why := markers.Check(lf(out)); why != "" && markers.Check(lf(data)) == "" {
		said += " The lines around it now make " + why + ": every exit shows it defused, but edit " + display + " to remove it."
	}
	if secret {
		said += " Its secrets were not kept: a restore brings it back with [REDACTED:…] in their place."
	}
	return store.Forgot{Said: said, Restore: rec.ID}, true, nil
}

// keptIDs are the page ids forgotten entries keep, by memory file, as a
// recovery records file with stamp holds them (forgottenIDs).
type keptIDs struct {
	stamp  string
	byFile map[string][]keptID // sorted by id
}

// keptID is a forgotten entry's page id and the stamp of the file it was
// cut from.
type keptID struct {
	id, from string
}

// forgottenIDs are the page ids the entries forgotten from sc's files keep,
// and not restored: no entry of their file is given one (parser.taken), so
// ids do not move when an entry goes. Of two identical bullets, the second
// stays "-2" when the first is forgotten, and a second forget of the first,
// made when both were there, finds it forgotten already instead of
// removing the second (h-v89 B1; h-v91 B12: nor after a hand edit moved the
// second onto the first's line; h-v92 B2: nor when they stood in two
// sections). A fact typed back by hand while its record is unrestored is
// "-2". Its stamp is the records': the ids change with it. The records are
// read again only when it changes.
func (n *driver) forgottenIDs(sc *noteScope) keptIDs {
	records := path.Join(sc.dataDir, forgottenName)
	stamp := files.Stamp(n.h, records)
	if k, ok := n.kept[records]; ok && k.stamp == stamp {
		return k
	}
	k := keptIDs{stamp: stamp, byFile: map[string][]keptID{}}
	n.readForgotten(records, "", func(f *forgottenFile) {
		for _, r := range f.Records {
			if r.Restored == 0 && r.Page != "" {
				k.byFile[r.File] = append(k.byFile[r.File], keptID{r.Page, r.From})
			}
		}
	})
	for _, ids := range k.byFile {
		slices.SortFunc(ids, func(a, b keptID) int { return strings.Compare(a.id, b.id) })
	}
	if n.kept == nil {
		n.kept = map[string]keptIDs{}
	}
	n.kept[records] = k
	return k
}

// taken are the ids kept from file (absolute), whose stamp (files.Stamp)
// is now. A forget keeps its record before it writes the file: a record
// cut from the file as it still is keeps no id (its forget is writing the
// file now, or died before it could: its entry is still there). Read in
// that moment, the entry itself took the next id ("-2"), which named
// nothing once the file was written.
func (k keptIDs) taken(file, now string) []string {
	var taken []string
	for _, x := range k.byFile[file] {
		if x.from != now { // a record without one (older) is never the file's now
			taken = append(taken, x.id)
		}
	}
	return taken
}

// pendingTwins is how many entries still forgotten (unrestored records of
// records) said what rec says, in its file and section, and had a twin then
// (this entry, or another): one that stood alone was typed back by hand,
// and this entry is it, not its twin.
func (n *driver) pendingTwins(records string, rec forgotten) int {
	want := similarity.Normalize(cutRunes(rec.Text, factQuoteRunes))
	count := 0
	n.readForgotten(records, "", func(f *forgottenFile) {
		for _, r := range f.unrestored() {
			if r.Twins > 0 && r.File == rec.File && r.Section == rec.Section && want != "" && similarity.Normalize(r.Text) == want {
				count++
			}
		}
	})
	return count
}

// notThere answers a forget of an entry the file no longer holds: gone
// already (its recovery record names what restores it), or changed since it
// was cited. Nothing is removed either way.
func (n *driver) notThere(sc *noteScope, file, display string, r noteRef, missing bool) (store.Forgot, bool, error) {
	gone, problems := n.goneRecord(sc, file, r.ID, -1)
	if gone != nil {
		return n.forgottenAlready(gone, display)
	}
	msg := display + " holds no entry " + r.ID + " now: it changed or went since it was cited (at line " + numstr.Itoa(r.Line) + "); search again; nothing was forgotten"
	if missing {
		msg = display + " does not exist; nothing was forgotten"
	}
	if len(problems) > 0 {
		msg += " (" + strings.Join(problems, "; ") + ")"
	}
	return store.Forgot{}, true, errors.New(msg)
}

// goneRecord is the newest recovery record still unrestored of the entry
// with page id in file (that stood at line, unless line < 0), or nil, with
// the problems of the records file.
func (n *driver) goneRecord(sc *noteScope, file, page string, line int) (*forgotten, []string) {
	var gone *forgotten
	problems := n.readForgotten(path.Join(sc.dataDir, forgottenName), "", func(f *forgottenFile) {
		if g := f.gone(file, page, line); g != nil {
			c := *g
			gone = &c
		}
	})
	return gone, problems
}

// forgottenAlready answers a forget of an entry that went before it, with
// the id that restores it.
func (n *driver) forgottenAlready(gone *forgotten, display string) (store.Forgot, bool, error) {
	return store.Forgot{Said: quoteFact(gone.Text) + " (" + display + ") was forgotten already; nothing else was removed.", Restore: gone.ID}, true, nil
}

// Restore brings back the entry of a recovery record ("F-…"), exactly as
// it was removed, refusing when an entry with the same text is in its
// section again (a near-duplicate, or the same text in another section, is
// not: it may have stood beside the entry all along),
// and marks the record restored. ok is false for a reference that is not a
// recovery record's id.
func (n *driver) Restore(_ *store.Out, r store.Ref) (string, bool, error) {
	ref := normRestoreID(r.ID)
	if !isRestoreID(ref) {
		return "", false, nil
	}
	if why := n.env.May(n, store.Write); why != "" {
		return "", true, errors.New(why)
	}
	rec, records, _, problems := n.findForgotten(ref)
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
	case !strings.HasSuffix(rec.File, ".md") || sc.name != rec.Scope:
		// A record is a file of this machine that anyone may edit: it
		// restores only into a note of the memory it says it came from,
		// never config.json or the other scope's file (h-v93 d7).
		return "", true, errors.New(ref + " names " + rec.File + ", which is not a note file of " + rec.Scope + " memory; nothing was restored")
	}
	if err := n.h.Check(rec.File); err != nil {
		return "", true, err
	}
	if err := files.LockMaking(n.h, sc.lock); err != nil {
		return "", true, err
	}
	defer n.h.Unlock(sc.lock)
	// Read again under the lock: another process may have restored it.
	var others []forgotten
	if rec, _, others, _ = n.findForgotten(ref); rec == nil {
		return "", true, errors.New("no forgotten entry " + ref + " in this session's memory")
	}
	if rec.Restored != 0 {
		return "", true, errors.New(ref + " was already restored, to " + display + " line " + numstr.Itoa(rec.RestoredLine))
	}
	data, err := readNote(n.h, rec.File, nil)
	if err != nil && !hostio.IsNotFound(err) {
		return "", true, errors.New("could not read " + rec.File + ": " + err.Error() + "; nothing was restored")
	}
	view, pages := readView(sc.name, data, nil)
	if i := restated(rec.Text, rec.Section, pages, rec.Twins); i >= 0 {
		return "", true, errors.New(display + " line " + numstr.Itoa(pages[i].Line) + " already says " + quoteFact(pages[i].Text) + "; nothing was restored")
	}
	out, line, tailed := restoreEntry(data, view, rec, others)
	if len(out) > maxNoteFile {
		// A record edited by hand (or a file grown since): memory would
		// no longer read the file (h-v89 B4).
		return "", true, errors.New("restoring " + quoteFact(rec.Text) + " would make " + display + " " + numstr.Itoa(len(out)) + " bytes, more than the " + numstr.Itoa(maxNoteFile>>20) + " MiB memory reads; nothing was restored")
	}
	if !readsBack(out, line) {
		// Its place and its section's end are inside a code block or a
		// comment that something above left open since.
		return "", true, errors.New("restoring " + quoteFact(rec.Text) + " to " + display + " would put it inside a code block or an HTML comment that is not closed above its place (its section " + quoteFact(rec.Section) + " or the file's end); close it and restore again; nothing was restored")
	}
	if !addsOneEntry(sc.name, data, out) {
		// A record edited by hand: its src holds a heading, or opens a
		// code block or a comment that would swallow what follows
		// (h-v89, h-v93 d7).
		return "", true, errors.New("restoring " + quoteFact(rec.Text) + " to " + display + " would change how the file's other entries read (its recovery record's text holds a heading, or opens a code block or a comment); nothing was restored")
	}
	// Only what the lines around it make with it is refused: what the
	// entry held itself (lone "\r"s inside it, h-v77 B1) comes back as it
	// was.
	if why := markers.Check(lf(out)); why != "" && markers.Check(lf(data)) == "" && markers.Check(lf([]byte(rec.Src))) == "" {
		return "", true, errors.New("restoring " + quoteFact(rec.Text) + " to " + display + " would make " + why + " with the lines around it; edit them, then restore again; nothing was restored")
	}
	if err := n.h.Mkdir(path.Dir(rec.File)); err != nil {
		return "", true, errors.New("could not create " + path.Dir(rec.File) + ": " + err.Error() + "; nothing was restored")
	}
	if err := n.h.WriteAtomicOver(rec.File, out, data); err != nil {
		return "", true, errors.New("could not write " + rec.File + ": " + err.Error() + "; nothing was restored")
	}
	if err := n.h.Append(records, files.Sealed(n.h, records, restoreRecord(rec.ID, n.h.Now(), rec.File, line, bodyLines(out)-bodyLines(data), tailed))); err != nil {
		n.h.Log(hostio.Warn, "restored "+rec.ID+" but could not mark it in "+records+": "+err.Error())
	}
	n.written(sc, rec.File)
	return "Restored " + quoteFact(rec.Text) + " to " + display + ", line " + numstr.Itoa(line) + ".", true, nil
}

// written follows a write to file: an index is read again and its page
// table rebuilt (a topic file has none).
func (n *driver) written(sc *noteScope, file string) {
	if file != sc.file {
		return
	}
	sc.stamped = false
	if err := n.rebuildTable(sc, nil); err != nil {
		n.h.Log(hostio.Warn, "could not rebuild "+sc.table+": "+err.Error())
	}
}

// forgottenPiece is how much of a recovery records file is read at a time,
// and maxForgottenLine the longest record kept whole: an entry removed
// from a memory file of maxNoteFile bytes, escaped.
const (
	forgottenPiece   = 256 << 10
	maxForgottenLine = 8 * maxNoteFile
)

// readForgotten folds one recovery records file, read in pieces whatever its
// size (the file is append-only and never rewritten, so it only grows),
// keeping want's record whole ("" keeps none); fold is called unless the file
// does not exist. It returns the file's problems, each named with the file.
func (n *driver) readForgotten(p, want string, fold func(f *forgottenFile)) (problems []string) {
	info, err := n.h.Stat(p)
	if hostio.IsNotFound(err) {
		return nil
	}
	if err == nil && info.Dir {
		err = errors.New("is a folder")
	}
	if err != nil {
		return []string{"could not read " + p + ": " + err.Error()}
	}
	f := forgottenFile{Want: want}
	read := func(off int64, dst []byte) (int, error) { return n.h.ReadAt(p, off, dst) }
	err = jsonl.Read(read, make([]byte, forgottenPiece), maxForgottenLine, func(k int, line []byte, _ bool) bool {
		f.add(k, line)
		return true
	}, func(k int) {
		f.Problems = append(f.Problems, Problem{Line: k, Msg: "longer than " + numstr.Itoa(maxForgottenLine) + " bytes; skipped"})
	})
	if err != nil {
		return []string{"could not read " + p + ": " + err.Error()}
	}
	for _, pr := range f.Problems {
		problems = append(problems, p+": "+pr.String())
	}
	fold(&f)
	return problems
}

// forgottenFiles reads the recovery records of every scope of this session
// (the project and personal notes share one file), calling each with a
// file's path and records until it returns false.
func (n *driver) forgottenFiles(want string, each func(p string, f *forgottenFile) bool) (problems []string) {
	seen := map[string]bool{}
	for _, sc := range n.scopes {
		p := path.Join(sc.dataDir, forgottenName)
		if seen[p] {
			continue
		}
		seen[p] = true
		more := true
		problems = append(problems, n.readForgotten(p, want, func(f *forgottenFile) { more = each(p, f) })...)
		if !more {
			break
		}
	}
	return problems
}

// findForgotten looks for the record id in the recovery records of every
// scope of this session. It returns the record, its file, every record of
// that file (what happened to the file since, for a restore) and the problems
// of the files it read (each bad line named; the lines stay on disk).
func (n *driver) findForgotten(id string) (*forgotten, string, []forgotten, []string) {
	var found *forgotten
	var file string
	var all []forgotten
	problems := n.forgottenFiles(id, func(p string, f *forgottenFile) bool {
		found, file, all = f.find(id), p, f.Records
		return found == nil
	})
	if found == nil {
		file, all = "", nil
	}
	return found, file, all, problems
}

// Forgotten are the entries still forgotten in this session's scopes (their
// recovery records), newest first: each restores by its F- id. A record
// whose file is no memory file of this session now is left out, as
// Restore would refuse it; a records file that could not be read is said
// (a warning: "nothing has been forgotten" would not be the whole truth).
func (n *driver) Forgotten(out *store.Out, limit int) []store.Forgot {
	var fs []store.Forgot
	problems := n.forgottenFiles("", func(_ string, f *forgottenFile) bool {
		for _, r := range f.unrestored() {
			if _, display, mine, err := n.noteFile(r.File); mine && err == nil {
				fs = append(fs, store.Forgot{Said: quoteFact(r.Text) + " (" + display + ")", Restore: r.ID, At: r.T})
			}
		}
		return true
	})
	for _, p := range problems {
		out.Notify("warning", "pi-memory: "+p)
	}
	store.NewestFirst(fs)
	return fs[:min(limit, len(fs))]
}

// absolute is a reference's file as an absolute, clean path: "~/…" is in
// the home folder, another relative one relative to the project root.
func (n *driver) absolute(file string) string {
	if strings.HasPrefix(file, "~/") && n.s.Home != "" {
		file = path.Join(n.s.Home, file[2:])
	}
	if !path.IsAbs(file) && n.s.ProjectRoot != "" {
		file = path.Join(n.s.ProjectRoot, file)
	}
	return path.Clean(file)
}

// shownFile is the file a reference names as it was shown: a file's name
// holding what is never said (an escape sequence, a bidi override, a secret)
// is cited cleaned and redacted, and that cite names the one file beside it
// whose name shows so. Any other name is returned as it is.
func (n *driver) shownFile(file string) string {
	abs := n.absolute(file)
	if _, err := n.h.Lstat(abs); !hostio.IsNotFound(err) {
		return file
	}
	names, err := n.h.List(path.Dir(abs))
	if err != nil {
		return file
	}
	found := ""
	for _, name := range names {
		if name != path.Base(abs) && shownName(name) == path.Base(abs) {
			if found != "" {
				return file // two would: neither is named
			}
			found = path.Join(path.Dir(abs), name)
		}
	}
	if found == "" {
		return file
	}
	return found
}

// shownName is a file's name as every exit says it (store.Out): redacted, then
// cleaned of what a terminal or a model reads as something else.
func shownName(name string) string {
	name, _ = redact.String(name)
	return markers.Data(name)
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
