package observe

import (
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// Observational memory's resource scope (PI_OM_SCOPE=resource): the ledger
// records as JSON Lines under the agent folder, one file per project, shared
// by the project's sessions. Every session's observations are injected; only
// this session's records move its watermark (Fold with a session).
// Each append takes the file's lock, as the decision log's does, so two pi
// processes lose nothing; a torn last line is reported and the next append
// starts on a new line. SQLite is not used (decision 010): the variables that
// would select it are reported as selecting nothing.

const (
	omResourceDir = "pi-memory/observations" // in the agent folder
	maxOmLedger   = 64 << 20                 // a ledger larger than this is reported, not read
)

// omScope is what PI_OM_SCOPE and its neighbours set for one session.
type omScope struct {
	resource bool   // the file below serves instead of the session's entries
	why      string // why resource scope was asked for and is not in force, else ""
	dir      string // <agentDir>/pi-memory/observations
	file     string // dir/<project id>.jsonl
	lock     string
	stamp    string // size@mtime of file when last read ("" before)
	sqlite   string // the PI_OM_SQLITE* variables set, "" when none
	problems []Problem
}

// readScope reads the scope variables the host passed in session_start
// (env: {PI_OM_SCOPE, PI_OM_SQLITE, PI_OM_SQLITE_PATH}). Resource scope
// needs a trusted project and an agent folder: the file is the project's
// memory, which an untrusted project never reads or writes (invariant 2).
func (o *driver) readScope(in gjson.Result) {
	env := jsonr.Get(in, "env")
	var sc omScope
	for _, k := range []string{"PI_OM_SQLITE", "PI_OM_SQLITE_PATH"} {
		if jsonr.Get(env, k).Str != "" {
			if sc.sqlite != "" {
				sc.sqlite += " and "
			}
			sc.sqlite += k
		}
	}
	switch v := jsonr.Get(env, "PI_OM_SCOPE").Str; v {
	case "", "thread":
	case "resource":
		switch {
		case o.s.AgentDir == "":
			sc.why = "PI_OM_SCOPE=resource needs the agent folder, which the host did not give; thread scope is used."
		case o.s.ProjectRoot == "" || !o.s.Trusted:
			sc.why = "PI_OM_SCOPE=resource keeps the project's observations under the agent folder, and this project is not trusted; thread scope is used (the session's own entries)."
		default:
			sc.resource = true
			sc.dir = path.Join(o.s.AgentDir, omResourceDir)
			sc.file = path.Join(sc.dir, o.s.ProjectHash+".jsonl")
			sc.lock = sc.file + ".lock"
		}
	default:
		sc.why = "PI_OM_SCOPE=" + v + " is not thread or resource; thread scope is used. Set PI_OM_SCOPE=thread or PI_OM_SCOPE=resource."
	}
	o.scope = sc
}

// sqliteLine is the one line /om status and the session's warning say when
// PI_OM_SQLITE or PI_OM_SQLITE_PATH is set.
func (o *driver) sqliteLine() string {
	if o.scope.sqlite == "" {
		return ""
	}
	where := "the session's own entries (thread scope)"
	if o.scope.resource {
		where = o.scope.file
	}
	verb := " selects"
	if strings.Contains(o.scope.sqlite, " and ") {
		verb = " select"
	}
	return o.scope.sqlite + verb + " nothing: pi-memory keeps observations as a JSON Lines ledger a person can read (decision 010), here " + where + "; unset the variable to silence this."
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
	var recs []Record
	var problems []Problem
	data, err := files.Read(o.h, sc.file, maxOmLedger)
	switch {
	case err == nil:
		recs, problems = DecodeLedger(data)
	case !hostio.IsNotFound(err):
		problems = []Problem{{Msg: err.Error()}}
	}
	canon := make([]string, len(recs))
	for i := range recs {
		canon[i] = string(Encode(recs[i]))
	}
	o.recs = recs
	// The first read always folds: the state must know its session even
	// when the file does not exist yet, so the records it makes carry it.
	if first || !slices.Equal(canon, o.applied) {
		o.st = Fold(recs, o.sessionID, o.cfg)
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
	if err := o.h.Mkdir(sc.dir); err != nil {
		return err
	}
	if err := files.Lock(o.h, sc.lock); err != nil {
		return err
	}
	defer o.h.Unlock(sc.lock)
	before := files.Stamp(o.h, sc.file)
	buf := files.Sealed(o.h, sc.file, append(data[:len(data):len(data)], '\n')) // a copy: data stays the caller's
	if err := o.h.Append(sc.file, buf); err != nil {
		return err
	}
	if before == sc.stamp && len(buf) == len(data)+1 {
		sc.stamp = files.Stamp(o.h, sc.file)
	}
	return nil
}

// scopeName is the scope in force: "thread" or "resource".
func (o *driver) scopeName() string {
	if o.scope.resource {
		return "resource"
	}
	return "thread"
}

// keptIn says where a command's record applies: this session, or (resource
// scope) every session of the project, since all of them fold the file.
func (o *driver) keptIn() string {
	if o.scope.resource {
		return "for every session of this project"
	}
	return "in this session"
}
