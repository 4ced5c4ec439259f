// Package redact finds and removes secrets in text (no secret reaches
// disk or network). It owns the secret patterns and nothing else:
// callers decide what to redact, and always redact conversation-derived text
// before a write and before it leaves through a prompt, a command's output or
// a derived file. It never reads or writes anything itself.
//
// What counts as a secret is pinned by the shared corpus in
// testdata/secrets/ (secrets.jsonl must be found, benign.jsonl must not).
package redact

import (
	"sort"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"
)

// Finding is one secret in a text: its kind (the name in "[REDACTED:kind]")
// and its bytes, s[Start:End]. Labels, URL schemes, users and hosts are not
// part of it.
type Finding struct {
	Kind       string
	Start, End int
}

// Find returns the secrets in s, in order, without rewriting anything, so a
// caller can name the line and kind of a secret without printing it (its
// line is 1 + strings.Count(s[:f.Start], "\n")). Where matches of two kinds
// overlap they are one Finding, named for the more specific kind. Text
// already redacted ("[REDACTED:secret]") holds no secret.
//
//	Find("db password = hunter22x")  => [{secret 14 23}]
//	Find("mysql://root:p@ss@db/app") => [{url-password 13 17}]
//	Find("token_count = 12")         => nil
//
//go:noinline
func Find(s string) []Finding {
	return scan(s, false)
}

// Contains reports whether Find(s) would find anything. It is the fast path
// for text that is almost always clean (what is injected every turn): a text
// that holds none of the patterns' trigger words costs one pass over its
// bytes, and the first secret ends the search.
//
//	Contains("Use PostgreSQL 16 for the primary database") => false
//	Contains("export GITHUB_TOKEN=ghp_…")                  => true
func Contains(s string) bool {
	return len(scan(s, true)) > 0
}

// String returns s with every secret replaced by "[REDACTED:kind]" and the
// kinds it replaced, sorted. Labels, URL schemes, users and hosts stay
// readable. Text without secrets comes back unchanged, and
// String(String(s)) == String(s).
//
//	String("deploy with token=abc123def456")     => "deploy with token=[REDACTED:secret]", [secret]
//	String("redis://:s3cretpw@cache:6379/0")     => "redis://:[REDACTED:url-password]@cache:6379/0", [url-password]
//	String("CI uses AKIAIOSFODNN7EXAMPLE")       => "CI uses [REDACTED:aws-key]", [aws-key]
//	String("password_min_length: 8")             => "password_min_length: 8", nil
//
//go:noinline
func String(s string) (string, []string) {
	return apply(s, Find(s))
}

// Lines is String for text whose lines matter (a markdown file whose pages
// are named by line and whose entries end at a blank line): a secret that
// spans lines (a PEM key) becomes its mark on each line it covers, after
// the line's indentation, so every line keeps its number and a line that
// held text still holds some. A line's "\r" stays.
//
//	Lines("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nnext") => "[REDACTED:private-key]\n[REDACTED:private-key]\n[REDACTED:private-key]\nnext", [private-key]
//	Lines("- key:\n  -----BEGIN PRIVATE KEY-----\n  MIIE\n  -----END PRIVATE KEY-----\n") => "- key:\n  [REDACTED:private-key]\n  [REDACTED:private-key]\n  [REDACTED:private-key]\n", [private-key]
func Lines(s string) (string, []string) {
	return MarkLines(s, Find(s))
}

// MarkLines is Lines for findings a caller made itself, in order and
// disjoint: of a form of s whose bytes are s's, as an entry's lines read as
// one line (its line ends as blanks), so a label at the end of one line and
// its value on the next are one secret.
//
//	MarkLines("- pw:\n  hunter2x9\n", Find("- pw:   hunter2x9 ")) => "- pw:\n  [REDACTED:secret]\n", [secret]
func MarkLines(s string, found []Finding) (string, []string) {
	if len(found) == 0 {
		return s, nil
	}
	var b text.Builder
	var kinds []string
	last := 0
	for _, f := range found {
		b.WriteString(s[last:f.Start])
		m := mark(f.Kind)
		for k, part := range strings.Split(s[f.Start:f.End], "\n") {
			if k > 0 {
				b.WriteByte('\n')
				lead := len(part) - len(strings.TrimLeft(part, " \t"))
				b.WriteString(part[:lead])
				part = part[lead:]
			}
			cr := strings.HasSuffix(part, "\r")
			if k == 0 || strings.TrimSpace(part) != "" {
				b.WriteString(m)
			}
			if cr {
				b.WriteByte('\r')
			}
		}
		last = f.End
		kinds = append(kinds, f.Kind)
	}
	b.WriteString(s[last:])
	return b.String(), uniq(kinds)
}

func apply(s string, found []Finding) (string, []string) {
	if len(found) == 0 {
		return s, nil
	}
	var b text.Builder
	var kinds []string
	last := 0
	for _, f := range found {
		b.WriteString(s[last:f.Start])
		b.WriteString(mark(f.Kind))
		last = f.End
		kinds = append(kinds, f.Kind)
	}
	b.WriteString(s[last:])
	return b.String(), uniq(kinds)
}

// uniq sorts kinds and drops repeats.
func uniq(kinds []string) []string {
	sort.Strings(kinds)
	n := 0
	for i, k := range kinds {
		if i == 0 || k != kinds[n-1] {
			kinds[n] = k
			n++
		}
	}
	return kinds[:n]
}

func mark(kind string) string { return markOpen + kind + "]" }

const markOpen = "[REDACTED:"

// scan finds the secrets in s; with first set it stops at the first one
// (Contains). Each pattern runs only where one of its triggers occurs: on the
// lines that hold one, or, for a pattern whose matches span lines, on the
// whole text. Matches that touch an existing mark are skipped: that is what
// makes redaction idempotent.
//
// A text with format characters or other spellings of ASCII (format.go) is
// scanned in its plain form, and the findings mapped back to it.
func scan(s string, first bool) []Finding {
	setupOnce.Do(setup)
	found, format := scanPlain(s, first, false)
	find := func(p string) []Finding {
		found, _ := scanPlain(p, first, true)
		return found
	}
	if format {
		return views(s, first, find)
	}
	return twice(s, first, found, find)
}

// views finds the secrets of s in its plain form (find reads a plain
// text) and maps them back, in both its readings (twoWays). With first
// set, one finding is enough.
func views(s string, first bool, find func(string) []Finding) []Finding {
	p, cuts := plain(s, false)
	return twice(s, first, original(find(p), cuts), find)
}

// twice joins to the findings of the screen's reading those of the
// program's, where the two differ.
func twice(s string, first bool, found []Finding, find func(string) []Finding) []Finding {
	if first && len(found) > 0 || !twoWays(s) {
		return found
	}
	p, cuts := plain(s, true)
	found = union(found, original(find(p), cuts))
	for k := range found {
		low := 0
		if k > 0 {
			low = found[k-1].End
		}
		found[k].Start = withControls(s, found[k].Start, low)
	}
	return found
}

// withControls is where a mark that starts at start starts: a mark after a
// glued control character, or after a sequence left open, would be read
// with it ("\x1b[REDACTED:…" is ESC [ R on a screen, "\x1b[1;31[REDACTED:…"
// a colour ended by '['), so it takes them, back to a complete sequence or
// text, and no further back than low (the mark before it) or 32 bytes a step.
func withControls(s string, start, low int) int {
	for moved := true; moved; {
		moved = false
		near := s[:min(len(s), start+2)] // a control string is read no further
		for p := start - 1; p >= max(low, start-32); p-- {
			if n := marker.Removes(near, p); n > 0 && (gluedAt(s, p, n) == start-p || p+n == start && open(s, p, n)) {
				start, moved = p, true
				break
			}
		}
	}
	return start
}

// open reports whether the control sequence of n bytes at s[p] is left
// open, so that what follows it would end it: ESC alone or with
// intermediates ("\x1b%"), a CSI without its final byte ("\x1b[1;31").
func open(s string, p, n int) bool {
	last := s[p+n-1]
	switch {
	case s[p] == 0x1b && n == 1:
		return true
	case s[p] == 0x1b && s[p+1] == '[', hasAt(s, p, "\u009b"):
		return n <= 2 || last < 0x40 || last > 0x7e
	case s[p] == 0x1b:
		return last < 0x30 || last > 0x7e
	}
	return false
}

// union is the findings of a and b (each in order and disjoint) in order,
// those that overlap joined as one of the first's kind.
func union(a, b []Finding) []Finding {
	var out []Finding
	for len(a) > 0 || len(b) > 0 {
		f := &a
		if len(a) == 0 || len(b) > 0 && b[0].Start < a[0].Start {
			f = &b
		}
		if n := len(out); n > 0 && (*f)[0].Start < out[n-1].End {
			out[n-1].End = max(out[n-1].End, (*f)[0].End)
		} else {
			out = append(out, (*f)[0])
		}
		*f = (*f)[1:]
	}
	return out
}

// scanPlain is scan of a plain text; unless s is plain already (folding
// "%2%41" gives "%2A", which is not folded again), it gives up as soon as it
// meets a format character or another spelling (format).
func scanPlain(s string, first, isPlain bool) (found []Finding, format bool) {
	var r run
	r.first = first
	var textMask, lineMask uint64
	lineStart := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' {
			if lineMask&multiline != lineMask {
				r.patterns(s, lineStart, i, lineMask&^multiline)
				if r.done() {
					return r.result(), false
				}
			}
			textMask |= lineMask
			lineMask, lineStart = 0, i+1
			continue
		}
		if !isPlain && (s[i] >= 0xC2 || s[i] == '%' || s[i] == '\\' || s[i] == '&' || s[i] < 0x20 && s[i] != '\t' || s[i] == 0x7f) && hiddenAt(s, i) {
			return nil, true
		}
		if !mayStartTrigger(s, i) {
			continue
		}
		for k := range byFirst[s[i]] {
			if t := &byFirst[s[i]][k]; t.mask&^lineMask != 0 && t.startsWith(s, i) {
				lineMask |= t.mask
			}
		}
	}
	r.patterns(s, 0, len(s), textMask&multiline)
	r.listed(s)
	return r.result(), false
}

// run collects the matches of one scan.
type run struct {
	first  bool
	marks  [][2]int
	marked bool // marks holds the marks of the text
	found  spans
	// word: where the last word wordCutAt read whole was read from, and
	// its end, in s.
	word [2]int
}

// patterns runs the patterns in mask over s[from:to], each from left to
// right, resuming after each match (regexp's FindAll: no pattern matches
// empty text, so each match moves the search on).
func (r *run) patterns(s string, from, to int, mask uint64) {
	if mask == 0 {
		return
	}
	if !r.marked {
		r.marks, r.marked = findMarks(s), true
	}
	text := s[from:to]
	for i, p := range patterns {
		if mask&(1<<uint(i)) == 0 {
			continue
		}
		for pos := 0; pos < len(text) && !r.done(); {
			m := p.find(text, pos)
			if m == nil {
				break
			}
			r.add(i, p, text, from, m)
			pos = m[1]
		}
		if r.done() {
			return
		}
	}
}

// add records match m of patterns[i] in text, which starts at s[from].
func (r *run) add(i int, p *pattern, text string, from int, m []int) {
	start, end, ws, we, ok := 0, 0, m[0], m[1], true
	if p.span != nil {
		start, end, ws, we, ok = p.span(text, m)
	} else {
		start, end = firstGroup(m)
	}
	if !ok || start >= end || overlapsAny(r.marks, from+ws, from+we) || r.done() {
		return
	}
	// A value judged by the start of its word is redacted to the word's
	// end, found once for every password word inside it (r.word).
	if cut, from2 := wordCutAt(text, start, end, [2]int{r.word[0] - from, r.word[1] - from}); cut > end {
		r.word = [2]int{from + from2, from + cut}
		end = cut
	}
	r.found = append(r.found, span{i, from + start, from + end})
}

func (r *run) done() bool { return r.first && len(r.found) > 0 }

func (r *run) result() []Finding { return r.found.merge() }

type span struct{ pattern, start, end int }

type spans []span

func (x spans) Len() int           { return len(x) }
func (x spans) Less(i, j int) bool { return x[i].start < x[j].start }
func (x spans) Swap(i, j int)      { x[i], x[j] = x[j], x[i] }

// merge joins overlapping spans into one Finding named for the pattern
// listed first, so no part of a secret two patterns saw survives.
func (x spans) merge() []Finding {
	if len(x) == 0 {
		return nil
	}
	sort.Stable(x)
	out := make([]Finding, 0, len(x))
	cur := x[0]
	for _, n := range x[1:] {
		if n.start < cur.end {
			if n.end > cur.end {
				cur.end = n.end
			}
			if n.pattern < cur.pattern {
				cur.pattern = n.pattern
			}
			continue
		}
		out = append(out, Finding{patterns[cur.pattern].kind, cur.start, cur.end})
		cur = n
	}
	return append(out, Finding{patterns[cur.pattern].kind, cur.start, cur.end})
}

// findMarks returns the [start, end) of every "[REDACTED:kind]" in s.
func findMarks(s string) [][2]int {
	var marks [][2]int
	for off := 0; ; {
		i := strings.Index(s[off:], markOpen)
		if i < 0 {
			return marks
		}
		start := off + i
		j := start + len(markOpen)
		for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9' || s[j] == '-') {
			j++
		}
		if j > start+len(markOpen) && j < len(s) && s[j] == ']' {
			marks = append(marks, [2]int{start, j + 1})
			off = j + 1
		} else {
			off = start + 1
		}
	}
}

// overlapsAny reports whether [start, end) overlaps one of marks, which are
// in order and disjoint.
func overlapsAny(marks [][2]int, start, end int) bool {
	lo, hi := 0, len(marks)
	for lo < hi { // the first mark that ends after start
		mid := int(uint(lo+hi) >> 1)
		if marks[mid][1] <= start {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo < len(marks) && marks[lo][0] < end
}
