package hsimport

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func done(path string, size, mtime, at int64) Record {
	return Record{Op: OpDone, Path: path, Size: size, Mtime: mtime, Doc: "pimem-import:" + base(path), Bank: "b", Messages: 3, At: at}
}

func skip(path string, size, mtime, at int64) Record {
	return Record{Op: OpSkip, Path: path, Size: size, Mtime: mtime, Reason: SkipEmpty, At: at}
}

func checkpointOf(recs ...Record) Checkpoint {
	var b []byte
	for _, r := range recs {
		b = append(b, r.Line()...)
	}
	return DecodeCheckpoint(b)
}

func TestRecordLinesReadBackAsTheyWereWritten(t *testing.T) {
	recs := []Record{done("/s/a.jsonl", 812, 1763629200000, 1763715600000), skip("/s/b.jsonl", 0, 5, 6)}
	c := checkpointOf(recs...)
	require.Equal(t, 0, len(c.Problems))
	require.Equal(t, recs[0], c.Files["/s/a.jsonl"])
	require.Equal(t, recs[1], c.Files["/s/b.jsonl"])
	require.Equal(t, "/s/b.jsonl", c.Last)
	require.Equal(t, 2, c.Lines)
	require.False(t, c.Torn)
	require.Equal(t, `{"v":1,"op":"done","path":"/s/a.jsonl","size":812,"mtime":1763629200000,"doc":"pimem-import:a.jsonl","bank":"b","messages":3,"at":1763715600000}`+"\n", string(recs[0].Line()))
	require.Equal(t, `{"v":1,"op":"skip","path":"/s/b.jsonl","size":0,"mtime":5,"reason":"no conversation to send on its current branch","at":6}`+"\n", string(recs[1].Line()))
}

func TestTheNewestRecordOfAPathWins(t *testing.T) {
	c := checkpointOf(skip("/a", 1, 1, 1), done("/b", 1, 1, 2), done("/a", 9, 9, 3))
	require.Equal(t, OpDone, c.Files["/a"].Op)
	require.Equal(t, int64(9), c.Files["/a"].Size)
	require.Equal(t, "/a", c.Last)
	require.Equal(t, 3, c.Lines)
	require.Equal(t, 2, len(c.Files))
}

func TestDecodeCheckpointSkipsLinesItCannotReadAndSaysWhich(t *testing.T) {
	good := string(done("/a", 1, 1, 1).Line())
	tests := []struct{ name, line, why string }{
		{"not JSON", "{oops", "line 2: not JSON"},
		{"not an object", "[1]", "line 2: not a JSON object"},
		{"a later version", `{"v":2,"op":"done","path":"/x"}`, "line 2: version 2 is not 1"},
		{"no version", `{"op":"done","path":"/x"}`, "line 2: version  is not 1"},
		{"an unknown op", `{"v":1,"op":"undo","path":"/x","size":1,"mtime":1,"at":1}`, `line 2: op "undo" is neither`},
		{"no path", `{"v":1,"op":"skip","size":1,"mtime":1,"at":1}`, "line 2: no path"},
		{"a negative size", `{"v":1,"op":"skip","path":"/x","size":-1,"mtime":1,"at":1}`, "whole numbers"},
		{"a fractional time", `{"v":1,"op":"skip","path":"/x","size":1,"mtime":1.5,"at":1}`, "whole numbers"},
		{"a string size", `{"v":1,"op":"skip","path":"/x","size":"1","mtime":1,"at":1}`, "whole numbers"},
		{"done without doc", `{"v":1,"op":"done","path":"/x","size":1,"mtime":1,"at":1,"messages":1}`, "needs doc and messages"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := DecodeCheckpoint([]byte(good + tc.line + "\n" + good))
			require.Equal(t, 1, len(c.Problems), c.Problems)
			require.Contains(t, c.Problems[0], tc.why)
			require.Equal(t, 1, len(c.Files))
			require.Equal(t, 2, c.Lines)
		})
	}
}

func TestDecodeCheckpointReportsATornLastLine(t *testing.T) {
	line := string(done("/b", 1, 1, 1).Line())
	c := DecodeCheckpoint([]byte(string(done("/a", 1, 1, 1).Line()) + line[:20]))
	require.True(t, c.Torn)
	require.Equal(t, 1, len(c.Problems))
	require.Contains(t, c.Problems[0], "line 2: the last line is cut short")
	require.Equal(t, "/a", c.Last)

	// A complete last record without its newline still counts; the next
	// record must start on a line of its own.
	c = DecodeCheckpoint([]byte(strings.TrimSuffix(line, "\n")))
	require.True(t, c.Torn)
	require.Equal(t, 0, len(c.Problems))
	require.Equal(t, "/b", c.Last)
}

func TestDecodeCheckpointAcceptsNothingABOMAndCRLF(t *testing.T) {
	require.Equal(t, 0, len(DecodeCheckpoint(nil).Files))
	require.False(t, DecodeCheckpoint(nil).Torn)
	line := strings.TrimSuffix(string(done("/a", 1, 1, 1).Line()), "\n")
	c := DecodeCheckpoint([]byte("\uFEFF" + line + "\r\n\r\n"))
	require.Equal(t, 0, len(c.Problems))
	require.Equal(t, 1, len(c.Files))
}

func TestAddIsWhatAppendingTheLineAndReadingItBackGives(t *testing.T) {
	var c Checkpoint
	var file []byte
	for _, r := range []Record{done("/a", 1, 1, 1), skip("/b", 2, 2, 2), done("/a", 3, 3, 3)} {
		c.Add(r)
		file = append(file, r.Line()...)
	}
	require.Equal(t, DecodeCheckpoint(file), c)
}

func TestEncodeKeepsTheNewestRecordOfEachPathWhereItWas(t *testing.T) {
	c := checkpointOf(done("/c", 1, 1, 5), done("/a", 1, 1, 1), skip("/b", 1, 1, 3), done("/a", 2, 2, 9), done("/c", 1, 1, 4))
	again := DecodeCheckpoint(c.Encode())
	require.Equal(t, c.Files, again.Files)
	require.Equal(t, "/c", again.Last)
	require.Equal(t, 3, again.Lines)
	lines := strings.Split(strings.TrimSuffix(string(c.Encode()), "\n"), "\n")
	require.Equal(t, 3, len(lines))
	require.Contains(t, lines[0], `"path":"/b"`)
	require.Contains(t, lines[1], `"path":"/a","size":2`)
	require.Contains(t, lines[2], `"path":"/c"`)
	require.Equal(t, 0, len(Checkpoint{}.Encode()))
}

func TestSortFilesOrdersByNameThenPath(t *testing.T) {
	for n := 0; n < 40; n++ {
		var fs []File
		for i := 0; i < n; i++ {
			fs = append(fs, File{Path: "/" + itoa3((i*7)%5) + "/" + itoa3((i*13)%n)})
		}
		sortFiles(fs)
		for i := 1; i < len(fs); i++ {
			a, b := fs[i-1], fs[i]
			require.True(t, base(a.Path) < base(b.Path) || base(a.Path) == base(b.Path) && a.Path <= b.Path, "n=%d: %v", n, fs)
		}
	}
}

func TestNeedsCompactionOnlyWhenSupersededRecordsDominate(t *testing.T) {
	var c Checkpoint
	for i := 0; i < 300; i++ {
		c.Add(done("/a"+itoa3(i%100), int64(i), 1, int64(i)))
	}
	require.True(t, c.NeedsCompaction()) // 300 lines, 100 live
	c = DecodeCheckpoint(c.Encode())
	require.False(t, c.NeedsCompaction())
	var small Checkpoint
	for i := 0; i < 100; i++ {
		small.Add(done("/a", int64(i), 1, 1))
	}
	require.False(t, small.NeedsCompaction()) // under 256 lines: not worth a rewrite
}

func TestCheckpointNameIsOneFilePerServer(t *testing.T) {
	a := CheckpointName("http://127.0.0.1:8888")
	require.True(t, strings.HasPrefix(a, "import-") && strings.HasSuffix(a, ".jsonl") && len(a) == len("import-0123456789.jsonl"), a)
	require.Equal(t, a, CheckpointName(" http://127.0.0.1:8888/ "))
	require.True(t, a != CheckpointName("http://127.0.0.1:9999"))
}

func TestIsSessionFile(t *testing.T) {
	for name, want := range map[string]bool{
		"2026-11-20T09-00-00-000Z_0195f3a2.jsonl": true, "x.jsonl": true,
		".jsonl": false, ".hidden.jsonl": false, "x.json": false, "x.jsonl.tmp": false, "dir/": false,
	} {
		require.Equal(t, want, IsSessionFile(name), name)
	}
}

func TestPlan(t *testing.T) {
	cp := checkpointOf(
		done("/s/p/2026-01-01_a.jsonl", 10, 100, 1),
		done("/s/p/2026-01-02_b.jsonl", 20, 200, 2),
		skip("/s/p/2026-01-03_c.jsonl", 30, 300, 3),
		skip("/s/q/2026-01-04_d.jsonl", 40, 400, 4),
		done("/s/q/2026-01-05_e.jsonl", 50, 500, 5),
	)
	listing := []File{
		{"/s/q/2026-01-06_new.jsonl", 1, 1},  // new
		{"/s/p/2026-01-01_a.jsonl", 10, 100}, // done, unchanged
		{"/s/p/2026-01-02_b.jsonl", 25, 200}, // done, grew
		{"/s/p/2026-01-03_c.jsonl", 30, 300}, // skipped, unchanged
		{"/s/q/2026-01-04_d.jsonl", 40, 401}, // skipped, touched
		{"/s/q/2026-01-05_e.jsonl", 50, 501}, // done, touched
		{"/s/a/2026-01-00_old.jsonl", 1, 1},  // new, oldest by name though listed last
		{"/s/p/2026-01-01_a.jsonl", 10, 100}, // listed twice
	}
	todo := Plan(cp, listing)
	var paths []string
	for _, f := range todo.Files {
		paths = append(paths, f.Path)
	}
	require.Equal(t, []string{
		"/s/a/2026-01-00_old.jsonl",
		"/s/p/2026-01-02_b.jsonl",
		"/s/q/2026-01-04_d.jsonl",
		"/s/q/2026-01-05_e.jsonl",
		"/s/q/2026-01-06_new.jsonl",
	}, paths)
	require.Equal(t, 2, todo.New)
	require.Equal(t, 3, todo.Changed)
	require.Equal(t, 1, todo.Done)
	require.Equal(t, 1, todo.Skipped)
	require.Equal(t, "/s/q/2026-01-05_e.jsonl", todo.Resume)
}

func TestPlanAfterEveryFileIsDoneHasNothingToDo(t *testing.T) {
	listing := []File{{"/s/a.jsonl", 1, 1}, {"/s/b.jsonl", 2, 2}}
	var cp Checkpoint
	for i, f := range Plan(cp, listing).Files {
		cp.Add(done(f.Path, f.Size, f.Mtime, int64(i)))
	}
	todo := Plan(cp, listing)
	require.Equal(t, 0, len(todo.Files))
	require.Equal(t, 2, todo.Done)
	require.Equal(t, "", todo.Resume) // nothing to resume
	first := Plan(Checkpoint{}, listing)
	require.Equal(t, "", first.Resume) // a first run resumes nothing
}

func TestPlanResumesAnInterruptedRunWhereItStopped(t *testing.T) {
	var listing []File
	for i := 0; i < 10; i++ {
		listing = append(listing, File{"/s/" + itoa3(i) + ".jsonl", int64(i), 1})
	}
	var cp Checkpoint
	for _, f := range Plan(cp, listing).Files[:4] { // killed after four
		cp.Add(done(f.Path, f.Size, f.Mtime, 1))
	}
	cp = DecodeCheckpoint(append(cp.Encode(), `{"v":1,"op":"done","pa`...)) // and a torn fifth
	todo := Plan(cp, listing)
	require.Equal(t, 6, len(todo.Files))
	require.Equal(t, "/s/004.jsonl", todo.Files[0].Path)
	require.Equal(t, "/s/003.jsonl", todo.Resume)
}
