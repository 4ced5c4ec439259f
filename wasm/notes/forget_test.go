package notes

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestParseRefTakesAMarkdownFileAndAPositiveLine(t *testing.T) {
	for _, tc := range []struct {
		ref  string
		file string
		line int
		ok   bool
	}{
		{"/p/.pi/memory/MEMORY.md:7", "/p/.pi/memory/MEMORY.md", 7, true},
		{".pi/memory/build.md:3", ".pi/memory/build.md", 3, true},
		{"/p/.pi/memory/MEMORY.local.md:12", "/p/.pi/memory/MEMORY.local.md", 12, true},
		{"C:/p/x/MEMORY.MD:1", "C:/p/x/MEMORY.MD", 1, true},
		{"D-0001", "", 0, false},
		{"F-1a2b3c4d", "", 0, false},
		{"0002", "", 0, false},
		{"/p/MEMORY.md", "", 0, false},
		{"/p/MEMORY.md:", "", 0, false},
		{"/p/MEMORY.md:0", "", 0, false},
		{"/p/MEMORY.md:-3", "", 0, false},
		{"/p/MEMORY.md:+3", "", 0, false},
		{"/p/MEMORY.md:3.5", "", 0, false},
		{"/p/MEMORY.md:99999999999", "", 0, false},
		{"/p/sessions/s.jsonl:4", "", 0, false},
		{":4", "", 0, false},
	} {
		t.Run(tc.ref, func(t *testing.T) {
			file, line, ok := parseRef(tc.ref)
			require.Equal(t, tc.ok, ok)
			require.Equal(t, tc.file, file)
			require.Equal(t, tc.line, line)
		})
	}
}

func TestIsRestoreIDIsFAndEightHexDigits(t *testing.T) {
	for ref, want := range map[string]bool{
		"F-1a2b3c4d": true, "F-00000000": true, "F-1A2B3C4D": false, "F-1a2b3c4": false,
		"F-1a2b3c4d5": false, "W-1a2b3c4d": false, "f-1a2b3c4d": false, "F-1a2b3c4g": false, "": false,
	} {
		require.Equal(t, want, isRestoreID(ref), "%q", ref)
	}
}

const forgetSrc = "# Memory\n\nTop note.\n\n## Build\n\n- Run make test before pushing\n- Lint with golangci-lint\n  and fix what it says\n\n## Style\n\n- Use tabs\n"

func TestEntryAtFindsTheWholeBulletOrSaysWhyNot(t *testing.T) {
	pages := parse("project", []byte(forgetSrc))
	lines := lineCount([]byte(forgetSrc))
	for _, tc := range []struct {
		line  int
		text  string
		count int
		why   string
	}{
		{7, "Run make test before pushing", 1, ""},
		{8, "Lint with golangci-lint and fix what it says", 2, ""},
		{9, "Lint with golangci-lint and fix what it says", 2, ""},
		{13, "Use tabs", 1, ""},
		{5, "", 0, "line 5 is a heading, not an entry; forget the entries under it one by one"},
		{3, "", 0, "line 3 is text, not a bullet entry; edit the file by hand"},
		{10, "", 0, "line 10 is blank, not an entry"},
		{14, "", 0, "line 14 is past the end (the file has 13 lines)"},
	} {
		i, n, why := entryAt(pages, tc.line, lines)
		require.Equal(t, tc.why, why, "line %d", tc.line)
		require.Equal(t, tc.count, n, "line %d", tc.line)
		if tc.why == "" {
			require.Equal(t, tc.text, pages[i].Text, "line %d", tc.line)
		}
	}
	// A count of one takes the singular (it said "the file has 1 lines").
	_, _, why := entryAt(parse("project", []byte("- a\n")), 2, 1)
	require.Equal(t, "line 2 is past the end (the file has 1 line)", why)
}

func TestRemoveEntryLeavesNoDoubleBlankAndRestoreInPlaceGivesTheFileBack(t *testing.T) {
	for _, tc := range []struct {
		name        string
		src         string
		line, n     int
		out, before string
	}{
		{"first under a heading", "## B\n\n- a\n- b\n", 3, 1, "## B\n\n- b\n", ""},
		{"the only entry", "## B\n\n- a\n\n## C\n\n- c\n", 3, 1, "## B\n\n## C\n\n- c\n", ""},
		{"in the middle", "## B\n- a\n- b\n- c\n", 3, 1, "## B\n- a\n- c\n", "- a"},
		{"the last, no final newline", "## B\n- a\n- b", 3, 1, "## B\n- a\n", "- a"},
		{"a continuation line", "- a\n  more\n- b\n", 1, 2, "- b\n", ""},
		{"CRLF", "## B\r\n\r\n- a\r\n- b\r\n", 4, 1, "## B\r\n\r\n- a\r\n", "- a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, removed, before := removeEntry([]byte(tc.src), tc.line, tc.n)
			require.Equal(t, tc.out, string(out))
			require.Equal(t, tc.before, before)
			pages := parse("project", []byte(tc.src))
			i, _, _ := entryAt(pages, tc.line, lineCount([]byte(tc.src)))
			r := forgotten{Line: tc.line, Src: removed, Before: before, Section: pages[i].Section, Text: pages[i].Text}
			back, line := restoreEntry(out, &r)
			want := tc.src
			if !strings.HasSuffix(want, "\n") {
				want += "\n"
			}
			require.Equal(t, want, string(back))
			require.Equal(t, tc.line, line)
		})
	}
}

// When lines moved (the line above is not the one that was), the entry goes
// to the end of its section; a section that is gone is made again.
func TestRestoreGoesToTheEndOfItsSectionWhenLinesMoved(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		r         forgotten
		out       string
		line      int
	}{
		{"its section, lines moved", "## Build\n\n- New first\n- Lint\n\n## Style\n\n- Use tabs\n",
			forgotten{Line: 4, Before: "- Old", Section: "Build", Src: "- Run make test\n\n"},
			"## Build\n\n- New first\n- Lint\n- Run make test\n\n## Style\n\n- Use tabs\n", 5},
		{"in place, before another entry now", "## Build\n\n- New first\n",
			forgotten{Line: 3, Before: "", Section: "Build", Src: "- Run make test\n\n"},
			"## Build\n\n- Run make test\n- New first\n", 3},
		{"a level-3 section", "## Go\n\n### Style\n\n- x\n\n## Other\n",
			forgotten{Line: 9, Before: "- gone", Section: "Style", Src: "- Use tabs\n"},
			"## Go\n\n### Style\n\n- x\n- Use tabs\n\n## Other\n", 6},
		{"its section is gone", "## Style\n\n- Use tabs\n",
			forgotten{Line: 7, Before: "- gone", Section: "Build", Src: "- Run make test\n  with -race\n"},
			"## Style\n\n- Use tabs\n\n## Build\n\n- Run make test\n  with -race\n", 7},
		{"no section: the top", "# Title\n\nintro\n\n## Build\n- x\n",
			forgotten{Line: 9, Before: "- gone", Section: "", Src: "- A top note\n"},
			"# Title\n\nintro\n- A top note\n\n## Build\n- x\n", 4},
		{"an empty file", "",
			forgotten{Line: 3, Before: "## Notes", Section: "Notes", Src: "- x\n"},
			"## Notes\n\n- x\n", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, line := restoreEntry([]byte(tc.src), &tc.r)
			require.Equal(t, tc.out, string(out))
			require.Equal(t, tc.line, line)
		})
	}
}

func TestRecoveryRecordsRoundTripAndFoldRestores(t *testing.T) {
	rec := forgotten{ID: "F-1a2b3c4d", T: 1772355600000, Scope: "project", File: "/p/.pi/memory/MEMORY.md", Line: 7,
		Section: "Build", Text: "Run make test", Src: "- Run make test\n", Before: "- Lint"}
	data := append(rec.encode(), restoreRecord("F-1a2b3c4d", 1772355660000, "/p/.pi/memory/MEMORY.md", 9)...)
	require.Equal(t, `{"v":1,"t":1772355600000,"op":"forget","id":"F-1a2b3c4d","scope":"project","file":"/p/.pi/memory/MEMORY.md","line":7,"section":"Build","text":"Run make test","src":"- Run make test\n","before":"- Lint"}`+"\n", string(rec.encode()))
	f := decodeForgotten(data)
	require.Equal(t, 0, len(f.Problems))
	require.Equal(t, 1, len(f.Records))
	want := rec
	want.Restored, want.RestoredLine = 1772355660000, 9
	require.Equal(t, want, f.Records[0])
}

// A bad line is named and skipped; the records around it still load.
func TestCorruptRecoveryRecordsAreProblemsNotLosses(t *testing.T) {
	good := forgotten{ID: "F-00000001", T: 1, Scope: "global", File: "/a/memory/MEMORY.md", Line: 3, Text: "x", Src: "- x\n"}
	other := good
	other.ID = "F-00000002"
	data := strings.Join([]string{
		string(good.encode()),
		`{"v":1,"op":"forget","id":"F-00000003","scope":"global"` + "\n", // torn
		`{"v":2,"op":"forget","id":"F-00000004"}` + "\n",
		`{"v":1,"op":"forget","id":"W-00000005","scope":"global","file":"/f.md","line":1,"text":"t","src":"- t\n"}` + "\n",
		`{"v":1,"op":"forget","id":"F-00000006","scope":"team","file":"/f.md","line":1,"text":"t","src":"- t\n"}` + "\n",
		`{"v":1,"op":"restore","id":"F-0000000f","t":5}` + "\n",
		`{"v":1,"op":"purge","id":"F-00000001"}` + "\n",
		string(good.encode()),
		string(other.encode()),
	}, "")
	f := decodeForgotten([]byte(data))
	require.Equal(t, 2, len(f.Records))
	var msgs []string
	for _, p := range f.Problems {
		msgs = append(msgs, p.String())
	}
	require.Equal(t, []string{
		"line 2: not valid JSON",
		"line 3: version 2 is not supported (this build reads version 1)",
		`line 4: no "id" of the form F-1a2b3c4d`,
		`line 5: a forget needs "scope", "file", "line", "text" and "src"`,
		"line 6: restores F-0000000f, which no earlier line forgot",
		`line 7: unknown "op" "purge"`,
		"line 8: repeats the id F-00000001",
	}, msgs)
}
