package observe

import (
	"path"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/store"
)

// Where the observations live: in the session (thread scope, the default),
// or, with PI_OM_SCOPE=resource, in a JSON Lines ledger per project under
// the agent folder, shared by the project's sessions (driver_resource.go
// reads and appends it). SQLite is not used (decision 010): the variables
// that would select it are reported as selecting nothing.

// omResourceDir is the resource ledgers' folder, in the agent folder.
const omResourceDir = "pi-memory/observations"

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
	piece    []byte // the buffer the file is read through, kept: TinyGo may pin a large block allocated afresh (decision 003)
}

// scopeVars are the scope variables as the host passed them in
// session_start's env ("" for one unset or not a string).
type scopeVars struct {
	scope, sqlite, sqlitePath string // PI_OM_SCOPE, PI_OM_SQLITE, PI_OM_SQLITE_PATH
}

// scopeOf is the scope the variables choose for session s. Resource scope
// needs a trusted project and an agent folder: the file is the project's
// memory, which an untrusted project never reads or writes (invariant 2).
// Any other value keeps thread scope, and why says so.
//
//	scopeOf(scopeVars{scope: "resource"}, &store.Session{AgentDir: "/a", ProjectRoot: "/p", ProjectHash: "h", Trusted: true})
//	  => resource, file "/a/pi-memory/observations/h.jsonl"
//	scopeOf(scopeVars{scope: "Resource"}, s) => thread, why "PI_OM_SCOPE=Resource is not thread or resource; …"
func scopeOf(v scopeVars, s *store.Session) omScope {
	var sc omScope
	for _, k := range [...]struct{ name, val string }{{"PI_OM_SQLITE", v.sqlite}, {"PI_OM_SQLITE_PATH", v.sqlitePath}} {
		if k.val != "" {
			if sc.sqlite != "" {
				sc.sqlite += " and "
			}
			sc.sqlite += k.name
		}
	}
	switch v.scope {
	case "", "thread":
	case "resource":
		switch {
		case s.AgentDir == "":
			sc.why = "PI_OM_SCOPE=resource needs the agent folder, which the host did not give; thread scope is used."
		case s.ProjectRoot == "":
			sc.why = "PI_OM_SCOPE=resource keeps a project's observations under the agent folder, and this session has no project folder; thread scope is used (the session's own entries)."
		case !s.Trusted:
			sc.why = "PI_OM_SCOPE=resource keeps the project's observations under the agent folder, and this project is not trusted; thread scope is used (the session's own entries)."
		default:
			sc.resource = true
			sc.dir = path.Join(s.AgentDir, omResourceDir)
			sc.file = path.Join(sc.dir, s.ProjectHash+".jsonl")
			sc.lock = sc.file + ".lock"
		}
	default:
		sc.why = "PI_OM_SCOPE=" + v.scope + " is not thread or resource; thread scope is used. Set PI_OM_SCOPE=thread or PI_OM_SCOPE=resource."
	}
	return sc
}

// sqliteLine is the one line /om status and the session's warning say when
// PI_OM_SQLITE or PI_OM_SQLITE_PATH is set, else "".
func (sc *omScope) sqliteLine() string {
	if sc.sqlite == "" {
		return ""
	}
	where := "the session's own entries (thread scope)"
	if sc.resource {
		where = sc.file
	}
	verb := " selects"
	if strings.Contains(sc.sqlite, " and ") {
		verb = " select"
	}
	return sc.sqlite + verb + " nothing: pi-memory keeps observations as a JSON Lines ledger a person can read (decision 010), here " + where + "; unset the variable to silence this."
}

// name is the scope in force: "thread" or "resource".
func (sc *omScope) name() string {
	if sc.resource {
		return "resource"
	}
	return "thread"
}

// keptIn says where a command's record applies: this session, or (resource
// scope) every session of the project, since all of them fold the file.
func (sc *omScope) keptIn() string {
	if sc.resource {
		return "for every session of this project"
	}
	return "in this session"
}
