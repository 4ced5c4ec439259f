package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
)

// The whole-log view that merging and repairing need: every line kept as
// written, decoded when it is an event. Replay streams a log; these two
// rewrite one, so they hold it whole (a rare act, never on a turn's path).

// logLine is one line of a log as written.
type logLine struct {
	raw  []byte // without its newline; a "\r" before it stays
	key  string // raw without the "\r" (and the first line's byte-order mark): two lines are the same line when their keys are equal
	nl   bool   // the line ended with a newline
	ok   bool   // ev is a valid event
	ev   Event
	err  error // why a non-blank line is not an event
	eff  int64 // the time it is ordered by: its event's, else the previous line's
	num  int   // line number in its file, 1-based
	newV bool  // written by a newer format version (kept, not read)
}

// blank reports a line with nothing on it.
func (l *logLine) blank() bool { return !l.ok && l.err == nil }

// splitLog cuts a log into its lines, which view b: b must not change while
// they are in use. bom says the file starts with a UTF-8 byte-order mark,
// which belongs to the file, not to its first line.
func splitLog(b []byte) (lines []logLine, bom bool) {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b, bom = b[3:], true
	}
	var sc scanner
	var arena arena
	n := 1
	for i := 0; i < len(b); {
		j := indexNewline(b[i:])
		if j < 0 {
			break
		}
		n++
		i += j + 1
	}
	lines = make([]logLine, 0, n)
	prev := int64(minTime)
	for start := 0; start < len(b); {
		end, next, nl := start, len(b), false
		if i := indexNewline(b[start:]); i >= 0 {
			end, next, nl = start+i, start+i+1, true
		} else {
			end = len(b)
		}
		raw := b[start:end]
		lines = append(lines, logLine{raw: raw, nl: nl, num: len(lines) + 1, eff: prev})
		l := &lines[len(lines)-1]
		body := trimCR(raw)
		if len(body) > 0 {
			// A view of the caller's bytes, which outlive the lines.
			l.key = unsafe.String(&body[0], len(body))
		}
		if !isBlank(body) {
			if err := sc.decode(body, &arena, &l.ev); err != nil {
				l.err = err
				if l.newV = l.ev.V > version; l.newV && l.ev.TimeMs != 0 {
					// A newer format's line still says when it was written.
					l.eff, prev = l.ev.TimeMs, l.ev.TimeMs
				}
			} else {
				l.ok = true
				if l.ev.TimeMs != 0 {
					l.eff, prev = l.ev.TimeMs, l.ev.TimeMs
				}
			}
		}
		start = next
	}
	return lines, bom
}

// minTime orders lines before every timed line: what the lines at the top of
// a file, before its first timed event, are ordered by.
const minTime = -1 << 63

// looksLikeLog reports whether lines can be a decision log: empty, or holding
// at least one event (of this format version or a newer one).
func looksLikeLog(lines []logLine) bool {
	empty := true
	for i := range lines {
		if lines[i].ok || lines[i].newV {
			return true
		}
		if !lines[i].blank() {
			empty = false
		}
	}
	return empty
}

// refs calls f with every decision id an event line refers to: its "i", and
// in its data "sp", "sb" and each id of "c".
func (ev *Event) refs(f func(id string)) {
	f(ev.ID)
	if ev.Data.Supersedes != "" {
		f(ev.Data.Supersedes)
	}
	if ev.Data.SupersededBy != "" {
		f(ev.Data.SupersededBy)
	}
	for _, c := range ev.Data.Conflicts {
		f(c)
	}
}

// rewriteIDs returns line with every decision id it holds ("i"; "sp", "sb"
// and the strings of "c" in "d") replaced by to(id) where that says so. Only
// those JSON strings change: every other byte, unknown keys included, stays
// as written. changed is false when no id was replaced.
//
//	rewriteIDs(`{"v":1,…,"i":"D-2026-11-23-0002","d":{"sp":"D-2026-11-23-0001"},…}`, {0002→0005})
//	=> `{"v":1,…,"i":"D-2026-11-23-0005","d":{"sp":"D-2026-11-23-0001"},…}`
func rewriteIDs(line []byte, to func(id string) (string, bool)) (out []byte, changed bool) {
	type span struct {
		start, end int
		id         string
	}
	var spans []span
	s := scanner{b: line}
	str := func() bool { // a string value (recorded), null, or anything else (skipped)
		start := s.i
		b, isStr, ok := s.rawString()
		if ok && isStr {
			if id, yes := to(string(b)); yes {
				spans = append(spans, span{start, s.i, id})
			}
		}
		return ok
	}
	object := func(each func(k string) bool) bool {
		s.ws()
		if !s.eat('{') {
			return false
		}
		s.ws()
		if s.eat('}') {
			return true
		}
		for {
			s.ws()
			k, ok := s.key()
			if !ok {
				return false
			}
			s.ws()
			if !s.eat(':') {
				return false
			}
			s.ws()
			if !each(k) {
				return false
			}
			s.ws()
			if s.eat(',') {
				continue
			}
			return s.eat('}')
		}
	}
	data := func(k string) bool {
		switch k {
		case "sp", "sb":
			return str()
		case "c":
			if s.peek() != '[' {
				return s.skip()
			}
			s.i++
			s.ws()
			if s.eat(']') {
				return true
			}
			for {
				s.ws()
				if !str() {
					return false
				}
				s.ws()
				if s.eat(',') {
					continue
				}
				return s.eat(']')
			}
		}
		return s.skip()
	}
	ok := object(func(k string) bool {
		switch {
		case k == "i":
			return str()
		case k == "d" && s.peek() == '{':
			return object(data)
		}
		return s.skip()
	})
	if !ok || len(spans) == 0 {
		return line, false
	}
	out = make([]byte, 0, len(line)+8*len(spans))
	last := 0
	for _, sp := range spans {
		out = append(out, line[last:sp.start]...)
		out = jsonw.String(out, sp.id)
		last = sp.end
	}
	return append(out, line[last:]...), true
}

// idsInUse collects, per day, the highest id number any of the logs uses (an
// event's "i", or the id a torn line was writing), and the ids of another
// shape.
type idsInUse struct {
	max  map[string]int // "D-2026-11-23-" -> 3
	seen map[string]bool
}

func newIDsInUse() *idsInUse {
	return &idsInUse{max: map[string]int{}, seen: map[string]bool{}}
}

func (u *idsInUse) note(id string) {
	if id == "" {
		return
	}
	day, n, ok := splitID(id)
	switch {
	case !ok:
		u.seen[id] = true
	case n > u.max[day]:
		u.max[day] = n
	}
}

func (u *idsInUse) noteLines(lines []logLine) {
	for i := range lines {
		l := &lines[i]
		switch {
		case l.ok:
			l.ev.refs(u.note)
		case !l.blank():
			u.note(tornID(string(l.raw)))
		}
	}
}

// next is a fresh id for the decision id was: the next number of its day.
// An id of another shape gets a suffix instead ("X" -> "X-2").
func (u *idsInUse) next(id string) string {
	var out string
	if day, _, ok := splitID(id); ok {
		u.max[day]++
		num := numstr.Itoa(u.max[day])
		for len(num) < 4 {
			num = "0" + num
		}
		out = day + num
	} else {
		for n := 2; ; n++ {
			if out = id + "-" + numstr.Itoa(n); !u.seen[out] {
				break
			}
		}
	}
	u.note(out)
	return out
}
