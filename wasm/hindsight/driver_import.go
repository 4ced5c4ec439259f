package hindsight

import (
	"errors"
	"path"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/hsimport"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// /hindsight import [--dry-run] [DIR]: historical pi sessions, one retain
// item each, sent straight to the server (never through the outbox: the
// checkpoint is the import's own record of what the server took). The
// rules (what a session sends, its document id, what the checkpoint says is
// left) are wasm/hsimport's, and the store's own (which sessions go to which
// bank, what the answers mean) are import.go's; this file lists and reads
// the files, sends the requests and appends the checkpoint.
const (
	importBatch     = 8        // sessions per http ask, sent at once, one request each
	importBatchSize = 4 << 20  // and at most this many bytes of bodies per ask
	importWaitMs    = 30000    // one session's request bound
	importFileMax   = 64 << 20 // a session file larger than this is not read
	importDepth     = 8        // folders below DIR that are searched
	importUILines   = 40       // lines a UI run shows at its end (pimem prints them all)
	// importStaleMs is when a run's lock (held while it sends, taken again
	// before each ask, so never older than one ask) is another's to break:
	// left by a run whose process is alive but gave it up (a core recreated).
	importStaleMs = 2 * importWaitMs
)

// importRun is one run, kept between the asks of its command.
type importRun struct {
	h      *driver
	dir    string // the DIR given, "" for the current project's sessions
	dry    bool
	hasUI  bool
	cpPath string
	lock   string // held while a run that sends is going: one per server at a time
	held   bool
	todo   hsimport.Todo
	next   int // the index in todo.Files of the next file to read
	prog   hsimport.Progress
	lines  []string             // with a UI, what is said at the end instead of as it goes
	more   int                  // lines past importUILines, counted
	banks  map[string][2]string // cwd → repo key, bank
	buf    []byte               // reused for every file (TinyGo keeps large blocks pinned)
}

func (h *driver) cmdImport(c *store.Cmd) {
	if why := h.notRetainedNow(false); why != "" {
		c.Out.Fail("Not imported: " + why + ".")
		return
	}
	if h.dir == "" {
		c.Out.Fail("Not imported: pi-memory has no agent folder, so the import's checkpoint has nowhere to live.")
		return
	}
	own := h.projectBank()
	if own == "" {
		c.Out.Fail("Not imported: an import retains into project banks, and \"banks\" in " + h.files[0] + " selects none. Add \"project\" to it.")
		return
	}
	run := &importRun{h: h, dry: c.Args.Has("dry-run"), hasUI: c.HasUI, banks: map[string][2]string{}}
	if len(c.Args.Words) > 0 {
		run.dir = importDir(c.Args.Words[0], h.s.Home, h.s.Cwd, h.s.AgentDir)
	}
	run.cpPath = path.Join(h.dir, hsimport.CheckpointName(h.cfg.URL))
	data, err := files.Read(h.h, run.cpPath, importFileMax)
	if err != nil && !hostio.IsNotFound(err) {
		c.Out.Fail("Not imported: could not read the checkpoint " + run.cpPath + ": " + err.Error() + ". Fix or move it; without it every session is sent again (the server replaces them).")
		return
	}
	if !run.dry {
		// Two runs would each send every session they planned from the
		// checkpoint as it was when they started.
		// No folder: no run is going (a run that sends makes it first).
		run.lock = run.cpPath + ".run"
		err := h.h.Lock(run.lock, 0, importStaleMs)
		if err != nil && !hostio.IsNotFound(err) {
			c.Out.Fail("Not imported: another import to " + hideURLSecrets(h.cfg.URL) + " is running (" + err.Error() + "); run this one again once it has ended.")
			return
		}
		run.held = err == nil
	}
	cp := hsimport.DecodeCheckpoint(data)
	for _, p := range cp.Problems {
		c.Out.Notify("warning", "pi-memory: "+run.cpPath+" "+p)
	}
	listing, err := run.list()
	if err != nil {
		run.release()
		c.Out.Fail("Not imported: " + err.Error())
		return
	}
	run.todo = hsimport.Plan(cp, listing)
	run.prog.Total = len(run.todo.Files)
	head := importHead(run.dry, run.todo, len(listing), run.dir, h.s.ProjectRoot, h.cfg.URL)
	run.say(c.Out, head)
	run.step(c.Out)
}

// projectBank is the id of this project's bank, "" when none is selected.
func (h *driver) projectBank() string { return projectBankOf(h.banks()) }

// list is the session files the run may send: every one under DIR, or those
// in the folders of <agentDir>/sessions/ that may hold the project's.
func (r *importRun) list() ([]hsimport.File, error) {
	var out []hsimport.File
	if r.dir != "" {
		info, err := r.h.h.Stat(r.dir)
		if err != nil {
			return nil, errors.New("could not read " + r.dir + ": " + err.Error())
		}
		if !info.Dir {
			return nil, errors.New(r.dir + " is not a folder; name the folder that holds the session files")
		}
		err = r.walk(r.dir, 0, &out)
		return out, err
	}
	sessions := path.Join(r.h.s.AgentDir, "sessions")
	names, err := r.h.h.List(sessions)
	if hostio.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, errors.New("could not list " + sessions + ": " + err.Error())
	}
	for _, n := range names {
		if strings.HasSuffix(n, "/") && hsimport.FolderMayHold(n, r.h.s.ProjectRoot) {
			if err := r.walk(path.Join(sessions, n), importDepth, &out); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// walk adds the session files of folder and, depth levels down, its subfolders.
func (r *importRun) walk(folder string, depth int, out *[]hsimport.File) error {
	names, err := r.h.h.List(folder)
	if err != nil {
		return errors.New("could not list " + folder + ": " + err.Error())
	}
	for _, n := range names {
		p := path.Join(folder, n)
		if strings.HasSuffix(n, "/") {
			if depth < importDepth {
				if err := r.walk(p, depth+1, out); err != nil {
					return err
				}
			}
			continue
		}
		if !hsimport.IsSessionFile(n) {
			continue
		}
		info, err := r.h.h.Stat(p)
		if err != nil || info.Kind != hostio.KindFile {
			continue // gone since the listing, or not a regular file
		}
		*out = append(*out, hsimport.File{Path: p, Size: info.Size, Mtime: info.MtimeMs})
	}
	return nil
}

// say is a line of the run: printed as it goes without a UI, gathered for
// the end with one (pi shows each output as a notice).
func (r *importRun) say(out *store.Out, line string) {
	line, _ = redact.String(hideURLSecrets(line)) // a server's answer, a session's path: outside text
	if !r.hasUI {
		out.Output(line)
	} else if len(r.lines) < importUILines {
		r.lines = append(r.lines, line)
	} else {
		r.more++
	}
}

// step reads the next sessions and sends them in one ask, or finishes.
func (r *importRun) step(out *store.Out) {
	var batch []importPending
	var records []byte
	size := 0
	for r.next < len(r.todo.Files) && len(batch) < importBatch && size < importBatchSize {
		f := r.todo.Files[r.next]
		r.next++
		p, skip, why := r.read(f)
		switch {
		case why != "":
			r.prog.Skipped++
			r.say(out, hsimport.SkipLine(f, why))
			if skip && !r.dry {
				records = append(records, hsimport.Record{Op: hsimport.OpSkip, Path: f.Path, Size: f.Size, Mtime: f.Mtime, Reason: why, At: r.h.h.Now()}.Line()...)
			}
		case r.dry:
			r.say(out, hsimport.DryRunLine(f, p.s, p.it, p.bank))
			r.prog.Add(p.s, p.it)
		default:
			batch = append(batch, p)
			size += len(p.it.Content)
		}
	}
	if err := r.record(records); err != nil {
		r.stop(out, err.Error())
		return
	}
	if len(batch) == 0 {
		r.finish(out)
		return
	}
	if err := r.hold(); err != nil {
		r.stop(out, "another import to this server is running ("+err.Error()+")")
		return
	}
	reqs := make([]request, len(batch))
	for i, p := range batch {
		reqs[i] = post(r.h.cfg, hsimport.RequestPath(p.bank), hsimport.RequestBody([]hsimport.Item{p.it}), importWaitMs)
	}
	out.HTTP(encode(nil, reqs), false, func(out *store.Out, v gjson.Result) { r.answered(out, batch, v) })
}

// read reads and parses one file. why says why it is not sent; skip that
// the checkpoint records it (it is not read again until it changes).
func (r *importRun) read(f hsimport.File) (p importPending, skip bool, why string) {
	data, err := files.ReadInto(r.h.h, f.Path, importFileMax, r.buf)
	if err != nil {
		return p, false, "could not read it: " + err.Error()
	}
	r.buf = data[:0]
	s, err := hsimport.Parse(data, hsimport.Limits{})
	if err != nil {
		return p, true, err.Error()
	}
	if why, record := notSent(s, r.h.s.ProjectRoot, r.dir != ""); why != "" {
		return p, record, why
	}
	key, bank := r.bankOf(s.Cwd)
	return importPending{f: f, s: s, it: hsimport.NewItem(s, key), bank: bank}, false, ""
}

// bankOf is the repo key and project bank of the project a session ran in:
// this project's (with its configured bank) for a folder inside it, else
// derived from the git config found above the session's folder.
func (r *importRun) bankOf(cwd string) (string, string) {
	if kb, ok := r.banks[cwd]; ok {
		return kb[0], kb[1]
	}
	h := r.h
	key, bank := h.repoKey, h.projectBank()
	if !(hsimport.Session{Cwd: cwd}).Under(h.s.ProjectRoot) {
		root := files.ProjectRoot(h.h, cwd)
		key, bank = projectOf(root, h.gitConfig(root))
	}
	r.banks[cwd] = [2]string{key, bank}
	return key, bank
}

// answered records what the server took, then goes on, or stops where the
// rest would fail the same way (importAnswers).
func (r *importRun) answered(out *store.Out, batch []importPending, v gjson.Result) {
	took, refused, down := importAnswers(batch, readResponses([]byte(v.Raw), len(batch)))
	var records []byte
	for _, i := range took {
		p := batch[i]
		records = append(records, hsimport.Record{Op: hsimport.OpDone, Path: p.f.Path, Size: p.f.Size, Mtime: p.f.Mtime,
			Doc: p.it.DocumentID, Bank: p.bank, Messages: p.s.Messages, At: r.h.h.Now()}.Line()...)
		r.prog.Add(p.s, p.it)
	}
	r.prog.Failed += len(batch) - len(took)
	for _, line := range refused {
		r.say(out, line)
	}
	if err := r.record(records); err != nil {
		r.stop(out, err.Error())
		return
	}
	if down != "" {
		r.stop(out, down)
		return
	}
	r.progress(out)
	r.step(out)
}

// record appends checkpoint lines under the checkpoint's lock, on a line of
// their own after a torn last line.
func (r *importRun) record(lines []byte) error {
	if len(lines) == 0 {
		return nil
	}
	if err := files.Append(r.h.h, r.cpPath, r.cpPath+".lock", lines); err != nil {
		return errors.New("could not record the import in " + r.cpPath + ": " + err.Error())
	}
	return nil
}

// progress shows how far the run is: the footer in pi, a line in pimem.
func (r *importRun) progress(out *store.Out) {
	if r.hasUI {
		r.h.importing = r.prog.Text()
		return
	}
	out.Output(r.prog.Text())
}

// stop ends a run that cannot go on; what was sent is recorded, so the
// next run resumes after it.
func (r *importRun) stop(out *store.Out, why string) {
	r.end(out)
	out.Fail("Hindsight import stopped: " + hideURLSecrets(why) + ". " + r.prog.Text() + "; run it again to resume (the checkpoint " + r.cpPath + " has what was sent).")
}

// finish compacts the checkpoint when it is mostly superseded records, and
// says what the run did.
func (r *importRun) finish(out *store.Out) {
	if !r.dry && r.prog.Sent+r.prog.Skipped > 0 {
		if err := r.compact(); err != nil {
			out.Notify("warning", "pi-memory: "+err.Error())
		}
	}
	r.end(out)
	out.Output(hsimport.Summary(r.todo, r.prog, r.dry))
	if r.prog.Failed > 0 {
		out.SetExit(1)
	}
}

// hold takes the run's lock before an ask, again when it holds it: as
// young as the ask, it is never broken as stale while the run goes on. The
// folder is made when it is missing (a first import).
func (r *importRun) hold() error {
	h := r.h.h
	if r.lock == "" {
		return nil
	}
	if r.held {
		h.Unlock(r.lock)
	}
	err := h.Lock(r.lock, 0, importStaleMs)
	if hostio.IsNotFound(err) {
		if err = h.Mkdir(path.Dir(r.lock)); err == nil {
			err = h.Lock(r.lock, 0, importStaleMs)
		}
	}
	r.held = err == nil
	return err
}

// release lets another run send to the server.
func (r *importRun) release() {
	if r.held {
		r.h.h.Unlock(r.lock)
		r.held = false
	}
}

// end lets go of the server, gives back the footer and says what a UI run
// gathered.
func (r *importRun) end(out *store.Out) {
	r.release()
	if r.hasUI {
		r.h.importing = ""
		r.h.countWaiting()
		if r.more > 0 {
			r.lines = append(r.lines, "… and "+text.Plural(r.more, "more line", "more lines")+" (pimem hindsight import prints every line)")
		}
		if len(r.lines) > 0 {
			out.Output(strings.Join(r.lines, "\n"))
		}
	}
}

// compact rewrites the checkpoint with one record per file, under its lock,
// when superseded records outnumber the live ones; never while it holds a
// line it cannot read (that line would be lost).
func (r *importRun) compact() error {
	h := r.h
	lock := r.cpPath + ".lock"
	if err := h.h.Lock(lock, files.LockWaitMs, files.LockStaleMs); err != nil {
		return errors.New("could not lock " + lock + " to compact the checkpoint: " + err.Error())
	}
	defer h.h.Unlock(lock)
	data, err := files.Read(h.h, r.cpPath, importFileMax)
	if err != nil {
		return err
	}
	cp := hsimport.DecodeCheckpoint(data)
	if !cp.NeedsCompaction() || len(cp.Problems) > 0 {
		return nil
	}
	return h.h.WriteAtomic(r.cpPath, cp.Encode())
}
