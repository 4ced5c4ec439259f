package notes

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Remembering a fact in one step (/memory remember, the memory_remember
// tool): which scope the words name, and what the person or the model is
// told. The driver (driver_remember.go) runs the checks of writeback.go
// under the scope's lock and writes at once.

// rememberWords reads /memory remember's words and its --scope flag into a
// scope ("" for the default) and the fact. The rule, documented in the
// README:
//
//   - --scope S names the scope; every word is then the fact.
//   - Otherwise a first word that is exactly "global", "project" or "local"
//     (lower case, with more words after it) is the scope, as before the
//     scope became optional. "Project builds with make" is a fact: a capital
//     or a single word is never taken for the scope. Quote the fact
//     ("project names are kebab-case") or use --scope to start a fact with
//     one of the three words.
//
// usage is a usage error ("" when the words are fine).
//
//	rememberWords(["I", "always", "use", "pnpm"], "")   => "", "I always use pnpm", ""
//	rememberWords(["local", "My", "editor", "is", "Helix"], "") => "local", "My editor is Helix", ""
//	rememberWords(["project"], "")                       => "", "project", ""
//	rememberWords(["global", "Prefer", "rebase"], "project") => "project", "global Prefer rebase", ""
func rememberWords(words []string, flag string) (scope, fact, usage string) {
	if flag != "" {
		switch s := strings.ToLower(flag); s {
		case scopeGlobal, scopeProject, scopeLocal:
			scope = s
		default:
			return "", "", "/memory remember: --scope must be global, project or local, not " + strconv.Quote(flag)
		}
	} else if len(words) > 1 && isScopeWord(words[0]) {
		scope, words = words[0], words[1:]
	}
	fact = strings.TrimSpace(strings.Join(words, " "))
	if fact == "" {
		return "", "", "/memory remember needs the fact to remember: /memory remember [--scope global|project|local] <text>"
	}
	return scope, fact, ""
}

func isScopeWord(w string) bool {
	return w == scopeGlobal || w == scopeProject || w == scopeLocal
}

// defaultScope is where a fact goes when no scope is named: the project
// when this session may write it (trusted), else global memory.
func defaultScope(projectWritable bool) string {
	if projectWritable {
		return scopeProject
	}
	return scopeGlobal
}

// remembered is what one remember did: written, or refused and why.
type remembered struct {
	Written bool
	Scope   string // the scope it went to (or was refused for)
	File    string // the memory file, absolute
	Display string // the file as a person finds it: ".pi/memory/MEMORY.md", "~/.pi/agent/memory/MEMORY.md"
	Line    int    // written: the new bullet's line; a duplicate: the line of the entry it repeats
	Section string // written: the section it went under
	Text    string // the fact as written (redacted, repaired)
	Repair  string // written: what was repaired ("joined its lines"), "" when nothing
	Warning string // written, but worth saying (the index is over its caps)
	Reason  string // refused: duplicate, secret, too_long, multiline, index_cap, invalid
	Detail  string // refused: why, in words
	Same    string // a duplicate: the entry it repeats, as it reads
}

// factQuoteRunes is how much of a fact a one-line answer quotes.
const factQuoteRunes = 80

// quoteFact is a fact as answers quote it: one line, cut, in curly quotes.
func quoteFact(s string) string {
	return "“" + cutRunes(text.OneLine(s), factQuoteRunes) + "”"
}

// say is what /memory remember and memory_remember answer: one line, or two
// with a warning. A duplicate is not an error: the fact is already there.
// No internal id appears; the file is named as a person opens it.
//
//	written: `Remembered in project memory: .pi/memory/MEMORY.md, line 7, section "Build".`
//	duplicate: `Already remembered in .pi/memory/MEMORY.md, line 3: “Run make test before pushing”. Nothing was written.`
//	refused: `Not remembered (secret): the fact contains what looks like a secret (…).`
func (r *remembered) say() string {
	switch {
	case r.Written:
		s := "Remembered in " + scopeNoun(r.Scope) + ": " + r.Display + ", line " + numstr.Itoa(r.Line) + ", section " + strconv.Quote(r.Section) + "."
		if r.Repair != "" {
			s += " (" + r.Repair + ")"
		}
		if r.Warning != "" {
			s += "\nWarning: " + r.Warning + "."
		}
		return s
	case r.Reason == "duplicate":
		return "Already remembered in " + r.Display + ", line " + numstr.Itoa(r.Line) + ": " + quoteFact(r.Same) + ". Nothing was written."
	}
	return "Not remembered (" + r.Reason + "): " + strings.TrimSuffix(r.Detail, ".") + "."
}
