package lifecycle

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/decision"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/jsonw"
)

func isNotFound(err error) bool { return hostio.IsNotFound(err) }

// appendDecisionJSON writes a decision in its readable runtime shape.
func appendDecisionJSON(b []byte, x *decision.Decision) []byte {
	w := jsonw.Open(b)
	w.Str("id", x.ID)
	w.Str("status", x.Status.String())
	w.Str("title", x.Title)
	w.Str("text", x.Text)
	w.Strs("tags", nonNil(x.Tags))
	w.Str("reason", x.Reason)
	if x.Supersedes == "" {
		w.Null("supersedes")
	} else {
		w.Str("supersedes", x.Supersedes)
	}
	if x.SupersededBy != "" {
		w.Str("supersededBy", x.SupersededBy)
	}
	w.Strs("conflictsWith", nonNil(x.Conflicts))
	if x.ConflictNote != "" {
		w.Str("conflictNote", x.ConflictNote)
	}
	w.Str("projectId", x.ProjectID)
	w.Str("createdAt", x.Created())
	w.Str("updatedAt", x.Updated())
	if x.CreatedBy != "" {
		w.Str("createdBy", x.CreatedBy)
	}
	if x.Source != "" {
		w.Str("source", x.Source)
	}
	if x.HasConf {
		w.Float("confidence", x.Confidence)
	}
	if x.Category != "" {
		w.Str("category", x.Category)
	}
	return w.Close()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (d *decisions) statusJSON(why string) []byte {
	w := jsonw.Open(nil)
	w.Bool("enabled", why == "")
	if why != "" {
		w.Str("reason", why)
	}
	w.Str("projectRoot", d.s.ProjectRoot)
	w.Str("projectId", d.s.ProjectHash)
	w.Str("log", d.log)
	w.Str("globalConfig", d.globalCfg)
	w.Bool("globalConfigPresent", d.cfg.GlobalPresent)
	w.Str("projectConfig", d.projCfg)
	w.Bool("projectConfigPresent", d.cfg.ProjectPresent)
	if why == "" {
		w.Int("lines", int64(d.st.Lines))
		w.Int("bytes", d.cur.Offset)
		counts := jsonw.Open(nil)
		for st := decision.Active; st <= decision.Superseded; st++ {
			counts.Int(st.String(), int64(d.st.Count(st)))
		}
		w.Raw("counts", counts.Close())
		w.Int("injectedChars", int64(len([]rune(d.section()))))
		w.Int("maxDecisions", int64(d.cfg.MaxDecisions))
		w.Int("problems", int64(d.lineFindings()))
		if d.snap != "" {
			w.Str("snapshot", d.snap)
			w.Str("snapshotNote", d.snapNote)
		}
	}
	return w.Close()
}

// doctorPairLimit bounds the pairwise duplicate/conflict scan among active
// decisions; beyond it doctor says it skipped the scan rather than stall.
const doctorPairLimit = 3000

func (d *decisions) cmdDoctor(c *cmdCtx) {
	type finding struct {
		line int
		kind string
		id   string
		msg  string
	}
	var fs []finding
	for _, p := range d.st.Problems {
		fs = append(fs, finding{p.Line, p.Kind.String(), p.ID, p.Msg})
	}
	if line, text := d.tornTail(); text != "" {
		fs = append(fs, finding{line, "torn", "", "last line is cut short (a crash mid-write?): " + strconv.Quote(cutText(text, 80)) +
			"; it stays on disk and the next write starts on a new line"})
	}
	// Dangling references.
	active := d.st.WithStatus(decision.Active).All()
	for _, x := range d.st.All().All() {
		if x.Supersedes != "" && d.st.Get(x.Supersedes) == nil && !d.st.WasRemoved(x.Supersedes) {
			fs = append(fs, finding{x.AddLine, "dangling", x.ID, x.ID + " supersedes " + x.Supersedes + ", which was never added"})
		}
		for _, o := range x.Conflicts {
			if d.st.Get(o) == nil {
				fs = append(fs, finding{x.LastLine, "dangling", x.ID, x.ID + " is marked as conflicting with " + o + ", which does not exist (any more)"})
			}
		}
	}
	// Near-duplicates and conflicts among active decisions.
	var pairs []string
	scanned := len(active) <= doctorPairLimit
	if scanned {
		for i, a := range active {
			dups, conflicts := d.st.Check(a.Short(), a.ID)
			for _, m := range dups {
				if indexOf(active[:i], m.D) < 0 {
					continue // each pair once: the partner must come earlier in the list
				}
				pairs = append(pairs, "duplicate: "+a.ID+" ≈ "+m.D.ID+" ("+similarity(m, a.Short())+")")
			}
			for _, m := range conflicts {
				if indexOf(active[:i], m.D) < 0 || contains(a.Conflicts, m.D.ID) {
					continue
				}
				pairs = append(pairs, "conflict: "+a.ID+" ↔ "+m.D.ID+" ("+m.Reason+")")
			}
		}
	}
	if c.json {
		w := jsonw.Open(nil)
		w.Str("log", d.log)
		w.Int("lines", int64(d.st.Lines))
		w.Int("events", int64(d.st.Events))
		b := append(w.B, `,"problems":[`...)
		for i, f := range fs {
			if i > 0 {
				b = append(b, ',')
			}
			o := jsonw.Open(b)
			o.Int("line", int64(f.line))
			o.Str("kind", f.kind)
			o.Str("id", f.id)
			o.Str("message", f.msg)
			b = o.Close()
		}
		b = append(b, ']')
		w.B = b
		w.Strs("activePairs", nonNil(pairs))
		w.Bool("pairsScanned", scanned)
		c.out.Output(string(w.Close()))
		return
	}
	var sb strings.Builder
	sb.WriteString("Doctor: " + d.log + " — " + plural(d.st.Lines, "line", "lines") + ", " + plural(d.st.Events, "event", "events") + " applied, " +
		plural(d.st.Len(), "decision", "decisions") + " live.")
	if len(fs) == 0 && len(pairs) == 0 {
		sb.WriteString("\nNo problems found.")
	}
	for _, f := range fs {
		sb.WriteString("\nline " + strconv.Itoa(f.line) + ": " + f.kind + " — " + f.msg)
	}
	for _, p := range pairs {
		sb.WriteString("\n" + p)
	}
	if !scanned {
		sb.WriteString("\n(" + strconv.Itoa(len(active)) + " active decisions: the pairwise duplicate/conflict scan is skipped above " + strconv.Itoa(doctorPairLimit) + ")")
	}
	if len(fs) > 0 {
		sb.WriteString("\nBad lines are kept on disk untouched and skipped on replay; fix or delete them by hand if you wish.")
	}
	c.out.Output(sb.String())
}

// tornTail returns the unterminated bytes at the end of the log that replay
// left alone (a crash mid-write), with their line number; "" when none.
func (d *decisions) tornTail() (int, string) {
	info, err := d.h.Stat(d.log)
	if err != nil || info.Size <= d.cur.Offset {
		return 0, ""
	}
	line, text, err := decision.TornTail(d.readAt, d.cur, info.Size)
	if err != nil || strings.TrimSpace(text) == "" {
		return 0, ""
	}
	return line, text
}

// lineFindings counts what doctor lists line by line: replay problems and a
// torn tail.
func (d *decisions) lineFindings() int {
	n := len(d.st.Problems)
	if _, text := d.tornTail(); text != "" {
		n++
	}
	return n
}

func indexOf(list []*decision.Decision, x *decision.Decision) int {
	for i, y := range list {
		if y.ID == x.ID {
			return i
		}
	}
	return -1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func cutText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
