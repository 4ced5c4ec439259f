package notes

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// ignoresLocalCases are .gitignore texts and what ignoresLocal says of them;
// FuzzIgnoresLocal starts from them.
var ignoresLocalCases = []struct {
	name, gitignore string
	ignored         bool
	pattern         string
}{
	{"no .gitignore text", "", false, ""},
	{"the line /memory gitignore adds", "/.pi/memory/MEMORY.local.md\n", true, "/.pi/memory/MEMORY.local.md"},
	{"the path without a leading slash", ".pi/memory/MEMORY.local.md", true, ".pi/memory/MEMORY.local.md"},
	{"the file's name matches at any depth", "MEMORY.local.md\n", true, "MEMORY.local.md"},
	{"a glob of the name", "node_modules/\n*.local.md\n", true, "*.local.md"},
	{"a folder on its way, as a name", "memory/\n", true, "memory/"},
	{"the .pi folder, anchored", "/.pi/\n", true, "/.pi/"},
	{"a glob of the folder's content", ".pi/*\n", true, ".pi/*"},
	{"the memory folder by its path", ".pi/memory\n", true, ".pi/memory"},
	{"the first matching line is named", "*.md\n.pi/\n", true, "*.md"},
	{"a line is trimmed, CRLF included", "dist\r\n  *.local.md  \r\n", true, "*.local.md"},
	{"a comment ignores nothing", "# .pi/memory/MEMORY.local.md\n", false, ""},
	{"a negation is skipped, not applied", "!MEMORY.local.md\n", false, ""},
	{"a path starts at the root", "memory/MEMORY.local.md\n", false, ""},
	{"the shared index is not the personal file", ".pi/memory/MEMORY.md\n*.log\n", false, ""},
	{"a lone slash is no pattern", "/\n//\n", false, ""},
	{"a pattern path.Match cannot read matches nothing", "[\n", false, ""},
	{"a later line still counts after an unreadable one", "[\n.pi/\n", true, ".pi/"},
}

func TestIgnoresLocalNamesTheLineThatIgnoresThePersonalNotes(t *testing.T) {
	for _, tt := range ignoresLocalCases {
		t.Run(tt.name, func(t *testing.T) {
			ignored, pattern := ignoresLocal(tt.gitignore)
			require.Equal(t, tt.ignored, ignored, "ignoresLocal(%q)", tt.gitignore)
			require.Equal(t, tt.pattern, pattern, "ignoresLocal(%q)", tt.gitignore)
		})
	}
}

func TestGitignoreLineStartsOnALineOfItsOwn(t *testing.T) {
	const line = "/.pi/memory/MEMORY.local.md\n"
	tests := []struct {
		name, gitignore, want string
	}{
		{"no .gitignore yet", "", line},
		{"a file ending in a newline", "*.log\n", line},
		{"a file whose last line has no newline", "*.log", "\n" + line},
		{"a CRLF file", "*.log\r\n", line},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, gitignoreLine(tt.gitignore), "gitignoreLine(%q)", tt.gitignore)
		})
	}
}

// FuzzIgnoresLocal: a .gitignore is a file a person edits, so any text is
// read without panicking; a pattern named is one of its lines, trimmed, and
// neither a comment nor a negation; lines after the one that matched change
// nothing; and whatever the text, appending gitignoreLine makes it ignore
// the personal notes (what /memory gitignore promises).
func FuzzIgnoresLocal(f *testing.F) {
	for _, tt := range ignoresLocalCases {
		f.Add(tt.gitignore)
	}
	f.Add("**/MEMORY.local.md\n\\#x\n[a-\n*\x00\n\xff\xfe\n")
	f.Fuzz(func(t *testing.T, gitignore string) {
		ignored, pattern := ignoresLocal(gitignore)
		if !ignored {
			require.Equal(t, "", pattern, "no match names no pattern in %q", gitignore)
		} else {
			require.True(t, pattern != "" && pattern[0] != '#' && pattern[0] != '!', "pattern %q of %q", pattern, gitignore)
			line := false
			for _, l := range strings.Split(gitignore, "\n") {
				line = line || strings.TrimSpace(l) == pattern
			}
			require.True(t, line, "pattern %q is no line of %q", pattern, gitignore)
			again, same := ignoresLocal(gitignore + "\n!MEMORY.local.md\n*")
			require.True(t, again && same == pattern, "lines after the match changed it to %v %q in %q", again, same, gitignore)
		}
		added, _ := ignoresLocal(gitignore + gitignoreLine(gitignore))
		require.True(t, added, "appending gitignoreLine to %q does not ignore the personal notes", gitignore)
	})
}
