// Package lifecycle owns the turn policy over every store (seed 003): what
// happens at session start, before each agent run, at its end and on each
// command, and the effects (dialogs, model calls) that come back to the host.
// It is the only package that talks to the host (through hostio); the stores
// it drives (decision, …) are pure.
package lifecycle

import (
	"path"
	"runtime"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/jsonw"
	"github.com/tidwall/gjson"
)

// Engine is the core's single entry point. One Engine lives in the module and
// keeps its state between calls; hosts call Handle once per export call.
type Engine struct {
	h       hostio.Host
	s       *Session
	pending map[string]continuation
	seq     int
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
	NoMemory    bool   // --no-memory: inject nothing this session
	Fault       string // fault injection: panic in this export (tests only)
	Home        string // the person's home folder (for /memory import claude)

	dec   *decisions
	notes *notesStore
}

// Handle runs one export and returns its envelope.
func (e *Engine) Handle(export string, input []byte) []byte {
	var out Out
	in := gjson.ParseBytes(input)
	if e.s != nil && e.s.Fault == export {
		panic("pi-memory: fault injected in " + export)
	}
	switch export {
	case "session_start":
		e.sessionStart(&out, in)
	case "resume":
		e.resume(&out, in)
	case "debug":
		e.debug(&out, in)
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
		case "context":
			// Nothing to do for the decision store; later stores recall here.
		case "session_shutdown":
			e.s.dec.settle()
			info, warnings := e.s.notes.settle()
			if info != "" {
				out.Notify("info", "pi-memory: "+info)
			}
			for _, msg := range warnings {
				out.Notify("warning", "pi-memory: "+msg)
			}
		case "project_trust":
			e.projectTrust(&out, in)
		case "command":
			e.command(&out, in)
		default:
			out.Notify("error", "pi-memory: unknown export "+export)
			out.exit = 2
		}
	}
	return out.bytes()
}

func (e *Engine) debug(out *Out, in gjson.Result) {
	switch in.Get("op").String() {
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
		Cwd:      cleanPath(in.Get("cwd").String()),
		AgentDir: cleanPath(in.Get("agentDir").String()),
		Trusted:  in.Get("trusted").Bool(),
		HasUI:    in.Get("hasUI").Bool(),
		Mode:     in.Get("mode").String(),
		NoMemory: in.Get("flags.no-memory").Bool(),
		Fault:    in.Get("fault").String(),
		Home:     cleanPath(in.Get("home").String()),
	}
	e.pending = nil
	s.ProjectRoot = e.projectRoot(s.Cwd)
	s.ProjectHash = ProjectHash(s.ProjectRoot)
	e.s = s
	s.dec = newDecisions(e, s)
	s.dec.start(out)
	s.notes = newNotes(e, s)
	s.notes.start(out)
}

func (e *Engine) projectTrust(out *Out, in gjson.Result) {
	was := e.s.Trusted
	e.s.Trusted = in.Get("trusted").Bool()
	if was != e.s.Trusted {
		e.s.dec = newDecisions(e, e.s)
		e.s.dec.start(out)
		e.s.notes = newNotes(e, e.s)
		e.s.notes.start(out)
	}
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
