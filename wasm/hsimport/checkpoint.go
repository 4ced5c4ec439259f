package hsimport

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonl"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/sha1"
	"github.com/tidwall/gjson"
)

// The checkpoint is JSON Lines, one record per session file handled,
// appended as the import goes (docs/formats.md): a killed import loses at
// most the line it was writing, and resuming costs one read, not a rewrite
// of every record per session. The newest record of a path wins.
const (
	OpDone = "done" // sent; the server answered 2xx
	OpSkip = "skip" // refused or nothing to send; not read again until the file changes
)

// SkipEmpty is the reason recorded for a session with nothing to send.
const SkipEmpty = "no conversation to send on its current branch"

// Record is one line of the checkpoint.
type Record struct {
	Op       string // OpDone or OpSkip
	Path     string // the session file
	Size     int64  // its size and modification time (Unix ms) when it was read
	Mtime    int64
	Doc      string // OpDone: the document id sent
	Bank     string // OpDone: the bank it went to
	Messages int    // OpDone: messages sent
	Reason   string // OpSkip: why
	At       int64  // when (Unix ms)
}

// Line is the record as one checkpoint line, newline included.
//
//	Record{Op: "done", Path: "/a/s.jsonl", Size: 812, Mtime: 1763629200000, Doc: "pimem-import:s1", Bank: "pimem-app-1a2b3c4d5e", Messages: 4, At: 1763715600000}.Line()
//	  => {"v":1,"op":"done","path":"/a/s.jsonl","size":812,"mtime":1763629200000,"doc":"pimem-import:s1","bank":"pimem-app-1a2b3c4d5e","messages":4,"at":1763715600000}
func (r Record) Line() []byte {
	o := jsonw.Open(nil)
	o.Int("v", 1)
	o.Str("op", r.Op)
	o.Str("path", r.Path)
	o.Int("size", r.Size)
	o.Int("mtime", r.Mtime)
	if r.Op == OpDone {
		o.Str("doc", r.Doc)
		o.Str("bank", r.Bank)
		o.Int("messages", int64(r.Messages))
	} else {
		o.Str("reason", r.Reason)
	}
	o.Int("at", r.At)
	return append(o.Close(), '\n')
}

// Checkpoint is what earlier runs against one server recorded.
type Checkpoint struct {
	Files    map[string]Record // the newest record of each path
	Last     string            // the path of the last record: where the previous run stopped
	Problems []string          // lines that could not be read ("line 3: …"); they are skipped
	Lines    int               // records in the file, superseded ones included
	Torn     bool              // the file does not end with a newline: append one before the next record

	order []string // the path of each record read or added, in order (Encode keeps the newest of each)
}

// CheckpointName is the checkpoint's file name for the server at url, in
// <agentDir>/pi-memory/hindsight/: one file per server, so an import to a
// second server starts from nothing instead of believing it is done.
//
//	CheckpointName("http://127.0.0.1:8888") => "import-<10 hex digits>.jsonl"
func CheckpointName(url string) string {
	url = strings.TrimRight(strings.TrimSpace(url), "/")
	sum := sha1.Sum([]byte(url))
	const hex = "0123456789abcdef"
	var b [10]byte
	for i := 0; i < 5; i++ {
		b[2*i], b[2*i+1] = hex[sum[i]>>4], hex[sum[i]&15]
	}
	return "import-" + string(b[:]) + ".jsonl"
}

// DecodeCheckpoint reads a checkpoint file (nil or empty: nothing done
// yet). A line that is not a record is skipped and named in Problems; the
// records after it still count. A BOM and \r\n endings are accepted.
func DecodeCheckpoint(data []byte) Checkpoint {
	c := Checkpoint{Files: map[string]Record{}}
	text := strings.TrimPrefix(string(data), "\uFEFF")
	c.Torn = text != "" && !strings.HasSuffix(text, "\n")
	jsonl.Lines(data, func(n int, line []byte, torn bool) bool {
		r, why := decodeRecord(string(line))
		if why != "" {
			if torn {
				why = "the last line is cut short (an import was stopped while writing it); that session is imported again"
			}
			c.Problems = append(c.Problems, "line "+numstr.Itoa(n)+": "+why)
			return true
		}
		c.Add(r)
		return true
	})
	return c
}

func decodeRecord(line string) (Record, string) {
	if !jsonr.Valid(line) {
		return Record{}, "not JSON"
	}
	v := gjson.Parse(line)
	if !v.IsObject() {
		return Record{}, "not a JSON object"
	}
	if ver := jsonr.Get(v, "v"); ver.Type != gjson.Number || ver.Num != 1 {
		return Record{}, "version " + ver.Raw + " is not 1 (written by a newer pi-memory?)"
	}
	num := func(k string) (int64, bool) {
		x := jsonr.Get(v, k)
		return int64(x.Num), x.Type == gjson.Number && x.Num >= 0 && x.Num == float64(int64(x.Num))
	}
	r := Record{Op: jsonr.Get(v, "op").Str, Path: jsonr.Get(v, "path").Str}
	if r.Op != OpDone && r.Op != OpSkip {
		return Record{}, "op " + jsonr.Get(v, "op").Raw + " is neither \"done\" nor \"skip\""
	}
	if r.Path == "" {
		return Record{}, "no path"
	}
	var ok1, ok2, ok3 bool
	r.Size, ok1 = num("size")
	r.Mtime, ok2 = num("mtime")
	r.At, ok3 = num("at")
	if !ok1 || !ok2 || !ok3 {
		return Record{}, "size, mtime and at must be whole numbers ≥ 0"
	}
	if r.Op == OpDone {
		r.Doc, r.Bank = jsonr.Get(v, "doc").Str, jsonr.Get(v, "bank").Str
		m, ok := num("messages")
		if !ok || r.Doc == "" {
			return Record{}, "a done record needs doc and messages"
		}
		r.Messages = int(m)
	} else {
		r.Reason = jsonr.Get(v, "reason").Str
	}
	return r, ""
}

// Add records r, as appending r.Line() to the file and reading it back would.
func (c *Checkpoint) Add(r Record) {
	if c.Files == nil {
		c.Files = map[string]Record{}
	}
	c.Files[r.Path] = r
	c.Last = r.Path
	c.Lines++
	c.order = append(c.order, r.Path)
}

// NeedsCompaction reports whether the file holds many superseded records
// (sessions imported again as they grew): more than twice the live ones,
// past 256 lines. Then write Encode() over it atomically.
func (c Checkpoint) NeedsCompaction() bool {
	return c.Lines > 256 && c.Lines > 2*len(c.Files)
}

// Encode is the checkpoint with one record per path, each where its newest
// record was: in the order they were written, the last one last.
func (c Checkpoint) Encode() []byte {
	newest := make(map[string]int, len(c.Files))
	for i, p := range c.order {
		newest[p] = i
	}
	var b []byte
	for i, p := range c.order {
		if newest[p] == i {
			b = append(b, c.Files[p].Line()...)
		}
	}
	return b
}

// File is a session file as the host's listing gives it.
type File struct {
	Path  string
	Size  int64
	Mtime int64 // Unix ms
}

// IsSessionFile reports whether a listed name is a pi session file (pi
// writes <time>_<id>.jsonl; anything else in the folder is not read).
func IsSessionFile(name string) bool {
	return strings.HasSuffix(name, ".jsonl") && !strings.HasPrefix(name, ".") && len(name) > len(".jsonl")
}

// Todo is what remains of an import.
type Todo struct {
	Files   []File // to read and send, oldest session first
	New     int    // of Files: never imported
	Changed int    // of Files: imported or skipped, then changed (size or mtime): sent again, replacing
	Done    int    // imported and unchanged: not sent
	Skipped int    // skipped earlier and unchanged: not read again
	Resume  string // the previous run's last file, when this run resumes one
}

// Plan compares a listing of session files with the checkpoint. A file
// whose size or mtime differs from its record changed after it was read (a
// session that went on) and is imported again; its document id is the same,
// so the server replaces it. Files are ordered by name (pi's names start
// with the session's time), then by path: the oldest sessions go first, in
// every project. A path listed twice counts once.
//
//	Plan(cp, [{a.jsonl 10 5}, {b.jsonl 20 6}]) with a.jsonl done at size 10, mtime 5
//	  => Todo{Files: [b.jsonl], New: 1, Done: 1}
func Plan(c Checkpoint, listing []File) Todo {
	var t Todo
	seen := make(map[string]bool, len(listing))
	for _, f := range listing {
		if seen[f.Path] {
			continue
		}
		seen[f.Path] = true
		r, ok := c.Files[f.Path]
		switch {
		case !ok:
			t.New++
		case r.Size != f.Size || r.Mtime != f.Mtime:
			t.Changed++
		case r.Op == OpDone:
			t.Done++
			continue
		default:
			t.Skipped++
			continue
		}
		t.Files = append(t.Files, f)
	}
	sortFiles(t.Files)
	if len(t.Files) > 0 && t.Done+t.Skipped > 0 {
		t.Resume = c.Last
	}
	return t
}

// sortFiles sorts by file name, then path: a merge sort written out, as
// slices.SortFunc would add about 13 KB to the module for one type
// (docs/decisions/009-module-size.md).
func sortFiles(fs []File) {
	less := func(a, b File) bool {
		if x, y := base(a.Path), base(b.Path); x != y {
			return x < y
		}
		return a.Path < b.Path
	}
	tmp := make([]File, len(fs))
	for width := 1; width < len(fs); width *= 2 {
		for lo := 0; lo < len(fs); lo += 2 * width {
			mid, hi := min(lo+width, len(fs)), min(lo+2*width, len(fs))
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if less(fs[j], fs[i]) {
					tmp[k] = fs[j]
					j++
				} else {
					tmp[k] = fs[i]
					i++
				}
				k++
			}
			k += copy(tmp[k:], fs[i:mid])
			copy(tmp[k:], fs[j:hi])
		}
		copy(fs, tmp)
	}
}

func base(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}
