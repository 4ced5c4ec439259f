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

// claudeFacts returns the facts of Claude Code's memory files in order:
// every fact page (not pointers, headings or text) of each file, with its
// Section, or claudeImportSection when it has none. files are already parsed;
// each doc's File is the file's base name, MEMORY.md first, then topic files
// in name order (the caller orders them). Facts longer than 500 characters
// are skipped, and so are facts that duplicate an earlier candidate
// (duplicate's rule), so a fact Claude repeated in MEMORY.md and a topic file
// is staged once, from MEMORY.md.
//
//	MEMORY.md: "- [Build](build.md) — quirks", "- Use pnpm, not npm"
//	build.md:  "## Quirks", "- use pnpm not npm", "- sccache breaks -Werror"
//	claudeFacts(…) => [{"Use pnpm, not npm" "Imported from Claude Code" MEMORY.md 2}
//	                   {"sccache breaks -Werror" "Quirks" build.md 3}]
func claudeFacts(files []doc) []importCandidate {
	var out []importCandidate
	var seen []similarity.Features // prepared once per candidate, not once per comparison
	for _, f := range files {
		for i := range f.Pages {
			p := &f.Pages[i]
			if p.Kind != kindFact || p.Text == "" || utf8.RuneCountInString(p.Text) > maxImportFact {
				continue
			}
			feat := similarity.Prepare(p.Text)
			dup := false
			for j := range seen {
				if sameNote(&feat, &seen[j]) {
					dup = true
					break
				}
			}
			if dup {
				continue
			}
			seen = append(seen, feat)
			section := p.Section
			if section == "" {
				section = claudeImportSection
			}
			out = append(out, importCandidate{Text: p.Text, Section: section, File: f.File, Line: p.Line})
		}
	}
	return out
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

// planImport lists Claude's facts (claudeFacts) in order, each either to
// stage (why "") or skipped as inMemory: a duplicate (duplicate's rule) of
// a page of the memory file, of a fact staged and not yet flushed (pending),
// or of a fact this import stages before it. memory is not changed.
//
//	memory "- Use pnpm, not npm"; candidates "use pnpm not npm", "Deploy on Fridays"
//	  => [{"use pnpm not npm" why "already in memory"} {"Deploy on Fridays" why ""}]
func planImport(cands []importCandidate, memory []page, pending []Op) []importItem {
	// Each text is prepared once: duplicate prepares every page again for
	// each candidate (1,000 facts took 16 s).
	known := make([]similarity.Features, 0, len(memory)+len(pending)+len(cands))
	for i := range memory {
		if memory[i].Kind == kindFact || memory[i].Kind == kindPointer {
			known = append(known, similarity.Prepare(memory[i].Text))
		}
	}
	for _, op := range pending {
		known = append(known, similarity.Prepare(op.Text))
	}
	plan := make([]importItem, 0, len(cands))
	for _, c := range cands {
		it := importItem{where: c.File + ":" + numstr.Itoa(c.Line), section: c.Section, text: c.Text}
		f := similarity.Prepare(c.Text)
		for k := range known {
			if sameNote(&f, &known[k]) {
				it.why = inMemory
				break
			}
		}
		if it.why == "" {
			known = append(known, f)
		}
		plan = append(plan, it)
	}
	return plan
}

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
