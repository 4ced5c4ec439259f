package notes

import (
	"slices"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// ignoresLocalCases are .gitignore texts and what ignoresLocal says of them,
// each what git check-ignore says of .pi/memory/MEMORY.local.md under that
// .gitignore (git 2.39; PIMEM_CHECK_GIT=1 checks them again, see
// gitignore_git_test.go); FuzzIgnoresLocal starts from them.
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
	{"an ignored folder decides before the file", "*.md\n.pi/\n", true, ".pi/"},
	{"spaces and CR at the end are dropped", "dist\r\n*.local.md  \r\n", true, "*.local.md"},
	{"spaces at the start are part of the pattern", "dist\r\n  *.local.md  \r\n", false, ""},
	{"an escaped space at the end stays", "MEMORY.local.md\\ \n", false, ""},
	{"a tab at the end stays", ".pi/memory/MEMORY.local.md\t\n", false, ""},
	{"a comment ignores nothing", "# .pi/memory/MEMORY.local.md\n", false, ""},
	{"a comment only at the start of a line", "MEMORY.local.md # mine\n", false, ""},
	{"an escaped # is a name", "\\#MEMORY.local.md\n", false, ""},
	{"a negation alone ignores nothing", "!MEMORY.local.md\n", false, ""},
	{"a path starts at the root", "memory/MEMORY.local.md\n", false, ""},
	{"the shared index is not the personal file", ".pi/memory/MEMORY.md\n*.log\n", false, ""},
	{"a lone slash is no pattern", "/\n//\n", false, ""},
	{"an unclosed [ matches nothing", "[\n", false, ""},
	{"a later line still counts after an unreadable one", "[\n.pi/\n", true, ".pi/"},
	{"a byte order mark is not part of the first line", "\ufeff/.pi/memory/MEMORY.local.md\n", true, "/.pi/memory/MEMORY.local.md"},
	{"a line ends at a NUL byte", "*.local.md\x00junk\n", true, "*.local.md"},
	{"a trailing backslash matches nothing", "MEMORY.local.md\\\n", false, ""},
	{"an escaped letter is the letter", "MEMORY.local.m\\d\n", true, "MEMORY.local.m\\d"},
	{"an escaped slash is a slash", ".pi\\/memory/MEMORY.local.md\n", true, ".pi\\/memory/MEMORY.local.md"},

	// A leading slash anchors at the .gitignore's folder (it matched at any depth).
	{"/memory is only at the root", "/memory\n", false, ""},
	{"/MEMORY.local.md is only at the root", "/MEMORY.local.md\n", false, ""},
	{"a slash in the middle anchors too", "*/MEMORY.local.md\n", false, ""},
	{"a star in an anchored path is one folder", "*/memory/\n", true, "*/memory/"},
	{"stars in each part", ".pi/*/*\n", true, ".pi/*/*"},
	{"a star within a part", ".pi/m*y/\n", true, ".pi/m*y/"},
	{"a question mark", ".pi/mem?ry/*.md\n", true, ".pi/mem?ry/*.md"},

	// "**" crosses folders (it was read as a name).
	{"**/ at the start matches at any depth", "**/MEMORY.local.md\n", true, "**/MEMORY.local.md"},
	{"**/ before a folder", "**/memory/\n", true, "**/memory/"},
	{"**/ before the whole path", "**/.pi/memory/MEMORY.local.md\n", true, "**/.pi/memory/MEMORY.local.md"},
	{"/** at the end takes everything inside", ".pi/**\n", true, ".pi/**"},
	{"/**/ in the middle is any number of folders", ".pi/**/MEMORY.local.md\n", true, ".pi/**/MEMORY.local.md"},
	{"/**/ in the middle is no folder too", ".pi/memory/**/MEMORY.local.md\n", true, ".pi/memory/**/MEMORY.local.md"},
	{"anchored /**/ and a star", "/.pi/**/*.md\n", true, "/.pi/**/*.md"},
	{"**/ many times is **/", "**/**/**/.pi/**/**/MEMORY.local.md\n", true, "**/**/**/.pi/**/**/MEMORY.local.md"},
	{"** alone", "**\n", true, "**"},
	{"/** alone", "/**\n", true, "/**"},
	{"**/ alone is every folder", "**/\n", true, "**/"},
	{"** not alone between slashes is a star", "a/**b/MEMORY.local.md\n", false, ""},
	{"** right after the literal start crosses folders (as git does)", ".p**/MEMORY.local.md\n", true, ".p**/MEMORY.local.md"},

	// "!" re-includes, and the last matching line wins (the first one won).
	{"a negation after the match", "*.local.md\n!MEMORY.local.md\n", false, ""},
	{"an anchored negation after the match", "*.local.md\n!/.pi/memory/MEMORY.local.md\n", false, ""},
	{"a match after the negation", "!MEMORY.local.md\n*.local.md\n", true, "*.local.md"},
	{"nothing in an ignored folder is re-included", ".pi/\n!.pi/memory/MEMORY.local.md\n", true, ".pi/"},
	{"a re-included folder", ".pi/*\n!.pi/memory/\n", false, ""},
	{"the allow-list idiom", ".pi/*\n!.pi/memory/\n.pi/memory/*\n!.pi/memory/MEMORY.md\n", true, ".pi/memory/*"},
	{"everything but folders, then the file", "*\n!*/\n!MEMORY.local.md\n", false, ""},
	{"everything but folders", "*\n!*/\n", true, "*"},
	{"a negation of everything", "!*\n", false, ""},

	// A pattern ending in "/" matches folders only (it matched the file).
	{"the file as a folder", "MEMORY.local.md/\n", false, ""},
	{"the file's path as a folder", "/.pi/memory/MEMORY.local.md/\n", false, ""},

	// Case and classes.
	{"case counts", "memory.local.md\n", false, ""},
	{"a range", "MEMORY.[a-z]ocal.md\n", true, "MEMORY.[a-z]ocal.md"},
	{"a negated class", "MEMORY.[!l]ocal.md\n", false, ""},
	{"a POSIX class", "[[:upper:]]EMORY.local.md\n", true, "[[:upper:]]EMORY.local.md"},
	{"an unknown POSIX class matches nothing", "[[:nope:]]EMORY.local.md\n", false, ""},
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
// read without panicking, and what ignoresLocal says keeps git's rules:
//   - a pattern named is one of its lines as git reads them, neither a
//     comment nor a negation, and it ignores the file on its own;
//   - a line appended that is not a negation never un-ignores the file, and
//     a negation appended never ignores it (the last matching line wins);
//   - whatever the text, appending gitignoreLine makes it ignore the
//     personal notes (what /memory gitignore promises).
func FuzzIgnoresLocal(f *testing.F) {
	for _, tt := range ignoresLocalCases {
		f.Add(tt.gitignore, "*.md")
	}
	f.Add("**/MEMORY.local.md\n\\#x\n[a-\n*\x00\n\xff\xfe\n", "!.pi/")
	f.Add(".pi/\n", "!**")
	f.Add("*.md\n", "[[:alpha:]-z]*")
	f.Fuzz(func(t *testing.T, gitignore, line string) {
		ignored, pattern := ignoresLocal(gitignore)
		if !ignored {
			require.Equal(t, "", pattern, "no match names no pattern in %q", gitignore)
		} else {
			require.True(t, pattern != "" && pattern[0] != '#' && pattern[0] != '!', "pattern %q of %q", pattern, gitignore)
			require.True(t, slices.Contains(gitignoreLines(gitignore), pattern), "pattern %q is no line of %q", pattern, gitignore)
			alone, same := ignoresLocal(pattern + "\n")
			require.True(t, alone && same == pattern, "pattern %q of %q alone: %v %q", pattern, gitignore, alone, same)
		}
		line = strings.ReplaceAll(line, "\n", "")
		after, _ := ignoresLocal(gitignore + "\n" + line + "\n")
		if negation := strings.HasPrefix(line, "!"); negation {
			require.True(t, ignored || !after, "the negation %q ignores the notes after %q", line, gitignore)
		} else {
			require.True(t, !ignored || after, "the line %q un-ignores the notes after %q", line, gitignore)
		}
		added, _ := ignoresLocal(gitignore + gitignoreLine(gitignore))
		require.True(t, added, "appending gitignoreLine to %q does not ignore the personal notes", gitignore)
	})
}
