// Package trust decides whether a session may read and write its project's
// memory: the rule pi applies to a project's own files (its settings,
// extensions, skills, …), applied to the folder whose memory pi-memory reads
// (the project root), as if our files were on pi's list of files that need
// trust (docs/decisions/016-project-trust.md).
//
// pi's own answer, ctx.isProjectTrusted(), is not enough: pi judges only the
// folder it started in, and a folder holding none of its own resources is
// trusted whatever defaultProjectTrust says, so a cloned repository holding
// only .pi/memory/ and the decision log would be read under "never". pi's
// adapter forwards what pi decides by (Facts); Decide applies the rule. This
// package reads no file: the caller says what the root holds (Files).
package trust

import (
	"path"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/tidwall/gjson"
)

// Facts are what pi decides trust by, as pi's adapter forwards them at
// session_start under "trust" (decision 001):
//
//	{"approve": true|false|null, "judged": bool, "store": "<trust.json's text>"|null,
//	 "storeError": "…", "default": "always"|"never"|"ask"|…}
type Facts struct {
	// Approve is pi's --approve (1) or --no-approve (-1), as pi parsed its
	// command line; 0 without either.
	Approve int
	// Judged says pi found a resource of its own list where it started and
	// decided; PiTrusted is then its decision (ctx.isProjectTrusted()).
	Judged, PiTrusted bool
	// Store is the text of pi's trust store (<agent dir>/trust.json), ""
	// when there is none; StoreError why it could not be read.
	Store, StoreError string
	// Default is defaultProjectTrust as pi's settings say it: "always",
	// "never", else "ask" (pi reads any other value as "ask").
	Default string
}

// Read takes the facts from session_start's "trust" object; ok is false
// when the host sent none (pimem, which trusts the folder it is run in, as
// pi --approve would: the host's "trusted" is then the answer).
func Read(v gjson.Result) (f Facts, ok bool) {
	if !v.IsObject() {
		return Facts{}, false
	}
	switch jsonr.Get(v, "approve").Type {
	case gjson.True:
		f.Approve = 1
	case gjson.False:
		f.Approve = -1
	}
	f.Judged = jsonr.Get(v, "judged").Bool()
	f.Store = jsonr.Get(v, "store").Str
	f.StoreError = jsonr.Get(v, "storeError").Str
	f.Default = jsonr.Get(v, "default").Str
	return f, true
}

// Verdict is what Decide found: trusted or not, or ask the person; Why
// says it in words, for /memory status.
type Verdict struct {
	Trusted bool
	// Ask: pi would ask (defaultProjectTrust "ask", no answer stored) and
	// there is a person to ask. The answer holds for this session only:
	// pi-memory keeps no trust of its own on disk.
	Ask bool
	Why string
}

// Files are the entries of <root>/.pi that need trust: pi's own list
// (settings.json … APPEND_SYSTEM.md, as pi 1.6 checks them) and ours (the
// markdown memory folder, the decision log's folder, our config files). A
// root holding one is a folder pi would judge.
var Files = []string{
	"settings.json", "mcp.json", "extensions", "skills", "prompts", "themes", "SYSTEM.md", "APPEND_SYSTEM.md",
	"memory", "decision-memory", "decision-memory.config.json", "om-config.json", "hindsight.json",
}

// Decide applies pi's rule to root, the folder whose memory is read, pi
// having started in cwd (root or a folder below it). In order:
//
//  1. --approve or --no-approve: that, for this run.
//
//  2. pi judged a resource of its own: where it started is root, its
//     answer (it asked extensions, its store, its default, the person); in a
//     folder below the root, a "no" there is a no (the root is judged on).
//
//  3. pi's trust store: the entry for root or the nearest folder above it.
//
//  4. defaultProjectTrust: "always" trusts and "never" does not; "ask" asks
//     the person when there is one (hasUI) and the root holds files that
//     need trust (files), trusts a root holding none (pi asks nothing for
//     such a folder, and the next session asks once files exist), and
//     without a person to ask does not trust.
//
//     Decide(Facts{Default: "never"}, "/src/app", "/src/app", true, true) => {Trusted: false, Why: "…defaultProjectTrust is \"never\"…"}
func Decide(f Facts, cwd, root string, files, hasUI bool) Verdict {
	switch {
	case f.Approve > 0:
		return Verdict{Trusted: true, Why: "pi was started with --approve"}
	case f.Approve < 0:
		return Verdict{Why: "pi was started with --no-approve"}
	case f.Judged && cwd == root:
		if f.PiTrusted {
			return Verdict{Trusted: true, Why: "pi trusts " + root}
		}
		return Verdict{Why: "pi does not trust " + root}
	case f.Judged && !f.PiTrusted:
		return Verdict{Why: "pi does not trust " + cwd + ", where it started"}
	}
	if f.StoreError != "" {
		return Verdict{Why: "pi's trust store could not be read (" + f.StoreError + ")"}
	}
	at, trusted, err := Entry(f.Store, root, cwd)
	switch {
	case err != "":
		return Verdict{Why: err}
	case at != "" && trusted:
		return Verdict{Trusted: true, Why: "pi's trust store trusts " + at}
	case at != "":
		return Verdict{Why: "pi's trust store does not trust " + at}
	}
	none := " and pi's trust store has no entry for " + root
	switch f.Default {
	case "always":
		return Verdict{Trusted: true, Why: "pi's defaultProjectTrust is \"always\""}
	case "never":
		return Verdict{Why: "pi's defaultProjectTrust is \"never\"" + none}
	}
	switch {
	case !hasUI:
		return Verdict{Why: "pi's defaultProjectTrust is \"ask\"" + none + ", and there is no one to ask (no UI)"}
	case !files:
		return Verdict{Trusted: true, Why: root + " holds no pi files yet, so there is nothing to ask about"}
	}
	return Verdict{Ask: true, Why: "pi's defaultProjectTrust is \"ask\"" + none}
}

// Entry finds the entry of pi's trust store (its text, a JSON object of
// folder: true, false or null) for dir or the nearest folder above it, as
// pi looks one up: at is the folder of the entry ("" when none), trusted its
// value. A store pi could not read either is an error (pi stops there too).
// A key that is no absolute path is read as pi reads it, from the folder
// it started in (cwd): "" and "." are cwd, ".." the folder above it, "~"
// and "src" folders in it.
//
//	Entry(`{"/src": true, "/src/app": null}`, "/src/app", "/src/app") => "/src", true, ""
func Entry(store, dir, cwd string) (at string, trusted bool, err string) {
	store = strings.TrimPrefix(strings.TrimSpace(store), "\uFEFF")
	if store == "" {
		return "", false, ""
	}
	if !jsonr.Valid(store) || !gjson.Parse(store).IsObject() {
		return "", false, "pi's trust store is not a JSON object"
	}
	// pi reads the store with JSON.parse: a key written twice has its last
	// value, in its first place; of the keys naming one folder ("/R/" and
	// "/R"), the first that holds true or false is taken.
	var keys []string
	values := map[string]gjson.Result{}
	gjson.Parse(store).ForEach(func(k, val gjson.Result) bool {
		if _, seen := values[k.String()]; !seen {
			keys = append(keys, k.String())
		}
		values[k.String()] = val
		return true
	})
	entries := map[string]bool{}
	for _, key := range keys {
		v := values[key].Type
		if v != gjson.True && v != gjson.False && v != gjson.Null {
			return "", false, "pi's trust store holds " + values[key].Raw + " for " + key + ", where pi takes only true, false or null"
		}
		if !path.IsAbs(key) && path.IsAbs(cwd) {
			key = path.Join(cwd, key)
		}
		if _, seen := entries[path.Clean(key)]; v != gjson.Null && path.IsAbs(key) && !seen {
			entries[path.Clean(key)] = v == gjson.True
		}
	}
	for d := path.Clean(dir); ; d = path.Dir(d) {
		if t, ok := entries[d]; ok {
			return d, t, ""
		}
		if d == path.Dir(d) || d == "." {
			return "", false, ""
		}
	}
}
