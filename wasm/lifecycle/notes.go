package lifecycle

import (
	"crypto/sha1"
	"encoding/hex"
	"path"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/notes"
)

// Where markdown memory lives (seed 001, docs/decisions/005-markdown-memory.md).
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

// Scope names, in display order.
const (
	scopeGlobal  = "global"
	scopeProject = "project"
	scopeLocal   = "local"
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
	data    []byte
	pages   []notes.Page
	readErr error
}

// notesStore drives one session's markdown memory: configuration, the
// memory files (re-read only when they change), the injected block and its
// receipts. Writes go through the journal (notes_writeback.go).
type notesStore struct {
	e *Engine
	s *Session
	h hostio.Host

	cfg                notes.Config
	globalCfg, projCfg string
	cfgStamp           string
	scopes             []*noteScope // global, then project and local when trusted
	sessionData        string       // where this session's traces go
	traces             string
	tracedHash         string
	lastText           string // the last injected text, traced or not
	lastTraceID        string

	blockKey  string
	block     string
	residency notes.Residency
	receipts  []notes.ScopeReceipt
	faults    []notes.Fault // of this session, newest last

	last []budget.Receipt // what the previous turn injected
	seq  int              // ids made this session
}

func newNotes(e *Engine, s *Session) *notesStore {
	n := &notesStore{e: e, s: s, h: e.h}
	if s.AgentDir != "" {
		dir := path.Join(s.AgentDir, notesGlobalDir)
		data := path.Join(s.AgentDir, notesDataDir, scopeGlobal)
		n.globalCfg = path.Join(dir, notesConfig)
		n.scopes = append(n.scopes, &noteScope{name: scopeGlobal, dir: dir, file: path.Join(dir, notesIndex), display: homeRelative(s.Home, path.Join(dir, notesIndex)), dataDir: data, table: path.Join(data, "page-table.jsonl"), journal: path.Join(data, "writeback-journal.jsonl"), lock: path.Join(data, "memory.lock")})
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
func (n *notesStore) start(out *Out) {
	for _, w := range n.refreshConfig() {
		out.Notify("warning", "pi-memory: "+w)
	}
}

// refreshConfig re-reads the config files when they changed and returns the
// warnings of a changed configuration (each is said once, when it appears).
func (n *notesStore) refreshConfig() []string {
	stamp := n.stamp(n.globalCfg) + "|" + n.stamp(n.projCfg)
	if stamp == n.cfgStamp && n.cfgStamp != "" {
		return nil
	}
	n.cfgStamp = stamp
	var global, project []byte
	var readWarnings []string
	read := func(p string) []byte {
		if p == "" {
			return nil
		}
		data, err := readFile(n.h, p, maxConfig)
		if err != nil && !hostio.IsNotFound(err) {
			readWarnings = append(readWarnings, err.Error())
		}
		return data
	}
	global = read(n.globalCfg)
	project = read(n.projCfg)
	n.cfg = notes.ParseConfig(n.globalCfg, global, n.projCfg, project)
	n.cfg.Warnings = append(readWarnings, n.cfg.Warnings...)
	return n.cfg.Warnings
}

// stamp identifies a file's version by size and mtime ("-" when absent).
func (n *notesStore) stamp(p string) string {
	if p == "" {
		return ""
	}
	info, err := n.h.Stat(p)
	if err != nil {
		return "-"
	}
	return strconv.FormatInt(info.Size, 10) + "@" + strconv.FormatInt(info.MtimeMs, 10)
}

// load brings a scope's file up to date: read and parsed again only when its
// size or mtime changed since the last look.
func (n *notesStore) load(sc *noteScope) {
	info, err := n.h.Stat(sc.file)
	switch {
	case err != nil:
		discard(sc.pages)
		sc.stamped, sc.exists, sc.size, sc.mtime, sc.data, sc.pages = true, false, 0, 0, nil, nil
		sc.readErr = nil
		if !hostio.IsNotFound(err) {
			sc.readErr = err
		}
		return
	case sc.stamped && sc.exists && sc.readErr == nil && info.Size == sc.size && info.MtimeMs == sc.mtime:
		return
	}
	sc.stamped, sc.size, sc.mtime = true, info.Size, info.MtimeMs
	data, err := readFile(n.h, sc.file, maxNoteFile)
	if err != nil {
		discard(sc.pages)
		sc.exists, sc.readErr, sc.data, sc.pages = false, err, nil, nil
		return
	}
	sc.exists, sc.readErr, sc.data = true, nil, data
	discard(sc.pages)
	sc.pages = notes.Parse(sc.name, data)
}

// discard clears a page slice nobody reads again. Under TinyGo's partly
// conservative collector a stray word that looks like a pointer can pin a
// dead array; cleared, it pins only itself, not every string of every page
// (measured: repeated rebuilds of a 5,000-line index grew the heap to 512 MiB).
func discard(pages []notes.Page) { clear(pages) }

// loadAll refreshes every scope.
func (n *notesStore) loadAll() {
	for _, sc := range n.scopes {
		n.load(sc)
	}
}

func (n *notesStore) scope(name string) *noteScope {
	for _, sc := range n.scopes {
		if sc.name == name {
			return sc
		}
	}
	return nil
}

// anyFile reports whether some memory file exists: only then does the store
// write sidecars of its own (traces, page tables).
func (n *notesStore) anyFile() bool {
	for _, sc := range n.scopes {
		if sc.exists {
			return true
		}
	}
	return false
}

// capBytes is the notes block's hard cap: maxMemoryTokens in bytes.
func (n *notesStore) capBytes() int { return n.cfg.MaxMemoryTokens * 4 }

// section returns the notes block for this turn, cached while the
// configuration, trust and every file are unchanged (byte-stable prompts).
// Problems reading a file are returned once per change, for a notice.
func (n *notesStore) section() (string, []string) {
	n.refreshConfig()
	if !n.cfg.Enabled {
		n.block, n.blockKey, n.receipts, n.residency = "", "disabled", nil, notes.Residency{}
		return "", nil
	}
	n.loadAll()
	var key strings.Builder
	key.WriteString(n.cfgStamp)
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
	n.build()
	if len(n.residency.Faults) > 0 {
		n.faults = append(n.faults, n.residency.Faults...)
		if len(n.faults) > 200 {
			n.faults = n.faults[len(n.faults)-200:]
		}
	}
	return n.block, problems
}

// priority is the order the budget serves scopes in: the project first, the
// personal notes next, global memory last (docs/decisions/005).
var priority = map[string]int{scopeProject: 0, scopeLocal: 1, scopeGlobal: 2}

// build renders the block: preamble, then each scope's text under its
// heading, in display order, within every cap.
func (n *notesStore) build() {
	pre := n.preamble()
	type part struct {
		sc     *noteScope
		header string
	}
	var parts []part
	for _, sc := range n.scopes {
		if sc.exists && len(strings.TrimSpace(string(sc.data))) > 0 {
			parts = append(parts, part{sc, scopeHeader(sc)})
		}
	}
	room := n.capBytes() - len(pre)
	for _, p := range parts {
		room -= len(p.header)
	}
	if room < 0 {
		room = 0
	}
	texts := make([]string, len(parts))
	n.receipts = n.receipts[:0]
	if n.cfg.PageTableInjection {
		scopes := make([]notes.Scope, len(parts))
		order := make([]int, len(parts))
		for i, p := range parts {
			scopes[i] = notes.Scope{Name: p.sc.name, File: p.sc.display, Pages: p.sc.pages, MaxLines: n.cfg.MaxInjectLines, MaxBytes: n.cfg.MaxInjectBytes}
			order[i] = i
		}
		sortBy(order, func(i int) int { return priority[parts[i].sc.name] })
		n.residency = notes.Fit(scopes, order, room)
		copy(texts, n.residency.Texts)
		for i, p := range parts {
			r := notes.ScopeReceipt{Scope: p.sc.name, File: p.sc.display, Bytes: len(texts[i]), Lines: strings.Count(texts[i], "\n")}
			for j, f := range n.residency.Forms[i] {
				pg := &p.sc.pages[j]
				r.Pages = append(r.Pages, notes.PageForm{ID: pg.ID, Line: pg.Line, Form: f.String()})
			}
			n.receipts = append(n.receipts, r)
		}
	} else {
		n.residency = notes.Residency{}
		order := make([]int, len(parts))
		for i := range order {
			order[i] = i
		}
		sortBy(order, func(i int) int { return priority[parts[i].sc.name] })
		cut := make([]bool, len(parts))
		for _, i := range order {
			maxBytes := n.cfg.MaxInjectBytes
			if room < maxBytes {
				maxBytes = room
			}
			texts[i], cut[i] = notes.Cut(string(parts[i].sc.data), n.cfg.MaxInjectLines, maxBytes, parts[i].sc.display)
			room -= len(texts[i])
		}
		for i, p := range parts {
			n.receipts = append(n.receipts, notes.ScopeReceipt{Scope: p.sc.name, File: p.sc.display, Bytes: len(texts[i]), Lines: strings.Count(texts[i], "\n"), Cut: cut[i]})
		}
	}
	var b strings.Builder
	b.WriteString(pre)
	for i, p := range parts {
		if texts[i] == "" {
			continue
		}
		b.WriteString(p.header)
		b.WriteString(texts[i])
	}
	n.block = strings.TrimRight(b.String(), "\n") + "\n"
}

// sortBy sorts idx by key, stably (insertion sort: a handful of scopes).
func sortBy(idx []int, key func(int) int) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && key(idx[j]) < key(idx[j-1]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}

func scopeHeader(sc *noteScope) string {
	switch sc.name {
	case scopeGlobal:
		return "\n### Global MEMORY.md (" + sc.display + ")\n"
	case scopeProject:
		return "\n### Project MEMORY.md (" + sc.display + ")\n"
	default:
		return "\n### Personal project notes (" + sc.display + ", not committed)\n"
	}
}

// preamble tells the agent that memory exists and how to keep it (seed 001
// §3). It names only the scopes this session may use.
func (n *notesStore) preamble() string {
	var b strings.Builder
	b.WriteString("## Persistent memory\n\n")
	b.WriteString("You have file-based memory that lasts across sessions. It is separate from AGENTS.md, which the user writes: never write memory there.\n\n")
	if g := n.scope(scopeGlobal); g != nil {
		b.WriteString("- Global memory (this user, every project): " + homeRelative(n.s.Home, g.dir) + "/\n")
	}
	if p := n.scope(scopeProject); p != nil {
		b.WriteString("- Project memory (committed to the repository, read by the team): " + notesProjectDir + "/\n")
		b.WriteString("- Personal project notes (not committed): " + path.Join(notesProjectDir, notesLocal) + "\n")
	}
	b.WriteString("\nEach scope has a MEMORY.md index, shown below when it has content, and topic files you can open with `read` when they are relevant.\n\n")
	b.WriteString("When you learn something durable (a correction from the user, a build or test command, a non-obvious constraint, a decision and its reason), save it by editing the right MEMORY.md or topic file with `edit` or `write`:\n")
	b.WriteString("- Check the index first; update an existing entry rather than adding a duplicate.\n")
	b.WriteString("- Delete entries that prove wrong; move stale ones to archive/ rather than deleting them.\n")
	b.WriteString("- Keep MEMORY.md a short index, one line per fact; put detail in a topic file and link it with one line.\n")
	if n.scope(scopeProject) != nil {
		b.WriteString("- Project memory is read by teammates: keep it factual and professional.\n")
	}
	b.WriteString("- Never write secrets, and do not save what the repository already records (code, git history, AGENTS.md).\n")
	return b.String()
}

// homeRelative writes a path under home as "~/…": shorter in every prompt,
// and the same block on every machine with the same layout.
//
//	homeRelative("/home/ada", "/home/ada/.pi/agent/memory") => "~/.pi/agent/memory"
func homeRelative(home, p string) string {
	if home != "" && home != "/" && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// hashText is the hex SHA-1 of text: trace identity and page-table checks.
func hashText(data []byte) string {
	sum := sha1.Sum(data)
	return hex.EncodeToString(sum[:])
}
