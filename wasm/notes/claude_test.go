package notes

import (
	"github.com/pi-memory/pi-memory/wasm/similarity"
	"strconv"
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
			got := claudeProjectDirs(tt.home, tt.root)
			require.Equal(t, tt.want, got, "ClaudeProjectDirs(%q, %q)", tt.home, tt.root)
		})
	}
}

func claudeMemory() []doc {
	return []doc{
		{File: "MEMORY.md", Pages: []page{
			testPage(kindHeading, 1, "Memory", ""),
			testPage(kindPointer, 3, "[Build quirks](build.md) — sccache breaks -Werror", ""),
			testPage(kindFact, 4, "Use pnpm, not npm", ""),
			testPage(kindText, 6, "Claude keeps these notes up to date.", ""),
			testPage(kindHeading, 8, "Testing", ""),
			testPage(kindFact, 9, "Run the tests with -race", "Testing"),
		}},
		{File: "build.md", Pages: []page{
			testPage(kindHeading, 1, "Build quirks", ""),
			testPage(kindFact, 2, "use pnpm not npm", ""),
			testPage(kindHeading, 4, "Compiler", ""),
			testPage(kindFact, 5, "sccache breaks -Werror", "Compiler"),
			testPage(kindFact, 6, "Run tests with -race", "Compiler"),
		}},
		{File: "deploy.md", Pages: []page{
			testPage(kindFact, 1, "Deploys go out on Tuesdays", ""),
		}},
	}
}

// claudeFacts is an import plan's candidates, planned whole.
func claudeFacts(files []doc) []importCandidate {
	ip := newImportPlan(files, nil, nil)
	ip.step(1 << 30)
	return ip.cands
}

// planImport is an import plan's items for candidates given as they are
// (each is checked against memory and pending, not against the others:
// the plan has dropped a duplicate of an earlier one), planned whole.
func planImport(cands []importCandidate, memory []page, pending []Op) []importItem {
	ip := newImportPlan(nil, memory, pending)
	for _, c := range cands {
		ip.cands = append(ip.cands, c)
		ip.feats = append(ip.feats, similarity.Prepare(c.Text))
	}
	ip.step(1 << 30)
	return ip.items
}

// A plan made a little at a time (pi's event loop runs between the steps)
// is the plan made at once.
func TestAnImportPlannedInStepsIsThePlanMadeAtOnce(t *testing.T) {
	memory := []page{testPage(kindFact, 1, "Run the tests with -race", "")}
	pending := []Op{{Op: "stage", ID: "W-1", Text: "Deploys go out on Tuesdays"}}
	whole := newImportPlan(claudeMemory(), memory, pending)
	require.True(t, whole.step(1<<30), "planned at once")
	for _, work := range []int{0, 1, 9, 30} {
		ip := newImportPlan(claudeMemory(), memory, pending)
		steps := 0
		for !ip.step(work) {
			if steps++; steps > 1000 {
				t.Fatalf("work %d: no end", work)
			}
			work = max(work, 1)
		}
		require.Equal(t, whole.items, ip.items, "work %d", work)
		require.True(t, steps > 0 || work > 100, "work %d: planned in one step", work)
	}
	require.Equal(t, 4, len(whole.items))
	require.Equal(t, []string{"", inMemory, "", inMemory}, []string{whole.items[0].why, whole.items[1].why, whole.items[2].why, whole.items[3].why})
}

func TestClaudeFactsKeepsFactsInOrderWithTheirSections(t *testing.T) {
	got := claudeFacts(claudeMemory())
	want := []importCandidate{
		{Text: "Use pnpm, not npm", Section: "Imported from Claude Code", File: "MEMORY.md", Line: 4},
		{Text: "Run the tests with -race", Section: "Testing", File: "MEMORY.md", Line: 9},
		{Text: "sccache breaks -Werror", Section: "Compiler", File: "build.md", Line: 5},
		{Text: "Deploys go out on Tuesdays", Section: "Imported from Claude Code", File: "deploy.md", Line: 1},
	}
	require.Equal(t, want, got, "ClaudeFacts")
}

func TestClaudeFactsSkipsWhatIsNotAFact(t *testing.T) {
	docs := []doc{{File: "MEMORY.md", Pages: []page{
		testPage(kindHeading, 1, "Use pnpm", ""),
		testPage(kindPointer, 2, "[Use pnpm](pnpm.md)", ""),
		testPage(kindText, 3, "Use pnpm", ""),
		testPage(kindFact, 4, "", ""),
		testPage(kindFact, 5, strings.Repeat("é", 501), ""),
		testPage(kindFact, 6, strings.Repeat("é", 500), ""),
	}}}
	got := claudeFacts(docs)
	require.True(t, len(got) == 1 && got[0].Line == 6, "ClaudeFacts = %+v, want only the 500-character fact on line 6", got)
}

func TestClaudeFactsDropsDuplicatesOfEarlierCandidatesOnly(t *testing.T) {
	docs := []doc{
		{File: "MEMORY.md", Pages: []page{testPage(kindFact, 2, "Use pnpm, not npm", "")}},
		{File: "tools.md", Pages: []page{
			testPage(kindFact, 1, "use pnpm not npm!", "Tools"),
			testPage(kindFact, 2, "Use Postgres as the primary DB", "Tools"),
			testPage(kindFact, 3, "Use PostgreSQL for the primary database", "Tools"),
		}},
	}
	got := claudeFacts(docs)
	want := []importCandidate{
		{Text: "Use pnpm, not npm", Section: "Imported from Claude Code", File: "MEMORY.md", Line: 2},
		{Text: "Use Postgres as the primary DB", Section: "Tools", File: "tools.md", Line: 2},
	}
	require.Equal(t, want, got, "ClaudeFacts")
	none := claudeFacts(nil)
	require.True(t, none == nil, "ClaudeFacts(nil) = %+v, want nil", none)
}

func TestClaudeFilesReadsTheIndexFirstThenMarkdownByName(t *testing.T) {
	tests := []struct {
		name    string
		entries []string
		want    []string
	}{
		{"an empty folder still reads the index", nil, []string{"MEMORY.md"}},
		{"the index is read once, first", []string{"notes.md", "MEMORY.md", "build.md"}, []string{"MEMORY.md", "build.md", "notes.md"}},
		{"the extension in any case", []string{"Build.MD", "x.Md", "y.markdown"}, []string{"MEMORY.md", "Build.MD", "x.Md"}},
		{"folders and other files are not read", []string{"old.md/", "archive/", "notes.txt", "a.md.bak"}, []string{"MEMORY.md"}},
		{"names sort by bytes: capitals first", []string{"b.md", "a.md", "Z.md"}, []string{"MEMORY.md", "Z.md", "a.md", "b.md"}},
		{"only the index's exact name is the index", []string{"memory.md"}, []string{"MEMORY.md", "memory.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, claudeFiles(tt.entries), "claudeFiles(%q)", tt.entries)
		})
	}
}

func TestPlanImportSkipsWhatMemoryHoldsOrIsStaged(t *testing.T) {
	cand := func(file string, line int, text string) importCandidate {
		return importCandidate{Text: text, Section: claudeImportSection, File: file, Line: line}
	}
	memory := []page{
		testPage(kindHeading, 1, "Use pnpm", ""),
		testPage(kindFact, 2, "Use pnpm, not npm", ""),
		testPage(kindText, 3, "Deploys go out on Tuesdays", ""),
	}
	tests := []struct {
		name    string
		cands   []importCandidate
		memory  []page
		pending []Op
		skipped []string // where of the candidates skipped as in memory; the rest are staged
	}{
		{"nothing to import", nil, memory, nil, nil},
		{"a new fact is staged", []importCandidate{cand("MEMORY.md", 4, "Run the tests with -race")}, memory, nil, nil},
		{"a fact memory holds is skipped", []importCandidate{cand("MEMORY.md", 4, "use pnpm not npm!")}, memory, nil, []string{"MEMORY.md:4"}},
		{"a heading or text page holds no fact", []importCandidate{cand("MEMORY.md", 4, "Use pnpm"), cand("MEMORY.md", 5, "Deploys go out on Tuesdays")}, memory, nil, nil},
		{"a staged fact counts as held", []importCandidate{cand("build.md", 2, "sccache breaks -Werror")}, nil, []Op{{Op: "stage", ID: "W-1", Text: "sccache breaks -Werror"}}, []string{"build.md:2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept := append([]page(nil), tt.memory...)
			plan := planImport(tt.cands, tt.memory, tt.pending)
			require.Equal(t, len(tt.cands), len(plan), "one item per candidate")
			var skipped []string
			for i, it := range plan {
				c := tt.cands[i]
				require.True(t, it.where == c.File+":"+strconv.Itoa(c.Line) && it.section == c.Section && it.text == c.Text && it.id == "" && it.note == "", "item %d %+v does not say candidate %+v", i, it, c)
				switch it.why {
				case inMemory:
					skipped = append(skipped, it.where)
				case "":
				default:
					t.Fatalf("item %d: why %q", i, it.why)
				}
			}
			require.Equal(t, tt.skipped, skipped, "skipped as in memory")
			require.Equal(t, kept, tt.memory, "planImport changed memory's pages")
		})
	}
}

func TestPlanImportNeverWritesIntoMemorysArray(t *testing.T) {
	// A scope's pages are parsed into an array with room to spare; the plan
	// must not append into it.
	memory := make([]page, 1, 8)
	memory[0] = testPage(kindFact, 1, "Use pnpm, not npm", "")
	planImport([]importCandidate{{Text: "Deploy on Fridays", Section: "Ops", File: "MEMORY.md", Line: 1}}, memory, []Op{{Text: "Run make lint"}})
	require.Equal(t, page{}, memory[:2][1], "planImport appended into memory's array")
}

func TestImportTextSaysWhatWasStagedAndWhatWasSkipped(t *testing.T) {
	staged := importItem{where: "MEMORY.md:4", section: "Testing", text: "Run the tests with -race", id: "W-0000abcd"}
	noted := importItem{where: "build.md:2", section: "Build", text: "Use pnpm", id: "W-0000abce", note: "joined its lines"}
	held := importItem{where: "MEMORY.md:2", section: "Imported from Claude Code", text: "Use pnpm, not npm", why: inMemory}
	refused := importItem{where: "MEMORY.md:6", section: "Testing", text: "token: …", why: "secret: it looks like a secret"}
	const head = " from /h/.claude/projects/-p/memory (read only) for .pi/memory/MEMORY.md; "
	report := func(dry bool, staged, skipped []importItem) *importReport {
		return &importReport{dry: dry, source: "/h/.claude/projects/-p/memory", file: "/p/.pi/memory/MEMORY.md", display: ".pi/memory/MEMORY.md", staged: staged, skipped: skipped}
	}
	tests := []struct {
		name string
		r    *importReport
		want string
	}{
		{"no fact found", report(false, nil, nil), "Staged 0 facts" + head + "0 skipped."},
		{"a dry run stages nothing and says so", report(true, []importItem{{where: "MEMORY.md:4", section: "Testing", text: "Run the tests with -race"}}, []importItem{held}),
			"Would stage (dry run, nothing written) 1 fact" + head + "1 skipped.\n" +
				"  would stage  MEMORY.md:4  [Testing] Run the tests with -race\n" +
				"  skipped  MEMORY.md:2  Use pnpm, not npm (already in memory)"},
		{"a dry run says what staging would change and why it would refuse", report(true, []importItem{{where: "build.md:2", section: "Build", text: "Use pnpm", note: "joined its lines"}}, []importItem{refused}),
			"Would stage (dry run, nothing written) 1 fact" + head + "1 skipped.\n" +
				"  would stage  build.md:2  [Build] Use pnpm (joined its lines)\n" +
				"  skipped  MEMORY.md:6  (secret: it looks like a secret)"},
		{"staged facts, with what staging changed, then how to write them", report(false, []importItem{staged, noted}, nil),
			"Staged 2 facts" + head + "0 skipped.\n" +
				"  staged  W-0000abcd  MEMORY.md:4  [Testing] Run the tests with -race\n" +
				"  staged  W-0000abce  build.md:2  [Build] Use pnpm (joined its lines)\n" +
				"/memory flush writes them (each is checked again then)."},
		{"a refused fact is named by where it is, not its text", report(false, nil, []importItem{held, refused}),
			"Staged 0 facts" + head + "2 skipped.\n" +
				"  skipped  MEMORY.md:2  Use pnpm, not npm (already in memory)\n" +
				"  skipped  MEMORY.md:6  (secret: it looks like a secret)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, importText(tt.r))
		})
	}
}

func TestImportJSONListsStagedAndSkippedWithEveryField(t *testing.T) {
	r := importReport{dry: false, source: "/h/m", file: "/p/.pi/memory/MEMORY.md", display: ".pi/memory/MEMORY.md",
		staged:  []importItem{{where: "MEMORY.md:4", section: "Testing", text: "Run tests", id: "W-1", note: "n"}},
		skipped: []importItem{{where: "MEMORY.md:2", section: "S", text: "Use pnpm", why: inMemory}}}
	require.Equal(t, `{"dryRun":false,"source":"/h/m","file":"/p/.pi/memory/MEMORY.md",`+
		`"staged":[{"from":"MEMORY.md:4","section":"Testing","text":"Run tests","id":"W-1","note":"n","why":""}],`+
		`"skipped":[{"from":"MEMORY.md:2","section":"S","text":"Use pnpm","id":"","note":"","why":"already in memory"}]}`, importJSON(&r))
	require.Equal(t, `{"dryRun":true,"source":"","file":"","staged":[],"skipped":[]}`, importJSON(&importReport{dry: true}))
}

// A secret someone wrote into Claude Code's memory is never printed by an
// import, dry or not, as text or JSON: every way out of memory is redacted.
func TestAnImportNeverPrintsASecretOfClaudesFiles(t *testing.T) {
	const secret = "ghp_" + "0123456789abcdefghijklmnopqrstuvwxyzAB"
	it := importItem{where: "MEMORY.md:3", section: "Deploy", text: "Deploy with the token " + secret}
	for _, r := range []*importReport{
		{dry: true, staged: []importItem{it}},
		{skipped: []importItem{{where: it.where, section: it.section, text: it.text, why: inMemory}}},
	} {
		for _, out := range []string{importText(r), importJSON(r)} {
			require.NotContains(t, out, secret)
			require.Contains(t, out, "Deploy with the token [REDACTED")
		}
	}
}

// FuzzPlanImport: Claude Code's memory files are written by a model and
// edited by people, so any text of them and of the memory file is planned
// without panicking into one item per fact, in order, each staged or held;
// a fact memory holds is never staged, nor twice the same fact.
func FuzzPlanImport(f *testing.F) {
	f.Add([]byte("# Memory\n## Testing\n- Integration tests need Docker running\n- [Debugging](debugging.md)\n- Use pnpm, not npm\n"),
		[]byte("- Set LOG_LEVEL=debug to see SQL\n- use pnpm not npm\n"),
		[]byte("## Notes\n- Integration tests need Docker running\n"))
	f.Add([]byte("- a\n- A!\n* b\n"), []byte(""), []byte("- b\n"))
	f.Add([]byte("- \xff\xfe\n\n```\n- fenced\n```\n"), []byte("- "+strings.Repeat("long ", 120)+"\n"), []byte("# Use pnpm\n"))
	f.Fuzz(func(t *testing.T, index, topic, mem []byte) {
		cands := claudeFacts([]doc{{File: "MEMORY.md", Pages: parse("claude", index)}, {File: "topic.md", Pages: parse("claude", topic)}})
		memory := parse("project", mem)
		kept := append([]page(nil), memory...)
		plan := planImport(cands, memory, nil)
		require.Equal(t, len(cands), len(plan), "one item per candidate")
		var staged []page
		for i, it := range plan {
			c := cands[i]
			require.True(t, it.where == c.File+":"+strconv.Itoa(c.Line) && it.text == c.Text && it.section == c.Section, "item %d %+v is not candidate %+v", i, it, c)
			switch it.why {
			case "":
				require.True(t, duplicate(c.Text, memory) < 0, "%q is staged though memory holds it", c.Text)
				require.True(t, duplicate(c.Text, staged) < 0, "%q is staged twice", c.Text)
				staged = append(staged, page{Kind: kindFact, Text: c.Text})
			case inMemory:
			default:
				t.Fatalf("item %d: why %q", i, it.why)
			}
		}
		require.Equal(t, kept, memory, "planImport changed memory's pages")
	})
}
