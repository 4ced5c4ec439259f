package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"slices"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonl"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// finding is one problem doctor reports about one line of the log.
type finding struct {
	Line int
	Kind string // a problemKind's name, "torn" or "dangling"
	ID   string
	Msg  string
}

// report is what doctor found: bad lines, dangling references, the
// conflicts marked and not yet resolved, and the near-duplicate and
// conflicting pairs among active decisions not marked.
type report struct {
	Lines, Events, Live int
	Findings            []finding
	Pairs               []string
	PairsScanned        bool // false when there were too many active decisions to compare pairwise
	Active              int
	// Fix is what doctor --fix did (Fixed) or would do to the log; nil
	// without --fix.
	Fix   *repair
	Fixed bool
}

// tornFinding is doctor's finding about the unterminated bytes at the end of
// the log (text, on line line): quoted, redacted and cut at 80 characters.
func tornFinding(line int, torn string) finding {
	torn, _ = redact.String(torn)
	return finding{Line: line, Kind: "torn", Msg: "last line is cut short (a crash mid-write?): " + strconv.Quote(text.Runes(torn, 80)) +
		"; it stays on disk and the next write starts on a new line"}
}

// circles are the circles a link of the decisions makes (each decision
// has at most one: what it supersedes, or what superseded it), a log edited
// by hand or merged: one finding each, named by its least id, in one walk
// of the links (a decision on a path walked before is not walked again, and
// only decisions with a link are kept: a map of every id of a large log is
// what TinyGo's collector is slowest at, decision 003).
func (s *state) circles(all []*decision, link func(x *decision) string, self, circle string) []finding {
	const onPath, walked = 1, 2
	seen := map[string]uint8{}
	var out []finding
	var path []string
	for _, x := range all {
		if link(x) == "" || seen[x.ID] != 0 {
			continue
		}
		path = path[:0]
		for id := x.ID; ; {
			if st := seen[id]; st == walked {
				break
			} else if st == onPath {
				out = append(out, s.circleFinding(path[slices.Index(path, id):], self, circle))
				break
			}
			y := s.Get(id)
			if y == nil || link(y) == "" {
				break
			}
			seen[id] = onPath
			path = append(path, id)
			id = link(y)
		}
		for _, id := range path {
			seen[id] = walked
		}
	}
	return out
}

// circleFinding names the circle ring (ids in link order) from its least id.
func (s *state) circleFinding(ring []string, self, circle string) finding {
	least := slices.Min(ring)
	line := s.Get(least).AddLine
	if len(ring) == 1 {
		return finding{line, "dangling", least, least + " " + self}
	}
	i := slices.Index(ring, least)
	ordered := append(slices.Clone(ring[i:]), ring[:i]...)
	said := strings.Join(ordered[:min(len(ordered), 5)], " → ")
	if len(ordered) > 5 {
		said += " → … (" + strconv.Itoa(len(ordered)) + " decisions)"
	}
	return finding{line, "dangling", least, least + " " + circle + ": " + said + " → " + least}
}

// doctorPairLimit bounds the pairwise duplicate/conflict scan among active
// decisions; beyond it doctor says it skipped the scan rather than stall.
const doctorPairLimit = 3000

// Diagnose checks the state as replayed: the replay's problems, what the
// caller found in the file itself (a torn tail, lines holding secrets),
// references to decisions that do not exist, and near-duplicate or
// conflicting active pairs not yet marked. Findings come in line order.
func (s *state) Diagnose(found ...finding) report {
	rep := report{Lines: s.Lines, Events: s.Events, Live: s.Len()}
	for _, p := range s.Problems {
		rep.Findings = append(rep.Findings, finding{p.Line, p.Kind.String(), p.ID, p.Msg})
	}
	rep.Findings = append(rep.Findings, found...)
	active := s.WithStatus(Active).All()
	rep.Active = len(active)
	all := s.All().All()
	rep.Findings = append(rep.Findings, s.circles(all, func(x *decision) string { return x.Supersedes }, "supersedes itself", "is superseded in a circle")...)
	rep.Findings = append(rep.Findings, s.circles(all, func(x *decision) string { return x.SupersededBy }, "is marked as superseded by itself", "is marked as superseded in a circle")...)
	for _, x := range all {
		if x.Supersedes != "" && s.Get(x.Supersedes) == nil && !s.WasRemoved(x.Supersedes) {
			rep.Findings = append(rep.Findings, finding{x.AddLine, "dangling", x.ID, x.ID + " supersedes " + x.Supersedes + ", which was never added"})
		}
		for _, o := range x.Conflicts {
			if o == x.ID {
				rep.Findings = append(rep.Findings, finding{x.LastLine, "dangling", x.ID, x.ID + " is marked as conflicting with itself"})
				continue
			}
			if s.Get(o) == nil {
				rep.Findings = append(rep.Findings, finding{x.LastLine, "dangling", x.ID, x.ID + " is marked as conflicting with " + o + ", which does not exist (any more)"})
			}
		}
	}
	// A finding names what the log holds, which a hand edit or a merge may
	// make a secret: doctor says the line holds one, never what it is.
	for i := range rep.Findings {
		f := &rep.Findings[i]
		f.ID, _ = redact.String(f.ID)
		f.Msg, _ = redact.String(f.Msg)
	}
	for i := 1; i < len(rep.Findings); i++ {
		for j := i; j > 0 && rep.Findings[j].Line < rep.Findings[j-1].Line; j-- {
			rep.Findings[j], rep.Findings[j-1] = rep.Findings[j-1], rep.Findings[j]
		}
	}
	// Conflicts a person marked stay a problem until one side is settled:
	// found from the marks, whatever the number of active decisions.
	for _, p := range s.Conflicts() {
		rep.Pairs = append(rep.Pairs, conflictsFinding(p))
	}
	rep.PairsScanned = len(active) <= doctorPairLimit
	if rep.PairsScanned {
		seen := make(map[string]int, len(active))
		for i, a := range active {
			seen[a.ID] = i
		}
		for i, a := range active {
			dups, conflicts := s.Check(a.Short(), a.ID)
			for _, m := range dups {
				if j, ok := seen[m.D.ID]; ok && j < i { // each pair once
					rep.Pairs = append(rep.Pairs, "duplicate: "+a.ID+" ≈ "+m.D.ID+" ("+likeness(m, a.Short())+")")
				}
			}
			for _, m := range conflicts {
				if j, ok := seen[m.D.ID]; ok && j < i && !contains(a.Conflicts, m.D.ID) {
					rep.Pairs = append(rep.Pairs, "conflict: "+a.ID+" ↔ "+m.D.ID+" ("+m.Reason+")")
				}
			}
		}
	}
	for i := range rep.Pairs {
		rep.Pairs[i], _ = redact.String(rep.Pairs[i])
	}
	return rep
}

// MarkCollisions names, among the replay's duplicate adds, those the repair
// would renumber: a second decision under an id, not a repeated line.
func (r *report) MarkCollisions(rep *repair) {
	for _, n := range rep.Renumbered {
		for i := range r.Findings {
			if f := &r.Findings[i]; f.Line == n.Line && f.Kind == duplicateAdd.String() {
				f.Kind = "id-collision"
				f.Msg = n.Old + " is added again for another decision (first added at line " + numstr.Itoa(n.First) + "): " +
					strconv.Quote(oneLine(n.Text)) + " is missing from memory. Two branches gave one id to two decisions (a union merge?); /decision doctor --fix gives this one " + n.New
			}
		}
	}
}

// Clean reports whether doctor found nothing to fix.
func (r *report) Clean() bool { return len(r.Findings) == 0 && len(r.Pairs) == 0 }

// Text is the report as doctor prints it after the log's name.
func (r *report) Text() string {
	var sb text.Builder
	sb.WriteString(text.Plural(r.Lines, "line", "lines") + ", " + text.Plural(r.Events, "event", "events") + " applied, " + text.Plural(r.Live, "decision", "decisions") + " live.")
	if r.Clean() {
		sb.WriteString("\nNo problems found.")
	}
	for _, f := range r.Findings {
		sb.WriteString("\nline " + numstr.Itoa(f.Line) + ": " + f.Kind + " — " + f.Msg)
	}
	for _, p := range r.Pairs {
		sb.WriteString("\n" + p)
	}
	if !r.PairsScanned {
		sb.WriteString("\n(" + numstr.Itoa(r.Active) + " active decisions: the pairwise duplicate/conflict scan is skipped above " + numstr.Itoa(doctorPairLimit) + ")")
	}
	if len(r.Findings) > 0 {
		sb.WriteString("\nBad lines are kept on disk untouched and skipped on replay; fix or delete them by hand if you wish.")
	}
	return sb.String()
}

// AppendJSON writes the report as doctor --json prints it.
func (r *report) AppendJSON(b []byte, log string) []byte {
	w := jsonw.Open(b)
	w.Str("log", log)
	w.Int("lines", int64(r.Lines))
	w.Int("events", int64(r.Events))
	w.Bool("clean", r.Clean())
	w.Raw("problems", jsonw.Array(nil, len(r.Findings), func(b []byte, i int) []byte {
		f := &r.Findings[i]
		o := jsonw.Open(b)
		o.Int("line", int64(f.Line))
		o.Str("kind", f.Kind)
		o.Str("id", f.ID)
		o.Str("message", f.Msg)
		return o.Close()
	}))
	w.Strs("activePairs", r.Pairs)
	w.Bool("pairsScanned", r.PairsScanned)
	if r.Fix != nil {
		w.Raw("fix", r.Fix.AppendJSON(nil, r.Fixed))
	}
	return w.Close()
}

// secretLines finds the lines of the log's first size bytes that hold what
// looks like a secret. The log stays as a person wrote it (it is theirs, and
// append-only); doctor names the lines so they can remove the secret by hand
// and rotate it. Nothing else ever shows it: every output is redacted.
//
// A line over maxLine is not read (replay reports it): it is read past, a
// piece at a time, never held or redacted whole.
func secretLines(read readAt, size int64) ([]finding, error) {
	var out []finding
	upTo := func(off int64, dst []byte) (int, error) {
		if rem := size - off; int64(len(dst)) > rem {
			dst = dst[:max(rem, 0)]
		}
		return read(off, dst)
	}
	err := jsonl.Read(upTo, make([]byte, 64<<10), maxLine, func(n int, line []byte, _ bool) bool {
		if _, kinds := redact.String(string(line)); len(kinds) > 0 {
			out = append(out, finding{Line: n, Kind: "secret", Msg: "holds what looks like a secret (" + strings.Join(kinds, ", ") +
				"); it is never injected or shown, but it is in the file: remove it by hand, and rotate the secret"})
		}
		return true
	}, func(int) {})
	return out, err
}
