package notes

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"path"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/errs"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// ---- /memory status ------------------------------------------------------------

// report gathers what /memory status says (status.go renders it): the
// block as the next turn would inject it, each scope's file, page table,
// topic files and archive, and what is waiting.
func (n *driver) report() statusReport {
	n.section() // the block as the next turn would inject it
	injected := map[string]int{}
	for _, r := range n.receipts {
		injected[r.Scope] = r.Bytes
	}
	r := statusReport{cfg: n.cfg, globalConfig: n.globalCfg, projectConfig: n.projCfg, project: n.s.ProjectRoot, trusted: n.s.Trusted, trustWhy: n.s.TrustWhy, module: n.s.Module}
	for _, sc := range n.scopes {
		s := scopeStatus{name: sc.name, file: sc.file, display: sc.display, table: sc.table, exists: sc.exists, bytes: len(sc.data), injected: injected[sc.name]}
		if sc.exists {
			s.lines = lineCount(sc.data)
			s.pageTable = n.tableState(sc)
		}
		if sc.readErr != nil {
			s.readErr = sc.readErr.Error()
		}
		if sc.name != scopeLocal {
			if entries, err := n.h.List(sc.dir); err == nil {
				for _, e := range entries {
					switch {
					case e == "archive/":
						if a, err := n.h.List(path.Join(sc.dir, "archive")); err == nil {
							s.archived = len(a)
						}
					case strings.HasSuffix(e, ".md") && e != notesIndex && e != notesLocal:
						t := topicFile{name: e, size: -1}
						st, err := n.h.Stat(path.Join(sc.dir, e))
						if err == nil {
							t.size = st.Size
						} else if _, ok := errs.As[*files.NotPlain](err); ok {
							t.unread = err.Error()
						}
						s.topics = append(s.topics, t)
					}
				}
			}
		}
		if sc.name == scopeLocal && sc.exists {
			ignored, _ := n.localIgnored()
			s.unignored = !ignored
		}
		if !n.cfg.Enabled {
			// Off means not read: status only says whether the file is there.
			_, err := n.h.Stat(sc.file)
			s.present = err == nil
		}
		r.scopes = append(r.scopes, s)
	}
	r.block, r.faults = n.block, len(n.residency.Faults)+n.residency.MoreFaults
	r.pending, _ = n.pending()
	for _, t := range n.turn {
		if t.Store == "notes" {
			r.lastBytes = t.Bytes
		}
	}
	r.turned = n.turn != nil
	r.inject = n.env.May(n, store.Inject)
	return r
}

func (n *driver) cmdStatus(c *store.Cmd) {
	r := n.report()
	if c.JSON {
		c.Out.Output(statusJSON(&r))
		return
	}
	c.Out.Output(statusText(&r))
}

// ---- /memory pages -------------------------------------------------------------

func (n *driver) cmdPages(c *store.Cmd) {
	if len(c.Args.Words) > 1 {
		c.Out.Usage("/memory pages takes at most one scope: global, project or local")
		return
	}
	want := ""
	if len(c.Args.Words) == 1 {
		want = strings.ToLower(c.Args.Words[0])
		if _, err := n.scopeFor(want); err != nil {
			c.Out.Fail(err.Error())
			return
		}
	}
	n.loadAll()
	var scopes []*noteScope
	for _, sc := range n.scopes {
		if want == "" || sc.name == want {
			scopes = append(scopes, sc)
		}
	}
	if c.JSON {
		c.Out.Output(string(jsonw.Array(nil, len(scopes), func(b []byte, i int) []byte {
			sc := scopes[i]
			st := n.tableState(sc)
			o := jsonw.Open(b)
			o.Str("scope", sc.name)
			o.Str("file", sc.file)
			o.Bool("exists", sc.exists)
			o.Str("pageTable", st.Status)
			o.Str("pageTableDetail", st.Detail)
			o.Raw("pages", jsonw.Array(nil, len(sc.pages), func(b []byte, k int) []byte {
				p := &sc.pages[k]
				po := jsonw.Open(b)
				po.Str("id", p.ID)
				po.Str("kind", p.Kind.String())
				po.Int("line", int64(p.Line))
				po.Int("lines", int64(p.Lines))
				po.Int("bytes", int64(len(p.Src)))
				po.Str("section", p.Section)
				po.Str("min", p.minForm().String())
				po.Str("summary", trimNL(p.form(formSummary, sc.display)))
				return po.Close()
			}))
			return o.Close()
		})))
		return
	}
	var b text.Builder
	for i, sc := range scopes {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(scopeTitle(sc.name) + ": " + sc.display)
		if !sc.exists {
			if sc.readErr != nil {
				b.WriteString(" — could not be read: " + sc.readErr.Error() + "\n")
			} else {
				b.WriteString(" — absent\n")
			}
			continue
		}
		st := n.tableState(sc)
		b.WriteString(" — " + text.Plural(len(sc.pages), "page", "pages") + "; page table " + st.Status)
		if st.Detail != "" {
			b.WriteString(" (" + st.Detail + ")")
		}
		if st.Status != "valid" {
			b.WriteString("; /memory verify rebuilds it")
		}
		b.WriteString("\n")
		// Ids are one width but for a repeat's "-2": the columns after
		// them line up at the widest.
		wide := 0
		for k := range sc.pages {
			wide = max(wide, len(sc.pages[k].ID))
		}
		for k := range sc.pages {
			p := &sc.pages[k]
			b.WriteString("  " + padRight(p.ID, wide) + "  " + padRight(p.Kind.String(), 7) + " L" + padRight(numstr.Itoa(p.Line), 4) + " " + trimNL(p.form(formSummary, sc.display)) + "\n")
		}
	}
	c.Out.Output(strings.TrimRight(b.String(), "\n"))
}

// ---- /memory recall ------------------------------------------------------------

// recallDocs gathers the searchable files: each scope's index and, for the
// shared scopes, its topic files (archive/ stays out, as it does of prompts).
func (n *driver) recallDocs(scope string) ([]doc, []string) {
	n.loadAll()
	var docs []doc
	var errs []string
	for _, sc := range n.scopes {
		if scope != "" && sc.name != scope {
			continue
		}
		if sc.readErr != nil {
			errs = append(errs, sc.file+": "+sc.readErr.Error())
		}
		if sc.exists {
			docs = append(docs, doc{Scope: sc.name, File: sc.display, Pages: sc.pages})
		}
		topics, _, err := n.topics(sc)
		if err != nil {
			if !hostio.IsNotFound(err) {
				errs = append(errs, sc.dir+": "+err.Error())
			}
			continue
		}
		for _, e := range topics {
			data, err := readNote(n.h, path.Join(sc.dir, e), nil)
			if err != nil {
				errs = append(errs, path.Join(sc.dir, e)+": "+err.Error())
				continue
			}
			display := path.Join(path.Dir(sc.display), e)
			file := path.Join(sc.dir, e)
			_, pages := readView(sc.name, data, n.forgottenIDs(sc).taken(file, files.Stamp(n.h, file)))
			docs = append(docs, doc{Scope: sc.name, File: display, Pages: pages})
		}
	}
	return docs, errs
}

func (n *driver) cmdRecall(c *store.Cmd) {
	limit, usage := countFlag("recall", "limit", c.Args.Value("limit"), 10, maxRecallShown)
	if usage != "" {
		c.Out.Usage(usage)
		return
	}
	reason, hits, detail := n.recall(c.Args.Text(0), limit)
	if c.JSON {
		w := jsonw.Open(nil)
		w.Str("reason", string(reason))
		w.Str("detail", detail)
		w.Raw("hits", jsonw.Array(nil, len(hits), func(b []byte, i int) []byte {
			h := &hits[i]
			o := jsonw.Open(b)
			o.Str("scope", h.Scope)
			o.Str("file", h.File)
			o.Int("line", int64(h.Page.Line))
			o.Str("id", h.Page.ID)
			o.Str("kind", h.Page.Kind.String())
			o.Str("text", h.Page.Text)
			o.Float("score", float64(int(h.Score*1000+0.5))/1000)
			return o.Close()
		}))
		c.Out.Output(string(w.Close()))
	} else {
		var b text.Builder
		b.WriteString("recall: " + string(reason))
		switch reason {
		case reasonOK:
			b.WriteString(" — " + text.Plural(len(hits), "match", "matches"))
		default:
			b.WriteString(" — " + detail)
		}
		for _, h := range hits {
			b.WriteString("\n  " + h.File + ":" + numstr.Itoa(h.Page.Line) + "  " + trimNL(h.Page.form(formSummary, h.File)))
		}
		if reason == reasonOK && detail != "" {
			b.WriteString("\n  (" + detail + ")")
		}
		c.Out.Output(b.String())
	}
	switch reason {
	case reasonMalformed:
		c.Out.SetExit(2)
	case reasonDenied, reasonUnavailable, reasonBackendError:
		c.Out.SetExit(1)
	}
}

// recall answers a query with one reason code (reason).
func (n *driver) recall(raw string, limit int) (reason, []hit, string) {
	if !n.cfg.Enabled {
		if n.cfg.Why != "" {
			return reasonDenied, nil, n.cfg.Why
		}
		return reasonDenied, nil, "markdown memory is disabled by " + n.cfg.DisabledBy
	}
	q, err := parseQuery(raw)
	if err != nil {
		return reasonMalformed, nil, err.Error()
	}
	if q.Scope == scopeProject || q.Scope == scopeLocal {
		if n.scope(q.Scope) == nil {
			_, err := n.scopeFor(q.Scope)
			return reasonDenied, nil, err.Error()
		}
	}
	docs, errs := n.recallDocs(q.Scope)
	if len(docs) == 0 {
		if len(errs) > 0 {
			return reasonBackendError, nil, strings.Join(errs, "; ")
		}
		return reasonUnavailable, nil, "no memory file exists yet (" + n.whereToStart() + ")"
	}
	hits := recall(q, docs, limit)
	for _, d := range docs {
		if d.File != "" && !n.isIndex(d) {
			discard(d.Pages) // topic files were parsed for this query only
		}
	}
	if len(hits) == 0 {
		if len(errs) > 0 {
			return reasonBackendError, nil, strings.Join(errs, "; ")
		}
		return reasonNoMatch, nil, "nothing in " + text.Plural(len(docs), "file", "files") + " matches " + strconv.Quote(q.Raw)
	}
	return reasonOK, hits, strings.Join(errs, "; ")
}

// isIndex reports whether d is a scope's index, whose pages the store keeps.
func (n *driver) isIndex(d doc) bool {
	for _, sc := range n.scopes {
		if sc.display == d.File && sc.name == d.Scope {
			return true
		}
	}
	return false
}

// ---- /memory stale -------------------------------------------------------------

func (n *driver) cmdStale(c *store.Cmd) {
	days, usage := countFlag("stale", "days", c.Args.Value("days"), n.cfg.StaleDays, maxStaleDays)
	if usage != "" {
		c.Out.Usage(usage)
		return
	}
	n.loadAll()
	now := n.h.Now()
	var tables []scopeEntries
	for _, sc := range n.scopes {
		if !sc.exists {
			continue
		}
		old := n.tableState(sc).Dates
		// Without a table every entry counts as new: dates start on first sight.
		pt := buildPageTable(sc.name, sc.file, sc.display, int64(len(sc.data)), "", sc.pages, old, now)
		tables = append(tables, scopeEntries{sc.name, sc.file, sc.display, pt.Entries})
	}
	found := staleEntries(tables, now, days)
	if c.JSON {
		c.Out.Output(staleJSON(found))
		return
	}
	c.Out.Output(staleText(found, days))
}

// ---- /memory faults, traces, trace, last ----------------------------------------

func (n *driver) cmdFaults(c *store.Cmd) {
	traces, _, err := n.readTraces()
	if err != nil {
		c.Out.Notify("warning", "pi-memory: could not read traces: "+err.Error())
	}
	type rejected struct {
		trace string
		t     int64
		op    Op
	}
	var refused []rejected
	for i := len(traces) - 1; i >= 0 && len(refused) < 50; i-- {
		for _, op := range traces[i].Ops {
			if op.Op == "reject" {
				refused = append(refused, rejected{traces[i].ID, traces[i].T, op})
			}
		}
	}
	faults := n.faults
	if len(faults) == 0 {
		// No turn in this session yet: the newest traced injection's faults.
		for i := len(traces) - 1; i >= 0; i-- {
			if traces[i].Kind == "inject" {
				faults = traces[i].Faults
				break
			}
		}
	}
	if c.JSON {
		w := jsonw.Open(nil)
		w.Raw("residency", jsonw.Array(nil, len(faults), func(b []byte, i int) []byte { return faults[i].appendJSON(b) }))
		w.Raw("writeback", jsonw.Array(nil, len(refused), func(b []byte, i int) []byte {
			r := &refused[i]
			o := jsonw.Open(b)
			o.Str("trace", r.trace)
			o.Str("id", r.op.ID)
			o.Str("reason", r.op.Reason)
			o.Str("detail", r.op.Detail)
			o.Str("page", r.op.Page)
			return o.Close()
		}))
		c.Out.Output(string(w.Close()))
		return
	}
	var b text.Builder
	if len(faults) == 0 {
		b.WriteString("Residency: every page fits (no faults).")
	} else {
		b.WriteString("Residency: " + text.Plural(len(faults), "page", "pages") + " could not stay in the prompt, even as a stub:")
		for _, f := range faults {
			b.WriteString("\n  " + f.Page + "  " + f.Scope + " line " + numstr.Itoa(f.Line) + "  " + faultReason(f.Reason) + " (" + text.Plural(f.Bytes, "byte", "bytes") + ")")
		}
	}
	if len(refused) == 0 {
		b.WriteString("\nWriteback: nothing refused.")
	} else {
		b.WriteString("\nWriteback: " + text.Plural(len(refused), "staged fact was", "staged facts were") + " refused:")
		for _, r := range refused {
			b.WriteString("\n  " + r.op.ID + "  " + civil.Day(r.t) + "  " + r.op.Reason + ": " + r.op.Detail)
		}
	}
	c.Out.Output(b.String())
}

func (n *driver) cmdTraces(c *store.Cmd) {
	limit, usage := countFlag("traces", "limit", c.Args.Value("limit"), 20, maxTracesShown)
	if usage != "" {
		c.Out.Usage(usage)
		return
	}
	traces, problems, err := n.readTraces()
	if err != nil {
		c.Out.Fail("Could not read traces: " + err.Error())
		return
	}
	for _, p := range problems {
		c.Out.Notify("warning", "pi-memory: "+p+" (skipped)")
	}
	var shown []Trace
	for i := len(traces) - 1; i >= 0 && len(shown) < limit; i-- {
		shown = append(shown, traces[i])
	}
	if c.JSON {
		c.Out.Output(string(jsonw.Array(nil, len(shown), func(b []byte, i int) []byte {
			line := shown[i].encode()
			return append(b, line[:len(line)-1]...)
		})))
		return
	}
	if len(shown) == 0 {
		if !n.cfg.TraceEnabled {
			c.Out.Output("No traces: traceEnabled is false.")
		} else {
			c.Out.Output("No traces yet: an injection is traced when memory files exist and the injected block changes.")
		}
		return
	}
	var b text.Builder
	b.WriteString("Traces, newest first (" + n.traces + "):")
	for _, t := range shown {
		b.WriteString("\n  " + t.ID + "  " + civil.FormatTime(t.T) + "  " + traceLine(&t))
	}
	c.Out.Output(b.String())
}

func (n *driver) cmdTrace(c *store.Cmd) {
	if len(c.Args.Words) != 1 {
		c.Out.Usage("/memory trace takes one trace id (T-…); /memory traces lists them")
		return
	}
	traces, _, err := n.readTraces()
	if err != nil {
		c.Out.Fail("Could not read traces: " + err.Error())
		return
	}
	var t *Trace
	for i := range traces {
		if strings.EqualFold(traces[i].ID, c.Args.Words[0]) {
			t = &traces[i]
		}
	}
	if t == nil {
		c.Out.Fail("No trace " + strconv.Quote(c.Args.Words[0]) + " in " + n.traces + "; /memory traces lists them (the oldest are dropped past about " + numstr.Itoa(2*traceFileBytes>>20) + " MiB of history).")
		return
	}
	if c.JSON {
		line := t.encode()
		c.Out.Output(string(line[:len(line)-1]))
		return
	}
	var b text.Builder
	b.WriteString(t.ID + "  " + civil.FormatTime(t.T) + "  " + traceLine(t))
	for _, s := range t.Stores {
		b.WriteString("\n" + s.Store + ": " + text.Plural(s.Bytes, "byte", "bytes") + " ≈ " + text.Plural(s.Tokens, "token", "tokens") + " (cap " + text.Plural(s.Cap, "byte", "bytes") + ")")
		for _, sc := range s.Scopes {
			b.WriteString("\n  " + sc.Scope + "  " + sc.File + ": " + text.Plural(sc.Bytes, "byte", "bytes") + ", " + text.Plural(sc.Lines, "line", "lines"))
			if sc.Cut {
				b.WriteString(", cut at the caps")
			}
			for _, p := range sc.Pages {
				b.WriteString("\n    " + p.ID + "  L" + padRight(numstr.Itoa(p.Line), 4) + " " + p.Form)
			}
		}
	}
	for _, f := range t.Faults {
		b.WriteString("\nfault  " + f.Page + "  " + f.Scope + " line " + numstr.Itoa(f.Line) + "  " + faultReason(f.Reason))
	}
	if t.MoreFaults > 0 {
		b.WriteString("\n" + text.Plural(t.MoreFaults, "more fault", "more faults") + " (a trace lists the first " + numstr.Itoa(maxTraceFaults) + ")")
	}
	for _, o := range t.Ops {
		if o.Op == "commit" {
			b.WriteString("\nwritten  " + o.ID + " → " + o.File + ":" + numstr.Itoa(o.Line))
		} else {
			b.WriteString("\nrefused  " + o.ID + " (" + o.Reason + "): " + o.Detail)
		}
	}
	c.Out.Output(b.String())
}

// topics are the names of the topic files beside a scope's index (the
// .md files of its folder but the indexes; none for the personal notes,
// which share the project's folder), and those whose name could not
// travel as a line (topicsIn).
func (n *driver) topics(sc *noteScope) (names, unlisted []string, err error) {
	if sc.name == scopeLocal {
		return nil, nil, nil
	}
	entries, err := n.h.List(sc.dir)
	if err != nil {
		return nil, nil, err
	}
	names, unlisted = topicsIn(entries)
	return names, unlisted, nil
}

// topicsIn picks the topic files among a folder's entries (hostio.List):
// the names that end in ".md" but the indexes, and apart those whose name
// could not travel as a line (hostio.Unlisted: it holds a newline), which
// no answer can cite and no forget can name; they are said, escaped, not
// read.
//
//	topicsIn([]string{"MEMORY.md", "deploy.md", `/"a\nb.md"`, "x/"}) => ["deploy.md"], ["a\nb.md"]
func topicsIn(entries []string) (names, unlisted []string) {
	for _, e := range entries {
		if strings.HasPrefix(e, "/") { // no name starts with "/"
			if name, dir, ok := hostio.Unlisted(e); ok && !dir && strings.HasSuffix(name, ".md") {
				unlisted = append(unlisted, name)
			}
			continue
		}
		if strings.HasSuffix(e, ".md") && e != notesIndex && e != notesLocal {
			names = append(names, e)
		}
	}
	return names, unlisted
}
