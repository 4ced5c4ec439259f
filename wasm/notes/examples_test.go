package notes

import (
	"strconv"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// These were the package's runnable examples of names it no longer exports;
// each checks what its example printed, value for value.

func TestParseTypesEachPageOfAMemoryFile(t *testing.T) {
	memory := "# Memory\n" +
		"\n" +
		"## Build\n" +
		"- Run `make wasm` before testing the extension,\n" +
		"  or pi loads the stale core from the last build\n" +
		"- [Build quirks](build.md) — sccache breaks -Werror\n" +
		"\n" +
		"```sh\n" +
		"make wasm\n" +
		"pi -e ./dist/extension.js --reload\n" +
		"```\n"
	type want struct {
		kind                kind
		line, lines         int
		section, link, text string
		min                 fidelity
		summary, pointer    string
	}
	wants := []want{
		{kindHeading, 1, 2, "", "", "Memory", formFull, "# Memory\n\n", "# Memory\n\n"},
		{kindHeading, 3, 1, "Build", "", "Build", formFull, "## Build\n", "## Build\n"},
		{kindFact, 4, 2, "Build", "", "Run `make wasm` before testing the extension, or pi loads the stale core from the last build", formPointer,
			"- Run `make wasm` before testing the extension, or pi loads the stale core from the last build\n",
			"- Run `make wasm` before testing the … (MEMORY.md:4)\n"},
		{kindPointer, 6, 2, "Build", "build.md", "[Build quirks](build.md) — sccache breaks -Werror", formPointer,
			"- [Build quirks](build.md) — sccache breaks -Werror\n\n", "- [Build quirks](build.md)\n\n"},
		{kindText, 8, 4, "Build", "", "make wasm pi -e ./dist/extension.js --reload", formPointer,
			"[code block, 4 lines at MEMORY.md:8]\n", "[… 4 lines at MEMORY.md:8]\n"},
	}
	pages := parse("project", []byte(memory))
	require.Equal(t, len(wants), len(pages), "pages of %q", memory)
	for i, w := range wants {
		t.Run(strconv.Itoa(w.line), func(t *testing.T) {
			p := &pages[i]
			got := want{p.Kind, p.Line, p.Lines, p.Section, p.Link, p.Text, p.minForm(), p.form(formSummary, "MEMORY.md"), p.form(formPointer, "MEMORY.md")}
			require.Equal(t, w, got, "page %d", i)
		})
	}
}

func TestFormShowsLessAsFidelityDrops(t *testing.T) {
	p := parse("global", []byte("- Squash merge every pull request\n  unless it carries a database migration;\n  those get a merge commit so the migration history stays readable\n\n"))[0]
	tests := []struct {
		f    fidelity
		name string
		want string
	}{
		{formFull, "full", "- Squash merge every pull request\n  unless it carries a database migration;\n  those get a merge commit so the migration history stays readable\n\n"},
		{formSummary, "summary", "- Squash merge every pull request unless it carries a database migration; those get a merge commit so the migration…\n\n"},
		{formPointer, "pointer", "- Squash merge every pull request unless … (MEMORY.md:1)\n\n"},
		{formDropped, "dropped", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.name, tt.f.String())
			require.Equal(t, tt.want, p.form(tt.f, "MEMORY.md"))
		})
	}
}

func TestParseConfigTakesTheProjectsValueOverTheGlobals(t *testing.T) {
	c := parseConfig("g.json", []byte(`{"maxInjectLines": 50}`), "p.json", []byte(`{"maxInjectLines": 80}`))
	require.True(t, c.MaxInjectLines == 80 && c.MaxInjectBytes == 8192 && len(c.Warnings) == 0, "ParseConfig = %d %d %q", c.MaxInjectLines, c.MaxInjectBytes, c.Warnings)
}

func TestCutSaysHowManyLinesItLeftOutAndWhere(t *testing.T) {
	text, cut := cut("a\nb\nc\n", 2, 100, "MEMORY.md")
	require.Equal(t, "a\n[2 more lines not shown: read MEMORY.md]\n", text)
	require.True(t, cut, "Cut reports the cut")
}

func TestCheckWritesANewFactUnderItsSectionAndNotADuplicate(t *testing.T) {
	src := []byte("# Memory\n\n## Notes\n- Use pnpm, not npm\n")
	pages := parse("project", src)
	rules := rules{Strict: true, MaxLines: 200, MaxBytes: 8192, File: ".pi/memory/MEMORY.md"}

	o := check("Run make test before pushing", "Notes", src, pages, rules)
	require.True(t, o.Commit && o.Line == 5, "Check = %v line %d", o.Commit, o.Line)
	require.Equal(t, "# Memory\n\n## Notes\n- Use pnpm, not npm\n- Run make test before pushing\n", string(o.Out))
	again := check("use pnpm, not npm!", "Notes", src, pages, rules)
	require.True(t, !again.Commit && again.Reason == "duplicate" && pages[again.Duplicate].Text == "Use pnpm, not npm", "Check = %v %q %d", again.Commit, again.Reason, again.Duplicate)
}

func TestOverCapsNamesEachCapPassedOrNothing(t *testing.T) {
	tests := []struct {
		lines, bytes int
		want         string
	}{
		{250, 9000, "250 lines, over maxInjectLines 200, and 9000 bytes, over maxInjectBytes 8192"},
		{10, 100, ""},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, overCaps(tt.lines, tt.bytes, 200, 8192), "OverCaps(%d, %d)", tt.lines, tt.bytes)
	}
}

func TestInsertPutsTheFactLastInItsSection(t *testing.T) {
	out, line := insert([]byte("## Build\n- make\n\n## Style\n- tabs\n"), "Build", "make test")
	require.Equal(t, "## Build\n- make\n- make test\n\n## Style\n- tabs\n", string(out))
	require.Equal(t, 3, line)
}

func TestClaudeFactsStagesARepeatedFactOnceFromTheIndex(t *testing.T) {
	files := []doc{
		{File: "MEMORY.md", Pages: []page{
			{Kind: kindPointer, Line: 1, Text: "[Build](build.md) — quirks"},
			{Kind: kindFact, Line: 2, Text: "Use pnpm, not npm"},
		}},
		{File: "build.md", Pages: []page{
			{Kind: kindHeading, Line: 1, Text: "Quirks", Level: 2},
			{Kind: kindFact, Line: 2, Text: "use pnpm not npm", Section: "Quirks"},
			{Kind: kindFact, Line: 3, Text: "sccache breaks -Werror", Section: "Quirks"},
		}},
	}
	require.Equal(t, []importCandidate{
		{Text: "Use pnpm, not npm", Section: "Imported from Claude Code", File: "MEMORY.md", Line: 2},
		{Text: "sccache breaks -Werror", Section: "Quirks", File: "build.md", Line: 3},
	}, claudeFacts(files))
}

func TestDuplicateIsExactOrNearButNeverAHeading(t *testing.T) {
	pages := []page{
		{Kind: kindHeading, Line: 1, Text: "Build"},
		{Kind: kindFact, Line: 3, Text: "Run the tests with -race"},
	}
	tests := []struct {
		text string
		want int
	}{
		{"run the tests with -race!", 1}, // the same after Normalize
		{"Run tests with -race", 1},      // a near-duplicate
		{"Build", -1},                    // only a heading says it
		{"Deploy on Fridays", -1},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, duplicate(tt.text, pages), "Duplicate(%q)", tt.text)
	}
}

func TestParseQueryReadsWordsPhrasesAndAScope(t *testing.T) {
	q, err := parseQuery(`Tests "build cache" scope:project`)
	require.NoError(t, err)
	require.Equal(t, []string{"test"}, q.Words)
	require.Equal(t, [][]string{{"build", "cach"}}, q.Phrases)
	require.Equal(t, "project", q.Scope)
	_, err = parseQuery("scope:team sccache")
	require.Equal(t, `unknown scope "team": write scope:global, scope:project or scope:local`, err.Error())
}

func TestRecallRanksMatchesAcrossScopes(t *testing.T) {
	docs := []doc{
		{Scope: "global", File: "MEMORY.md", Pages: []page{
			{Kind: kindFact, Line: 5, Text: "Tests in Go repos run with -race"},
		}},
		{Scope: "project", File: "MEMORY.md", Pages: []page{
			{Kind: kindHeading, Line: 1, Text: "Testing"},
			{Kind: kindFact, Line: 3, Text: "Run tests with make test-go"},
			{Kind: kindFact, Line: 4, Text: "Deploys need a tag"},
		}},
	}
	q, _ := parseQuery("testing")
	var got []string
	for _, h := range recall(q, docs, 10) {
		got = append(got, h.Scope+" "+h.File+":"+strconv.Itoa(h.Page.Line)+" "+strconv.FormatFloat(h.Score, 'f', 2, 64)+" "+h.Page.Text)
	}
	require.Equal(t, []string{
		"project MEMORY.md:3 0.70 Run tests with make test-go",
		"global MEMORY.md:5 0.46 Tests in Go repos run with -race",
	}, got)
}
