package notes

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// /memory status: what the driver found, as a value, and how it is said.
// The driver stats, lists and reads; these render.

// statusReport is what /memory status says about markdown memory.
type statusReport struct {
	cfg           config
	globalConfig  string // the global config.json's path
	projectConfig string // the project's, "" without a trusted project
	project       string // the project's root, "" when there is none
	trusted       bool
	trustWhy      string // why the project is trusted or not, "" when the host decided alone
	inject        string // the gate's answer for Inject: "" when memory is injected
	block         string // the block as the next turn would inject it
	faults        int    // pages that do not fit in it
	turned        bool   // a turn has put notes into a system prompt this session
	lastBytes     int    // the bytes of notes that turn put in
	pending       int    // staged facts waiting for a flush
	module        string // the SHA-256 of the module the host loaded, "" when it did not say
	scopes        []scopeStatus
}

// scopeStatus is what status says about one memory file.
type scopeStatus struct {
	name, file, display string
	table               string // the page table's path
	exists              bool
	present             bool // with memory off, whether the file is there (it is not read)
	bytes, lines        int
	injected            int        // bytes of it in the block
	pageTable           tableState // the page table against the file
	readErr             string     // why the file could not be read, "" when it could
	topics              []topicFile
	archived            int  // files in archive/
	unignored           bool // personal notes that .gitignore does not keep out of git
}

// topicFile is a topic file beside an index.
type topicFile struct {
	name   string
	size   int64  // its size, -1 when unknown
	unread string // why it is not read (not a plain file), "" when it is
}

// topicNames are the topic files as status lists them: "name (N bytes)",
// "name (not read)", or the bare name when its size is unknown.
func (s *scopeStatus) topicNames() []string {
	var out []string
	for _, t := range s.topics {
		switch {
		case t.unread != "":
			out = append(out, t.name+" (not read)")
		case t.size >= 0:
			out = append(out, t.name+" ("+strconv.FormatInt(t.size, 10)+" bytes)")
		default:
			out = append(out, t.name)
		}
	}
	return out
}

// warnings are what is wrong with a scope, in the order a person fixes
// them: a file over its caps, one that cannot be read, topic files that are
// not read, personal notes git would commit.
func (s *scopeStatus) warnings(cfg *config) []string {
	var out []string
	if s.exists {
		if over := overCaps(s.lines, s.bytes, cfg.MaxInjectLines, cfg.MaxInjectBytes); over != "" {
			out = append(out, s.display+" is "+over+": only part of it is injected. Move detail to topic files or archive/.")
		}
	}
	if s.readErr != "" {
		out = append(out, "could not read "+s.file+": "+s.readErr)
	}
	for _, t := range s.topics {
		if t.unread != "" {
			out = append(out, t.unread)
		}
	}
	if s.unignored {
		out = append(out, s.display+" is not in .gitignore, so it would be committed with the team's memory; /memory gitignore adds it.")
	}
	return out
}

// statusText is /memory status's answer to a person.
func statusText(r *statusReport) string {
	var b text.Builder
	switch {
	case !r.cfg.Enabled:
		if r.cfg.Why != "" {
			b.WriteString("Markdown memory: off — " + r.cfg.Why + "\n")
		} else {
			b.WriteString("Markdown memory: off (disabled by " + r.cfg.DisabledBy + "; nothing is read beyond the configs, nothing is written)\n")
		}
	case r.inject != "":
		b.WriteString("Markdown memory: on, but nothing is injected: " + r.inject + "\n")
	default:
		b.WriteString("Markdown memory: on, injected before every prompt\n")
	}
	why := ""
	if r.trustWhy != "" {
		why = " (" + r.trustWhy + ")"
	}
	switch {
	case r.project == "":
		b.WriteString("Project: none (global memory only)\n")
	case !r.trusted:
		b.WriteString("Project: " + r.project + ", not trusted: its memory is neither read nor written" + why + "\n")
	default:
		b.WriteString("Project: " + r.project + ", trusted" + why + "\n")
	}
	for i := range r.scopes {
		s := &r.scopes[i]
		b.WriteString("\n" + scopeTitle(s.name) + ": " + s.file + "\n")
		if !r.cfg.Enabled {
			// Off means not read: say whether the file is there, nothing more.
			if s.present {
				b.WriteString("  present, not read while memory is off\n")
			} else {
				b.WriteString("  absent\n")
			}
			continue
		}
		switch {
		case s.readErr != "":
			// There, but not read (too large, a link, a FIFO): never "absent",
			// which invites a write that then fails.
			b.WriteString("  not read, so left out of memory: see the warning below\n")
		case !s.exists:
			b.WriteString("  absent: created on the first write (by the agent, or /memory remember)\n")
		default:
			b.WriteString("  " + text.Plural(s.bytes, "byte", "bytes") + ", " + text.Plural(s.lines, "line", "lines") + "; injected " + text.Plural(s.injected, "byte", "bytes") + " (caps " + text.Plural(r.cfg.MaxInjectLines, "line", "lines") + ", " + text.Plural(r.cfg.MaxInjectBytes, "byte", "bytes") + ")\n")
			b.WriteString("  page table: " + s.pageTable.Status)
			if s.pageTable.Detail != "" {
				b.WriteString(" (" + s.pageTable.Detail + ")")
			}
			b.WriteString(", " + s.table + "\n")
		}
		if topics := s.topicNames(); len(topics) > 0 {
			b.WriteString("  topic files: " + strings.Join(topics, ", ") + "\n")
		}
		if s.archived > 0 {
			b.WriteString("  archive: " + text.Plural(s.archived, "file", "files") + " (never injected)\n")
		}
		for _, w := range s.warnings(&r.cfg) {
			b.WriteString("  warning: " + w + "\n")
		}
	}
	b.WriteString("\nBlock: " + text.Plural(len(r.block), "byte", "bytes") + " ≈ " + text.Plural(budget.EstimateTokens(r.block), "token", "tokens") + " of " + numstr.Itoa(r.cfg.MaxMemoryTokens) + " (maxMemoryTokens)")
	if r.cfg.PageTableInjection {
		b.WriteString(", typed pages")
	} else {
		b.WriteString(", plain cut")
	}
	if r.faults > 0 {
		b.WriteString("; " + text.Plural(r.faults, "page does", "pages do") + " not fit (/memory faults)")
	}
	if r.cfg.Enabled && r.block != "" && !r.anyInjected() {
		none := "no MEMORY.md holds anything yet"
		for i := range r.scopes {
			if r.scopes[i].readErr != "" {
				none = "no MEMORY.md it could read holds anything"
			}
		}
		b.WriteString("; the preamble only (where memory lives and how to keep it): " + none)
	}
	b.WriteString("\n")
	if r.turned {
		b.WriteString("Last turn injected " + text.Plural(r.lastBytes, "byte", "bytes") + " of notes (/memory last shows it)\n")
	}
	if r.pending > 0 {
		b.WriteString("Staged facts waiting: " + numstr.Itoa(r.pending) + " (/memory flush writes them; so does the end of the session)\n")
	}
	b.WriteString("Config: global " + files.Presence(r.globalConfig, r.cfg.GlobalPresent))
	if r.projectConfig != "" {
		b.WriteString("; project " + files.Presence(r.projectConfig, r.cfg.ProjectPresent))
	}
	b.WriteString("\n")
	for _, w := range r.cfg.Warnings {
		b.WriteString("warning: " + w + "\n")
	}
	// Which core answers, when the host said which module it loaded: what a
	// person compares with `pimem --version` or quotes in a bug report.
	if r.module != "" {
		b.WriteString(registry.About(registry.Release, r.module) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// anyInjected reports whether a memory file puts anything in the block.
func (r *statusReport) anyInjected() bool {
	for i := range r.scopes {
		if r.scopes[i].injected > 0 {
			return true
		}
	}
	return false
}

// statusJSON is /memory status --json.
func statusJSON(r *statusReport) string {
	w := jsonw.Open(nil)
	w.Bool("enabled", r.cfg.Enabled)
	w.Str("disabledBy", r.cfg.DisabledBy)
	w.Bool("injecting", r.inject == "")
	w.Bool("trusted", r.trusted)
	if r.trustWhy != "" {
		w.Str("trustWhy", r.trustWhy)
	}
	w.Str("globalConfig", r.globalConfig)
	w.Bool("globalConfigPresent", r.cfg.GlobalPresent)
	w.Str("projectConfig", r.projectConfig)
	w.Bool("projectConfigPresent", r.cfg.ProjectPresent)
	w.Bool("pageTableInjection", r.cfg.PageTableInjection)
	w.Int("maxInjectLines", int64(r.cfg.MaxInjectLines))
	w.Int("maxInjectBytes", int64(r.cfg.MaxInjectBytes))
	w.Int("maxMemoryTokens", int64(r.cfg.MaxMemoryTokens))
	w.Int("blockBytes", int64(len(r.block)))
	w.Int("blockTokens", int64(budget.EstimateTokens(r.block)))
	w.Int("pending", int64(r.pending))
	w.Raw("scopes", jsonw.Array(nil, len(r.scopes), func(b []byte, i int) []byte {
		s := &r.scopes[i]
		o := jsonw.Open(b)
		o.Str("scope", s.name)
		o.Str("file", s.file)
		o.Bool("exists", s.exists)
		o.Int("bytes", int64(s.bytes))
		o.Int("lines", int64(s.lines))
		o.Int("injectedBytes", int64(s.injected))
		o.Strs("topics", s.topicNames())
		o.Int("archived", int64(s.archived))
		o.Str("pageTable", s.pageTable.Status)
		o.Str("pageTableFile", s.table)
		o.Strs("warnings", s.warnings(&r.cfg))
		return o.Close()
	}))
	w.Strs("warnings", r.cfg.Warnings)
	if r.module != "" {
		w.Str("version", registry.Release)
		w.Str("moduleSha256", r.module)
	}
	return string(w.Close())
}

// footer is the store's piece of pi's footer (store.Footer): the facts in
// the memory files, nothing when there are none (or none read yet), or why
// the store is off (offWord).
//
//	footer("", 14) => "notes 14"
//	footer("", 0) => ""
//	footer("disabled", 14) => "notes off (disabled)"
func footer(off string, facts int) string {
	switch {
	case off != "":
		return store.OffPiece("notes", off)
	case facts == 0:
		return ""
	}
	return "notes " + numstr.Itoa(facts)
}

// offWord is why the store is off (Off), in a word or two: its
// configuration, or no agent folder (scopes is how many memory files the
// session has).
func offWord(cfg config, scopes int) string {
	switch {
	case !cfg.Enabled && cfg.Why != "":
		return "bad config"
	case !cfg.Enabled:
		return "disabled"
	case scopes == 0:
		return "no agent dir"
	}
	return ""
}

// countFacts counts the pages that are facts (bullet items).
func countFacts(pages []page) int {
	n := 0
	for i := range pages {
		if pages[i].Kind == kindFact {
			n++
		}
	}
	return n
}
