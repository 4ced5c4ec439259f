package notes

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// formatsMemory is a project MEMORY.md with one page of every kind.
const formatsMemory = "# Memory\n\n## Build\n- Run `make wasm` before testing the extension\n- [Build quirks](build.md) — sccache breaks -Werror\n\n```sh\nmake a\nmake b\n```\n"

func TestPageTableEncodesOneHeaderAndOneLinePerPage(t *testing.T) {
	pages := parse("project", []byte(formatsMemory))
	pt := buildPageTable("project", "/src/app/.pi/memory/MEMORY.md", "MEMORY.md", int64(len(formatsMemory)), "ab12", pages, nil, 1700000001000)
	got := strings.Split(strings.TrimSuffix(string(pt.encode()), "\n"), "\n")
	require.Equal(t, 1+len(pages), len(got), "lines: a header and one per page:\n%s", pt.encode())
	// The exact shape is what other versions and /memory verify read.
	wantHeader := `{"v":1,"kind":"header","scope":"project","source":"/src/app/.pi/memory/MEMORY.md","size":145,"sha1":"ab12","pages":5,"built":1700000001000}`
	require.Equal(t, wantHeader, got[0], "header")
	wantFact := `{"v":1,"id":"P-37ce127cd1","kind":"fact","line":4,"lines":1,"bytes":47,"hash":"2c21b66472b70b2d1ea20077c624dad193d73030","section":"Build","summary":"- Run ` + "`make wasm`" + ` before testing the extension","firstSeen":1700000001000,"lastConfirmed":1700000001000}`
	require.Equal(t, wantFact, got[3], "fact entry")
}

func TestPageTableRoundTrips(t *testing.T) {
	tests := []struct {
		name string
		pt   pageTable
	}{
		{"no pages", pageTable{Scope: "global", Source: "/home/ana/.pi/agent/memory/MEMORY.md", Size: 0, SHA1: "da39a3ee5e6b4b0d3255bfef95601890afd80709", Built: 2}},
		{"every field, awkward text", pageTable{
			Scope: "project", Source: `C:\Users\ana "quoted"\MEMORY.md`, Size: 1 << 40, SHA1: "ff", Built: 1700000000000,
			Entries: []tableEntry{
				{ID: "P-0123456789", Kind: "heading", Line: 1, Lines: 2, Bytes: 10, Hash: "h1", Section: "", Summary: "# Memory", FirstSeen: 1, LastConfirmed: 2},
				{ID: "P-0123456789-2", Kind: "fact", Line: 3, Lines: 1, Bytes: 40, Hash: "h2", Section: "Build ✓", Summary: "- say \"hi\"\\ then\ttab, é, 日本, \u2028 and \x01", FirstSeen: 0, LastConfirmed: 0},
				{ID: "P-x", Kind: "text", Line: 1 << 30, Lines: 0, Bytes: 0, Hash: "h3"},
			},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.pt.encode()
			got, err := decodePageTable(data)
			require.NoError(t, err, "DecodePageTable")
			require.Equal(t, tt.pt, got, "round trip")
		})
	}
}

func TestDecodePageTableRefusesADamagedTableNamingTheLine(t *testing.T) {
	const (
		header = `{"v":1,"kind":"header","scope":"project","source":"/p/MEMORY.md","size":9,"sha1":"ab","pages":2,"built":3}`
		entry1 = `{"v":1,"id":"P-1","kind":"fact","line":1,"lines":1,"bytes":5,"hash":"h1","section":"","summary":"- a","firstSeen":1,"lastConfirmed":1}`
		entry2 = `{"v":1,"id":"P-2","kind":"fact","line":2,"lines":1,"bytes":4,"hash":"h2","section":"","summary":"- b","firstSeen":1,"lastConfirmed":1}`
	)
	tests := []struct {
		name, data, want string
	}{
		{"an empty file has no header", "", "no header line"},
		{"blank lines only", "\n  \n\t\n", "no header line"},
		{"the first line is an entry", entry1 + "\n" + entry2 + "\n", "line 1: the first line must be the header"},
		{"a torn line", header + "\n" + entry1 + "\n" + entry2[:40] + "\n", "line 3: not valid JSON"},
		{"a line that is not an object", header + "\n[1,2]\n" + entry2 + "\n", "line 2: not a JSON object"},
		{"a line without a version", header + "\n" + strings.Replace(entry1, `"v":1,`, "", 1) + "\n" + entry2 + "\n", `line 2: no "v" key`},
		{"a header of a later version", strings.Replace(header, `"v":1`, `"v":2`, 1) + "\n" + entry1 + "\n" + entry2 + "\n", "line 1: version 2 is not supported (this build reads version 1)"},
		{"an entry of a later version", header + "\n" + entry1 + "\n" + strings.Replace(entry2, `"v":1`, `"v":2`, 1) + "\n", "line 3: version 2 is not supported"},
		{"an entry without a hash", header + "\n" + strings.Replace(entry1, `"hash":"h1",`, "", 1) + "\n" + entry2 + "\n", `line 2: an entry needs "id" and "hash"`},
		{"an entry without an id", header + "\n" + entry1 + "\n" + strings.Replace(entry2, `"id":"P-2",`, "", 1) + "\n", `line 3: an entry needs "id" and "hash"`},
		{"a second header", header + "\n" + entry1 + "\n" + header + "\n", `line 3: an entry needs "id" and "hash"`},
		{"blank lines still count in line numbers", "\n" + header + "\n\n" + entry1 + "\n{\n", "line 5: not valid JSON"},
		{"a page missing", header + "\n" + entry1 + "\n", "the header counts 2 pages, the file holds 1"},
		{"a page too many", header + "\n" + entry1 + "\n" + entry2 + "\n" + strings.Replace(entry2, "P-2", "P-3", 1) + "\n", "the header counts 2 pages, the file holds 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pt, err := decodePageTable([]byte(tt.data))
			require.Error(t, err, "DecodePageTable accepted %q as %+v", tt.data, pt)
			require.True(t, strings.HasPrefix(err.Error(), tt.want), "error %q, want it to start %q", err, tt.want)
			require.Equal(t, pageTable{}, pt, "a refused table is empty")
			// A rebuild reads the same table for its dates alone, with the
			// same checks: it carries nothing over from a damaged one.
			var d dates
			d.confirm("h1", 5)
			hdr, derr := d.decode([]byte(tt.data))
			require.True(t, derr != nil && derr.Error() == err.Error(), "Dates.Decode: error %v, DecodePageTable's %v", derr, err)
			require.True(t, d.count() == 0 && reflect.DeepEqual(hdr, pageTable{}), "a refused table leaves dates %d, header %+v", d.count(), hdr)
		})
	}
	// The same lines, complete, are accepted: the cases above fail for their
	// own reason, not for one they share.
	for _, data := range []string{
		header + "\n" + entry1 + "\n" + entry2 + "\n",
		header + "\r\n" + entry1 + "\r\n\r\n" + entry2, // CRLF, a blank line, no final newline
	} {
		pt, err := decodePageTable([]byte(data))
		require.True(t, err == nil && len(pt.Entries) == 2 && pt.Entries[1].ID == "P-2", "DecodePageTable(%q) = %+v, %v", data, pt, err)
	}
}

func TestBuildPageTableCarriesDatesOverByHash(t *testing.T) {
	const (
		day    = int64(24 * 60 * 60 * 1000)
		before = 1700000000000
		now    = before + 30*day
	)
	old := buildPageTable("project", "/p/MEMORY.md", "MEMORY.md", 0, "", parse("project", []byte("## Build\n- Use pnpm\n- Run make first\n")), nil, before)
	require.True(t, old.Entries[1].FirstSeen == before && old.Entries[1].LastConfirmed == before, "a new table stamps its pages with now: %+v", old.Entries[1])
	old.Entries[2].LastConfirmed = before + day // a /memory confirm after the build

	// The file changed: a fact moved below a new one, one was reworded, the
	// heading stayed. Hashes follow the text, not the line.
	src := "## Build\n- Check the lockfile\n- Run make first\n- Use pnpm, never npm\n"
	pages := parse("project", []byte(src))
	pt := buildPageTable("project", "/p/MEMORY.md", "MEMORY.md", int64(len(src)), "cd", pages, datesOf(t, &old), now)
	want := []struct {
		text                 string
		firstSeen, confirmed int64
	}{
		{"Build", before, before},
		{"Check the lockfile", now, now},
		{"Run make first", before, before + day},
		{"Use pnpm, never npm", now, now}, // reworded: a new text, first seen now
	}
	require.Equal(t, len(want), len(pt.Entries), "entries")
	for i, w := range want {
		e := pt.Entries[i]
		require.Equal(t, w.text, pages[i].Text, "page %d of the fixture", i)
		require.True(t, e.FirstSeen == w.firstSeen && e.LastConfirmed == w.confirmed, "%q: firstSeen %d lastConfirmed %d, want %d %d", w.text, e.FirstSeen, e.LastConfirmed, w.firstSeen, w.confirmed)
		require.True(t, e.ID == pages[i].ID && e.Hash == pages[i].Hash && e.Line == pages[i].Line && e.Lines == pages[i].Lines && e.Bytes == len(pages[i].Src) && e.Kind == pages[i].Kind.String() && e.Section == pages[i].Section, "entry %d = %+v does not describe page %+v", i, e, pages[i])
	}
	require.True(t, pt.Scope == "project" && pt.Source == "/p/MEMORY.md" && pt.Size == int64(len(src)) && pt.SHA1 == "cd" && pt.Built == now, "header = %+v", pt)
}

func TestBuildPageTableSummaryIsOneLine(t *testing.T) {
	src := "- Run `make wasm` before testing the extension,\n  or pi loads the stale core\n\n"
	pt := buildPageTable("project", "/p/MEMORY.md", "MEMORY.md", 0, "", parse("project", []byte(src)), nil, 1)
	got, want := pt.Entries[0].Summary, "- Run `make wasm` before testing the extension, or pi loads the stale core"
	require.Equal(t, want, got, "Summary")
}

func TestBuildPageTableKeepsTheFirstDatesOfARepeatedHash(t *testing.T) {
	old := pageTable{Entries: []tableEntry{
		{ID: "P-a", Hash: "same", FirstSeen: 10, LastConfirmed: 11},
		{ID: "P-a-2", Hash: "same", FirstSeen: 20, LastConfirmed: 21},
	}}
	pages := parse("project", []byte("- Use pnpm\n- Use pnpm\n"))
	old.Entries[0].Hash, old.Entries[1].Hash = pages[0].Hash, pages[1].Hash
	pt := buildPageTable("project", "", "MEMORY.md", 0, "", pages, datesOf(t, &old), 99)
	for i, e := range pt.Entries {
		require.True(t, e.FirstSeen == 10 && e.LastConfirmed == 11, "entry %d dates %d %d, want the first old entry's 10 11", i, e.FirstSeen, e.LastConfirmed)
	}
}

func TestAppendPageTableWritesWhatEncodeWrites(t *testing.T) {
	const before, now = 1700000000000, 1700000999000
	old := buildPageTable("project", "/p/MEMORY.md", "MEMORY.md", 0, "", parse("project", []byte(formatsMemory)), nil, before)
	src := formatsMemory + "- A new fact\n- Run `make wasm` before testing the extension\n"
	pages := parse("project", []byte(src))
	for _, d := range []*dates{nil, datesOf(t, &old)} {
		pt := buildPageTable("project", "/p/MEMORY.md", "MEMORY.md", int64(len(src)), "cd", pages, d, now)
		want := pt.encode()
		got := appendPageTable([]byte("kept"), 1<<30, "project", "/p/MEMORY.md", "MEMORY.md", int64(len(src)), "cd", pages, d, now)
		require.Equal(t, "kept"+string(want), string(got), "AppendPageTable after 4 bytes, dates %v", d != nil)
		// A buffer with room is written in place: a rebuild allocates nothing that grows with the file.
		buf := make([]byte, 0, 2*len(want))
		got = appendPageTable(buf, 1<<30, "project", "/p/MEMORY.md", "MEMORY.md", int64(len(src)), "cd", pages, d, now)
		require.True(t, &got[0] == &buf[:1][0], "AppendPageTable did not write into a buffer with room")
	}
}

func TestDatesConfirmMovesLastConfirmedOnly(t *testing.T) {
	var d dates
	old := pageTable{Entries: []tableEntry{{ID: "P-1", Hash: "h1", FirstSeen: 10, LastConfirmed: 11}, {ID: "P-2", Hash: "h2", FirstSeen: 20, LastConfirmed: 21}}}
	_, err := d.decode(old.encode())
	require.NoError(t, err, "Decode")
	d.confirm("h2", 50)
	d.confirm("new", 60)
	for _, tt := range []struct {
		hash        string
		first, last int64
		ok          bool
	}{{"h1", 10, 11, true}, {"h2", 20, 50, true}, {"new", 60, 60, true}, {"h3", 0, 0, false}} {
		first, last, ok := d.get(tt.hash)
		require.True(t, first == tt.first && last == tt.last && ok == tt.ok, "Get(%q) = %d %d %v, want %d %d %v", tt.hash, first, last, ok, tt.first, tt.last, tt.ok)
	}
	// reset empties it for the next table, which is read whole again.
	d.reset()
	_, _, ok := d.get("h1")
	require.True(t, !ok && d.count() == 0, "Reset left %d dates", d.count())
}

func TestDatesHoldThousandsOfHashes(t *testing.T) {
	var d dates
	for round := 0; round < 2; round++ { // the second round reuses the arrays of the first
		d.reset()
		for i := 0; i < 5000; i++ {
			d.confirm(strconv.Itoa(i), int64(i))
		}
		for i := 0; i < 5000; i++ {
			first, last, ok := d.get(strconv.Itoa(i))
			require.True(t, ok && first == int64(i) && last == int64(i), "round %d: Get(%d) = %d %d %v", round, i, first, last, ok)
		}
		require.Equal(t, 5000, d.count(), "round %d: Len", round)
	}
}

// datesOf is what a rebuild carries over from the table old, read back from its file.
func datesOf(t *testing.T, old *pageTable) *dates {
	t.Helper()
	var d dates
	_, err := d.decode(old.encode())
	require.NoError(t, err, "Dates.Decode")
	return &d
}

// ---- Journal -------------------------------------------------------------------

func TestOpEncodesOneLineWithoutEmptyFields(t *testing.T) {
	tests := []struct {
		name string
		op   Op
		want string
	}{
		{"stage", Op{Op: "stage", ID: "W-0000abcd", T: 1700000000000, Scope: "project", Section: "Build", Text: "Run make test", Source: "remember"},
			`{"v":1,"t":1700000000000,"op":"stage","id":"W-0000abcd","scope":"project","section":"Build","text":"Run make test","source":"remember"}`},
		{"commit", Op{Op: "commit", ID: "W-0000abcd", T: 1700000001000, File: "/p/MEMORY.md", Line: 7, Page: "P-0123456789"},
			`{"v":1,"t":1700000001000,"op":"commit","id":"W-0000abcd","file":"/p/MEMORY.md","line":7,"page":"P-0123456789"}`},
		{"reject", Op{Op: "reject", ID: "W-0000abcd", T: 3, Reason: "secret", Detail: "it contains \"token=…\""},
			`{"v":1,"t":3,"op":"reject","id":"W-0000abcd","reason":"secret","detail":"it contains \"token=…\""}`},
		{"a zero time is still written", Op{Op: "commit", ID: "W-1"},
			`{"v":1,"t":0,"op":"commit","id":"W-1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want+"\n", string(tt.op.encode()), "Encode")
		})
	}
}

func TestOpRoundTrips(t *testing.T) {
	ops := []Op{
		{Op: "stage", ID: "W-0000abcd", T: 1700000000000, Scope: "project", Section: "Build", Text: "Run make test", Source: "remember"},
		{Op: "stage", ID: "W-0000abce", T: 1, Scope: "global", Text: "quotes \" backslash \\ tab \t é 日本 \u2028 \x7f", Source: "import:claude"},
		{Op: "commit", ID: "W-0000abcd", T: 1700000001000, File: "/p/MEMORY.md", Line: 7, Page: "P-0123456789", Detail: "redacted secret"},
		{Op: "reject", ID: "W-0000abce", T: -5, Reason: "duplicate", Detail: "already in MEMORY.md:3", Page: "P-9876543210"},
		{Op: "reject", ID: "W-0000abcf", Reason: "untrusted"},
	}
	var data []byte
	for i := range ops {
		line := ops[i].encode()
		require.True(t, strings.Count(string(line), "\n") == 1 && strings.HasSuffix(string(line), "\n"), "Encode(%+v) is not one line: %q", ops[i], line)
		data = append(data, line...)
	}
	j := DecodeJournal(data)
	require.Equal(t, 0, len(j.Problems), "problems %v in\n%s", j.Problems, data)
	require.Equal(t, ops, j.Ops, "round trip")
}

func TestDecodeJournalKeepsGoodRecordsAroundBadLines(t *testing.T) {
	stage := func(id, text string) string {
		o := Op{Op: "stage", ID: id, T: 1, Scope: "project", Text: text}
		return string(o.encode())
	}
	data := stage("W-1", "first") +
		`{"v":1,"t":2,"op":"stage","id":"W-2","scope":"proj` + "\n" + // torn by a crash
		"\n" +
		`{"v":2,"t":3,"op":"stage","id":"W-3","scope":"project","text":"later format"}` + "\n" +
		`{"v":1,"t":4,"op":"stage","scope":"project","text":"no id"}` + "\n" +
		`{"v":1,"t":5,"op":"stage","id":"W-5","text":"no scope"}` + "\n" +
		`{"v":1,"t":6,"op":"stage","id":"W-6","scope":"project"}` + "\n" +
		`{"v":1,"t":7,"op":"delete","id":"W-7"}` + "\n" +
		`"just a string"` + "\n" +
		`{"t":9,"op":"commit","id":"W-1"}` + "\n" +
		stage("W-10", "last") // a file without a final newline is read too
	data = strings.TrimSuffix(data, "\n")
	j := DecodeJournal([]byte(data))
	var ids []string
	for _, o := range j.Ops {
		ids = append(ids, o.ID)
	}
	require.Equal(t, []string{"W-1", "W-10"}, ids, "ops")
	want := []Problem{
		{Line: 2, Msg: "not valid JSON"},
		{Line: 4, Msg: "version 2 is not supported (this build reads version 1)"},
		{Line: 5, Msg: `no "id"`},
		{Line: 6, Msg: `a stage needs "scope" and "text"`},
		{Line: 7, Msg: `a stage needs "scope" and "text"`},
		{Line: 8, Msg: `unknown "op" "delete"`},
		{Line: 9, Msg: "not a JSON object"},
		{Line: 10, Msg: `no "v" key`},
	}
	require.Equal(t, want, j.Problems, "problems")
	require.Equal(t, "line 2: not valid JSON", j.Problems[0].String(), "Problem.String()")
	// The commit on line 10 was unreadable, so W-1 is still pending: a bad
	// outcome line never silently settles a staged write.
	require.True(t, len(j.Pending) == 2 && j.Pending[0].ID == "W-1" && j.Pending[1].ID == "W-10", "pending %+v, want W-1 and W-10", j.Pending)
}

func TestCompactedJournalKeepsTheNewestRecordsAndNeverAPendingStage(t *testing.T) {
	settled := func(n int) []Op {
		var ops []Op
		for i := 1; i <= n; i++ {
			id := "W-" + strconv.Itoa(i)
			ops = append(ops, Op{Op: "stage", ID: id, T: int64(i), Scope: "project", Text: "fact " + id}, Op{Op: "commit", ID: id, T: int64(i), File: "/p/MEMORY.md", Line: i})
		}
		return ops
	}
	encode := func(ops []Op) []byte {
		var b []byte
		for i := range ops {
			b = append(b, ops[i].encode()...)
		}
		return b
	}
	many := settled(75) // 150 records
	tests := []struct {
		name string
		data []byte
		want []byte
		ok   bool
	}{
		{"an empty journal stays empty", nil, nil, true},
		{"a short journal is written again whole", encode(many[:6]), encode(many[:6]), true},
		{"a long one keeps its newest records", encode(many), encode(many[len(many)-keepJournal:]), true},
		{"blank lines go, records stay", append(append([]byte("\n\n"), encode(many[:2])...), "\n"...), encode(many[:2]), true},
		{"a pending stage keeps it all", encode(append(settled(60), Op{Op: "stage", ID: "W-x", T: 1, Scope: "local", Text: "waiting"})), nil, false},
		{"an unreadable line keeps it all", append(encode(many), "{torn\n"...), nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, ok := compactedJournal(tt.data)
			require.Equal(t, tt.ok, ok, "compactedJournal ok")
			require.Equal(t, tt.want, out, "compactedJournal")
		})
	}
}

func TestDecodeJournalPendingIsEveryStageWithoutAnOutcome(t *testing.T) {
	st := func(id, text string) Op { return Op{Op: "stage", ID: id, T: 1, Scope: "project", Text: text} }
	commit := func(id string) Op { return Op{Op: "commit", ID: id, T: 2, File: "MEMORY.md", Line: 3} }
	reject := func(id string) Op { return Op{Op: "reject", ID: id, T: 2, Reason: "duplicate"} }
	tests := []struct {
		name string
		ops  []Op
		want []string // texts of the pending stages, in file order
	}{
		{"an empty journal", nil, nil},
		{"a stage alone", []Op{st("W-1", "a")}, []string{"a"}},
		{"a committed stage", []Op{st("W-1", "a"), commit("W-1")}, nil},
		{"a rejected stage", []Op{st("W-1", "a"), reject("W-1")}, nil},
		{"only the stage with an outcome is settled", []Op{st("W-1", "a"), st("W-2", "b"), commit("W-2"), st("W-3", "c")}, []string{"a", "c"}},
		{"an outcome for another id settles nothing", []Op{st("W-1", "a"), commit("W-9")}, []string{"a"}},
		// Order does not matter: a compaction may keep an outcome before a re-stage.
		{"an outcome before its stage still settles it", []Op{reject("W-1"), st("W-1", "a")}, nil},
		{"a repeated stage id counts once, the first", []Op{st("W-1", "a"), st("W-1", "a again")}, []string{"a"}},
		{"a repeated stage id with an outcome is settled", []Op{st("W-1", "a"), st("W-1", "a"), commit("W-1")}, nil},
		{"stages keep their file order", []Op{st("W-3", "c"), st("W-1", "a"), st("W-2", "b")}, []string{"c", "a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var data []byte
			for i := range tt.ops {
				data = append(data, tt.ops[i].encode()...)
			}
			j := DecodeJournal(data)
			require.True(t, len(j.Problems) == 0 && len(j.Ops) == len(tt.ops), "problems %v, %d ops of %d", j.Problems, len(j.Ops), len(tt.ops))
			var got []string
			for _, o := range j.Pending {
				require.Equal(t, "stage", o.Op, "pending holds stages only")
				got = append(got, o.Text)
			}
			require.Equal(t, tt.want, got, "pending")
		})
	}
}

// ---- Traces --------------------------------------------------------------------

func TestTraceEncodesOneLineWithoutEmptyParts(t *testing.T) {
	tests := []struct {
		name string
		tr   Trace
		want string
	}{
		{"the bare minimum", Trace{ID: "T-00000001", T: 5, Kind: "inject"},
			`{"v":1,"id":"T-00000001","t":5,"kind":"inject"}`},
		{"an injection", Trace{ID: "T-00000002", T: 6, Kind: "inject", Hash: "abc",
			Stores: []storeReceipt{
				{Store: "notes", Bytes: 100, Tokens: 25, Cap: 16384, Scopes: []scopeReceipt{
					{Scope: "project", File: ".pi/memory/MEMORY.md", Bytes: 90, Lines: 4, Pages: []pageForm{{ID: "P-1", Line: 1, Form: "full"}}},
					{Scope: "global", File: "~/MEMORY.md", Bytes: 10, Lines: 1, Cut: true},
				}},
				{Store: "decisions", Bytes: 0, Tokens: 0, Cap: 8800},
			},
			Faults: []fault{{Scope: "global", Page: "P-2", Line: 9, Reason: "tokens", Bytes: 30}}},
			`{"v":1,"id":"T-00000002","t":6,"kind":"inject","hash":"abc","stores":[{"store":"notes","bytes":100,"tokens":25,"cap":16384,"scopes":[{"scope":"project","file":".pi/memory/MEMORY.md","bytes":90,"lines":4,"pages":[{"id":"P-1","line":1,"form":"full"}]},{"scope":"global","file":"~/MEMORY.md","bytes":10,"lines":1,"cut":true,"pages":[]}]},{"store":"decisions","bytes":0,"tokens":0,"cap":8800}],"faults":[{"scope":"global","page":"P-2","line":9,"reason":"tokens","bytes":30}]}`},
		{"a flush", Trace{ID: "T-00000003", T: 7, Kind: "flush", Ops: []Op{{Op: "commit", ID: "W-1", T: 7, File: "MEMORY.md", Line: 4}}},
			`{"v":1,"id":"T-00000003","t":7,"kind":"flush","ops":[{"v":1,"t":7,"op":"commit","id":"W-1","file":"MEMORY.md","line":4}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want+"\n", string(tt.tr.encode()), "Encode")
		})
	}
}

func TestTraceRoundTrips(t *testing.T) {
	traces := []Trace{
		{ID: "T-00000001", T: 1700000000000, Kind: "inject"},
		{ID: "T-00000002", T: 1700000000001, Kind: "inject", Hash: "da39a3ee5e6b4b0d3255bfef95601890afd80709",
			Stores: []storeReceipt{
				{Store: "notes", Bytes: 1234, Tokens: 309, Cap: 16384, Scopes: []scopeReceipt{
					{Scope: "project", File: "/src/app/.pi/memory/MEMORY.md", Bytes: 1000, Lines: 30, Pages: []pageForm{
						{ID: "P-0123456789", Line: 1, Form: "full"},
						{ID: "P-0123456789-2", Line: 3, Form: "summary"},
						{ID: "P-abcdef0123", Line: 9, Form: "dropped"},
					}},
					{Scope: "local", File: "MEMORY.local.md \"é\"", Bytes: 234, Lines: 5, Cut: true},
				}},
				{Store: "decisions"},
			},
			Faults: []fault{
				{Scope: "project", Page: "P-abcdef0123", Line: 9, Reason: "scope_lines", Bytes: 44},
				{Scope: "global", Page: "P-1", Line: 1, Reason: "tokens"},
			}},
		{ID: "T-00000003", T: 3, Kind: "flush", Ops: []Op{
			{Op: "commit", ID: "W-1", T: 3, File: "/p/MEMORY.md", Line: 12, Page: "P-1", Detail: "joined its lines"},
			{Op: "reject", ID: "W-2", T: 3, Reason: "index_cap", Detail: "MEMORY.md would have 201 lines"},
		}},
	}
	var data []byte
	for i := range traces {
		data = append(data, traces[i].encode()...)
	}
	got, problems := DecodeTraces(data)
	require.Equal(t, 0, len(problems), "problems")
	require.Equal(t, traces, got, "round trip")
}

func TestDecodeTracesSkipsBadLinesWithProblems(t *testing.T) {
	good := func(id string) string {
		tr := Trace{ID: id, T: 1, Kind: "inject"}
		return string(tr.encode())
	}
	data := good("T-1") +
		`{"v":1,"id":"T-2","t":2,"kind":"inj` + "\n" +
		"   \n" +
		`{"v":1,"t":3,"kind":"inject"}` + "\n" +
		`{"v":3,"id":"T-4","t":4,"kind":"inject"}` + "\n" +
		`{"id":"T-5","t":5,"kind":"inject"}` + "\n" +
		`42` + "\n" +
		good("T-7")
	got, problems := DecodeTraces([]byte(data))
	var ids []string
	for _, tr := range got {
		ids = append(ids, tr.ID)
	}
	require.Equal(t, []string{"T-1", "T-7"}, ids, "traces")
	want := []Problem{
		{Line: 2, Msg: "not valid JSON"},
		{Line: 4, Msg: `no "id"`},
		{Line: 5, Msg: "version 3 is not supported (this build reads version 1)"},
		{Line: 6, Msg: `no "v" key`},
		{Line: 7, Msg: "not a JSON object"},
	}
	require.Equal(t, want, problems, "problems")
}

func TestDecodeTracesOfNothingIsNothing(t *testing.T) {
	for _, data := range []string{"", "\n", "\r\n\r\n", " \t \n"} {
		got, problems := DecodeTraces([]byte(data))
		require.True(t, len(got) == 0 && len(problems) == 0, "DecodeTraces(%q) = %v, %v", data, got, problems)
		j := DecodeJournal([]byte(data))
		require.True(t, len(j.Ops) == 0 && len(j.Pending) == 0 && len(j.Problems) == 0, "DecodeJournal(%q) = %+v", data, j)
	}
}

// Regression: a line with raw invalid UTF-8 inside a JSON string was read as
// is, then written back with U+FFFD (jsonw), so compacting a journal changed
// its records. Such a line is now a Problem, like any damaged line.
func TestDecodersReportALineOfInvalidUTF8(t *testing.T) {
	bad := "{\"v\":1,\"t\":1,\"op\":\"stage\",\"id\":\"W-1\",\"scope\":\"project\",\"text\":\"caf\xe9\"}\n"
	j := DecodeJournal([]byte(bad))
	require.True(t, len(j.Ops) == 0 && reflect.DeepEqual(j.Problems, []Problem{{Line: 1, Msg: "not valid UTF-8"}}), "journal: ops %+v problems %v", j.Ops, j.Problems)
	traces, problems := DecodeTraces([]byte("{\"v\":1,\"id\":\"T-\xc3\"}\n"))
	require.True(t, len(traces) == 0 && reflect.DeepEqual(problems, []Problem{{Line: 1, Msg: "not valid UTF-8"}}), "traces: %+v problems %v", traces, problems)
	_, err := decodePageTable([]byte("{\"v\":1,\"kind\":\"header\",\"scope\":\"\xff\",\"pages\":0}\n"))
	require.True(t, err != nil && err.Error() == "line 1: not valid UTF-8", "page table: %v", err)
	// Escaped characters are valid UTF-8 on disk and read as the text they name.
	j = DecodeJournal([]byte(`{"v":1,"op":"stage","id":"W-1","scope":"project","text":"caf\u00e9 \ud83d\ude00"}`))
	require.True(t, len(j.Problems) == 0 && j.Ops[0].Text == "café 😀", "escaped text: %+v", j)
}

// Regression: Op.encode dropped a negative "line", so a record read with one
// changed when the journal was compacted. Only a zero line is left out.
func TestOpKeepsEveryNonZeroLineWhenWrittenBack(t *testing.T) {
	for _, line := range []int{-3, 1, 1 << 40} {
		o := Op{Op: "commit", ID: "W-1", Line: line}
		j := DecodeJournal(o.encode())
		require.True(t, len(j.Ops) == 1 && j.Ops[0].Line == line, "line %d came back as %+v", line, j)
	}
}

func TestAppendPageTableStopsAtItsLimit(t *testing.T) {
	pages := parse("project", []byte(formatsMemory))
	full := buildPageTable("project", "/p/MEMORY.md", "MEMORY.md", 9, "cd", pages, nil, 5)
	whole := full.encode()
	for _, limit := range []int{len(whole), len(whole) - 1, len(whole) / 2, 1} {
		got := appendPageTable([]byte("kept"), limit, "project", "/p/MEMORY.md", "MEMORY.md", 9, "cd", pages, nil, 5)
		require.True(t, strings.HasPrefix(string(got), "kept"), "limit %d: the bytes before are kept", limit)
		got = got[4:]
		pt, err := decodePageTable(got)
		require.NoError(t, err, "limit %d: decode", limit)
		n := len(pt.Entries)
		require.True(t, len(got) <= limit || n == 0, "limit %d: %d bytes", limit, len(got))
		require.Equal(t, len(pages)-n, pt.Omitted, "limit %d: omitted", limit)
		if n > 0 {
			require.Equal(t, full.Entries[:n], pt.Entries, "limit %d: the first pages' entries", limit)
		}
	}
	require.True(t, len(pages) > 2, "the example has pages to omit")
}
