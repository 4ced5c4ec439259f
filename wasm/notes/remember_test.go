package notes

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestRememberWordsTakeTheScopeOnlyFromAnExactFirstWordOrTheFlag(t *testing.T) {
	for _, tc := range []struct {
		name               string
		words              []string
		flag               string
		scope, fact, usage string
	}{
		{"no scope", []string{"I", "always", "use", "pnpm"}, "", "", "I always use pnpm", ""},
		{"a leading scope word", []string{"local", "My", "editor", "is", "Helix"}, "", "local", "My editor is Helix", ""},
		{"global", []string{"global", "Prefer", "rebase"}, "", "global", "Prefer rebase", ""},
		{"a capital is a fact", []string{"Project", "names", "are", "kebab-case"}, "", "", "Project names are kebab-case", ""},
		{"a scope word alone is the fact", []string{"project"}, "", "", "project", ""},
		{"a quoted fact is one word", []string{"project names are kebab-case"}, "", "", "project names are kebab-case", ""},
		{"the flag wins, every word is the fact", []string{"global", "state", "is", "banned"}, "local", "local", "global state is banned", ""},
		{"the flag in any case", []string{"x"}, "Global", "global", "x", ""},
		{"an unknown flag scope", []string{"x"}, "team", "", "", `/memory remember: --scope must be global, project or local, not "team"`},
		{"a scope and nothing else", []string{"project", " "}, "", "", "", "/memory remember needs the fact to remember: /memory remember [--scope global|project|local] <text>"},
		{"nothing", nil, "", "", "", "/memory remember needs the fact to remember: /memory remember [--scope global|project|local] <text>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scope, fact, usage := rememberWords(tc.words, tc.flag)
			require.Equal(t, tc.scope, scope)
			require.Equal(t, tc.fact, fact)
			require.Equal(t, tc.usage, usage)
		})
	}
}

func TestDefaultScopeIsTheProjectWhenItMayBeWritten(t *testing.T) {
	require.Equal(t, "project", defaultScope(true))
	require.Equal(t, "global", defaultScope(false))
}

// What a remember says names the file a person opens and never an
// internal id; a duplicate quotes the entry it repeats.
func TestRememberSaysWhereInPlainWords(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    remembered
		want string
	}{
		{"written", remembered{Written: true, Scope: "project", Display: ".pi/memory/MEMORY.md", Line: 7, Section: "Build"},
			`Remembered in project memory: .pi/memory/MEMORY.md, line 7, section "Build".`},
		{"personal notes, repaired", remembered{Written: true, Scope: "local", Display: ".pi/memory/MEMORY.local.md", Line: 3, Section: "Notes", Repair: "joined its lines"},
			`Remembered in your personal project notes: .pi/memory/MEMORY.local.md, line 3, section "Notes". (joined its lines)`},
		{"written over the caps", remembered{Written: true, Scope: "global", Display: "~/.pi/agent/memory/MEMORY.md", Line: 201, Section: "Notes", Warning: "it would be 201 lines"},
			"Remembered in global memory: ~/.pi/agent/memory/MEMORY.md, line 201, section \"Notes\".\nWarning: it would be 201 lines."},
		{"a duplicate", remembered{Reason: "duplicate", Display: ".pi/memory/MEMORY.md", Line: 3, Same: "Run make test   before pushing"},
			"Already remembered in .pi/memory/MEMORY.md, line 3: “Run make test before pushing”. Nothing was written."},
		{"a long duplicate is cut", remembered{Reason: "duplicate", Display: "M.md", Line: 1, Same: "word abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij"},
			"Already remembered in M.md, line 1: “word abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij…”. Nothing was written."},
		{"refused", remembered{Reason: "secret", Detail: "the fact contains what looks like a secret (github-token)."},
			"Not remembered (secret): the fact contains what looks like a secret (github-token)."},
	} {
		t.Run(tc.name, func(t *testing.T) { require.Equal(t, tc.want, tc.r.say()) })
	}
}
