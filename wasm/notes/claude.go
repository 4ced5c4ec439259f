package notes

import (
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/similarity"
)

// ClaudeProjectDirs returns where Claude Code keeps the auto-memory of the
// project at root, most likely first: home/.claude/projects/<slug>/memory,
// where the slug is root with every character outside [A-Za-z0-9] replaced
// by '-', then the older slug that only replaces '/'. Duplicates are removed
// and a trailing slash of home or root is ignored. Root and home are absolute
// slash paths.
//
//	ClaudeProjectDirs("/home/ada", "/home/ada/src/my.app")
//	  => ["/home/ada/.claude/projects/-home-ada-src-my-app/memory",
//	      "/home/ada/.claude/projects/-home-ada-src-my.app/memory"]
//	ClaudeProjectDirs("/home/ada", "/home/ada/src/app")
//	  => ["/home/ada/.claude/projects/-home-ada-src-app/memory"]
func ClaudeProjectDirs(home, root string) []string {
	home, root = trimSlash(home), trimSlash(root)
	var slug, old strings.Builder
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

// ImportCandidate is one fact found in Claude Code's memory.
type ImportCandidate struct {
	Text    string // the fact, as the bullet to stage
	Section string // the section to stage it under
	File    string // the Claude memory file it came from, by base name
	Line    int    // its 1-based line there
}

// ClaudeImportSection is the section of an imported fact that sat under no
// "##" heading.
const ClaudeImportSection = "Imported from Claude Code"

// maxImportFact is the longest fact imported, in characters: the writeback
// limit of decision record 005. A longer one belongs in a topic file, which a
// person should write, not an importer.
const maxImportFact = 500

// ClaudeFacts returns the facts of Claude Code's memory files in order:
// every Fact page (not pointers, headings or text) of each file, with its
// Section, or ClaudeImportSection when it has none. files are already parsed;
// each Doc's File is the file's base name, MEMORY.md first, then topic files
// in name order (the caller orders them). Facts longer than 500 characters
// are skipped, and so are facts that duplicate an earlier candidate
// (Duplicate's rule), so a fact Claude repeated in MEMORY.md and a topic file
// is staged once, from MEMORY.md.
//
//	MEMORY.md: "- [Build](build.md) — quirks", "- Use pnpm, not npm"
//	build.md:  "## Quirks", "- use pnpm not npm", "- sccache breaks -Werror"
//	ClaudeFacts(…) => [{"Use pnpm, not npm" "Imported from Claude Code" MEMORY.md 2}
//	                   {"sccache breaks -Werror" "Quirks" build.md 3}]
func ClaudeFacts(files []Doc) []ImportCandidate {
	var out []ImportCandidate
	var seen []similarity.Features // prepared once per candidate, not once per comparison
	for _, f := range files {
		for i := range f.Pages {
			p := &f.Pages[i]
			if p.Kind != Fact || p.Text == "" || utf8.RuneCountInString(p.Text) > maxImportFact {
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
				section = ClaudeImportSection
			}
			out = append(out, ImportCandidate{Text: p.Text, Section: section, File: f.File, Line: p.Line})
		}
	}
	return out
}
