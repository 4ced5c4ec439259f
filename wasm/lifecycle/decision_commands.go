package lifecycle

import (
	"errors"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/cmdline"
	"github.com/pi-memory/pi-memory/wasm/config"
	"github.com/pi-memory/pi-memory/wasm/decision"
	"github.com/pi-memory/pi-memory/wasm/jsonw"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/tidwall/gjson"
)

const decisionHelp = `Usage: /decision <command> (pimem decision <command> outside pi)
  add <text> [--tag T]... [--title T] [--reason R]
      near-duplicate or conflict: [--force] [--update ID] [--supersede ID --reason R] [--keep-both]
  list [--status S] [--all] [--limit N] [--json]
  search <words> [status:S] [tag:T] [--limit N] [--json]
  show <id> [--json]
  edit <id> [<text>] [--title T] [--tag T]... [--reason R]
  remove <id>
  supersede <oldId> <newText> --reason R [--tag T]... [--title T]
  conflict <id1> <id2> [note]
  resolve <id> active|draft|rejected|superseded
  status [--json]
  purge [--yes]            non-active decisions past their retentionDays
  reset [--yes]            remove every decision (alias: clear)
  enable|disable --global|--project
  doctor [--json]          check the log: bad lines, duplicates, conflicts, dangling ids
  help`

// A subcommand: its flags, whether it writes, and its handler.
type decisionCmd struct {
	spec   cmdline.Spec
	writes bool
	run    func(d *decisions, c *cmdCtx)
}

// cmdCtx is one command invocation.
type cmdCtx struct {
	out   *Out
	args  cmdline.Args
	hasUI bool
	json  bool
}

var decisionCmds map[string]decisionCmd

func init() {
	listSpec := cmdline.Spec{Values: []string{"status", "limit"}, Switches: []string{"all", "json"}}
	decisionCmds = map[string]decisionCmd{
		"help": {run: func(d *decisions, c *cmdCtx) { c.out.Output(decisionHelp) }},
		"add": {writes: true, spec: cmdline.Spec{
			Values:   []string{"tag", "title", "reason", "update", "supersede"},
			Switches: []string{"force", "keep-both", "json"},
		}, run: (*decisions).cmdAdd},
		"list":      {spec: listSpec, run: (*decisions).cmdList},
		"search":    {spec: cmdline.Spec{Values: []string{"limit"}, Switches: []string{"json"}}, run: (*decisions).cmdSearch},
		"show":      {spec: cmdline.Spec{Switches: []string{"json"}}, run: (*decisions).cmdShow},
		"edit":      {writes: true, spec: cmdline.Spec{Values: []string{"title", "tag", "reason"}}, run: (*decisions).cmdEdit},
		"remove":    {writes: true, run: (*decisions).cmdRemove},
		"supersede": {writes: true, spec: cmdline.Spec{Values: []string{"reason", "tag", "title"}}, run: (*decisions).cmdSupersede},
		"conflict":  {writes: true, run: (*decisions).cmdConflict},
		"resolve":   {writes: true, run: (*decisions).cmdResolve},
		"status":    {spec: cmdline.Spec{Switches: []string{"json"}}, run: (*decisions).cmdStatus},
		"purge":     {writes: true, spec: cmdline.Spec{Switches: []string{"yes"}}, run: (*decisions).cmdPurge},
		"reset":     {writes: true, spec: cmdline.Spec{Switches: []string{"yes"}}, run: (*decisions).cmdReset},
		"enable":    {spec: cmdline.Spec{Switches: []string{"global", "project"}}, run: func(d *decisions, c *cmdCtx) { d.cmdToggle(c, true) }},
		"disable":   {spec: cmdline.Spec{Switches: []string{"global", "project"}}, run: func(d *decisions, c *cmdCtx) { d.cmdToggle(c, false) }},
		"doctor":    {spec: cmdline.Spec{Switches: []string{"json"}}, run: (*decisions).cmdDoctor},
	}
	decisionCmds["clear"] = decisionCmds["reset"]
	decisionCmds["rm"] = decisionCmds["remove"]
	decisionCmds["ls"] = decisionCmds["list"]
}

func (d *decisions) command(out *Out, words []string, hasUI bool) {
	if len(words) == 0 {
		words = []string{"status"}
	}
	sub := strings.ToLower(words[0])
	cmd, ok := decisionCmds[sub]
	if !ok {
		out.Usage("Unknown /decision command " + strconv.Quote(words[0]) + ".\n" + decisionHelp)
		return
	}
	args, err := cmdline.Parse(words[1:], cmd.spec)
	if err != nil {
		out.Usage("/decision " + sub + ": " + err.Error())
		return
	}
	c := &cmdCtx{out: out, args: args, hasUI: hasUI, json: args.Has("json")}
	if sub != "help" && sub != "status" && sub != "enable" && sub != "disable" {
		if why := d.inert(); why != "" {
			if cmd.writes {
				out.Fail("Not written: " + why)
			} else {
				out.Fail(why)
			}
			return
		}
		if err := d.usable(); err != nil {
			out.Fail("Could not read " + d.log + ": " + err.Error())
			return
		}
	}
	cmd.run(d, c)
}

// ---- reading ----

func (d *decisions) cmdList(c *cmdCtx) {
	var list decision.Hits
	title := "active decisions"
	switch {
	case c.args.Has("all"):
		list, title = d.st.All(), "decisions"
	case c.args.Value("status") != "":
		st := decision.ParseStatus(strings.ToLower(c.args.Value("status")))
		if st == decision.StatusNone {
			c.out.Usage("/decision list: --status must be active, draft, rejected or superseded")
			return
		}
		list, title = d.st.WithStatus(st), st.String()+" decisions"
	default:
		list = d.st.WithStatus(decision.Active)
	}
	d.printList(c, list, title)
}

func (d *decisions) cmdSearch(c *cmdCtx) {
	if len(c.args.Words) == 0 {
		c.out.Usage("Usage: /decision search <words> [status:S] [tag:T]")
		return
	}
	q := decision.ParseQuery(c.args.Words)
	if len(q.BadTerms) > 0 {
		c.out.Usage("/decision search: unknown status in " + strings.Join(q.BadTerms, ", ") + " (use active, draft, rejected or superseded)")
		return
	}
	d.printList(c, d.st.Search(q), "matching decisions")
}

func (d *decisions) printList(c *cmdCtx, list decision.Hits, title string) {
	limit := 50
	if v := c.args.Value("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			c.out.Usage("--limit must be a whole number (0 = no limit)")
			return
		}
		limit = n
	}
	total := list.Len()
	shown := total
	if limit > 0 && shown > limit {
		shown = limit
	}
	if c.json {
		c.out.Output(string(jsonw.Array(nil, shown, func(b []byte, i int) []byte { return appendDecisionJSON(b, list.At(i)) })))
		return
	}
	if total == 0 {
		c.out.Output("No " + title + ".")
		return
	}
	var sb strings.Builder
	sb.WriteString(plural(total, strings.TrimSuffix(title, "s"), title))
	sb.WriteString(" (newest first):")
	for i := 0; i < shown; i++ {
		sb.WriteString("\n")
		sb.WriteString(listLine(list.At(i)))
	}
	if total > shown {
		sb.WriteString("\n… " + strconv.Itoa(total-shown) + " more; use --limit N (0 for all).")
	}
	c.out.Output(sb.String())
}

// listLine is a decision in lists: id | status | text | #tags.
func listLine(x *decision.Decision) string {
	s := x.ID + " | " + x.Status.String() + " | " + oneLine(x.Short())
	var tags []string
	for _, t := range x.Tags {
		if t = decision.CleanTag(t); t != "" {
			tags = append(tags, "#"+t)
		}
	}
	if len(tags) > 0 {
		s += " | " + strings.Join(tags, " ")
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func (d *decisions) cmdShow(c *cmdCtx) {
	x := d.need(c, 0)
	if x == nil {
		return
	}
	if c.json {
		c.out.Output(string(appendDecisionJSON(nil, x)))
		return
	}
	var sb strings.Builder
	sb.WriteString(x.ID + " (" + x.Status.String() + ")")
	field := func(k, v string) {
		if v != "" {
			sb.WriteString("\n  " + k + ": " + v)
		}
	}
	field("title", x.Title)
	field("text", x.Text)
	field("tags", strings.Join(x.Tags, ", "))
	field("reason", x.Reason)
	field("supersedes", x.Supersedes)
	field("superseded by", x.SupersededBy)
	field("conflicts with", strings.Join(x.Conflicts, ", "))
	field("conflict note", x.ConflictNote)
	field("created", x.Created()+" by "+orDash(x.CreatedBy))
	field("updated", x.Updated())
	field("source", x.Source)
	field("category", x.Category)
	field("log lines", strconv.Itoa(x.AddLine)+"–"+strconv.Itoa(x.LastLine))
	c.out.Output(sb.String())
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// need returns the live decision named by word i, or reports why not.
func (d *decisions) need(c *cmdCtx, i int) *decision.Decision {
	if i >= len(c.args.Words) {
		c.out.Usage("Which decision? Give its id (D-YYYY-MM-DD-NNNN); /decision list shows them.")
		return nil
	}
	id := c.args.Words[i]
	if x := d.st.Get(id); x != nil {
		return x
	}
	switch {
	case d.st.WasRemoved(id):
		c.out.Fail(id + " was removed; /decision list shows the live decisions.")
	case !decision.ValidID(id):
		c.out.Fail(strconv.Quote(id) + " is not a decision id (they look like D-2026-02-27-0001).")
	default:
		c.out.Fail("No decision " + id + " in " + d.log + "; /decision search finds one by its words.")
	}
	return nil
}

// ---- writing ----

// clean redacts secrets from text about to be written and says so.
func clean(c *cmdCtx, what, s string) string {
	out, kinds := redact.String(s)
	if len(kinds) > 0 {
		c.out.Notify("warning", "Removed a secret ("+strings.Join(kinds, ", ")+") from the "+what+" before saving; secrets never go into memory files.")
	}
	return out
}

func tagsOf(c *cmdCtx) []string {
	var tags []string
	for _, t := range c.args.Values("tag") {
		for _, p := range strings.Split(t, ",") {
			if p = strings.TrimLeft(strings.TrimSpace(p), "#"); p != "" {
				tags = append(tags, p)
			}
		}
	}
	return tags
}

func (d *decisions) fail(c *cmdCtx, err error) {
	var in *errInert
	if errors.As(err, &in) {
		c.out.Fail("Not written: " + in.msg)
		return
	}
	c.out.Fail("Not written: " + err.Error())
}

func (d *decisions) cmdAdd(c *cmdCtx) {
	text := strings.TrimSpace(c.args.Text(0))
	if text == "" {
		c.out.Usage("Usage: /decision add <text> [--tag T]... [--title T] [--reason R]")
		return
	}
	nd := newDraft{
		text:   clean(c, "text", text),
		title:  clean(c, "title", c.args.Value("title")),
		reason: clean(c, "reason", c.args.Value("reason")),
		tags:   tagsOf(c),
	}
	if id := c.args.Value("update"); id != "" {
		x := d.need(&cmdCtx{out: c.out, args: cmdline.Args{Words: []string{id}}}, 0)
		if x != nil {
			d.updateText(c.out, x, nd)
		}
		return
	}
	if id := c.args.Value("supersede"); id != "" {
		x := d.need(&cmdCtx{out: c.out, args: cmdline.Args{Words: []string{id}}}, 0)
		if x == nil {
			return
		}
		if nd.reason == "" {
			c.out.Fail("--supersede needs --reason R: say why " + x.ID + " no longer holds.")
			return
		}
		d.supersede(c.out, x, nd)
		return
	}
	d.addChecked(c.out, nd, c.hasUI, !c.args.Has("force"), c.args.Has("keep-both"))
}

// newDraft is a decision about to be written.
type newDraft struct {
	text, title, reason string
	tags                []string
	conflicts           []string
	source              string
	confidence          float64
}

// addChecked adds nd after the duplicate and conflict checks the seed asks
// for. With a UI the person chooses; without one nothing is guessed: the
// command fails naming the verdict and the flag that proceeds.
func (d *decisions) addChecked(out *Out, nd newDraft, hasUI, checkDup, keepBoth bool) {
	dups, conflicts := d.st.Check(nd.text)
	if checkDup && len(dups) > 0 {
		m := dups[0]
		if !hasUI {
			out.Fail("Not added: duplicate of " + m.D.ID + " (" + similarity(m, nd.text) + "): " + strconv.Quote(oneLine(m.D.Short())) +
				".\nRe-run with --update " + m.D.ID + " to replace its text, or --force to add it anyway.")
			return
		}
		opts := []string{"Update " + m.D.ID + " with the new text", "Add as a new decision anyway", "Cancel"}
		d.e.Select(out, "Near-duplicate of "+m.D.ID+" ("+similarity(m, nd.text)+"): "+oneLine(m.D.Short()), opts, func(out *Out, v gjson.Result) {
			switch v.String() {
			case opts[0]:
				d.refreshThen(out, func() {
					if x := d.st.Get(m.D.ID); x != nil {
						d.updateText(out, x, nd)
					}
				})
			case opts[1]:
				d.refreshThen(out, func() { d.addChecked(out, nd, true, false, keepBoth) })
			default:
				out.Output("Cancelled; nothing was written.")
			}
		})
		return
	}
	if len(conflicts) > 0 && !keepBoth {
		m := conflicts[0]
		if !hasUI {
			out.Fail("Not added: conflicts with " + m.D.ID + " (" + m.Reason + "): " + strconv.Quote(oneLine(m.D.Short())) +
				".\nRe-run with --supersede " + m.D.ID + " --reason \"why\" to replace it, or --keep-both to keep both and mark the conflict.")
			return
		}
		opts := []string{"Supersede " + m.D.ID + " (you will be asked why)", "Keep both and mark the conflict", "Cancel"}
		d.e.Select(out, "Conflicts with "+m.D.ID+" ("+m.Reason+"): "+oneLine(m.D.Short()), opts, func(out *Out, v gjson.Result) {
			switch v.String() {
			case opts[0]:
				d.askReason(out, m.D.ID, func(out *Out, reason string) {
					d.refreshThen(out, func() {
						x := d.st.Get(m.D.ID)
						if x == nil {
							out.Fail(m.D.ID + " is gone (another pi process removed it); nothing was written.")
							return
						}
						nd.reason = reason
						d.supersede(out, x, nd)
					})
				})
			case opts[1]:
				d.refreshThen(out, func() { d.addChecked(out, nd, true, false, true) })
			default:
				out.Output("Cancelled; nothing was written.")
			}
		})
		return
	}
	if keepBoth {
		for _, m := range conflicts {
			nd.conflicts = append(nd.conflicts, m.D.ID)
		}
	}
	d.add(out, nd)
}

// refreshThen runs f after catching up with the log, for flows that resume
// after a dialog (another process may have written meanwhile).
func (d *decisions) refreshThen(out *Out, f func()) {
	if err := d.usable(); err != nil {
		out.Fail("Could not read " + d.log + ": " + err.Error())
		return
	}
	f()
}

func (d *decisions) askReason(out *Out, id string, k func(out *Out, reason string)) {
	d.e.Input(out, "Why does this supersede "+id+"?", "reason (required)", func(out *Out, v gjson.Result) {
		r := strings.TrimSpace(v.String())
		if v.Type == gjson.Null || r == "" {
			out.Output("Cancelled: superseding needs a reason; nothing was written.")
			return
		}
		r, kinds := redact.String(r)
		if len(kinds) > 0 {
			out.Notify("warning", "Removed a secret ("+strings.Join(kinds, ", ")+") from the reason before saving.")
		}
		k(out, r)
	})
}

func similarity(m decision.Match, text string) string {
	if decision.Normalize(text) == decision.Normalize(m.D.Short()) {
		return "same text"
	}
	return strconv.Itoa(int(m.Score*100+0.5)) + "% similar"
}

func (nd newDraft) data() decision.Data {
	data := decision.Data{Text: nd.text, Tags: nd.tags, Status: decision.Active, Conflicts: nd.conflicts}
	if nd.title != "" {
		data.Title, data.Has = nd.title, data.Has|decision.HasTitle
	}
	if nd.reason != "" {
		data.Reason, data.Has = nd.reason, data.Has|decision.HasReason
	}
	if nd.source != "" {
		data.Source, data.Has = nd.source, data.Has|decision.HasSource
		data.Confidence, data.Has = nd.confidence, data.Has|decision.HasConfidence
	}
	return data
}

func (d *decisions) add(out *Out, nd newDraft) {
	var conflictIDs []string
	events, err := d.write(func(st *decision.State, now int64) ([]decision.Event, error) {
		ev := decision.Event{Code: decision.Add, ID: st.NextID(now), Data: nd.data()}
		evs := []decision.Event{ev}
		// Mark the conflict on the other side too, so both lines show it.
		for _, id := range nd.conflicts {
			if x := st.Get(id); x != nil {
				evs = append(evs, decision.Event{Code: decision.Edit, ID: id, Data: decision.Data{
					Has: decision.HasConflicts, Conflicts: appendUnique(x.Conflicts, ev.ID)}})
				conflictIDs = append(conflictIDs, id)
			}
		}
		return evs, nil
	})
	if err != nil {
		d.failOut(out, err)
		return
	}
	msg := "Added " + events[0].ID + ": " + oneLine(nd.text)
	if len(conflictIDs) > 0 {
		msg += "\nMarked as conflicting with " + strings.Join(conflictIDs, ", ") + "."
	}
	out.Output(msg)
	d.statusLine(out)
}

func (d *decisions) failOut(out *Out, err error) {
	var in *errInert
	if errors.As(err, &in) {
		out.Fail("Not written: " + in.msg)
		return
	}
	out.Fail("Not written: " + err.Error())
}

func (d *decisions) statusLine(out *Out) {
	out.Status("pi-memory", "decisions: "+strconv.Itoa(d.st.Count(decision.Active))+" active", false)
}

func appendUnique(list []string, id string) []string {
	out := append([]string(nil), list...)
	for _, x := range out {
		if x == id {
			return out
		}
	}
	return append(out, id)
}

func without(list []string, id string) []string {
	var out []string
	for _, x := range list {
		if x != id {
			out = append(out, x)
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// updateText replaces an existing decision's text (the "update existing" answer
// to a near-duplicate).
func (d *decisions) updateText(out *Out, x *decision.Decision, nd newDraft) {
	data := decision.Data{Has: decision.HasText, Text: nd.text}
	if nd.title != "" {
		data.Has |= decision.HasTitle
		data.Title = nd.title
	} else if derivedTitle(x) {
		data.Has |= decision.HasTitle
	}
	if len(nd.tags) > 0 {
		data.Has |= decision.HasTags
		data.Tags = nd.tags
	}
	if nd.reason != "" {
		data.Has |= decision.HasReason
		data.Reason = nd.reason
	}
	id := x.ID
	if _, err := d.write(func(st *decision.State, now int64) ([]decision.Event, error) {
		if st.Get(id) == nil {
			return nil, errors.New(id + " was removed by another pi process")
		}
		return []decision.Event{{Code: decision.Edit, ID: id, Data: data}}, nil
	}); err != nil {
		d.failOut(out, err)
		return
	}
	out.Output("Updated " + id + ": " + oneLine(nd.text))
}

// derivedTitle reports whether a decision's title was cut from its text (as
// pi-decision-memory does), so a new text must not keep the stale title.
func derivedTitle(x *decision.Decision) bool { return x.DerivedTitle() }

// supersede adds nd as the replacement of x, marks x superseded and links both.
func (d *decisions) supersede(out *Out, x *decision.Decision, nd newDraft) {
	if x.Status != decision.Active && x.Status != decision.Draft {
		out.Fail(x.ID + " is " + x.Status.String() + "; only an active or draft decision can be superseded.")
		return
	}
	if len(nd.tags) == 0 {
		nd.tags = x.Tags
	}
	oldID := x.ID
	events, err := d.write(func(st *decision.State, now int64) ([]decision.Event, error) {
		if st.Get(oldID) == nil {
			return nil, errors.New(oldID + " was removed by another pi process")
		}
		data := nd.data()
		data.Supersedes, data.Has = oldID, data.Has|decision.HasSupersedes
		id := st.NextID(now)
		return []decision.Event{
			{Code: decision.Add, ID: id, Data: data},
			{Code: decision.Supersede, ID: oldID, Data: decision.Data{
				Has: decision.HasStatus | decision.HasSupersededBy, Status: decision.Superseded, SupersededBy: id}},
		}, nil
	})
	if err != nil {
		d.failOut(out, err)
		return
	}
	out.Output("Superseded " + oldID + " with " + events[0].ID + ": " + oneLine(nd.text))
	d.statusLine(out)
}

func (d *decisions) cmdSupersede(c *cmdCtx) {
	x := d.need(c, 0)
	if x == nil {
		return
	}
	text := strings.TrimSpace(c.args.Text(1))
	if text == "" {
		c.out.Usage("Usage: /decision supersede <oldId> <newText> --reason R")
		return
	}
	nd := newDraft{text: clean(c, "text", text), title: clean(c, "title", c.args.Value("title")), tags: tagsOf(c),
		reason: clean(c, "reason", strings.TrimSpace(c.args.Value("reason")))}
	if nd.reason != "" {
		d.supersede(c.out, x, nd)
		return
	}
	if !c.hasUI {
		c.out.Fail("Superseding needs a reason: add --reason \"why " + x.ID + " no longer holds\".")
		return
	}
	id := x.ID
	d.askReason(c.out, id, func(out *Out, reason string) {
		d.refreshThen(out, func() {
			x := d.st.Get(id)
			if x == nil {
				out.Fail(id + " is gone (another pi process removed it); nothing was written.")
				return
			}
			nd.reason = reason
			d.supersede(out, x, nd)
		})
	})
}

func (d *decisions) cmdEdit(c *cmdCtx) {
	x := d.need(c, 0)
	if x == nil {
		return
	}
	var data decision.Data
	if text := strings.TrimSpace(c.args.Text(1)); text != "" {
		data.Has |= decision.HasText
		data.Text = clean(c, "text", text)
		if derivedTitle(x) && !c.args.Has("title") {
			data.Has |= decision.HasTitle
		}
	}
	if c.args.Has("title") {
		data.Has |= decision.HasTitle
		data.Title = clean(c, "title", c.args.Value("title"))
	}
	if c.args.Has("tag") {
		data.Has |= decision.HasTags
		data.Tags = tagsOf(c)
	}
	if c.args.Has("reason") {
		data.Has |= decision.HasReason
		data.Reason = clean(c, "reason", c.args.Value("reason"))
	}
	if data.Has == 0 {
		c.out.Usage("Usage: /decision edit <id> <new text> [--title T] [--tag T]... [--reason R]")
		return
	}
	id := x.ID
	if _, err := d.write(func(st *decision.State, now int64) ([]decision.Event, error) {
		if st.Get(id) == nil {
			return nil, errors.New(id + " was removed by another pi process")
		}
		return []decision.Event{{Code: decision.Edit, ID: id, Data: data}}, nil
	}); err != nil {
		d.fail(c, err)
		return
	}
	c.out.Output("Edited " + id + ": " + listLine(d.st.Get(id)))
}

func (d *decisions) cmdRemove(c *cmdCtx) {
	x := d.need(c, 0)
	if x == nil {
		return
	}
	id := x.ID
	if _, err := d.write(func(st *decision.State, now int64) ([]decision.Event, error) {
		if st.Get(id) == nil {
			return nil, errors.New(id + " was already removed by another pi process")
		}
		return []decision.Event{{Code: decision.Remove, ID: id}}, nil
	}); err != nil {
		d.fail(c, err)
		return
	}
	c.out.Output("Removed " + id + " (its history stays in " + d.log + ").")
	d.statusLine(c.out)
}

func (d *decisions) cmdConflict(c *cmdCtx) {
	if len(c.args.Words) < 2 {
		c.out.Usage("Usage: /decision conflict <id1> <id2> [note]")
		return
	}
	a := d.need(c, 0)
	if a == nil {
		return
	}
	b := d.need(c, 1)
	if b == nil {
		return
	}
	if a == b {
		c.out.Usage("A decision cannot conflict with itself.")
		return
	}
	note := clean(c, "note", c.args.Text(2))
	ida, idb := a.ID, b.ID
	if _, err := d.write(func(st *decision.State, now int64) ([]decision.Event, error) {
		xa, xb := st.Get(ida), st.Get(idb)
		if xa == nil || xb == nil {
			return nil, errors.New("one of the decisions was removed by another pi process")
		}
		mk := func(x *decision.Decision, other string) decision.Event {
			data := decision.Data{Has: decision.HasConflicts, Conflicts: appendUnique(x.Conflicts, other)}
			if note != "" {
				data.Has |= decision.HasConflictNote
				data.ConflictNote = note
			}
			return decision.Event{Code: decision.Edit, ID: x.ID, Data: data}
		}
		return []decision.Event{mk(xa, idb), mk(xb, ida)}, nil
	}); err != nil {
		d.fail(c, err)
		return
	}
	c.out.Output("Marked " + ida + " and " + idb + " as conflicting. Settle it with /decision resolve <id> <status> or /decision supersede.")
}

func (d *decisions) cmdResolve(c *cmdCtx) {
	x := d.need(c, 0)
	if x == nil {
		return
	}
	if len(c.args.Words) < 2 {
		c.out.Usage("Usage: /decision resolve <id> active|draft|rejected|superseded")
		return
	}
	st := decision.ParseStatus(strings.ToLower(c.args.Words[1]))
	if st == decision.StatusNone {
		c.out.Usage("/decision resolve: the status must be active, draft, rejected or superseded")
		return
	}
	id := x.ID
	if _, err := d.write(func(s *decision.State, now int64) ([]decision.Event, error) {
		x := s.Get(id)
		if x == nil {
			return nil, errors.New(id + " was removed by another pi process")
		}
		evs := []decision.Event{{Code: decision.SetStatus, ID: id, Data: decision.Data{
			Has: decision.HasStatus | decision.HasConflicts, Status: st, Conflicts: []string{}}}}
		for _, other := range x.Conflicts {
			if o := s.Get(other); o != nil {
				evs = append(evs, decision.Event{Code: decision.Edit, ID: other, Data: decision.Data{
					Has: decision.HasConflicts, Conflicts: without(o.Conflicts, id)}})
			}
		}
		return evs, nil
	}); err != nil {
		d.fail(c, err)
		return
	}
	c.out.Output("Resolved " + id + " as " + st.String() + "; its conflict marks are cleared.")
	d.statusLine(c.out)
}

// confirmThen runs act after the person confirms: a dialog with a UI, --yes
// without one. Without either it only previews (exit 0).
func (d *decisions) confirmThen(c *cmdCtx, title, preview string, act func(out *Out)) {
	if c.args.Has("yes") {
		act(c.out)
		return
	}
	if !c.hasUI {
		c.out.Output(preview + "\nNothing was written. Re-run with --yes to do it.")
		return
	}
	d.e.Confirm(c.out, title, preview, func(out *Out, v gjson.Result) {
		if v.Type != gjson.True {
			out.Output("Cancelled; nothing was written.")
			return
		}
		d.refreshThen(out, func() { act(out) })
	})
}

func (d *decisions) removeAll(out *Out, ids []string, what string) {
	events, err := d.write(func(st *decision.State, now int64) ([]decision.Event, error) {
		var evs []decision.Event
		for _, id := range ids {
			if st.Get(id) != nil {
				evs = append(evs, decision.Event{Code: decision.Remove, ID: id})
			}
		}
		return evs, nil
	})
	if err != nil {
		d.failOut(out, err)
		return
	}
	out.Output(what + ": removed " + plural(len(events), "decision", "decisions") + " (rm events appended to " + d.log + ").")
	d.statusLine(out)
}

func (d *decisions) cmdPurge(c *cmdCtx) {
	cands := d.st.PurgeCandidates(d.h.Now(), d.cfg.RetentionDays)
	if len(cands) == 0 {
		c.out.Output("Nothing to purge: no draft, rejected or superseded decision is past its retention (" + d.retentionText() + ").")
		return
	}
	ids := make([]string, len(cands))
	var sb strings.Builder
	sb.WriteString("Purge would remove " + plural(len(cands), "decision", "decisions") + " past retention (" + d.retentionText() + "); active decisions are always kept:")
	for i, x := range cands {
		ids[i] = x.ID
		sb.WriteString("\n" + listLine(x) + " (updated " + x.Updated() + ")")
	}
	d.confirmThen(c, "Purge "+plural(len(cands), "decision", "decisions")+"?", sb.String(), func(out *Out) { d.removeAll(out, ids, "Purged") })
}

func (d *decisions) retentionText() string {
	r := d.cfg.RetentionDays
	return "draft " + strconv.Itoa(r[decision.Draft]) + "d, rejected " + strconv.Itoa(r[decision.Rejected]) + "d, superseded " + strconv.Itoa(r[decision.Superseded]) + "d"
}

func (d *decisions) cmdReset(c *cmdCtx) {
	all := d.st.All().All()
	if len(all) == 0 {
		c.out.Output("Nothing to reset: there are no decisions.")
		return
	}
	ids := make([]string, len(all))
	for i, x := range all {
		ids[i] = x.ID
	}
	preview := "Reset would remove all " + plural(len(all), "decision", "decisions") + " of this project (" +
		strconv.Itoa(d.st.Count(decision.Active)) + " active). The log keeps their history."
	d.confirmThen(c, "Remove every decision?", preview, func(out *Out) { d.removeAll(out, ids, "Reset") })
}

func (d *decisions) cmdToggle(c *cmdCtx, on bool) {
	global, project := c.args.Has("global"), c.args.Has("project")
	if global == project {
		c.out.Usage("Say where: /decision enable|disable --global (all projects) or --project (this one).")
		return
	}
	file := d.globalCfg
	if project {
		if !d.s.Trusted {
			c.out.Fail("This project is not trusted, so pi-memory does not write its config. Trust it in pi first.")
			return
		}
		file = d.projCfg
	}
	if file == "" {
		c.out.Fail("No config location is known for this session.")
		return
	}
	old, err := readFile(d.h, file, maxConfig)
	if err != nil && !isNotFound(err) {
		c.out.Fail("Could not read " + file + ": " + err.Error())
		return
	}
	data, err := config.SetTopLevel(file, old, "enabled", strconv.FormatBool(on))
	if err != nil {
		c.out.Fail(err.Error() + ". Nothing was written: fix the file by hand first.")
		return
	}
	if err := d.h.Mkdir(parentDir(file)); err != nil {
		c.out.Fail("Could not create the folder of " + file + ": " + err.Error())
		return
	}
	if err := d.h.WriteAtomic(file, data); err != nil {
		c.out.Fail("Could not write " + file + ": " + err.Error())
		return
	}
	d.readConfig()
	state := "enabled"
	if !d.cfg.Enabled {
		state = "disabled (by " + d.cfg.DisabledBy + ")"
		c.out.Status("pi-memory", "", true)
	} else if d.s.Trusted {
		if err := d.refresh(); err == nil {
			d.statusLine(c.out)
		}
	}
	word := "Disabled"
	if on {
		word = "Enabled"
	}
	c.out.Output(word + " decision memory in " + file + ". It is now " + state + " for this project.")
}

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}

func (d *decisions) cmdStatus(c *cmdCtx) {
	why := d.inert()
	if why == "" {
		if err := d.refresh(); err != nil {
			c.out.Fail("Could not read " + d.log + ": " + err.Error())
			return
		}
	}
	if c.json {
		c.out.Output(string(d.statusJSON(why)))
		return
	}
	var sb strings.Builder
	if why == "" {
		sb.WriteString("Decision memory: on")
	} else {
		sb.WriteString("Decision memory: off — " + why)
	}
	sb.WriteString("\nProject: " + d.s.ProjectRoot + " (id " + d.s.ProjectHash + ")")
	sb.WriteString("\nConfig: global " + presence(d.globalCfg, d.cfg.GlobalPresent) + "; project " + presence(d.projCfg, d.cfg.ProjectPresent))
	if why == "" {
		if d.cur.Offset == 0 && d.st.Lines == 0 {
			sb.WriteString("\nLog: " + d.log + " (not created yet; it appears on the first write)")
		} else {
			sb.WriteString("\nLog: " + d.log + " (" + plural(d.st.Lines, "line", "lines") + ", " + strconv.FormatInt(d.cur.Offset, 10) + " bytes)")
		}
		sb.WriteString("\nDecisions: " + strconv.Itoa(d.st.Count(decision.Active)) + " active, " +
			strconv.Itoa(d.st.Count(decision.Draft)) + " draft, " + strconv.Itoa(d.st.Count(decision.Rejected)) + " rejected, " +
			strconv.Itoa(d.st.Count(decision.Superseded)) + " superseded")
		sec := d.section()
		inj := "nothing (no active decisions)"
		if sec != "" {
			inj = strconv.Itoa(len([]rune(sec))) + " of " + strconv.Itoa(decision.MaxSectionChars) + " chars, up to " + strconv.Itoa(d.cfg.MaxDecisions) + " decisions"
		}
		if d.s.NoMemory {
			inj += " — but --no-memory is set, so nothing is injected this session"
		}
		sb.WriteString("\nInjected each turn: " + inj)
		ac := "off"
		if d.cfg.AutoCapture {
			ac = "on (" + d.cfg.Classifier + " classifier, threshold " + strconv.FormatFloat(d.cfg.Threshold, 'g', -1, 64) + ", max " + strconv.Itoa(d.cfg.MaxPerTurn) + " per turn"
			if d.cfg.Confirm {
				ac += ", asks before saving)"
			} else {
				ac += ", saves without asking)"
			}
		}
		sb.WriteString("\nAuto-capture: " + ac)
		sb.WriteString("\nRetention: " + d.retentionText())
		if d.snap != "" && d.snapNote != "" {
			sb.WriteString("\nSnapshot: " + d.snap + " — " + d.snapNote)
		}
		if n := d.lineFindings(); n > 0 {
			sb.WriteString("\nProblems: " + plural(n, "line needs", "lines need") + " attention; run /decision doctor")
		}
	}
	c.out.Output(sb.String())
}

func presence(p string, present bool) string {
	if p == "" {
		return "(none)"
	}
	if present {
		return p
	}
	return p + " (absent)"
}
