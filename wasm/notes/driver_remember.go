package notes

import (
	"errors"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"

	"github.com/pi-memory/pi-memory/wasm/internal/errs"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	markers "github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// Remembering in one step: /memory remember and the memory_remember tool
// write the fact at once, under the scope's lock, after the checks a flush
// makes (writeback.go). What they say is remember.go's.

// toolRemember is the model's tool; registry/tools_notes.go declares it.
const toolRemember = "memory_remember"

// ActiveTools offers memory_remember while the store may write: not while
// memory is off (--no-memory, /memory off) or the store is disabled. An
// untrusted project takes away only its own scopes: global memory stays,
// and the tool writes there by default.
func (n *driver) ActiveTools() []string {
	if n.env.May(n, store.Write) != "" {
		return nil
	}
	return []string{toolRemember}
}

// Tool runs memory_remember: written, or refused with the reason, before it
// returns. It never opens a dialog: a near-duplicate is refused, naming the
// entry it repeats.
func (n *driver) Tool(out *store.Out, name string, params gjson.Result) {
	if name != toolRemember {
		out.ToolResult("pi-memory's notes have no tool "+name+".", true, nil)
		return
	}
	scope := jsonr.Get(params, "scope").String()
	if scope != "" && !isScopeWord(scope) {
		out.ToolResult("Not remembered: scope must be global, project or local.", true, nil)
		return
	}
	r, err := n.remember(scope, jsonr.Get(params, "section").String(), jsonr.Get(params, "text").String(), "tool")
	if err != nil {
		out.ToolResult("Not remembered: "+sentence(err.Error()), true, nil)
		return
	}
	out.ToolResult(r.say(), !r.Written && r.Reason != "duplicate", nil)
}

func (n *driver) cmdRemember(c *store.Cmd) {
	scope, fact, usage := rememberWords(c.Args.Words, c.Args.Value("scope"))
	if usage != "" {
		c.Out.Usage(usage)
		return
	}
	r, err := n.remember(scope, c.Args.Value("section"), fact, "remember")
	if err != nil {
		c.Out.Fail("Not remembered: " + sentence(err.Error()))
		return
	}
	if c.JSON {
		w := jsonw.Open(nil)
		w.Bool("written", r.Written)
		w.Str("scope", r.Scope)
		w.Str("file", r.File)
		if r.Line > 0 {
			w.Int("line", int64(r.Line))
		}
		if r.Written {
			w.Str("section", r.Section)
			w.Str("text", r.Text)
			if r.Repair != "" {
				w.Str("repaired", r.Repair)
			}
			if r.Warning != "" {
				w.Str("warning", r.Warning)
			}
		} else {
			w.Str("reason", r.Reason)
			w.Str("detail", r.Detail)
		}
		c.Out.Output(string(w.Close()))
	} else if r.Written || r.Reason == "duplicate" {
		c.Out.Output(r.say())
	} else {
		c.Out.Fail(r.say())
	}
	if !r.Written && r.Reason != "duplicate" {
		c.Out.SetExit(1)
	}
	if r.Written && r.Scope == scopeLocal && !c.JSON {
		n.offerGitignore(c)
	}
}

// remember writes one fact into scope ("" for the default: the project when
// trusted, else global) under section ("" for Notes), at once. A refusal
// for what the fact is or how it fits the file is a remembered with Reason;
// err is a scope that cannot be written, memory switched off, or a file
// that could not be read or written (nothing was written).
//
// It takes the scope's lock, the one a flush and a staged append take, and
// reads the file again under it: two processes remembering at once each
// write over what the other wrote, never over an older copy. Both the
// attempt and its outcome go to the journal (a stage and its commit or
// reject, never pending), so /memory faults and traces show it.
func (n *driver) remember(scope, section, fact, source string) (remembered, error) {
	if why := n.env.May(n, store.Write); why != "" {
		return remembered{}, errors.New(why)
	}
	if scope == "" {
		scope = defaultScope(n.scope(scopeProject) != nil)
	}
	sc, err := n.scopeFor(scope)
	if err != nil {
		return remembered{}, err
	}
	r := remembered{Scope: scope, File: sc.file, Display: sc.display}
	// Recalled or injected memory is never written back as a new fact: a
	// strict check refuses a fact that holds a marker, naming it (a block
	// cut away would leave a fact that is not what was asked, and an opening
	// tag alone would take the rest of the fact with it); the rules that
	// repair cut the blocks away.
	if !n.cfg.StrictWriteback {
		fact = markers.Strip(fact)
	}
	f := checkFact(fact, section, n.cfg.StrictWriteback)
	if f.Reason != "" {
		// Refused for what it is: nothing is written, not even the journal
		// (a secret never reaches the disk).
		r.Reason, r.Detail = f.Reason, f.Detail
		return r, nil
	}
	// A memory file that is a link is refused before anything is made, the
	// lock's folder included.
	n.load(sc)
	if np, ok := errs.As[*files.NotPlain](sc.readErr); ok {
		return remembered{}, np
	}
	if err := files.LockMaking(n.h, sc.lock); err != nil {
		return remembered{}, err
	}
	defer n.h.Unlock(sc.lock)
	sc.stamped = false // read again under the lock: another process may have written
	n.load(sc)
	if sc.readErr != nil {
		if np, ok := errs.As[*files.NotPlain](sc.readErr); ok {
			return remembered{}, np
		}
		return remembered{}, errors.New("could not read " + sc.file + ": " + sc.readErr.Error())
	}
	o := check(fact, section, sc.data, sc.pages, n.rules(sc))
	now := n.h.Now()
	stage := Op{Op: "stage", ID: n.newID("W-", scope+"\x00"+f.Text), T: now, Scope: scope, Section: f.Section, Text: f.Text, Source: source}
	var outcome Op
	var confirm []string
	if !o.Commit {
		r.Reason, r.Detail = o.Reason, o.Detail
		outcome = Op{Op: "reject", ID: stage.ID, T: now, Reason: o.Reason, Detail: o.Detail}
		if o.Duplicate >= 0 {
			p := &sc.pages[o.Duplicate]
			r.Line, r.Same = p.Line, p.Text
			outcome.Page = p.ID
			// A fact said again is still true: the entry is confirmed, as a
			// flush confirms it.
			confirm = []string{p.Hash}
		}
	} else {
		if err := n.h.Mkdir(sc.dir); err != nil {
			return remembered{}, errors.New("could not create " + sc.dir + ": " + err.Error() + "; nothing was written")
		}
		if err := n.h.WriteAtomicOver(sc.file, o.Out, sc.data); err != nil {
			return remembered{}, errors.New("could not write " + sc.file + ": " + err.Error() + "; nothing was written")
		}
		sc.stamped = false
		n.load(sc)
		r.Written, r.Line, r.Section, r.Text, r.Repair, r.Warning = true, o.Line, o.Section, o.Text, o.Detail, o.Warning
		outcome = Op{Op: "commit", ID: stage.ID, T: now, File: sc.file, Line: o.Line, Detail: o.Detail}
		for i := range sc.pages {
			if sc.pages[i].Line == o.Line {
				outcome.Page = sc.pages[i].ID
			}
		}
	}
	lines := append(stage.encode(), outcome.encode()...)
	var problems []string
	if err := n.h.Append(sc.journal, files.Sealed(n.h, sc.journal, lines)); err != nil {
		problems = append(problems, "could not write "+sc.journal+": "+err.Error())
	}
	if r.Written || len(confirm) > 0 {
		if err := n.rebuildTable(sc, confirm); err != nil {
			problems = append(problems, "could not rebuild "+sc.table+": "+err.Error())
		}
	}
	if n.cfg.TraceEnabled && n.traces != "" {
		t := Trace{ID: n.newID("T-", "remember"), T: now, Kind: "flush", Ops: []Op{outcome}}
		if err := n.appendTrace(&t); err != nil {
			problems = append(problems, "could not write the trace: "+err.Error())
		}
	}
	// The fact is written (or refused) whatever the sidecars say; a sidecar
	// that could not be written is said in the log, not as a failure.
	for _, p := range problems {
		n.h.Log(hostio.Warn, p)
	}
	return r, nil
}

// sentence ends s with a full stop when it has none.
func sentence(s string) string {
	if strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}
