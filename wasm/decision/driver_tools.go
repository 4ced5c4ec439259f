package decision

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/errs"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// decision_propose (wasm/registry/tools_decision.go): the model proposes,
// the person decides (seed 000). With a UI one confirm dialog shows the
// proposal and the decision it replaces, and yes writes the same events as
// /decision add or supersede; without one nothing is written and the model
// is given the command to ask the person to run. Results are short and
// redacted: they go to the model.

const (
	toolPropose = "decision_propose"
	// toolList is for MCP clients (registry.MCP), which have no injected
	// block: pi's model has the active decisions in its system prompt.
	toolList = "decision_list"
)

// ActiveTools offers decision_propose while the store may be written.
func (d *driver) ActiveTools() []string {
	if d.env.May(d, store.Write) != "" {
		return nil
	}
	return []string{toolPropose}
}

// Tool runs decision_propose: a tool_result last, after at most one
// confirm dialog.
func (d *driver) Tool(out *store.Out, name string, params gjson.Result) {
	switch name {
	case toolList:
		d.toolList(out, params)
		return
	case toolPropose:
	default:
		out.ToolResult("pi-memory has no tool "+strconv.Quote(name)+".", true, nil)
		return
	}
	if why := d.env.May(d, store.Write); why != "" {
		out.ToolResult("Decision memory is not available: "+why, true, nil)
		return
	}
	p := proposal{
		Text:   strings.Join(strings.Fields(jsonr.Get(params, "text").String()), " "),
		Reason: strings.Join(strings.Fields(jsonr.Get(params, "reason").String()), " "),
	}
	ref := strings.TrimSpace(jsonr.Get(params, "supersedes").String())
	if p.Text == "" {
		out.ToolResult(toolPropose+" needs text: the decision, one sentence.", true, nil)
		return
	}
	for _, s := range []string{p.Text, p.Reason} {
		if _, kinds := redact.String(s); len(kinds) > 0 {
			out.ToolResult("Not proposed: it holds what looks like a secret ("+strings.Join(kinds, ", ")+"); decisions never hold secrets. Propose it without the secret.", true, nil)
			return
		}
		if why := marker.Check(s); why != "" {
			out.ToolResult("Not proposed: it holds "+why+"; decisions keep plain text. Propose it without that.", true, nil)
			return
		}
	}
	if err := d.usable(); err != nil {
		out.ToolResult("Not proposed: could not read "+d.log+": "+err.Error(), true, nil)
		return
	}
	var old *decision
	if ref != "" {
		id, err := d.st.find(ref, false)
		if err == nil {
			if old = d.st.Get(id); old == nil {
				err = &refError{msg: id + " is not a live decision (removed?); /decision list shows the live ones."}
			}
		}
		if err != nil {
			out.ToolResult("Not proposed: "+err.Error(), true, nil)
			return
		}
		if old.Status != Active && old.Status != draft {
			out.ToolResult("Not proposed: "+old.ID+" is "+old.Status.String()+"; only an active or draft decision can be superseded.", true, nil)
			return
		}
		if p.Reason == "" {
			out.ToolResult("Not proposed: superseding "+old.ID+" needs a reason; call "+toolPropose+" again with reason.", true, nil)
			return
		}
	}
	if repeats(d.declined, p.Text) {
		out.ToolResult("Not proposed: the user declined this decision earlier in this session. Do not propose it again unless they ask.", false, nil)
		return
	}
	if why := d.checkProposal(p, old); why != "" {
		out.ToolResult(why, false, nil)
		return
	}
	oldID := ""
	if old != nil {
		oldID = old.ID
	}
	if !d.s.HasUI {
		cmd := proposeCommand(oneLine(p.Text), oneLine(p.Reason), oldID)
		if d.s.Mode == "mcp" {
			// An MCP client that cannot ask (no elicitation): the person
			// records it with pimem, in the project's folder.
			cmd = shellCommand(oneLine(p.Text), oneLine(p.Reason), oldID)
		}
		out.ToolResult("Not recorded: decisions come from the user, and this session cannot ask them. Ask the user to run:\n"+cmd, false, nil)
		return
	}
	out.Confirm("Record a decision?", proposalMessage(p, old), func(out *store.Out, v gjson.Result) {
		if v.Type != gjson.True {
			d.declined = decline(d.declined, p.Text)
			out.ToolResult("The user declined; nothing was written. Do not propose it again unless they ask.", false, nil)
			return
		}
		d.recordProposal(out, p, oldID)
	})
}

// checkProposal is /decision add's duplicate and conflict check, answered
// for the model rather than in a dialog (the tool asks once, to confirm):
// "" when the proposal may be put to the person.
func (d *driver) checkProposal(p proposal, old *decision) string {
	var except []string
	if old != nil {
		except = []string{old.ID}
	}
	dups, conflicts := d.st.Check(p.Text, except...)
	if len(dups) > 0 {
		m := dups[0]
		return "Not proposed: it is already recorded as " + m.D.ID + " (" + likeness(m, p.Text) + "): " + strconv.Quote(oneLine(m.D.Short())) + "."
	}
	if len(conflicts) > 0 {
		m := conflicts[0]
		return "Not proposed: it conflicts with " + m.D.ID + " (" + m.Reason + "): " + strconv.Quote(oneLine(m.D.Short())) +
			". If the user wants it to replace " + m.D.ID + ", call " + toolPropose + " again with supersedes " + m.D.ID + " and their reason; otherwise ask them."
	}
	return ""
}

// recordProposal writes the confirmed proposal, checked against the log as
// it is now, and ends the tool with what was written.
func (d *driver) recordProposal(out *store.Out, p proposal, oldID string) {
	if err := d.usable(); err != nil {
		out.ToolResult("Not recorded: could not read "+d.log+": "+err.Error(), true, nil)
		return
	}
	events, err := d.write(func(st *state, now int64) ([]Event, error) {
		// Checked again against the log as it is now: another call, or
		// another process, may have recorded it while the person was asked.
		if dups, _ := st.Check(p.Text, oldID); len(dups) > 0 {
			return nil, &refError{msg: "it was recorded meanwhile, as " + dups[0].D.ID}
		}
		if oldID != "" {
			return st.Supersede(oldID, p, now)
		}
		return st.Add(p, now), nil
	})
	if err != nil {
		msg := err.Error()
		if in, ok := errs.As[*errInert](err); ok {
			msg = in.msg
		}
		out.ToolResult("Not recorded: "+msg+".", true, nil)
		return
	}
	said := "Recorded " + events[0].ID + ": " + oneLine(p.Text)
	if oldID != "" {
		said += " (supersedes " + oldID + ")"
	}
	out.ToolResult(said+".", false, nil)
}

// toolList is /decision list for a client: the decisions of a status
// (active unless given; "all" for every one), newest first, conflicts
// marked, at most limit (listLimit unless given), redacted.
func (d *driver) toolList(out *store.Out, params gjson.Result) {
	if why := d.env.May(d, store.Read); why != "" {
		out.ToolResult("Decision memory is not available: "+why, true, nil)
		return
	}
	if err := d.usable(); err != nil {
		out.ToolResult("Could not read "+d.log+": "+err.Error(), true, nil)
		return
	}
	status := jsonr.Get(params, "status").Str
	list, title, ok := d.listing(status == "all", status)
	if !ok {
		out.ToolResult(toolList+": status must be active, draft, rejected, superseded or all.", true, nil)
		return
	}
	limit := listLimit
	if n := jsonr.Get(params, "limit").Int(); n > 0 {
		limit = int(n)
	}
	text, _ := redact.String(strings.Replace(listText(list, title, limit), moreHint, "call "+toolList+" with a larger limit (at most 200)", 1))
	out.ToolResult(text, false, nil)
}
