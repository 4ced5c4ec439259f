package notes

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonl"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/tidwall/gjson"
)

// The machine-local files of markdown memory (docs/formats.md): the page
// table, the writeback journal and the traces. Each is JSON Lines with "v":1;
// times are Unix milliseconds. Readers are tolerant: a bad line is reported
// with its number and the rest still loads.

// formatVersion is the format version of every notes sidecar line.
const formatVersion = 1

// Problem is a line of a sidecar that could not be read (jsonl's, as every
// reader of JSON Lines reports one).
type Problem = jsonl.Problem

// eachLine calls f with every non-blank line and its 1-based number, as
// jsonl reads them.
func eachLine(data []byte, f func(n int, line []byte)) {
	jsonl.Lines(data, func(n int, line []byte, _ bool) bool {
		f(n, line)
		return true
	})
}

// record parses one sidecar line, checking it is an object of a known
// version. line is not empty, and the strings of the result are views of it.
func record(line []byte) (gjson.Result, string) {
	if !jsonr.ValidBytes(line) {
		return gjson.Result{}, "not valid JSON"
	}
	// gjson passes raw invalid bytes through and jsonw writes them as U+FFFD,
	// so such a line would change when written back: it is damaged, not read.
	if !utf8.Valid(line) {
		return gjson.Result{}, "not valid UTF-8"
	}
	// A view of the line, not a copy (gjson.ParseBytes would copy every
	// line of a large table): what a reader keeps, it owns (own).
	r := gjson.Parse(unsafe.String(&line[0], len(line)))
	if !r.IsObject() {
		return gjson.Result{}, "not a JSON object"
	}
	switch v := jsonr.Get(r, "v"); {
	case !v.Exists():
		return gjson.Result{}, `no "v" key`
	case v.Int() != formatVersion:
		return gjson.Result{}, "version " + v.Raw + " is not supported (this build reads version 1)"
	}
	return r, ""
}

// ---- Page table ---------------------------------------------------------------

// pageTable is the derived index of one scope's MEMORY.md.
type pageTable struct {
	Scope   string
	Source  string // absolute path of the file it describes
	Size    int64
	SHA1    string // hex SHA-1 of the file's bytes
	Built   int64
	Entries []tableEntry
	Omitted int // the file's pages past the table's size limit, written without an entry
	Count   int // the entries it holds, as dates.decode read them
}

// tableEntry is one page of a page table, with the dates that make staleness.
type tableEntry struct {
	ID            string
	Kind          string
	Line, Lines   int
	Bytes         int
	Hash          string
	Section       string
	Summary       string
	FirstSeen     int64 // when this text was first seen
	LastConfirmed int64 // when it was last written, duplicated by a remember, or confirmed
}

// buildPageTable indexes pages of a file (display is how summaries name it).
// dates are carried over from old for every page whose Hash it still finds; a
// new text is first seen (and confirmed) at now. The file is identified by
// size and SHA-1 only: an mtime would change on every checkout. old may be
// nil: every page is then new.
func buildPageTable(scope, source, display string, size int64, sha1hex string, pages []page, old *dates, now int64) pageTable {
	pt := pageTable{Scope: scope, Source: source, Size: size, SHA1: sha1hex, Built: now, Entries: make([]tableEntry, 0, len(pages))}
	for i := range pages {
		pt.Entries = append(pt.Entries, entryOf(&pages[i], display, old, now))
	}
	return pt
}

// appendPageTable appends what buildPageTable and encode would write, byte
// for byte, without building the table in between: a caller that reuses dst
// re-indexes a large file without allocating anything that grows with it
// but dst (docs/decisions/003-tinygo-heap.md). The table stays within limit
// bytes: the pages past it get no entry (so no dates) and the header counts
// them as omitted, where a file of many small pages would otherwise give a
// table several times its size that no reader takes.
func appendPageTable(dst []byte, limit int, scope, source, display string, size int64, sha1hex string, pages []page, old *dates, now int64) []byte {
	pt := pageTable{Scope: scope, Source: source, Size: size, SHA1: sha1hex, Built: now}
	// Grown once, to about the size it needs (a summary is never longer
	// than the page's source): doubling would leave a trail of large blocks.
	need := headerSize(source)
	for i := range pages {
		p := &pages[i]
		need += entrySize(p.ID, p.Hash, p.Section, min(len(p.Src), 4*summaryMax))
	}
	if need = min(need, limit+64); cap(dst)-len(dst) < need {
		dst = append(make([]byte, 0, len(dst)+need), dst...)
	}
	start := len(dst)
	dst = pt.appendHeader(dst, len(pages))
	body := len(dst)
	for i := range pages {
		e := entryOf(&pages[i], display, old, now)
		end := len(dst)
		// 32: room for the header's "omitted" count.
		if dst = e.appendTo(dst); len(dst)-start+32 > limit {
			pt.Omitted = len(pages) - i
			header := pt.appendHeader(nil, i)
			out := append(make([]byte, 0, start+len(header)+end-body), dst[:start]...)
			return append(append(out, header...), dst[body:end]...)
		}
	}
	return dst
}

// entryOf is the page table's entry for p.
func entryOf(p *page, display string, old *dates, now int64) tableEntry {
	e := tableEntry{ID: p.ID, Kind: p.Kind.String(), Line: p.Line, Lines: p.Lines, Bytes: len(p.Src), Hash: p.Hash, Section: p.Section, FirstSeen: now, LastConfirmed: now}
	e.Summary = trimNewlines(p.form(formSummary, display))
	if first, last, ok := old.get(p.Hash); ok {
		e.FirstSeen, e.LastConfirmed = first, last
	}
	return e
}

func trimNewlines(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// encode writes the table: a header line, then one line per entry.
func (pt *pageTable) encode() []byte {
	// One allocation of about the right size: a buffer grown by doubling
	// leaves megabytes of garbage for a large index, and under TinyGo each
	// large allocation that finds no room runs a full collection.
	size := headerSize(pt.Source)
	for i := range pt.Entries {
		e := &pt.Entries[i]
		size += entrySize(e.ID, e.Hash, e.Section, len(e.Summary))
	}
	b := pt.appendHeader(make([]byte, 0, size), len(pt.Entries))
	for i := range pt.Entries {
		b = pt.Entries[i].appendTo(b)
	}
	return b
}

// headerSize and entrySize are about the encoded sizes of a header and an
// entry: the keys, the numbers and room for some escapes.
func headerSize(source string) int { return 256 + len(source) }

func entrySize(id, hash, section string, summary int) int {
	return 200 + len(id) + len(hash) + len(section) + 2*summary
}

// appendHeader appends the header line of a table of n entries.
func (pt *pageTable) appendHeader(b []byte, n int) []byte {
	w := jsonw.Open(b)
	w.Int("v", formatVersion)
	w.Str("kind", "header")
	w.Str("scope", pt.Scope)
	w.Str("source", pt.Source)
	w.Int("size", pt.Size)
	w.Str("sha1", pt.SHA1)
	w.Int("pages", int64(n))
	if pt.Omitted > 0 {
		w.Int("omitted", int64(pt.Omitted))
	}
	w.Int("built", pt.Built)
	return append(w.Close(), '\n')
}

// appendTo appends the entry's line: what a jsonw.Object with these keys
// writes, without one (under TinyGo each Object escapes to the heap, once per
// entry of a large table).
func (e *tableEntry) appendTo(b []byte) []byte {
	b = jsonw.Int(append(b, `{"v":`...), formatVersion)
	b = jsonw.String(append(b, `,"id":`...), e.ID)
	b = jsonw.String(append(b, `,"kind":`...), e.Kind)
	b = jsonw.Int(append(b, `,"line":`...), int64(e.Line))
	b = jsonw.Int(append(b, `,"lines":`...), int64(e.Lines))
	b = jsonw.Int(append(b, `,"bytes":`...), int64(e.Bytes))
	b = jsonw.String(append(b, `,"hash":`...), e.Hash)
	b = jsonw.String(append(b, `,"section":`...), e.Section)
	b = jsonw.String(append(b, `,"summary":`...), e.Summary)
	b = jsonw.Int(append(b, `,"firstSeen":`...), e.FirstSeen)
	b = jsonw.Int(append(b, `,"lastConfirmed":`...), e.LastConfirmed)
	return append(b, "}\n"...)
}

// decodePageTable reads a page table. Unlike the journal it is all or
// nothing: it is derived, so a damaged one is rebuilt rather than trusted.
// The error names the line.
func decodePageTable(data []byte) (pageTable, error) {
	var entries []tableEntry
	pt, err := scanPageTable(data, func(e *tableEntry) {
		e.ID, e.Kind, e.Hash, e.Section, e.Summary = strings.Clone(e.ID), strings.Clone(e.Kind), strings.Clone(e.Hash), strings.Clone(e.Section), strings.Clone(e.Summary)
		entries = append(entries, *e)
	})
	if err != nil {
		return pageTable{}, err
	}
	pt.Entries = entries
	return pt, nil
}

// scanPageTable checks a page table and hands f each entry, whose strings
// are views of the line that are only valid during the call. The table it
// returns is the header alone.
func scanPageTable(data []byte, f func(e *tableEntry)) (pageTable, error) {
	var pt pageTable
	var err error
	pages, entries := -1, 0
	header := false
	// One pass over the keys: r.Get per field would scan the line a dozen
	// times, and a rebuild reads thousands of lines. One entry and one
	// function for all of them, so a line costs no allocation.
	var e tableEntry
	field := func(k, v gjson.Result) bool {
		switch k.Str {
		case "id":
			e.ID = v.String()
		case "kind":
			e.Kind = v.String()
		case "line":
			e.Line = int(v.Int())
		case "lines":
			e.Lines = int(v.Int())
		case "bytes":
			e.Bytes = int(v.Int())
		case "hash":
			e.Hash = v.String()
		case "section":
			e.Section = v.String()
		case "summary":
			e.Summary = v.String()
		case "firstSeen":
			e.FirstSeen = v.Int()
		case "lastConfirmed":
			e.LastConfirmed = v.Int()
		}
		return true
	}
	eachLine(data, func(n int, line []byte) {
		if err != nil {
			return
		}
		r, msg := record(line)
		if msg != "" {
			err = lineError(n, msg)
			return
		}
		if !header {
			if jsonr.Get(r, "kind").String() != "header" {
				err = lineError(n, "the first line must be the header")
				return
			}
			header = true
			pt.Scope = own(jsonr.Get(r, "scope"))
			pt.Source = own(jsonr.Get(r, "source"))
			pt.Size = jsonr.Get(r, "size").Int()
			pt.SHA1 = own(jsonr.Get(r, "sha1"))
			pt.Built = jsonr.Get(r, "built").Int()
			if o := jsonr.Get(r, "omitted").Int(); o > 0 {
				pt.Omitted = int(min(o, 1<<30))
			}
			pages = int(jsonr.Get(r, "pages").Int())
			return
		}
		e = tableEntry{}
		r.ForEach(field)
		if e.ID == "" || e.Hash == "" {
			err = lineError(n, `an entry needs "id" and "hash"`)
			return
		}
		entries++
		f(&e)
	})
	switch {
	case err != nil:
		return pageTable{}, err
	case !header:
		return pageTable{}, errorString("no header line: the file holds no records")
	case pages != entries:
		return pageTable{}, errorString("the header counts " + text.Plural(pages, "page", "pages") + ", the file holds " + numstr.Itoa(entries))
	}
	return pt, nil
}

// dates are a page table's dates by page hash: what a rebuild carries over
// (buildPageTable). They are stored without Go pointers and keep their
// arrays from one use to the next, so a session that re-indexes a large file
// again and again allocates them once (docs/decisions/003-tinygo-heap.md).
// The zero dates is empty and ready to use.
//
//	var d dates
//	d.decode(table)            // the dates of every entry of a page table
//	d.confirm(hash, now)       // that page was confirmed now
//	first, last, ok := d.get(hash)
type dates struct {
	index  table64 // hash64 of a hash → 1 + its number
	hashes []byte  // every hash, one after the other
	ends   []int32 // where hash i ends in hashes
	first  []int64 // FirstSeen of hash i
	last   []int64 // LastConfirmed of hash i
}

// reset empties d, keeping its arrays.
func (d *dates) reset() {
	d.index.reset(0)
	d.hashes, d.ends, d.first, d.last = d.hashes[:0], d.ends[:0], d.first[:0], d.last[:0]
}

// count is the number of distinct hashes d holds.
func (d *dates) count() int { return len(d.ends) }

// decode reads the page table in data as decodePageTable does (with the same
// checks and errors) and keeps the dates of its entries, the first of
// repeated hashes winning; the table it returns is the header alone. On an
// error d is left empty.
func (d *dates) decode(data []byte) (pageTable, error) {
	d.reset()
	n := 0
	pt, err := scanPageTable(data, func(e *tableEntry) {
		n++
		if _, _, ok := d.get(e.Hash); !ok {
			d.add(e.Hash, e.FirstSeen, e.LastConfirmed)
		}
	})
	if err != nil {
		d.reset()
		return pt, err
	}
	pt.Count = n
	return pt, nil
}

// get returns the dates of hash. A nil d holds nothing.
func (d *dates) get(hash string) (first, last int64, ok bool) {
	if d == nil || len(d.ends) == 0 {
		return 0, 0, false
	}
	if i := d.find(hash); i >= 0 {
		return d.first[i], d.last[i], true
	}
	return 0, 0, false
}

// confirm records that the page of hash was confirmed at now; a hash d does
// not hold is first seen then too.
func (d *dates) confirm(hash string, now int64) {
	if i := d.find(hash); i >= 0 {
		d.last[i] = now
		return
	}
	d.add(hash, now, now)
}

// find returns the number of hash, or -1.
func (d *dates) find(hash string) int {
	if len(d.index.keys) == 0 {
		return -1
	}
	key := hash64(hash)
	for j := d.index.home(key); d.index.vals[j] != 0; j = d.index.next(j) {
		if i := int(d.index.vals[j]) - 1; d.index.keys[j] == key && d.hash(i) == hash {
			return i
		}
	}
	return -1
}

// hash is hash i, as a view of d's array: compare it, never keep it.
func (d *dates) hash(i int) string {
	start := int32(0)
	if i > 0 {
		start = d.ends[i-1]
	}
	b := d.hashes[start:d.ends[i]]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// add appends hash, which d does not hold yet.
func (d *dates) add(hash string, first, last int64) {
	d.hashes = append(d.hashes, hash...)
	d.ends = append(d.ends, int32(len(d.hashes)))
	d.first = append(d.first, first)
	d.last = append(d.last, last)
	n := len(d.ends)
	if 2*n > len(d.index.keys) {
		// Room for twice as many: every hash goes in again.
		d.index.reset(2 * n)
		for i := 0; i < n-1; i++ {
			d.insert(i)
		}
	}
	d.insert(n - 1)
}

func (d *dates) insert(i int) {
	key := hash64(d.hash(i))
	j := d.index.home(key)
	for d.index.vals[j] != 0 {
		j = d.index.next(j)
	}
	d.index.keys[j], d.index.vals[j] = key, int32(i+1)
}

// own copies a decoded string. gjson hands out substrings of the line it
// parsed, which is a view of the whole file (record): kept, they would be
// interior pointers into it, which TinyGo's collector pays for on every
// cycle, and would change with the buffer the file was read into
// (docs/decisions/003).
//
//go:noinline
func own(v gjson.Result) string { return strings.Clone(v.String()) }

type errorString string

func (e errorString) Error() string { return string(e) }

func lineError(n int, msg string) error { return errorString("line " + numstr.Itoa(n) + ": " + msg) }

// ---- Writeback journal ---------------------------------------------------------

// Op is one record of the writeback journal: a staged write, or the outcome
// of a flush for one staged write.
type Op struct {
	Op      string // "stage", "commit" or "reject"
	ID      string // "W-" + 8 hex digits, shared by a stage and its outcome
	T       int64
	Scope   string // stage: "global", "project" or "local"
	Section string // stage: the "##" section to append under
	Text    string // stage: the fact
	Source  string // stage: "remember" or "import:claude"
	Reason  string // reject: duplicate, secret, too_long, multiline, index_cap, untrusted, disabled, invalid
	Detail  string // reject: what a person reads; commit: what was repaired, if anything
	File    string // commit: the file written
	Line    int    // commit: the line the bullet landed on
	Page    string // commit: the new page; reject duplicate: the page it duplicates
}

// encode writes the op as one line, newline included.
func (o *Op) encode() []byte {
	w := jsonw.Open(nil)
	w.Int("v", formatVersion)
	w.Int("t", o.T)
	w.Str("op", o.Op)
	w.Str("id", o.ID)
	str := func(k, v string) {
		if v != "" {
			w.Str(k, v)
		}
	}
	str("scope", o.Scope)
	str("section", o.Section)
	str("text", o.Text)
	str("source", o.Source)
	str("reason", o.Reason)
	str("detail", o.Detail)
	str("file", o.File)
	if o.Line != 0 {
		w.Int("line", int64(o.Line))
	}
	str("page", o.Page)
	return append(w.Close(), '\n')
}

// Journal is a decoded writeback journal.
type Journal struct {
	Ops      []Op // every readable record, in file order
	Pending  []Op // stages without an outcome, in file order
	Problems []Problem
}

// DecodeJournal reads a journal, keeping what it can: a bad line is a
// Problem, never a reason to lose the other records.
func DecodeJournal(data []byte) Journal {
	var j Journal
	done := map[string]bool{}
	eachLine(data, func(n int, line []byte) {
		r, msg := record(line)
		if msg != "" {
			j.Problems = append(j.Problems, Problem{Line: n, Msg: msg})
			return
		}
		o := Op{
			Op: own(jsonr.Get(r, "op")), ID: own(jsonr.Get(r, "id")), T: jsonr.Get(r, "t").Int(),
			Scope: own(jsonr.Get(r, "scope")), Section: own(jsonr.Get(r, "section")), Text: own(jsonr.Get(r, "text")),
			Source: own(jsonr.Get(r, "source")), Reason: own(jsonr.Get(r, "reason")), Detail: own(jsonr.Get(r, "detail")),
			File: own(jsonr.Get(r, "file")), Line: int(jsonr.Get(r, "line").Int()), Page: own(jsonr.Get(r, "page")),
		}
		switch {
		case o.ID == "":
			j.Problems = append(j.Problems, Problem{Line: n, Msg: `no "id"`})
			return
		case o.Op == "stage" && (o.Scope == "" || o.Text == ""):
			j.Problems = append(j.Problems, Problem{Line: n, Msg: `a stage needs "scope" and "text"`})
			return
		case o.Op != "stage" && o.Op != "commit" && o.Op != "reject":
			j.Problems = append(j.Problems, Problem{Line: n, Msg: `unknown "op" ` + strconv.Quote(o.Op)})
			return
		}
		if o.Op != "stage" {
			done[o.ID] = true
		}
		j.Ops = append(j.Ops, o)
	})
	for _, o := range j.Ops {
		if o.Op == "stage" && !done[o.ID] {
			j.Pending = append(j.Pending, o)
			done[o.ID] = true // a repeated stage id counts once
		}
	}
	return j
}

// keepJournal is how many records a compaction keeps, for /memory history.
const keepJournal = 100

// compactedJournal is a journal cut back to its newest keepJournal records,
// each written again as encode writes it. ok is false when the journal must
// stay as it is: a stage still pending, or a line that could not be read (a
// person may want to look at it), is never dropped.
//
//	150 commits and rejects    => the newest 100, true
//	a stage with no outcome    => nil, false
func compactedJournal(data []byte) (out []byte, ok bool) {
	j := DecodeJournal(data)
	if len(j.Pending) > 0 || len(j.Problems) > 0 {
		return nil, false
	}
	ops := j.Ops
	if len(ops) > keepJournal {
		ops = ops[len(ops)-keepJournal:]
	}
	for i := range ops {
		out = append(out, ops[i].encode()...)
	}
	return out, true
}

// ---- Traces --------------------------------------------------------------------

// Trace is one record of traces.jsonl: an injection decision or a flush.
type Trace struct {
	ID     string // "T-" + 8 hex digits
	T      int64
	Kind   string // "inject" or "flush"
	Hash   string // inject: hex SHA-1 of the whole injected text
	Stores []storeReceipt
	Faults []fault
	// MoreFaults counts the faults past the first maxTraceFaults, which a
	// trace does not list: a MEMORY.md of 40,000 entries over its caps would
	// append megabytes a turn.
	MoreFaults int
	Ops        []Op // flush: the outcome records it wrote
}

// maxTraceFaults is how many of a turn's faults its trace lists (and fit
// keeps).
const maxTraceFaults = 200

// storeReceipt is what one store injected in one turn.
type storeReceipt struct {
	Store  string // "notes" or "decisions"
	Bytes  int
	Tokens int
	Cap    int // the store's cap, in bytes
	Scopes []scopeReceipt
}

// scopeReceipt is what one notes scope contributed, page by page.
type scopeReceipt struct {
	Scope, File  string
	Bytes, Lines int
	Cut          bool // pageTableInjection off: the index was cut at its caps
	Pages        []pageForm
}

// pageForm is the form a page was injected in.
type pageForm struct {
	ID   string
	Line int
	Form string
}

// encode writes the trace as one line, newline included.
func (t *Trace) encode() []byte {
	w := jsonw.Open(nil)
	w.Int("v", formatVersion)
	w.Str("id", t.ID)
	w.Int("t", t.T)
	w.Str("kind", t.Kind)
	if t.Hash != "" {
		w.Str("hash", t.Hash)
	}
	if len(t.Stores) > 0 {
		w.Raw("stores", jsonw.Array(nil, len(t.Stores), func(b []byte, i int) []byte { return t.Stores[i].encode(b) }))
	}
	if len(t.Faults) > 0 {
		w.Raw("faults", jsonw.Array(nil, len(t.Faults), func(b []byte, i int) []byte { return t.Faults[i].appendJSON(b) }))
	}
	if t.MoreFaults > 0 {
		w.Int("faultsMore", int64(t.MoreFaults))
	}
	if len(t.Ops) > 0 {
		w.Raw("ops", jsonw.Array(nil, len(t.Ops), func(b []byte, i int) []byte {
			line := t.Ops[i].encode()
			return append(b, line[:len(line)-1]...)
		}))
	}
	return append(w.Close(), '\n')
}

// appendJSON appends the fault as a JSON object, as traces and
// /memory faults --json write it.
func (f *fault) appendJSON(b []byte) []byte {
	w := jsonw.Open(b)
	w.Str("scope", f.Scope)
	w.Str("page", f.Page)
	w.Int("line", int64(f.Line))
	w.Str("reason", f.Reason)
	w.Int("bytes", int64(f.Bytes))
	return w.Close()
}

func (s *storeReceipt) encode(b []byte) []byte {
	w := jsonw.Open(b)
	w.Str("store", s.Store)
	w.Int("bytes", int64(s.Bytes))
	w.Int("tokens", int64(s.Tokens))
	w.Int("cap", int64(s.Cap))
	if len(s.Scopes) > 0 {
		w.Raw("scopes", jsonw.Array(nil, len(s.Scopes), func(b []byte, i int) []byte {
			sc := &s.Scopes[i]
			cw := jsonw.Open(b)
			cw.Str("scope", sc.Scope)
			cw.Str("file", sc.File)
			cw.Int("bytes", int64(sc.Bytes))
			cw.Int("lines", int64(sc.Lines))
			if sc.Cut {
				cw.Bool("cut", true)
			}
			cw.Raw("pages", jsonw.Array(nil, len(sc.Pages), func(b []byte, k int) []byte {
				p := &sc.Pages[k]
				pw := jsonw.Open(b)
				pw.Str("id", p.ID)
				pw.Int("line", int64(p.Line))
				pw.Str("form", p.Form)
				return pw.Close()
			}))
			return cw.Close()
		}))
	}
	return w.Close()
}

// DecodeTraces reads traces.jsonl, oldest first, reporting bad lines.
func DecodeTraces(data []byte) ([]Trace, []Problem) {
	var out []Trace
	var problems []Problem
	eachLine(data, func(n int, line []byte) {
		r, msg := record(line)
		if msg != "" {
			problems = append(problems, Problem{Line: n, Msg: msg})
			return
		}
		t := Trace{ID: own(jsonr.Get(r, "id")), T: jsonr.Get(r, "t").Int(), Kind: own(jsonr.Get(r, "kind")), Hash: own(jsonr.Get(r, "hash"))}
		if t.ID == "" {
			problems = append(problems, Problem{Line: n, Msg: `no "id"`})
			return
		}
		jsonr.Get(r, "stores").ForEach(func(_, s gjson.Result) bool {
			sr := storeReceipt{Store: own(jsonr.Get(s, "store")), Bytes: int(jsonr.Get(s, "bytes").Int()), Tokens: int(jsonr.Get(s, "tokens").Int()), Cap: int(jsonr.Get(s, "cap").Int())}
			jsonr.Get(s, "scopes").ForEach(func(_, c gjson.Result) bool {
				sc := scopeReceipt{Scope: own(jsonr.Get(c, "scope")), File: own(jsonr.Get(c, "file")), Bytes: int(jsonr.Get(c, "bytes").Int()), Lines: int(jsonr.Get(c, "lines").Int()), Cut: jsonr.Get(c, "cut").Bool()}
				jsonr.Get(c, "pages").ForEach(func(_, p gjson.Result) bool {
					sc.Pages = append(sc.Pages, pageForm{ID: own(jsonr.Get(p, "id")), Line: int(jsonr.Get(p, "line").Int()), Form: own(jsonr.Get(p, "form"))})
					return true
				})
				sr.Scopes = append(sr.Scopes, sc)
				return true
			})
			t.Stores = append(t.Stores, sr)
			return true
		})
		jsonr.Get(r, "faults").ForEach(func(_, f gjson.Result) bool {
			t.Faults = append(t.Faults, fault{Scope: own(jsonr.Get(f, "scope")), Page: own(jsonr.Get(f, "page")), Line: int(jsonr.Get(f, "line").Int()), Reason: own(jsonr.Get(f, "reason")), Bytes: int(jsonr.Get(f, "bytes").Int())})
			return true
		})
		t.MoreFaults = int(max(0, jsonr.Get(r, "faultsMore").Int()))
		jsonr.Get(r, "ops").ForEach(func(_, o gjson.Result) bool {
			t.Ops = append(t.Ops, Op{
				Op: own(jsonr.Get(o, "op")), ID: own(jsonr.Get(o, "id")), T: jsonr.Get(o, "t").Int(), Scope: own(jsonr.Get(o, "scope")),
				Section: own(jsonr.Get(o, "section")), Text: own(jsonr.Get(o, "text")), Source: own(jsonr.Get(o, "source")),
				Reason: own(jsonr.Get(o, "reason")), Detail: own(jsonr.Get(o, "detail")), File: own(jsonr.Get(o, "file")),
				Line: int(jsonr.Get(o, "line").Int()), Page: own(jsonr.Get(o, "page")),
			})
			return true
		})
		out = append(out, t)
	})
	return out, problems
}
