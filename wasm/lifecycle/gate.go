package lifecycle

// Act is what a store is about to do. The gate below decides, for every store
// and every act, whether it may: no store decides that for itself.
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

// A store is one kind of memory the lifecycle drives.
type store interface {
	// off says why the store can neither be read nor written this session
	// (no project, an untrusted project, disabled or unreadable config), or
	// "" when it can.
	off() string
	// refresh reads the store's configuration again when one of its files
	// changed, saying its new warnings: the orchestrator calls it before
	// every prompt and command, so an edit takes effect at the next one.
	refresh(out *Out)
	// ready brings the store up to date before a command that reads or
	// writes it (catching up with other processes, reading changed files);
	// an error stops the command with its message.
	ready(out *Out) error
}

// may is the one place that decides whether store s may do act now: "" when
// it may, else why not, in words for the person. A store that is off may do
// nothing; a session switched off (--no-memory, /memory off) may still be
// read by a command, and nothing else: no injection, no capture, no dialog,
// no model call, no write.
func (e *Engine) may(s store, act Act) string {
	if why := s.off(); why != "" {
		return why
	}
	if act != Read && e.s.Switch != "" {
		return "Memory is off for this session (" + e.s.Switch + "): nothing is injected, captured or written. /memory on turns it back on."
	}
	return ""
}
