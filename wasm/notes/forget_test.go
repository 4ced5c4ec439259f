package notes

import (
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

func TestParseRefTakesAMarkdownFileALineAndAPageID(t *testing.T) {
	for _, tc := range []struct {
		ref  string
		want noteRef
		ok   bool
	}{
		{"/p/.pi/memory/MEMORY.md:7#P-7b8d6c97ae", noteRef{"/p/.pi/memory/MEMORY.md", 7, "P-7b8d6c97ae"}, true},
		{".pi/memory/build.md:3#P-448f928cb9-2", noteRef{".pi/memory/build.md", 3, "P-448f928cb9-2"}, true},
		{"~/.pi/agent/memory/MEMORY.md:3#P-448f928cb9", noteRef{"~/.pi/agent/memory/MEMORY.md", 3, "P-448f928cb9"}, true},
		{"/p/.pi/memory/MEMORY.local.md:12", noteRef{"/p/.pi/memory/MEMORY.local.md", 12, ""}, true},
		{"C:/p/x/MEMORY.MD:1", noteRef{"C:/p/x/MEMORY.MD", 1, ""}, true},
		{"/p/MEMORY.md:7#P-7B8D6C97AE", noteRef{}, false},
		{"/p/MEMORY.md:7#P-7b8d6c97a", noteRef{}, false},
		{"/p/MEMORY.md:7#P-7b8d6c97ae-1", noteRef{}, false},
		{"/p/MEMORY.md:7#P-7b8d6c97ae-02", noteRef{}, false},
		{"/p/MEMORY.md:7#", noteRef{}, false},
		{"/p/MEMORY.md#P-7b8d6c97ae", noteRef{}, false},
		{"D-0001", noteRef{}, false},
		{"F-1a2b3c4d", noteRef{}, false},
		{"0002", noteRef{}, false},
		{"/p/MEMORY.md", noteRef{}, false},
		{"/p/MEMORY.md:", noteRef{}, false},
		{"/p/MEMORY.md:0", noteRef{}, false},
		{"/p/MEMORY.md:-3", noteRef{}, false},
		{"/p/MEMORY.md:+3", noteRef{}, false},
		{"/p/MEMORY.md:3.5", noteRef{}, false},
		{"/p/MEMORY.md:99999999999", noteRef{}, false},
		{"/p/sessions/s.jsonl:4", noteRef{}, false},
		{":4", noteRef{}, false},
	} {
		t.Run(tc.ref, func(t *testing.T) {
			got, ok := parseRef(tc.ref)
			require.Equal(t, tc.ok, ok)
			require.Equal(t, tc.want, got)
			if ok && got.ID != "" {
				require.Equal(t, tc.ref, formatRef(got.File, got.Line, got.ID))
			}
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

// A recovery record's id typed small, in capitals, padded or with a
// typographic dash names the record (h-v100 d's minor).
func TestNormRestoreIDReadsAnIDAsAPersonTypesIt(t *testing.T) {
	for in, want := range map[string]string{
		"F-1a2b3c4d": "F-1a2b3c4d", "f-1a2b3c4d": "F-1a2b3c4d", "F-1A2B3C4D": "F-1a2b3c4d", " F-1a2b3c4d\n": "F-1a2b3c4d",
		"F\u20131a2b3c4d": "F-1a2b3c4d", "f\u2010ABCDEF01": "F-abcdef01", "F-1a2b3c4g": "F-1a2b3c4g", "D-2026-02-27-0001": "D-2026-02-27-0001",
	} {
		require.Equal(t, want, normRestoreID(in), "%q", in)
	}
}

const forgetSrc = "# Memory\n\nTop note.\n\n## Build\n\n- Run make test before pushing\n- Lint with golangci-lint\n  and fix what it says\n\n## Style\n\n- Use tabs\n"

func TestEntryAtFindsTheWholeBulletOrSaysWhyNot(t *testing.T) {
	pages := parse("project", []byte(forgetSrc))
	lines := lineCount([]byte(forgetSrc))
	for _, tc := range []struct {
		line int
		text string
		why  string
	}{
		{7, "Run make test before pushing", ""},
		{8, "Lint with golangci-lint and fix what it says", ""},
		{9, "Lint with golangci-lint and fix what it says", ""},
		{13, "Use tabs", ""},
		{5, "", "line 5 is a heading, not an entry; forget the entries under it one by one"},
		{3, "", "line 3 is text, not a bullet entry; edit the file by hand"},
		{10, "", "line 10 is blank, not an entry"},
		{14, "", "line 14 is past the end (the file has 13 lines)"},
	} {
		i, why := entryAt(pages, tc.line, lines)
		require.Equal(t, tc.why, why, "line %d", tc.line)
		if tc.why == "" {
			require.Equal(t, tc.text, pages[i].Text, "line %d", tc.line)
		}
	}
	// A count of one takes the singular (it said "the file has 1 lines").
	_, why := entryAt(parse("project", []byte("- a\n")), 2, 1)
	require.Equal(t, "line 2 is past the end (the file has 1 line)", why)
}

// idOf is the page id of the entry at line of src, as search cites it.
func idOf(t *testing.T, src string, line int) string {
	t.Helper()
	_, pages := readView("project", []byte(src), nil)
	i, why := entryAt(pages, line, lineCount([]byte(src)))
	require.Equal(t, "", why, "line %d of %q", line, src)
	return pages[i].ID
}

// Issue 25, item 20: a forget and a restore with nothing written between
// give the file back byte for byte, whatever its shape and wherever the
// entry stands in it.
func TestForgetThenRestoreGivesEveryFileShapeBackByteForByte(t *testing.T) {
	shapes := map[string]string{
		"no final newline":             "## B\n- a\n- b",
		"only entry, no final newline": "- a",
		"only entry":                   "- a\n",
		"only entry under a heading":   "## B\n\n- a\n",
		"CRLF":                         "## B\r\n\r\n- a\r\n- b\r\n  more\r\n\r\n## C\r\n- c\r\n",
		"CRLF, no final newline":       "- a\r\n- b",
		"blank lines between bullets":  "## B\n\n- a\n\n- b\n\n- c\n",
		"two blank lines":              "- a\n\n\n- b\n\n\n- c\n\n\n",
		"entry at start":               "- a\n- b\n\n## C\n- c\n",
		"entry before a heading":       "## A\n- a\n\n## B\n\n- b\n\n## C\n",
		"nested bullets":               "## B\n- a\n  - a1\n    - a2\n- b\n  1. b1\n",
		"continuation lines":           "- a\n  more of a\nlazy line\n- b\n",
		"BOM":                          "\ufeff- a\n- b\n",
		"BOM and heading":              "\ufeff# T\n\n- a\n",
		"BOM, only entry":              "\ufeff- a",
		"pointers and text":            "# T\n\nintro text\n\n- [Build](build.md) — quirks\n- a\n\n```\n- not an entry\n```\n- z\n",
		"tabs and trailing spaces":     "-\ta  \n-   b\t\n\n\t\n- c\n",
		"repeated entries":             "- same\n- same\n- other\n- same\n",
		"numbered":                     "1. one\n2. two\n10) ten\n",
	}
	for name, src := range shapes {
		_, pages := readView("project", []byte(src), nil)
		for _, p := range pages {
			if p.Kind != kindFact && p.Kind != kindPointer {
				continue
			}
			t.Run(name+"/"+p.ID, func(t *testing.T) {
				out, rec, secret, why := forgetEntry("project", "MEMORY.md", []byte(src), noteRef{"MEMORY.md", p.Line, p.ID}, nil)
				require.Equal(t, "", why)
				require.False(t, secret)
				require.False(t, strings.Contains(string(out), p.Src) && strings.Count(src, p.Src) == 1, "the entry went: %q", out)
				back, line, _ := restoreEntry(out, out, &rec, nil)
				require.Equal(t, src, string(back))
				require.Equal(t, p.Line, line)
			})
		}
	}
}

// One of two entries that say the same is forgotten: its twin stays, and
// the restore gives the entry back rather than refusing because the twin
// says it already. Once it is back, a second restore is refused.
func TestARestoreIsNotRefusedByATwinThatStoodBesideTheEntry(t *testing.T) {
	const src = "## Notes\n- zebrafish target\n- alpha\n- zebrafish target\n"
	out, rec, _, why := forgetEntry("project", "MEMORY.md", []byte(src), noteRef{"MEMORY.md", 2, idOf(t, src, 2)}, nil)
	require.Equal(t, "", why)
	require.Equal(t, 1, rec.Twins)
	rec.ID, rec.T, rec.File, rec.Scope = "F-1a2b3c4d", 1, "/p/.pi/memory/MEMORY.md", "project"
	require.Contains(t, string(rec.encode()), `,"twins":1,"ends":"lf"}`)
	require.Equal(t, 1, decodeForgotten(rec.encode()).Records[0].Twins, "the record keeps its twins")
	_, pages := readView("project", out, nil)
	require.Equal(t, -1, restated(rec.Text, rec.Section, pages, rec.Twins), "the twin was there before")
	back, _, _ := restoreEntry(out, out, &rec, nil)
	require.Equal(t, src, string(back))
	_, pages = readView("project", back, nil)
	require.Equal(t, 1, restated(rec.Text, rec.Section, pages, rec.Twins), "back already")
}

// The file was saved with CRLF between the forget and the restore, its
// lines otherwise the same: the entry goes back with CRLF too, not LF among
// them.
func TestARestoreTakesTheLineEndsTheFileHasNow(t *testing.T) {
	const src = "## Notes\n- alpha one\n- zebrafish target\n- gamma three\n"
	out, rec, _, why := forgetEntry("project", "MEMORY.md", []byte(src), noteRef{"MEMORY.md", 3, idOf(t, src, 3)}, nil)
	require.Equal(t, "", why)
	crlf := []byte(strings.ReplaceAll(string(out), "\n", "\r\n"))
	back, line, _ := restoreEntry(crlf, crlf, &rec, nil)
	require.Equal(t, 3, line)
	require.Equal(t, strings.ReplaceAll(src, "\n", "\r\n"), string(back))
}

// The record of the example in docs/formats.md, and what removing an entry
// leaves: no double blank line, the line above remembered.
func TestRemoveEntryLeavesNoDoubleBlank(t *testing.T) {
	for _, tc := range []struct {
		name, src            string
		line, n              int
		out, removed, before string
	}{
		{"first under a heading", "## B\n\n- a\n- b\n", 3, 1, "## B\n\n- b\n", "- a\n", ""},
		{"the only entry", "## B\n\n- a\n\n## C\n\n- c\n", 3, 1, "## B\n\n## C\n\n- c\n", "- a\n\n", ""},
		{"in the middle", "## B\n- a\n- b\n- c\n", 3, 1, "## B\n- a\n- c\n", "- b\n", "- a"},
		{"the last, no final newline", "## B\n- a\n- b", 3, 1, "## B\n- a\n", "- b", "- a"},
		{"a continuation line", "- a\n  more\n- b\n", 1, 2, "- b\n", "- a\n  more\n", ""},
		{"CRLF", "## B\r\n\r\n- a\r\n- b\r\n", 4, 1, "## B\r\n\r\n- a\r\n", "- b\r\n", "- a"},
		{"a byte-order mark stays", "\ufeff- a\n- b\n", 1, 1, "\ufeff- b\n", "- a\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, removed := removeEntry([]byte(tc.src), tc.line, tc.n)
			before, _ := neighbours(out, "project", tc.line-1)
			require.Equal(t, tc.out, string(out))
			require.Equal(t, tc.removed, removed)
			require.Equal(t, tc.before, before)
		})
	}
}

// Issue 25, item 8: a bullet whose continuation lines hold a private key is
// one entry in the view as in the file, so a forget removes all of it; the
// record keeps the key's marks, not the key, and a restore brings back
// every line, the key's lines marked.
func TestForgetRemovesAWholeBulletWhoseContinuationHoldsAKey(t *testing.T) {
	const key = "  -----BEGIN RSA PRIVATE KEY-----\n  MIIEowIBAAKCAQEAexampleEXAMPLE0123\n  EXAMPLEexample==\n  -----END RSA PRIVATE KEY-----\n"
	src := "## Deploy\n- deploy key:\n" + key + "- Run make ship\n"
	id := idOf(t, src, 2)
	out, rec, secret, why := forgetEntry("project", "MEMORY.md", []byte(src), noteRef{"MEMORY.md", 2, id}, nil)
	require.Equal(t, "", why)
	require.True(t, secret)
	require.Equal(t, "## Deploy\n- Run make ship\n", string(out))
	require.False(t, strings.Contains(rec.Src, "MIIE") || strings.Contains(rec.Src, "BEGIN"), "the record keeps no key: %q", rec.Src)
	require.Equal(t, "- deploy key:\n"+strings.Repeat("  [REDACTED:private-key]\n", 4), rec.Src)
	back, line, _ := restoreEntry(out, out, &rec, nil)
	require.Equal(t, 2, line)
	require.Equal(t, "## Deploy\n- deploy key:\n"+strings.Repeat("  [REDACTED:private-key]\n", 4)+"- Run make ship\n", string(back))
}

// Issue 25, item 17: an entry is named by its id, not its line. A stale
// line finds it where it moved; an id the file no longer holds removes
// nothing; a bare line names the entry there and removes nothing.
func TestForgetFindsTheEntryByItsIDNotItsLine(t *testing.T) {
	const src = "## B\n- a\n- b\n- c\n"
	id := idOf(t, src, 3) // "b"
	moved := "## B\n- new\n- newer\n- a\n- b\n- c\n"
	out, rec, _, why := forgetEntry("project", "MEMORY.md", []byte(moved), noteRef{"MEMORY.md", 3, id}, nil)
	require.Equal(t, "", why)
	require.Equal(t, "## B\n- new\n- newer\n- a\n- c\n", string(out))
	require.Equal(t, "b", rec.Text)
	require.Equal(t, id, rec.Page)

	out, _, _, why = forgetEntry("project", "MEMORY.md", out, noteRef{"MEMORY.md", 3, id}, nil)
	require.True(t, out == nil && why == "", "gone: nothing removed, the caller says so")

	out, _, _, why = forgetEntry("project", ".pi/memory/MEMORY.md", []byte(src), noteRef{".pi/memory/MEMORY.md", 3, ""}, nil)
	require.True(t, out == nil)
	require.Equal(t, ".pi/memory/MEMORY.md line 3 is “b”; a note is forgotten by its id, which names the entry wherever it moves: .pi/memory/MEMORY.md:3#"+id+"; nothing was forgotten", why)
}

// Two entries forgotten, then restored in the order they went, or the
// other: the second record's line was counted without the first entry,
// which may be back above it now. Each goes between the same lines again,
// not to its section's end, and the file comes back byte for byte.
func TestRestoresInEitherOrderGiveTheFileBackByteForByte(t *testing.T) {
	for _, src := range []string{
		"## Notes\n\n- alpha one\n- bravo two\n- charlie three\n- delta four\n",
		"## Notes\n\n- same fact\n- x\n- same fact\n- y\n- same fact\n",
		"## A\n- a1\n- a2\n\n## B\n- b1\n- b2\n- b3\n",
		"- a\n  more of a\n- b\n- c\n  more of c\n",
		// the last entry takes the blank line before a heading
		"## Build\n\n- pnpm\n- make wasm\n  continued\n- node 22\n\n## Deploy\n\n- staging\n",
	} {
		_, pages := readView("project", []byte(src), nil)
		for i := range pages {
			for j := range pages {
				for _, sameOrder := range []bool{true, false} {
					if back, ok := forgetTwoRestoreBoth(t, []byte(src), pages, i, j, sameOrder); ok {
						require.Equal(t, src, string(back), "%q: forgot %d then %d, restored in the same order: %v", src, i, j, sameOrder)
					}
				}
			}
		}
	}
}

// forgetTwoRestoreBoth forgets pages[i] of src, then pages[j], and
// restores both, the first first when sameOrder; false when the two are
// one, not entries, or either forget is refused or holds a secret.
func forgetTwoRestoreBoth(t *testing.T, src []byte, pages []page, i, j int, sameOrder bool) ([]byte, bool) {
	t.Helper()
	if i == j || i >= len(pages) || j >= len(pages) || pages[i].Kind != kindFact || pages[j].Kind != kindFact {
		return nil, false
	}
	forget := func(out []byte, k int, gone *forgotten, seq int) ([]byte, forgotten, bool) {
		_, now := readView("project", out, nil)
		want := pages[k].Line
		if gone != nil && gone.Line < want {
			want -= gone.Lines
		}
		for _, p := range now {
			if p.Kind == kindFact && p.Line == want {
				next, rec, secret, why := forgetEntry("project", "MEMORY.md", out, noteRef{"MEMORY.md", p.Line, p.ID}, nil)
				rec.ID, rec.File, rec.Seq, rec.Lines = "F-0000000"+strconv.Itoa(seq), "/p/MEMORY.md", seq, len(mdSplit(rec.Src))
				return next, rec, why == "" && !secret
			}
		}
		return nil, forgotten{}, false
	}
	out, r1, ok := forget(src, i, nil, 1)
	if !ok {
		return nil, false
	}
	out, r2, ok := forget(out, j, &r1, 2)
	if !ok {
		return nil, false
	}
	first, second := &r1, &r2
	if !sameOrder {
		first, second = &r2, &r1
	}
	view, _ := readView("project", out, nil)
	before := bodyLines(out)
	out, line, tailed := restoreEntry(out, view, first, []forgotten{r1, r2})
	first.RestoreSeq, first.RestoredLine, first.Restored, first.RestoredLines, first.RestoredTail = 3, line, 1, bodyLines(out)-before, tailed
	view, _ = readView("project", out, nil)
	back, _, _ := restoreEntry(out, view, second, []forgotten{r1, r2})
	return back, true
}

// Two entries forgotten and restored in either order come back as they
// were, whatever the file's shape.
func FuzzTwoForgetsRestoredInEitherOrder(f *testing.F) {
	for _, s := range []string{
		"## Notes\n\n- alpha one\n- bravo two\n- charlie three\n", "- a\n  more\n\n- b\n\n## C\n- c\n- d\n",
		"\ufeff- a\r\n- b\r\n- c\r\n", "- same\n- x\n- same\n",
	} {
		f.Add([]byte(s), uint8(0), uint8(1), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, i, j uint8, sameOrder bool) {
		_, pages := readView("project", src, nil)
		if back, ok := forgetTwoRestoreBoth(t, src, pages, int(i), int(j), sameOrder); ok {
			// Every entry back, none lost nor twice; byte for byte but where
			// a blank line is, or, rarely, where an entry is: an entry that
			// took the blank line after another one forgotten before it
			// brings it back beside it when that one came back first
			// (formats.md).
			a, b := nonBlank(src), nonBlank(back)
			slices.Sort(a)
			slices.Sort(b)
			require.Equal(t, a, b, "%q: forgot %d then %d, restored in the same order: %v, gave %q", src, i, j, sameOrder, back)
		}
	})
}

// nonBlank is b's lines that are not blank, without their line ends.
//
// A line's trailing CRs count as its end: an entry that goes back where the
// file changed around it takes the file's line ends (formats.md), and a
// stray CR before its CRLF ("* \r\r\n") then reads as one ("* \r\n" in a
// file of LF lines; fuzz, 2026-11-30).
func nonBlank(b []byte) []string {
	var out []string
	for _, l := range mdSplit(string(b)) {
		if !mdBlank(l) {
			out = append(out, strings.TrimRight(mdBody(l), "\r"))
		}
	}
	return out
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
		// The line above it is gone and it was the file's last: the blank
		// line that ends another section is not the end of the file.
		{"not at another section's blank line", "## Style\n- Tabs\n\n## Deploy\n- Staging\n",
			forgotten{Line: 3, Before: "- gone", After: "", HasAfter: true, Section: "Deploy", Src: "- Rollbacks\n"},
			"## Style\n- Tabs\n\n## Deploy\n- Staging\n- Rollbacks\n", 6},
		// It went from a CRLF file, which is LF now: it takes LF.
		{"the file's line ends now", "## Build\n- Use pnpm\n- Lint\n\n## Style\n",
			forgotten{Line: 2, Before: "- gone", Section: "Build", Src: "- Cache\r\n  lives here\r\n", Ends: "crlf"},
			"## Build\n- Use pnpm\n- Lint\n- Cache\n  lives here\n\n## Style\n", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, line, _ := restoreEntry([]byte(tc.src), []byte(tc.src), &tc.r, nil)
			require.Equal(t, tc.out, string(out))
			require.Equal(t, tc.line, line)
		})
	}
}

func TestRecoveryRecordsRoundTripAndFoldRestores(t *testing.T) {
	rec := forgotten{ID: "F-1a2b3c4d", T: 1772355600000, Scope: "project", File: "/p/.pi/memory/MEMORY.md", Line: 7,
		Section: "Build", Text: "Run make test", Src: "- Run make test\n", Before: "- Lint"}
	data := append(rec.encode(), restoreRecord("F-1a2b3c4d", 1772355660000, "/p/.pi/memory/MEMORY.md", 9, 0, 0)...)
	require.Equal(t, `{"v":1,"t":1772355600000,"op":"forget","id":"F-1a2b3c4d","scope":"project","file":"/p/.pi/memory/MEMORY.md","line":7,"section":"Build","text":"Run make test","src":"- Run make test\n","before":"- Lint"}`+"\n", string(rec.encode()))
	f := decodeForgotten(data)
	require.Equal(t, 0, len(f.Problems))
	require.Equal(t, 1, len(f.Records))
	want := rec
	want.Restored, want.RestoredLine = 1772355660000, 9
	want.Lines, want.Seq, want.RestoreSeq = 1, 1, 2 // read from the file: its lines, and which lines forgot and restored it
	require.Equal(t, want, f.Records[0])

	// A restore that put blank lines back after an entry in its hole says
	// how many; more than it put back at all is read as all of them.
	for _, tc := range []struct{ lines, tail, want int }{{3, 1, 1}, {2, 0, 0}, {1, 5, 1}} {
		f = decodeForgotten(append(rec.encode(), restoreRecord(rec.ID, 1772355660000, rec.File, 9, tc.lines, tc.tail)...))
		require.Equal(t, tc.want, f.Records[0].RestoredTail)
	}
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

// FuzzForgetThenRestore: in any memory file, forgetting any entry by its id
// and restoring it with nothing written between gives the file back byte
// for byte when the entry held no secret (with one, the view's bytes come
// back, the file's other lines untouched).
func FuzzForgetThenRestore(f *testing.F) {
	for _, s := range []string{
		"## B\n- a\n- b", "\ufeff- a\r\n\r\n- b\r\n", "- a\n  - a1\nlazy\n\n- b\n\n\n## C\n- c\n",
		"- deploy key:\n  -----BEGIN RSA PRIVATE KEY-----\n  MIIE\n  -----END RSA PRIVATE KEY-----\n- next\n",
		"# T\n\n```\n- x\n```\n- [a](a.md)\n- same\n- same\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, pages := readView("project", src, nil)
		for _, p := range pages {
			if p.Kind != kindFact && p.Kind != kindPointer {
				continue
			}
			out, rec, secret, why := forgetEntry("project", "MEMORY.md", src, noteRef{"MEMORY.md", p.Line, p.ID}, nil)
			if why != "" {
				continue // an entry whose view reads as other markdown: refused, nothing removed
			}
			require.True(t, out != nil, "%q: %s is in the file", src, p.ID)
			outView, _ := readView("project", out, nil)
			back, line, _ := restoreEntry(out, outView, &rec, nil)
			require.Equal(t, p.Line, line, "%q: %s", src, p.ID)
			if !secret {
				require.Equal(t, string(src), string(back), "%q: %s", src, p.ID)
			} else {
				require.Equal(t, strings.Count(string(src), "\n"), strings.Count(string(back), "\n"), "%q: %s", src, p.ID)
				require.False(t, redact.Contains(rec.Src), "%q: the record of %s keeps a secret: %q", src, p.ID, rec.Src)
			}
		}
	})
}

// forgetThenRestore forgets the entries of src that say each of texts, in
// their order, then restores them in the order restore gives (indexes into
// texts), keeping the records as the driver does; false when a forget is
// refused or takes a secret (its record keeps the secret's marks).
func forgetThenRestore(t *testing.T, src string, texts []string, restore []int) (string, bool) {
	t.Helper()
	out := []byte(src)
	var recs []forgotten
	for k, text := range texts {
		_, pages := readView("project", out, nil)
		i := slices.IndexFunc(pages, func(p page) bool { return p.Text == text })
		require.True(t, i >= 0, "no entry %q in %q", text, out)
		next, rec, secret, why := forgetEntry("project", "MEMORY.md", out, noteRef{"MEMORY.md", pages[i].Line, pages[i].ID}, nil)
		if why != "" || secret || next == nil {
			return "", false
		}
		rec.ID, rec.File, rec.Seq, rec.Lines = fmt.Sprintf("F-%08d", k), "/p/MEMORY.md", k+1, len(mdSplit(rec.Src))
		out, recs = next, append(recs, rec)
	}
	for n, k := range restore {
		view, _ := readView("project", out, nil)
		before := bodyLines(out)
		var line, tailed int
		out, line, tailed = restoreEntry(out, view, &recs[k], recs)
		r := &recs[k]
		r.RestoreSeq, r.RestoredLine, r.Restored, r.RestoredLines, r.RestoredTail = len(texts)+n+1, line, 1, bodyLines(out)-before, tailed
	}
	return string(out), true
}

// Three or four entries of a list forgotten and restored in every order
// give the file back byte for byte: the blank line the last of them took
// goes back where it stood, after the entries that came back into its hole
// before it (h-v98 d1: 14 of 36 orders moved or dropped it).
func TestRestoresInEveryOrderGiveTheFileBackByteForByte(t *testing.T) {
	for _, tc := range []struct {
		src   string
		texts []string
	}{
		{"# Memory\n\n## Tools\n\n- Use pnpm\n- Run tests\n- Lint\n\n## Style\n\n- Tabs\n", []string{"Use pnpm", "Run tests", "Lint"}},
		{"# Memory\n\nSome paragraph.\n\n- a one\n- b two\n- c three\n\n## Style\n\n- Tabs\n", []string{"a one", "b two", "c three"}},
		{"## T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- a one\n- b two\n- c three\n\n## S\n- x\n", []string{"a one", "b two", "c three"}},
		{"## T\n\n- a one\n\n\n\n- b two\n\n\n\n- c three\n\n## S\n- x\n", []string{"a one", "b two", "c three"}},
		{"## T\n\n- a one\n- b two\n- c three\n- d four\n\n## U\n\n- e\n", []string{"a one", "b two", "c three", "d four"}},
		{"## T\r\n\r\n- a one\r\n- b two\r\n- c three\r\n\r\n## U\r\n\r\n- e\r\n", []string{"a one", "b two", "c three"}},
		{"## T\n\n- a one\n  more a\n- b two\n- c three\n  more c\n\n## U\n\n- e\n", []string{"a one more a", "b two", "c three more c"}},
		{"## T\n\n- a one\n- b two\n- c three\n\n\n## U\n\n- e\n", []string{"a one", "b two", "c three"}},
		{"## T\n\n- a one\n- b two\n\n- c three\n- d four\n\n## U\n", []string{"a one", "b two", "c three", "d four"}},
		{"- a one\n- b two\n- c three\n\n## U\n\n- e", []string{"a one", "b two", "c three"}},
		{"## T\n\n- a one\n- b two\n- c three\n\n```\ncode\n```\n", []string{"a one", "b two", "c three"}},
		{"## T\n\n- a one\n- b two\n\n## U\n\n- c three\n- d four\n\n## V\n", []string{"a one", "b two", "c three", "d four"}},
	} {
		orders := permutations(len(tc.texts))
		for _, f := range orders {
			texts := make([]string, len(f))
			for i, k := range f {
				texts[i] = tc.texts[k]
			}
			for _, r := range orders {
				back, ok := forgetThenRestore(t, tc.src, texts, r)
				require.True(t, ok)
				require.Equal(t, tc.src, back, "forgot %q, restored in the order %v", texts, r)
			}
		}
	}
}

// forgetsAndRestores applies "f:TEXT" (forget the entry reading TEXT) and "r:N" (restore
// the Nth forget's record) to src; refused counts restores the driver would
// refuse (addsOneEntry).
func forgetsAndRestores(t *testing.T, src string, ops []string) (string, int) {
	out := []byte(src)
	var recs []forgotten
	seq, refused := 0, 0
	for _, op := range ops {
		seq++
		if text, ok := strings.CutPrefix(op, "f:"); ok {
			_, pages := readView("project", out, nil)
			i := slices.IndexFunc(pages, func(p page) bool { return p.Text == text && p.Kind == kindFact })
			if i < 0 {
				continue
			}
			next, rec, secret, why := forgetEntry("project", "MEMORY.md", out, noteRef{"MEMORY.md", pages[i].Line, pages[i].ID}, nil)
			if why != "" || secret || next == nil {
				continue
			}
			rec.ID, rec.File, rec.Seq, rec.Lines = fmt.Sprintf("F-%08d", len(recs)), "/p/MEMORY.md", seq, len(mdSplit(rec.Src))
			out, recs = next, append(recs, rec)
			continue
		}
		var k int
		fmt.Sscanf(op, "r:%d", &k)
		if k < 1 || k > len(recs) || recs[k-1].Restored != 0 {
			continue
		}
		r := &recs[k-1]
		view, _ := readView("project", out, nil)
		before := bodyLines(out)
		back, line, tailed := restoreEntry(out, view, r, recs)
		if !readsBack(back, line) || !addsOneEntry("project", out, back) {
			refused++
			continue
		}
		r.RestoreSeq, r.RestoredLine, r.Restored, r.RestoredLines, r.RestoredTail = seq, line, 1, bodyLines(back)-before, tailed
		out = back
	}
	return string(out), refused
}

// Forgets and restores interleaved (an entry forgotten again after it came
// back): no restore is refused for its place (h-v101 d2: one above a
// paragraph was refused, blaming its record, and went back once the others
// did), and every entry comes back once.
func TestInterleavedForgetsAndRestoresRefuseNothingAndLoseNothing(t *testing.T) {
	para := "## T\n\nIntro para.\n\n- a one\n- b two\n- c three\n\nTrailing para.\n\n## S\n- e\n"
	got, refused := forgetsAndRestores(t, para, []string{"f:b two", "f:a one", "r:2", "f:a one", "f:e", "f:c three", "r:5", "f:c three", "r:3", "r:1", "r:4", "r:6", "r:7"})
	require.Equal(t, 0, refused)
	a, b := nonBlank([]byte(para)), nonBlank([]byte(got))
	slices.Sort(a)
	slices.Sort(b)
	require.Equal(t, a, b, "%q", got)
	rng := rand.New(rand.NewSource(3))
	texts := []string{"a one", "b two", "c three", "e"}
	for run := 0; run < 300; run++ {
		ops := randomForgetsAndRestores(rng, texts, 12)
		got, refused := forgetsAndRestores(t, para, ops)
		require.Equal(t, 0, refused, "%v", ops)
		b := nonBlank([]byte(got))
		slices.Sort(b)
		require.Equal(t, a, b, "%v gave %q", ops, got)
	}
}

// Forgets and restores interleaved in plain lists (no paragraph after the
// list) give the file back byte for byte: an entry forgotten again after
// it came back (h-v101 d3: the blank line before the next heading moved
// into the list), and one restored where the entries around it came back
// since, at its old line (d1: it went below its neighbour).
func TestInterleavedForgetsAndRestoresOfAPlainListGiveItBack(t *testing.T) {
	src := "## T\n\n- a one\n- b two\n- c three\n- d four\n\n## S\n- e\n"
	got, _ := forgetsAndRestores(t, src, []string{"f:b two", "f:d four", "f:c three", "r:2", "f:a one", "r:1", "r:3", "r:4"})
	require.Equal(t, src, got)
	rng := rand.New(rand.NewSource(5))
	for _, tc := range []struct {
		src   string
		texts []string
	}{
		{src, []string{"a one", "b two", "c three", "d four"}},
		{"## T\n\n- a one\n- b two\n- c three\n\n## S\n- e\n", []string{"a one", "b two", "c three"}},
		{"- a one\n- b two\n- c three\n", []string{"a one", "b two", "c three"}},
		{"## T\r\n\r\n- a one\r\n- b two\r\n- c three\r\n\r\n## S\r\n- e\r\n", []string{"a one", "b two", "c three"}},
	} {
		for run := 0; run < 400; run++ {
			ops := randomForgetsAndRestores(rng, tc.texts, 14)
			got, refused := forgetsAndRestores(t, tc.src, ops)
			require.Equal(t, 0, refused, "%v", ops)
			require.Equal(t, tc.src, got, "%v", ops)
		}
	}
}

// randomForgetsAndRestores is up to steps forgets of texts ("f:TEXT", an
// entry not out already) and restores of earlier forgets ("r:N"), then a
// restore of every forget left.
func randomForgetsAndRestores(rng *rand.Rand, texts []string, steps int) []string {
	var ops, forgot []string
	out := map[string]bool{}
	back := map[int]bool{}
	for range steps {
		if tx := texts[rng.Intn(len(texts))]; rng.Intn(2) == 0 && !out[tx] {
			ops, forgot, out[tx] = append(ops, "f:"+tx), append(forgot, tx), true
		} else if k := rng.Intn(len(forgot) + 1); k < len(forgot) && !back[k] {
			ops, back[k], out[forgot[k]] = append(ops, "r:"+strconv.Itoa(k+1)), true, false
		}
	}
	for k := range forgot {
		if !back[k] {
			ops = append(ops, "r:"+strconv.Itoa(k+1))
		}
	}
	return ops
}

// permutations is every order of 0..n-1.
func permutations(n int) [][]int {
	out := [][]int{{}}
	for k := range n {
		var next [][]int
		for _, p := range out {
			for i := 0; i <= len(p); i++ {
				next = append(next, slices.Concat(p[:i:i], []int{k}, p[i:]))
			}
		}
		out = next
	}
	return out
}

// Entries forgotten from both ends of a run of neighbours, then restored
// in another order: one whose place the records keep at its old line goes
// there, not to its section's end (two processes' forgets and restores
// reordered "november" after "papa").
func TestManyForgetsRestoredInAnotherOrderKeepTheirOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Memory\n\n")
	names := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa")
	for s := range 2 {
		fmt.Fprintf(&b, "## S%d\n\n", s)
		for i, n := range names[s*8 : s*8+8] {
			fmt.Fprintf(&b, "- %s thing\n", n)
			if i%3 == 0 {
				fmt.Fprintf(&b, "  detail of %s\n", n)
			}
		}
		b.WriteString("\n")
	}
	src := b.String()
	texts := []string{"hotel thing", "oscar thing detail of oscar", "golf thing detail of golf", "echo thing", "papa thing", "bravo thing", "november thing", "mike thing"}
	back, ok := forgetThenRestore(t, src, texts, []int{5, 4, 6, 7, 0, 1, 3, 2})
	require.True(t, ok)
	require.Equal(t, src, back)
}

// Up to six entries forgotten and restored in any order: every entry back,
// none lost nor twice.
func FuzzManyForgetsRestoredInAnyOrder(f *testing.F) {
	f.Add([]byte("## A\n\n- a\n  more\n- b\n- c\n\n## B\n\n- d\n- e\n  more\n- f\n"), []byte{0, 5, 2, 4}, []byte{3, 1, 0, 2})
	f.Add([]byte("- a\r\n- b\r\n\r\n- c\r\n- d\r\n"), []byte{1, 3, 0}, []byte{2, 0, 1})
	f.Fuzz(func(t *testing.T, src, pick, order []byte) {
		_, pages := readView("project", src, nil)
		var texts []string
		for _, b := range pick[:min(len(pick), 6)] {
			if len(pages) == 0 {
				return
			}
			p := pages[int(b)%len(pages)]
			// An empty bullet ("*") cannot interrupt a paragraph: with the
			// entry between them forgotten, it is the paragraph's text, and
			// no entry to forget (nothing lost: its bytes stay).
			if p.Kind != kindFact || p.Text == "" || slices.Contains(texts, p.Text) {
				return
			}
			if _, n := saying(p.Text, p.Section, pages); n > 1 {
				return // twins: which of them goes is the driver's to say
			}
			texts = append(texts, p.Text)
		}
		restore := make([]int, len(texts))
		for i := range restore {
			restore[i] = i
		}
		for i, b := range order[:min(len(order), len(restore))] {
			j := int(b) % len(restore)
			restore[i], restore[j] = restore[j], restore[i]
		}
		back, ok := forgetThenRestore(t, string(src), texts, restore)
		if !ok {
			return
		}
		a, b := nonBlank(src), nonBlank([]byte(back))
		slices.Sort(a)
		slices.Sort(b)
		require.Equal(t, a, b, "%q: forgot %q, restored in the order %v, gave %q", src, texts, restore, back)
	})
}

// The line above an entry was deleted by hand after it was forgotten: its
// place then opens a code block (or an HTML comment) that follows, and the
// entry goes to its section's end, not into the block, where it would be
// code, no entry.
func TestARestoreNeverLandsInACodeBlockOrComment(t *testing.T) {
	for _, block := range []string{"```yaml\n- zulu: zebra\n- yankee: yak\n```\n", "<!--\n- zulu zebra\n-->\n"} {
		src := "## A\n- alpha apple\n- bravo banana\n" + block + "\n## B\n- charlie cherry\n"
		out, rec, _, why := forgetEntry("project", "MEMORY.md", []byte(src), noteRef{"MEMORY.md", 3, idOf(t, src, 3)}, nil)
		require.Equal(t, "", why)
		rec.ID, rec.File, rec.Seq, rec.Lines = "F-00000001", "/p/MEMORY.md", 1, 1
		edited := strings.Replace(string(out), "- alpha apple\n", "", 1)
		back, line, _ := restoreEntry([]byte(edited), []byte(edited), &rec, []forgotten{rec})
		require.True(t, readsBack(back, line), "%q: restored into the block: %q", block, back)
		require.Equal(t, "## A\n"+block+"- bravo banana\n\n## B\n- charlie cherry\n", string(back))
	}
}

// A restore after lines came above its entry finds its place by the
// sections the parser reads: a "## x" inside a code block or a list item
// heads no section, so the blank line it follows is still in the entry's
// section. Read as a heading, it sent the entry after the code block, or
// into the list item above, splitting it from its own lines.
func TestARestoreReadsSectionsAsTheParserDoes(t *testing.T) {
	for name, src := range map[string]string{
		"code block": "## A\n\n```\n## fake\n```\n\n- two\n\n## B\n- x\n",
		"list item":  "## A\n\n- one\n  ## inner\n  more\n\n- two\n\n## B\n- x\n",
		"comment":    "## A\n\n<!--\n## old\n-->\n\n- two\n\n## B\n- x\n",
	} {
		t.Run(name, func(t *testing.T) {
			out, rec, _, why := forgetEntry("project", "MEMORY.md", []byte(src), noteRef{"MEMORY.md", 7, idOf(t, src, 7)}, nil)
			require.Equal(t, "", why)
			edited := append([]byte("# Title\n\n"), out...)
			back, line, _ := restoreEntry(edited, edited, &rec, nil)
			require.Equal(t, "# Title\n\n"+src, string(back))
			require.Equal(t, 9, line)
		})
	}
}

// An entry forgotten and restored again and again leaves the file's runs as
// they were: what refill leaves when all it took came back is no hole, and
// does not pile up (h-v92 B4: 3,000 pairs made a restore take minutes, each
// event walking every run the ones before it left).
func TestForgetsAndRestoresLeaveNoEmptyRuns(t *testing.T) {
	doc := []lineRun{{n: 1 << 30}}
	doc = cutHole(doc, 3, 1, "F-first")
	for i := range 1000 {
		id := "F-" + strconv.Itoa(i)
		doc = cutHole(doc, 4+i%3, 2, id)
		doc = fillHole(doc, id, 4+i%3, 1+i%2, 0)
	}
	require.True(t, len(doc) <= 3, "%v", doc)
	for _, x := range doc {
		require.False(t, x.n == 0 && x.id == "", "a run of no lines that is no hole: %v", doc)
	}
}

// A restore whose lines around it changed goes to the end of its section:
// the section the parser reads, not a "## A" inside a comment or a list
// item above it (h-v92 B3). At the top, a "## B" in a comment does not end
// the top section either (the restore was refused as going into it).
func TestARestoreToItsSectionsEndReadsHeadingsAsTheParserDoes(t *testing.T) {
	for name, tc := range map[string]struct{ src, edited, want string }{
		"comment": {"# M\n\n<!--\n## A\n-->\n\n## A\n- keep fact one\n- forgotten fact two\n- keep fact three\n",
			"# M\n\n<!--\n## A\n-->\n\n## A\n- keep fact one edited\n- keep fact 3 edited\n",
			"# M\n\n<!--\n## A\n-->\n\n## A\n- keep fact one edited\n- keep fact 3 edited\n- forgotten fact two\n"},
		"list item": {"# M\n\n- an item\n  ## A\n\n## A\n- keep fact one\n- forgotten fact two\n- keep fact three\n",
			"# M\n\n- an item\n  ## A\n\n## A\n- keep fact one edited\n- keep fact 3 edited\n",
			"# M\n\n- an item\n  ## A\n\n## A\n- keep fact one edited\n- keep fact 3 edited\n- forgotten fact two\n"},
		"top": {"- keep fact one\n- forgotten fact two\n- keep fact three\n<!--\n## B\n-->\n- top fact four\n\n## C\n- c fact\n",
			"- keep fact one edited\n- keep fact 3 edited\n<!--\n## B\n-->\n- top fact four\n\n## C\n- c fact\n",
			"- keep fact one edited\n- keep fact 3 edited\n<!--\n## B\n-->\n- top fact four\n- forgotten fact two\n\n## C\n- c fact\n"},
	} {
		t.Run(name, func(t *testing.T) {
			line := strings.Count(tc.src[:strings.Index(tc.src, "- forgotten")], "\n") + 1
			_, rec, _, why := forgetEntry("project", "MEMORY.md", []byte(tc.src), noteRef{"MEMORY.md", line, idOf(t, tc.src, line)}, nil)
			require.Equal(t, "", why)
			back, _, _ := restoreEntry([]byte(tc.edited), []byte(tc.edited), &rec, nil)
			require.Equal(t, tc.want, string(back))
			require.True(t, readsBack(back, strings.Count(tc.want[:strings.Index(tc.want, "- forgotten")], "\n")+1))
		})
	}
}
