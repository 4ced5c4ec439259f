// Package store is what a store is to the orchestrator (wasm/lifecycle), as
// database/sql/driver is what a database is to database/sql: the one small
// interface every store implements, the optional ones for the moments of a
// turn it takes part in, the Env a store is handed at session start, and the
// Out it writes its effects into.
//
// A store (decisions, notes, observations, hindsight) is a package that owns
// its data: its configuration, its pure rules, and its driver, which talks to
// the host only through the Env's FS. The orchestrator loops over the list of
// stores at each moment and never names one; it alone decides, through the
// gate (Env.May), whether a store may act.
//
// This package must never import a store.
package store

import (
	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/tidwall/gjson"
)

// Act is what a store is about to do. The gate (Env.May) decides, for every
// store and every act, whether it may: no store decides that for itself.
type Act uint8

const (
	// Read looks at memory for a command that asked (list, recall).
	Read Act = iota
	// Inject puts memory into what the model is sent.
	Inject
	// Capture is work nobody asked for this turn: collecting candidates,
	// asking the person, calling a model, and every write done on the
	// store's own initiative (snapshots, traces, page tables, the flush at
	// session end).
	Capture
	// Write is a command that changes memory because the person asked.
	Write
)

// Store is one kind of memory. Every store has a name, says when it is off,
// follows its configuration, and catches up before a command; the moments
// of a turn it takes part in are the optional interfaces below.
type Store interface {
	// Name is the store's name in the registry ("decisions", "notes",
	// "observations", "hindsight"): its commands' and tools' Store.
	Name() string
	// Off says why the store can neither be read nor written this session
	// (no project, an untrusted project, disabled or unreadable config), or
	// "" when it can. The gate asks it; the store never asks itself.
	Off() string
	// Refresh reads the store's configuration again when one of its files
	// changed, saying its new warnings. The orchestrator calls it before
	// the store acts on its own: before every prompt; before a model
	// request, a settle, a compaction, the shutdown and /memory on|off when
	// the store takes part; before the gate of its command or tool. Start
	// reads the files itself, and agent_end acts under the configuration
	// its run read.
	Refresh(out *Out)
	// Ready brings the store up to date before a command that reads or
	// writes it (catching up with other processes, reading changed files);
	// an error stops the command with its message.
	Ready(out *Out) error
	// Commands are the store's subcommands by name, for the registry's
	// commands whose Store is Name. A test checks they match the registry.
	Commands() map[string]func(c *Cmd)
}

// Starter takes part in session_start: it reads what the event says of the
// session (its id, branch, environment) and its own state from disk.
type Starter interface {
	Start(out *Out, in gjson.Result)
}

// Prompter takes part in before_agent_start, before any section is rendered:
// the prompt the person sent (decision candidates).
type Prompter interface {
	Prompt(out *Out, in gjson.Result)
}

// Sectioner puts a section into the system prompt. why is the gate's answer
// for Inject: when it is not "", the store injects nothing and only says its
// cap. wasm/budget orders the sections, cuts each to its cap and counts them.
type Sectioner interface {
	Section(out *Out, why string) budget.Section
}

// Prompted takes part in before_agent_start once the system prompt is
// settled: text is everything appended, receipts what each store put in.
type Prompted interface {
	Prompted(out *Out, text string, receipts []budget.Receipt)
}

// Contexter takes part in every model request (pi's context event): a block
// for that request only (observations, a recall). A foreground ask it makes
// ends the envelope.
type Contexter interface {
	Context(out *Out, in gjson.Result)
}

// Ender takes part in agent_end: the run is over (capture, retain).
type Ender interface {
	AgentEnd(out *Out, in gjson.Result)
}

// Settler takes part in agent_settled: pi is idle after a run.
type Settler interface {
	Settled(out *Out, in gjson.Result)
}

// Compacter answers pi's compaction and branch-summary events.
type Compacter interface {
	BeforeCompact(out *Out, in gjson.Result)
	BeforeTree(out *Out, in gjson.Result)
}

// Shutdowner takes part in session_shutdown: what can wait until the
// session is over. in is the event: {reason, waitedMs}, where waitedMs is
// how long the host already waited, since pi began to quit, for the
// background asks still out (the flushes' bounds count it).
type Shutdowner interface {
	Shutdown(out *Out, in gjson.Result)
}

// Tooler offers tools to the model (the registry's tools whose Store is its
// Name). The orchestrator announces the active tools of every store after
// session start, a command, a dialog's answer and the refresh before a
// prompt, when they changed.
type Tooler interface {
	// ActiveTools are the store's tools the model may call now.
	ActiveTools() []string
	// Tool runs one of them: a ToolResult last, after at most one
	// foreground ask.
	Tool(out *Out, name string, params gjson.Result)
}

// Follower is a store without a switch of its own (earlier sessions): the
// gate lets it act only while a store whose entries a person keeps (a
// Forgetter: decisions, notes) is on. With every such store disabled, the
// person has turned memory off for the project, and a follower says nothing
// of it either.
type Follower interface {
	Follows()
}

// Footer puts the store's piece into pi's footer. pi shows every
// extension's status on one line; pi-memory has one status there (key
// StatusKey), which the orchestrator composes from every store's piece in
// list order and sends again whenever it changed: after session start,
// every command, tool and dialog answer, and every moment of a turn.
type Footer interface {
	// Footer is the store's piece as its state is now, read from what the
	// store keeps (no host call): "decisions 3, 1 conflict"; when the store
	// is off, its name and why in a word (OffPiece); "" to show nothing
	// (not configured, or nothing to speak of yet). The orchestrator says
	// itself when the whole session is off (--no-memory, /memory off).
	Footer() string
}

// StatusKey is the key of pi-memory's one footer status.
const StatusKey = "pi-memory"

// OffPiece is a store's footer piece while it is off: its short name and
// why, in a word or two.
//
//	OffPiece("decisions", "untrusted") => "decisions off (untrusted)"
//
//go:noinline
func OffPiece(name, why string) string { return name + " off (" + why + ")" }

// Keeper holds something a person or the model set during the session
// that the store keeps nowhere but in its memory (a proposal the person
// declined), so that a core restarted after a failure carries it on. The
// orchestrator sends every store's Kept with its own in the state effect
// when it changed; the host hands the newest back when it replays
// session_start after a trap, and TakeBack takes it after Start.
type Keeper interface {
	// Kept is the store's session state as one JSON value, nil when there
	// is none.
	Kept() []byte
	// TakeBack takes back what Kept wrote.
	TakeBack(v gjson.Result)
}

// Receipter says, for /memory last, what the store put into the newest
// model request outside the system prompt. ok is false when it put nothing
// this session.
type Receipter interface {
	Receipt() (r Receipt, ok bool)
}

// Tracer keeps traces of what was injected (markdown memory's /memory
// trace), which /memory last names.
type Tracer interface {
	// LastTrace is the id of the trace of this session's newest injection,
	// "" when it was not traced.
	LastTrace() string
	// NewestTrace is the newest traced injection on disk, for a session
	// that has not injected yet: its id and time, "" when there is none.
	NewestTrace() (id, when string)
}

// Receipt is one store's part of /memory last outside the system prompt.
type Receipt struct {
	// Key names the part in the JSON receipt ("context", "recall").
	Key string
	// Text is the part as a person reads it, starting with "\n\n--- ".
	Text string
	// JSON is the part as a JSON object.
	JSON []byte
}

// Session is what session_start established. A store reads it; only the
// orchestrator changes it (Switch, at /memory off and on).
type Session struct {
	Cwd         string
	AgentDir    string
	ProjectRoot string
	// ProjectHash is the stable project id stored in events and in the
	// names of machine-local files (lifecycle.ProjectHash).
	ProjectHash string
	// Trusted says the project's memory may be read and written (the
	// orchestrator decides it, wasm/trust); TrustWhy says why, in words,
	// "" when the host decided it alone (pimem trusts the folder it runs in).
	Trusted  bool
	TrustWhy string
	HasUI    bool
	Mode     string
	// Switch says why memory is off for this session ("--no-memory",
	// "/memory off"), "" when it is on. The gate reads it.
	Switch string
	Fault  string // fault injection: panic in this export (tests only)
	Home   string // the person's home folder (for /memory import claude)
	// Module is the SHA-256 (hex) of the module file the host loaded, "" when
	// it did not say; /memory status names the running core with it.
	Module string
}

// Env is what a store's driver is handed at session start: the session,
// the guarded host, and the orchestrator's services.
type Env struct {
	*Session
	// FS is the only host a driver has: every memory path it touches is
	// checked (files.FS).
	FS *files.FS

	asks *Asks
	gate func(s Store, act Act) string
}

// NewEnv is the orchestrator's: asks hands out ids, gate answers May.
func NewEnv(s *Session, fs *files.FS, asks *Asks, gate func(Store, Act) string) *Env {
	return &Env{Session: s, FS: fs, asks: asks, gate: gate}
}

// NextID is an id this module instance never handed out before with that
// prefix, whatever session asks (a context block's id: the host keeps the
// block by it for the instance's lifetime).
func (e *Env) NextID(prefix string) string { return e.asks.Next(prefix) }

// May is the gate's answer for store s about to do act: "" when it may,
// else why not, in words for the person.
//
//go:noinline
func (e *Env) May(s Store, act Act) string { return e.gate(s, act) }

// MaxRead is the most a store reads of one text pi hands it (a prompt, a
// message's text block, a command's output): a pasted 8 MB log is read as
// its ends, so a turn's work is bounded by this, not by what was pasted
// (h-v93 a1). 64 KiB is 16k estimated tokens of one message, more than the
// observer is shown of a tool's output; what a text adds to the model's
// context is counted in full (BoundedRaw's size).
const MaxRead = 64 << 10

// Bounded is s as a store reads it: s itself up to MaxRead bytes, else its
// ends, each redacted around its cut (redact.Ends), with a line between
// them saying how much was not read.
//
//	Bounded("Fix the login bug") => "Fix the login bug"
func Bounded(s string) string {
	head, tail := redact.Ends(s, MaxRead)
	return joined(head, tail, len(s))
}

// BoundedRaw is Bounded for a JSON value as it stands (jsonr.RawAt: a
// message's text, quotes and escapes and all), reading only what it keeps
// of a long string, and the length in bytes of the whole text (what the
// model is sent of it, for a count of tokens).
//
//	BoundedRaw(`"Fix the\nlogin bug"`) => "Fix the\nlogin bug", 17
func BoundedRaw(raw string) (string, int) {
	first, last, above, size, cut := jsonr.EndsAbove(raw, MaxRead*2/3+redact.Window, MaxRead/3+redact.Window)
	if !cut {
		return Bounded(first), size
	}
	head, tail := redact.EndsOf(first, last, MaxRead, redact.Heads(above, `\n`, jsonr.Text))
	return joined(head, tail, size), size
}

func joined(head, tail string, size int) string {
	if tail == "" {
		return head
	}
	return head + "\n[… " + numstr.Itoa(size-len(head)-len(tail)) + " bytes not read …]\n" + tail
}
