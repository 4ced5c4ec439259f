package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/config"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/errs"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// The /decision commands that write. Each change is a transition of the
// decision store (transitions.go), applied by d.write under the log
// lock to the state as it is then. A choice made in a dialog is checked again
// at that moment: if another process changed the decision meanwhile, the
// person is asked again, and what they typed is never dropped.

// scrub redacts secrets from text about to be written and says so.
func scrub(out *store.Out, what, s string) string {
	text, kinds := redact.String(s)
	if len(kinds) > 0 {
		out.Notify("warning", "Removed a secret ("+strings.Join(kinds, ", ")+") from the "+what+" before saving; secrets never go into memory files.")
	}
	return text
}

// refusePlain ends a command whose texts a write would refuse (unplain), at
// once: before a dialog, a lock or a folder.
func refusePlain(out *store.Out, title, text string, tags []string, rest ...string) bool {
	if why := plainWhy(title, text, rest, tags); why != "" {
		out.Fail("Not written: the decision holds " + why + "; decisions keep plain text, so write it without that")
		return true
	}
	return false
}

// tagsOf reads --tag values (splitTags), each redacted.
func tagsOf(c *store.Cmd) []string {
	tags := splitTags(c.Args.Values("tag"))
	for i, t := range tags {
		tags[i] = scrub(c.Out, "tag", t)
	}
	return tags
}

// proposalOf is the decision a command's words describe.
func proposalOf(c *store.Cmd, text string) proposal {
	return proposal{
		Text:   scrub(c.Out, "text", text),
		Title:  scrub(c.Out, "title", c.Args.Value("title")),
		Reason: scrub(c.Out, "reason", strings.TrimSpace(c.Args.Value("reason"))),
		Tags:   tagsOf(c),
	}
}

// failWrite ends a command whose write did not happen.
func failWrite(out *store.Out, err error) {
	if in, ok := errs.As[*errInert](err); ok {
		out.Fail("Not written: " + in.msg)
		return
	}
	out.Fail("Not written: " + err.Error())
}

// wrote reports what a command wrote: the decisions it touched, as text or,
// with --json, as `show --json` prints them (one object for one decision).
func (d *driver) wrote(out *store.Out, asJSON bool, text string, ids ...string) {
	if asJSON {
		if len(ids) == 1 {
			if x := d.st.Get(ids[0]); x != nil {
				out.Output(string(appendJSON(nil, x)))
				return
			}
		}
		out.Output(string(jsonw.Array(nil, len(ids), func(b []byte, i int) []byte {
			if x := d.st.Get(ids[i]); x != nil {
				return appendJSON(b, x)
			}
			return jsonw.String(b, ids[i])
		})))
	} else {
		out.Output(text)
	}
}

func (d *driver) cmdAdd(c *store.Cmd) {
	p := proposalOf(c, strings.TrimSpace(c.Args.Text(0)))
	if p.Text == "" {
		c.Usage()
		return
	}
	if refusePlain(c.Out, p.Title, p.Text, p.Tags, p.Reason) {
		return
	}
	if id := c.Args.Value("update"); id != "" {
		if x := d.need(c.Out, id); x != nil {
			d.updateText(c.Out, c.JSON, x.ID, p)
		}
		return
	}
	if id := c.Args.Value("supersede"); id != "" {
		x := d.need(c.Out, id)
		if x == nil {
			return
		}
		if p.Reason == "" {
			c.Out.Fail("--supersede needs --reason R: say why " + x.ID + " no longer holds.")
			return
		}
		d.supersede(c.Out, c.JSON, c.HasUI, x.ID, p)
		return
	}
	d.addChecked(c.Out, c.JSON, c.HasUI, p, !c.Args.Has("force"), c.Args.Has("keep-both"))
}

// addChecked adds p after the duplicate and conflict checks. With a UI the
// person chooses; without one nothing is guessed: the command fails naming
// the verdict and the flag that proceeds.
func (d *driver) addChecked(out *store.Out, asJSON, hasUI bool, p proposal, checkDup, keepBoth bool) {
	dups, conflicts := d.st.Check(p.Text)
	if checkDup && len(dups) > 0 {
		m := dups[0]
		if !hasUI {
			out.Fail("Not added: duplicate of " + m.D.ID + " (" + likeness(m, p.Text) + "): " + strconv.Quote(oneLine(m.D.Short())) +
				".\nRe-run with --update " + m.D.ID + " to replace its text, or --force to add it anyway.")
			return
		}
		opts := []string{"Update " + m.D.ID + " with the new text", "Add as a new decision anyway", "Cancel"}
		out.Select("New:      "+strconv.Quote(oneLine(p.Text))+"\nExisting: "+m.D.ID+" "+strconv.Quote(oneLine(m.D.Short()))+"\nNear-duplicate ("+likeness(m, p.Text)+")", opts, func(out *store.Out, v gjson.Result) {
			switch v.String() {
			case opts[0]:
				d.updateText(out, asJSON, m.D.ID, p)
			case opts[1]:
				d.caughtUp(out, func() { d.addChecked(out, asJSON, true, p, false, keepBoth) })
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
		d.askConflict(out, asJSON, m, p, "Cancel")
		return
	}
	if keepBoth {
		for _, m := range conflicts {
			p.Conflicts = append(p.Conflicts, m.D.ID)
		}
	}
	d.add(out, asJSON, p, addedMeanwhile(checkDup))
}

// addedMeanwhile is what a command says when the decision it checked was
// added by another process before it wrote; nil when it was not to be
// checked (--force, or the person chose to add it anyway).
func addedMeanwhile(checkDup bool) func(out *store.Out, id string) {
	if !checkDup {
		return nil
	}
	return func(out *store.Out, id string) {
		out.Fail("Not added: it was recorded meanwhile, as " + id + " (by another session); nothing was written.")
	}
}

// askConflict asks how to settle p's conflict with m: supersede it (after a
// reason), keep both marked, or give up (cancel names that answer).
func (d *driver) askConflict(out *store.Out, asJSON bool, m match, p proposal, cancel string) {
	// A --reason already typed is the reason for superseding: it is kept,
	// and the person is asked only when there is none.
	first := "Supersede " + m.D.ID + " (you will be asked why)"
	if p.Reason != "" {
		first = "Supersede " + m.D.ID + " (reason: " + text.Runes(oneLine(p.Reason), 60) + ")"
	}
	opts := []string{first, "Keep both and mark the conflict", cancel}
	out.Select(strconv.Quote(oneLine(p.Text))+" conflicts with "+m.D.ID+" ("+m.Reason+"): "+oneLine(m.D.Short()), opts, func(out *store.Out, v gjson.Result) {
		switch v.String() {
		case opts[0]:
			d.supersede(out, asJSON, true, m.D.ID, p)
		case opts[1]:
			d.caughtUp(out, func() {
				p.Conflicts = append(p.Conflicts, m.D.ID)
				d.add(out, asJSON, p, addedMeanwhile(true))
			})
		default:
			out.Output("Cancelled; nothing was written.")
		}
	})
}

// caughtUp runs f after catching up with the log, for flows that resume
// after a dialog (another process may have written meanwhile).
func (d *driver) caughtUp(out *store.Out, f func()) {
	if err := d.usable(); err != nil {
		out.Fail("Could not read " + d.log + ": " + err.Error())
		return
	}
	f()
}

// add writes p as a new decision. meanwhile, unless nil, is what is said
// when the log as it is under the lock holds a duplicate of p: the checks
// before ran on the state of before the lock (or of before a dialog), and
// another process may have added it since; nothing is written then.
func (d *driver) add(out *store.Out, asJSON bool, p proposal, meanwhile func(out *store.Out, id string)) {
	var marked []string
	dup := ""
	events, err := d.write(func(st *state, now int64) ([]Event, error) {
		if meanwhile != nil {
			if dups, _ := st.Check(p.Text); len(dups) > 0 {
				dup = dups[0].D.ID
				return nil, nil
			}
		}
		evs := st.Add(p, now)
		marked = marked[:0]
		for _, ev := range evs[1:] {
			marked = append(marked, ev.ID)
		}
		return evs, nil
	})
	switch {
	case err != nil:
		failWrite(out, err)
		return
	case dup != "":
		meanwhile(out, dup)
		return
	}
	msg := "Added " + events[0].ID + ": " + oneLine(p.Text)
	if len(marked) > 0 {
		msg += "\nMarked as conflicting with " + strings.Join(marked, ", ") + "."
	}
	d.wrote(out, asJSON, msg, events[0].ID)
}

// updateText replaces an existing decision's text (the "update existing"
// answer to a near-duplicate).
func (d *driver) updateText(out *store.Out, asJSON bool, id string, p proposal) {
	ch := change{Has: HasText, Text: p.Text}
	if p.Title != "" {
		ch.Has, ch.Title = ch.Has|HasTitle, p.Title
	}
	if len(p.Tags) > 0 {
		ch.Has, ch.Tags = ch.Has|HasTags, p.Tags
	}
	if p.Reason != "" {
		ch.Has, ch.Reason = ch.Has|HasReason, p.Reason
	}
	if _, err := d.write(func(st *state, now int64) ([]Event, error) { return st.Edit(id, ch) }); err != nil {
		d.changed(out, asJSON, err, p)
		return
	}
	d.wrote(out, asJSON, "Updated "+id+": "+oneLine(p.Text), id)
}

// supersede replaces oldID with p. Without a reason it asks for one (with a
// UI) or names the flag (without). The change is checked against the log as
// it is when written.
func (d *driver) supersede(out *store.Out, asJSON, hasUI bool, oldID string, p proposal) {
	if p.Reason == "" {
		if !hasUI {
			out.Fail("Superseding needs a reason: add --reason \"why " + oldID + " no longer holds\".")
			return
		}
		out.Input("Why does this supersede "+oldID+"?", "reason (required)", func(out *store.Out, v gjson.Result) {
			r := strings.TrimSpace(v.String())
			if v.Type == gjson.Null || r == "" {
				out.Output("Cancelled: superseding needs a reason; nothing was written.")
				return
			}
			p.Reason = scrub(out, "reason", r)
			d.supersede(out, asJSON, true, oldID, p)
		})
		return
	}
	events, err := d.write(func(st *state, now int64) ([]Event, error) { return st.Supersede(oldID, p, now) })
	if err != nil {
		if hasUI {
			d.changed(out, asJSON, err, p)
		} else {
			failWrite(out, err)
		}
		return
	}
	d.wrote(out, asJSON, "Superseded "+oldID+" with "+events[0].ID+": "+oneLine(p.Text), events[0].ID)
}

// changed handles a write refused because the decision it was aimed at
// changed while the person was answering (another process superseded or
// removed it). The person's text is kept: they are asked again what to do
// with it, against the state as it is now.
func (d *driver) changed(out *store.Out, asJSON bool, err error, p proposal) {
	te, ok := errs.As[*transitionError](err)
	if !ok {
		failWrite(out, err)
		return
	}
	opts := []string{"Add it as a new decision", "Cancel (nothing is written)"}
	successor := ""
	if x := d.st.Get(te.ID); x != nil && x.SupersededBy != "" {
		if y := d.st.Get(x.SupersededBy); y != nil && (y.Status == Active || y.Status == draft) {
			successor = y.ID
			opts = append([]string{"Supersede " + successor + " instead"}, opts...)
		}
	}
	out.Select(te.Msg+" while you answered. Your decision: "+strconv.Quote(oneLine(p.Text)), opts, func(out *store.Out, v gjson.Result) {
		switch {
		case successor != "" && v.String() == opts[0]:
			d.caughtUp(out, func() { d.supersede(out, asJSON, true, successor, p) })
		case v.String() == opts[len(opts)-2]:
			d.caughtUp(out, func() { d.addChecked(out, asJSON, true, p, true, false) })
		default:
			out.Output("Cancelled; nothing was written. Your text was: " + oneLine(p.Text))
		}
	})
}

func (d *driver) cmdSupersede(c *store.Cmd) {
	x := d.need(c.Out, c.Args.Words[0])
	if x == nil {
		return
	}
	p := proposalOf(c, strings.TrimSpace(c.Args.Text(1)))
	if p.Text == "" {
		c.Usage()
		return
	}
	if refusePlain(c.Out, p.Title, p.Text, p.Tags, p.Reason) {
		return
	}
	d.supersede(c.Out, c.JSON, c.HasUI, x.ID, p)
}

func (d *driver) cmdEdit(c *store.Cmd) {
	x := d.need(c.Out, c.Args.Words[0])
	if x == nil {
		return
	}
	var ch change
	if text := strings.TrimSpace(c.Args.Text(1)); text != "" {
		ch.Has, ch.Text = ch.Has|HasText, scrub(c.Out, "text", text)
	}
	if c.Args.Has("title") {
		ch.Has, ch.Title = ch.Has|HasTitle, scrub(c.Out, "title", c.Args.Value("title"))
	}
	if c.Args.Has("tag") {
		ch.Has, ch.Tags = ch.Has|HasTags, tagsOf(c)
	}
	if c.Args.Has("reason") {
		ch.Has, ch.Reason = ch.Has|HasReason, scrub(c.Out, "reason", c.Args.Value("reason"))
	}
	if ch.Has == 0 {
		c.Usage()
		return
	}
	if refusePlain(c.Out, ch.Title, ch.Text, ch.Tags, ch.Reason) {
		return
	}
	id := x.ID
	if _, err := d.write(func(st *state, now int64) ([]Event, error) { return st.Edit(id, ch) }); err != nil {
		failWrite(c.Out, err)
		return
	}
	d.wrote(c.Out, c.JSON, "Edited "+id+": "+listLine(d.st.Get(id)), id)
}

func (d *driver) cmdRemove(c *store.Cmd) {
	ids := make([]string, len(c.Args.Words))
	for i, ref := range c.Args.Words {
		x := d.need(c.Out, ref)
		if x == nil {
			return
		}
		ids[i] = x.ID
	}
	events, err := d.write(func(st *state, now int64) ([]Event, error) { return st.Remove(ids) })
	if err != nil {
		failWrite(c.Out, err)
		return
	}
	removed := make([]string, len(events))
	for i, ev := range events {
		removed[i] = ev.ID
	}
	d.removed(c.Out, c.JSON, "Removed "+strings.Join(removed, ", ")+" (the history stays in "+d.log+").", removed)
}

// removed reports removed decisions: text, or {"removed": [ids]}.
func (d *driver) removed(out *store.Out, asJSON bool, text string, ids []string) {
	if asJSON {
		w := jsonw.Open(nil)
		w.Strs("removed", ids)
		out.Output(string(w.Close()))
	} else {
		out.Output(text)
	}
}

func (d *driver) cmdConflict(c *store.Cmd) {
	xa := d.need(c.Out, c.Args.Words[0])
	if xa == nil {
		return
	}
	xb := d.need(c.Out, c.Args.Words[1])
	if xb == nil {
		return
	}
	a, b := xa.ID, xb.ID
	if a == b {
		c.Out.Usage("A decision cannot conflict with itself; name two different decisions.")
		return
	}
	note := scrub(c.Out, "note", c.Args.Text(2))
	if refusePlain(c.Out, "", note, nil) {
		return
	}
	if _, err := d.write(func(st *state, now int64) ([]Event, error) { return st.MarkConflict(a, b, note) }); err != nil {
		failWrite(c.Out, err)
		return
	}
	d.wrote(c.Out, c.JSON, "Marked "+a+" and "+b+" as conflicting. Settle it: "+settle(a, b), a, b)
}

func (d *driver) cmdResolve(c *store.Cmd) {
	x := d.need(c.Out, c.Args.Words[0])
	if x == nil {
		return
	}
	st := ParseStatus(strings.ToLower(c.Args.Words[1]))
	if st == statusNone {
		c.Out.Usage("/decision resolve: the status must be active, draft, rejected or superseded")
		return
	}
	id := x.ID
	if _, err := d.write(func(s *state, now int64) ([]Event, error) { return s.Resolve(id, st) }); err != nil {
		failWrite(c.Out, err)
		return
	}
	d.wrote(c.Out, c.JSON, "Resolved "+id+" as "+st.String()+"; its conflict marks are cleared.", id)
}

// confirmThen runs act after the person confirms: a dialog with a UI, --yes
// without one. Without either it only previews (exit 0), naming --yes. With
// no and yes (the answers' words) the dialog starts on no.
func (d *driver) confirmThen(c *store.Cmd, title, preview string, ids []string, no, yes string, act func(out *store.Out)) {
	if c.Args.Has("yes") {
		act(c.Out)
		return
	}
	if !c.HasUI {
		if c.JSON {
			w := jsonw.Open(nil)
			w.Strs("wouldRemove", ids)
			w.Bool("written", false)
			c.Out.Output(string(w.Close()))
			return
		}
		c.Out.Output(preview + "\nNothing was written. Re-run with --yes to do it.")
		return
	}
	then := func(out *store.Out, confirmed bool) {
		if !confirmed {
			out.Output("Cancelled; nothing was written.")
			return
		}
		d.caughtUp(out, func() { act(out) })
	}
	if no == "" {
		c.Out.Confirm(title, preview, func(out *store.Out, v gjson.Result) { then(out, v.Type == gjson.True) })
		return
	}
	// pi's confirm dialog starts on Yes; a choice that cannot be undone
	// starts on No instead: a select whose first option keeps everything.
	opts := []string{no, yes}
	c.Out.Select(title+"\n"+preview, opts, func(out *store.Out, v gjson.Result) {
		then(out, v.String() == yes)
	})
}

func (d *driver) removeAll(out *store.Out, asJSON bool, ids []string, what string) {
	events, err := d.write(func(st *state, now int64) ([]Event, error) { return st.RemoveLive(ids), nil })
	if err != nil {
		failWrite(out, err)
		return
	}
	removed := make([]string, len(events))
	for i, ev := range events {
		removed[i] = ev.ID
	}
	d.removed(out, asJSON, what+": removed "+text.Plural(len(events), "decision", "decisions")+" (rm events appended to "+d.log+").", removed)
}

func (d *driver) cmdPurge(c *store.Cmd) {
	cands := d.st.PurgeCandidates(d.h.Now(), d.cfg.RetentionDays)
	if len(cands) == 0 {
		if c.JSON {
			c.Out.Output(`{"removed":[]}`)
			return
		}
		c.Out.Output(purgePreview(nil, d.cfg.RetentionDays))
		return
	}
	ids := make([]string, len(cands))
	for i, x := range cands {
		ids[i] = x.ID
	}
	d.confirmThen(c, "Purge "+text.Plural(len(cands), "decision", "decisions")+"?", purgePreview(cands, d.cfg.RetentionDays), ids, "", "", func(out *store.Out) { d.removeAll(out, c.JSON, ids, "Purged") })
}

func (d *driver) cmdReset(c *store.Cmd) {
	all := d.st.All().All()
	if len(all) == 0 {
		if c.JSON {
			c.Out.Output(`{"removed":[]}`)
			return
		}
		c.Out.Output("Nothing to reset: there are no decisions.")
		return
	}
	ids := make([]string, len(all))
	for i, x := range all {
		ids[i] = x.ID
	}
	preview := "Reset would remove all " + text.Plural(len(all), "decision", "decisions") + " of this project (" +
		numstr.Itoa(d.st.Count(Active)) + " active). The log keeps their history."
	d.confirmThen(c, "Remove every decision?", preview, ids, "No, keep them", "Yes, remove every decision", func(out *store.Out) { d.removeAll(out, c.JSON, ids, "Reset") })
}

func (d *driver) cmdToggle(c *store.Cmd, on bool) {
	global, project := c.Args.Has("global"), c.Args.Has("project")
	if global == project {
		c.Out.Usage("Say where: /decision enable|disable --global (all projects) or --project (this one).")
		return
	}
	file := d.globalCfg
	if project {
		if !d.s.Trusted {
			c.Out.Fail("This project is not trusted, so pi-memory does not write its config. Trust it in pi first.")
			return
		}
		file = d.projCfg
	}
	if file == "" {
		c.Out.Fail("No config location is known for this session.")
		return
	}
	old, err := files.Read(d.h, file, files.MaxConfig)
	if err != nil && !isNotFound(err) {
		c.Out.Fail("Could not read " + file + ": " + err.Error())
		return
	}
	data, err := config.SetTopLevel(file, old, "enabled", strconv.FormatBool(on))
	if err != nil {
		c.Out.Fail(err.Error() + ". Nothing was written: fix the file by hand first.")
		return
	}
	if err := d.h.Mkdir(parentDir(file)); err != nil {
		c.Out.Fail("Could not create the folder of " + file + ": " + err.Error())
		return
	}
	if err := d.h.WriteAtomicOver(file, data, old); err != nil {
		c.Out.Fail("Could not write " + file + ": " + err.Error())
		return
	}
	d.readConfig()
	state := "enabled"
	if !d.cfg.Enabled {
		state = "disabled (by " + d.cfg.DisabledBy + ")"
	} else if d.s.Trusted {
		_ = d.refreshLog() // the footer says when it could not be read
	}
	if c.JSON {
		w := jsonw.Open(nil)
		w.Str("file", file)
		w.Bool("enabled", d.cfg.Enabled)
		w.Str("disabledBy", d.cfg.DisabledBy)
		c.Out.Output(string(w.Close()))
		return
	}
	word := "Disabled"
	if on {
		word = "Enabled"
	}
	c.Out.Output(word + " decision memory in " + file + ". It is now " + state + " for this project.")
}

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}

func isNotFound(err error) bool { return hostio.IsNotFound(err) }
