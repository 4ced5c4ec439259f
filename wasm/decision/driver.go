package decision

import (
	"errors"
	"path"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/config"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/search"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// The decision store's driver: the only code of this package that talks to
// the host, and only through the guarded host the session hands it (Env.FS).
// This file opens it for a session and keeps the state in step with the log
// (configuration, replay, snapshots, locked appends); driver_moments.go is
// what it does at each moment of a turn, driver_read.go and driver_write.go
// its commands, driver_capture.go auto-capture, driver_fix.go doctor --fix,
// and driver_merge.go git's merge driver.

// Where decision memory lives (docs/formats.md).
const (
	decisionDirName   = ".pi/decision-memory"
	decisionLogName   = "decisions.jsonl"
	globalConfigName  = "decision-memory.config.json"
	projectConfigName = ".pi/decision-memory.config.json"
)

// driver drives one session's decision store: configuration, replay of the
// canonical log, locked appends and the per-turn injection cache.
type driver struct {
	env *store.Env
	s   *store.Session
	h   *files.FS

	cfg                settings
	cfgWatch           files.Watch
	dir, log, lock     string
	globalCfg, projCfg string
	snap               string // derived snapshot, in the agent dir ("" when none)
	snapNote           string // what happened to the snapshot at load, for status
	snapDue            bool   // a snapshot should be written once the turn is over

	st      *state
	idx     search.Index // the log as /decision search reads it, built on its first search
	cur     cursor
	rd      reader
	full    byteHash        // the hash of the log's bytes before cur.Offset, as replayed
	retries int             // loads started again because the log was rewritten while read
	seen    hostio.FileInfo // the log as stat found it when cur was reached
	own     hostio.FileInfo // the log as stat found it right after this process's last append grew it by exactly that
	buf     []byte          // for reading the log again (prefixSum)
	loaded  bool
	loadErr error

	injGen  uint64
	injMax  int
	injText string
	injOK   bool

	pending []candidate // auto-capture candidates of the running turn
	// declined are the texts the person declined this session (a proposal,
	// a candidate), kept across a restart of the core (Kept).
	declined []string

	// lineNotice says the log has bad lines, once a session: at its start in
	// pi; in pimem (one command a session) with the command, unless the
	// command reports them itself (status, doctor).
	lineNotice string
}

// The moments and services the store takes part in (wasm/store): a method
// whose signature drifts from its interface fails to build here rather than
// silently dropping the store from that moment.
var (
	_ store.Store      = (*driver)(nil)
	_ store.Starter    = (*driver)(nil)
	_ store.Prompter   = (*driver)(nil)
	_ store.Sectioner  = (*driver)(nil)
	_ store.Ender      = (*driver)(nil)
	_ store.Shutdowner = (*driver)(nil)
	_ store.Tooler     = (*driver)(nil)
	_ store.Footer     = (*driver)(nil)
	_ store.Keeper     = (*driver)(nil)
	_ store.Forgetter  = (*driver)(nil)
	_ store.Resourcer  = (*driver)(nil)
	_ store.Searcher   = (*driver)(nil)
	_ store.Bulky      = (*driver)(nil)
	_ store.Completer  = (*driver)(nil)
)

// Open is the decision store's driver for a session (wasm/store): the
// orchestrator (wasm/lifecycle) lists it among the session's stores. It
// reaches the host only through env.FS.
func Open(env *store.Env) store.Store {
	s := env.Session
	d := &driver{env: env, s: s, h: env.FS}
	if s.ProjectRoot != "" {
		d.dir = path.Join(s.ProjectRoot, decisionDirName)
		d.log = path.Join(d.dir, decisionLogName)
		d.lock = d.log + ".lock"
		d.projCfg = path.Join(s.ProjectRoot, projectConfigName)
	}
	if s.AgentDir != "" {
		d.globalCfg = path.Join(s.AgentDir, globalConfigName)
		if s.ProjectRoot != "" {
			d.snap = path.Join(s.AgentDir, "pi-memory", "snapshots", s.ProjectHash+".snap")
		}
	}
	return d
}

// noticeOnce shows the bad-lines notice if it has not been shown yet.
func (d *driver) noticeOnce(out *store.Out) {
	if d.lineNotice != "" {
		out.Notify("warning", "pi-memory: "+d.lineNotice)
		d.lineNotice = ""
	}
}

// start reads the configuration and, when the store may be read, replays the log.
func (d *driver) start(out *store.Out) {
	d.readConfig()
	for _, w := range d.cfg.Warnings {
		out.Notify("warning", "pi-memory: "+w)
	}
	if d.Off() != "" {
		return
	}
	if err := d.load(); err != nil {
		out.Notify("error", "pi-memory: could not read "+d.log+": "+err.Error()+". Decisions are not injected this session.")
		return
	}
	if n := d.lineFindings(); n > 0 {
		d.lineNotice = badLinesNotice(d.log, n)
		if d.s.Mode != "cli" {
			d.noticeOnce(out)
		}
	}
}

// Refresh reads the configuration again when a config file changed since
// it was last read (an edit, /decision enable in another session): the
// next prompt and the next command follow it. Its warnings are said once;
// a store turned back on catches up with the log.
func (d *driver) Refresh(out *store.Out) {
	if !d.cfgWatch.Changed(d.h, d.configFiles()...) {
		return
	}
	was := d.Off()
	d.parseConfig()
	for _, w := range d.cfg.Warnings {
		out.Notify("warning", "pi-memory: "+w)
	}
	if d.Off() == "" && was != "" {
		_ = d.refreshLog() // the footer says when it could not be read
	}
}

// configFiles are the files the configuration is read from: the project's
// only when the project is trusted.
func (d *driver) configFiles() []string {
	if d.s.Trusted && d.projCfg != "" {
		return []string{d.globalCfg, d.projCfg}
	}
	return []string{d.globalCfg}
}

// readConfig reads the configuration now, and remembers the files' versions.
func (d *driver) readConfig() {
	d.cfgWatch.Changed(d.h, d.configFiles()...)
	d.parseConfig()
}

func (d *driver) parseConfig() {
	project := config.Parse(d.projCfg, nil)
	if d.s.Trusted && d.projCfg != "" {
		project = files.Config(d.h, d.projCfg)
	}
	d.cfg = parseSettingsFiles(files.Config(d.h, d.globalCfg), project)
}

// Off says why the store can neither be read nor written this session, or
// "" when it can (the gate asks it; offReason decides).
func (d *driver) Off() string { return offReason(d.s.ProjectRoot, d.s.Trusted, d.cfg, d.globalCfg) }

// Footer is the store's piece of pi's footer (footer).
func (d *driver) Footer() string {
	if off := offWord(d.s.ProjectRoot, d.s.Trusted, d.cfg); off != "" || d.st == nil {
		return footer(off, d.loadErr != nil, 0, 0)
	}
	return footer("", d.loadErr != nil, d.st.Count(Active), len(d.st.Conflicts()))
}

// Ready catches up with the log before a command reads or writes it.
func (d *driver) Ready(out *store.Out) error {
	if err := d.usable(); err != nil {
		return errors.New("Could not read " + d.log + ": " + err.Error())
	}
	return nil
}

func (d *driver) readAt(off int64, dst []byte) (int, error) { return d.h.ReadAt(d.log, off, dst) }

// load rebuilds the state: from the snapshot and the log's tail when the
// snapshot is valid, else from the whole log.
func (d *driver) load() error { return d.loadFrom(true) }

// reloadWithoutSnapshot replays the whole log after the snapshot proved
// unusable in the middle of a session (replaced or damaged); the replay
// then writes a fresh snapshot over it.
func (d *driver) reloadWithoutSnapshot() error {
	err := d.loadFrom(false)
	d.snapNote = reloadNote(d.snapDue)
	return err
}

func (d *driver) loadFrom(useSnapshot bool) error {
	d.st = newState()
	d.cur = cursor{}
	d.snapNote = ""
	d.snapDue = false
	d.full = byteHash{}
	d.seen, d.own = hostio.FileInfo{}, hostio.FileInfo{}
	d.loaded = true
	d.loadErr = nil
	d.injOK = false
	info, err := d.h.Stat(d.log)
	if hostio.IsNotFound(err) {
		return nil
	}
	if err == nil && info.Dir {
		// A folder where the log should be holds no decision to show: said,
		// not listed as "No active decisions."
		err = &hostio.PathError{Op: "read", Path: d.log, Err: hostio.ErrKind, Msg: "is a folder"}
	}
	if err != nil {
		d.loadErr = err
		return err
	}
	covered, fromSnapshot := d.tryLoadSnapshot(useSnapshot, info)
	d.seen = info
	if err := d.replayTo(info.Size); err != nil {
		if errors.Is(err, errLogChanged) && d.retries < maxRetries {
			// Rewritten while it was read: read as it is now.
			d.retries++
			defer func() { d.retries = 0 }()
			return d.loadFrom(useSnapshot)
		}
		return err
	}
	d.snapDue = snapshotDue(info.Size, covered, fromSnapshot)
	d.snapNote = loadNote(d.snapNote, fromSnapshot, d.snapDue)
	return nil
}

func (d *driver) tryLoadSnapshot(use bool, log hostio.FileInfo) (int64, bool) {
	if !use {
		return 0, false
	}
	return d.loadSnapshot(log)
}

// loadSnapshot starts the state from the snapshot when it is valid for this
// log; it returns how many bytes of the log the snapshot covers.
func (d *driver) loadSnapshot(log hostio.FileInfo) (int64, bool) {
	if d.snap == "" {
		return 0, false
	}
	info, err := d.h.Stat(d.snap)
	if err != nil {
		if !hostio.IsNotFound(err) {
			d.snapNote = "unreadable (" + err.Error() + "); " + replayed
		}
		return 0, false
	}
	read := func(off int64, dst []byte) (int, error) { return d.h.ReadAt(d.snap, off, dst) }
	st, h, err := d.openSnapshot(read, info.Size, log)
	if err != nil {
		d.snapNote = err.Error() + "; " + replayed
		d.h.Log(hostio.Debug, "snapshot "+d.snap+": "+d.snapNote)
		return 0, false
	}
	d.st, d.cur, d.full = st, h.Log, h.Full
	d.snapNote = "loaded at start (covered " + text.Plural(h.Log.Line, "line", "lines") + ")"
	return h.Log.Offset, true
}

func (d *driver) openSnapshot(read readAt, snapSize int64, log hostio.FileInfo) (*state, *snapshotHeader, error) {
	if snapSize < snapshotTrailer {
		return nil, nil, errors.New("snapshot too short")
	}
	tr := make([]byte, snapshotTrailer)
	if _, err := read(snapSize-snapshotTrailer, tr); err != nil {
		return nil, nil, err
	}
	off, n, err := headerSpan(tr)
	if err != nil {
		return nil, nil, err
	}
	if off < 0 || off+int64(n) > snapSize {
		return nil, nil, errors.New("snapshot header out of range")
	}
	hb := make([]byte, n)
	if _, err := read(off, hb); err != nil {
		return nil, nil, err
	}
	h, err := parseSnapshotHeader(hb, off, tr)
	if err != nil {
		return nil, nil, err
	}
	if h.Log.Offset > log.Size {
		return nil, nil, errors.New("the log is shorter than the snapshot says (rewritten?)")
	}
	sum, err := logSum(d.readAt, h.Log.Offset)
	if err != nil {
		return nil, nil, err
	}
	changed := errors.New("the log changed under the snapshot (rewritten or checked out)")
	if sum != h.LogSum || rewrittenSince(h.Seen, log) {
		return nil, nil, changed
	}
	// Written since the snapshot was: appended to, or rewritten and grown
	// (a merge, a rebase, an editor's save and an add), which the samples
	// and the stat cannot tell apart (h-v95 d1, d3). Every byte it covers is
	// read again (130 ms for 30 MB; the snapshot is written anew by its
	// policy, snapshotDue).
	if !sameFile(h.Seen, log) {
		if full, err := d.prefixSum(byteHash{}, 0, h.Log.Offset); err != nil || full != h.Full {
			return nil, nil, changed
		}
	}
	st, err := snapshotState(h, read)
	if err != nil {
		return nil, nil, err
	}
	return st, h, nil
}

// settle does what can wait until the turn is over: writing a snapshot the
// last load asked for. Nobody waits on it (pi has answered already), so it
// never slows a session start.
func (d *driver) settle() {
	if d.snapDue && d.env.May(d, store.Capture) == "" && d.loaded && d.loadErr == nil {
		d.snapDue = false
		d.writeSnapshot()
	}
}

// writeSnapshot writes the state as the project's snapshot: streamed to a
// temp file, then renamed over the old one, so a reader sees one or the
// other. A failure only costs the next start a full replay.
func (d *driver) writeSnapshot() {
	if d.snap == "" || d.st == nil {
		return
	}
	// The state as the log is now: the samples are the log's of now, so a
	// state left behind by a rewrite since would be trusted with them
	// (h-v95 d2).
	if err := d.refreshLog(); err != nil || !d.st.Resident() {
		return
	}
	sum, err := logSum(d.readAt, d.cur.Offset)
	if err != nil {
		return
	}
	gen := d.h.Nonce()
	tmp := d.snap + ".tmp-" + strconv.FormatUint(gen, 16)
	fail := func(err error) {
		d.h.Remove(tmp)
		d.snapNote = "could not be written (" + err.Error() + ")"
		d.h.Log(hostio.Warn, "snapshot "+d.snap+": "+d.snapNote)
	}
	if err := d.h.Mkdir(path.Dir(d.snap)); err != nil {
		fail(err)
		return
	}
	if err := d.st.WriteSnapshot(d.cur, logGuard{Sum: sum, Full: d.full, Seen: d.seen}, gen, func(b []byte) error { return d.h.Append(tmp, b) }); err != nil {
		fail(err)
		return
	}
	if err := d.h.Rename(tmp, d.snap); err != nil {
		fail(err)
		return
	}
	d.snapNote = writtenNote(d.snapNote, d.cur.Line)
	d.snapDue = false
}

// usable brings the state up to date and makes every string resident, for
// work that reads many decisions or writes (commands, capture). A snapshot
// that was replaced under a lazily read state is dropped for a replay.
func (d *driver) usable() error {
	if err := d.refreshLog(); err != nil {
		return err
	}
	if !d.st.Resident() {
		return d.reloadWithoutSnapshot()
	}
	return nil
}

func (d *driver) replayTo(size int64) error {
	from := d.cur.Offset
	// The hash of what the replay read, in order (it reads forward; the
	// byte it peeks at its start it reads again).
	var seen byteHash
	next := from
	read := func(off int64, dst []byte) (int, error) {
		n, err := d.readAt(off, dst)
		if n > 0 && off <= next && off+int64(n) > next {
			seen.write(dst[next-off : n])
			next = off + int64(n)
		}
		return n, err
	}
	cur, err := d.rd.Replay(d.st, read, d.cur, size)
	d.cur = cur
	if err == nil {
		// The full hash comes from a second read; the state came from the
		// first. A program that rewrote the log in between (git's checkout
		// keeps its inode) paired the old text with the new bytes' hash,
		// and the snapshot kept it for every later session (h-v97 d1): the
		// two reads must agree.
		full, again, at := d.full, byteHash{}, from
		if d.buf == nil {
			d.buf = make([]byte, 256<<10)
		}
		err = readEach(d.readAt, d.buf, from, next, func(p []byte) {
			again.write(p)
			if at < cur.Offset {
				full.write(p[:min(int64(len(p)), cur.Offset-at)])
			}
			at += int64(len(p))
		})
		if err == nil && again != seen {
			err = errLogChanged
		}
		d.full = full
	}
	if err != nil {
		d.loadErr = err
		return err
	}
	return nil
}

// maxRetries is how many times a load starts again when the log was
// rewritten while it was read.
const maxRetries = 3

// errLogChanged is a read of the log that found it shorter than a stat had
// just said, or bytes other than a read before it: another program
// rewrote it meanwhile.
var errLogChanged = errors.New("the log changed while it was read (another program wrote it); try again")

// prefixSum continues h over the log's bytes [from, to).
func (d *driver) prefixSum(h byteHash, from, to int64) (byteHash, error) {
	if d.buf == nil {
		d.buf = make([]byte, 256<<10)
	}
	err := readEach(d.readAt, d.buf, from, to, h.write)
	return h, err
}

// refreshLog catches up with the log: new lines another process appended are
// replayed; a log that shrank or changed under us is replayed from scratch.
func (d *driver) refreshLog() error {
	if !d.loaded || d.loadErr != nil {
		return d.load()
	}
	info, err := d.h.Stat(d.log)
	if hostio.IsNotFound(err) {
		if d.cur.Offset == 0 {
			return nil
		}
		return d.load()
	}
	if err != nil {
		return err
	}
	if info.Dir {
		return d.load()
	}
	if info.Size < d.cur.Offset || rewrittenSince(d.seen, info) {
		return d.load()
	}
	if !sameFile(d.seen, info) && !sameFile(d.own, info) {
		// Written since by another: appended to, or rewritten and grown (git
		// merged or rebased it with the merge driver, and the file kept its
		// inode: h-v95 d1), which the stat cannot tell apart. Every byte
		// replayed is read again.
		if full, err := d.prefixSum(byteHash{}, 0, d.cur.Offset); err != nil || full != d.full {
			return d.load()
		}
	}
	d.seen = info
	if info.Size == d.cur.Offset {
		return nil
	}
	if err := d.replayTo(info.Size); errors.Is(err, errLogChanged) {
		return d.load() // rewritten while the new lines were read
	} else if err != nil {
		return err
	}
	return nil
}

// rewrittenSince says a stat of the log (now) shows it rewritten since it
// was seen, rather than appended to: another file renamed over the path
// (doctor --fix, a checkout, most editors) has another identity, and the
// same file written in place at its old size has a new mtime and nothing
// else (an append grows it). What the stat cannot tell (a file rewritten
// in place and grown) the hash of the bytes replayed does (refreshLog,
// openSnapshot). A zero seen (nothing seen yet) tells nothing.
func rewrittenSince(seen, now hostio.FileInfo) bool {
	if seen.Size == 0 && seen.ID == 0 {
		return false
	}
	if seen.ID != 0 && now.ID != 0 && seen.ID != now.ID {
		return true
	}
	return now.Size == seen.Size && now.MtimeMs != seen.MtimeMs
}

// sameFile says two stats of the log show it as it was: the same file, size
// and mtime (a zero a never matches).
func sameFile(a, b hostio.FileInfo) bool {
	return a.Kind == hostio.KindFile && a.ID == b.ID && a.Size == b.Size && a.MtimeMs == b.MtimeMs && a.Kind == b.Kind
}

// unplain says why the text an event writes may not be written: the core's
// one rule (marker.Check) on every text a new or changed decision carries,
// "" when all of it is plain. Nothing a terminal or a model would read as
// something else is written raw, whatever wrote it (a command, a dialog, the
// model's proposal, a capture).
func unplain(events []Event) string {
	for i := range events {
		e := &events[i]
		if e.Code != Add && e.Code != Edit && e.Code != Supersede {
			continue
		}
		d := &e.Data
		if why := plainWhy(d.Title, d.Text, []string{d.Reason, d.ConflictNote}, d.Tags); why != "" {
			return "the decision holds " + why + "; decisions keep plain text, so write it without that"
		}
	}
	return ""
}

// plainWhy is marker.Check of a decision's texts: each, and its title and
// text together as search and the resources show them, one after the
// other (h-v75 B4: a title ending "<pi-memory-recall" and a text starting
// ">" made one).
func plainWhy(title, text string, rest []string, tags []string) string {
	for _, t := range append([]string{title, text, title + "\n" + text}, rest...) {
		if why := marker.Check(t); why != "" {
			return why // each alone first: where it is, is said of it
		}
	}
	for _, t := range tags {
		if why := plainLine(t); why != "" {
			return why + " in a tag" // replay would skip the line (plainLine)
		}
	}
	return ""
}

// errInert is returned by write when the store may not be written.
type errInert struct{ msg string }

func (e *errInert) Error() string { return e.msg }

// write appends the events build returns, under the log lock, after catching
// up with other writers — so ids are unique across processes — and sealing a
// torn last line with a newline so it stays a line of its own. The state is
// then brought up to date by replaying what was appended, so it always equals
// a replay of the file. Every text a new or changed decision carries must
// be plain (unplain).
func (d *driver) write(build func(st *state, nowMs int64) ([]Event, error)) ([]Event, error) {
	return d.append(build, true)
}

// restore is write for the add that brings a removed decision back: its
// texts are what the log already held, written by hand or before the rule,
// so they go back as they were (a restore gives back exactly what was
// forgotten; what leaves the core is cleaned at its exit all the same).
func (d *driver) restore(build func(st *state, nowMs int64) ([]Event, error)) ([]Event, error) {
	return d.append(build, false)
}

func (d *driver) append(build func(st *state, nowMs int64) ([]Event, error), checkPlain bool) ([]Event, error) {
	if why := d.env.May(d, store.Write); why != "" {
		return nil, &errInert{why}
	}
	var events []Event
	err := files.AppendLocked(d.h, d.log, d.lock, func(add func([]byte) (bool, error)) error {
		if err := d.usable(); err != nil {
			return err
		}
		if _, text := d.tornTail(); text != "" {
			// Never issue again the id a torn line was writing (tornID).
			if id := tornID(text); id != "" {
				d.st.Reserve(id)
			}
		}
		now := d.h.Now()
		var err error
		if events, err = build(d.st, now); err != nil || len(events) == 0 {
			events = nil
			return err
		}
		if checkPlain {
			if why := unplain(events); why != "" {
				events = nil
				return errors.New(why)
			}
		}
		stamp(events, now, d.s.ProjectHash)
		size := int64(-1)
		pre, err := d.h.Stat(d.log)
		if err == nil {
			size = pre.Size
		}
		// Nothing wrote the log since this process caught up with it under
		// the lock: a program that takes no lock (cp, an editor, git) may
		// have, while build ran (h-v96 d1).
		caughtUp := err == nil && sameFile(pre, d.seen)
		lines := appendLines(nil, events)
		sealed, err := add(lines)
		if err != nil {
			return err
		}
		if sealed && d.cur.Offset == size {
			// The newline ends a last line replay already applied: that line
			// is complete now. Step over its newline without counting a line,
			// exactly as a fresh replay of the file would.
			d.cur.Offset++
			d.cur.Sealed = true
			d.st.Sealed()
			d.full.write([]byte{'\n'})
		}
		// The log grown by exactly what this append wrote is known, not
		// read again (refreshLog).
		if info, err := d.h.Stat(d.log); err == nil && caughtUp && info.Size == size+int64(len(lines))+int64(boolInt(sealed)) {
			d.own = info
		}
		return nil
	})
	if err != nil || len(events) == 0 {
		return nil, err
	}
	if err := d.refreshLog(); err != nil {
		return events, err
	}
	return events, nil
}

// section is the injected block, cached while decisions are unchanged.
func (d *driver) section() string {
	if d.injOK && d.injGen == d.st.Gen && d.injMax == d.cfg.MaxDecisions {
		return d.injText
	}
	text := d.st.Section(d.cfg.MaxDecisions)
	if d.st.Broken() {
		// A page came from a snapshot replaced or damaged since: rebuild, then render.
		if err := d.reloadWithoutSnapshot(); err != nil {
			return ""
		}
		text = d.st.Section(d.cfg.MaxDecisions)
	}
	d.injText = text
	d.injGen, d.injMax, d.injOK = d.st.Gen, d.cfg.MaxDecisions, true
	return d.injText
}
