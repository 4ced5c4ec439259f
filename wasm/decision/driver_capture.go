package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// Auto-capture: the prompt's candidates are held from
// before_agent_start until the run ends, then classified, deduplicated,
// capped and offered one dialog at a time. The rules (what is a candidate,
// the classifiers, the model's answer) are pure (capture.go, classify.go);
// this file runs the model call and the dialogs.

// Kept is what the person declined this session, for a restarted core.
func (d *driver) Kept() []byte {
	if len(d.declined) == 0 {
		return nil
	}
	return jsonw.Array(nil, len(d.declined), func(b []byte, i int) []byte { return jsonw.String(b, d.declined[i]) })
}

// TakeBack takes back what Kept wrote.
func (d *driver) TakeBack(v gjson.Result) {
	d.declined = nil
	v.ForEach(func(_, t gjson.Result) bool {
		if t.Type == gjson.String {
			d.declined = decline(d.declined, t.Str)
		}
		return true
	})
}

// capture reviews the candidates held since before_agent_start.
func (d *driver) capture(out *store.Out, pending []candidate) {
	if len(pending) == 0 || !d.cfg.AutoCapture || d.env.May(d, store.Capture) != "" {
		return
	}
	if err := d.usable(); err != nil {
		return
	}
	ask := d.cfg.ToAsk(pending)
	if len(ask) == 0 {
		d.review(out, d.cfg.ByRule(pending))
		return
	}
	out.Complete(classifierSystem, classifierPrompt(ask), 400, func(out *store.Out, v gjson.Result) {
		verdicts, ok := verdictsOf(v, len(ask))
		if !ok {
			d.h.Log(2, "the decision classifier gave no usable answer ("+jsonr.Get(v, "error").String()+"); falling back to the rule classifier")
			d.review(out, d.cfg.ByRule(pending))
			return
		}
		d.review(out, d.cfg.ByModel(pending, ask, verdicts))
	})
}

// review saves the fresh candidates: directly when confirm is off, else one
// dialog at a time (pi has no multi-select). Without a UI nothing is
// guessed: the candidates are named in a notice.
func (d *driver) review(out *store.Out, cands []candidate) {
	fresh := d.st.Fresh(cands, d.cfg.MaxPerTurn, d.declined)
	if len(fresh) == 0 {
		return
	}
	if !d.cfg.Confirm {
		for _, c := range fresh {
			d.saveCandidate(out, c, false)
		}
		return
	}
	if !d.s.HasUI {
		out.Notify("warning", "pi-memory: "+unsavedNotice(fresh))
		return
	}
	d.reviewNext(out, fresh, 0)
}

const (
	optSave    = "Save"
	optSkip    = "Skip"
	optSaveAll = "Save this and all remaining"
	optSkipAll = "Skip all remaining"
)

func (d *driver) reviewNext(out *store.Out, cands []candidate, i int) {
	if i >= len(cands) {
		return
	}
	c := cands[i]
	if len(cands) == 1 {
		out.Confirm("Save as a project decision?", c.Text, func(out *store.Out, v gjson.Result) {
			if v.Type == gjson.True {
				d.caughtUp(out, func() { d.saveCandidate(out, c, true) })
			} else {
				d.declined = decline(d.declined, c.Text)
			}
		})
		return
	}
	title := "Decision " + numstr.Itoa(i+1) + " of " + numstr.Itoa(len(cands)) + ": " + c.Text
	out.Select(title, []string{optSave, optSkip, optSaveAll, optSkipAll}, func(out *store.Out, v gjson.Result) {
		switch v.String() {
		case optSave:
			d.caughtUp(out, func() {
				if d.saveCandidate(out, c, true) {
					d.reviewNext(out, cands, i+1)
				}
			})
		case optSaveAll:
			d.caughtUp(out, func() {
				for _, rest := range cands[i:] {
					if !d.saveCandidate(out, rest, false) {
						break
					}
				}
			})
		case optSkip:
			d.declined = decline(d.declined, c.Text)
			d.reviewNext(out, cands, i+1)
		default: // skip all, or dismissed
			for _, rest := range cands[i:] {
				d.declined = decline(d.declined, rest.Text)
			}
		}
	})
}

// saveCandidate writes one confirmed candidate after deduplicating it again
// (memory may have changed during the review). A conflict with an active
// decision asks how to settle it when ask is set, else keeps both, marked.
// It reports false when it parked a dialog or failed (the caller stops).
func (d *driver) saveCandidate(out *store.Out, c candidate, ask bool) bool {
	dups, conflicts := d.st.Check(c.Text)
	if len(dups) > 0 {
		out.Notify("info", "pi-memory: not saved, already recorded as "+dups[0].D.ID+": "+strconv.Quote(c.Text))
		return true
	}
	p := proposal{Text: c.Text, Source: "auto-capture", Confidence: c.Score}
	if len(conflicts) > 0 && ask && !out.Blocked() {
		d.askConflict(out, false, conflicts[0], p, "Skip")
		return false
	}
	for _, m := range conflicts {
		p.Conflicts = append(p.Conflicts, m.D.ID)
	}
	d.add(out, false, p, func(out *store.Out, id string) {
		out.Notify("info", "pi-memory: not saved, already recorded as "+id+": "+strconv.Quote(c.Text))
	})
	return out.Exit() == 0
}
