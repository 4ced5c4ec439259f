package notes

import (
	"bytes"
	"encoding/hex"
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"path"
	"strconv"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/sha1"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// The driver (Open): the store the orchestrator lists. This file holds where
// markdown memory lives, the session's scopes and how a memory file is read;
// driver_store.go the moments of a turn it takes part in; driver_read.go the
// /memory commands that read, driver_write.go those that write,
// driver_remember.go /memory remember and the memory_remember tool,
// driver_forget.go Forget and Restore (store.Forgetter), and
// driver_writeback.go the journal, the page tables and the traces. It talks
// to the host only through the guarded FS of the Env it was handed.

// Where markdown memory lives (docs/decisions/005-markdown-memory.md).
const (
	notesProjectDir = ".pi/memory"
	notesGlobalDir  = "memory" // in the agent dir
	notesIndex      = "MEMORY.md"
	notesLocal      = "MEMORY.local.md"
	notesConfig     = "config.json"
	notesDataDir    = "pi-memory/notes" // machine-local sidecars, in the agent dir

	// A memory file larger than this is not read: an index that big is a
	// mistake to report, not something to parse on every turn.
	maxNoteFile = 4 << 20
)

// noteScope is one injected memory file and where its sidecars go.
type noteScope struct {
	name    string
	dir     string // the memory folder holding file
	file    string // absolute path of the index
	display string // how prompts and messages name it
	dataDir string // machine-local: page table, journal, traces
	table   string // page-table file
	journal string
	lock    string

	// What was read, while the file keeps its size and mtime.
	stamped bool
	exists  bool
	size    int64
	mtime   int64
	data    []byte // the file as written: what a flush edits
	view    []byte // data with secrets redacted, lines kept: what pages are parsed from
	// redacted holds view when data has secrets; kept, like data, from one
	// read to the next.
	redacted []byte
	pages    []page
	kept     string // the stamp of the recovery records the pages' ids were given by (forgottenIDs)
	facts    int    // the pages that are facts, for the footer
	readErr  error
}

// driver drives one session's markdown memory: configuration, the
// memory files (re-read only when they change), the injected block and its
// receipts. A remember writes at once under the scope's lock
// (driver_remember.go); what an import stages goes through the journal
// (driver_writeback.go).
type driver struct {
	env *store.Env
	s   *store.Session
	h   *files.FS

	cfg                config
	globalCfg, projCfg string
	cfgWatch           files.Watch
	scopes             []*noteScope // global, then project and local when trusted
	sessionData        string       // where this session's traces go
	traces             string
	tracedHash         string
	lastText           string           // the last injected text, traced or not
	turn               []budget.Receipt // what the previous turn put in the system prompt, per store; nil before the first
	lastTraceID        string

	blockKey  string
	block     string
	residency residency
	receipts  []scopeReceipt
	faults    []fault // of this session, newest last

	seq int // ids made this session

	// Kept from one read to the next, so re-reading and re-indexing a large
	// file reuses them (docs/decisions/003-tinygo-heap.md).
	parser parser
	kept   map[string]keptIDs // by recovery records file (forgottenIDs)
	dates  dates              // the dates of the page table tableState read last
	buf    []byte             // the page table tableState read last, then the one rebuildTable writes
}

// The moments and services the store takes part in (wasm/store): a method
// whose signature drifts from its interface fails to build here rather than
// silently dropping the store from that moment.
var (
	_ store.Store      = (*driver)(nil)
	_ store.Starter    = (*driver)(nil)
	_ store.Sectioner  = (*driver)(nil)
	_ store.Prompted   = (*driver)(nil)
	_ store.Shutdowner = (*driver)(nil)
	_ store.Tooler     = (*driver)(nil)
	_ store.Footer     = (*driver)(nil)
	_ store.Tracer     = (*driver)(nil)
	_ store.Keeper     = (*driver)(nil)
	_ store.Forgetter  = (*driver)(nil)
	_ store.Resourcer  = (*driver)(nil)
	_ store.Searcher   = (*driver)(nil)
)

// Open is the markdown memory store's driver for a session (wasm/store). It
// reaches the host only through env.FS.
func Open(env *store.Env) store.Store {
	s := env.Session
	n := &driver{env: env, s: s, h: env.FS}
	if s.AgentDir != "" {
		dir := path.Join(s.AgentDir, notesGlobalDir)
		data := path.Join(s.AgentDir, notesDataDir, scopeGlobal)
		n.globalCfg = path.Join(dir, notesConfig)
		n.scopes = append(n.scopes, &noteScope{name: scopeGlobal, dir: dir, file: path.Join(dir, notesIndex), display: files.HomeRelative(s.Home, path.Join(dir, notesIndex)), dataDir: data, table: path.Join(data, "page-table.jsonl"), journal: path.Join(data, "writeback-journal.jsonl"), lock: path.Join(data, "memory.lock")})
		n.sessionData = data
	}
	if s.ProjectRoot != "" && s.Trusted && s.AgentDir != "" {
		dir := path.Join(s.ProjectRoot, notesProjectDir)
		data := path.Join(s.AgentDir, notesDataDir, s.ProjectHash)
		n.projCfg = path.Join(dir, notesConfig)
		journal, lock := path.Join(data, "writeback-journal.jsonl"), path.Join(data, "memory.lock")
		n.scopes = append(n.scopes,
			&noteScope{name: scopeProject, dir: dir, file: path.Join(dir, notesIndex), display: path.Join(notesProjectDir, notesIndex), dataDir: data, table: path.Join(data, "page-table.jsonl"), journal: journal, lock: lock},
			&noteScope{name: scopeLocal, dir: dir, file: path.Join(dir, notesLocal), display: path.Join(notesProjectDir, notesLocal), dataDir: data, table: path.Join(data, "page-table.local.jsonl"), journal: journal, lock: lock})
		n.sessionData = data
	}
	if n.sessionData != "" {
		n.traces = path.Join(n.sessionData, "traces.jsonl")
	}
	return n
}

// start reads the configuration and reports its problems.
func (n *driver) start(out *store.Out) {
	for _, w := range n.refreshConfig() {
		out.Notify("warning", "pi-memory: "+w)
	}
}

// refreshConfig re-reads the config files when they changed and returns the
// warnings of a changed configuration (each is said once, when it appears).
func (n *driver) refreshConfig() []string {
	if !n.cfgWatch.Changed(n.h, n.globalCfg, n.projCfg) {
		return nil
	}
	n.cfg = parseConfigFiles(files.Config(n.h, n.globalCfg), files.Config(n.h, n.projCfg))
	return n.cfg.Warnings
}

// load brings a scope's file up to date: read and parsed again only when its
// size or mtime, or the ids its forgotten entries keep (forgottenIDs), changed since the
// last look.
func (n *driver) load(sc *noteScope) {
	info, err := n.h.Stat(sc.file)
	if err != nil {
		sc.stamped, sc.exists, sc.size, sc.mtime, sc.data, sc.view, sc.pages = true, false, 0, 0, sc.data[:0], nil, discard(sc.pages)
		sc.readErr, sc.facts = nil, 0
		if !hostio.IsNotFound(err) {
			sc.readErr = err
		}
		return
	}
	kept := n.forgottenIDs(sc)
	if sc.stamped && sc.exists && sc.readErr == nil && info.Size == sc.size && info.MtimeMs == sc.mtime && kept.stamp == sc.kept {
		return
	}
	sc.stamped, sc.size, sc.mtime = true, info.Size, info.MtimeMs
	// The file and its pages go into the arrays of the last read: under
	// TinyGo a large block allocated afresh on every change stays pinned by
	// a stray word of the module's static data (docs/decisions/003-tinygo-heap.md).
	data, err := readNote(n.h, sc.file, sc.data[:0])
	if err != nil {
		sc.exists, sc.readErr, sc.data, sc.view, sc.pages, sc.facts = false, err, sc.data[:0], nil, discard(sc.pages), 0
		return
	}
	sc.exists, sc.readErr, sc.data = true, nil, data
	n.parser.taken = kept.taken(sc.file, files.StampOf(info))
	sc.view, sc.redacted, sc.pages = n.parser.view(sc.pages, sc.name, data, sc.redacted)
	n.parser.taken, sc.kept = nil, kept.stamp
	sc.facts = countFacts(sc.pages)
}

// readNote reads a memory file (into buf's array when it has room; see
// load). One saved as UTF-16 (Windows PowerShell's default), in whole or in
// part (its `>>` appends UTF-16 to a UTF-8 file), is refused as a read
// error: read as UTF-8 it is text no search finds, and a write would append
// UTF-8 to it. It is told by a NUL byte or a UTF-16 byte-order mark (FF FE,
// FE FF: never in UTF-8) anywhere. One whose lines end with a lone CR (as
// classic Mac OS saved text) is refused too: memory reads lines by their LF,
// and it would be one line that search finds nothing in and that a remember
// would add a second section after (h-v89). It is told by more lone CRs than
// LFs: a stray CR inside a line of an LF file is read as it was.
func readNote(h hostio.Host, p string, buf []byte) ([]byte, error) {
	data, err := files.ReadInto(h, p, maxNoteFile, buf)
	switch {
	case err != nil:
	case bytes.IndexByte(data, 0) >= 0 || bytes.Contains(data, []byte("\xff\xfe")) || bytes.Contains(data, []byte("\xfe\xff")):
		return nil, errors.New("it is not UTF-8 text (UTF-16, or NUL bytes): save it as UTF-8 to use it as memory")
	case bytes.Count(data, []byte("\r"))-bytes.Count(data, []byte("\r\n")) > bytes.Count(data, []byte("\n")):
		return nil, errors.New("its lines end with a lone CR (classic Mac OS line ends): save it with LF or CRLF line ends to use it as memory")
	}
	return data, err
}

// viewString is data as a string without copying it, for a call that keeps
// nothing of the string and during which data does not change (redact keeps
// only offsets and its own text). string(data) would copy a large index on
// every read, a block of its size that TinyGo may never free
// (docs/decisions/003-tinygo-heap.md).
func viewString(data []byte) string {
	return unsafe.String(unsafe.SliceData(data), len(data))
}

// discard clears a page slice nobody reads again, up to its capacity, and
// returns it empty for reuse. Under TinyGo's partly conservative collector a
// stray word that looks like a pointer can pin a dead array; cleared, it pins
// only itself, not every string of every page.
func discard(pages []page) []page {
	clear(pages[:cap(pages)])
	return pages[:0]
}

// lineCount counts a file's lines, a last line without "\n" included. It
// reads the bytes where they are: string(data) would copy a large index.
func lineCount(data []byte) int {
	n := 0
	for _, c := range data {
		if c == '\n' {
			n++
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// loadAll refreshes every scope.
func (n *driver) loadAll() {
	for _, sc := range n.scopes {
		n.load(sc)
	}
}

func (n *driver) scope(name string) *noteScope {
	for _, sc := range n.scopes {
		if sc.name == name {
			return sc
		}
	}
	return nil
}

// anyFile reports whether some memory file exists: only then does the store
// write sidecars of its own (traces, page tables).
func (n *driver) anyFile() bool {
	for _, sc := range n.scopes {
		if sc.exists {
			return true
		}
	}
	return false
}

// capBytes is the notes block's hard cap: maxMemoryTokens in bytes.
func (n *driver) capBytes() int { return budget.TokenBytes(n.cfg.MaxMemoryTokens) }

// Off says why markdown memory can neither be read nor written this
// session, or "" when it can. An untrusted project only takes away the
// project scopes (see scopeFor); global memory stays.
func (n *driver) Off() string {
	switch {
	case !n.cfg.Enabled && n.cfg.Why != "":
		return n.cfg.Why
	case !n.cfg.Enabled:
		return "Markdown memory is disabled by " + n.cfg.DisabledBy + "; nothing is injected or written. Set \"enabled\": true there (or remove the key) to turn it back on."
	case len(n.scopes) == 0:
		return "pi-memory has no agent folder for this session, so it has nowhere to keep memory."
	}
	return ""
}

// Footer is the store's piece of pi's footer (footer): the facts of the
// memory files as last read (a prompt reads them), no read of its own.
func (n *driver) Footer() string {
	facts := 0
	for _, sc := range n.scopes {
		facts += sc.facts
	}
	return footer(offWord(n.cfg, len(n.scopes)), facts)
}

// Refresh re-reads a changed configuration and says what is wrong with it.
func (n *driver) Refresh(out *store.Out) {
	for _, w := range n.refreshConfig() {
		out.Notify("warning", "pi-memory: "+w)
	}
}

// Ready has nothing to catch up with: Refresh read the configuration.
func (n *driver) Ready(out *store.Out) error { return nil }

// section returns the notes block for this turn, cached while the
// configuration, trust and every file are unchanged (byte-stable prompts).
// Problems reading a file are returned once per change, for a notice.
func (n *driver) section() (string, []string) {
	if !n.cfg.Enabled {
		n.block, n.blockKey, n.receipts, n.residency = "", "disabled", nil, residency{}
		return "", nil
	}
	n.loadAll()
	var key text.Builder
	key.WriteString(n.cfgWatch.Version())
	var problems []string
	for _, sc := range n.scopes {
		key.WriteString("|" + sc.name + ":" + strconv.FormatInt(sc.size, 10) + "@" + strconv.FormatInt(sc.mtime, 10) + ":" + strconv.FormatBool(sc.exists))
		if sc.readErr != nil {
			problems = append(problems, "could not read "+sc.file+": "+sc.readErr.Error()+"; it is left out of this turn's memory")
		}
	}
	if key.String() == n.blockKey {
		return n.block, nil
	}
	n.blockKey = key.String()
	var files []blockFile
	where := n.places()
	for _, sc := range n.scopes {
		if sc.exists {
			files = append(files, blockFile{Scope: sc.name, Display: sc.display, Data: sc.view, Pages: sc.pages})
		} else if sc.readErr != nil { // there, and not read
			where.Unread = append(where.Unread, sc.display)
		}
	}
	b := renderBlock(files, where, n.cfg, n.capBytes())
	n.block, n.receipts, n.residency = b.Text, b.Receipts, b.Residency
	if len(n.residency.Faults) > 0 {
		n.faults = append(n.faults, n.residency.Faults...)
		if len(n.faults) > 200 {
			n.faults = n.faults[len(n.faults)-200:]
		}
	}
	return n.block, problems
}

// places says where this session's memory lives, for the preamble.
func (n *driver) places() places {
	var p places
	if g := n.scope(scopeGlobal); g != nil {
		p.Global = files.HomeRelative(n.s.Home, g.dir)
	}
	if n.scope(scopeProject) != nil {
		p.Project, p.Local = notesProjectDir, path.Join(notesProjectDir, notesLocal)
	}
	return p
}

// hashText is the hex SHA-1 of text: trace identity and page-table checks.
func hashText(data []byte) string {
	sum := sha1.Sum(data)
	return hex.EncodeToString(sum[:])
}
