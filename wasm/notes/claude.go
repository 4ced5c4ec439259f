package notes

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/similarity"
)

// Importing Claude Code's auto-memory (/memory import claude): where it
// lives, which of its files are read and in what order, which of their facts
// are staged against what memory holds, and the report. The driver lists and
// reads the files and stages the facts.

// claudeIndex is the index of Claude Code's memory folder.
const claudeIndex = "MEMORY.md"

// claudeProjectDirs returns where Claude Code keeps the auto-memory of the
// project at root, most likely first: home/.claude/projects/<slug>/memory,
// where the slug is root with every character outside [A-Za-z0-9] replaced
// by '-', then the older slug that only replaces '/'. Duplicates are removed
// and a trailing slash of home or root is ignored. Root and home are absolute
// slash paths.
//
//	claudeProjectDirs("/home/ada", "/home/ada/src/my.app")
//	  => ["/home/ada/.claude/projects/-home-ada-src-my-app/memory",
//	      "/home/ada/.claude/projects/-home-ada-src-my.app/memory"]
//	claudeProjectDirs("/home/ada", "/home/ada/src/app")
//	  => ["/home/ada/.claude/projects/-home-ada-src-app/memory"]
func claudeProjectDirs(home, root string) []string {
	home, root = trimSlash(home), trimSlash(root)
	var slug, old text.Builder
	for _, r := range root {
		switch {
		case r < utf8.RuneSelf && isASCIIAlnum(byte(r)):
			slug.WriteRune(r)
		case r > 0xFFFF:
			// Claude Code replaces UTF-16 code units (a JavaScript regexp
			// without the u flag), so a character outside the BMP is two.
			slug.WriteString("--")
		default:
			slug.WriteByte('-')
		}
		if r == '/' {
			old.WriteByte('-')
		} else {
			old.WriteRune(r)
		}
	}
	base := home + "/.claude/projects/"
	dirs := []string{base + slug.String() + "/memory"}
	if o := base + old.String() + "/memory"; o != dirs[0] {
		dirs = append(dirs, o)
	}
	return dirs
}

// trimSlash drops trailing slashes but keeps the root "/".
func trimSlash(p string) string {
	for len(p) > 1 && p[len(p)-1] == '/' {
		p = p[:len(p)-1]
	}
	return p
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// importCandidate is one fact found in Claude Code's memory.
type importCandidate struct {
	Text    string // the fact, as the bullet to stage
	Section string // the section to stage it under
	File    string // the Claude memory file it came from, by base name
	Line    int    // its 1-based line there
}

// claudeImportSection is the section of an imported fact that sat under no
// "##" heading.
const claudeImportSection = "Imported from Claude Code"

// maxImportFact is the longest fact imported, in characters: the writeback
// limit of decision record 005. A longer one belongs in a topic file, which a
// person should write, not an importer.
const maxImportFact = 500

// importPlan decides what /memory import claude does with Claude Code's
// facts, a step at a time (step), so a large import gives pi's thread back
// between its steps. files are parsed; each doc's File is the file's base
// name, MEMORY.md first, then topic files in name order (the caller orders
// them). The candidates are every fact page (not pointers, headings or text)
// of each file in order, with its Section, or claudeImportSection when it has
// none; facts longer than 500 characters are skipped, and so are facts that
// duplicate an earlier candidate (duplicate's rule), so a fact Claude
// repeated in MEMORY.md and a topic file is staged once, from MEMORY.md. Each
// candidate is then an item to stage (why "") or skipped as inMemory: a
// duplicate of a fact or pointer of the memory file, or of a fact staged and
// not yet flushed (pending). Each text is prepared once (duplicate prepares
// every page again for each fact: 1,000 facts took 16 s).
//
//	MEMORY.md: "- [Build](build.md) — quirks", "- Use pnpm, not npm"
//	build.md:  "## Quirks", "- use pnpm not npm", "- sccache breaks -Werror"
//	memory:    "- sccache breaks -Werror"
//	items => [{MEMORY.md:2 "Imported from Claude Code" "Use pnpm, not npm"}
//	          {build.md:3 "Quirks" "sccache breaks -Werror" why "already in memory"}]
type importPlan struct {
	files      []doc
	file, page int                   // the next page to read: files[file].Pages[page]
	cands      []importCandidate     // the candidates found so far
	feats      []similarity.Features // theirs, in the same order
	known      []similarity.Features // memory's facts and pointers, and what is staged
	items      []importItem          // one per candidate checked against known
}

// newImportPlan plans the import of files against memory's pages and what
// is staged (pending); neither is changed.
func newImportPlan(files []doc, memory []page, pending []Op) *importPlan {
	ip := &importPlan{files: files}
	for i := range memory {
		if memory[i].Kind == kindFact || memory[i].Kind == kindPointer {
			ip.known = append(ip.known, similarity.Prepare(memory[i].Text))
		}
	}
	for _, op := range pending {
		ip.known = append(ip.known, similarity.Prepare(op.Text))
	}
	return ip
}

// step plans until about work comparisons are made, then reports whether
// every fact is planned.
func (ip *importPlan) step(work int) bool {
	for ; ip.file < len(ip.files); ip.file, ip.page = ip.file+1, 0 {
		f := &ip.files[ip.file]
		for ; ip.page < len(f.Pages); ip.page++ {
			if work <= 0 {
				return false
			}
			p := &f.Pages[ip.page]
			if p.Kind != kindFact || p.Text == "" || utf8.RuneCountInString(p.Text) > maxImportFact {
				continue
			}
			feat := similarity.Prepare(p.Text)
			work -= 8 + len(ip.feats)
			if sameAsOne(&feat, ip.feats) {
				continue
			}
			section := p.Section
			if section == "" {
				section = claudeImportSection
			}
			ip.cands = append(ip.cands, importCandidate{Text: p.Text, Section: section, File: f.File, Line: p.Line})
			ip.feats = append(ip.feats, feat)
		}
	}
	for len(ip.items) < len(ip.cands) {
		if work <= 0 {
			return false
		}
		i := len(ip.items)
		c := &ip.cands[i]
		it := importItem{where: c.File + ":" + numstr.Itoa(c.Line), section: c.Section, text: c.Text}
		if work -= 8 + len(ip.known); sameAsOne(&ip.feats[i], ip.known) {
			it.why = inMemory
		}
		ip.items = append(ip.items, it)
	}
	return true
}

// sameAsOne reports whether f says what one of known says (sameNote).
func sameAsOne(f *similarity.Features, known []similarity.Features) bool {
	for k := range known {
		if sameNote(f, &known[k]) {
			return true
		}
	}
	return false
}

// claudeFiles is the order in which the entries of Claude Code's memory
// folder are read: its index first (listed or not: reading it is how its
// absence is learnt), then the other Markdown files (".md" in any case) by
// name. A folder (an entry ending in "/") is not read.
//
//	claudeFiles(["notes.md", "MEMORY.md", "Build.MD", "old.md/", "x.txt"])
//	  => ["MEMORY.md", "Build.MD", "notes.md"]
func claudeFiles(entries []string) []string {
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e, "/") && strings.HasSuffix(strings.ToLower(e), ".md") && e != claudeIndex {
			names = append(names, e)
		}
	}
	sortStrings(names)
	return append([]string{claudeIndex}, names...)
}

// sortStrings sorts a short list in place. (sort.Strings would pull the
// generic slices package into the TinyGo build: tens of KB for a few names.)
func sortStrings(a []string) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// importItem is one fact of Claude Code's memory in an import's report.
type importItem struct {
	where   string // "file:line" in Claude's memory
	section string
	text    string // the fact; once staged, as the staged record holds it
	id      string // the staged record's id ("" in a dry run)
	note    string // what staging changed in the fact
	why     string // why it is skipped; "" when it is staged
}

// inMemory is why an import skips a fact memory already holds.
const inMemory = "already in memory"

// importReport is what an import did (or, dry, would do).
type importReport struct {
	dry     bool
	source  string // Claude's memory folder
	file    string // the memory file facts are staged for, absolute
	display string // the same, as prompts name it
	staged  []importItem
	skipped []importItem
}

// shown is a fact of Claude's files as an answer shows it: redacted, like
// every other way out of memory (a secret in those files is refused when
// staged, and never printed either).
func shown(it importItem) string {
	t, _ := redact.String(it.text)
	return t
}

// importText is /memory import claude's answer to a person: a count, a line
// per fact, and what to do next.
func importText(r *importReport) string {
	var b text.Builder
	verb := "Staged"
	if r.dry {
		verb = "Would stage (dry run, nothing written)"
	}
	b.WriteString(verb + " " + text.Plural(len(r.staged), "fact", "facts") + " from " + r.source + " (read only) for " + r.display + "; " + numstr.Itoa(len(r.skipped)) + " skipped.")
	for _, it := range r.staged {
		switch {
		case r.dry && it.note != "":
			b.WriteString("\n  would stage  " + it.where + "  [" + it.section + "] " + shown(it) + " (" + it.note + ")")
		case r.dry:
			b.WriteString("\n  would stage  " + it.where + "  [" + it.section + "] " + shown(it))
		case it.note != "":
			b.WriteString("\n  staged  " + it.id + "  " + it.where + "  [" + it.section + "] " + shown(it) + " (" + it.note + ")")
		default:
			b.WriteString("\n  staged  " + it.id + "  " + it.where + "  [" + it.section + "] " + shown(it))
		}
	}
	for _, it := range r.skipped {
		if it.why == inMemory {
			b.WriteString("\n  skipped  " + it.where + "  " + shown(it) + " (" + inMemory + ")")
		} else {
			b.WriteString("\n  skipped  " + it.where + "  (" + it.why + ")")
		}
	}
	if len(r.staged) > 0 && !r.dry {
		b.WriteString("\n/memory flush writes them (each is checked again then).")
	}
	return b.String()
}

// importJSON is /memory import claude --json.
func importJSON(r *importReport) string {
	enc := func(list []importItem) []byte {
		return jsonw.Array(nil, len(list), func(b []byte, i int) []byte {
			o := jsonw.Open(b)
			o.Str("from", list[i].where)
			o.Str("section", list[i].section)
			o.Str("text", shown(list[i]))
			o.Str("id", list[i].id)
			o.Str("note", list[i].note)
			o.Str("why", list[i].why)
			return o.Close()
		})
	}
	w := jsonw.Open(nil)
	w.Bool("dryRun", r.dry)
	w.Str("source", r.source)
	w.Str("file", r.file)
	w.Raw("staged", enc(r.staged))
	w.Raw("skipped", enc(r.skipped))
	return string(w.Close())
}
