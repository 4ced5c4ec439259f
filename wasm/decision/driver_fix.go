package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// /decision doctor --fix gives the decisions a union merge left under one id
// ids of their own (planRepair; docs/decisions/008). It is the one
// command that rewrites the log rather than appending to it, so it takes the
// log lock, replaces the file atomically (temp + rename) and keeps every bad
// line. Without --yes it previews (pimem, pi without a UI) or asks (pi).

// maxLogRewrite bounds the log a repair holds in memory.
const maxLogRewrite = 256 << 20

func (d *driver) fix(c *store.Cmd, rep report, fix *repair) {
	if fix == nil || !fix.Needed() {
		rep.Fix = &repair{}
		d.report(c.Out, c.JSON, rep, "Nothing for --fix to do: no two decisions share an id.\n")
		return
	}
	if why := d.env.May(d, store.Write); why != "" {
		c.Out.Fail("Not written: " + why)
		return
	}
	if c.Args.Has("yes") {
		d.applyFix(c.Out, c.JSON, nil)
		return
	}
	if !c.HasUI {
		rep.Fix = fix
		d.report(c.Out, c.JSON, rep, fix.Text(false)+"\nNothing was written. Re-run with --yes to do it.\n\n")
		return
	}
	title := "Give " + text.Plural(len(fix.Renumbered), "decision", "decisions") + " new ids in " + decisionLogName + "?"
	c.Out.Confirm(title, fix.Text(false), func(out *store.Out, v gjson.Result) {
		if v.Type != gjson.True {
			out.Output("Cancelled; nothing was written.")
			return
		}
		d.caughtUp(out, func() { d.applyFix(out, c.JSON, fix) })
	})
}

// applyFix repairs the log as it is under the lock. shown is the repair the
// person agreed to: if the log changed since so that the repair would differ,
// nothing is written and they are told.
func (d *driver) applyFix(out *store.Out, asJSON bool, shown *repair) {
	if err := files.Lock(d.h, d.lock); err != nil {
		failWrite(out, err)
		return
	}
	defer d.h.Unlock(d.lock)
	if err := d.usable(); err != nil {
		failWrite(out, err)
		return
	}
	data, err := files.Read(d.h, d.log, maxLogRewrite)
	if err != nil {
		failWrite(out, err)
		return
	}
	plan := planRepair(data)
	if shown != nil && plan.Text(false) != shown.Text(false) {
		out.Fail("Not written: " + d.log + " changed while you answered, and so did what --fix would do. Run /decision doctor --fix again.")
		return
	}
	if !plan.Needed() {
		out.Output("Nothing for --fix to do any more: no two decisions share an id.")
		return
	}
	if err := d.h.WriteAtomicOver(d.log, plan.Out, data); err != nil {
		failWrite(out, err)
		return
	}
	if err := d.load(); err != nil {
		out.Fail("Repaired " + d.log + ", but could not read it back: " + err.Error())
		return
	}
	rep, _ := d.diagnose()
	rep.Fix, rep.Fixed = &plan, true
	d.report(out, asJSON, rep, plan.Text(true)+"\n\n")
}
