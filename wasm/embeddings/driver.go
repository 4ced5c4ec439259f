package embeddings

import (
	"bytes"
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"path"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/history"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/hsimport"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonl"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/pi-memory/pi-memory/wasm/vectors"
	"github.com/tidwall/gjson"
)

// The driver's bounds.
const (
	// batch is how many messages one request embeds; perAsk how many
	// requests one background ask sends at once.
	batch  = 32
	perAsk = 2
	// batchTimeoutMs bounds a background request; exitMs how long quitting
	// waits for one still out.
	batchTimeoutMs = 60000
	exitMs         = 1000
	// maxText is how much of a message is embedded (a model reads a few
	// hundred words; a pasted log is not what a question means).
	maxText = 2000
	// maxSession is the largest session file read for its messages.
	maxSession = 16 << 20
	// quietMs: a session written to lately is still running somewhere; it
	// is embedded once it has been still that long, not at every change.
	quietMs = 30 * 1000
	// maxFails in a row stop the background work for the session.
	maxFails = 3
	// maxHeld bounds the vectors held in the module's memory (12 MB at
	// 384 dimensions) and a search's cosine over them (one multiply-add per
	// dimension each); maxCount how many session files a search looks at
	// to count what is not embedded.
	maxHeld  = 30000
	maxCount = 2000
	// nearestN is how many messages the vectors rank: the orchestrator
	// fuses the first 20 of them it finds in its index.
	nearestN = 60
	// countMs: what is not embedded is counted again at most this often.
	countMs = 30 * 1000
	// maxVectorBytes bounds an answer's bytes per text asked: a vector of
	// maxDims as "-0.0123456789012345678," is 100 KB. A larger answer (a
	// wrong URL's 50 MB) is not read, nor parsed in pi's thread.
	maxVectorBytes = 128 << 10
)

// driver is the store for one session: its configuration, the cache as
// read so far, and the background work in progress. It talks to the host
// only through the guarded FS it was handed.
type driver struct {
	env       *store.Env
	s         *store.Session
	h         *files.FS
	file      string // the configuration file, "" without an agent folder
	watch     files.Watch
	cfg       settings
	sessionID string

	vec, lock string // the cache and its lock
	tab       table
	off       int64 // bytes of the cache read into tab
	// head and tail are the cache's first bytes and those before off, as
	// read: a file that no longer has them there was replaced (deleted and
	// written again, or rewritten), and is read again from its start.
	// seen is the cache's stamp when they were last compared.
	head, tail []byte
	seen       uint64
	full       bool // the cache reached maxCacheBytes
	// broken says why the cache cannot be read or written (a folder, a
	// FIFO, a device, no permission): said at search, "" otherwise.
	broken string
	// unwritable is why the cache could not be appended to, for the
	// session (the background work then stops).
	unwritable string

	busy   bool // a background ask is out
	busyAt int64
	fails  int
	job    *job
	// skip are session files not to read again at their stamp: too
	// large, not a session, another project's, or the running one.
	skip map[string]uint64
	// others are sessions another process was found embedding at the same
	// time (its records were in the cache before this one's): left to it
	// while there is other work, taken up again after.
	others map[string]uint64
	// oldestFirst: this process found another embedding the same session
	// as it, and takes the sessions from the oldest (the other goes on
	// from the newest), so the two meet once rather than at every session.
	oldestFirst bool
	found       []string          // the session files a scan looked at, newest first
	piece       []byte            // the buffer the cache is read through
	buf         []byte            // the buffer a session file is read into
	running     string            // the running session's file, once read: never embedded
	queries     map[string][]int8 // this session's query vectors, by text
	// waiting is how many messages pending last counted, at countedAt.
	waiting   int
	countedAt int64
}

// job is one session's messages being embedded.
type job struct {
	file  string
	stamp uint64
	lines []int
	texts []string
	next  int    // the first message not asked for yet
	prev  []int8 // the own vector of the message before next
}

var (
	_ store.Store    = (*driver)(nil)
	_ store.Starter  = (*driver)(nil)
	_ store.Settler  = (*driver)(nil)
	_ store.Follower = (*driver)(nil)
	_ store.Ranker   = (*driver)(nil)
)

// Open is the embeddings store's driver for a session (wasm/store).
func Open(env *store.Env) store.Store {
	d := &driver{env: env, s: env.Session, h: env.FS}
	if d.s.AgentDir != "" {
		d.file = path.Join(d.s.AgentDir, "pi-memory", configFile)
	}
	return d
}

// Name is the store's name; it has no command and no tool of its own.
func (d *driver) Name() string { return "embeddings" }

// Off says why the vectors are neither made nor used: not configured (the
// default), a configuration that cannot be used, or what keeps earlier
// sessions from being read at all.
func (d *driver) Off() string {
	switch {
	case d.s.AgentDir == "":
		return history.Unread(d.s)
	case d.cfg.Why != "":
		return "Embeddings are off: " + d.cfg.Why + "."
	case !d.cfg.on():
		return "Not configured (" + d.file + "): search ranks by words alone."
	}
	return history.Unread(d.s)
}

// Follows: the vectors have no switch of their own; they are made and used
// while a store a person keeps is on (store.Follower).
func (d *driver) Follows() {}

// Ready has nothing to catch up with: Rank reads what the cache gained.
func (d *driver) Ready(*store.Out) error { return nil }

// Commands: none.
func (d *driver) Commands() map[string]func(c *store.Cmd) { return nil }

// Start reads the configuration, saying once what is wrong with it, and,
// on a host with an event loop (pi), begins embedding in the background.
// pimem's commands and its MCP server answer a background ask before they
// go on (they have no loop to return to), so there the vectors pi made are
// used and none are made.
func (d *driver) Start(out *store.Out, in gjson.Result) {
	d.sessionID = jsonr.Get(in, "sessionId").Str
	d.refresh(out, true)
	if d.s.Mode != "cli" && d.s.Mode != "mcp" {
		d.step(out)
	}
}

// Refresh reads the configuration again when the file changed.
func (d *driver) Refresh(out *store.Out) { d.refresh(out, false) }

func (d *driver) refresh(out *store.Out, first bool) {
	if d.file == "" || !d.watch.Changed(d.h, d.file) && !first {
		return
	}
	if first {
		d.watch.Changed(d.h, d.file)
	}
	was := d.cfg
	d.cfg = parseConfig(files.Config(d.h, d.file))
	for _, w := range d.cfg.Warnings {
		out.Notify("warning", "pi-memory: "+w)
	}
	if d.cfg.Why != "" {
		out.Notify("warning", "pi-memory: embeddings are off: "+d.cfg.Why+". Search ranks by words alone.")
	}
	if modelKey(was) != modelKey(d.cfg) || d.vec == "" {
		dir := path.Join(d.s.AgentDir, "pi-memory", "vectors")
		d.vec = path.Join(dir, modelKey(d.cfg)+".vec")
		d.lock = d.vec + ".lock"
		d.tab.reset()
		d.off, d.full, d.job, d.fails, d.queries = 0, false, nil, 0, nil
	}
}

// bulkyCache is the cache's size from which its reading, ranking and, at
// its bound, rewriting (half of it in one step) may hold a thread for long.
const bulkyCache = 16 << 20

// Bulky: a cache that large makes pi run the core off its event loop
// (store.Bulky).
func (d *driver) Bulky() bool {
	if !d.cfg.on() || d.cfg.Why != "" || d.vec == "" {
		return false
	}
	info, err := d.h.Stat(d.vec)
	return err == nil && info.Size >= bulkyCache
}

// Settled: pi is idle after a run, the moment to embed more.
func (d *driver) Settled(out *store.Out, _ gjson.Result) { d.step(out) }

// sessionsDir is where pi keeps its sessions.
func (d *driver) sessionsDir() string { return path.Join(d.s.AgentDir, "sessions") }

// mine says whether a session file is in a folder that may hold this
// project's sessions (the index keeps only those that ran in it).
func (d *driver) mine(file string) bool {
	dir := d.sessionsDir() + "/"
	if !strings.HasPrefix(file, dir) {
		return false
	}
	folder, _, ok := strings.Cut(file[len(dir):], "/")
	return ok && hsimport.FolderMayHold(folder, d.s.ProjectRoot)
}

// catchUp reads what the cache gained since it was last read, at most
// limit bytes of it (a negative limit: all), and says whether it read to
// the end (of the bound: maxCacheBytes and maxCacheSlack); a cache that
// was replaced (shorter than read, or not the same bytes where same looks)
// is read again from its start. A record that cannot be read is skipped
// and counted; a torn last line (another process appending) is read next
// time.
func (d *driver) catchUp(limit int64) bool {
	info, err := d.h.Stat(d.vec)
	d.broken = ""
	switch {
	case err == nil && (info.Dir || info.Kind == hostio.KindOther):
		d.broken = d.vec + " is not a regular file"
	case err != nil && !hostio.IsNotFound(err):
		d.broken = err.Error()
	}
	if err != nil || d.broken != "" {
		if d.off != 0 || d.tab.held != 0 {
			d.tab.reset()
			d.off = 0
		}
		return true
	}
	d.full = info.Size >= maxCacheBytes
	if stamp := history.Stamp(info.Size, info.MtimeMs); info.Size < d.off || stamp != d.seen && !d.same() {
		d.tab.reset()
		d.off = 0
	} else {
		d.seen = stamp
	}
	// Nothing past the bound is read (a cache grown past it, a sparse
	// gigabyte): the status says it reached it.
	size := min(info.Size, maxCacheBytes+maxCacheSlack)
	end := size
	if limit >= 0 && d.off+limit < end {
		end = d.off + limit
	}
	if end <= d.off {
		return true
	}
	if d.piece == nil {
		d.piece = make([]byte, 64<<10)
	}
	// What is read ends after the last newline read: a line not ended yet
	// (another process appending, or cut by limit) is read next time.
	base, last := d.off, int64(-1)
	read := func(off int64, dst []byte) (int, error) {
		if rest := end - base - off; int64(len(dst)) > rest {
			dst = dst[:max(rest, 0)]
		}
		k, err := d.h.ReadAt(d.vec, base+off, dst)
		if err != nil {
			d.broken = err.Error()
		}
		if i := bytes.LastIndexByte(dst[:k], '\n'); i >= 0 {
			last = off + int64(i)
		}
		return k, err
	}
	keep := func(file string) bool { return d.mine(file) }
	jsonl.Read(read, d.piece, maxRecordLine, func(_ int, line []byte, torn bool) bool {
		if torn {
			return false
		}
		if r, err := parseRecord(line); err == nil {
			d.tab.add(r, keep)
		} else {
			d.tab.bad++
		}
		return true
	}, func(int) { d.tab.bad++ })
	switch {
	case last >= 0:
		d.off = base + last + 1
	case end-base >= maxRecordLine:
		// No newline in a piece longer than any record: not a record, skipped.
		d.off = end
		d.tab.bad++
	}
	if d.off != base {
		d.mark(base == 0)
	}
	// Read to the end: a last line not ended yet is all that is left, and
	// is read once it is (waiting for it would never end).
	return end == size
}

// markBytes is how much of the cache's start, and of what was read last,
// identifies it: the first record's stamp, line and vector, the last's
// vector's end and session file.
const markBytes = 512

// mark notes the cache's first bytes (when first read) and those before
// off, for same.
func (d *driver) mark(first bool) {
	grab := func(b []byte, at, n int64) []byte {
		b = append(b[:0], make([]byte, n)...)
		k, _ := d.h.ReadAt(d.vec, at, b)
		return b[:k]
	}
	if first {
		d.head = grab(d.head, 0, min(d.off, markBytes))
	}
	d.tail = grab(d.tail, d.off-min(d.off, markBytes), min(d.off, markBytes))
}

// same says the cache still holds, at its start and before off, what was
// read there (nothing read yet: yes). Another process may have deleted it
// and written it again, or rewritten it, longer than off; reading on from
// off would frame the new file's records from the middle of one, and mix
// two files' records.
func (d *driver) same() bool {
	if d.off == 0 {
		return true
	}
	at := func(off int64, want []byte) bool {
		got := make([]byte, len(want))
		k, err := d.h.ReadAt(d.vec, off, got)
		return err == nil && k == len(want) && bytes.Equal(got, want)
	}
	return at(0, d.head) && at(d.off-int64(len(d.tail)), d.tail)
}

// The work of one slice of a host's event loop (decision 018): the cache
// read in pieces of sliceBytes (about 10 ms of TinyGo), and the cosine over
// sliceVectors vectors at a time.
const (
	sliceBytes   = 160 << 10
	sliceVectors = 5000
)

// again is the next slice of k (store.Out.Again).
func (d *driver) again(out *store.Out, k, stop func(out *store.Out)) {
	out.Again(d.s.Mode == "cli", k, stop)
}

// readAll reads the cache to its end in slices, then runs k.
func (d *driver) readAll(out *store.Out, k, stop func(out *store.Out)) {
	if d.catchUp(sliceBytes) {
		k(out)
		return
	}
	d.again(out, func(out *store.Out) { d.readAll(out, k, stop) }, stop)
}

// request is one request of an http ask for the embeddings of texts.
func (d *driver) request(texts []string, timeoutMs int) []byte {
	w := jsonw.Open(nil)
	w.Str("method", "POST")
	w.Str("url", d.cfg.URL)
	w.Raw("headers", []byte(`{"Content-Type":"application/json"}`))
	w.Str("body", string(vectors.Body(d.cfg.Model, texts, d.cfg.Dims)))
	w.Int("timeoutMs", int64(timeoutMs))
	w.Int("maxBytes", int64(len(texts))*maxVectorBytes)
	if d.cfg.KeyEnv != "" {
		// The host reads the variable and sends it as a bearer token: the
		// key never enters the core (decision 001).
		w.Str("bearerEnv", d.cfg.KeyEnv)
	}
	return w.Close()
}

// vectorsOf reads one answer of an http ask for n texts, or says why not.
func vectorsOf(a gjson.Result, n int) ([][]int8, string) {
	if e := jsonr.Get(a, "error"); e.Exists() {
		said, _ := redact.String(text.OneLine(e.String()))
		return nil, text.Whole(said, 200)
	}
	if jsonr.Get(a, "truncated").Bool() {
		return nil, "the answer is larger than " + numstr.Itoa(n*maxVectorBytes>>10) + " KB"
	}
	body := jsonr.Get(a, "body").String()
	if st := jsonr.Get(a, "status").Int(); st < 200 || st > 299 {
		if _, err := vectors.Parse([]byte(body), n); err != nil && strings.HasPrefix(err.Error(), "the endpoint answered") {
			return nil, "status " + numstr.Itoa(int(st)) + ": " + err.Error()
		}
		return nil, "the endpoint answered status " + numstr.Itoa(int(st))
	}
	v, err := vectors.Parse([]byte(body), n)
	if err != nil {
		return nil, err.Error()
	}
	return v, ""
}

// step sends the next background ask: the next messages of the newest
// session not embedded whole, up to perAsk requests of batch. One ask is
// out at a time; its answer sends the next, until every session is
// embedded, the cache is full, or the endpoint failed maxFails times in a
// row. The gate decides first: this is work nobody asked for.
func (d *driver) step(out *store.Out) {
	now := d.h.Now()
	if d.busy && now-d.busyAt < 2*batchTimeoutMs || d.fails >= maxFails || d.env.May(d, store.Capture) != "" {
		return
	}
	d.busy = false
	if !d.catchUp(sliceBytes) {
		// The rest of the cache is read in later pieces, pi's loop running
		// between them (a background ask of nothing).
		d.busy, d.busyAt = true, now
		out.HTTPBackground([]byte("[]"), exitMs, func(out *store.Out, _ gjson.Result) {
			d.busy = false
			d.step(out)
		})
		return
	}
	if d.full {
		// A session newer than the oldest in it waits (not an older one, as
		// at the end of a first build, newest first): the cache is rewritten
		// with the newest sessions' records, then read again from its start
		// in pieces, and the work goes on.
		if j, _ := d.scan(true); j == nil || !d.tab.newer(path.Base(j.file)) {
			return
		}
		if err := d.compact(); err != nil {
			out.Notify("warning", "pi-memory: embeddings: cannot rewrite "+d.vec+": "+err.Error())
			d.unwritable = err.Error()
			d.fails = maxFails
			return
		}
		d.tab.reset()
		d.off, d.full, d.job = 0, false, nil
		d.busy, d.busyAt = true, now
		out.HTTPBackground([]byte("[]"), exitMs, func(out *store.Out, _ gjson.Result) {
			d.busy = false
			d.step(out)
		})
		return
	}
	if j := d.job; j != nil {
		if v := d.tab.sessions[j.file]; v != nil && v.stamp == j.stamp && v.done {
			d.job = nil // another process embedded it meanwhile
		}
	}
	if d.job == nil || d.job.next >= len(d.job.lines) {
		d.job, _ = d.scan(true)
		if d.job == nil {
			// Nothing else to do: the sessions left to another process
			// are taken up after the next turn, where the cache then says
			// it stopped (it may have ended), and sessions that end later
			// are taken newest first again.
			d.others, d.oldestFirst = nil, false
		}
	}
	j := d.job
	if j == nil {
		return
	}
	from := j.next
	reqs := []byte{'['}
	for k := 0; k < perAsk && j.next < len(j.lines); k++ {
		to := min(j.next+batch, len(j.lines))
		if k > 0 {
			reqs = append(reqs, ',')
		}
		reqs = append(reqs, d.request(j.texts[j.next:to], batchTimeoutMs)...)
		j.next = to
	}
	reqs = append(reqs, ']')
	to := j.next
	d.busy, d.busyAt = true, now
	out.HTTPBackground(reqs, exitMs, func(out *store.Out, v gjson.Result) {
		d.answered(out, j, from, to, v)
	})
}

// answered keeps the vectors of messages from..to of j, then asks for the
// next. A failure leaves them to the next settle, and says so once.
func (d *driver) answered(out *store.Out, j *job, from, to int, v gjson.Result) {
	d.busy, d.countedAt = false, 0
	if d.job != j {
		return // the configuration changed meanwhile
	}
	answers := v.Array()
	var recs []record
	at, gaveUp := from, false
	for i := 0; at < to; i++ {
		n := min(batch, to-at)
		var got [][]int8
		why := "the host answered no request"
		if i < len(answers) {
			got, why = vectorsOf(answers[i], n)
		}
		if why != "" {
			j.next, j.prev = at, nil
			if gaveUp = why == "aborted"; gaveUp {
				break // the host gave the request up (pi exiting): no failure of the endpoint's, and nothing more is asked now
			}
			if d.fails++; d.fails == 1 || d.fails == maxFails {
				msg := "pi-memory: embeddings: " + d.cfg.URL + " failed: " + why
				if d.fails == maxFails {
					msg += "; no more is embedded this session, and search ranks by words alone where nothing is"
				}
				out.Notify("warning", msg+".")
			}
			break
		}
		for k, own := range got {
			if vec, ok := blend(own, j.prev, d.cfg.Dims); ok {
				recs = append(recs, record{File: j.file, Stamp: j.stamp, Line: j.lines[at+k], Vec: vec})
			}
			j.prev = own
		}
		at += n
	}
	if at == to && at > from {
		d.fails = 0
	}
	if at == len(j.lines) && at == to {
		recs = append(recs, record{File: j.file, Stamp: j.stamp, Line: len(j.lines)})
	}
	if len(recs) > 0 && !d.changed(j) {
		held, err := d.appendNew(recs)
		if err != nil {
			out.Notify("warning", "pi-memory: embeddings: cannot write "+d.vec+": "+err.Error())
			d.unwritable = err.Error()
			d.fails = maxFails
			return
		}
		if held > 0 && d.job == j {
			// Another process is embedding this session too (two pi
			// started together): it is left to that one while there is
			// other work, so each message is asked for once, not twice.
			if d.others == nil {
				d.others = map[string]uint64{}
			}
			d.others[j.file] = j.stamp
			d.job, d.oldestFirst = nil, true
		}
	}
	if d.fails == 0 && !gaveUp {
		d.step(out)
	}
}

// compact rewrites the cache, under its lock, with the records of the
// newest sessions that fit in half its bound (whole sessions, newest first)
// and a closing record for every older one, so that it is not embedded
// again (its vectors would be the first dropped). It is written beside the
// cache in pieces and renamed over it: a reader sees the old file or the
// new one, which it finds replaced and reads from its start.
func (d *driver) compact() error {
	if err := files.LockMaking(d.h, d.lock); err != nil {
		return err
	}
	defer d.h.Unlock(d.lock)
	d.catchUp(-1) // what other processes appended since
	if d.broken != "" {
		return errors.New(d.broken)
	}
	// Newest first: the sessions through the table's heap, oldest first,
	// then read from the end (the table is read again after).
	var sorted table
	for _, v := range d.tab.order {
		sorted.pushAge(v)
	}
	byAge := make([]*vecs, len(sorted.byAge))
	for i := len(byAge) - 1; i >= 0; i-- {
		byAge[i] = sorted.popOldest()
	}
	tmp := d.vec + ".new"
	if err := d.h.Remove(tmp); err != nil && !hostio.IsNotFound(err) {
		return err
	}
	var buf []byte
	written, keep := 0, true
	flush := func(last bool) error {
		if len(buf) < 1<<20 && !last {
			return nil
		}
		written += len(buf)
		err := d.h.Append(tmp, buf)
		buf = buf[:0]
		return err
	}
	for _, v := range byAge {
		each := len(appendRecord(nil, record{File: v.file, Stamp: v.stamp, Line: 1 << 20, Vec: make([]int8, d.tab.dims)}))
		keep = keep && written+len(buf)+(len(v.lines)+1)*each <= maxCacheBytes/2
		switch {
		case keep:
			for i, line := range v.lines {
				buf = appendRecord(buf, record{File: v.file, Stamp: v.stamp, Line: int(line), Vec: v.flat[i*d.tab.dims : (i+1)*d.tab.dims]})
			}
			if v.done {
				buf = appendRecord(buf, record{File: v.file, Stamp: v.stamp, Line: v.msgs})
			}
		case v.done || len(v.lines) > 0:
			buf = appendRecord(buf, record{File: v.file, Stamp: v.stamp, Line: max(v.msgs, len(v.lines), 1)})
		}
		if err := flush(false); err != nil {
			return err
		}
	}
	if err := flush(true); err != nil {
		return err
	}
	return d.h.Rename(tmp, d.vec)
}

// changed says the session file is no longer what j read: it is dropped,
// and read again once it is still.
func (d *driver) changed(j *job) bool {
	info, err := d.h.Stat(j.file)
	if err != nil || history.Stamp(info.Size, info.MtimeMs) != j.stamp {
		d.job = nil
		return true
	}
	return false
}

// appendNew appends recs to the cache under its lock, less those another
// process appended meanwhile (read first, under the same lock): a message's
// vector or a session's closing record already there at the same stamp.
// It says how many were there already.
func (d *driver) appendNew(recs []record) (held int, err error) {
	err = files.AppendLocked(d.h, d.vec, d.lock, func(add func([]byte) (bool, error)) error {
		for !d.catchUp(sliceBytes) {
		}
		var lines []byte
		for _, r := range recs {
			if v := d.tab.sessions[r.File]; v != nil && v.stamp == r.Stamp && (v.done || r.Vec != nil && v.holds(r.Line)) {
				held++
				continue
			}
			lines = appendRecord(lines, r)
		}
		if len(lines) == 0 {
			return nil
		}
		_, err := add(lines)
		return err
	})
	return held, err
}

// scan looks at the project's session files, newest first. With next, it
// returns the first not embedded whole as a job (its messages read,
// redacted); else it only counts. waiting is how many messages of the
// sessions looked at are not embedded, and sessions how many sessions were
// not read to know (at most maxCount files are looked at).
func (d *driver) scan(next bool) (j *job, waiting int) {
	dir := d.sessionsDir()
	folders, err := d.h.List(dir)
	if err != nil {
		return nil, 0
	}
	found := d.found[:0]
	for _, f := range folders {
		if !hsimport.FolderMayHold(f, d.s.ProjectRoot) {
			continue
		}
		folder := path.Join(dir, f)
		names, err := d.h.List(folder)
		if err != nil {
			continue
		}
		for i := len(names) - 1; i >= 0 && len(found) < maxCount; i-- {
			if hsimport.IsSessionFile(names[i]) {
				found = append(found, folder+"/"+names[i])
			}
		}
	}
	d.found = found
	now := d.h.Now()
	for k := range found {
		file := found[k]
		if next && d.oldestFirst {
			file = found[len(found)-1-k]
		}
		if file == d.running || path.Base(file) <= d.tab.floor {
			// No newer than a session whose vectors are not held: it
			// would be dropped first (the newest are held).
			continue
		}
		info, err := d.h.Stat(file)
		if err != nil || info.Dir {
			continue
		}
		stamp := history.Stamp(info.Size, info.MtimeMs)
		if s, ok := d.skip[file]; ok && s == stamp {
			continue
		}
		if s, ok := d.others[file]; ok && s == stamp && next {
			continue
		}
		v := d.tab.sessions[file]
		if v != nil && v.stamp == stamp && v.done {
			continue
		}
		if !next {
			if v != nil && v.stamp == stamp {
				waiting += max(estimate(info.Size)-len(v.lines), 1)
			} else {
				waiting += estimate(info.Size)
			}
			continue
		}
		if now-info.MtimeMs < quietMs {
			continue
		}
		if j = d.read(file, stamp, info.Size, v); j != nil {
			return j, 0
		}
	}
	return nil, waiting
}

// estimate is about how many messages a session file of size bytes holds
// (tool calls and results are most of a file): for a count said, never
// for a bound.
func estimate(size int64) int { return int(max(size/4096, 1)) }

// read is session file's job: its messages, each redacted and cut, from
// the first not embedded at this stamp; nil (and skipped until it changes)
// when it is too large, not a session, another project's or the running
// one, or has no message left.
func (d *driver) read(file string, stamp uint64, size int64, v *vecs) *job {
	skip := func() *job {
		if d.skip == nil {
			d.skip = map[string]uint64{}
		}
		d.skip[file] = stamp
		return nil
	}
	if size > maxSession {
		return skip()
	}
	data, err := files.ReadInto(d.h, file, maxSession, d.buf)
	if err != nil {
		return nil
	}
	d.buf = data[:0]
	s, err := history.Read(data)
	if err == nil && s.ID == d.sessionID {
		d.running = file
	}
	if err != nil || s.ID == d.sessionID || !(hsimport.Session{Cwd: s.Cwd}).Under(d.s.ProjectRoot) {
		return skip()
	}
	j := &job{file: file, stamp: stamp}
	done := map[int32]bool{}
	if v != nil && v.stamp == stamp {
		for _, l := range v.lines {
			done[l] = true
		}
	}
	for _, e := range s.Entries {
		if e.Observation || done[int32(e.Line)] {
			continue
		}
		t, _ := redact.String(text.Whole(e.Text, maxText))
		j.lines = append(j.lines, e.Line)
		j.texts = append(j.texts, t)
	}
	if len(j.lines) == 0 {
		// Nothing to embed: closed at once, so it is not read again.
		if !d.changed(j) {
			d.appendNew([]record{{File: file, Stamp: stamp, Line: len(done)}})
		}
		return skip()
	}
	return j
}

// Rank is the vectors' ranking for memory_search (store.Ranker): the
// query's vector asked in the foreground within timeoutMs, then the
// messages of this project's earlier sessions nearest it, as the index's
// Refs ("<session file>:<line>"), best first. said is what the answer
// adds: that the endpoint failed (the word ranking stands alone), or how
// many messages are not embedded yet.
func (d *driver) Rank(out *store.Out, q string, then func(out *store.Out, refs []string, said string)) {
	// A cancelled search ranks nothing more: the word ranking stands.
	stop := func(out *store.Out) { then(out, nil, "") }
	d.readAll(out, func(out *store.Out) {
		pending := d.pending()
		if d.tab.held == 0 {
			then(out, nil, pending)
			return
		}
		qt, _ := redact.String(text.Whole(q, maxText))
		if qv, ok := d.queries[qt]; ok {
			d.nearest(out, &ranking{q: cut(qv, d.cfg.Dims), n: nearestN}, pending, then)
			return
		}
		out.HTTP(append(append([]byte{'['}, d.request([]string{qt}, d.cfg.TimeoutMs)...), ']'), false, func(out *store.Out, v gjson.Result) {
			got, why := vectorsOf(jsonr.Get(v, "0"), 1)
			if why != "" {
				then(out, nil, "Embeddings unavailable ("+why+"): ranked by words alone.")
				return
			}
			if d.queries == nil || len(d.queries) >= 32 {
				d.queries = map[string][]int8{}
			}
			d.queries[qt] = got[0]
			d.nearest(out, &ranking{q: cut(got[0], d.cfg.Dims), n: nearestN}, pending, then)
		})
	}, stop)
}

// nearest ranks the vectors held against r's query in slices, then hands
// the Refs to then.
func (d *driver) nearest(out *store.Out, r *ranking, said string, then func(out *store.Out, refs []string, said string)) {
	if len(r.q) != d.tab.dims {
		// Another model answers at this endpoint, or the cache was made by
		// one: no cosine between the two.
		then(out, nil, strings.TrimSpace(said+"\nEmbeddings: the endpoint's vectors have "+numstr.Itoa(len(r.q))+" dimensions, those of "+d.vec+" "+numstr.Itoa(d.tab.dims)+": ranked by words alone (delete it to rebuild it with this model)."))
		return
	}
	if !d.tab.rank(r, sliceVectors) {
		d.again(out, func(out *store.Out) { d.nearest(out, r, said, then) }, func(out *store.Out) { then(out, nil, "") })
		return
	}
	refs := make([]string, len(r.top))
	for i, s := range r.top {
		refs[i] = s.file + ":" + numstr.Itoa(int(s.line))
	}
	then(out, refs, said)
}

// pending says about how many messages of earlier sessions are not
// embedded yet, "" when none are; counted again at most every countMs, or
// after the background work embedded more (each count stats the session
// files).
func (d *driver) pending() string {
	if now := d.h.Now(); d.countedAt == 0 || now-d.countedAt > countMs || now < d.countedAt {
		_, d.waiting = d.scan(false)
		d.countedAt = now
	}
	var said []string
	if d.waiting > 0 {
		said = append(said, "Embeddings: about "+text.Plural(d.waiting, "message", "messages")+" of earlier sessions not embedded yet (embedded in the background between turns).")
	}
	if d.tab.bad > 0 {
		said = append(said, "Embeddings: "+text.Plural(d.tab.bad, "record", "records")+" of "+d.vec+" could not be read, skipped (the file is derived: delete it to rebuild it).")
	}
	why := d.broken
	if why == "" {
		why = d.unwritable
	}
	if why != "" {
		said = append(said, "Embeddings: the cache cannot be used ("+why+"): it is derived, delete it to rebuild it.")
	}
	if d.tab.over > 0 {
		said = append(said, "Embeddings: "+text.Plural(d.tab.over, "vector", "vectors")+" of the oldest sessions are not searched: the newest "+numstr.Itoa(maxHeld)+" are held.")
	}
	if d.full {
		said = append(said, "Embeddings: "+d.vec+" reached its bound: no older session is embedded, and a newer one makes room (the newest sessions are kept).")
	}
	return strings.Join(said, "\n")
}
