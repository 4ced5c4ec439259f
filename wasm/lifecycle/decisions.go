package lifecycle

import (
	"errors"
	"path"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/decision"
	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// Where decision memory lives (seed 000).
const (
	decisionDirName   = ".pi/decision-memory"
	decisionLogName   = "decisions.jsonl"
	globalConfigName  = "decision-memory.config.json"
	projectConfigName = ".pi/decision-memory.config.json"

	lockWaitMs  = 5000
	lockStaleMs = 30000
	maxConfig   = 1 << 20
	// guardBytes is how much of the log's end we remember to notice a rewrite
	// (a git checkout, a hand edit) that keeps or grows the size.
	guardBytes = 64
)

// decisions drives one session's decision store: configuration, replay of the
// canonical log, locked appends and the per-turn injection cache.
type decisions struct {
	e *Engine
	s *Session
	h hostio.Host

	cfg                decision.Config
	dir, log, lock     string
	globalCfg, projCfg string

	st      *decision.State
	cur     decision.Cursor
	rd      decision.Reader
	guard   []byte // the guardBytes before cur.Offset
	loaded  bool
	loadErr error

	injGen  uint64
	injMax  int
	injText string
	injOK   bool

	pending []decision.Candidate // auto-capture candidates of the running turn
}

func newDecisions(e *Engine, s *Session) *decisions {
	d := &decisions{e: e, s: s, h: e.h}
	if s.ProjectRoot != "" {
		d.dir = path.Join(s.ProjectRoot, decisionDirName)
		d.log = path.Join(d.dir, decisionLogName)
		d.lock = d.log + ".lock"
		d.projCfg = path.Join(s.ProjectRoot, projectConfigName)
	}
	if s.AgentDir != "" {
		d.globalCfg = path.Join(s.AgentDir, globalConfigName)
	}
	return d
}

// start reads the configuration and, when the store is usable, replays the log.
func (d *decisions) start(out *Out) {
	d.readConfig()
	for _, w := range d.cfg.Warnings {
		out.Notify("warning", "pi-memory: "+w)
	}
	if d.inert() != "" {
		out.Status("pi-memory", "", true)
		return
	}
	if err := d.load(); err != nil {
		out.Notify("error", "pi-memory: could not read "+d.log+": "+err.Error()+". Decisions are not injected this session.")
		return
	}
	if n := d.lineFindings(); n > 0 {
		out.Notify("warning", "pi-memory: "+d.log+" has "+plural(n, "line that needs", "lines that need")+" attention (bad lines stay on disk and are skipped); /decision doctor lists them.")
	}
	out.Status("pi-memory", "decisions: "+strconv.Itoa(d.st.Count(decision.Active))+" active", false)
}

func (d *decisions) readConfig() {
	var global, project []byte
	if d.globalCfg != "" {
		global = d.readSmall(d.globalCfg)
	}
	if d.s.Trusted && d.projCfg != "" {
		project = d.readSmall(d.projCfg)
	}
	d.cfg = decision.ParseConfig(d.globalCfg, global, d.projCfg, project)
}

// readSmall reads a whole small file; nil when it does not exist. A file that
// cannot be read reads as absent, with the reason in the config warnings.
func (d *decisions) readSmall(p string) []byte {
	data, err := readFile(d.h, p, maxConfig)
	if err != nil && !hostio.IsNotFound(err) {
		d.cfg.Warnings = append(d.cfg.Warnings, err.Error())
	}
	return data
}

// inert says why the store must neither read nor write, or "" when usable.
func (d *decisions) inert() string {
	switch {
	case d.s.ProjectRoot == "":
		return "pi-memory has no project folder for this session."
	case !d.s.Trusted:
		return "This project is not trusted, so pi-memory neither reads nor writes its decisions. Trust the project in pi (or run with --approve) and try again."
	case !d.cfg.Enabled:
		scope := "--project"
		if d.cfg.DisabledBy == d.globalCfg {
			scope = "--global"
		}
		return "Decision memory is disabled by " + d.cfg.DisabledBy + "; nothing is injected or written. Turn it back on with /decision enable " + scope + "."
	}
	return ""
}

func (d *decisions) readAt(off int64, dst []byte) (int, error) { return d.h.ReadAt(d.log, off, dst) }

// load replays the whole log into a fresh state.
func (d *decisions) load() error {
	d.st = decision.NewState()
	d.cur = decision.Cursor{}
	d.guard = nil
	d.loaded = true
	d.loadErr = nil
	d.injOK = false
	info, err := d.h.Stat(d.log)
	if hostio.IsNotFound(err) {
		return nil
	}
	if err != nil {
		d.loadErr = err
		return err
	}
	return d.replayTo(info.Size)
}

func (d *decisions) replayTo(size int64) error {
	cur, err := d.rd.Replay(d.st, d.readAt, d.cur, size)
	d.cur = cur
	if err != nil {
		d.loadErr = err
		return err
	}
	d.guard = d.readGuard(cur.Offset)
	return nil
}

func (d *decisions) readGuard(end int64) []byte {
	start := end - guardBytes
	if start < 0 {
		start = 0
	}
	if end == start {
		return nil
	}
	b := make([]byte, end-start)
	n, err := d.h.ReadAt(d.log, start, b)
	if err != nil {
		return nil
	}
	return b[:n]
}

// refresh catches up with the log: new lines another process appended are
// replayed; a log that shrank or changed under us is replayed from scratch.
func (d *decisions) refresh() error {
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
	if info.Size < d.cur.Offset || !d.guardHolds() {
		return d.load()
	}
	if info.Size == d.cur.Offset {
		return nil
	}
	return d.replayTo(info.Size)
}

func (d *decisions) guardHolds() bool {
	if len(d.guard) == 0 {
		return true
	}
	now := d.readGuard(d.cur.Offset)
	return string(now) == string(d.guard)
}

// errInert is returned by write when the store may not be written.
type errInert struct{ msg string }

func (e *errInert) Error() string { return e.msg }

// write appends the events build returns, under the log lock, after catching
// up with other writers — so ids are unique across processes — and sealing a
// torn last line with a newline so it stays a line of its own. The state is
// then brought up to date by replaying what was appended, so it always equals
// a replay of the file.
func (d *decisions) write(build func(st *decision.State, nowMs int64) ([]decision.Event, error)) ([]decision.Event, error) {
	if why := d.inert(); why != "" {
		return nil, &errInert{why}
	}
	// Folders are created on the first real write, never before.
	if err := d.h.Mkdir(d.dir); err != nil {
		return nil, err
	}
	if err := d.h.Lock(d.lock, lockWaitMs, lockStaleMs); err != nil {
		if errors.Is(err, hostio.ErrBusy) {
			return nil, errors.New("another pi process has held " + d.lock + " for more than 5 s; try again, or delete that file if no pi is running")
		}
		return nil, err
	}
	defer d.h.Unlock(d.lock)
	if err := d.refresh(); err != nil {
		return nil, err
	}
	now := d.h.Now()
	events, err := build(d.st, now)
	if err != nil || len(events) == 0 {
		return nil, err
	}
	var buf []byte
	sealsApplied := false // the newline ends a last line replay already applied
	info, err := d.h.Stat(d.log)
	if err == nil && info.Size > 0 {
		var last [1]byte
		if n, _ := d.h.ReadAt(d.log, info.Size-1, last[:]); n == 1 && last[0] != '\n' {
			buf = append(buf, '\n')
			sealsApplied = d.cur.Offset == info.Size
		}
	}
	ts := decision.FormatTime(now)
	for i := range events {
		ev := &events[i]
		ev.V = decision.Version
		ev.Time, ev.TimeMs = ts, now
		ev.Project = d.s.ProjectHash
		if ev.Actor == "" {
			ev.Actor = "user"
		}
		buf = decision.Encode(buf, *ev)
		buf = append(buf, '\n')
	}
	if err := d.h.Append(d.log, buf); err != nil {
		return nil, err
	}
	if sealsApplied {
		// That line is complete now: step over its newline without counting
		// a line, exactly as a fresh replay of the file would.
		d.cur.Offset++
		d.cur.Sealed = true
		d.st.Sealed()
		d.guard = d.readGuard(d.cur.Offset)
	}
	if err := d.refresh(); err != nil {
		return events, err
	}
	return events, nil
}

// section is the injected block, cached while decisions are unchanged.
func (d *decisions) section() string {
	if d.injOK && d.injGen == d.st.Gen && d.injMax == d.cfg.MaxDecisions {
		return d.injText
	}
	d.injText = d.st.Section(d.cfg.MaxDecisions)
	d.injGen, d.injMax, d.injOK = d.st.Gen, d.cfg.MaxDecisions, true
	return d.injText
}

// readFile reads a whole file of at most max bytes.
func readFile(h hostio.Host, p string, max int64) ([]byte, error) {
	info, err := h.Stat(p)
	if err != nil {
		return nil, err
	}
	if info.Dir {
		return nil, &hostio.PathError{Op: "read", Path: p, Err: hostio.ErrKind, Msg: "is a folder"}
	}
	if info.Size > max {
		return nil, &hostio.PathError{Op: "read", Path: p, Err: hostio.ErrInvalid, Msg: "larger than " + strconv.FormatInt(max, 10) + " bytes"}
	}
	buf := make([]byte, info.Size)
	n := 0
	for n < len(buf) {
		k, err := h.ReadAt(p, int64(n), buf[n:])
		if err != nil {
			return nil, err
		}
		if k == 0 {
			break
		}
		n += k
	}
	return buf[:n], nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
