package notes

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"path"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	mk "github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// The /memory commands that write: remember, flush, verify, confirm,
// import, gitignore. The rules (what a fact may be, how the file changes,
// what a .gitignore ignores) are this package's pure ones (writeback.go,
// claude.go, gitignore.go); this file reads and writes the files.

// ---- Writeback -----------------------------------------------------------------

func trimNLBytes(b []byte) []byte { return []byte(strings.TrimRight(string(b), "\n")) }

func (n *driver) rules(sc *noteScope) rules {
	return rules{Strict: n.cfg.StrictWriteback, MaxLines: n.cfg.MaxInjectLines, MaxBytes: n.cfg.MaxInjectBytes, File: sc.display}
}

// cmdFlush writes the staged facts. It exits 1 when a fact was refused or
// could not be written, so a script never reads success into a flush that
// wrote nothing.
func (n *driver) cmdFlush(c *store.Cmd) {
	count, problems := n.pending()
	for _, p := range problems {
		c.Out.Notify("warning", "pi-memory: "+p)
	}
	if count == 0 {
		if c.JSON {
			c.Out.Output(`{"written":0,"refused":0,"ops":[],"problems":[]}`)
			return
		}
		c.Out.Output("Nothing to flush: no staged facts are waiting.")
		return
	}
	n.flushSteps(c, &flushReport{staged: map[string]Op{}})
}

// flushStages is how many staged facts one slice of pi's event loop
// flushes: each reads, checks and writes its whole file (2,000 facts held
// pi's thread 5 s as one call, h-v50).
const flushStages = 10

// flushSteps flushes a slice at a time (pimem's commands at once), and
// answers when all is done; stopped, it says what it wrote.
func (n *driver) flushSteps(c *store.Cmd, rep *flushReport) {
	cli := n.s.Mode == "cli"
	limit := flushStages
	if cli {
		limit = 1 << 30
	}
	more, err := n.flushSome(rep, limit)
	if err != nil {
		if len(rep.ops) == 0 {
			c.Out.Fail("Flush failed, nothing was written: " + err.Error())
		} else {
			n.traceFlush(rep)
			c.Out.Fail("Flush failed after " + text.Plural(len(rep.ops), "staged fact", "staged facts") + " (/memory traces shows each): " + err.Error())
		}
		return
	}
	if more {
		c.Out.Again(cli, func(out *store.Out) { c.Out = out; n.flushSteps(c, rep) }, func(out *store.Out) {
			n.traceFlush(rep)
			out.Fail("Flush stopped after " + text.Plural(len(rep.ops), "staged fact", "staged facts") + " (/memory traces shows each); /memory flush writes the rest.")
		})
		return
	}
	n.traceFlush(rep)
	var lines []string
	written, refused := 0, 0
	wroteLocal := false
	for _, o := range rep.ops {
		st := rep.staged[o.ID]
		switch o.Op {
		case "commit":
			written++
			line := "  written  " + o.ID + " → " + n.displayOf(o.File) + ":" + numstr.Itoa(o.Line) + "  " + text.OneLine(st.Text)
			if o.Detail != "" {
				line += " (" + o.Detail + ")"
			}
			lines = append(lines, line)
			if st.Scope == scopeLocal {
				wroteLocal = true
			}
		default:
			refused++
			lines = append(lines, "  refused  "+o.ID+" ("+o.Reason+"): "+o.Detail+"  "+text.OneLine(st.Text))
		}
	}
	// What this flush read and could not write; what another process
	// flushed meanwhile is no concern of its answer.
	left := len(rep.staged) - written - refused
	if c.JSON {
		w := jsonw.Open(nil)
		w.Int("written", int64(written))
		w.Int("refused", int64(refused))
		w.Int("pending", int64(left))
		w.Raw("ops", jsonw.Array(nil, len(rep.ops), func(b []byte, i int) []byte { return append(b, trimNLBytes(rep.ops[i].encode())...) }))
		w.Strs("problems", append(append([]string(nil), rep.warnings...), rep.problems...))
		c.Out.Output(string(w.Close()))
	} else {
		head := "Flushed " + text.Plural(written+refused, "staged fact", "staged facts") + ": " + numstr.Itoa(written) + " written, " + numstr.Itoa(refused) + " refused."
		if written+refused+left == 0 {
			head = "Nothing left to flush: another process flushed the staged facts meanwhile."
		}
		if left > 0 {
			head += " " + text.Plural(left, "fact stays staged: it", "facts stay staged: they") + " could not be written (see the warnings)."
		}
		c.Out.Output(strings.TrimRight(head+"\n"+strings.Join(lines, "\n"), "\n"))
		for _, w := range rep.warnings {
			c.Out.Notify("warning", "pi-memory: "+w)
		}
		for _, p := range rep.problems {
			c.Out.Notify("warning", "pi-memory: "+p)
		}
	}
	if refused > 0 || left > 0 {
		c.Out.SetExit(1)
	}
	if wroteLocal && !c.JSON {
		n.offerGitignore(c)
	}
}

// displayOf names a memory file as prompts do.
func (n *driver) displayOf(file string) string {
	for _, sc := range n.scopes {
		if sc.file == file {
			return sc.display
		}
	}
	return file
}

// cmdVerify rebuilds the page tables from the markdown and checks the files
// the way a person would want before committing them: every file readable,
// every index within its injection caps. It exits 1 when it finds a problem,
// so a CI job or a git hook can run it.
func (n *driver) cmdVerify(c *store.Cmd) {
	n.loadAll()
	type rebuilt struct {
		sc    *noteScope
		pages int
	}
	var done []rebuilt
	var problems []string
	for _, sc := range n.scopes {
		if sc.readErr != nil {
			problems = append(problems, "could not read "+sc.file+": "+sc.readErr.Error())
		}
		if !sc.exists {
			continue
		}
		if err := n.rebuildTable(sc, nil); err != nil {
			problems = append(problems, "could not rebuild "+sc.table+": "+err.Error())
			continue
		}
		done = append(done, rebuilt{sc, len(sc.pages)})
		if over := overCaps(lineCount(sc.data), len(sc.data), n.cfg.MaxInjectLines, n.cfg.MaxInjectBytes); over != "" {
			problems = append(problems, sc.display+" is "+over+": only part of it is injected; move detail to topic files or archive/")
		}
	}
	problems = append(problems, n.secretLines()...)
	if len(problems) > 0 {
		c.Out.SetExit(1)
	}
	if c.JSON {
		w := jsonw.Open(nil)
		w.Bool("clean", len(problems) == 0)
		w.Raw("scopes", jsonw.Array(nil, len(done), func(b []byte, i int) []byte {
			o := jsonw.Open(b)
			o.Str("scope", done[i].sc.name)
			o.Str("file", done[i].sc.file)
			o.Int("pages", int64(done[i].pages))
			o.Str("pageTable", done[i].sc.table)
			return o.Close()
		}))
		w.Strs("problems", problems)
		c.Out.Output(string(w.Close()))
		return
	}
	if len(done) == 0 && len(problems) == 0 {
		c.Out.Output("No memory file to index: " + n.whereToStart())
		return
	}
	var b text.Builder
	if len(done) > 0 {
		b.WriteString("Rebuilt the page tables from the markdown (it stays the source of truth):")
		for _, r := range done {
			b.WriteString("\n  " + r.sc.name + "  " + r.sc.display + ": " + text.Plural(r.pages, "page", "pages") + " → " + r.sc.table)
		}
	}
	if len(problems) == 0 {
		b.WriteString("\nNo problems found.")
	}
	for _, p := range problems {
		b.WriteString("\nproblem: " + p)
	}
	c.Out.Output(strings.TrimLeft(b.String(), "\n"))
}

// maxSecretLines is how many lines secretLines names one by one.
const maxSecretLines = 200

// secretLines names each line of a memory file (an index, or a topic file
// beside it) that holds what looks like a secret, and the first marker of
// our blocks a file holds (marker.Check, which reads across lines). The file stays as the
// person wrote it; every exit redacts it; this says where to remove it.
func (n *driver) secretLines() []string {
	var out []string
	check := func(display string, data []byte) {
		s := viewString(data) // verify reads the whole index: no copy of it
		at, line, last, more := 0, 1, 0, 0
		for _, f := range redact.Find(s) {
			if f.Start < at {
				at, line = 0, 1 // not in order: count again
			}
			line += strings.Count(s[at:f.Start], "\n") // each byte counted once: a file of secrets took minutes
			at = f.Start
			if line == last {
				continue // one report a line
			}
			if last = line; len(out) >= maxSecretLines {
				more++
				continue
			}
			out = append(out, display+":"+numstr.Itoa(line)+" holds what looks like a secret ("+f.Kind+"); it is never injected or shown, but it is in the file: remove it by hand, and rotate the secret")
		}
		if more > 0 {
			out = append(out, display+" holds what looks like a secret on "+numstr.Itoa(more)+" more lines")
		}
		if why := mk.Check(lf(data)); why != "" {
			out = append(out, display+" holds "+why+"; every exit shows it defused, but it is in the file: remove it by hand")
		}
	}
	for _, sc := range n.scopes {
		if sc.exists {
			check(sc.display, sc.data)
		}
		topics, _, _ := n.topics(sc)
		for _, e := range topics {
			if data, err := readNote(n.h, path.Join(sc.dir, e), nil); err == nil {
				check(path.Join(path.Dir(sc.display), e), data)
			}
		}
	}
	return out
}

func (n *driver) whereToStart() string {
	var where []string
	for _, sc := range n.scopes {
		if sc.name != scopeLocal {
			where = append(where, sc.file)
		}
	}
	return "write " + strings.Join(where, " or ") + ", or use /memory remember."
}

// findPage finds a page by id in the scopes' index files. It returns a copy:
// a scope's pages are parsed again into the same array when its file changes.
func (n *driver) findPage(id string) (*noteScope, *page) {
	n.loadAll()
	for _, sc := range n.scopes {
		for i := range sc.pages {
			if strings.EqualFold(sc.pages[i].ID, id) {
				p := sc.pages[i]
				return sc, &p
			}
		}
	}
	return nil, nil
}

func (n *driver) cmdConfirm(c *store.Cmd) {
	sc, p := n.findPage(c.Args.Words[0])
	if p == nil {
		c.Out.Fail("No page " + strconv.Quote(c.Args.Words[0]) + " in this session's memory files; /memory pages lists them.")
		return
	}
	if err := n.rebuildTable(sc, []string{p.Hash}); err != nil {
		c.Out.Fail("Could not record the confirmation in " + sc.table + ": " + err.Error())
		return
	}
	if c.JSON {
		w := jsonw.Open(nil)
		w.Str("confirmed", p.ID)
		w.Str("file", sc.file)
		w.Int("line", int64(p.Line))
		c.Out.Output(string(w.Close()))
		return
	}
	c.Out.Output("Confirmed " + p.ID + " (" + sc.display + ":" + numstr.Itoa(p.Line) + "): " + trimNL(p.form(formSummary, sc.display)))
}

func trimNL(s string) string { return strings.TrimRight(s, "\n") }

// ---- Claude Code import --------------------------------------------------------

func (n *driver) cmdImport(c *store.Cmd) {
	if strings.ToLower(c.Args.Words[0]) != "claude" {
		c.Out.Usage("/memory import takes one source: /memory import claude [--dry-run]")
		return
	}
	sc, err := n.scopeFor(scopeProject)
	if err != nil {
		c.Out.Fail("Nothing imported: " + err.Error())
		return
	}
	if n.s.Home == "" {
		c.Out.Fail("Nothing imported: the host did not say where the home folder is, so Claude Code's memory cannot be found.")
		return
	}
	dirs := claudeProjectDirs(n.s.Home, n.s.ProjectRoot)
	dir := ""
	for _, d := range dirs {
		if st, err := n.h.Stat(d); err == nil && st.Dir {
			dir = d
			break
		}
	}
	if dir == "" {
		c.Out.Fail("No Claude Code memory for this project: looked in " + strings.Join(dirs, " and ") + ".")
		return
	}
	entries, err := n.h.List(dir)
	if err != nil {
		c.Out.Fail("Could not list " + dir + ": " + err.Error())
		return
	}
	var docs []doc
	for _, f := range claudeFiles(entries) {
		data, err := readNote(n.h, path.Join(dir, f), nil)
		if hostio.IsNotFound(err) {
			continue
		}
		if err != nil {
			c.Out.Fail("Could not read " + path.Join(dir, f) + ": " + err.Error() + "; nothing imported.")
			return
		}
		docs = append(docs, doc{Scope: "claude", File: f, Pages: parse("claude", data)})
	}
	// Against what memory holds and what is already staged.
	n.load(sc)
	var pending []Op
	if j, err := n.readJournal(sc.journal); err == nil {
		pending = j.Pending
	}
	r := &importReport{dry: c.Args.Has("dry-run"), source: dir, file: sc.file, display: sc.display}
	n.importSteps(c, newImportPlan(docs, sc.pages, pending), r)
}

// The work of one slice of pi's event loop in an import (decision 018):
// about importWork comparisons of two facts, or importStages facts staged.
const (
	importWork   = 4000
	importStages = 20
)

// importSteps plans the import, then stages what it plans, a slice at a
// time (pimem's commands at once), and answers when all is done; stopped
// (Escape in pi), it says what it staged.
func (n *driver) importSteps(c *store.Cmd, ip *importPlan, r *importReport) {
	cli := n.s.Mode == "cli"
	work, stages := importWork, importStages
	if cli {
		work, stages = 1<<30, 1<<30
	}
	planned := ip.step(work)
	for ; planned && stages > 0 && len(r.staged)+len(r.skipped) < len(ip.items); stages-- {
		it := ip.items[len(r.staged)+len(r.skipped)]
		if it.why == "" {
			// A dry run checks each fact as staging would, and says what
			// staging would change or why it would refuse it.
			var op Op
			var note string
			var err error
			if r.dry {
				_, op, note, err = n.checkStage(scopeProject, it.section, it.text, "import:claude")
			} else {
				op, note, err = n.stage(scopeProject, it.section, it.text, "import:claude")
			}
			if err != nil {
				it.why = err.Error()
			} else {
				it.id, it.text, it.note = op.ID, op.Text, note
			}
		}
		if it.why != "" {
			r.skipped = append(r.skipped, it)
		} else {
			r.staged = append(r.staged, it)
		}
	}
	if !planned || len(r.staged)+len(r.skipped) < len(ip.items) {
		c.Out.Again(cli, func(out *store.Out) { c.Out = out; n.importSteps(c, ip, r) }, func(out *store.Out) {
			if r.dry || len(r.staged) == 0 {
				out.Fail("Import stopped: nothing staged.")
			} else {
				out.Fail("Import stopped after staging " + text.Plural(len(r.staged), "fact", "facts") + ": /memory flush writes them; /memory import claude again stages the rest.")
			}
		})
		return
	}
	if c.JSON {
		c.Out.Output(importJSON(r))
		return
	}
	c.Out.Output(importText(r))
}

// ---- .gitignore for personal notes ---------------------------------------------

// localIgnored reports whether the project's .gitignore ignores the
// personal notes file, with the pattern that does (ignoresLocal).
func (n *driver) localIgnored() (bool, string) {
	data, err := files.Read(n.h, path.Join(n.s.ProjectRoot, ".gitignore"), files.MaxConfig)
	if err != nil {
		return false, ""
	}
	return ignoresLocal(string(data))
}

// offerGitignore asks, when there is a UI, whether to keep the personal
// notes out of git; without one it says how. It never edits .gitignore on
// its own: a person's .gitignore is theirs.
func (n *driver) offerGitignore(c *store.Cmd) {
	if ok, _ := n.localIgnored(); ok {
		return
	}
	rel := path.Join(notesProjectDir, notesLocal)
	if !c.HasUI {
		c.Out.Notify("info", "pi-memory: "+rel+" holds personal notes but is not in .gitignore; /memory gitignore adds it.")
		return
	}
	c.Out.Confirm("Keep personal notes out of git?", "Add "+rel+" to "+path.Join(n.s.ProjectRoot, ".gitignore")+"?", func(out *store.Out, v gjson.Result) {
		if !v.Bool() {
			out.Output("Left .gitignore as it is; /memory gitignore adds it later.")
			return
		}
		if file, err := n.addGitignore(); err != nil {
			out.Fail(err.Error())
		} else {
			out.Output("Added /" + rel + " to " + file + ".")
		}
	})
}

func (n *driver) cmdGitignore(c *store.Cmd) {
	if n.scope(scopeLocal) == nil {
		_, err := n.scopeFor(scopeLocal)
		c.Out.Fail("Not written: " + err.Error())
		return
	}
	if ok, pat := n.localIgnored(); ok {
		if c.JSON {
			c.Out.Output(`{"changed":false,"pattern":` + string(jsonw.String(nil, pat)) + `}`)
			return
		}
		c.Out.Output(path.Join(notesProjectDir, notesLocal) + " is already ignored by the pattern " + strconv.Quote(pat) + " in .gitignore; nothing changed.")
		return
	}
	file, err := n.addGitignore()
	switch {
	case err != nil:
		c.Out.Fail(err.Error())
	case c.JSON:
		c.Out.Output(`{"changed":true,"file":` + string(jsonw.String(nil, file)) + `}`)
	default:
		c.Out.Output("Added /" + path.Join(notesProjectDir, notesLocal) + " to " + file + ".")
	}
}

// addGitignore appends the personal notes file to the project's .gitignore.
func (n *driver) addGitignore() (string, error) {
	file := path.Join(n.s.ProjectRoot, ".gitignore")
	data, err := files.Read(n.h, file, files.MaxConfig)
	if err != nil && !hostio.IsNotFound(err) {
		return file, errors.New("Could not read " + file + ": " + err.Error())
	}
	if err := n.h.Append(file, []byte(gitignoreLine(string(data)))); err != nil {
		return file, errors.New("Could not write " + file + ": " + err.Error())
	}
	return file, nil
}
