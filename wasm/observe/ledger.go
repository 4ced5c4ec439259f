package observe

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonl"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/sha1"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// The ledger is the store's canonical record: every change is one record,
// appended, never rewritten. In thread scope each record is the data of one
// session custom entry (customType CustomTypeLedger), so the records of a
// branch are that branch's and a fork's state is rebuilt from its own
// branch. In resource scope they are lines of a JSON Lines file under the
// agent folder, shared by the sessions of a project. docs/formats.md shows
// one line of each kind.

// ledgerVersion is the format version of every record ("v").
const ledgerVersion = 1

// Record operations.
const (
	opObserve = "observe" // observations added (or none: the span was read and held nothing new)
	opReflect = "reflect" // the observations rewritten by the reflector
	opClear   = "clear"   // /om clear: observations, task and response emptied (the watermark stays)
	opSet     = "set"     // a command's override of the mode or a threshold
)

// Record is one ledger record.
type Record struct {
	Op      string
	Time    int64  // Unix ms
	Session string // resource scope: the session whose entries From and Through name; "" in thread scope

	// observe
	From    string // the first entry the observed span starts in
	Through Mark   // what the observations cover after this record
	Tokens  int    // transcript tokens the observer read

	// observe and reflect
	Obs                  string // observe: the new observations; reflect: all of them (the observer's format)
	Task, Response       string
	HasTask, HasResponse bool // whether Task and Response were given (an observer may leave them as they are)
	Read, Modified       []string

	// reflect
	Aggressive bool

	// set
	Settings settings

	Line int // the line a decoded record came from (DecodeLedger), else 0
}

// encode writes r as one JSON object without a newline: the data of a
// session custom entry, or a line of the resource ledger once a newline is
// added. Keys keep a fixed order, so the same record is always the same
// bytes.
//
//	encode(Record{Op: opClear, Time: 1770906600000}) => {"v":1,"op":"clear","t":1770906600000}
func encode(r Record) []byte {
	w := jsonw.Open(make([]byte, 0, 128+len(r.Obs)+len(r.Task)+len(r.Response)))
	w.Int("v", ledgerVersion)
	w.Str("op", r.Op)
	w.Int("t", r.Time)
	if r.Session != "" {
		w.Str("session", r.Session)
	}
	switch r.Op {
	case opObserve:
		w.Str("from", r.From)
		w.Str("through", r.Through.ID)
		if r.Through.Off > 0 {
			w.Int("off", int64(r.Through.Off))
		}
		w.Int("tokens", int64(r.Tokens))
	case opReflect:
		if r.Aggressive {
			w.Bool("aggressive", true)
		}
	case opSet:
		if s := r.Settings; s.Mode != nil {
			w.Str("mode", *s.Mode)
		}
		if s := r.Settings; s.AutoCompact != nil {
			w.Bool("autoCompact", *s.AutoCompact)
		}
		for _, k := range []struct {
			name string
			v    *int
		}{{"observerTokens", r.Settings.ObserverTokens}, {"reflectorTokens", r.Settings.ReflectorTokens}, {"retainTokens", r.Settings.RetainTokens}} {
			if k.v != nil {
				w.Int(k.name, int64(*k.v))
			}
		}
	}
	if r.Op == opObserve || r.Op == opReflect {
		w.Str("obs", r.Obs)
		if r.HasTask {
			w.Str("task", r.Task)
		}
		if r.HasResponse {
			w.Str("response", r.Response)
		}
		if len(r.Read) > 0 {
			w.Strs("read", r.Read)
		}
		if len(r.Modified) > 0 {
			w.Strs("modified", r.Modified)
		}
	}
	return w.Close()
}

// errNewer is a record of a later format version: kept, reported, skipped.
var errNewer = errors.New("written by a newer version")

// decode reads one record (a custom entry's data or a ledger line). It never
// panics on any input; a record it cannot read is an error that says why.
// Every string of the record is its own: data may be reused once it returns.
//
//	decode([]byte(`{"v":1,"op":"clear","t":1770906600000}`)) => Record{Op: "clear", Time: 1770906600000}, nil
func decode(data []byte) (Record, error) {
	var r Record
	if !utf8.Valid(data) {
		return r, errors.New("not valid UTF-8")
	}
	if !jsonr.ValidBytes(data) {
		return r, errors.New("not valid JSON")
	}
	// A view of data, not a copy (gjson.ParseBytes copies it): under TinyGo
	// a block allocated afresh for each line of megabytes may stay pinned
	// (decision 003), and a record keeps no piece of data (own).
	o := gjson.Parse(unsafe.String(unsafe.SliceData(data), len(data)))
	if !o.IsObject() {
		return r, errors.New("not a JSON object")
	}
	// Every member is found in one pass: looked up one by one, a reflect
	// record's "obs", which holds every observation, was stepped over once
	// for each key after it or missing (issue 19).
	f := jsonr.Fields(o, recordKeys[:]...)
	switch v := f[keyV]; {
	case !v.Exists():
		return r, errors.New(`no "v" key`)
	case v.Type != gjson.Number || v.Num != float64(int64(v.Num)) || v.Num < 1:
		return r, errors.New(`"v" must be a positive whole number` + got(v.Raw))
	case v.Num > ledgerVersion:
		return r, &versionError{strings.Clone(text.Bytes(v.Raw, 20))} // a number: 20 MB of digits is one too
	}
	// Each string a record keeps is its own (own), not a piece of data.
	switch op := f[keyOp].Str; op {
	case opObserve:
		r.Op = opObserve
	case opReflect:
		r.Op = opReflect
	case opClear:
		r.Op = opClear
	case opSet:
		r.Op = opSet
	default:
		return r, errors.New(`"op" must be observe, reflect, clear or set` + got(f[keyOp].Raw))
	}
	var err error
	if r.Time, err = whole(f, keyT, true); err != nil {
		return r, err
	}
	if r.Session, err = str(f, keySession); err != nil {
		return r, err
	}
	switch r.Op {
	case opObserve:
		if r.From, err = str(f, keyFrom); err != nil {
			return r, err
		}
		if r.Through.ID, err = str(f, keyThrough); err != nil {
			return r, err
		}
		if r.Through.ID == "" {
			return r, errors.New(`an observe record needs "through", the last entry it covers`)
		}
		off, err := whole(f, keyOff, false)
		if err != nil {
			return r, err
		}
		r.Through.Off = int(off)
		tokens, err := whole(f, keyTokens, false)
		if err != nil {
			return r, err
		}
		r.Tokens = int(tokens)
	case opReflect:
		r.Aggressive = f[keyAggressive].Type == gjson.True
	case opSet:
		if m := f[keyMode]; m.Exists() {
			if m.Str != modeBuffered && m.Str != modeBlocking {
				return r, errors.New(`"mode" must be "buffered" or "blocking"` + got(m.Raw))
			}
			mode := own(m)
			r.Settings.Mode = &mode
		}
		if a := f[keyAutoCompact]; a.Exists() {
			if a.Type != gjson.True && a.Type != gjson.False {
				return r, errors.New(`"autoCompact" must be true or false` + got(a.Raw))
			}
			on := a.Type == gjson.True
			r.Settings.AutoCompact = &on
		}
		for _, k := range []struct {
			key int
			dst **int
		}{{keyObserverTokens, &r.Settings.ObserverTokens}, {keyReflectorTokens, &r.Settings.ReflectorTokens}, {keyRetainTokens, &r.Settings.RetainTokens}} {
			if !f[k.key].Exists() {
				continue
			}
			n, err := whole(f, k.key, true)
			if err != nil || n > maxTokensLimit {
				return r, errors.New(quote(recordKeys[k.key]) + " must be a whole number of tokens from 0 to " + itoa(maxTokensLimit) + got(f[k.key].Raw))
			}
			v := int(n)
			*k.dst = &v
		}
	}
	if r.Op == opObserve || r.Op == opReflect {
		if r.Obs, err = str(f, keyObs); err != nil {
			return r, err
		}
		if f[keyTask].Exists() {
			if r.Task, err = str(f, keyTask); err != nil {
				return r, err
			}
			r.HasTask = true
		}
		if f[keyResponse].Exists() {
			if r.Response, err = str(f, keyResponse); err != nil {
				return r, err
			}
			r.HasResponse = true
		}
		if r.Read, err = strs(f, keyRead); err != nil {
			return r, err
		}
		if r.Modified, err = strs(f, keyModified); err != nil {
			return r, err
		}
	}
	return r, nil
}

// recordKeys are the members of a record decode reads, each at its key*
// index in what jsonr.Fields returns.
var recordKeys = [...]string{
	keyV: "v", keyOp: "op", keyT: "t", keySession: "session",
	keyFrom: "from", keyThrough: "through", keyOff: "off", keyTokens: "tokens", keyAggressive: "aggressive",
	keyMode: "mode", keyAutoCompact: "autoCompact", keyObserverTokens: "observerTokens", keyReflectorTokens: "reflectorTokens", keyRetainTokens: "retainTokens",
	keyObs: "obs", keyTask: "task", keyResponse: "response", keyRead: "read", keyModified: "modified",
}

const (
	keyV = iota
	keyOp
	keyT
	keySession
	keyFrom
	keyThrough
	keyOff
	keyTokens
	keyAggressive
	keyMode
	keyAutoCompact
	keyObserverTokens
	keyReflectorTokens
	keyRetainTokens
	keyObs
	keyTask
	keyResponse
	keyRead
	keyModified
)

// got says back a value a record holds that is not what it should be: at
// most a line of it, never through a word, redacted (a ledger is outside
// text: a secret or 20 MB in a wrong field must not reach a warning).
//
//	got(`"sk-ant-api03-…"`) => ` (got "[REDACTED:api-key]")`
func got(raw string) string {
	v := text.Whole(raw, 60)
	if len(v) < len(raw) {
		v += "…"
	}
	v, _ = redact.String(v)
	return " (got " + v + ")"
}

type versionError struct{ v string }

func (e *versionError) Error() string {
	return "format version " + e.v + " is newer than this build reads (" + itoa(ledgerVersion) + "); the record is kept and skipped"
}
func (e *versionError) Unwrap() error { return errNewer }

// str is the string of member k of f (decode's), "" when absent.
func str(f []gjson.Result, k int) (string, error) {
	v := f[k]
	if !v.Exists() {
		return "", nil
	}
	if v.Type != gjson.String {
		return "", errors.New(quote(recordKeys[k]) + " must be a string" + got(v.Raw))
	}
	return own(v), nil
}

// own is v's string in memory of its own. gjson gives a string without
// escapes as a piece of the text it parsed, the whole line: a record's string kept by
// the state (the watermark's entry id, an observation cut from the text)
// would keep that line in memory, megabytes for a reflect record or a line
// padded by hand, for each record folded (issue 19).
func own(v gjson.Result) string {
	if strings.IndexByte(v.Raw, '\\') >= 0 {
		return v.Str // unescaped into a string of its own already
	}
	return strings.Clone(v.Str)
}

// whole is the whole number of member k of f (decode's), 0 when absent
// and not required.
func whole(f []gjson.Result, k int, required bool) (int64, error) {
	v, key := f[k], recordKeys[k]
	if !v.Exists() {
		if required {
			return 0, errors.New("no " + quote(key) + " key")
		}
		return 0, nil
	}
	if v.Type != gjson.Number || v.Num < 0 || v.Num > 1e15 || v.Num != float64(int64(v.Num)) {
		return 0, errors.New(quote(key) + " must be a whole number from 0" + got(v.Raw))
	}
	return int64(v.Num), nil
}

// strs is the list of strings of member k of f (decode's), nil when absent.
func strs(f []gjson.Result, k int) ([]string, error) {
	v, key := f[k], recordKeys[k]
	if !v.Exists() {
		return nil, nil
	}
	if !v.IsArray() {
		return nil, errors.New(quote(key) + " must be a list of strings")
	}
	var out []string
	var bad bool
	v.ForEach(func(_, e gjson.Result) bool {
		if e.Type != gjson.String {
			bad = true
			return false
		}
		out = append(out, own(e))
		return true
	})
	if bad {
		return nil, errors.New(quote(key) + " must be a list of strings")
	}
	return out, nil
}

// Problem is a line of the ledger that could not be read (jsonl's, as
// every reader of JSON Lines reports one). It stays in the file; the rest
// still loads.
type Problem = jsonl.Problem

// DecodeLedger reads a resource-scope ledger file: one record per line, as
// jsonl reads lines. A line that is not a record is reported with its
// number, and the lines after it still load; a last line without a newline
// that does not read is reported as torn (a write that was interrupted).
func DecodeLedger(data []byte) ([]Record, []Problem) {
	var recs []Record
	var probs []Problem
	jsonl.Lines(data, func(n int, line []byte, torn bool) bool {
		r, err := decode(line)
		if err != nil {
			msg := err.Error()
			if torn {
				msg = "torn last line (a write was interrupted; the next write starts on a new line): " + msg
			}
			probs = append(probs, Problem{Line: n, Msg: msg})
			return true
		}
		r.Line = n
		recs = append(recs, r)
		return true
	})
	return recs, probs
}

// fold rebuilds the state from records in branch (or file) order: what a
// session start, a resume, a fork and /om rebuild do. session names this
// session in resource scope ("" in thread scope): only its records move the
// watermark, while every session's observations are kept. The failure
// counters start fresh.
//
//	fold([observe "…Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs", clear], "", cfg) => no observations, watermark kept
func fold(recs []Record, session string, cfg omConfig) *state {
	f := newFolder(session, cfg)
	for _, r := range recs {
		f.apply(r)
	}
	return f.done()
}

// Reading a ledger in pieces (issue 19, item 2): a resource ledger grows with
// every session of a project, and a reflect record carries every
// observation, so no size of it may turn the store off. It is read
// ledgerPiece bytes at a time; only a line that does not end in one piece is
// kept whole across pieces, up to maxLedgerLine.
const (
	ledgerPiece   = 1 << 20
	maxLedgerLine = 32 << 20
)

// readLedger is DecodeLedger over a file read through read (ReadAt's shape:
// 0 bytes at its end) in pieces of len(piece) bytes, giving each record to
// each as it is read, with its line (trimmed; valid only during the call):
// the same records and problems, line numbers counted across pieces, except
// that a line over maxLedgerLine bytes is reported ("line N: …; skipped")
// rather than held whole. Nothing it read is kept once each returns, so
// reading a ledger costs the piece, one line and what each keeps: a
// long-lived project's ledger, where every reflect record carries every
// observation, is folded record by record, never held (issue 19). read's
// error ends the reading and is returned.
func readLedger(read func(off int64, dst []byte) (int, error), piece []byte, each func(r Record, line []byte)) ([]Problem, error) {
	var probs []Problem
	err := jsonl.Read(read, piece, maxLedgerLine, func(n int, ln []byte, torn bool) bool {
		r, err := decode(ln)
		if err != nil {
			msg := err.Error()
			if torn {
				msg = "torn last line (a write was interrupted; the next write starts on a new line): " + msg
			}
			probs = append(probs, Problem{Line: n, Msg: msg})
			return true
		}
		r.Line = n
		each(r, ln)
		return true
	}, func(n int) {
		probs = append(probs, Problem{Line: n, Msg: "longer than " + itoa(maxLedgerLine) + " bytes; skipped (the lines after it still load)"})
	})
	if err != nil {
		return nil, err
	}
	return probs, nil
}

// ledgerPrint stands for the records a state was folded from without
// holding them: how many, and a SHA-1 of their lines in order. The driver
// compares the print of what it reads with the print of what its state
// holds, and folds again only when they differ, so the backoff after
// failures survives a read that finds nothing new. The zero value is no
// record.
type ledgerPrint struct {
	n int
	d sha1.Digest
}

// add counts one more record, line its JSON (the encoding the driver wrote,
// or the line as read).
func (p *ledgerPrint) add(line []byte) {
	if p.n == 0 {
		p.d = *sha1.New()
	}
	p.n++
	p.d.Write(line)
	p.d.Write([]byte{'\n'})
}

// same reports whether p and q stand for the same records.
func (p ledgerPrint) same(q ledgerPrint) bool {
	return p.n == q.n && (p.n == 0 || bytes.Equal(p.d.Sum(nil), q.d.Sum(nil)))
}
