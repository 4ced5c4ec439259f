package notes

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Scope names, in the order the block shows them.
const (
	scopeGlobal  = "global"
	scopeProject = "project"
	scopeLocal   = "local"
)

// priority is the order the budget serves scopes in: the project first, the
// personal notes next, global memory last (docs/decisions/005).
func priority(scope string) int {
	switch scope {
	case scopeProject:
		return 0
	case scopeLocal:
		return 1
	}
	return 2
}

// blockFile is one memory index as the block sees it.
type blockFile struct {
	Scope   string // scopeGlobal, scopeProject or scopeLocal
	Display string // how prompts name the file: "~/.pi/agent/memory/MEMORY.md"
	Data    []byte
	Pages   []page // parse(Scope, Data)
}

// places says where this session's memory lives, for the preamble. An empty
// field means the scope is not available (no agent folder, an untrusted or
// missing project).
type places struct {
	Global  string // the global memory folder as shown: "~/.pi/agent/memory"
	Project string // the project memory folder, relative: ".pi/memory"
	Local   string // the personal notes file, relative: ".pi/memory/MEMORY.local.md"
	// Unread are the memory files that are there but could not be read
	// (over the size read, a link, a FIFO), as prompts name them.
	Unread []string
}

// block is the notes section of the system prompt, with what went into it.
type block struct {
	Text      string
	Receipts  []scopeReceipt // one per file with content, in display order
	Residency residency      // the resident-set outcome (empty for a plain cut)
}

// renderBlock is the notes section: the preamble, then each file with
// content under its heading, in display order (global, project, personal),
// within every cap of cfg and within capBytes in all. Budget is served in
// priority order (project, personal, global): what does not fit is shown as
// summaries and stubs, or cut, never silently dropped. The result is a pure
// function of its inputs, so an unchanged memory gives the same bytes.
func renderBlock(files []blockFile, where places, cfg config, capBytes int) block {
	var parts []int
	for i := range files {
		if len(strings.TrimSpace(string(files[i].Data))) > 0 {
			parts = append(parts, i)
		}
	}
	pre := preamble(where, len(parts) > 0)
	headers := make([]string, len(parts))
	room := capBytes - len(pre)
	for k, i := range parts {
		headers[k] = scopeHeader(&files[i])
		room -= len(headers[k])
	}
	if room < 0 {
		room = 0
	}
	order := make([]int, len(parts))
	for k := range order {
		order[k] = k
	}
	// Insertion sort by priority: a handful of scopes, stable, no reflection.
	for a := 1; a < len(order); a++ {
		for b := a; b > 0 && priority(files[parts[order[b]]].Scope) < priority(files[parts[order[b-1]]].Scope); b-- {
			order[b], order[b-1] = order[b-1], order[b]
		}
	}
	var out block
	texts := make([]string, len(parts))
	if cfg.PageTableInjection {
		scopes := make([]residentScope, len(parts))
		for k, i := range parts {
			f := &files[i]
			scopes[k] = residentScope{Name: f.Scope, File: f.Display, Pages: f.Pages, MaxLines: cfg.MaxInjectLines, MaxBytes: cfg.MaxInjectBytes}
		}
		out.Residency = fit(scopes, order, room)
		copy(texts, out.Residency.Texts)
		for k, i := range parts {
			f := &files[i]
			r := scopeReceipt{Scope: f.Scope, File: f.Display, Bytes: len(texts[k]), Lines: strings.Count(texts[k], "\n")}
			for j, form := range out.Residency.Forms[k] {
				pg := &f.Pages[j]
				r.Pages = append(r.Pages, pageForm{ID: pg.ID, Line: pg.Line, Form: form.String()})
			}
			out.Receipts = append(out.Receipts, r)
		}
	} else {
		wasCut := make([]bool, len(parts))
		for _, k := range order {
			maxBytes := cfg.MaxInjectBytes
			if room < maxBytes {
				maxBytes = room
			}
			f := &files[parts[k]]
			texts[k], wasCut[k] = cut(string(f.Data), cfg.MaxInjectLines, maxBytes, f.Display)
			room -= len(texts[k])
		}
		for k, i := range parts {
			f := &files[i]
			out.Receipts = append(out.Receipts, scopeReceipt{Scope: f.Scope, File: f.Display, Bytes: len(texts[k]), Lines: strings.Count(texts[k], "\n"), Cut: wasCut[k]})
		}
	}
	var b text.Builder
	b.WriteString(pre)
	for k := range parts {
		if texts[k] == "" {
			continue
		}
		b.WriteString(headers[k])
		b.WriteString(texts[k])
	}
	out.Text = strings.TrimRight(b.String(), "\n") + "\n"
	return out
}

func scopeHeader(f *blockFile) string {
	switch f.Scope {
	case scopeGlobal:
		return "\n### Global MEMORY.md (" + f.Display + ")\n"
	case scopeProject:
		return "\n### Project MEMORY.md (" + f.Display + ")\n"
	default:
		return "\n### Personal project notes (" + f.Display + ", not committed)\n"
	}
}

// preamble tells the agent that memory exists and how to keep it. It names
// only the scopes this session may use, and says the indexes are shown below
// only when one is (shown): with no MEMORY.md holding anything yet, it says
// so instead.
func preamble(p places, shown bool) string {
	var b text.Builder
	b.WriteString("## Persistent memory\n\n")
	b.WriteString("You have file-based memory that lasts across sessions (not AGENTS.md, which the user writes):\n")
	if p.Global != "" {
		b.WriteString("- Global memory (this user, every project): " + p.Global + "/\n")
	}
	if p.Project != "" {
		b.WriteString("- Project memory (committed, read by the team): " + p.Project + "/\n")
		b.WriteString("- Personal project notes (not committed): " + p.Local + "\n")
	}
	switch {
	case shown:
		b.WriteString("\nEach MEMORY.md index is shown below; `read` its topic files when relevant. ")
	case len(p.Unread) == 0:
		b.WriteString("\nNo MEMORY.md holds anything yet. ")
	}
	if len(p.Unread) > 0 {
		b.WriteString("\n" + strings.Join(p.Unread, ", ") + " could not be read (the user is told why), so it is not shown: do not take it for empty. ")
	}
	b.WriteString("When the user states a lasting preference or fact, or asks you to remember something, call `memory_remember` with one short line (it refuses duplicates and secrets). ")
	if p.Project != "" {
		// The orchestrator's memory_search and memory_forget are offered in a trusted project.
		b.WriteString("Before answering about earlier work, decisions or preferences not shown here, call `memory_search`; `memory_forget` removes an entry that proved wrong. ")
	} else {
		b.WriteString("Fix or remove entries that prove wrong. ")
	}
	b.WriteString("Never save secrets or what the repository already records.\n")
	return b.String()
}
