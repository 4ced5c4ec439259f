package lifecycle

import (
	"path"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/cmdline"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/notes"
	"github.com/tidwall/gjson"
)

const memoryHelp = `Usage: /memory [<command>] (pimem memory <command> outside pi)
  status [--json]             both scopes: files, sizes, what is injected, page tables, trust (the default)
  pages [global|project|local] [--json]   the typed pages of each MEMORY.md and the page-table status
  verify                      rebuild the page tables from the MEMORY.md files
  remember global|project|local <text> [--section S]   stage a fact; a flush writes it
  flush                       validate and write the staged facts (also done when the session ends)
  recall <words> ["a phrase"] [scope:global|project|local] [--limit N] [--json]
  stale [--days N] [--json]   entries not confirmed for staleDays (suggestions; nothing is deleted)
  confirm <page-id>           mark an entry as still true
  faults [--json]             pages that could not stay in the prompt, and refused writebacks
  traces [--limit N] [--json] injection and flush decisions, newest first
  trace <id> [--json]         one decision in full: every page and the form it got
  last [--json]               exactly what the previous turn injected, per store (the receipt)
  import claude [--dry-run]   stage the facts of Claude Code's memory for this project
  gitignore                   add .pi/memory/MEMORY.local.md to the project's .gitignore
  off | on                    stop or resume all memory injection for this session (nothing is written)
  help`

type memoryCmd struct {
	spec   cmdline.Spec
	writes bool // refused when the store is disabled
	run    func(n *notesStore, c *cmdCtx)
}

var memoryCmds map[string]memoryCmd

func init() {
	jsonOnly := cmdline.Spec{Switches: []string{"json"}}
	memoryCmds = map[string]memoryCmd{
		"help":      {run: func(n *notesStore, c *cmdCtx) { c.out.Output(memoryHelp) }},
		"status":    {spec: jsonOnly, run: (*notesStore).cmdStatus},
		"pages":     {spec: jsonOnly, run: (*notesStore).cmdPages},
		"verify":    {writes: true, run: (*notesStore).cmdVerify},
		"remember":  {writes: true, spec: cmdline.Spec{Values: []string{"section"}}, run: (*notesStore).cmdRemember},
		"flush":     {writes: true, run: (*notesStore).cmdFlush},
		"recall":    {spec: cmdline.Spec{Values: []string{"limit"}, Switches: []string{"json"}}, run: (*notesStore).cmdRecall},
		"stale":     {spec: cmdline.Spec{Values: []string{"days"}, Switches: []string{"json"}}, run: (*notesStore).cmdStale},
		"confirm":   {writes: true, run: (*notesStore).cmdConfirm},
		"faults":    {spec: jsonOnly, run: (*notesStore).cmdFaults},
		"traces":    {spec: cmdline.Spec{Values: []string{"limit"}, Switches: []string{"json"}}, run: (*notesStore).cmdTraces},
		"trace":     {spec: jsonOnly, run: (*notesStore).cmdTrace},
		"last":      {spec: jsonOnly, run: (*notesStore).cmdLast},
		"import":    {writes: true, spec: cmdline.Spec{Switches: []string{"dry-run"}}, run: (*notesStore).cmdImport},
		"gitignore": {writes: true, run: (*notesStore).cmdGitignore},
		"off":       {run: func(n *notesStore, c *cmdCtx) { n.cmdSwitch(c, false) }},
		"on":        {run: func(n *notesStore, c *cmdCtx) { n.cmdSwitch(c, true) }},
	}
}

func (n *notesStore) command(out *Out, words []string, hasUI bool) {
	if len(words) == 0 {
		words = []string{"status"}
	}
	sub := strings.ToLower(words[0])
	cmd, ok := memoryCmds[sub]
	if !ok {
		out.Usage("Unknown /memory command " + strconv.Quote(words[0]) + ".\n" + memoryHelp)
		return
	}
	args, err := cmdline.Parse(words[1:], cmd.spec)
	if err != nil {
		out.Usage("/memory " + sub + ": " + err.Error())
		return
	}
	for _, w := range n.refreshConfig() {
		out.Notify("warning", "pi-memory: "+w)
	}
	if cmd.writes {
		if why := n.inertNotes(); why != "" {
			out.Fail("Not written: " + why)
			return
		}
	}
	cmd.run(n, &cmdCtx{out: out, args: args, hasUI: hasUI, json: args.Has("json")})
}

// ---- Session switch ------------------------------------------------------------

func (n *notesStore) cmdSwitch(c *cmdCtx, on bool) {
	if len(c.args.Words) > 0 {
		c.out.Usage("/memory on and /memory off take no arguments")
		return
	}
	n.s.NoMemory = !on
	if on {
		c.out.Output("Memory injection is on for this session: notes and decisions are injected from the next prompt. Nothing was written.")
		return
	}
	c.out.Output("Memory injection is off for this session: nothing from notes or decisions is injected until /memory on. Nothing was written.")
}

// ---- Writeback -----------------------------------------------------------------

func (n *notesStore) cmdRemember(c *cmdCtx) {
	if len(c.args.Words) < 2 {
		c.out.Usage("/memory remember needs a scope and a fact: /memory remember global|project|local <text> [--section S]")
		return
	}
	scope := strings.ToLower(c.args.Words[0])
	text := c.args.Text(1)
	sc, err := n.scopeFor(scope)
	if err != nil {
		c.out.Fail("Not staged: " + err.Error())
		return
	}
	section := c.args.Value("section")
	op, note, err := n.stage(scope, section, text, "remember")
	if err != nil {
		c.out.Fail("Not staged: " + err.Error() + ".")
		return
	}
	if section == "" {
		section = notes.DefaultSection
	}
	text = op.Text
	msg := "Staged " + op.ID + " for " + scopeNoun(scope) + " (" + sc.display + ", section " + section + "). /memory flush writes it; so does the end of the session."
	if note != "" {
		msg += " (" + note + ")"
	}
	// Say now what the flush would say, so nobody waits for a session end
	// to learn a fact will be refused.
	n.load(sc)
	if o := notes.Check(text, section, sc.data, sc.pages, n.rules(sc)); !o.Commit {
		msg += "\nAs the file stands, the flush would refuse it (" + o.Reason + "): " + o.Detail + "."
	}
	c.out.Output(msg)
}

// scopeNoun names a scope in sentences.
func scopeNoun(scope string) string {
	if scope == scopeLocal {
		return "your personal project notes"
	}
	return scope + " memory"
}

func (n *notesStore) rules(sc *noteScope) notes.Rules {
	return notes.Rules{Strict: n.cfg.StrictWriteback, MaxLines: n.cfg.MaxInjectLines, MaxBytes: n.cfg.MaxInjectBytes, File: sc.display}
}

func (n *notesStore) cmdFlush(c *cmdCtx) {
	if len(c.args.Words) > 0 {
		c.out.Usage("/memory flush takes no arguments")
		return
	}
	count, problems := n.pending()
	for _, p := range problems {
		c.out.Notify("warning", "pi-memory: "+p)
	}
	if count == 0 {
		c.out.Output("Nothing to flush: no staged facts are waiting.")
		return
	}
	rep, err := n.flush()
	if err != nil {
		c.out.Fail("Flush failed: " + err.Error())
		return
	}
	var lines []string
	written, refused := 0, 0
	wroteLocal := false
	for _, o := range rep.ops {
		st := rep.staged[o.ID]
		switch o.Op {
		case "commit":
			written++
			line := "  written  " + o.ID + " → " + n.displayOf(o.File) + ":" + strconv.Itoa(o.Line) + "  " + oneLine(st.Text)
			if o.Detail != "" {
				line += " (" + o.Detail + ")"
			}
			lines = append(lines, line)
			if st.Scope == scopeLocal {
				wroteLocal = true
			}
		default:
			refused++
			lines = append(lines, "  refused  "+o.ID+" ("+o.Reason+"): "+o.Detail+"  "+oneLine(st.Text))
		}
	}
	head := "Flushed " + plural(written+refused, "staged fact", "staged facts") + ": " + strconv.Itoa(written) + " written, " + strconv.Itoa(refused) + " refused."
	c.out.Output(head + "\n" + strings.Join(lines, "\n"))
	for _, w := range rep.warnings {
		c.out.Notify("warning", "pi-memory: "+w)
	}
	for _, p := range rep.problems {
		c.out.Notify("warning", "pi-memory: "+p)
	}
	if refused > 0 {
		c.out.exit = 1
	}
	if wroteLocal {
		n.offerGitignore(c)
	}
}

// displayOf names a memory file as prompts do.
func (n *notesStore) displayOf(file string) string {
	for _, sc := range n.scopes {
		if sc.file == file {
			return sc.display
		}
	}
	return file
}

func (n *notesStore) cmdVerify(c *cmdCtx) {
	n.loadAll()
	var lines []string
	for _, sc := range n.scopes {
		if !sc.exists {
			continue
		}
		if err := n.rebuildTable(sc, nil); err != nil {
			c.out.Fail("Could not rebuild " + sc.table + ": " + err.Error())
			return
		}
		lines = append(lines, "  "+sc.name+"  "+sc.display+": "+plural(len(sc.pages), "page", "pages")+" → "+sc.table)
	}
	if len(lines) == 0 {
		c.out.Output("No memory file to index: " + n.whereToStart())
		return
	}
	c.out.Output("Rebuilt the page tables from the markdown (it stays the source of truth):\n" + strings.Join(lines, "\n"))
}

func (n *notesStore) whereToStart() string {
	var where []string
	for _, sc := range n.scopes {
		if sc.name != scopeLocal {
			where = append(where, sc.file)
		}
	}
	return "write " + strings.Join(where, " or ") + ", or use /memory remember."
}

// findPage finds a page by id in the scopes' index files.
func (n *notesStore) findPage(id string) (*noteScope, *notes.Page) {
	n.loadAll()
	for _, sc := range n.scopes {
		for i := range sc.pages {
			if strings.EqualFold(sc.pages[i].ID, id) {
				return sc, &sc.pages[i]
			}
		}
	}
	return nil, nil
}

func (n *notesStore) cmdConfirm(c *cmdCtx) {
	if len(c.args.Words) != 1 {
		c.out.Usage("/memory confirm takes one page id (P-…); /memory pages lists them")
		return
	}
	sc, p := n.findPage(c.args.Words[0])
	if p == nil {
		c.out.Fail("No page " + strconv.Quote(c.args.Words[0]) + " in this session's memory files; /memory pages lists them.")
		return
	}
	if err := n.rebuildTable(sc, []string{p.Hash}); err != nil {
		c.out.Fail("Could not record the confirmation in " + sc.table + ": " + err.Error())
		return
	}
	c.out.Output("Confirmed " + p.ID + " (" + sc.display + ":" + strconv.Itoa(p.Line) + "): " + trimNL(p.Form(notes.Summary, sc.display)))
}

func trimNL(s string) string { return strings.TrimRight(s, "\n") }

// ---- Claude Code import --------------------------------------------------------

func (n *notesStore) cmdImport(c *cmdCtx) {
	if len(c.args.Words) != 1 || strings.ToLower(c.args.Words[0]) != "claude" {
		c.out.Usage("/memory import takes one source: /memory import claude [--dry-run]")
		return
	}
	sc, err := n.scopeFor(scopeProject)
	if err != nil {
		c.out.Fail("Nothing imported: " + err.Error())
		return
	}
	if n.s.Home == "" {
		c.out.Fail("Nothing imported: the host did not say where the home folder is, so Claude Code's memory cannot be found.")
		return
	}
	dirs := notes.ClaudeProjectDirs(n.s.Home, n.s.ProjectRoot)
	dir := ""
	for _, d := range dirs {
		if st, err := n.h.Stat(d); err == nil && st.Dir {
			dir = d
			break
		}
	}
	if dir == "" {
		c.out.Fail("No Claude Code memory for this project: looked in " + strings.Join(dirs, " and ") + ".")
		return
	}
	entries, err := n.h.List(dir)
	if err != nil {
		c.out.Fail("Could not list " + dir + ": " + err.Error())
		return
	}
	var files []string
	for _, e := range entries {
		if !strings.HasSuffix(e, "/") && strings.HasSuffix(strings.ToLower(e), ".md") && e != notesIndex {
			files = append(files, e)
		}
	}
	sortStrings(files)
	files = append([]string{notesIndex}, files...)
	var docs []notes.Doc
	for _, f := range files {
		data, err := readFile(n.h, path.Join(dir, f), maxNoteFile)
		if hostio.IsNotFound(err) {
			continue
		}
		if err != nil {
			c.out.Fail("Could not read " + path.Join(dir, f) + ": " + err.Error() + "; nothing imported.")
			return
		}
		docs = append(docs, notes.Doc{Scope: "claude", File: f, Pages: notes.Parse("claude", data)})
	}
	cands := notes.ClaudeFacts(docs)
	// Against what memory holds and what is already staged.
	n.load(sc)
	known := append([]notes.Page(nil), sc.pages...)
	if j, err := n.readJournal(sc.journal); err == nil {
		for _, op := range j.Pending {
			known = append(known, notes.Page{Kind: notes.Fact, Text: op.Text})
		}
	}
	var staged, skipped []string
	for _, cand := range cands {
		where := cand.File + ":" + strconv.Itoa(cand.Line)
		if i := notes.Duplicate(cand.Text, known); i >= 0 {
			skipped = append(skipped, "  skipped  "+where+"  "+cand.Text+" (already in memory)")
			continue
		}
		if c.args.Has("dry-run") {
			staged = append(staged, "  would stage  "+where+"  ["+cand.Section+"] "+cand.Text)
		} else {
			op, note, err := n.stage(scopeProject, cand.Section, cand.Text, "import:claude")
			if err != nil {
				skipped = append(skipped, "  skipped  "+where+"  ("+err.Error()+")")
				continue
			}
			if note != "" {
				note = " (" + note + ")"
			}
			staged = append(staged, "  staged  "+op.ID+"  "+where+"  ["+cand.Section+"] "+op.Text+note)
		}
		known = append(known, notes.Page{Kind: notes.Fact, Text: cand.Text})
	}
	var b strings.Builder
	verb := "Staged"
	if c.args.Has("dry-run") {
		verb = "Would stage (dry run, nothing written)"
	}
	b.WriteString(verb + " " + plural(len(staged), "fact", "facts") + " from " + dir + " (read only) for " + sc.display + "; " + strconv.Itoa(len(skipped)) + " already known.")
	for _, l := range staged {
		b.WriteString("\n" + l)
	}
	for _, l := range skipped {
		b.WriteString("\n" + l)
	}
	if len(staged) > 0 && !c.args.Has("dry-run") {
		b.WriteString("\n/memory flush writes them (each is checked again then).")
	}
	c.out.Output(b.String())
}

// ---- .gitignore for personal notes ---------------------------------------------

// localIgnored reports whether the project's .gitignore covers the personal
// notes file, with the pattern that does. It understands the usual forms of
// a pattern (a path, a folder, a "*" glob, a leading "/"), not negations.
func (n *notesStore) localIgnored() (bool, string) {
	data, err := readFile(n.h, path.Join(n.s.ProjectRoot, ".gitignore"), maxConfig)
	if err != nil {
		return false, ""
	}
	rel := path.Join(notesProjectDir, notesLocal)
	for _, raw := range strings.Split(string(data), "\n") {
		p := strings.TrimSpace(raw)
		if p == "" || p[0] == '#' || p[0] == '!' {
			continue
		}
		pat := strings.TrimPrefix(strings.TrimSuffix(p, "/"), "/")
		if pat == "" {
			continue
		}
		if !strings.Contains(pat, "/") {
			// A name pattern matches at any depth: the file or a folder on its way.
			for _, part := range strings.Split(rel, "/") {
				if ok, _ := path.Match(pat, part); ok {
					return true, p
				}
			}
			continue
		}
		for at := rel; at != "." && at != ""; at = path.Dir(at) {
			if ok, _ := path.Match(pat, at); ok {
				return true, p
			}
		}
	}
	return false, ""
}

// offerGitignore asks, when there is a UI, whether to keep the personal
// notes out of git; without one it says how. It never edits .gitignore on
// its own (seed 001 roadmap 4).
func (n *notesStore) offerGitignore(c *cmdCtx) {
	if ok, _ := n.localIgnored(); ok {
		return
	}
	rel := path.Join(notesProjectDir, notesLocal)
	if !c.hasUI {
		c.out.Notify("info", "pi-memory: "+rel+" holds personal notes but is not in .gitignore; /memory gitignore adds it.")
		return
	}
	n.e.Confirm(c.out, "Keep personal notes out of git?", "Add "+rel+" to "+path.Join(n.s.ProjectRoot, ".gitignore")+"?", func(out *Out, v gjson.Result) {
		if !v.Bool() {
			out.Output("Left .gitignore as it is; /memory gitignore adds it later.")
			return
		}
		n.addGitignore(out)
	})
}

func (n *notesStore) cmdGitignore(c *cmdCtx) {
	if len(c.args.Words) > 0 {
		c.out.Usage("/memory gitignore takes no arguments")
		return
	}
	if n.scope(scopeLocal) == nil {
		_, err := n.scopeFor(scopeLocal)
		c.out.Fail("Not written: " + err.Error())
		return
	}
	if ok, pat := n.localIgnored(); ok {
		c.out.Output(path.Join(notesProjectDir, notesLocal) + " is already ignored by the pattern " + strconv.Quote(pat) + " in .gitignore; nothing changed.")
		return
	}
	n.addGitignore(c.out)
}

func (n *notesStore) addGitignore(out *Out) {
	file := path.Join(n.s.ProjectRoot, ".gitignore")
	line := "/" + path.Join(notesProjectDir, notesLocal) + "\n"
	if data, err := readFile(n.h, file, maxConfig); err == nil && len(data) > 0 && data[len(data)-1] != '\n' {
		line = "\n" + line
	} else if err != nil && !hostio.IsNotFound(err) {
		out.Fail("Could not read " + file + ": " + err.Error())
		return
	}
	if err := n.h.Append(file, []byte(line)); err != nil {
		out.Fail("Could not write " + file + ": " + err.Error())
		return
	}
	out.Output("Added " + strings.TrimSpace(line) + " to " + file + ".")
}

// sortStrings sorts a short list in place. (sort.Strings would pull the
// generic slices package into the TinyGo build: tens of KB for a few names.)
func sortStrings(a []string) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
