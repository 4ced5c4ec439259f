package decision

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// The /decision commands that only look: list, search, show, status, doctor.
// How a decision is rendered is the pure rules' (render.go); this file picks
// what to show and says it.

func (d *driver) cmdList(c *store.Cmd) {
	list, title, ok := d.listing(c.Args.Has("all"), c.Args.Value("status"))
	if !ok {
		c.Out.Usage("/decision list: --status must be active, draft, rejected or superseded")
		return
	}
	d.printList(c, list, title)
}

// listing is what /decision list and decision_list show: every decision
// (all), those of a status (its name in any case), else the active ones;
// ok is false for a word that names no status.
func (d *driver) listing(all bool, status string) (list hits, title string, ok bool) {
	switch {
	case all:
		return d.st.All(), "decisions", true
	case status == "":
		return d.st.WithStatus(Active), "active decisions", true
	}
	st := ParseStatus(strings.ToLower(status))
	if st == statusNone {
		return hits{}, "", false
	}
	return d.st.WithStatus(st), st.String() + " decisions", true
}

func (d *driver) cmdSearch(c *store.Cmd) {
	q, err := parseQuery(c.Args.Words, d.h.Now())
	if err != nil {
		c.Out.Usage("/decision search: " + err.Error())
		return
	}
	if len(q.BadTerms) > 0 {
		// Said back as written: Usage redacts every notice (store.Out.Notify).
		c.Out.Usage("/decision search: unknown status in " + strings.Join(q.BadTerms, ", ") + " (use active, draft, rejected or superseded)")
		return
	}
	d.printList(c, d.st.search(&d.idx, d.SearchSources(), q), "matching decisions")
}

// printList shows a list newest first, cut at --limit (listing.go).
func (d *driver) printList(c *store.Cmd, list hits, title string) {
	limit, err := parseLimit(c.Args.Value("limit"), c.JSON)
	if err != nil {
		c.Out.Usage(err.Error())
		return
	}
	if c.JSON {
		c.Out.Output(string(listJSON(list, limit)))
		return
	}
	c.Out.Output(listText(list, title, limit))
}

func (d *driver) cmdShow(c *store.Cmd) {
	x := d.need(c.Out, c.Args.Words[0])
	if x == nil {
		return
	}
	if c.JSON {
		c.Out.Output(string(appendJSON(nil, x)))
		return
	}
	c.Out.Output(showText(x))
}

// need returns the live decision ref names (an id, or the end of one), or
// says why there is none.
func (d *driver) need(out *store.Out, ref string) *decision {
	id, err := d.st.find(ref, false)
	if err != nil {
		out.Fail(err.Error())
		return nil
	}
	if x := d.st.Get(id); x != nil {
		return x
	}
	if d.st.WasRemoved(id) {
		out.Fail(id + " was removed; /decision list shows the live decisions.")
	} else {
		out.Fail("No decision " + id + " in " + d.log + "; /decision search finds one by its words.")
	}
	return nil
}

func (d *driver) cmdStatus(c *store.Cmd) {
	why := d.env.May(d, store.Read)
	if why == "" {
		if err := d.refreshLog(); err != nil {
			c.Out.Fail("Could not read " + d.log + ": " + err.Error())
			return
		}
	}
	p := d.statusPage(why, d.env.May(d, store.Inject))
	if c.JSON {
		c.Out.Output(string(p.appendJSON(nil)))
		return
	}
	c.Out.Output(p.text())
}

// statusPage describes the store for /decision status (status.go renders
// it). off and inject are the gate's answers for a read and an injection;
// the state is read only when off is "".
func (d *driver) statusPage(off, inject string) statusPage {
	p := statusPage{off: off, inject: inject, projectRoot: d.s.ProjectRoot, projectID: d.s.ProjectHash,
		log: d.log, globalCfg: d.globalCfg, projectCfg: d.projCfg, cfg: d.cfg}
	if off != "" {
		return p
	}
	p.lines, p.bytes = d.st.Lines, d.cur.Offset
	for st := Active; st < numStatus; st++ {
		p.counts[st] = d.st.Count(st)
	}
	// The section may replay the whole log (a snapshot page damaged since),
	// which says so in the snapshot's note: it is read after.
	p.injected = len([]rune(d.section()))
	p.problems = d.lineFindings()
	p.snapshot, p.snapNote = d.snap, d.snapNote
	return p
}

// cmdDoctor checks the log and exits 1 when it finds a problem, so a CI job
// or a git hook can run it. --fix repairs what a union merge did
// (driver_fix.go).
func (d *driver) cmdDoctor(c *store.Cmd) {
	if c.Args.Has("yes") && !c.Args.Has("fix") {
		c.Out.Usage("/decision doctor: --yes goes with --fix (doctor alone never writes).")
		return
	}
	rep, fix := d.diagnose()
	if c.Args.Has("fix") {
		d.fix(c, rep, fix)
		return
	}
	d.report(c.Out, c.JSON, rep, "")
}

// diagnose is doctor's report on the log as it is. When replay met a second
// add of a live id, the log is read whole to tell repeated lines from
// decisions that share an id; fix is then the repair, else nil.
func (d *driver) diagnose() (report, *repair) {
	found, _ := secretLines(d.readAt, d.cur.Offset)
	if line, text := d.tornTail(); text != "" {
		found = append(found, tornFinding(line, text))
	}
	rep := d.st.Diagnose(found...)
	dup := false
	for _, p := range d.st.Problems {
		dup = dup || p.Kind == duplicateAdd
	}
	if !dup {
		return rep, nil
	}
	data, err := files.Read(d.h, d.log, maxLogRewrite)
	if err != nil {
		return rep, nil // doctor still reports the duplicate adds as replay found them
	}
	fix := planRepair(data)
	rep.MarkCollisions(&fix)
	return rep, &fix
}

// report prints doctor's report, after text when there is some, and exits 1
// when the log has a problem.
func (d *driver) report(out *store.Out, asJSON bool, rep report, before string) {
	if asJSON {
		out.Output(string(rep.AppendJSON(nil, d.log)))
	} else {
		out.Output(before + "Doctor: " + d.log + " — " + rep.Text())
	}
	if !rep.Clean() {
		out.SetExit(1)
	}
}

// tornTail returns the unterminated bytes at the end of the log that replay
// left alone (a crash mid-write), with their line number; "" when none.
func (d *driver) tornTail() (int, string) {
	info, err := d.h.Stat(d.log)
	if err != nil || info.Size <= d.cur.Offset {
		return 0, ""
	}
	line, text, err := readTornTail(d.readAt, d.cur, info.Size)
	if err != nil || strings.TrimSpace(text) == "" {
		return 0, ""
	}
	return line, text
}

// lineFindings counts what doctor lists line by line: replay problems and a
// torn tail.
func (d *driver) lineFindings() int {
	n := len(d.st.Problems)
	if _, text := d.tornTail(); text != "" {
		n++
	}
	return n
}
