package notes

import (
	"encoding/hex"
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/errs"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/text"

	// Named apart from this package's marker, the line that says what a
	// cut block left out.
	markers "github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/store"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/sha1"
)

// Bounds of the machine-local notes files.
const (
	// traces.jsonl is renamed to traces.1.jsonl (replacing it) once it passes
	// traceFileBytes: history stays under twice that, and no append ever
	// reads or rewrites the file (a cut that did made TinyGo's heap grow).
	traceFileBytes = 1 << 20
	maxTracesShown = 400 // the most /memory traces --limit lists
	maxRecallShown = 100 // the most /memory recall --limit lists
	maxSidecar     = 8 << 20
	journalCompact = 64 << 10 // a journal with nothing pending is compacted past this size
)

// scopeFor finds a writable scope by name, or says why there is none.
func (n *driver) scopeFor(name string) (*noteScope, error) {
	if why := n.Off(); why != "" {
		return nil, errors.New(why)
	}
	switch name {
	case scopeGlobal, scopeProject, scopeLocal:
	default:
		return nil, errors.New("unknown scope " + strconv.Quote(name) + ": use global, project or local")
	}
	if sc := n.scope(name); sc != nil {
		return sc, nil
	}
	if n.s.ProjectRoot != "" && !n.s.Trusted {
		return nil, errors.New("this project is not trusted, so its memory is neither read nor written; trust the project in pi (or run with --approve), or remember it in global memory")
	}
	return nil, errors.New("this session has no project folder; use global memory")
}

// newID makes a record id: 8 hex digits of a hash of fresh random bytes, the
// clock, a counter and salt (the record's text). Random bytes alone would
// do on a real host; the rest keeps ids apart under a test host whose clock
// and randomness are fixed.
func (n *driver) newID(prefix, salt string) string {
	var b [8]byte
	n.h.Random(b[:])
	n.seq++
	h := sha1.New()
	h.Write(b[:])
	h.Write([]byte(strconv.FormatInt(n.h.Now(), 10) + "/" + numstr.Itoa(n.seq) + "/" + salt))
	return prefix + hex.EncodeToString(h.Sum(nil)[:4])
}

// ---- Staging -------------------------------------------------------------------

// stage appends a staged fact to its scope's journal. Nothing touches the
// memory file until a flush validates it against the file as it is then;
// what the fact is by itself (one line, no secret, not too long) is checked
// here, so a fact that could never be written is refused at once. The append
// takes the journal's lock: a flush in another process compacts the journal
// under the same lock, so a staged fact is never lost between its read and
// its rewrite.
func (n *driver) stage(scope, section, text, source string) (op Op, note string, err error) {
	sc, op, note, err := n.checkStage(scope, section, text, source)
	if err != nil {
		return Op{}, "", err
	}
	op.ID = n.newID("W-", scope+"\x00"+op.Text)
	op.T = n.h.Now()
	if err := files.Append(n.h, sc.journal, sc.lock, op.encode()); err != nil {
		return Op{}, "", err
	}
	return op, note, nil
}

// checkStage is what stage would append, without its id and time, and
// what the checks changed in the fact; or why the fact is refused. It
// writes nothing: a dry run asks it, so it says what a real run would.
func (n *driver) checkStage(scope, section, text, source string) (sc *noteScope, op Op, note string, err error) {
	sc, err = n.scopeFor(scope)
	if err != nil {
		return nil, Op{}, "", err
	}
	n.load(sc)
	if np, ok := errs.As[*files.NotPlain](sc.readErr); ok {
		return nil, Op{}, "", np // a flush could never write it
	}
	// Recalled or injected memory is never written back as a new fact: a
	// strict check refuses a fact that holds a marker, naming it (a block
	// cut away would leave a fact that is not what was asked, and an opening
	// tag alone would take the rest of the fact with it); the rules that
	// repair cut the blocks away.
	if !n.cfg.StrictWriteback {
		text = markers.Strip(text)
	}
	f := checkFact(text, section, n.cfg.StrictWriteback)
	if f.Reason != "" {
		return nil, Op{}, "", &refusal{reason: f.Reason, detail: f.Detail}
	}
	if section != "" {
		section = f.Section
	}
	return sc, Op{Op: "stage", Scope: scope, Section: section, Text: f.Text, Source: source}, f.Detail, nil
}

// refusal is a fact refused for what it is (checkFact).
type refusal struct{ reason, detail string }

func (r *refusal) Error() string { return r.reason + ": " + r.detail }

// readJournal reads a journal ("" data when it does not exist).
func (n *driver) readJournal(p string) (Journal, error) {
	data, err := files.Read(n.h, p, maxSidecar)
	if hostio.IsNotFound(err) {
		return Journal{}, nil
	}
	if err != nil {
		return Journal{}, err
	}
	return DecodeJournal(data), nil
}

// journals lists the distinct journals of this session's scopes, each with
// the scopes that write to it.
func (n *driver) journals() [][]*noteScope {
	var out [][]*noteScope
	for _, sc := range n.scopes {
		found := false
		for i := range out {
			if out[i][0].journal == sc.journal {
				out[i] = append(out[i], sc)
				found = true
			}
		}
		if !found {
			out = append(out, []*noteScope{sc})
		}
	}
	return out
}

// pending counts the staged facts waiting for a flush.
func (n *driver) pending() (int, []string) {
	count := 0
	var problems []string
	for _, group := range n.journals() {
		j, err := n.readJournal(group[0].journal)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		count += len(j.Pending)
	}
	return count, problems
}

// ---- Flush ---------------------------------------------------------------------

// flushReport is what a flush did, for the person and the trace.
type flushReport struct {
	ops      []Op // outcome records written
	staged   map[string]Op
	warnings []string
	problems []string // journal lines that could not be read, files that could not be written
}

// flush validates every pending staged fact and commits the valid ones to
// their memory files, atomically and under the scope's lock; each outcome is
// appended to the journal, the page tables are rebuilt, and the flush is
// traced.
func (n *driver) flush() (flushReport, error) {
	rep := flushReport{staged: map[string]Op{}}
	_, err := n.flushSome(&rep, 1<<30)
	if err == nil {
		n.traceFlush(&rep)
	}
	return rep, err
}

// flushSome flushes up to limit more of the staged facts rep has not seen
// (each journal under its lock), and says whether any is left: /memory
// flush does it a slice of pi's event loop at a time (decision 018), as a
// fact's check and write read its whole file.
func (n *driver) flushSome(rep *flushReport, limit int) (more bool, err error) {
	if why := n.env.May(n, store.Write); why != "" {
		return false, errors.New(why)
	}
	for _, group := range n.journals() {
		if more {
			return true, nil
		}
		if more, err = n.flushJournal(group, rep, &limit); err != nil {
			return false, err
		}
	}
	return more, nil
}

// traceFlush records a flush's outcomes in the traces, once it is done.
func (n *driver) traceFlush(rep *flushReport) {
	if len(rep.ops) > 0 && n.cfg.TraceEnabled {
		t := Trace{ID: n.newID("T-", "flush"), T: n.h.Now(), Kind: "flush", Ops: rep.ops}
		if err := n.appendTrace(&t); err != nil {
			rep.problems = append(rep.problems, "could not write the trace: "+err.Error())
		}
	}
}

// flushJournal flushes up to *limit of the group's staged facts rep has
// not seen, counting them off *limit; more says whether any is left.
func (n *driver) flushJournal(group []*noteScope, rep *flushReport, limit *int) (more bool, err error) {
	first := group[0]
	if st, err := n.h.Stat(first.journal); err != nil || st.Size == 0 {
		if err != nil && !hostio.IsNotFound(err) {
			return false, err
		}
		return false, nil
	}
	if err := files.LockMaking(n.h, first.lock); err != nil {
		return false, err
	}
	defer n.h.Unlock(first.lock)
	j, err := n.readJournal(first.journal)
	if err != nil {
		return false, err
	}
	if len(rep.staged) == 0 {
		for _, p := range j.Problems {
			rep.problems = append(rep.problems, first.journal+": "+p.String()+" (kept as it is)")
		}
	}
	confirmed := map[*noteScope][]string{}
	changed := map[*noteScope]bool{}
	var lines []byte
	for _, op := range j.Pending {
		if _, seen := rep.staged[op.ID]; seen {
			continue
		}
		if *limit <= 0 {
			more = true
			break
		}
		*limit--
		rep.staged[op.ID] = op
		var sc *noteScope
		for _, s := range group {
			if s.name == op.Scope {
				sc = s
			}
		}
		now := n.h.Now()
		if sc == nil {
			out := Op{Op: "reject", ID: op.ID, T: now, Reason: "invalid", Detail: "unknown scope " + strconv.Quote(op.Scope)}
			rep.ops = append(rep.ops, out)
			lines = append(lines, out.encode()...)
			continue
		}
		n.load(sc)
		if sc.readErr != nil {
			rep.problems = append(rep.problems, "could not read "+sc.file+": "+sc.readErr.Error()+"; "+op.ID+" stays pending")
			continue
		}
		o := check(op.Text, op.Section, sc.data, sc.pages, rules{Strict: n.cfg.StrictWriteback, MaxLines: n.cfg.MaxInjectLines, MaxBytes: n.cfg.MaxInjectBytes, File: sc.display})
		if !o.Commit {
			out := Op{Op: "reject", ID: op.ID, T: now, Reason: o.Reason, Detail: o.Detail}
			if o.Duplicate >= 0 {
				p := &sc.pages[o.Duplicate]
				out.Page = p.ID
				out.Detail += "; that entry is marked as confirmed"
				confirmed[sc] = append(confirmed[sc], p.Hash)
			}
			rep.ops = append(rep.ops, out)
			lines = append(lines, out.encode()...)
			continue
		}
		if err := n.h.Mkdir(sc.dir); err != nil {
			rep.problems = append(rep.problems, "could not create "+sc.dir+": "+err.Error()+"; "+op.ID+" stays pending")
			continue
		}
		if err := n.h.WriteAtomicOver(sc.file, o.Out, sc.data); err != nil {
			rep.problems = append(rep.problems, "could not write "+sc.file+": "+err.Error()+"; "+op.ID+" stays pending")
			continue
		}
		changed[sc] = true
		sc.stamped = false // re-stat: the write changed its size and mtime
		n.load(sc)
		out := Op{Op: "commit", ID: op.ID, T: now, File: sc.file, Line: o.Line, Detail: o.Detail}
		for i := range sc.pages {
			if sc.pages[i].Line == o.Line {
				out.Page = sc.pages[i].ID
			}
		}
		if o.Warning != "" {
			rep.warnings = append(rep.warnings, op.ID+": "+o.Warning)
		}
		rep.ops = append(rep.ops, out)
		lines = append(lines, out.encode()...)
	}
	if len(lines) > 0 {
		if err := n.h.Append(first.journal, lines); err != nil {
			return false, err
		}
	}
	for _, sc := range group {
		if changed[sc] || len(confirmed[sc]) > 0 {
			if err := n.rebuildTable(sc, confirmed[sc]); err != nil {
				rep.problems = append(rep.problems, "could not rebuild "+sc.table+": "+err.Error())
			}
		}
	}
	return more, n.compactJournal(first)
}

// compactJournal keeps a journal with nothing pending from growing forever:
// past journalCompact bytes it is rewritten as compactedJournal says. The
// caller holds the lock.
func (n *driver) compactJournal(sc *noteScope) error {
	st, err := n.h.Stat(sc.journal)
	if err != nil || st.Size <= journalCompact {
		return nil
	}
	data, err := files.Read(n.h, sc.journal, maxSidecar)
	if err != nil {
		return nil
	}
	out, ok := compactedJournal(data)
	if !ok {
		return nil
	}
	return n.h.WriteAtomic(sc.journal, out)
}

// ---- Page tables ---------------------------------------------------------------

// tableState is a page table's status against its file.
type tableState struct {
	Status string // missing, valid, stale, corrupt
	Detail string
	Dates  *dates // the table's dates when it could be read; valid until the next tableState
}

func (n *driver) tableState(sc *noteScope) tableState {
	data, err := files.ReadInto(n.h, sc.table, maxSidecar, n.buf[:0])
	if data != nil {
		n.buf = data
	}
	if hostio.IsNotFound(err) {
		return tableState{Status: "missing"}
	}
	if err != nil {
		return tableState{Status: "corrupt", Detail: err.Error()}
	}
	pt, err := n.dates.decode(data)
	if err != nil {
		return tableState{Status: "corrupt", Detail: err.Error()}
	}
	if !sc.exists || pt.Size != int64(len(sc.data)) || pt.SHA1 != hashText(sc.data) {
		return tableState{Status: "stale", Detail: sc.display + " changed since it was built", Dates: &n.dates}
	}
	st := tableState{Status: "valid", Dates: &n.dates}
	if pt.Count < len(sc.pages) {
		st.Detail = "dates kept for the first " + numstr.Itoa(pt.Count) + " of " + text.Plural(len(sc.pages), "page", "pages") + ": the table stops at 8 MiB"
	}
	return st
}

// rebuildTable writes the scope's page table from its file, carrying dates
// over and marking the given page hashes as confirmed now.
func (n *driver) rebuildTable(sc *noteScope, confirm []string) error {
	n.load(sc)
	if !sc.exists {
		return nil
	}
	old := n.tableState(sc).Dates
	if old == nil {
		old = &n.dates
		old.reset()
	}
	now := n.h.Now()
	for _, h := range confirm {
		old.confirm(h, now)
	}
	// Encoded into the buffer the old table was read into: a rebuild of a
	// large index allocates nothing that grows with it.
	n.buf = appendPageTable(n.buf[:0], maxSidecar, sc.name, sc.file, sc.display, int64(len(sc.data)), hashText(sc.data), sc.pages, old, now)
	if err := n.h.Mkdir(sc.dataDir); err != nil {
		return err
	}
	return n.h.WriteAtomic(sc.table, n.buf)
}

// settle runs when a session ends: pending writebacks are flushed, and page
// tables that no longer match their files are rebuilt, so the dates of new
// and edited entries are kept.
func (n *driver) settle() (info string, warnings []string) {
	if n.env.May(n, store.Capture) != "" {
		return "", nil
	}
	if count, _ := n.pending(); count > 0 {
		rep, err := n.flush()
		if err != nil {
			warnings = append(warnings, "could not flush staged memory: "+err.Error())
		}
		warnings = append(warnings, rep.problems...)
		written := 0
		for _, o := range rep.ops {
			if o.Op == "commit" {
				written++
			}
		}
		if len(rep.ops) > 0 {
			// Said once, so a staged fact never lands unannounced (pimem ends
			// its session right after the command that staged it).
			info = "Session end flushed " + text.Plural(len(rep.ops), "staged fact", "staged facts") + ": " +
				numstr.Itoa(written) + " written, " + numstr.Itoa(len(rep.ops)-written) + " refused (/memory traces shows each)."
		}
	}
	n.loadAll()
	for _, sc := range n.scopes {
		if !sc.exists {
			continue
		}
		if st := n.tableState(sc); st.Status != "valid" {
			if err := n.rebuildTable(sc, nil); err != nil {
				warnings = append(warnings, "could not rebuild "+sc.table+": "+err.Error())
			}
		}
	}
	return info, warnings
}

// ---- Traces and receipts -------------------------------------------------------

// injected keeps this turn's receipts and traces the injection when it
// differs from the last traced one. Only a store with memory files writes
// traces: a folder without memory leaves no trace anywhere.
func (n *driver) injected(text string, receipts []budget.Receipt) {
	if text == "" || n.env.May(n, store.Capture) != "" || !n.cfg.TraceEnabled || !n.anyFile() || n.traces == "" {
		return
	}
	// The same bytes as the turn before (the usual case) were traced then or
	// failed to be; comparing is cheaper than hashing them again.
	if text == n.lastText {
		return
	}
	n.lastText = text
	h := hashText([]byte(text))
	if h == n.tracedHash {
		return
	}
	t := Trace{ID: n.newID("T-", h), T: n.h.Now(), Kind: "inject", Hash: h}
	for _, r := range receipts {
		sr := storeReceipt{Store: r.Store, Bytes: r.Bytes, Tokens: r.Tokens, Cap: budget.TokenBytes(r.Cap)} // a trace keeps the cap in bytes (docs/formats.md)
		if r.Store == "notes" {
			sr.Scopes = n.receipts
		}
		t.Stores = append(t.Stores, sr)
	}
	t.Faults, t.MoreFaults = n.residency.Faults, n.residency.MoreFaults
	if err := n.appendTrace(&t); err != nil {
		n.h.Log(hostio.Warn, "could not write "+n.traces+": "+err.Error())
		return
	}
	n.tracedHash = h
	n.lastTraceID = t.ID
}

// appendTrace appends one record, and moves the file aside to traces.1.jsonl
// once it passes traceFileBytes (under the lock).
func (n *driver) appendTrace(t *Trace) error {
	return files.AppendLocked(n.h, n.traces, n.traces+".lock", func(add func([]byte) (bool, error)) error {
		if _, err := add(t.encode()); err != nil {
			return err
		}
		if info, err := n.h.Stat(n.traces); err == nil && info.Size > traceFileBytes {
			return n.h.Rename(n.traces, n.oldTraces())
		}
		return nil
	})
}

// oldTraces is where the previous traces file is kept.
func (n *driver) oldTraces() string {
	return strings.TrimSuffix(n.traces, ".jsonl") + ".1.jsonl"
}

// readTraces reads this session's traces, oldest first: the previous file,
// then the current one. Problems name their file and line.
func (n *driver) readTraces() ([]Trace, []string, error) {
	if n.traces == "" {
		return nil, nil, nil
	}
	var all []Trace
	var problems []string
	for _, f := range []string{n.oldTraces(), n.traces} {
		data, err := files.Read(n.h, f, maxSidecar)
		if hostio.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, nil, errors.New(f + ": " + err.Error())
		}
		t, ps := DecodeTraces(data)
		all = append(all, t...)
		for _, p := range ps {
			problems = append(problems, f+": "+p.String())
		}
	}
	return all, problems, nil
}
