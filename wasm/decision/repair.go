package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Repairing a log that a union merge (git's merge=union, or a person
// keeping both sides of a conflict) left with two decisions under one id:
// replay keeps the first add and ignores the second, so the second branch's
// decision is silently missing. The repair is doctor --fix; its rule is in
// docs/decisions/008-merging-decision-logs.md.

// reference is one line that names a colliding id after its second add,
// and the decision the repair gives it to.
type reference struct {
	Line int
	Kind string // the event's readable name (decision.edit)
	ID   string // the id as written
	To   string // the id it names after the repair (ID: the first decision keeps it)
	How  string // why it went there
	Sure bool   // false when only its place in the file decided
}

// repair is what --fix does to a log: the adds that get new ids, the lines
// that follow them, and the new bytes of the log.
type repair struct {
	Out        []byte
	Renumbered []renumbering // Line: the add that got the new id; First: the add that keeps it
	References []reference
	Rewritten  int // lines that changed bytes (only their ids did)
}

// Needed reports whether the log has ids to renumber.
func (r *repair) Needed() bool { return len(r.Renumbered) > 0 }

// Unsure counts the references only their place in the file gave away.
func (r *repair) Unsure() int {
	n := 0
	for _, ref := range r.References {
		if !ref.Sure {
			n++
		}
	}
	return n
}

// inst is one decision added under an id: the first, or a later add of the
// same id with a different text while the first still lives (a collision).
type inst struct {
	at          int // index of its add in the log's lines
	t           int64
	project     string
	title, text string
	newID       string
}

// idGen is the decisions an id names from an add until its remove.
type idGen struct {
	insts []*inst
	live  bool // the first is not removed
}

// planRepair finds the decisions that share an id with an earlier one and
// returns the log with each of them (the later add, and every line the rule
// gives to it) under the next free number of its day, in the time order of
// those adds. A later add with the same text as the first is a plain
// duplicate and stays as it is.
//
// Which decision a line after the second add means:
//   - a line before the second add (in the file) means the first;
//   - a line older than the latest add before it means the latest add it is
//     not older than ("time"); older than every add: the first keeps it, and
//     the repair cannot tell;
//   - a line younger than one add only means that one ("time");
//   - a line of the same write as an add (same time, no other line between)
//     means that add's decision ("same write");
//   - a line whose project id ("p", the hash of the checkout's path) matches
//     exactly one add's, when the adds' differ, means that one ("project id");
//   - otherwise the latest add before it in the file ("position"): right for
//     a union merge, which puts theirs' lines after ours, and not sure.
//
// Every other line, bad ones included, is kept byte for byte.
func planRepair(log []byte) repair {
	lines, bom := splitLog(log)
	gens := map[string]*idGen{}
	type ref struct {
		at    int
		id    string
		g     *idGen
		k     int
		how   string
		sure  bool
		isAdd bool // the add of instance k itself
	}
	var refs []ref
	var all []*inst
	for i := range lines {
		l := &lines[i]
		if !l.ok {
			continue
		}
		ev := &l.ev
		own := -1 // the instance this line adds, if any
		if ev.Code == Add {
			g := gens[ev.ID]
			switch {
			case g == nil || !g.live:
				gens[ev.ID] = &idGen{live: true, insts: []*inst{newInst(i, ev)}}
				own = 0
			default:
				// The same add again (a repeated line) belongs to the
				// decision it repeats; another text is another decision.
				for j, in := range g.insts {
					if ev.Data.Text == in.text && ev.Data.Title == in.title {
						own = j
						break
					}
				}
				if own < 0 {
					in := newInst(i, ev)
					g.insts = append(g.insts, in)
					all = append(all, in)
					own = len(g.insts) - 1
				}
				if own > 0 {
					refs = append(refs, ref{at: i, id: ev.ID, g: g, k: own, isAdd: true})
				}
			}
		}
		ev.refs(func(id string) {
			if own >= 0 && id == ev.ID {
				return
			}
			g := gens[id]
			if g == nil {
				return
			}
			if len(g.insts) < 2 {
				if ev.Code == Remove && id == ev.ID {
					g.live = false
				}
				return
			}
			k, how, sure := g.attribute(lines, i)
			refs = append(refs, ref{at: i, id: id, g: g, k: k, how: how, sure: sure})
			if ev.Code == Remove && id == ev.ID && k == 0 {
				g.live = false
			}
		})
	}
	var rep repair
	if len(all) == 0 {
		rep.Out = log
		return rep
	}
	sortBy(len(all), func(i, j int) bool { return all[i].t < all[j].t || all[i].t == all[j].t && all[i].at < all[j].at }, func(i, j int) { all[i], all[j] = all[j], all[i] })
	used := newIDsInUse()
	used.noteLines(lines)
	firstOf := map[*inst]int{}
	for _, g := range gens {
		for _, in := range g.insts[1:] {
			firstOf[in] = lines[g.insts[0].at].num
		}
	}
	for _, in := range all {
		l := &lines[in.at]
		in.newID = used.next(l.ev.ID)
		rep.Renumbered = append(rep.Renumbered, renumbering{Old: l.ev.ID, New: in.newID, Line: l.num, First: firstOf[in], Text: short(in.title, in.text)})
	}
	// What each line's ids become.
	to := map[int]map[string]string{}
	for _, r := range refs {
		l := &lines[r.at]
		dest := r.id
		if r.k > 0 {
			dest = r.g.insts[r.k].newID
			if to[r.at] == nil {
				to[r.at] = map[string]string{}
			}
			to[r.at][r.id] = dest
		}
		if !r.isAdd {
			rep.References = append(rep.References, reference{Line: l.num, Kind: l.ev.Code.longName(), ID: r.id, To: dest, How: r.how, Sure: r.sure})
		}
	}
	var out []byte
	if bom {
		out = append(out, 0xEF, 0xBB, 0xBF)
	}
	for i := range lines {
		l := &lines[i]
		raw := l.raw
		if m := to[i]; m != nil {
			if b, changed := rewriteIDs(raw, func(id string) (string, bool) { n, ok := m[id]; return n, ok }); changed {
				raw = b
				rep.Rewritten++
			}
		}
		out = append(out, raw...)
		if l.nl {
			out = append(out, '\n')
		}
	}
	rep.Out = out
	return rep
}

func newInst(i int, ev *Event) *inst {
	return &inst{at: i, t: ev.TimeMs, project: ev.Project, title: ev.Data.Title, text: ev.Data.Text}
}

// attribute says which of the id's decisions the line at i means (see
// planRepair), why, and whether that is sure.
func (g *idGen) attribute(lines []logLine, i int) (k int, how string, sure bool) {
	t := lines[i].ev.TimeMs
	last := -1
	for j, in := range g.insts {
		if in.at < i {
			last = j
		}
	}
	if last <= 0 {
		return 0, "before the second add", true
	}
	if t != 0 && t < g.insts[last].t {
		for j := last - 1; j >= 0; j-- {
			if g.insts[j].t <= t {
				return j, "time", true
			}
		}
		return 0, "older than every add: left with the first", false
	}
	var eligible []int
	for j := 0; j <= last; j++ {
		if t == 0 || g.insts[j].t <= t {
			eligible = append(eligible, j)
		}
	}
	if len(eligible) == 1 {
		return eligible[0], "time", true
	}
	if t != 0 && t == g.insts[last].t && sameWrite(lines, g.insts[last].at, i) {
		return last, "same write as its add", true
	}
	match, n, differ := -1, 0, false
	for _, j := range eligible {
		if g.insts[j].project != g.insts[eligible[0]].project {
			differ = true
		}
		if g.insts[j].project == lines[i].ev.Project {
			match, n = j, n+1
		}
	}
	if differ && n == 1 {
		return match, "project id", true
	}
	return last, "position", false
}

// sameWrite reports whether lines from..to are one append: events all
// written at the same time, nothing else between them.
func sameWrite(lines []logLine, from, to int) bool {
	t := lines[from].ev.TimeMs
	for i := from + 1; i <= to; i++ {
		if !lines[i].ok || lines[i].ev.TimeMs != t {
			return false
		}
	}
	return true
}

// Text is the repair as --fix shows it: each renumbered decision, then each
// line after a second add with the decision it went to and why. written says
// whether it is done or a preview.
func (r *repair) Text(written bool) string {
	var sb text.Builder
	verb := "would give"
	if written {
		verb = "gave"
	}
	sb.WriteString("--fix " + verb + " " + text.Plural(len(r.Renumbered), "decision", "decisions") + " a new id (two branches had added them under one id):")
	for _, n := range r.Renumbered {
		sb.WriteString("\nline " + numstr.Itoa(n.Line) + ": " + n.Old + " → " + n.New + " " + strconv.Quote(oneLine(n.Text)) + " (line " + numstr.Itoa(n.First) + " keeps " + n.Old + ")")
	}
	for _, ref := range r.References {
		sb.WriteString("\nline " + numstr.Itoa(ref.Line) + ": " + ref.Kind + " of " + ref.ID + " → " + ref.To + " (" + ref.How + ")")
		if !ref.Sure {
			sb.WriteString(" — cannot tell for certain")
		}
	}
	switch n := r.Unsure(); {
	case n == 1:
		sb.WriteString("\nOnly its place in the file placed 1 line; check it with /decision show.")
	case n > 1:
		sb.WriteString("\nOnly their place in the file placed " + numstr.Itoa(n) + " lines; check them with /decision show.")
	}
	sb.WriteString("\nOnly the ids in " + text.Plural(r.Rewritten, "line", "lines") + " change; every other line, bad ones included, stays byte for byte.")
	return sb.String()
}

// AppendJSON writes the repair as doctor --fix --json prints it.
func (r *repair) AppendJSON(b []byte, written bool) []byte {
	w := jsonw.Open(b)
	w.Bool("written", written)
	w.Raw("renumbered", jsonw.Array(nil, len(r.Renumbered), func(b []byte, i int) []byte {
		n := &r.Renumbered[i]
		o := jsonw.Open(b)
		o.Int("line", int64(n.Line))
		o.Str("id", n.Old)
		o.Str("newId", n.New)
		o.Int("keptAt", int64(n.First))
		o.Str("text", n.Text)
		return o.Close()
	}))
	w.Raw("references", jsonw.Array(nil, len(r.References), func(b []byte, i int) []byte {
		ref := &r.References[i]
		o := jsonw.Open(b)
		o.Int("line", int64(ref.Line))
		o.Str("event", ref.Kind)
		o.Str("id", ref.ID)
		o.Str("to", ref.To)
		o.Str("how", ref.How)
		o.Bool("sure", ref.Sure)
		return o.Close()
	}))
	w.Int("linesRewritten", int64(r.Rewritten))
	return w.Close()
}
