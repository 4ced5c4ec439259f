// Package lifecycle is the orchestrator: it runs pi's events over the list
// of stores. At each moment of a turn (session start, the prompt, each model
// request, the end of a run, the settle, a compaction, shutdown) it loops
// over the stores that take part in it, in list order; it routes commands
// and tools to the store the registry names; and it holds the one gate
// (gate.go) that decides whether a store may act. It never names a store
// outside the list below (but to route git's merge export, which needs no
// session, to the decision store's package), and holds no store's rule:
// those live with each store (wasm/store says what a store is).
//
// Read it in this order: engine.go (the exports, the stores, the session),
// trust.go (whether the project is trusted), gate.go (the gate), turn.go
// (the moments of a turn), command.go (commands and tools, routed through
// the registry), receipts.go (/memory last), state.go (what a restart after
// a trap carries on).
package lifecycle

import (
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/decision"
	"github.com/pi-memory/pi-memory/wasm/embeddings"
	"github.com/pi-memory/pi-memory/wasm/hindsight"
	"github.com/pi-memory/pi-memory/wasm/history"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/pisession"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/notes"
	"github.com/pi-memory/pi-memory/wasm/observe"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/pi-memory/pi-memory/wasm/search"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// open returns the session's stores, in the order their moments run. A new
// store is its package, one line here and its registry entry.
func open(env *store.Env) []store.Store {
	return []store.Store{
		decision.Open(env),
		notes.Open(env),
		observe.Open(env),
		history.Open(env),
		embeddings.Open(env),
		hindsight.Open(env),
	}
}

// Exports are the module's exports, each an export Handle answers:
// wasm/main.go exports exactly these and every host calls only these (tests
// check both, on both builds).
var Exports = []string{
	"session_start", "before_agent_start", "context", "agent_end", "agent_settled",
	"session_before_compact", "session_before_tree", "session_shutdown",
	"command", "complete", "tool", "resources", "resume", "registry", "merge", "redact", "debug",
}

// Engine is the core's single entry point. One Engine lives in the module and
// keeps its state between calls; hosts call Handle once per export call.
type Engine struct {
	h hostio.Host
	// asks is what waits for the host's answers, and the ids this instance
	// hands out (kept across sessions: they never repeat in an instance).
	asks store.Asks

	// What session_start established; nil before it.
	s      *store.Session
	fs     *files.FS // the host with memory paths guarded, as the stores have it
	stores []store.Store
	last   []budget.Receipt // what the previous turn put in the system prompt; nil before the first turn
	// tools are the tool names last announced, comma-joined: the tools
	// effect is sent again only when they change.
	tools string
	// footer is the footer last sent (footer.go), sent again only when it
	// changes.
	footer string
	// index is memory_search's, kept from one search to the next
	// (tools.go); forgot is the restore reference of the last thing
	// forgotten this session, for /memory restore without an id.
	index  search.Index
	srcs   []search.Source // the sources of the last search (tools.go)
	budget Budget          // a search's (DefaultBudget; tests change it)
	forgot string
	// kept is the session's state last sent (state.go).
	kept []byte
	// asked is the person's answer to this session's trust dialog (trust.go):
	// "yes", "no", "" when not asked.
	asked string
	// worker: this session asked its host to run the core off its event
	// loop (askWorker).
	worker bool
}

// noMemory is the switch of a session pi started with --no-memory.
const noMemory = "--no-memory"

// New returns an engine over host h.
func New(h hostio.Host) *Engine { return &Engine{h: h, budget: DefaultBudget} }

// Handle runs one export and returns its envelope.
func (e *Engine) Handle(export string, input []byte) []byte {
	return e.HandleInto(nil, export, input)
}

// HandleInto is Handle writing the envelope over buf's bytes, whose array
// it reuses when large enough: the module hands every envelope to its host
// at once, and a block of observations can make one 100 KiB, which would
// otherwise be allocated again for every model request.
func (e *Engine) HandleInto(buf []byte, export string, input []byte) []byte {
	out := store.NewOut(buf, &e.asks)
	var in gjson.Result
	if export == "context" {
		// Before every model request, with all of pi's messages: parsed where
		// they lie rather than copied, since nothing of them outlives the call
		// (a store copies what it keeps), so a long session's request does
		// not allocate its size each time.
		in = gjson.Parse(unsafe.String(unsafe.SliceData(input), len(input)))
	} else {
		in = gjson.ParseBytes(input)
	}
	if e.s != nil && e.s.Fault == export {
		panic("pi-memory: fault injected in " + export)
	}
	if e.s != nil {
		e.fs.Fresh()
	}
	switch export {
	case "session_start":
		e.asks.Forget()
		e.sessionStart(out, in)
		if e.s != nil {
			e.footerChanged(out, true)
			e.stateChanged(out)
		}
	case "resume":
		e.asks.Resume(out, in)
		if e.s != nil {
			// An answered dialog may have turned a store on or off; an
			// answer (a dialog's, a model's, a server's) may change what
			// the footer counts.
			e.toolsChanged(out)
			e.footerChanged(out, false)
			e.stateChanged(out)
		}
	case "registry":
		// What the core offers, for hosts to register commands and flags
		// from; it needs no session.
		out.Exact()
		out.Output(string(registry.JSON()))
	case "debug":
		e.debug(out, in)
	case "complete":
		// pi's argument completion: subcommands need no session.
		e.complete(out, in)
	case "merge":
		// git's merge driver: three files in, one out; no session, so a
		// host that guards nothing (the files are the ones git names).
		decision.GitMerge(out, in, files.Guard(e.h, "", ""))
	case "redact":
		// A host's own text under the core's one rule (redact.go).
		redactExport(out, in)
	default:
		if e.s == nil {
			out.Notify("error", "pi-memory: "+export+" arrived before session_start; the host must start a session first.")
			out.SetExit(1)
			break
		}
		switch export {
		case "before_agent_start":
			e.beforeAgentStart(out, in)
		case "agent_end":
			e.agentEnd(out, in)
		case "session_shutdown":
			e.sessionShutdown(out, in)
		case "context":
			e.context(out, in)
		case "agent_settled":
			e.agentSettled(out, in)
		case "session_before_compact":
			e.sessionBeforeCompact(out, in)
		case "session_before_tree":
			e.sessionBeforeTree(out, in)
		case "command":
			e.command(out, in)
			e.toolsChanged(out)
		case "tool":
			e.tool(out, in)
		case "resources":
			e.resources(out, in)
		default:
			out.Notify("error", "pi-memory: unknown export "+export)
			out.SetExit(2)
			return out.Bytes()
		}
		if export != "session_shutdown" {
			e.footerChanged(out, false)
			e.stateChanged(out)
		}
	}
	return out.Bytes()
}

func (e *Engine) debug(out *store.Out, in gjson.Result) {
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
		out.Exact()
		out.Output(string(w.Close()))
	default:
		out.Usage("debug: unknown op")
	}
}

func (e *Engine) sessionStart(out *store.Out, in gjson.Result) {
	s := &store.Session{
		Cwd:      files.Clean(jsonr.Get(in, "cwd").String()),
		AgentDir: files.Clean(jsonr.Get(in, "agentDir").String()),
		Trusted:  jsonr.Get(in, "trusted").Bool(),
		HasUI:    jsonr.Get(in, "hasUI").Bool(),
		Mode:     jsonr.Get(in, "mode").String(),
		Fault:    jsonr.Get(in, "fault").String(),
		Home:     files.Clean(jsonr.Get(in, "home").String()),
		Module:   jsonr.Get(in, "moduleSha256").String(),
	}
	off, misread := noMemoryFlag(jsonr.Get(in, "flags.no-memory"), jsonr.Get(in, "argv"))
	if off {
		s.Switch = noMemory
	}
	if misread != "" {
		out.Notify("error", misread)
	}
	e.asks.Surface = surface(s.Mode)
	// A core restarted after a failure (or the session started again,
	// trusted) does not show again a warning the session showed while its
	// stores start (Out.Starting).
	if st := jsonr.Get(in, "restore.state"); jsonr.Get(st, "v").Int() == stateVersion {
		var said []string
		for _, v := range jsonr.Get(st, "said").Array() {
			said = append(said, v.Str)
		}
		e.asks.TakeBackSaid(said)
	}
	e.index, e.srcs, e.forgot, e.kept, e.asked, e.worker = search.Index{}, nil, "", nil, "", false
	s.ProjectRoot = files.ProjectRoot(e.h, s.Cwd)
	s.ProjectHash = ProjectHash(s.ProjectRoot)
	e.s, e.last = s, nil
	e.fs = files.Guard(e.h, s.ProjectRoot, s.AgentDir)
	in, ok := e.sessionFile(out, in)
	if !ok {
		e.s = nil
		return
	}
	ask := e.judgeTrust(s, in)
	e.stores = open(store.NewEnv(s, e.fs, &e.asks, e.may))
	out.Starting(true)
	for _, st := range e.stores {
		if x, ok := st.(store.Starter); ok {
			x.Start(out, in)
		}
	}
	out.Starting(false)
	e.restoreSession(jsonr.Get(in, "restore"))
	e.toolsChanged(out)
	e.askWorker(out, in)
	if ask {
		e.askTrust(out, in)
	}
}

// askWorker asks a host with an event loop (pi's) to run the core off it
// once a store's searches may hold a thread for long (store.Bulky), or the
// session's branch is bulkyBranch or bulkyEntries or more (each event that carries it reads
// it all: a 14 MB session's agent_settled held pi's thread 14 s, h-v48):
// when a session starts, and when pi is idle after a run (memory grown by a
// git pull mid-session). pimem and pimem mcp have no loop to keep free, nor
// has pi -p (no terminal, no client: its one prompt would only wait for the
// worker to start). Once asked, a session is not looked at again.
func (e *Engine) askWorker(out *store.Out, in gjson.Result) {
	if e.worker || e.s.Mode == "cli" || e.s.Mode == "mcp" || e.s.Mode == "print" {
		return
	}
	n, b := 0, jsonr.Get(in, "branch")
	if len(b.Raw) < bulkyBranch && b.IsArray() {
		b.ForEach(func(_, _ gjson.Result) bool { n++; return n < bulkyEntries })
	}
	if len(b.Raw) >= bulkyBranch || n >= bulkyEntries {
		out.Worker()
		e.worker = true
		return
	}
	for _, b := range readable[store.Bulky](e, out) {
		if b.Bulky() {
			out.Worker()
			e.worker = true
			return
		}
	}
}

// bulkyBranch and bulkyEntries are the size and the length of a session's
// branch from which the core asks for its worker: 1 MiB took 120 ms to
// start a session, 3.5 MiB 600 ms; 2,900 short entries (0.8 MB) held pi's
// thread 90-325 ms each few times pi settled (h-v52), 1,500 of them 80-125
// ms (h-v54); 1,000 settled within 27 ms.
const (
	bulkyBranch  = 1 << 20
	bulkyEntries = 1000
)

// noMemoryFlag reads the --no-memory flag as pi hands it over, and the
// command line pi was started with (argv, pi's adapter sends it). pi parses
// its command line before it knows an extension's flag is a switch, so in
// `pi -p --no-memory "prompt"` it takes the prompt as the flag's value and
// then drops it: pi sends nothing. Memory is off as asked, and misread says
// what happened to the word.
//
//	noMemoryFlag(true, ["--no-memory", "-p", "hi"]) => true, ""
//	noMemoryFlag(true, ["-p", "--no-memory", "hi"]) => true, "pi-memory: --no-memory took \"hi\" as its value…"
func noMemoryFlag(v, argv gjson.Result) (off bool, misread string) {
	off = v.Type == gjson.True || (v.Type == gjson.String && v.Str != "" && v.Str != "false")
	if !off {
		return false, ""
	}
	words := argv.Array()
	for i, w := range words {
		if w.Str == "--" {
			break
		}
		if w.Str != "--no-memory" || i+1 >= len(words) {
			continue
		}
		next := words[i+1].Str
		if next == "" || next[0] == '-' {
			continue
		}
		word := strconv.Quote(text.Runes(text.OneLine(next), 60))
		return true, "pi-memory: pi took " + word + " as the value of --no-memory (pi reads the word after an extension's flag as its value), so that prompt was not sent. " +
			"Put --no-memory first: pi --no-memory -p " + word + "."
	}
	return true, ""
}

// maxSessionFile bounds the session file an event may name: a session file
// is the person's own, but a wrong path (a log, a disk image) must not be
// read whole.
const maxSessionFile = 256 << 20

// sessionFile is the event with the current branch of the pi session file
// it names ("sessionFile": pimem --session), as pi's adapter sends the
// branch itself, so that every store reads the branch one way whoever sent
// it (wasm/internal/pisession finds it). A file that cannot be read, or is
// not a pi session file, fails the event.
func (e *Engine) sessionFile(out *store.Out, in gjson.Result) (gjson.Result, bool) {
	file := jsonr.Get(in, "sessionFile").Str
	if file == "" {
		return in, true
	}
	data, err := files.Read(e.fs, file, maxSessionFile)
	if err != nil {
		out.Fail("pi-memory: could not read the session file " + file + ": " + err.Error())
		return in, false
	}
	f := pisession.Read(data)
	if !f.Header.Exists() {
		out.Fail("pi-memory: " + file + " is not a pi session file: its first line is not a session header ({\"type\":\"session\",…}).")
		return in, false
	}
	rest := strings.TrimSpace(in.Raw)[1:]
	if !strings.HasPrefix(strings.TrimSpace(rest), "}") {
		rest = "," + rest
	}
	return gjson.Parse(`{"branch":` + string(f.BranchJSON()) + rest), true
}

// sessionShutdown does what can wait until the session is over, for the
// stores that may still act: a due snapshot, the staged facts' flush, the
// outbox's last flush.
func (e *Engine) sessionShutdown(out *store.Out, in gjson.Result) {
	for _, st := range e.stores {
		if x, ok := st.(store.Shutdowner); ok {
			st.Refresh(out)
			x.Shutdown(out, in)
		}
	}
}

// toolsChanged sends the active tools — the orchestrator's and every
// store's, as they are now; pi's adapter makes exactly these of the
// registry's tools active — when they are not those last sent: after
// session start, a command, a dialog's answer and the stores' refresh
// before a prompt or a request, any of which may turn a store (and its
// tools) on or off.
func (e *Engine) toolsChanged(out *store.Out) {
	active := e.activeTools()
	if joined := strings.Join(active, ","); joined != e.tools {
		e.tools = joined
		out.Tools(active)
	}
}

func (e *Engine) activeTools() []string {
	active := e.ownActiveTools()
	for _, st := range e.stores {
		if x, ok := st.(store.Tooler); ok {
			active = append(active, x.ActiveTools()...)
		}
	}
	return active
}
