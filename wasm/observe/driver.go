package observe

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/config"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// omCompactionTimeoutMs is the hard bound of an observer call a compaction
// waits for (calls.go says how many it waits for). pi's compaction waits
// for it with the person watching (/compact, or a threshold compaction
// between turns), and pi's own summary takes over when it ends: seconds,
// not the minute it was (issue 19, item 7).
const omCompactionTimeoutMs = 15000

// omBackgroundTimeoutMs bounds a background observer or reflector call:
// nothing waits for it, but while it is out the observer plans nothing
// else and a compaction does not observe (planEnv.Out).
const omBackgroundTimeoutMs = 120000

// omExitMs is how long quitting waits for a background observer or
// reflector call still out: what it did not answer stays unobserved, and
// the next run in this branch (or in the project, in resource scope)
// observes it (issue 19, item 7: quitting waited the adapter's 20 s).
const omExitMs = 5000

// driver drives one session's observational memory: configuration, the
// branch as the observer reads it, the state folded from the branch's
// ledger records, and the model calls the plans ask for. The rules (when to
// observe, what a summary says, what is injected) are the rest of this
// package; this file and the other driver*.go files do what they need: read
// the config files, read the branches pi gives, and turn plans into effects.
type driver struct {
	env *store.Env
	s   *store.Session
	h   *files.FS

	cfg      omConfig
	cfgFiles [2]omConfigFile // global, project
	cfgWatch files.Watch

	st       *state
	tr       transcript
	ids      []string    // the entry ids of the branch tr was read from
	branch   omBranch    // what that branch's ledger entries hold
	recs     []Record    // thread scope: the branch's ledger records, then those appended since (resource scope keeps none: driver_resource.go)
	applied  ledgerPrint // the records st was folded from, then those appended since
	problems []Problem

	scope     omScope
	sessionID string
	zone      int // minutes east of UTC
	window    int // the model's context window in tokens, 0 when unknown
	// models are the models pi can use here, "provider/id" each, as
	// session_start gave them; nil when the host did not say (pimem).
	models []string

	busy      bool  // a background model call is out: settles plan nothing until it answers
	busyAt    int64 // when it went out (a host that never answers does not stop the observer for good)
	injected  bool  // the context export ran this session (the receipt exists)
	inj       injection
	ctxEffect omContextEffect
	injWhy    string // why nothing was injected, when nothing was
	warnedAt  int    // problems already reported
}

// omBranch is the thread-scope ledger of the branch last read, kept so that
// a branch that grew is decoded only where it grew.
type omBranch struct {
	recs     []Record
	print    ledgerPrint // of encode of each record
	problems []Problem
}

// The moments and services the store takes part in (wasm/store): a method
// whose signature drifts from its interface fails to build here rather than
// silently dropping the store from that moment.
var (
	_ store.Store     = (*driver)(nil)
	_ store.Starter   = (*driver)(nil)
	_ store.Contexter = (*driver)(nil)
	_ store.Settler   = (*driver)(nil)
	_ store.Compacter = (*driver)(nil)
	_ store.Footer    = (*driver)(nil)
	_ store.Receipter = (*driver)(nil)
	_ store.Searcher  = (*driver)(nil)
)

// Open is the observational memory store's driver for a session
// (wasm/store): the orchestrator lists it in its stores, and it talks to
// the host only through env.FS. It reads nothing yet: Start reads the
// configuration and the branch.
func Open(env *store.Env) store.Store {
	s := env.Session
	o := &driver{env: env, s: s, h: env.FS, st: fold(nil, "", defaultConfig())}
	o.tr = readEntries(nil, 0)
	o.cfgFiles = configFiles(s.AgentDir, s.ProjectRoot, s.Trusted)
	return o
}

// start reads the configuration and folds the branch pi gave (absent: an
// empty session).
func (o *driver) start(out *store.Out, in gjson.Result) {
	o.sessionID = jsonr.Get(in, "sessionId").Str
	o.zone = int(jsonr.Get(in, "zone").Int())
	o.window = int(jsonr.Get(in, "window").Int())
	o.models = nil
	if m := jsonr.Get(in, "models"); m.IsArray() {
		o.models = []string{}
		for _, v := range m.Array() {
			o.models = append(o.models, strings.Clone(v.Str))
		}
	}
	o.readScope(in)
	for _, w := range o.refreshConfig() {
		out.Notify("warning", "pi-memory: "+w)
	}
	if o.scope.why != "" {
		out.Notify("warning", "pi-memory: "+o.scope.why)
	}
	if line := o.scope.sqliteLine(); line != "" {
		out.Notify("warning", "pi-memory: "+line)
	}
	if b := jsonr.Get(in, "branch"); b.Exists() {
		o.readBranch(b.Raw)
	}
	o.refreshLedger(false)
	o.reportProblems(out)
}

// Off says why observational memory can do nothing this session: its
// configuration turned it off.
func (o *driver) Off() string { return offText(o.cfg) }

// Refresh re-reads a changed configuration and says what is wrong with it.
func (o *driver) Refresh(out *store.Out) {
	for _, w := range o.refreshConfig() {
		out.Notify("warning", "pi-memory: "+w)
	}
}

// Footer is the store's piece of pi's footer (footer).
func (o *driver) Footer() string { return footer(o.st, o.cfg) }

// Ready reads the ledger again when another session changed it.
func (o *driver) Ready(out *store.Out) error {
	o.refreshLedger(false)
	return nil
}

// refreshConfig reads the config files again when one changed, and returns
// the warnings of the new configuration.
func (o *driver) refreshConfig() []string {
	if !o.cfgWatch.Changed(o.h, o.cfgFiles[0].primary, o.cfgFiles[0].alias, o.cfgFiles[1].primary, o.cfgFiles[1].alias) {
		return nil
	}
	var cfgs [2]*config.File
	var data [2][]byte
	var both []string
	for i := range o.cfgFiles {
		f := &o.cfgFiles[i]
		f.used = ""
		var primary, alias bool
		if f.primary != "" {
			primary, alias = files.Stamp(o.h, f.primary) != "-", files.Stamp(o.h, f.alias) != "-"
		}
		name, warning := configName(*f, primary, alias)
		if warning != "" {
			both = append(both, warning)
		}
		cfgs[i], data[i] = files.ConfigData(o.h, name)
		if cfgs[i].Present {
			f.used = name
		}
	}
	o.cfg = parseConfigFiles(cfgs[0], data[0], cfgs[1], data[1])
	o.cfg.Warnings = append(both, o.cfg.Warnings...)
	if why := unusableModel(o.cfg.ObserverModel, o.models); why != "" && o.cfg.Enabled {
		o.cfg.ModelProblem = why
		o.cfg.Warnings = append(o.cfg.Warnings, configSources(o.cfgFiles, o.s.Trusted)+": "+why)
	}
	return o.cfg.Warnings
}

// readBranch brings the transcript and the state up to the branch pi gave
// (a JSON array of entries, or a session file's lines). pi sends the whole
// branch with every event, and a long session's is hundreds of kilobytes:
// a branch that continues the last one (the same entry ids first) has only
// its new entries read; another one (a fork, a tree navigation, a context
// edit of an entry already read) is read afresh. The state is folded again
// only when the branch's ledger records are not the ones it holds, so the
// backoff after failures survives the settles between them.
func (o *driver) readBranch(raw string) {
	vals := splitBranch(raw)
	same := continues(o.ids, vals)
	if len(o.ids) == 0 || same < len(o.ids) || !o.tr.AppendEntries(vals[same:]) {
		o.tr = readEntries(nil, o.zone)
		o.tr.AppendEntries(vals)
		same = 0
		o.ids, o.branch = o.ids[:0], omBranch{}
	}
	for _, v := range vals[same:] {
		// A copy: the id would otherwise hold the whole event's text in memory.
		o.ids = append(o.ids, strings.Clone(entryID(v)))
	}
	if o.scope.resource {
		return // the state is the resource ledger's, not the branch's
	}
	b := &o.branch
	recs, problems := ledgerRecordsOf(vals[same:], same)
	for i := range recs {
		b.print.add(encode(recs[i]))
	}
	b.recs = append(b.recs, recs...)
	b.problems = append(b.problems, problems...)
	o.recs = b.recs[:len(b.recs):len(b.recs)] // record appends to a copy
	if !b.print.same(o.applied) {
		o.st = fold(b.recs, "", o.cfg)
		o.applied = b.print
		o.problems, o.warnedAt = b.problems, 0
	}
}

// reportProblems names the ledger entries that could not be read, once.
func (o *driver) reportProblems(out *store.Out) {
	if len(o.problems) > o.warnedAt {
		out.Notify("warning", problemsText(o.problems, &o.scope))
		o.warnedAt = len(o.problems)
	}
}

// record keeps a record the state has applied and asks the host to append
// it to the session, or appends it to the resource ledger.
func (o *driver) record(out *store.Out, r Record) {
	if o.scope.resource {
		r.Session = o.sessionID
	}
	data := encode(r)
	o.applied.add(data)
	if !o.scope.resource {
		o.recs = append(o.recs, r)
		out.SessionEntry(CustomTypeLedger, data)
		return
	}
	if err := o.appendLedger(data); err != nil {
		out.Notify("warning", "pi-memory: could not append an observational-memory record to "+o.scope.file+": "+err.Error()+". The observations stay in memory for this session only.")
	}
}

// now is the time, in the session's time zone.
func (o *driver) now() clock {
	return clock{Ms: o.h.Now(), Zone: o.zone}
}
