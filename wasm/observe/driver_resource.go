package observe

import (
	"errors"
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
// mtime) since it was last read, and folds it for this session. A state
// that holds the same records is kept, so the backoff after failures
// survives.
func (o *driver) refreshLedger() {
	sc := &o.scope
	if !sc.resource {
		return
	}
	stamp := files.Stamp(o.h, sc.file)
	if stamp == sc.stamp && sc.stamp != "" {
		return
	}
	first := sc.stamp == ""
	sc.stamp = stamp
	// Read in pieces, whatever its size (decodeLedgerFrom): a ledger that
	// grew past a whole-file limit was never read again while appends to it
	// went on (issue 19, item 2).
	if sc.piece == nil {
		sc.piece = make([]byte, ledgerPiece)
	}
	recs, problems, err := decodeLedgerFrom(func(off int64, dst []byte) (int, error) { return o.h.ReadAt(sc.file, off, dst) }, sc.piece)
	if err != nil && !hostio.IsNotFound(err) {
		problems = []Problem{{Msg: err.Error()}}
	}
	canon := make([]string, len(recs))
	for i := range recs {
		canon[i] = string(encode(recs[i]))
	}
	o.recs = recs
	// The first read always folds: the state must know its session even
	// when the file does not exist yet, so the records it makes carry it.
	if first || !slices.Equal(canon, o.applied) {
		o.st = fold(recs, o.sessionID, o.cfg)
		o.applied = canon
	}
	if !slices.Equal(problems, sc.problems) {
		sc.problems, o.problems, o.warnedAt = problems, problems, 0
	}
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
