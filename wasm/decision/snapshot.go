package decision

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// A snapshot is the materialized state written to disk, so a session can
// start by reading it and replaying only the log lines written since. It is
// derived: deleting it loses nothing. docs/formats.md describes the layout;
// in short, it is the state's own pointer-free arrays, raw, with the strings
// compacted to those live decisions use, then a JSON header and a trailer.
//
// What makes it safe to trust:
//   - a layout signature: records are raw memory, so a build whose record
//     layout differs (another compiler, another version) rebuilds instead;
//   - the log guard: the log's size, line count and a hash of samples of the
//     prefix it covers (logSum), the hash of all of it, and the file's
//     identity, size and mtime as last seen (rewrittenSince), checked before
//     use: the samples and the stat at once, and every byte read again when
//     the log was written since, so a rewritten log (a git checkout, a
//     merge, doctor --fix, a hand edit) is replayed from scratch;
//   - a checksum of the structural sections, checked at load, one per string
//     page, checked when the page is read, and bounds checks on every
//     reference, so a damaged file is refused rather than trusted;
//   - a random generation stamped on every page, so a page read later from a
//     file another process has since replaced is detected (Broken).

const (
	snapMagic   = "PIMSNAP1"
	snapVersion = 7             // 7: the header holds the hash of every byte of the log it covers ("full"); 3: the header lists the decisions with conflict marks ("marked"); 4: removed decisions kept whole; 5: the hot list says each decision's injected line; 6: a problem may be a line too long ("too-long"), which an older build cannot read
	trailerSize = 8 + 4 + 8 + 8 // header offset, header length, header checksum, magic
)

// errSnapshot is the error of an unusable snapshot; its text says why.
var errSnapshot = errors.New("snapshot unusable")

func snapErr(why string) error { return &wrapped{errSnapshot, why} }

type wrapped struct {
	err error
	why string
}

func (w *wrapped) Error() string { return w.err.Error() + ": " + w.why }
func (w *wrapped) Unwrap() error { return w.err }

// layout names the record layout a snapshot's raw bytes depend on.
func layout() string {
	var r rec
	return "rec" + numstr.Itoa(int(unsafe.Sizeof(r))) +
		"@" + numstr.Itoa(int(unsafe.Offsetof(r.tags))) +
		"," + numstr.Itoa(int(unsafe.Offsetof(r.createdAt))) +
		"," + numstr.Itoa(int(unsafe.Offsetof(r.addLine))) +
		"," + numstr.Itoa(int(unsafe.Offsetof(r.status))) +
		"/chunk" + numstr.Itoa(chunkSize) + "/page" + numstr.Itoa(pageSize)
}

// logSum fingerprints the first size bytes of a log without reading them
// all: the size, the first and last 16 KiB, and 16 slices of 1 KiB spread
// evenly between. A rewrite of the log (checkout, edit, truncation) changes
// it; appending after size does not.
func logSum(read readAt, size int64) (uint64, error) {
	h := fnvInit
	h = fnvWord(h, uint64(size))
	var buf [16 << 10]byte
	sample := func(off int64, n int) error {
		off = max(off, 0)
		return readEach(read, buf[:], off, min(off+int64(n), size), func(b []byte) { h = fnvBytes(h, b) })
	}
	// Each sample is taken before h is read: Go leaves unspecified whether
	// `return h, sample(…)` reads h before or after the call (TinyGo and
	// the standard compiler differ, which once made every build reject the
	// other's snapshots).
	if size <= 64<<10 {
		err := sample(0, int(size))
		return h, err
	}
	if err := sample(0, 16<<10); err != nil {
		return 0, err
	}
	step := (size - 32<<10) / 17
	for i := int64(1); i <= 16; i++ {
		if err := sample(16<<10+i*step, 1<<10); err != nil {
			return 0, err
		}
	}
	err := sample(size-16<<10, 16<<10)
	return h, err
}

// readEach reads [from, to) of a file through buf, handing each piece read
// to f; a file that ends before to was rewritten meanwhile (errLogChanged).
func readEach(read readAt, buf []byte, from, to int64, f func([]byte)) error {
	for from < to {
		k, err := read(from, buf[:min(int64(len(buf)), to-from)])
		if err != nil {
			return err
		}
		if k == 0 {
			return errLogChanged
		}
		f(buf[:k])
		from += int64(k)
	}
	return nil
}

const fnvInit = uint64(14695981039346656037)

func fnvBytes(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func fnvWord(h, w uint64) uint64 {
	for i := 0; i < 8; i++ {
		h ^= w & 0xff
		h *= 1099511628211
		w >>= 8
	}
	return h
}

// sumWords is the structural checksum: fast (one add and rotate per word),
// enough to refuse a damaged file; it guards nothing against intent.
// Words are read as little-endian machine words (WebAssembly is
// little-endian), one load each.
//
//go:noinline
func sumWords(h uint64, b []byte) uint64 {
	n := len(b) &^ 7
	for i := 0; i < n; i += 8 {
		h = (h<<7 | h>>57) + *(*uint64)(unsafe.Pointer(&b[i]))
	}
	for _, c := range b[n:] {
		h = (h<<7 | h>>57) + uint64(c)
	}
	return h
}

// raw views a slice of pointer-free values as its bytes.
func raw[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(z)))
}

// hotSize is how many of the newest active decisions a snapshot lists, so
// the first injection after a start reads a few records, not all of them.
const hotSize = 64

// WriteSnapshot streams the state as a snapshot through emit, for a log
// whose first cur.Offset bytes (cur.Line lines) it reflects, g saying what
// they were. gen is a random stamp for its pages. The strings are
// compacted on the way: a page holds only strings the decisions use. Every
// record and page must be resident (state.Resident).
func (s *state) WriteSnapshot(cur cursor, g logGuard, gen uint64, emit func([]byte) error) error {
	w := snapWriter{emit: emit, gen: gen}
	out := make([]rec, chunkSize)
	var chunks [][3]int64
	for h := 0; h < s.recs.n; h++ {
		r := *s.recs.at(int32(h))
		c := &out[h&(chunkSize-1)]
		// A removed decision is kept whole: /memory restore brings it back
		// as it was (its text too), from a snapshot as from the log.
		for _, f := range [...]*ref{&r.id, &r.project, &r.supersedes, &r.supersededBy, &r.createdBy} {
			*f = w.str(s, *f)
		}
		// Free text is redacted on the way: a snapshot is a derived file
		// and keeps no secret someone wrote into the log by hand.
		for _, f := range [...]*ref{&r.title, &r.text, &r.reason, &r.conflictNote, &r.source, &r.category} {
			*f = w.text(s, *f)
		}
		r.tags = w.list(s, r.tags)
		r.conflicts = w.list(s, r.conflicts)
		*c = r
		if h&(chunkSize-1) == chunkSize-1 || h == s.recs.n-1 {
			b := raw(out[:h&(chunkSize-1)+1])
			off, err := w.section(b)
			if err != nil {
				return err
			}
			chunks = append(chunks, [3]int64{off, int64(len(b) / int(unsafe.Sizeof(rec{}))), int64(sumWords(0, b))})
			clear(out)
		}
	}
	if err := w.flushPage(); err != nil {
		return err
	}
	if err := w.flushList(); err != nil {
		return err
	}
	sections := jsonw.Open(nil)
	put := func(name string, b []byte, n int) error {
		off, err := w.section(b)
		sections.Raw(name, pairs([][2]int64{{off, int64(n)}, {int64(sumWords(0, b)), 0}}))
		return err
	}
	var probs []byte
	for _, p := range s.Problems {
		o := jsonw.Open(probs)
		o.Int("line", int64(p.Line))
		o.Int("kind", int64(p.Kind))
		o.Str("id", p.ID)
		o.Str("msg", p.Msg)
		probs = append(o.Close(), '\n')
	}
	s.ids.ready()
	s.days.ready()
	for _, sec := range []struct {
		name string
		b    []byte
		n    int
	}{
		{"chunks", raw(chunks), len(chunks)},
		{"pages", raw(w.pages), len(w.pages)},
		{"lists", raw(w.lists), len(w.lists)},
		{"idsKeys", raw(s.ids.keys), len(s.ids.keys)},
		{"idsVals", raw(s.ids.vals), s.ids.n},
		{"daysKeys", raw(s.days.keys), len(s.days.keys)},
		{"daysVals", raw(s.days.vals), s.days.n},
		{"problems", probs, len(probs)},
	} {
		if err := put(sec.name, sec.b, sec.n); err != nil {
			return err
		}
	}

	hw := jsonw.Open(nil)
	hw.Int("version", snapVersion)
	hw.Str("layout", layout())
	hw.Str("gen", strconv.FormatUint(gen, 16))
	lw := jsonw.Open(nil)
	lw.Int("size", cur.Offset)
	lw.Int("lines", int64(cur.Line))
	lw.Bool("sealed", cur.Sealed)
	lw.Str("sum", strconv.FormatUint(g.Sum, 16))
	lw.Str("full", g.Full.String())
	lw.Int("id", int64(g.Seen.ID))
	lw.Int("seenSize", g.Seen.Size)
	lw.Int("seenMtime", g.Seen.MtimeMs)
	hw.Raw("log", lw.Close())
	hw.Int("recs", int64(s.recs.n))
	hw.Int("nlist", int64(w.nlist))
	hw.Int("live", int64(s.live))
	hw.Int("lines", int64(s.Lines))
	hw.Int("events", int64(s.Events))
	hw.Raw("counts", intArray(s.counts[:]))
	hw.Raw("sections", sections.Close())
	// The newest active decisions and the active tag counts: enough for the
	// first injection after a start without reading every record.
	// Each hot decision with its order and what the section shows of it
	// ([handle, updated, id, line, own tags…]), so the first injection after
	// a start reads nothing more while the log left it alone.
	hot := s.newestScan(hotSize)
	hw.Raw("hot", jsonw.Array(nil, len(hot), func(b []byte, i int) []byte {
		d := s.view(hot[i])
		b = append(jsonw.Int(append(b, '['), int64(hot[i])), ',')
		b = append(jsonw.Int(b, d.UpdatedAt), ',')
		b = jsonw.String(append(jsonw.String(b, d.ID), ','), injectedLine(d))
		for _, t := range ownTags(d.Tags) {
			b = jsonw.String(append(b, ','), t)
		}
		return append(b, ']')
	}))
	hw.Raw("marked", jsonw.Array(nil, len(s.marked), func(b []byte, i int) []byte { return jsonw.Int(b, int64(s.marked[i])) }))
	if len(hot) == hotSize {
		edge := s.recs.at(hot[hotSize-1])
		ew := jsonw.Open(nil)
		ew.Int("updated", edge.updatedAt)
		ew.Str("id", s.strs.get(edge.id))
		hw.Raw("edge", ew.Close())
	}
	tc := s.activeTagScan()
	hw.Raw("tags", jsonw.Array(nil, len(tc.names), func(b []byte, i int) []byte {
		b = append(jsonw.String(append(b, '['), clean(tc.names[i])), ',')
		return append(jsonw.Int(b, int64(tc.counts[i])), ']')
	}))
	header := hw.Close()
	headerOff := w.off
	if err := w.put(header); err != nil {
		return err
	}
	var tr [trailerSize]byte
	putU64(tr[0:], uint64(headerOff))
	putU32(tr[8:], uint32(len(header)))
	putU64(tr[12:], sumWords(0, header))
	copy(tr[20:], snapMagic)
	return w.put(tr[:])
}

func intArray(v []int) []byte {
	return jsonw.Array(nil, len(v), func(b []byte, i int) []byte { return jsonw.Int(b, int64(v[i])) })
}

func pairs(v [][2]int64) []byte {
	return jsonw.Array(nil, len(v), func(b []byte, i int) []byte {
		b = append(jsonw.Int(append(b, '['), v[i][0]), ',')
		return append(jsonw.Int(b, v[i][1]), ']')
	})
}

func putU64(b []byte, v uint64) {
	for i := 0; i < 8; i++ {
		b[i] = byte(v >> (8 * i))
	}
}

func putU32(b []byte, v uint32) {
	for i := 0; i < 4; i++ {
		b[i] = byte(v >> (8 * i))
	}
}

func getU64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// snapWriter tracks offsets and the page being compacted.
type snapWriter struct {
	emit  func([]byte) error
	off   int64
	gen   uint64
	page  []byte     // compacted page being filled, after its 8-byte stamp
	pages [][3]int64 // offset, length (without stamp) and checksum of each page written
	lbuf  []ref      // list chunk being filled
	lists [][3]int64 // offset, count and checksum of each list chunk written
	nlist int        // references written, as a global index
}

func (w *snapWriter) put(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	w.off += int64(len(b))
	return w.emit(b)
}

// section writes a section and returns where it starts.
func (w *snapWriter) section(b []byte) (int64, error) {
	off := w.off
	return off, w.put(b)
}

// str copies the string r refers to into the compacted pages.
// text is str for free text: redacted (decision.clean) before it is written.
func (w *snapWriter) text(s *state, r ref) ref {
	if r.size() == 0 {
		return 0
	}
	return w.putStr(clean(s.strs.get(r)))
}

func (w *snapWriter) str(s *state, r ref) ref {
	if r.size() == 0 {
		return 0
	}
	return w.putStr(s.strs.get(r))
}

// putStr copies v into the page being filled and returns its new ref.
func (w *snapWriter) putStr(v string) ref {
	n := len(v)
	if n == 0 {
		return 0
	}
	if n > maxField {
		n, v = maxField, v[:maxField]
	}
	if w.page != nil && len(w.page)-8+n > pageSize && len(w.page) > 8 {
		if err := w.flushPage(); err != nil {
			return 0
		}
	}
	if w.page == nil {
		size := pageSize
		if n > size {
			size = n
		}
		w.page = make([]byte, 8, 8+size)
		putU64(w.page, w.gen)
	}
	off := len(w.page) - 8
	w.page = append(w.page, v...)
	return mkref(len(w.pages), off, n)
}

// list copies a list into the compacted list chunks. The chunk being
// filled (lbuf) is always chunk number len(w.lists); a list never spans two.
func (w *snapWriter) list(s *state, l list) list {
	rs := s.strs.refs(l)
	if len(rs) == 0 {
		return 0
	}
	if len(w.lbuf)+len(rs) > listChunk {
		if err := w.flushList(); err != nil {
			return 0
		}
	}
	if w.lbuf == nil {
		w.lbuf = make([]ref, 0, listChunk)
	}
	start := len(w.lists)*listChunk + len(w.lbuf)
	for _, r := range rs {
		w.lbuf = append(w.lbuf, w.text(s, r))
	}
	w.nlist = start + len(rs)
	return mklist(start, len(rs))
}

// flushList writes the list chunk being filled.
func (w *snapWriter) flushList() error {
	if w.lbuf == nil {
		return nil
	}
	b := raw(w.lbuf)
	off := w.off
	w.lists = append(w.lists, [3]int64{off, int64(len(w.lbuf)), int64(sumWords(0, b))})
	w.lbuf = nil
	return w.put(b)
}

// flushPage writes the page being filled. A page is stamped with the
// generation so a lazy read can tell it came from this very snapshot.
func (w *snapWriter) flushPage() error {
	if w.page == nil {
		return nil
	}
	off := w.off
	w.pages = append(w.pages, [3]int64{off, int64(len(w.page) - 8), int64(sumWords(0, w.page[8:]))})
	err := w.put(w.page)
	w.page = nil
	return err
}

// byteHash hashes a stream of bytes eight at a time, written in pieces of
// any length (the log as it is replayed, from wherever the last replay
// stopped): a multiply per word, so every byte of a 30 MB log is read again
// in a fraction of what a byte-wise hash costs in the module. Order
// matters: lines swapped or moved change it.
type byteHash struct {
	h, w uint64 // the hash of the whole words; the bytes of the word begun
	n    uint   // how many bytes w holds
}

func (b *byteHash) mix(w uint64) {
	b.h = (b.h ^ w) * 0x9E3779B97F4A7C15
	b.h ^= b.h >> 29
}

func (b *byteHash) write(p []byte) {
	for b.n > 0 && len(p) > 0 {
		b.w |= uint64(p[0]) << (8 * b.n)
		p = p[1:]
		if b.n++; b.n == 8 {
			b.mix(b.w)
			b.w, b.n = 0, 0
		}
	}
	for len(p) >= 8 {
		b.mix(uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 | uint64(p[4])<<32 | uint64(p[5])<<40 | uint64(p[6])<<48 | uint64(p[7])<<56)
		p = p[8:]
	}
	for _, c := range p {
		b.w |= uint64(c) << (8 * b.n)
		b.n++
	}
}

// String is how a snapshot's header keeps it: "h.w.n" in hex.
func (b byteHash) String() string {
	return strconv.FormatUint(b.h, 16) + "." + strconv.FormatUint(b.w, 16) + "." + strconv.FormatUint(uint64(b.n), 16)
}

func parseByteHash(s string) (byteHash, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return byteHash{}, false
	}
	var v [3]uint64
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 16, 64)
		if err != nil {
			return byteHash{}, false
		}
		v[i] = n
	}
	if v[2] >= 8 {
		return byteHash{}, false
	}
	return byteHash{v[0], v[1], uint(v[2])}, true
}

// logGuard is what a snapshot says of the log it was made from, to be
// trusted for it: the sampled sum (logSum), the hash of every byte it
// covers, and the log's stat when its state reached its cursor.
type logGuard struct {
	Sum  uint64
	Full byteHash
	Seen hostio.FileInfo
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// snapshotHeader is what a snapshot says about itself; ReadSnapshotHeader
// reads it from the file's end.
type snapshotHeader struct {
	Log    cursor
	LogSum uint64
	Full   byteHash        // the hash of every byte Log covers
	Seen   hostio.FileInfo // the log as last seen by the writer (rewrittenSince)
	Gen    uint64
	root   gjson.Result
	end    int64 // where the header starts: every section must end before it
}

// snapshotTrailer is the size of the fixed trailer at a snapshot's end.
const snapshotTrailer = trailerSize

// headerSpan reads the trailer (the last snapshotTrailer bytes) and returns
// where the header is and its checksum (for parseSnapshotHeader).
func headerSpan(trailer []byte) (off int64, n int, err error) {
	if len(trailer) != trailerSize || string(trailer[20:]) != snapMagic {
		return 0, 0, snapErr("not a pi-memory snapshot (bad trailer)")
	}
	n = int(uint32(trailer[8]) | uint32(trailer[9])<<8 | uint32(trailer[10])<<16 | uint32(trailer[11])<<24)
	return int64(getU64(trailer)), n, nil
}

// parseSnapshotHeader checks the header against the trailer's checksum, then
// its version and layout; at is where the header starts in the file (from
// headerSpan), which bounds every section it declares.
func parseSnapshotHeader(b []byte, at int64, trailer []byte) (*snapshotHeader, error) {
	if len(trailer) != trailerSize || sumWords(0, b) != getU64(trailer[12:]) {
		return nil, snapErr("header checksum mismatch (a damaged file)")
	}
	if !jsonr.ValidBytes(b) {
		return nil, snapErr("header is not valid JSON")
	}
	root := gjson.ParseBytes(b)
	if v := jsonr.Get(root, "version").Int(); v != snapVersion {
		return nil, snapErr("version " + strconv.FormatInt(v, 10) + ", this build reads " + numstr.Itoa(snapVersion))
	}
	if l := jsonr.Get(root, "layout").String(); l != layout() {
		return nil, snapErr("written by a build with another record layout (" + l + ")")
	}
	h := &snapshotHeader{root: root, end: at}
	h.Log = cursor{Offset: jsonr.Get(root, "log.size").Int(), Line: int(jsonr.Get(root, "log.lines").Int()), Sealed: jsonr.Get(root, "log.sealed").Bool()}
	var err error
	if h.LogSum, err = strconv.ParseUint(jsonr.Get(root, "log.sum").String(), 16, 64); err != nil {
		return nil, snapErr("bad log sum")
	}
	var ok bool
	if h.Full, ok = parseByteHash(jsonr.Get(root, "log.full").String()); !ok {
		return nil, snapErr("bad log hash")
	}
	h.Seen = hostio.NewFileInfo(jsonr.Get(root, "log.seenSize").Int(), jsonr.Get(root, "log.seenMtime").Int(), hostio.KindFile)
	h.Seen.ID = uint32(jsonr.Get(root, "log.id").Uint())
	if h.Gen, err = strconv.ParseUint(jsonr.Get(root, "gen").String(), 16, 64); err != nil {
		return nil, snapErr("bad generation")
	}
	return h, nil
}

// snapshotState builds a state from a snapshot whose header h was read; read
// reads the snapshot file. It reads the small tables now; records, the id
// tables and string pages are read on first use, each checked against its
// own checksum (see state.Resident and state.Broken).
func snapshotState(h *snapshotHeader, read readAt) (*state, error) {
	root := h.root
	s := newState()
	// sec reads a declared section, checking its size against the file
	// before allocating (a damaged header must not ask for gigabytes) and
	// its bytes against its checksum.
	type span struct {
		off, n int64
		sum    uint64
	}
	spanOf := func(name string) span {
		v := jsonr.Get(root, "sections."+name)
		return span{jsonr.Get(v, "0.0").Int(), jsonr.Get(v, "0.1").Int(), uint64(jsonr.Get(v, "1.0").Int())}
	}
	fits := func(sp span, size int64) bool {
		return sp.off >= 0 && size >= 0 && sp.off <= h.end && size <= h.end-sp.off
	}
	load := func(sp span, dst []byte) error {
		if !fits(sp, int64(len(dst))) {
			return snapErr("a section lies outside the file")
		}
		if len(dst) > 0 {
			if err := readFull(read, sp.off, dst); err != nil {
				return err
			}
		}
		if sumWords(0, dst) != sp.sum {
			return snapErr("checksum mismatch (a damaged file)")
		}
		return nil
	}
	table := func(name string) ([][3]int64, error) {
		sp := spanOf(name)
		if !fits(sp, sp.n*24) {
			return nil, snapErr(name + " table lies outside the file")
		}
		t := make([][3]int64, sp.n)
		return t, load(sp, raw(t))
	}
	chunks, err := table("chunks")
	if err != nil {
		return nil, err
	}
	pages, err := table("pages")
	if err != nil {
		return nil, err
	}
	nrecs := int(jsonr.Get(root, "recs").Int())
	if nrecs < 0 || len(chunks) != (nrecs+chunkSize-1)/chunkSize {
		return nil, snapErr("record count does not match its chunks")
	}
	for i, c := range chunks {
		if c[1] <= 0 || c[1] > chunkSize || i < len(chunks)-1 && c[1] != chunkSize || !fits(span{off: c[0]}, c[1]*int64(unsafe.Sizeof(rec{}))) {
			return nil, snapErr("bad chunk size")
		}
	}
	for _, p := range pages {
		if p[1] <= 0 || p[1] > maxField+pageSize || !fits(span{off: p[0]}, 8+p[1]) {
			return nil, snapErr("bad page size")
		}
	}
	lists, err := table("lists")
	if err != nil {
		return nil, err
	}
	nlist := jsonr.Get(root, "nlist").Int()
	for _, l := range lists {
		if l[1] <= 0 || l[1] > listChunk || !fits(span{off: l[0]}, l[1]*8) {
			return nil, snapErr("bad list chunk")
		}
	}
	if nlist < 0 || nlist > int64(len(lists))*listChunk {
		return nil, snapErr("list count out of range")
	}
	psp := spanOf("problems")
	if !fits(psp, psp.n) {
		return nil, snapErr("problems lie outside the file")
	}
	probs := make([]byte, psp.n)
	if err := load(psp, probs); err != nil {
		return nil, err
	}
	gjson.ForEachLine(string(probs), func(l gjson.Result) bool {
		s.Problems = append(s.Problems, problem{Line: int(jsonr.Get(l, "line").Int()), Kind: problemKind(jsonr.Get(l, "kind").Int()), ID: jsonr.Get(l, "id").String(), Msg: jsonr.Get(l, "msg").String()})
		return true
	})

	broken := &s.strs.broken
	s.recs.n = nrecs
	s.recs.chunks = make([][]rec, len(chunks))
	s.recs.load = func(i int) []rec {
		c := make([]rec, chunkSize)
		if *broken {
			return c
		}
		sp := span{off: chunks[i][0], sum: uint64(chunks[i][2])}
		if load(sp, raw(c[:chunks[i][1]])) != nil || !recsFit(c[:chunks[i][1]], pages, int(nlist)) {
			*broken = true
			clear(c)
		}
		return c
	}
	for _, idx := range []struct {
		x          *index
		keys, vals string
	}{{&s.ids, "idsKeys", "idsVals"}, {&s.days.index, "daysKeys", "daysVals"}} {
		x, ksp, vsp := idx.x, spanOf(idx.keys), spanOf(idx.vals)
		slots := ksp.n
		if slots < 0 || slots&(slots-1) != 0 || !fits(ksp, slots*8) || !fits(vsp, slots*4) || vsp.n < 0 || vsp.n > slots {
			return nil, snapErr(idx.keys + " table out of range")
		}
		isIDs := x == &s.ids
		x.load = func() {
			keys, vals := make([]uint64, slots), make([]int32, slots)
			if load(ksp, raw(keys)) != nil || load(vsp, raw(vals)) != nil {
				*broken = true
				return
			}
			for i, k := range keys {
				if k != 0 && isIDs && (vals[i] < 0 || int(vals[i]) >= nrecs) {
					*broken = true
					return
				}
			}
			x.keys, x.vals, x.n = keys, vals, int(vsp.n)
		}
	}

	s.strs.lists = make([][]ref, len(lists))
	s.strs.sealedLists = len(lists)
	s.strs.nlist = int(nlist)
	s.strs.loadList = func(i int) []ref {
		c := make([]ref, listChunk)
		if *broken {
			return nil
		}
		n := lists[i][1]
		if load(span{off: lists[i][0], sum: uint64(lists[i][2])}, raw(c[:n])) != nil {
			*broken = true
			return nil
		}
		for _, r := range c[:n] {
			if !refFits(r, pages) {
				*broken = true
				return nil
			}
		}
		return c
	}
	s.strs.pages = make([][]byte, len(pages))
	s.strs.sealed = len(pages)
	gen := h.Gen
	s.strs.load = func(i int) []byte {
		buf := make([]byte, 8+pages[i][1])
		if err := readFull(read, pages[i][0], buf); err != nil || getU64(buf) != gen || int64(sumWords(0, buf[8:])) != pages[i][2] {
			*broken = true
			return nil
		}
		return buf[8:]
	}
	s.live = int(jsonr.Get(root, "live").Int())
	s.Lines = int(jsonr.Get(root, "lines").Int())
	s.Events = int(jsonr.Get(root, "events").Int())
	for i, c := range jsonr.Get(root, "counts").Array() {
		if i < len(s.counts) {
			s.counts[i] = int(c.Int())
		}
	}
	b := &base{n: int32(nrecs), touchedBit: make([]uint64, (nrecs+63)/64)}
	for _, v := range jsonr.Get(root, "marked").Array() {
		hh := v.Int()
		if hh < 0 || hh >= int64(nrecs) || len(s.marked) > 0 && int32(hh) <= s.marked[len(s.marked)-1] {
			return nil, snapErr("marked list out of range or order")
		}
		s.marked = append(s.marked, int32(hh))
	}
	for _, v := range jsonr.Get(root, "hot").Array() {
		e := v.Array()
		if len(e) < 4 || e[0].Int() < 0 || e[0].Int() >= int64(nrecs) {
			return nil, snapErr("hot list out of range")
		}
		said := hotEntry{updated: e[1].Int(), id: e[2].String(), line: e[3].String()}
		for _, t := range e[4:] {
			said.tags = append(said.tags, t.String())
		}
		b.hot = append(b.hot, int32(e[0].Int()))
		b.hotSaid = append(b.hotSaid, said)
	}
	if e := jsonr.Get(root, "edge"); e.Exists() {
		b.edge, b.edgeUpdated, b.edgeID = true, jsonr.Get(e, "updated").Int(), jsonr.Get(e, "id").String()
	}
	jsonr.Get(root, "tags").ForEach(func(_, v gjson.Result) bool {
		b.tags.addN(jsonr.Get(v, "0").String(), int(jsonr.Get(v, "1").Int()))
		return true
	})
	s.base = b
	s.Gen = 1
	return s, nil
}

func refFits(r ref, pages [][3]int64) bool {
	if r.size() == 0 {
		return true
	}
	p := r.page()
	return p < len(pages) && int64(r.off()+r.size()) <= pages[p][1]
}

// recsFit checks a chunk read from a snapshot: every reference within the
// sizes the snapshot declared, so a damaged record never indexes out of range.
func recsFit(c []rec, pages [][3]int64, nlist int) bool {
	okList := func(l list) bool {
		return l.size() == 0 || l.start()+l.size() <= nlist && l.start()%listChunk+l.size() <= listChunk
	}
	for i := range c {
		r := &c[i]
		for _, f := range [...]ref{r.id, r.project, r.title, r.text, r.reason, r.supersedes, r.supersededBy, r.conflictNote, r.source, r.category, r.createdBy} {
			if !refFits(f, pages) {
				return false
			}
		}
		if !okList(r.tags) || !okList(r.conflicts) || r.status >= numStatus {
			return false
		}
	}
	return true
}

func readFull(read readAt, off int64, dst []byte) error {
	for len(dst) > 0 {
		n, err := read(off, dst)
		if err != nil {
			return err
		}
		if n == 0 {
			return snapErr("file ends early")
		}
		dst = dst[n:]
		off += int64(n)
	}
	return nil
}

// Resident reads every record, table and page not yet read, so nothing
// later depends on the snapshot file; false when one could not be read
// (see Broken).
func (s *state) Resident() bool {
	for c := range s.recs.chunks {
		if s.recs.chunks[c] == nil && !s.strs.broken {
			s.recs.at(int32(c << chunkBits))
		}
	}
	s.ids.ready()
	s.days.ready()
	for c := 0; c < s.strs.sealedLists && !s.strs.broken; c++ {
		s.strs.listChunk(c, false)
	}
	for i := 0; i < s.strs.sealed && !s.strs.broken; i++ {
		if s.strs.pages[i] == nil {
			s.strs.pages[i] = s.strs.load(i)
		}
	}
	return !s.strs.broken
}

// Broken reports that something could not be read from the snapshot it
// came from (the file was replaced or damaged since): what was read through
// it may be wrong, and the state must be rebuilt from the log.
func (s *state) Broken() bool { return s.strs.broken }
