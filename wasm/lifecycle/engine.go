// Package lifecycle owns the turn policy over every store: what happens at
// session start, before each agent run, at its end and on each command, and
// the effects (dialogs, model calls) that come back to the host. It is the
// only package that talks to the host (through hostio); the stores it drives
// (decision, notes, observe) are pure packages that own their own rules.
//
// Read it in this order: engine.go (the exports), gate.go (the one place that
// decides whether a store may act), turn.go (a turn), command.go (commands,
// routed through the registry). The store drivers (decisions*.go, notes*.go,
// observe*.go) do the I/O their stores need: reading, locking, appending,
// and for observational memory, reading the branches pi gives and turning
// its plans into model calls and session entries.
package lifecycle

import (
	"path"
	"runtime"
	"strings"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/jsonr"
	"github.com/pi-memory/pi-memory/wasm/jsonw"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/tidwall/gjson"
)

// Engine is the core's single entry point. One Engine lives in the module and
// keeps its state between calls; hosts call Handle once per export call.
type Engine struct {
	h       hostio.Host
	s       *Session
	pending map[string]continuation
	seq     int
	blocks  int // context blocks sent by this instance: their ids never repeat in it
}

// New returns an engine over host h.
func New(h hostio.Host) *Engine { return &Engine{h: h} }

// Session is what session_start established.
type Session struct {
	Cwd         string
	AgentDir    string
	ProjectRoot string
	ProjectHash string
	Trusted     bool
	HasUI       bool
	Mode        string
	// Switch says why memory is off for this session ("--no-memory",
	// "/memory off"), "" when it is on. The gate reads it.
	Switch string
	Fault  string // fault injection: panic in this export (tests only)
	Home   string // the person's home folder (for /memory import claude)
	// Module is the SHA-256 (hex) of the module file the host loaded, "" when
	// it did not say; /memory status names the running core with it.
	Module string

	fs    *guard // the host with memory paths guarded (paths.go)
	dec   *decisions
	notes *notesStore
	om    *observations
	hs    *hsStore
	last  []budget.Receipt // what the previous turn injected, per store; nil before the first turn
}

// Handle runs one export and returns its envelope.
func (e *Engine) Handle(export string, input []byte) []byte {
	return e.HandleInto(nil, export, input)
}

// HandleInto is Handle writing the envelope over buf's bytes, whose array
// it reuses when large enough: the module hands every envelope to its host
// at once, and a block of observations can make one 100 KiB, which would
// otherwise be allocated again for every model request.
func (e *Engine) HandleInto(buf []byte, export string, input []byte) []byte {
	var out Out
	out.buf = buf
	var in gjson.Result
	if export == "context" {
		// Before every model request, with all of pi's messages: parsed where
		// they lie rather than copied, since nothing of them outlives the call
		// (observe.ReadContext copies what it keeps), so a long session's
		// request does not allocate its size each time.
		in = gjson.Parse(unsafe.String(unsafe.SliceData(input), len(input)))
	} else {
		in = gjson.ParseBytes(input)
	}
	if e.s != nil && e.s.Fault == export {
		panic("pi-memory: fault injected in " + export)
	}
	if e.s != nil {
		e.s.fs.fresh()
	}
	switch export {
	case "session_start":
		e.sessionStart(&out, in)
	case "resume":
		e.resume(&out, in)
	case "registry":
		// What the core offers, for hosts to register commands and flags
		// from; it needs no session.
		out.Output(string(registry.JSON()))
	case "debug":
		e.debug(&out, in)
	case "merge":
		// git's merge driver: three files in, one out; no session.
		e.merge(&out, in)
	default:
		if e.s == nil {
			out.Notify("error", "pi-memory: "+export+" arrived before session_start; the host must start a session first.")
			out.exit = 1
			break
		}
		switch export {
		case "before_agent_start":
			e.beforeAgentStart(&out, in)
		case "agent_end":
			e.agentEnd(&out, in)
		case "session_shutdown":
			e.sessionShutdown(&out)
		case "context":
			e.context(&out, in)
		case "agent_settled":
			e.agentSettled(&out, in)
		case "session_before_compact":
			e.sessionBeforeCompact(&out, in)
		case "session_before_tree":
			e.sessionBeforeTree(&out, in)
		case "command":
			e.command(&out, in)
		case "tool":
			e.tool(&out, in)
		default:
			out.Notify("error", "pi-memory: unknown export "+export)
			out.exit = 2
		}
	}
	return out.bytes()
}

func (e *Engine) debug(out *Out, in gjson.Result) {
	switch jsonr.Get(in, "op").String() {
	case "panic":
		panic("pi-memory: panic requested by debug export")
	case "ping":
		out.Output("pong")
	case "memstats":
		// For benchmarks: how the module's heap behaves under a workload.
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		w := jsonw.Open(nil)
		w.Int("heapAlloc", int64(m.HeapAlloc))
		w.Int("heapSys", int64(m.HeapSys))
		w.Int("frees", int64(m.Frees))
		w.Int("mallocs", int64(m.Mallocs))
		w.Int("totalAlloc", int64(m.TotalAlloc))
		out.Output(string(w.Close()))
	default:
		out.Usage("debug: unknown op")
	}
}

func (e *Engine) sessionStart(out *Out, in gjson.Result) {
	s := &Session{
		Cwd:      cleanPath(jsonr.Get(in, "cwd").String()),
		AgentDir: cleanPath(jsonr.Get(in, "agentDir").String()),
		Trusted:  jsonr.Get(in, "trusted").Bool(),
		HasUI:    jsonr.Get(in, "hasUI").Bool(),
		Mode:     jsonr.Get(in, "mode").String(),
		Fault:    jsonr.Get(in, "fault").String(),
		Home:     cleanPath(jsonr.Get(in, "home").String()),
		Module:   jsonr.Get(in, "moduleSha256").String(),
	}
	if jsonr.Get(in, "flags.no-memory").Bool() {
		s.Switch = "--no-memory"
	}
	e.pending = nil
	s.ProjectRoot = e.projectRoot(s.Cwd)
	s.ProjectHash = ProjectHash(s.ProjectRoot)
	s.fs = guarded(e.h, s.ProjectRoot, s.AgentDir)
	e.s = s
	s.dec = newDecisions(e, s)
	s.dec.start(out)
	s.notes = newNotes(e, s)
	s.notes.start(out)
	s.om = newObservations(e, s)
	s.om.start(out, in)
	s.hs = newHindsight(e, s)
	s.hs.start(out, in)
}

// sessionShutdown does what can wait until the session is over, for the
// stores that may still act: a due snapshot, the staged facts' flush.
func (e *Engine) sessionShutdown(out *Out) {
	e.s.dec.settle()
	info, warnings := e.s.notes.settle()
	if info != "" {
		out.Notify("info", "pi-memory: "+info)
	}
	for _, msg := range warnings {
		out.Notify("warning", "pi-memory: "+msg)
	}
	e.s.hs.shutdown(out)
}

// projectRoot is the git work tree containing cwd (the nearest folder with a
// .git entry, as `git rev-parse --show-toplevel` finds it), else cwd itself.
// Walking up with stat avoids starting a git process on every session.
func (e *Engine) projectRoot(cwd string) string {
	if cwd == "" {
		return ""
	}
	dir := cwd
	for {
		if _, err := e.h.Stat(path.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := path.Dir(dir)
		if parent == dir {
			return cwd
		}
		dir = parent
	}
}

// cleanPath normalises a host path: forward slashes, no trailing slash, no
// "." or ".." segments.
func cleanPath(p string) string {
	if p == "" {
		return ""
	}
	p = strings.ReplaceAll(p, "\\", "/")
	return path.Clean(p)
}
