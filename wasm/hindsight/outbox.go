package hindsight

import (
	"bytes"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/tidwall/gjson"
)

// Files of the outbox, under <agentDir>/pi-memory/hindsight/ (docs/formats.md).
const (
	outboxFile = "outbox.jsonl"
	deadFile   = "dead.jsonl"
	// asideFile keeps, byte for byte, the outbox lines that could not be
	// read, moved there when the outbox is compacted.
	asideFile = "unreadable.jsonl"
	// compactBytes is the size past which an outbox with nothing pending is
	// rewritten empty; past compactBusy, one whose pending records take less
	// than a quarter of it is rewritten with them alone (compactRecords).
	compactBytes = 64 << 10
	compactBusy  = 4 << 20
	// readPiece is how much of the outbox one read takes when it is folded
	// anew: any size is read, a piece at a time.
	readPiece = 1 << 20
	// maxBatch is the most items one flush request carries.
	maxBatch     = 20
	maxBackoffMs = 5 * 60 * 1000
	lostMs       = 10 * 60 * 1000 // a background flush unanswered this long is taken as lost
	// claimSlackMs is how much longer than its requests' bound a flush's
	// claim on its jobs lasts: a process killed mid-flush leaves its jobs to
	// the others this long after the bound.
	claimSlackMs = 30000
)

// Item is one memory to retain, as the server's retain API takes it.
type Item struct {
	Content, Context string
	At               int64 // the turn's time, ms
	DocumentID       string
	Tags             []string
	Source           string // metadata.source
	Session          string // metadata.session
}

// itemJSON is the item as the retain request and the outbox's job record
// carry it.
func itemJSON(it Item) []byte {
	w := jsonw.Open(nil)
	w.Str("content", it.Content)
	w.Str("context", it.Context)
	w.Str("timestamp", civil.FormatTime(it.At))
	w.Str("document_id", it.DocumentID)
	w.Strs("tags", it.Tags)
	m := jsonw.Open(nil)
	m.Str("source", it.Source)
	m.Str("session", it.Session)
	w.Raw("metadata", m.Close())
	return w.Close()
}

// JobRecord is the outbox line that queues item for bank.
//
//	{"v":1,"op":"job","id":"pimem:s1:5","bank":"pimem-r-…","at":9,"item":{"content":…}}
func JobRecord(bank string, it Item, now int64) []byte {
	w := head("job", it.DocumentID, bank, now)
	w.Raw("item", itemJSON(it))
	return append(w.Close(), '\n')
}

// DoneRecord marks a job delivered (or given up on: a dead letter).
func DoneRecord(j Job, now int64) []byte {
	w := head("done", j.ID, j.Bank, now)
	return append(w.Close(), '\n')
}

// claimRecords mark jobs as being sent by process by until until (ms): no
// other process's flush sends them before, so two pi processes finishing
// runs at once send each job once. A done or a fail ends the claim.
//
//	{"v":1,"op":"claim","id":"pimem:s1:5","bank":"pimem-r-…","at":9,"until":45009,"by":"s1/3f9a…"}
func claimRecords(jobs []Job, now, until int64, by string) []byte {
	var out []byte
	for _, j := range jobs {
		w := head("claim", j.ID, j.Bank, now)
		w.Int("until", until)
		w.Str("by", by)
		out = append(append(out, w.Close()...), '\n')
	}
	return out
}

// failRecord counts a failed delivery and says when to try again.
func failRecord(j Job, now int64, problem string) []byte {
	n := j.Attempts + 1
	w := head("fail", j.ID, j.Bank, now)
	w.Int("n", int64(n))
	w.Int("next", now+backoff(n))
	w.Str("error", text.Bytes(hideURLSecrets(problem), 300))
	return append(w.Close(), '\n')
}

// deadRecord is the line dead.jsonl keeps of a job given up on: the job with
// its attempts and last error.
func deadRecord(j Job, now int64, problem string) []byte {
	w := head("dead", j.ID, j.Bank, now)
	w.Int("n", int64(j.Attempts+1))
	w.Str("error", text.Bytes(hideURLSecrets(problem), 300))
	w.Raw("item", []byte(j.Item))
	return append(w.Close(), '\n')
}

func head(op, id, bank string, now int64) jsonw.Object {
	w := jsonw.Open(nil)
	w.Int("v", 1)
	w.Str("op", op)
	w.Str("id", id)
	w.Str("bank", bank)
	w.Int("at", now)
	return w
}

// backoff is the wait after the nth failure: 2^n seconds, at most 5 minutes.
//
//	backoff(1) => 2000; backoff(3) => 8000; backoff(20) => 300000
func backoff(n int) int64 {
	if n < 1 {
		n = 1
	}
	if n > 16 {
		return maxBackoffMs
	}
	return min(int64(1000)<<n, maxBackoffMs)
}

// Job is one pending retain.
type Job struct {
	ID, Bank  string
	At        int64  // when it was queued
	Item      string // the item's JSON, as queued; "" from a folder until fillItems reads it
	Off, Len  int    // where the job's record lies in the bytes folded: its line's offset and length
	Attempts  int
	Next      int64 // not before (ms); 0: at once
	LastError string
	Claimed   int64  // a flush is sending it until then (ms); 0: none
	ClaimedBy string // the process whose flush it is
}

// Outbox is what the outbox file folds to.
type Outbox struct {
	Pending []Job // in queue order
	// Problems name lines that could not be read ("line 3: …"); they are
	// skipped. Torn is a last line without its newline: kept, and the next
	// record goes on a line of its own.
	Problems []string
	Torn     bool
}

// due are the pending jobs whose time has come and that no other
// process's flush is sending (claimRecords): self's own claims do not
// count (its flush that is out was taken as lost, or the session ends).
func (o Outbox) due(now int64, self string) []Job {
	var out []Job
	for _, j := range o.Pending {
		if j.Next <= now && (j.Claimed <= now || j.ClaimedBy == self && self != "") {
			out = append(out, j)
		}
	}
	return out
}

// FoldOutbox reads the outbox's bytes: jobs without a done are pending, the
// latest fail of each says its attempts and when it is due. A job queued
// again after its done is pending again (a new retain of the same document).
func FoldOutbox(data []byte) Outbox {
	var f folder
	f.add(data)
	o := f.outbox()
	fillItems(o.Pending, data, 0)
	return o
}

// folder folds the outbox as it grows: add the bytes appended since, and
// outbox is what FoldOutbox of everything added would give, without the
// items. A host that appends keeps one and folds only its own records, not
// the whole file again; a file read anew is added in pieces (readPiece), so
// no size is too large to fold. A pending job keeps where its record lies
// (Off, Len), not its item, which fillItems reads back when a flush sends
// it: hundreds of waiting items are hundreds of KiB for TinyGo's collector
// to mark at every collection. A line longer than maxLine is a problem, not
// something kept whole while it is found.
type folder struct {
	o    Outbox
	bad  []span // where the lines that are Problems lie, in order
	line int    // the lines ended so far
	off  int    // their bytes, newlines included
	tail []byte // the last line, not yet ended
	long int    // the bytes of a last line past maxLine, dropped as they came (tail is then empty)
}

// span is where a line lies in the bytes folded, its newline not counted.
type span struct{ Off, Len int }

// maxLine bounds an outbox line: a job's item is at most retain.maxChars
// (a million) plus its context, some MiB once escaped as JSON.
const maxLine = 16 << 20

// add folds data appended to what was added before.
func (f *folder) add(data []byte) {
	for {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			if f.long > 0 || len(f.tail)+len(data) > maxLine {
				f.long += len(f.tail) + len(data)
				f.tail = f.tail[:0]
				return
			}
			f.tail = append(f.tail, data...)
			return
		}
		f.line++
		if f.long > 0 || len(f.tail)+nl > maxLine {
			n := f.long + len(f.tail) + nl
			f.o.Problems = append(f.o.Problems, "line "+numstr.Itoa(f.line)+": longer than 16 MiB (not read)")
			f.bad = append(f.bad, span{f.off, n})
			f.off += n + 1
			f.long, f.tail, data = 0, f.tail[:0], data[nl+1:]
			continue
		}
		// A line that does not continue a torn one is folded straight from data.
		l := data[:nl]
		if len(f.tail) > 0 {
			l = append(f.tail, l...)
		}
		f.tail, data = f.tail[:0], data[nl+1:]
		problems := len(f.o.Problems)
		fold(&f.o, string(l), f.line, f.off)
		if len(f.o.Problems) > problems {
			f.bad = append(f.bad, span{f.off, len(l)})
		}
		f.off += len(l) + 1
	}
}

// outbox is the fold so far, good until the next add. A torn last line is
// read as it stands (a record whose newline did not make it still counts),
// on a copy, as the next add may end it.
func (f *folder) outbox() Outbox {
	if len(f.tail) == 0 && f.long == 0 {
		return f.o
	}
	n := len(f.o.Problems)
	o := Outbox{Pending: append([]Job(nil), f.o.Pending...), Problems: f.o.Problems[:n:n], Torn: true}
	if f.long > 0 {
		o.Problems = append(o.Problems, "line "+numstr.Itoa(f.line+1)+": torn (a write that did not finish), longer than 16 MiB")
		return o
	}
	fold(&o, string(f.tail), -(f.line + 1), f.off)
	return o
}

// fillItems fills in each job's item from span, the folded bytes from offset
// base on (a flush reads its jobs' records in one read); false when a
// record is not where the job says (the file was rewritten since it was
// folded): that job's item stays "".
func fillItems(jobs []Job, span []byte, base int) bool {
	s, all := string(span), true
	for i := range jobs {
		j := &jobs[i]
		j.Item = ""
		if k := j.Off - base; k >= 0 && k+j.Len <= len(s) {
			r := gjson.Parse(s[k : k+j.Len])
			if item := jsonr.Get(r, "item"); item.IsObject() && jsonr.Get(r, "id").Str == j.ID && jsonr.Get(r, "bank").Str == j.Bank {
				j.Item = item.Raw
			}
		}
		all = all && j.Item != ""
	}
	return all
}

// unreadable reports whether line, read back from where a Problem's line
// was folded, is still one (the outbox did not change under the fold): a
// line longer than maxLine, or one fold does not read as a record.
func unreadable(line []byte) bool {
	if len(line) > maxLine {
		return true
	}
	var o Outbox
	fold(&o, string(line), 1, 0)
	return len(o.Problems) > 0
}

// fold applies line n (1-based; negative: a torn last line), which starts
// at byte off, to o. What a job keeps is copied out of the line, so the
// line is not kept with it. Jobs are found by a scan: the queue is short,
// and a map would cost the module more than the scan costs a turn.
func fold(o *Outbox, l string, n, off int) {
	if strings.TrimSpace(l) == "" {
		return
	}
	r := gjson.Parse(l)
	// Str is "" unless the value is a string: both must be non-empty strings.
	id, bank := jsonr.Get(r, "id").Str, jsonr.Get(r, "bank").Str
	problem := "not an outbox record"
	if jsonr.Valid(l) && r.IsObject() && jsonr.Get(r, "v").Int() == 1 && id != "" && bank != "" {
		i := len(o.Pending) - 1
		for ; i >= 0 && (o.Pending[i].ID != id || o.Pending[i].Bank != bank); i-- {
		}
		switch op := jsonr.Get(r, "op"); op.Str {
		case "job":
			item := jsonr.Get(r, "item")
			if !item.IsObject() {
				problem = "a job without its item"
				break
			}
			j := Job{ID: strings.Clone(id), Bank: strings.Clone(bank), At: jsonr.Get(r, "at").Int(), Off: off, Len: len(l)}
			if i >= 0 {
				o.Pending[i] = j
			} else {
				o.Pending = append(o.Pending, j)
			}
			return
		case "claim":
			if i >= 0 {
				o.Pending[i].Claimed = jsonr.Get(r, "until").Int()
				o.Pending[i].ClaimedBy = strings.Clone(jsonr.Get(r, "by").String())
			}
			return
		case "fail":
			if i >= 0 {
				o.Pending[i].Claimed, o.Pending[i].ClaimedBy = 0, ""
				o.Pending[i].Attempts = int(jsonr.Get(r, "n").Int())
				o.Pending[i].Next = jsonr.Get(r, "next").Int()
				o.Pending[i].LastError = strings.Clone(jsonr.Get(r, "error").String())
			}
			return
		case "done":
			if i >= 0 {
				o.Pending = append(o.Pending[:i], o.Pending[i+1:]...)
			}
			return
		default:
			problem = "unknown op " + strconv.Quote(op.String())
		}
	}
	if n < 0 {
		n, problem = -n, "torn (a write that did not finish)"
	}
	o.Problems = append(o.Problems, "line "+numstr.Itoa(n)+": "+problem)
}

// compactRecords is the outbox holding jobs (their items filled in) alone,
// each as it stands: its job record, then a fail record with its attempts,
// when it is due and its last error, then its claim. What it folds to is what the outbox
// held of them, so an outbox rewritten with it loses no unsent job.
func compactRecords(jobs []Job) []byte {
	var out []byte
	for _, j := range jobs {
		w := head("job", j.ID, j.Bank, j.At)
		w.Raw("item", []byte(j.Item))
		out = append(append(out, w.Close()...), '\n')
		if j.Attempts > 0 || j.Next != 0 {
			w := head("fail", j.ID, j.Bank, j.At)
			w.Int("n", int64(j.Attempts))
			w.Int("next", j.Next)
			w.Str("error", j.LastError)
			out = append(append(out, w.Close()...), '\n')
		}
		if j.Claimed != 0 {
			out = append(out, claimRecords([]Job{j}, j.At, j.Claimed, j.ClaimedBy)...)
		}
	}
	return out
}

// flushBatch is one flush request and the jobs it carries.
type flushBatch struct {
	Bank string
	Jobs []Job
	Req  request
}

// flushBatches groups due jobs by bank, at most maxBatch a request, in
// queue order: POST …/banks/{bank}/memories {"items":[…],"async":true}.
func flushBatches(c settings, due []Job, timeoutMs int) []flushBatch {
	var out []flushBatch
	open := map[string]int{}
	for _, j := range due {
		i, ok := open[j.Bank]
		if !ok || len(out[i].Jobs) == maxBatch {
			open[j.Bank] = len(out)
			out = append(out, flushBatch{Bank: j.Bank})
			i = len(out) - 1
		}
		out[i].Jobs = append(out[i].Jobs, j)
	}
	for i := range out {
		b := []byte(`{"items":[`)
		for k, j := range out[i].Jobs {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, j.Item...)
		}
		b = append(b, `],"async":true}`...)
		out[i].Req = post(c, bankPath(out[i].Bank)+"/memories", b, timeoutMs)
	}
	return out
}

// outcome is what one batch's answer means for each of its jobs: the lines
// to append to the outbox, and those for the dead-letter file. Only an
// answer that is Hindsight's marks them done (retainProblem).
func outcome(c settings, b flushBatch, r response, now int64) (outbox, dead []byte) {
	problem := retainProblem(r)
	for _, j := range b.Jobs {
		switch {
		case problem == "":
			outbox = append(outbox, DoneRecord(j, now)...)
		case j.Attempts+1 >= c.MaxAttempts:
			dead = append(dead, deadRecord(j, now, problem)...)
			outbox = append(outbox, DoneRecord(j, now)...)
		default:
			outbox = append(outbox, failRecord(j, now, problem)...)
		}
	}
	return outbox, dead
}

// jobRecords are the outbox lines that queue a turn (or an explicit
// retain) for each selected bank: one item per bank, as the live document
// of the user message's time, tagged for the bank.
func jobRecords(banks []bank, t turn, repoKey, session, source string, now int64) []byte {
	var recs []byte
	for _, b := range banks {
		it := Item{
			Content: t.Content, Context: t.Context, At: t.UserMs,
			DocumentID: liveDocumentID(session, t.UserMs),
			Tags:       baseTags(b, repoKey, session, source),
			Source:     source, Session: session,
		}
		recs = append(recs, JobRecord(b.ID, it, now)...)
	}
	return recs
}

// batchRequests are the flush's requests, a batch each.
func batchRequests(batches []flushBatch) []request {
	reqs := make([]request, len(batches))
	for i := range batches {
		reqs[i] = batches[i].Req
	}
	return reqs
}

// flushLost says a background flush sent at since and still unanswered at
// now is taken as lost: a host that never answers must not stop flushing
// for good.
func flushLost(since, now int64) bool { return now-since >= lostMs }

// flushed is what a flush's answers mean: the lines to append to the
// outbox and to the dead-letter file, the jobs the server took and those it
// did not, and the last problem ("bank: HTTP 503").
type flushed struct {
	Outbox, Dead []byte
	Sent, Failed int
	Problem      string
}

// settle reads each batch's answer (rs, in the batches' order) into the
// records of its jobs (outcome).
func settle(c settings, batches []flushBatch, rs []response, now int64) flushed {
	var f flushed
	for i, r := range rs {
		more, d := outcome(c, batches[i], r, now)
		f.Outbox, f.Dead = append(f.Outbox, more...), append(f.Dead, d...)
		if p := retainProblem(r); p != "" {
			f.Failed += len(batches[i].Jobs)
			f.Problem = batches[i].Bank + ": " + p
		} else {
			f.Sent += len(batches[i].Jobs)
		}
	}
	return f
}

// gaveUp is the warning that jobs became dead letters, kept in deadFile
// after maxAttempts failures; "" when none did.
func (f flushed) gaveUp(maxAttempts int, deadFile string) string {
	if len(f.Dead) == 0 {
		return ""
	}
	return "pi-memory: Hindsight gave up on " + text.Plural(strings.Count(string(f.Dead), "\n"), "retain job", "retain jobs") + " after " + numstr.Itoa(maxAttempts) + " failures (" + hideURLSecrets(f.Problem) + "); they are kept in " + deadFile + "."
}
