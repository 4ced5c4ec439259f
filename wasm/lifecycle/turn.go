package lifecycle

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/decision"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/tidwall/gjson"
)

// beforeAgentStart injects stable memory into the system prompt and holds the
// prompt's decision candidates until the run ends. Every store's section goes
// through one budgeter, in a fixed order: notes, then decisions.
func (e *Engine) beforeAgentStart(out *Out, in gjson.Result) {
	d := e.s.dec
	d.pending = nil
	decText := ""
	if d.inert() == "" {
		if err := d.refresh(); err != nil {
			out.Notify("error", "pi-memory: could not read "+d.log+": "+err.Error()+"; no decisions injected this turn.")
		} else {
			if d.cfg.AutoCapture && in.Get("messageType").String() != "custom" {
				d.pending = decision.Candidates(in.Get("prompt").String())
			}
			if !e.s.NoMemory {
				decText = d.section()
			}
		}
	}
	n := e.s.notes
	notesText := ""
	if !e.s.NoMemory {
		var problems []string
		notesText, problems = n.section()
		for _, p := range problems {
			out.Notify("warning", "pi-memory: "+p)
		}
	}
	text, receipts := budget.Assemble([]budget.Section{
		{Store: "notes", Text: notesText, Cap: n.capBytes()},
		{Store: "decisions", Text: decText, Cap: decision.MaxSectionChars * utf8.UTFMax},
	})
	n.injected(text, receipts)
	if text != "" {
		out.SystemPromptAppend(text)
	}
}

// agentEnd reviews the candidates held since before_agent_start: classify,
// deduplicate, then save with the person's consent (seed 000, auto-capture v2).
func (e *Engine) agentEnd(out *Out, in gjson.Result) {
	d := e.s.dec
	defer d.settle()
	pending := d.pending
	d.pending = nil
	if len(pending) == 0 || d.inert() != "" || !d.cfg.AutoCapture {
		return
	}
	stop := in.Get("stopReason").String()
	if in.Get("aborted").Bool() || stop == "error" || stop == "aborted" {
		return // a failed or cancelled run is no moment to ask
	}
	if err := d.usable(); err != nil {
		return
	}
	switch d.cfg.Classifier {
	case "llm", "hybrid":
		ask := make([]decision.Candidate, 0, len(pending))
		for _, c := range pending {
			if d.cfg.Classifier == "llm" || !c.Explicit && c.Score < d.cfg.Threshold {
				ask = append(ask, c)
			}
		}
		if len(ask) == 0 {
			d.review(out, d.byRule(pending))
			return
		}
		e.Complete(out, classifierSystem, classifierPrompt(ask), 400, func(out *Out, v gjson.Result) {
			if errText := v.Get("error").String(); errText != "" || !v.Get("text").Exists() {
				e.h.Log(2, "pi-memory: decision classifier failed ("+errText+"); falling back to the rule classifier")
				d.review(out, d.byRule(pending))
				return
			}
			d.review(out, d.byModel(pending, ask, v.Get("text").String()))
		})
	default:
		d.review(out, d.byRule(pending))
	}
}

// byRule keeps explicit candidates and those the rule classifier scores at or
// above the threshold.
func (d *decisions) byRule(cands []decision.Candidate) []decision.Candidate {
	var out []decision.Candidate
	for _, c := range cands {
		if c.Explicit || c.Score >= d.cfg.Threshold {
			out = append(out, c)
		}
	}
	return out
}

const classifierSystem = "You classify sentences a developer wrote to a coding agent. A decision is a chosen, actionable rule for the project that had alternatives (for example \"Use PostgreSQL for the primary database\", \"Never commit generated files\"). Tasks, questions, one-off instructions and plain facts are not decisions. Answer with JSON only: an array of objects {\"n\": <number>, \"decision\": true|false, \"confidence\": <0..1>}."

func classifierPrompt(cands []decision.Candidate) string {
	var b strings.Builder
	for i, c := range cands {
		text, _ := redact.String(c.Text) // never send a secret over the network
		b.WriteString(strconv.Itoa(i+1) + ". " + text + "\n")
	}
	return b.String()
}

// byModel applies the model's verdicts to the candidates it was asked about;
// the others (explicit or confident rule hits in hybrid mode) pass as they are.
// An unreadable answer falls back to the rule classifier.
func (d *decisions) byModel(all, asked []decision.Candidate, answer string) []decision.Candidate {
	start, end := strings.IndexByte(answer, '['), strings.LastIndexByte(answer, ']')
	if start < 0 || end < start || !gjson.Valid(answer[start:end+1]) {
		return d.byRule(all)
	}
	verdict := map[string]float64{}
	gjson.Parse(answer[start : end+1]).ForEach(func(_, v gjson.Result) bool {
		n := int(v.Get("n").Int())
		if n >= 1 && n <= len(asked) {
			conf := v.Get("confidence").Float()
			if !v.Get("decision").Bool() {
				conf = 0
			}
			verdict[asked[n-1].Text] = conf
		}
		return true
	})
	var out []decision.Candidate
	for _, c := range all {
		conf, wasAsked := verdict[c.Text]
		switch {
		case !wasAsked && d.cfg.Classifier == "llm":
			continue
		case !wasAsked:
			if c.Explicit || c.Score >= d.cfg.Threshold {
				out = append(out, c)
			}
		case conf >= d.cfg.Threshold:
			c.Score = conf
			out = append(out, c)
		}
	}
	return out
}

// review deduplicates the candidates against memory and each other, caps them
// at maxPerTurn, then saves them: directly when confirm is off, else one
// dialog at a time (pi has no multi-select). Without a UI nothing is guessed.
func (d *decisions) review(out *Out, cands []decision.Candidate) {
	var fresh []decision.Candidate
	for _, c := range cands {
		c.Text, _ = redact.String(c.Text)
		if dups, _ := d.st.Check(c.Text); len(dups) > 0 {
			continue
		}
		dup := false
		for _, f := range fresh {
			if decision.Normalize(f.Text) == decision.Normalize(c.Text) {
				dup = true
				break
			}
		}
		if !dup {
			fresh = append(fresh, c)
		}
		if len(fresh) == d.cfg.MaxPerTurn {
			break
		}
	}
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
		out.Notify("warning", "pi-memory: "+plural(len(fresh), "decision candidate was", "decision candidates were")+
			" not saved, because confirming needs a UI: "+quoteAll(fresh)+". Add it with /decision add, or set autoCapture.confirm to false.")
		return
	}
	d.reviewNext(out, fresh, 0)
}

func quoteAll(cs []decision.Candidate) string {
	q := make([]string, len(cs))
	for i, c := range cs {
		q[i] = strconv.Quote(c.Text)
	}
	return strings.Join(q, ", ")
}

const (
	optSave    = "Save"
	optSkip    = "Skip"
	optSaveAll = "Save this and all remaining"
	optSkipAll = "Skip all remaining"
)

func (d *decisions) reviewNext(out *Out, cands []decision.Candidate, i int) {
	if i >= len(cands) {
		return
	}
	c := cands[i]
	if len(cands) == 1 {
		d.e.Confirm(out, "Save as a project decision?", c.Text, func(out *Out, v gjson.Result) {
			if v.Type == gjson.True {
				d.refreshThen(out, func() { d.saveCandidate(out, c, true) })
			}
		})
		return
	}
	title := "Decision " + strconv.Itoa(i+1) + " of " + strconv.Itoa(len(cands)) + ": " + c.Text
	d.e.Select(out, title, []string{optSave, optSkip, optSaveAll, optSkipAll}, func(out *Out, v gjson.Result) {
		switch v.String() {
		case optSave:
			d.refreshThen(out, func() {
				if d.saveCandidate(out, c, true) {
					d.reviewNext(out, cands, i+1)
				}
			})
		case optSaveAll:
			d.refreshThen(out, func() {
				for _, rest := range cands[i:] {
					if !d.saveCandidate(out, rest, false) {
						break
					}
				}
			})
		case optSkip:
			d.reviewNext(out, cands, i+1)
		default: // skip all, or dismissed
		}
	})
}

// saveCandidate writes one confirmed candidate after deduplicating it again
// (memory may have changed during the review). A conflict with an active
// decision asks how to settle it when ask is set, else keeps both, marked.
// It reports false when it parked a dialog (the caller must stop).
func (d *decisions) saveCandidate(out *Out, c decision.Candidate, ask bool) bool {
	if dups, _ := d.st.Check(c.Text); len(dups) > 0 {
		out.Notify("info", "pi-memory: not saved, already recorded as "+dups[0].D.ID+": "+strconv.Quote(c.Text))
		return true
	}
	nd := newDraft{text: c.Text, source: "auto-capture", confidence: c.Score}
	_, conflicts := d.st.Check(c.Text)
	if len(conflicts) > 0 && ask && !out.Blocked() {
		m := conflicts[0]
		opts := []string{"Save and supersede " + m.D.ID, "Save and keep both (mark the conflict)", "Skip"}
		d.e.Select(out, strconv.Quote(c.Text)+" conflicts with "+m.D.ID+": "+oneLine(m.D.Short()), opts, func(out *Out, v gjson.Result) {
			switch v.String() {
			case opts[0]:
				d.askReason(out, m.D.ID, func(out *Out, reason string) {
					d.refreshThen(out, func() {
						if x := d.st.Get(m.D.ID); x != nil {
							nd.reason = reason
							d.supersede(out, x, nd)
						}
					})
				})
			case opts[1]:
				d.refreshThen(out, func() {
					nd.conflicts = []string{m.D.ID}
					d.add(out, nd)
				})
			}
		})
		return false
	}
	for _, m := range conflicts {
		nd.conflicts = append(nd.conflicts, m.D.ID)
	}
	d.add(out, nd)
	return out.Exit() == 0
}
