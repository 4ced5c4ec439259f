package observe

import (
	"errors"
	"runtime"
	"slices"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// Observational memory's resource scope (PI_OM_SCOPE=resource; scope.go
// chooses it): the ledger records as JSON Lines under the agent folder, one
// file per project, shared by the project's sessions. Every session's
// observations are injected; only this session's records move its
// watermark (fold with a session). Each append takes the file's lock, as
// the decision log's does, so two pi processes lose nothing; a torn last
// line is reported and the next append starts on a new line.

// readScope reads the scope variables the host passed in session_start
// (env: {PI_OM_SCOPE, PI_OM_SQLITE, PI_OM_SQLITE_PATH}); scopeOf chooses.
func (o *driver) readScope(in gjson.Result) {
	env := jsonr.Get(in, "env")
	o.scope = scopeOf(scopeVars{
		scope:      jsonr.Get(env, "PI_OM_SCOPE").Str,
		sqlite:     jsonr.Get(env, "PI_OM_SQLITE").Str,
		sqlitePath: jsonr.Get(env, "PI_OM_SQLITE_PATH").Str,
	}, o.s)
}

// refreshLedger reads the resource ledger again when it changed (size or
// mtime) since it was last read, or when force says so (/om rebuild), and
// folds it for this session. A state that holds the same records is kept,
// so the backoff after failures survives.
//
// The records are folded as they are read and none is kept (readLedger):
// a long-lived project's ledger is tens of megabytes, each reflect record
// carrying every observation, and holding every decoded record (and its
// encoding, to compare) grew TinyGo's linear memory to half a gigabyte for
// a 66 MiB ledger (issue 19). /om dump reads the file again.
func (o *driver) refreshLedger(force bool) {
	sc := &o.scope
	if !sc.resource {
		return
	}
	stamp := files.Stamp(o.h, sc.file)
	if stamp == sc.stamp && sc.stamp != "" && !force {
		return
	}
	first := sc.stamp == ""
	sc.stamp = stamp
	f := newFolder(o.sessionID, o.cfg)
	var print ledgerPrint
	problems, err := o.eachLedgerRecord(func(r Record, line []byte) {
		f.apply(r)
		print.add(line)
	})
	st := f.done()
	if err != nil {
		// Nothing read is folded: a ledger not there is empty, and one that
		// cannot be read is reported.
		st, print = fold(nil, o.sessionID, o.cfg), ledgerPrint{}
		if !hostio.IsNotFound(err) {
			problems = []Problem{{Msg: err.Error()}}
		}
	}
	// The first read always folds: the state must know its session even
	// when the file does not exist yet, so the records it makes carry it.
	if first || force || !print.same(o.applied) {
		o.st, o.applied = st, print
	}
	if !slices.Equal(problems, sc.problems) {
		sc.problems, o.problems, o.warnedAt = problems, problems, 0
	}
}

// eachLedgerRecord reads the resource ledger in pieces, whatever its size
// (readLedger): a ledger that grew past a whole-file limit was never read
// again while appends to it went on (issue 19, item 2).
//
// After each record it gives way (runtime.Gosched): the standard Go build's
// collector marks in background goroutines that run only then (see
// wasm/yield_go.go), and folding a long-lived ledger is one export call
// that makes many times its size in garbage: without it that build's linear
// memory reached 2.8 GiB on the 66 MiB ledger of
// host/observe_ledger_test.go's benchmark, 23 MiB with it. Under TinyGo (no
// scheduler) it does nothing.
func (o *driver) eachLedgerRecord(each func(r Record, line []byte)) ([]Problem, error) {
	sc := &o.scope
	if sc.piece == nil {
		sc.piece = make([]byte, ledgerPiece)
	}
	read := func(off int64, dst []byte) (int, error) { return o.h.ReadAt(sc.file, off, dst) }
	return readLedger(read, sc.piece, func(r Record, line []byte) {
		each(r, line)
		runtime.Gosched()
	})
}

// appendLedger appends one record's line to the resource ledger under its
// lock, the folder made on this first write. A last line without its
// newline (a write that was interrupted) is sealed first, so the record is
// a line of its own and the torn one stays reported. When nobody else wrote
// since the last read, the state (which holds the record already) is the
// fold of the file, and the file need not be read again.
func (o *driver) appendLedger(data []byte) error {
	sc := &o.scope
	if why := o.env.May(o, store.Write); why != "" {
		return errors.New(why)
	}
	return files.AppendLocked(o.h, sc.file, sc.lock, func(add func([]byte) (bool, error)) error {
		before := files.Stamp(o.h, sc.file)
		sealed, err := add(append(data[:len(data):len(data)], '\n')) // a copy: data stays the caller's
		if err != nil {
			return err
		}
		if before == sc.stamp && !sealed {
			sc.stamp = files.Stamp(o.h, sc.file)
		}
		return nil
	})
}
