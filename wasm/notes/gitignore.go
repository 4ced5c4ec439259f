package notes

import (
	"path"
	"strings"
)

// The personal notes file (MEMORY.local.md) is meant to stay out of git: these
// rules read a project's .gitignore for it and say what to append when it is
// not there. The driver reads and appends the file; it never edits a line.

// ignoresLocal reports whether the text of a project's .gitignore (the one at
// its root) ignores the personal notes file, .pi/memory/MEMORY.local.md, and
// by which line: the pattern, trimmed, as the person wrote it. It understands
// the usual forms of a pattern (a path, a folder, a "*" glob, a leading "/"),
// skips comments and negations ("!…"), and takes a pattern path.Match cannot
// read to match nothing.
//
//	ignoresLocal("*.log\n/.pi/memory/MEMORY.local.md\n") => true, "/.pi/memory/MEMORY.local.md"
//	ignoresLocal("*.local.md\n")                         => true, "*.local.md" (a name matches at any depth)
//	ignoresLocal(".pi/\n")                               => true, ".pi/" (a folder on its way)
//	ignoresLocal("memory/MEMORY.local.md\n")             => false, "" (a path starts at the root)
func ignoresLocal(gitignore string) (bool, string) {
	rel := path.Join(notesProjectDir, notesLocal)
	for _, raw := range strings.Split(gitignore, "\n") {
		p := strings.TrimSpace(raw)
		if p == "" || p[0] == '#' || p[0] == '!' {
			continue
		}
		pat := strings.TrimPrefix(strings.TrimSuffix(p, "/"), "/")
		if pat == "" {
			continue
		}
		if !strings.Contains(pat, "/") {
			// A name pattern matches at any depth: the file or a folder on its way.
			for _, part := range strings.Split(rel, "/") {
				if ok, _ := path.Match(pat, part); ok {
					return true, p
				}
			}
			continue
		}
		for at := rel; at != "." && at != ""; at = path.Dir(at) {
			if ok, _ := path.Match(pat, at); ok {
				return true, p
			}
		}
	}
	return false, ""
}

// gitignoreLine is what to append to a .gitignore holding gitignore ("" when
// there is none) so that it ignores the personal notes file: the file's path
// from the root, on a line of its own.
//
//	gitignoreLine("")        => "/.pi/memory/MEMORY.local.md\n"
//	gitignoreLine("*.log")   => "\n/.pi/memory/MEMORY.local.md\n"
//	gitignoreLine("*.log\n") => "/.pi/memory/MEMORY.local.md\n"
func gitignoreLine(gitignore string) string {
	line := "/" + path.Join(notesProjectDir, notesLocal) + "\n"
	if gitignore != "" && gitignore[len(gitignore)-1] != '\n' {
		line = "\n" + line
	}
	return line
}
