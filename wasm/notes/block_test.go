package notes

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// With no memory file, the system prompt said "Each MEMORY.md index is shown
// below" with none shown: the preamble says the indexes are below only when
// one is, and gives the same bytes each time for the same files.
func TestThePreambleClaimsIndexesOnlyWhenOneIsShown(t *testing.T) {
	where := places{Global: "~/.pi/agent/memory", Project: ".pi/memory", Local: ".pi/memory/MEMORY.local.md"}
	cfg := defaultConfig()
	fact := []byte("## Build\n- Run make test before pushing\n")
	for _, tc := range []struct {
		name  string
		files []blockFile
		shown bool
	}{
		{"no file", nil, false},
		{"empty files", []blockFile{{Scope: scopeGlobal, Display: "~/.pi/agent/memory/MEMORY.md", Data: []byte("  \n")}, {Scope: scopeProject, Display: ".pi/memory/MEMORY.md"}}, false},
		{"a project index", []blockFile{{Scope: scopeProject, Display: ".pi/memory/MEMORY.md", Data: fact, Pages: parse(scopeProject, fact)}}, true},
	} {
		b := renderBlock(tc.files, where, cfg, 1<<16)
		require.Equal(t, tc.shown, strings.Contains(b.Text, "index is shown below"), "%s:\n%s", tc.name, b.Text)
		require.Equal(t, !tc.shown, strings.Contains(b.Text, "No MEMORY.md holds anything yet."), "%s:\n%s", tc.name, b.Text)
		require.Equal(t, tc.shown, strings.Contains(b.Text, "\n### "), "%s: a heading only with a file:\n%s", tc.name, b.Text)
		require.Equal(t, b.Text, renderBlock(tc.files, where, cfg, 1<<16).Text, "%s: byte-stable", tc.name)
	}
}

// A MEMORY.md that is there but could not be read (over the size read, a
// FIFO) is not "nothing yet": the model is told it is not shown, so it does
// not take the memory for empty.
func TestThePreambleNamesAMemoryFileThatCouldNotBeRead(t *testing.T) {
	where := places{Global: "~/.pi/agent/memory", Project: ".pi/memory", Local: ".pi/memory/MEMORY.local.md", Unread: []string{".pi/memory/MEMORY.md"}}
	b := renderBlock(nil, where, defaultConfig(), 1<<16)
	require.NotContains(t, b.Text, "No MEMORY.md holds anything yet.")
	require.Contains(t, b.Text, "\n.pi/memory/MEMORY.md could not be read (the user is told why), so it is not shown: do not take it for empty. ")
	fact := []byte("- Use tabs\n")
	b = renderBlock([]blockFile{{Scope: scopeGlobal, Display: "~/.pi/agent/memory/MEMORY.md", Data: fact, Pages: parse(scopeGlobal, fact)}}, where, defaultConfig(), 1<<16)
	require.Contains(t, b.Text, "index is shown below")
	require.Contains(t, b.Text, ".pi/memory/MEMORY.md could not be read")
}
