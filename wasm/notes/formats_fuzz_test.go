package notes

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// The sidecars are machine-written, but they live on disk where a crash can
// tear a line and a person or another version can edit them. Their readers
// must take any bytes without panicking, and what they read must survive
// being written back: the journal is compacted by re-encoding its records
// and traces are cut back by rewriting them.

// fuzzLines counts the lines a reader sees as records: the non-blank ones.
func fuzzLines(data []byte) (n int) {
	eachLine(data, func(int, []byte) { n++ })
	return n
}

func checkProblems(t *testing.T, data []byte, problems []Problem) {
	t.Helper()
	last := 0
	lines := bytes.Count(data, []byte("\n")) + 1
	for _, p := range problems {
		require.True(t, p.Line > last && p.Line <= lines && p.Msg != "", "problem %v out of order or range (previous line %d, %d lines) in %q", p, last, lines, data)
		last = p.Line
	}
}

func FuzzDecodeJournal(f *testing.F) {
	stage := Op{Op: "stage", ID: "W-0000abcd", T: 1700000000000, Scope: "project", Section: "Build", Text: "Run make test", Source: "remember"}
	commit := Op{Op: "commit", ID: "W-0000abcd", T: 1700000001000, File: "/p/MEMORY.md", Line: 7, Page: "P-0123456789", Detail: "joined its lines"}
	reject := Op{Op: "reject", ID: "W-0000abce", T: 2, Reason: "secret", Detail: "it contains \"token=…\""}
	journal := append(append(stage.encode(), commit.encode()...), reject.encode()...)
	for _, s := range [][]byte{
		journal,
		journal[:len(journal)-20],
		append([]byte("\r\n  \n"), bytes.ReplaceAll(journal, []byte("\n"), []byte("\r\n"))...),
		[]byte(`{"v":1,"t":-1,"op":"commit","id":"W-1","line":-3}`),
		[]byte(`{"v":"1","t":"9","op":"stage","id":7,"scope":true,"text":{"a":[1]}}`),
		[]byte(`{"v":1.9,"t":1e300,"op":"reject","id":"W-2","line":1e19}` + "\n" + `{"v":2}` + "\n[]\nnull\n"),
		[]byte("{\"v\":1,\"op\":\"stage\",\"id\":\"W-3\",\"scope\":\"p\",\"text\":\"caf\xe9 \\ud800 \\u2028\"}"),
		[]byte(`{"v":1,"op":"stage","id":"W-4","id":"W-5","scope":"p","text":"dup keys"}`),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		j := DecodeJournal(data)
		checkProblems(t, data, j.Problems)
		require.Equal(t, fuzzLines(data), len(j.Ops)+len(j.Problems), "ops and problems, one per line of %q", data)
		seen := map[string]bool{}
		for _, o := range j.Pending {
			require.True(t, o.Op == "stage" && !seen[o.ID], "pending %+v is not a stage or repeats an id", o)
			seen[o.ID] = true
		}

		var again []byte
		for i := range j.Ops {
			again = append(again, j.Ops[i].encode()...)
		}
		k := DecodeJournal(again)
		require.Equal(t, 0, len(k.Problems), "re-encoded journal has problems %v:\n%s\nfrom %q", k.Problems, again, data)
		require.True(t, reflect.DeepEqual(k.Ops, j.Ops) && reflect.DeepEqual(k.Pending, j.Pending), "re-encoding changed the records\nfirst %+v\nthen  %+v\nfrom %q", j.Ops, k.Ops, data)
	})
}

func FuzzDecodePageTable(f *testing.F) {
	pt := buildPageTable("project", "/src/app/.pi/memory/MEMORY.md", "MEMORY.md", int64(len(formatsMemory)), "ab12", parse("project", []byte(formatsMemory)), nil, 1700000001000)
	table := pt.encode()
	for _, s := range [][]byte{
		table,
		table[:len(table)-30],
		bytes.ReplaceAll(table, []byte("\n"), []byte("\r\n\n")),
		[]byte(`{"v":1,"kind":"header","pages":0}`),
		[]byte(`{"v":1,"kind":"header","pages":-1}`),
		[]byte(`{"v":1,"kind":"header","pages":1e30}` + "\n" + `{"v":1,"id":"P-1","hash":"h"}`),
		[]byte(`{"v":2,"kind":"header"}`),
		[]byte(`{"v":1,"kind":"header","pages":0,"omitted":-3}`),
		[]byte(`{"v":1,"kind":"header","pages":0,"omitted":1e30}`),
		[]byte(`{"v":1,"kind":"header","pages":0,"omitted":"7"}`),
		[]byte("{\"v\":1,\"kind\":\"header\",\"scope\":\"\xff\",\"pages\":1}\n{\"v\":1,\"id\":{},\"hash\":[1],\"line\":\"3\"}"),
	} {
		f.Add(s)
	}
	var d dates // reused from one input to the next, as a session does
	f.Fuzz(func(t *testing.T, data []byte) {
		pt, err := decodePageTable(data)
		hdr, derr := d.decode(data)
		require.True(t, (err == nil) == (derr == nil) && (err == nil || err.Error() == derr.Error()), "Dates.Decode: error %v, DecodePageTable's %v", derr, err)
		if err != nil {
			require.Equal(t, pageTable{}, pt, "error %v with a non-empty table", err)
			require.Equal(t, 0, d.count(), "dates kept from a refused table")
			return
		}
		head := pt
		head.Entries, head.Count = nil, len(pt.Entries)
		require.Equal(t, head, hdr, "the header Dates.Decode read")
		for _, e := range pt.Entries {
			require.True(t, e.ID != "" && e.Hash != "", "accepted an entry without id or hash: %+v", e)
			first := 0 // the first entry with this hash: its dates win
			for pt.Entries[first].Hash != e.Hash {
				first++
			}
			f, l, ok := d.get(e.Hash)
			require.True(t, ok && f == pt.Entries[first].FirstSeen && l == pt.Entries[first].LastConfirmed, "dates of %q = %d %d %v, want the first entry's %+v", e.Hash, f, l, ok, pt.Entries[first])
		}
		// A table that was accepted is rewritten as is by /memory verify.
		again, err := decodePageTable(pt.encode())
		require.NoError(t, err, "re-encoded table refused")
		require.Equal(t, pt, again, "re-encoding changed the table from %q", data)
	})
}

func FuzzDecodeTraces(f *testing.F) {
	inject := Trace{ID: "T-00000002", T: 1700000000001, Kind: "inject", Hash: "abc",
		Stores: []storeReceipt{
			{Store: "notes", Bytes: 100, Tokens: 25, Cap: 16384, Scopes: []scopeReceipt{
				{Scope: "project", File: ".pi/memory/MEMORY.md", Bytes: 90, Lines: 4, Pages: []pageForm{{ID: "P-1", Line: 1, Form: "full"}}},
				{Scope: "global", File: "~/MEMORY.md", Bytes: 10, Lines: 1, Cut: true},
			}},
			{Store: "decisions", Cap: 8800},
		},
		Faults: []fault{{Scope: "global", Page: "P-2", Line: 9, Reason: "tokens", Bytes: 30}}}
	flush := Trace{ID: "T-00000003", T: 7, Kind: "flush", Ops: []Op{
		{Op: "commit", ID: "W-1", T: 7, File: "MEMORY.md", Line: 4},
		{Op: "reject", ID: "W-2", T: 7, Reason: "duplicate", Page: "P-1"},
	}}
	traces := append(inject.encode(), flush.encode()...)
	for _, s := range [][]byte{
		traces,
		traces[:len(traces)-40],
		append([]byte("\n\n"), bytes.ReplaceAll(traces, []byte("\n"), []byte("\r\n"))...),
		[]byte(`{"v":1,"id":"T-1","stores":5,"faults":{"a":{"line":-1}},"ops":"x"}`),
		[]byte(`{"v":1,"id":"T-1","stores":[{"scopes":[{"cut":"true","pages":[1,{"line":"2"}]}]}],"ops":[{"line":-2}]}`),
		[]byte(`{"v":1,"id":"T-1","t":1e300,"stores":[{"bytes":1e19,"scopes":{"x":{"pages":null}}}]}`),
		[]byte("{\"v\":1,\"id\":\"T-\xc3\",\"kind\":\"\\udc00\"}"),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, problems := DecodeTraces(data)
		checkProblems(t, data, problems)
		require.Equal(t, fuzzLines(data), len(got)+len(problems), "traces and problems, one per line of %q", data)
		var again []byte
		for i := range got {
			again = append(again, got[i].encode()...)
		}
		back, problems := DecodeTraces(again)
		require.Equal(t, 0, len(problems), "re-encoded traces have problems")
		require.Equal(t, back, got, "re-encoding changed the traces from %q", data)
	})
}

// forgotten.jsonl is read to bring entries back: any bytes must decode
// without panicking, every line is a record, a restore or a problem, and a
// record survives being written again.
func FuzzDecodeForgotten(f *testing.F) {
	rec := forgotten{ID: "F-1a2b3c4d", T: 1772355600000, Scope: "project", File: "/p/.pi/memory/MEMORY.md", Line: 7,
		Section: "Build", Text: "Run make test", Src: "- Run make test\n\n", Before: "- Lint"}
	data := append(rec.encode(), restoreRecord(rec.ID, 1772355660000, rec.File, 9, 0, 0)...)
	for _, s := range [][]byte{
		data,
		data[:len(data)-15],
		append([]byte("\r\n  \n"), bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))...),
		[]byte(`{"v":1,"op":"restore","id":"F-00000000","t":0}`),
		[]byte(`{"v":1,"t":1,"op":"forget","id":"F-00000009","scope":"project","file":"/m.md","line":3,"section":"B","text":"x","page":"P-5f8637fa0b-2","src":"- x","before":"- w","after":""}`),
		[]byte(`{"v":1,"op":"forget","id":"F-00000000","scope":"local","file":"f.md","line":1e30,"text":"x","src":"y"}`),
		[]byte(`{"v":"1","op":7,"id":["F-00000000"]}` + "\n[]\nnull\n"),
		[]byte("{\"v\":1,\"op\":\"forget\",\"id\":\"F-00000001\",\"scope\":\"global\",\"file\":\"/m.md\",\"line\":2,\"text\":\"caf\xe9\",\"src\":\"- \\ud800\\n\"}"),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := decodeForgotten(data)
		checkProblems(t, data, got.Problems)
		restores := 0
		eachLine(data, func(_ int, line []byte) {
			if r, msg := record(line); msg == "" && r.Get("op").String() == "restore" {
				restores++
			}
		})
		require.True(t, len(got.Records)+len(got.Problems) <= fuzzLines(data), "more records and problems than lines in %q", data)
		require.True(t, len(got.Records)+len(got.Problems)+restores >= fuzzLines(data), "a line of %q was neither read nor reported", data)
		for _, r := range got.Records {
			require.True(t, isRestoreID(r.ID) && r.Line >= 1 && r.File != "" && r.Text != "" && r.Src != "", "record %+v lacks what Restore needs", r)
			again := decodeForgotten(r.encode())
			require.Equal(t, 1, len(again.Records), "%+v does not read back", r)
			want := r
			want.Restored, want.RestoredLine, want.Seq, want.RestoreSeq = 0, 0, 1, 0 // alone in a file of its own
			require.True(t, reflect.DeepEqual(want, again.Records[0]), "%+v read back as %+v", want, again.Records[0])
		}
	})
}
