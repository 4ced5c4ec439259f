package notes

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestClaudeProjectDirsSlugsTheRootLikeClaudeCode(t *testing.T) {
	const projects = "/home/ada/.claude/projects/"
	tests := []struct {
		name, home, root string
		want             []string
	}{
		{"dots, new slug first", "/home/ada", "/home/ada/src/my.app",
			[]string{projects + "-home-ada-src-my-app/memory", projects + "-home-ada-src-my.app/memory"}},
		{"plain path has one slug", "/home/ada", "/home/ada/src/app",
			[]string{projects + "-home-ada-src-app/memory"}},
		{"spaces and underscores", "/home/ada", "/home/ada/My Projects/pi_memory",
			[]string{projects + "-home-ada-My-Projects-pi-memory/memory", projects + "-home-ada-My Projects-pi_memory/memory"}},
		{"unicode letters are one dash each", "/home/ada", "/home/ada/café/日本",
			[]string{projects + "-home-ada-caf----/memory", projects + "-home-ada-café-日本/memory"}},
		{"a character outside the BMP is two dashes", "/home/ada", "/home/ada/🚀",
			[]string{projects + "-home-ada---/memory", projects + "-home-ada-🚀/memory"}},
		{"trailing slashes ignored", "/home/ada/", "/home/ada/src/app/",
			[]string{projects + "-home-ada-src-app/memory"}},
		{"digits and case kept", "/home/ada", "/srv/App2/V3",
			[]string{projects + "-srv-App2-V3/memory"}},
		{"the root directory", "/home/ada", "/",
			[]string{projects + "-/memory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClaudeProjectDirs(tt.home, tt.root)
			require.Equal(t, tt.want, got, "ClaudeProjectDirs(%q, %q)", tt.home, tt.root)
		})
	}
}

func claudeMemory() []Doc {
	return []Doc{
		{File: "MEMORY.md", Pages: []Page{
			page(Heading, 1, "Memory", ""),
			page(Pointer, 3, "[Build quirks](build.md) — sccache breaks -Werror", ""),
			page(Fact, 4, "Use pnpm, not npm", ""),
			page(Text, 6, "Claude keeps these notes up to date.", ""),
			page(Heading, 8, "Testing", ""),
			page(Fact, 9, "Run the tests with -race", "Testing"),
		}},
		{File: "build.md", Pages: []Page{
			page(Heading, 1, "Build quirks", ""),
			page(Fact, 2, "use pnpm not npm", ""),
			page(Heading, 4, "Compiler", ""),
			page(Fact, 5, "sccache breaks -Werror", "Compiler"),
			page(Fact, 6, "Run tests with -race", "Compiler"),
		}},
		{File: "deploy.md", Pages: []Page{
			page(Fact, 1, "Deploys go out on Tuesdays", ""),
		}},
	}
}

func TestClaudeFactsKeepsFactsInOrderWithTheirSections(t *testing.T) {
	got := ClaudeFacts(claudeMemory())
	want := []ImportCandidate{
		{Text: "Use pnpm, not npm", Section: "Imported from Claude Code", File: "MEMORY.md", Line: 4},
		{Text: "Run the tests with -race", Section: "Testing", File: "MEMORY.md", Line: 9},
		{Text: "sccache breaks -Werror", Section: "Compiler", File: "build.md", Line: 5},
		{Text: "Deploys go out on Tuesdays", Section: "Imported from Claude Code", File: "deploy.md", Line: 1},
	}
	require.Equal(t, want, got, "ClaudeFacts")
}

func TestClaudeFactsSkipsWhatIsNotAFact(t *testing.T) {
	docs := []Doc{{File: "MEMORY.md", Pages: []Page{
		page(Heading, 1, "Use pnpm", ""),
		page(Pointer, 2, "[Use pnpm](pnpm.md)", ""),
		page(Text, 3, "Use pnpm", ""),
		page(Fact, 4, "", ""),
		page(Fact, 5, strings.Repeat("é", 501), ""),
		page(Fact, 6, strings.Repeat("é", 500), ""),
	}}}
	got := ClaudeFacts(docs)
	require.True(t, len(got) == 1 && got[0].Line == 6, "ClaudeFacts = %+v, want only the 500-character fact on line 6", got)
}

func TestClaudeFactsDropsDuplicatesOfEarlierCandidatesOnly(t *testing.T) {
	docs := []Doc{
		{File: "MEMORY.md", Pages: []Page{page(Fact, 2, "Use pnpm, not npm", "")}},
		{File: "tools.md", Pages: []Page{
			page(Fact, 1, "use pnpm not npm!", "Tools"),
			page(Fact, 2, "Use Postgres as the primary DB", "Tools"),
			page(Fact, 3, "Use PostgreSQL for the primary database", "Tools"),
		}},
	}
	got := ClaudeFacts(docs)
	want := []ImportCandidate{
		{Text: "Use pnpm, not npm", Section: "Imported from Claude Code", File: "MEMORY.md", Line: 2},
		{Text: "Use Postgres as the primary DB", Section: "Tools", File: "tools.md", Line: 2},
	}
	require.Equal(t, want, got, "ClaudeFacts")
	none := ClaudeFacts(nil)
	require.True(t, none == nil, "ClaudeFacts(nil) = %+v, want nil", none)
}

func ExampleClaudeProjectDirs() {
	for _, d := range ClaudeProjectDirs("/home/ada", "/home/ada/src/my.app") {
		fmt.Println(d)
	}
	// Output:
	// /home/ada/.claude/projects/-home-ada-src-my-app/memory
	// /home/ada/.claude/projects/-home-ada-src-my.app/memory
}

func ExampleClaudeFacts() {
	files := []Doc{
		{File: "MEMORY.md", Pages: []Page{
			{Kind: Pointer, Line: 1, Text: "[Build](build.md) — quirks"},
			{Kind: Fact, Line: 2, Text: "Use pnpm, not npm"},
		}},
		{File: "build.md", Pages: []Page{
			{Kind: Heading, Line: 1, Text: "Quirks", Level: 2},
			{Kind: Fact, Line: 2, Text: "use pnpm not npm", Section: "Quirks"},
			{Kind: Fact, Line: 3, Text: "sccache breaks -Werror", Section: "Quirks"},
		}},
	}
	for _, c := range ClaudeFacts(files) {
		fmt.Printf("%s:%d [%s] %s\n", c.File, c.Line, c.Section, c.Text)
	}
	// Output:
	// MEMORY.md:2 [Imported from Claude Code] Use pnpm, not npm
	// build.md:3 [Quirks] sccache breaks -Werror
}
