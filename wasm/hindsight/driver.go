package hindsight

import (
	"errors"
	"path"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/config"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// The driver: what the Hindsight backend does around pi's turns (decision
// 012). The rules are the package's other files; the driver's (driver*.go)
// read its config and the outbox, append to the outbox under its lock, and
// turn requests into http effects, through the guarded host (Env.FS) alone.
const (
	entryType  = "pi-memory-hindsight" // session entries holding the session's mode
	toolWaitMs = 30000                 // the bound of a tool's requests
	flushMs    = 10000                 // the bound of a flush request outside shutdown
	retainTool = "hindsight_retain"    // the tool offered only while the session retains
)

// driver is the store for one session: what it read and what it keeps
// between the moments of a turn.
type driver struct {
	env *store.Env
	s   *store.Session
	h   *files.FS

	vars     envVars   // the HINDSIGHT_* variables the host forwarded
	files    [2]string // global, project ("" when not read: an untrusted project)
	cfgWatch files.Watch
	cfg      settings
	runCfg   bool // the config was checked since the run began (before_agent_start, context)

	repoKey   string
	sessionID string
	owner     string // this process's name on its flush's claims: the session and random bytes
	mode      string // from the branch's entries or /hindsight mode; "" = the config's
	optOut    bool   // next-opt-out: the next agent_end keeps nothing

	cache     blockCache // the recalled blocks, by recall key
	last      []recalled // the newest recall's outcome, for /memory last
	lastBlock string
	recalled  bool // a recall ran (or was reused) this session

	flushing bool  // a background flush is out
	flushAt  int64 // since when (a host that never answers does not stop flushing for good)
	// What the footer shows besides the config and the mode: the jobs
	// waiting in the outbox as this process last folded it, an import's
	// progress while it runs in pi, the banks the newest recall could not
	// reach.
	waiting              int
	importing, unreached string

	dir, outbox, lock, dead, aside string

	// The outbox as folded so far, while the file's size and mtime are
	// those this process last read or left (folded): its own appends are
	// added to it, and only a change by someone else has the file read and
	// folded whole again.
	fold                folder
	folded              bool
	foldSize, foldMtime int64
}

// The moments and services the store takes part in (wasm/store): a method
// whose signature drifts from its interface fails to build here rather than
// silently dropping the store from that moment.
var (
	_ store.Store      = (*driver)(nil)
	_ store.Starter    = (*driver)(nil)
	_ store.Prompted   = (*driver)(nil)
	_ store.Contexter  = (*driver)(nil)
	_ store.Ender      = (*driver)(nil)
	_ store.Shutdowner = (*driver)(nil)
	_ store.Tooler     = (*driver)(nil)
	_ store.Footer     = (*driver)(nil)
	_ store.Receipter  = (*driver)(nil)
	_ store.Keeper     = (*driver)(nil)
)

// Open is the Hindsight store's driver for a session (wasm/store).
func Open(env *store.Env) store.Store {
	s := env.Session
	h := &driver{env: env, s: s, h: env.FS}
	if s.AgentDir != "" {
		h.files[0] = path.Join(s.AgentDir, configFile)
		h.dir = path.Join(s.AgentDir, "pi-memory", "hindsight")
		h.outbox = path.Join(h.dir, outboxFile)
		h.lock = h.outbox + ".lock"
		h.dead = path.Join(h.dir, deadFile)
		h.aside = path.Join(h.dir, asideFile)
	}
	if s.ProjectRoot != "" && s.Trusted {
		h.files[1] = path.Join(s.ProjectRoot, ".pi", configFile)
	}
	return h
}

func (h *driver) start(out *store.Out, in gjson.Result) {
	h.vars = envVars{
		URL:    jsonr.Get(in, "env.HINDSIGHT_API_URL").Str,
		APIKey: jsonr.Get(in, "env.HINDSIGHT_API_KEY").Str,
		Bank:   jsonr.Get(in, "env.HINDSIGHT_BANK_ID").Str,
	}
	h.sessionID = jsonr.Get(in, "sessionId").Str
	if h.sessionID == "" {
		h.sessionID = "pimem-" + strconv.FormatInt(h.h.Now(), 10)
	}
	var r [6]byte
	h.h.Random(r[:])
	h.owner = h.sessionID + "/" + hex(r[:])
	h.repoKey = repoKeyOf(originURL(h.gitConfig(h.s.ProjectRoot)), h.s.ProjectRoot)
	if m := branchMode(jsonr.Get(in, "branch")); m != "" {
		h.mode = m
	}
	for _, w := range h.refreshConfig() {
		out.Notify("warning", "pi-memory: "+w)
	}
	if h.cfg.Why != "" {
		out.Notify("warning", "pi-memory: "+whyOff(h.cfg))
	}
	if h.cfg.on() {
		h.countWaiting()
	}
}

// Footer is the store's piece of pi's footer (footer).
func (h *driver) Footer() string {
	return footer(footing{
		Configured: h.cfg.on() || h.cfg.Why != "",
		Off:        offWord(h.s.Trusted, h.cfg),
		Importing:  h.importing,
		Failed:     h.unreached,
		Waiting:    h.waiting,
		Mode:       h.modeNow(),
		Banks:      h.banks(),
	})
}

// activeTools are Hindsight's tools the model may call now: none while the
// gate keeps Hindsight from injecting.
func (h *driver) activeTools() []string {
	if h.env.May(h, store.Inject) != "" {
		return nil
	}
	return offeredTools(h.notRetainedNow(h.optOut) == "")
}

// notRetainedNow says why this session retains nothing now, or "" when it
// retains: the gate, then the config and the mode (notRetained).
// A turn, an import and the hindsight_retain tool all ask it.
func (h *driver) notRetainedNow(optOut bool) string {
	if why := h.env.May(h, store.Capture); why != "" {
		return why
	}
	return notRetained(h.cfg, h.modeNow(), optOut)
}

// gitConfig is the text of the git config of the project at root:
// .git/config, or for a worktree or submodule (.git is a file "gitdir: X")
// the common folder's.
func (h *driver) gitConfig(root string) string {
	if root == "" {
		return ""
	}
	dot := path.Join(root, ".git")
	if data, err := files.Read(h.h, dot, 4096); err == nil {
		gitdir := gitDir(root, string(data))
		dot = gitdir
		if c, err := files.Read(h.h, path.Join(gitdir, "commondir"), 4096); err == nil {
			dot = commonDir(gitdir, string(c))
		}
	}
	data, err := files.Read(h.h, path.Join(dot, "config"), 1<<20)
	if err != nil {
		return ""
	}
	return string(data)
}

// modeNow is the session's mode: set in the session, else configured.
func (h *driver) modeNow() string {
	if h.mode != "" {
		return h.mode
	}
	return h.cfg.Mode
}

func (h *driver) Off() string { return offReason(h.s.Trusted, h.cfg, h.files[0]) }

// Refresh re-reads a changed configuration and says what is wrong with it.
// A server named for the first time this session has the footer count the
// jobs an earlier session left waiting.
func (h *driver) Refresh(out *store.Out) {
	was := h.cfg.on()
	for _, w := range h.refreshConfig() {
		out.Notify("warning", "pi-memory: "+w)
	}
	if !was && h.cfg.on() {
		h.countWaiting()
	}
}

// Ready has nothing to catch up with: refresh read the configuration.
func (h *driver) Ready(out *store.Out) error { return nil }

// refreshConfig reads the config files again when one changed.
func (h *driver) refreshConfig() []string {
	if !h.cfgWatch.Changed(h.h, h.files[:]...) {
		return nil
	}
	var cfgs [2]*config.File
	for i, f := range h.files {
		cfgs[i] = files.Config(h.h, f)
	}
	h.cfg = parseConfig(cfgs[0], cfgs[1], h.vars)
	return h.cfg.Warnings
}

func (h *driver) banks() []bank { return selectedBanks(h.cfg, h.repoKey) }

// readOutbox is the folded outbox (none: empty) and its size. It reads the
// file only when its size or mtime is not what this process last read or
// left there: another process appended, compacted or truncated it. The file
// is read a piece at a time (readPiece), so no size keeps it from being
// folded; an error says it cannot be read at all.
func (h *driver) readOutbox() (Outbox, int64, error) {
	info, err := h.stat()
	if err != nil && !hostio.IsNotFound(err) {
		h.folded = false
		return Outbox{}, 0, err
	}
	if h.folded && info.Size == h.foldSize && info.MtimeMs == h.foldMtime {
		return h.fold.outbox(), info.Size, nil
	}
	h.fold = folder{}
	var size int64
	if err == nil {
		buf := make([]byte, min(readPiece, max(info.Size, 1)))
		for {
			n, err := h.h.ReadAt(h.outbox, size, buf)
			if err != nil && !(hostio.IsNotFound(err) && size == 0) {
				h.folded = false
				return Outbox{}, 0, err
			}
			if n <= 0 {
				break
			}
			h.fold.add(buf[:n])
			size += int64(n)
		}
	}
	// A file that grew between the stat and the read is folded again next time.
	h.folded, h.foldSize, h.foldMtime = size == info.Size, info.Size, info.MtimeMs
	return h.fold.outbox(), size, nil
}

// readItems fills in the items of jobs (the kept fold holds where each
// record lies, not its item): every record in one read, from the first
// one's offset to the end of the last, or each on its own when they lie
// far apart in a large file.
func (h *driver) readItems(jobs []Job) bool {
	lo, hi, sum := jobs[0].Off, 0, 0
	for _, j := range jobs {
		lo, hi, sum = min(lo, j.Off), max(hi, j.Off+j.Len), sum+j.Len
	}
	if hi-lo > 2*sum+readPiece {
		for i := range jobs {
			if !h.readItems(jobs[i : i+1]) {
				return false
			}
		}
		return true
	}
	buf := make([]byte, hi-lo)
	n, err := h.h.ReadAt(h.outbox, int64(lo), buf)
	return err == nil && fillItems(jobs, buf[:n], lo)
}

// stat is the outbox's size and mtime: whether the file is read again.
func (h *driver) stat() (hostio.FileInfo, error) { return h.h.Stat(h.outbox) }

// appendOutbox appends records under the outbox's lock (withOutbox).
func (h *driver) appendOutbox(records, dead []byte) error {
	return h.withOutbox(dead, func(Outbox) ([]byte, error) { return records, nil })
}

// withOutbox appends the records build makes of the outbox as it is, under
// the outbox's lock, on a line of their own after a torn last line;
// dead-letter lines go to dead.jsonl first. An outbox that cannot be read
// is not appended to (its jobs could never be sent, and the queue would
// grow behind them): the error says so. Then the outbox is compacted
// (compact). The records are added to the kept fold, so a turn's append
// reads the outbox only when another process changed it.
func (h *driver) withOutbox(dead []byte, build func(o Outbox) ([]byte, error)) error {
	if h.outbox == "" {
		return errors.New("no agent folder: the outbox has nowhere to live")
	}
	// The folder is made when the lock cannot be, not before every append.
	if err := files.LockMaking(h.h, h.lock); err != nil {
		return err
	}
	defer h.h.Unlock(h.lock)
	if len(dead) > 0 {
		if err := h.h.Append(h.dead, files.Sealed(h.h, h.dead, dead)); err != nil {
			return err
		}
	}
	// Under the lock nobody else appends: the fold read now is the file's.
	o, size, err := h.readOutbox()
	if err != nil {
		return errors.New("it cannot be read (" + err.Error() + "), so nothing more is queued in it until it can; move it aside to start a new queue")
	}
	records, err := build(o)
	if err != nil || len(records) == 0 {
		return err
	}
	if o.Torn {
		records = append([]byte{'\n'}, records...)
	}
	if err := h.h.Append(h.outbox, records); err != nil {
		h.folded = false
		return err
	}
	if !h.folded {
		return nil
	}
	h.fold.add(records)
	info, err := h.stat()
	h.folded, h.foldSize, h.foldMtime = err == nil && info.Size == size+int64(len(records)), info.Size, info.MtimeMs
	if h.folded && info.Size > compactBytes {
		return h.compact(info.Size)
	}
	return nil
}

// errMoved is a flush's claim finding a record not where the fold says.
var errMoved = errors.New("changed while it was read; flush again")

// claimDue claims the due jobs for one flush, their items read, until
// until (ms): under the outbox's lock, so of two processes flushing at once
// each sends what the other has not claimed (claimRecords). None when
// nothing is due, which is seen from the kept fold without the lock.
func (h *driver) claimDue(until int64) ([]Job, error) {
	o, _, err := h.readOutbox()
	if err != nil || len(o.due(h.h.Now(), h.owner)) == 0 {
		return nil, err
	}
	var jobs []Job
	err = h.withOutbox(nil, func(o Outbox) ([]byte, error) {
		now := h.h.Now()
		if jobs = o.due(now, h.owner); len(jobs) == 0 {
			return nil, nil
		}
		if !h.readItems(jobs) {
			// Rewritten since it was folded: the next flush folds it again.
			h.folded, jobs = false, nil
			return nil, errMoved
		}
		return claimRecords(jobs, now, until, h.owner), nil
	})
	if err != nil {
		return nil, err
	}
	return jobs, nil
}

// compact rewrites the outbox, under its lock (held by the caller), from
// the fold: empty past compactBytes with nothing pending; with its pending
// jobs alone (compactRecords) past compactBusy when their records take
// less than a quarter of it. A line it could not read is first appended,
// byte for byte, to asideFile (setAside): an outbox holding one was never
// compacted and grew for good (issue 19). Never with a torn last line (an
// append seals it first), and never when a record or a line is not where
// the fold says: then it is left as it is.
func (h *driver) compact(size int64) error {
	o := h.fold.outbox()
	if o.Torn {
		return nil
	}
	var jobs []Job
	if len(o.Pending) > 0 {
		kept := 0
		for _, j := range o.Pending {
			kept += j.Len + 1
		}
		if size <= compactBusy || int64(kept) > size/4 {
			return nil
		}
		jobs = append([]Job(nil), o.Pending...)
		if !h.readItems(jobs) {
			return nil
		}
	}
	if len(h.fold.bad) > 0 && !h.setAside(h.fold.bad) {
		return nil
	}
	h.folded = false
	return h.h.WriteAtomic(h.outbox, compactRecords(jobs))
}

// setAside appends the outbox's lines at bad to asideFile, each as it was
// and on a line of its own, under the outbox's lock (held by the caller,
// as for dead letters), and says whether all of them are there. A line
// that is no longer what the fold found (the file changed) stops it: the
// outbox is then not compacted, and what was appended is a copy (a line is
// never lost, at worst kept twice).
func (h *driver) setAside(bad []span) bool {
	first := true
	for _, sp := range bad {
		if sp.Len <= maxLine {
			line := make([]byte, sp.Len)
			if n, err := h.h.ReadAt(h.outbox, int64(sp.Off), line); err != nil || n != sp.Len || !unreadable(line) {
				return false
			}
			if first {
				line = files.Sealed(h.h, h.aside, line)
			}
			if h.h.Append(h.aside, append(line, '\n')) != nil {
				return false
			}
			first = false
			continue
		}
		// A line too long to hold whole goes over a piece at a time.
		buf := make([]byte, readPiece)
		for off := 0; off < sp.Len; {
			n, err := h.h.ReadAt(h.outbox, int64(sp.Off+off), buf[:min(readPiece, sp.Len-off)])
			if err != nil || n <= 0 {
				return false
			}
			piece := buf[:n]
			if first {
				piece = files.Sealed(h.h, h.aside, piece)
			}
			if h.h.Append(h.aside, piece) != nil {
				return false
			}
			first, off = false, off+n
		}
		if h.h.Append(h.aside, []byte{'\n'}) != nil {
			return false
		}
	}
	return true
}

// countWaiting counts the jobs waiting in the outbox, for the footer: the
// outbox as this process last read or left it (each append and flush folds
// it just before), read only when it is not folded.
//
//go:noinline
func (h *driver) countWaiting() {
	o := h.fold.outbox()
	if !h.folded {
		o, _, _ = h.readOutbox()
	}
	h.waiting = len(o.Pending)
}
