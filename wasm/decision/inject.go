package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"sort"
	"strings"
	"unicode/utf8"

	txt "github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Budgets of the injected section (docs/formats.md, "Injected section").
// Lengths are counted in characters (Unicode code points).
const (
	maxCharsPerDecision = 160
	maxTextChars        = 120
	maxTags             = 2
	maxTagChars         = 12
	maxSectionChars     = 2200
)

// sectionHeader opens the injected section. It is part of the 2,200-character cap.
const sectionHeader = "## Project decisions\nActive decisions for this project, newest first. Follow them; to change one, propose superseding it rather than silently deviating.\n"

// Section renders the injected block: up to max active decisions, newest
// first, one line each (`D-… | short text | #tag1 #tag2`). When everything does
// not fit it keeps the most recent whole lines and ends with a rolling summary
// of what was left out. The result is a pure function of the state, so it is
// byte-identical while decisions are unchanged. "" when there are no active
// decisions.
//
//	Section(state with D-2026-02-27-0001 "Use PostgreSQL" #db, 20)
//	=> "## Project decisions\n…\nD-2026-02-27-0001 | Use PostgreSQL | #db\n"
//
// Active decisions in an unresolved conflict (conflicts.go) are not among
// the lines to follow: the pairs come last, as questions for the user.
func (s *state) Section(max int) string {
	total := s.counts[Active]
	if total == 0 {
		return ""
	}
	if max < 1 {
		max = 1
	}
	pairs := s.Conflicts()
	conflicted := inConflict(pairs)
	total -= len(conflicted)
	var shown []int32
	for _, h := range s.newestActive(max + len(conflicted)) {
		if !conflicted[h] && len(shown) < max {
			shown = append(shown, h)
		}
	}
	var asked [][]string // the own tags of the decisions in a conflict, then of those shown
	for _, p := range pairs {
		asked = append(asked, ownTags(p.Old.Tags), ownTags(p.New.Tags))
	}
	lines := make([]string, len(shown))
	for i, h := range shown {
		if e := s.base.said(h); e != nil {
			lines[i] = e.line
		} else {
			lines[i] = injectedLine(s.view(h))
		}
	}
	asking := conflictsPart(pairs)
	budget := maxSectionChars - utf8.RuneCountInString(sectionHeader) - utf8.RuneCountInString(asking)
	keep := len(lines)
	used := 0
	for i, l := range lines {
		used += utf8.RuneCountInString(l) + 1
		if used > budget {
			keep = i
			break
		}
	}
	var summary string
	for {
		left := total - keep
		if left == 0 {
			summary = ""
			break
		}
		own := asked[:len(asked):len(asked)]
		for _, h := range shown[:keep] {
			own = append(own, s.ownTagsOf(h))
		}
		summary = s.summary(left, own)
		size := utf8.RuneCountInString(summary) + 1
		for _, l := range lines[:keep] {
			size += utf8.RuneCountInString(l) + 1
		}
		if size <= budget || keep == 0 {
			break
		}
		keep--
	}
	var b txt.Builder
	b.WriteString(sectionHeader)
	for _, l := range lines[:keep] {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if summary != "" {
		b.WriteString(summary)
		b.WriteByte('\n')
	}
	b.WriteString(asking)
	return b.String()
}

// ownTagsOf is a decision's own tags (ownTags), from what the snapshot said
// of it when it is an untouched hot one.
func (s *state) ownTagsOf(h int32) []string {
	if e := s.base.said(h); e != nil {
		return e.tags
	}
	return ownTags(s.view(h).Tags)
}

// summary describes the active decisions not shown: how many and their most
// common tags. shown holds the own tags (ownTags) of each decision shown.
func (s *state) summary(left int, shown [][]string) string {
	// The tags of the active decisions not shown: all active tags, less
	// those of the shown decisions.
	tc := s.activeTagCounts()
	for _, tags := range shown {
		for _, t := range tags {
			tc.addN(t, -1)
		}
	}
	tc.drop()
	sort.Sort(&tc)
	tags, counts := tc.names, tc.counts
	noun := "decisions"
	if left == 1 {
		noun = "decision"
	}
	out := "(+" + numstr.Itoa(left) + " older active " + noun + " not shown"
	if len(tags) > 0 {
		out += "; top tags:"
		for i, t := range tags {
			if i == 3 {
				break
			}
			out += " #" + txt.Runes(t, maxTagChars) + " " + numstr.Itoa(counts[i])
		}
	}
	return out + "; /decision list shows all)"
}

// activeTagCounts counts the tags of every active decision (each tag once per
// decision): from the snapshot's counts adjusted by what changed since, else
// by a pass over every record.
func (s *state) activeTagCounts() tagCounts {
	b := s.base
	if b == nil || s.strs.broken {
		return s.activeTagScan()
	}
	var tc tagCounts
	for i, name := range b.tags.names {
		tc.addN(name, b.tags.counts[i])
	}
	for _, t := range b.touched {
		if t.status == Active {
			for _, tag := range ownTags(s.strs.getList(t.tags)) {
				tc.addN(tag, -1)
			}
		}
		if r := s.recs.at(t.h); !r.removed && r.status == Active {
			for _, tag := range ownTags(s.strs.getList(r.tags)) {
				tc.addN(tag, 1)
			}
		}
	}
	for h := b.n; h < int32(s.recs.n); h++ {
		if r := s.recs.at(h); !r.removed && r.status == Active {
			for _, tag := range ownTags(s.strs.getList(r.tags)) {
				tc.addN(tag, 1)
			}
		}
	}
	tc.drop()
	return tc
}

// activeTagScan is activeTagCounts by a pass over every record.
func (s *state) activeTagScan() tagCounts {
	var tc tagCounts
	var buf [8]string
	for h := int32(0); h < int32(s.recs.n); h++ {
		r := s.recs.at(h)
		if r.removed || r.status != Active {
			continue
		}
		own := buf[:0]
		for _, ref := range s.strs.refs(r.tags) {
			t := cleanTag(s.strs.get(ref))
			if t == "" || repeatsTag(own, t) {
				continue
			}
			if len(own) < len(buf) {
				own = append(own, t)
			}
			tc.addN(t, 1)
		}
	}
	return tc
}

// ownTags is a decision's tags as counted: cleaned, each once. Past a few,
// the ones kept are looked up in a set: a hand-written decision of 30,000
// tags took 9 s of a replay to check each against all before it (h-v97 a1).
func ownTags(tags []string) []string {
	var out []string
	var seen map[string]bool
	for _, t := range tags {
		if t = cleanTag(t); t == "" || seen == nil && repeatsTag(out, t) || seen[t] {
			continue
		}
		out = append(out, t)
		if seen != nil {
			seen[t] = true
		} else if len(out) > 32 {
			seen = make(map[string]bool, 2*len(out))
			for _, o := range out {
				seen[o] = true
			}
		}
	}
	return out
}

// tagCounts counts tags, most common first once sorted (ties by name).
type tagCounts struct {
	names  []string
	counts []int
	index  map[string]int // used only once the vocabulary outgrows a scan
}

func (c *tagCounts) addN(t string, delta int) {
	if c.index != nil {
		if i, ok := c.index[t]; ok {
			c.counts[i] += delta
			return
		}
	} else {
		for i, n := range c.names {
			if n == t {
				c.counts[i] += delta
				return
			}
		}
	}
	c.names = append(c.names, t)
	c.counts = append(c.counts, delta)
	if c.index != nil {
		c.index[t] = len(c.names) - 1
	} else if len(c.names) > 64 {
		c.index = make(map[string]int, 128)
		for i, n := range c.names {
			c.index[n] = i
		}
	}
}

// drop removes tags whose count fell to zero or below.
func (c *tagCounts) drop() {
	names, counts := c.names[:0], c.counts[:0]
	for i, n := range c.names {
		if c.counts[i] > 0 {
			names = append(names, n)
			counts = append(counts, c.counts[i])
		}
	}
	c.names, c.counts, c.index = names, counts, nil
	if len(c.names) > 64 {
		c.index = make(map[string]int, len(c.names))
		for i, n := range c.names {
			c.index[n] = i
		}
	}
}

func (c *tagCounts) Len() int { return len(c.names) }
func (c *tagCounts) Less(i, j int) bool {
	if c.counts[i] != c.counts[j] {
		return c.counts[i] > c.counts[j]
	}
	return c.names[i] < c.names[j]
}
func (c *tagCounts) Swap(i, j int) {
	c.names[i], c.names[j] = c.names[j], c.names[i]
	c.counts[i], c.counts[j] = c.counts[j], c.counts[i]
}

func repeatsTag(before []string, t string) bool {
	for _, b := range before {
		if b == t {
			return true
		}
	}
	return false
}

// injectedLine is one decision as injected: `D-… | short text | #tag1 #tag2`, at most
// maxCharsPerDecision characters. The short text is the title, else the text
// cut at maxTextChars, flattened to one line. A secret someone wrote into the
// log by hand is redacted: it never reaches the model.
func injectedLine(d *decision) string {
	text := clean(txt.OneLine(d.Short()))
	text = txt.Runes(text, maxTextChars)
	var tags []string
	for _, t := range d.Tags {
		if len(tags) == maxTags {
			break
		}
		if t = txt.Runes(cleanTag(t), maxTagChars); t != "" {
			tags = append(tags, "#"+t)
		}
	}
	tagPart := ""
	if len(tags) > 0 {
		tagPart = " | " + strings.Join(tags, " ")
	}
	room := maxCharsPerDecision - utf8.RuneCountInString(d.ID) - 3 - utf8.RuneCountInString(tagPart)
	if room < 1 {
		tagPart = ""
		room = maxCharsPerDecision - utf8.RuneCountInString(d.ID) - 3
	}
	return d.ID + " | " + txt.Runes(text, room) + tagPart
}

// cleanTag drops a leading '#' and anything that would break the line
// format, after redacting: a tag is shown and injected like any text.
func cleanTag(t string) string {
	t = clean(t)
	if plainTag(t) {
		return t
	}
	t = strings.TrimLeft(strings.TrimSpace(t), "#")
	if strings.ContainsAny(t, " \t\n|") {
		t = strings.Join(strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '|' }), "-")
	}
	return t
}

func plainTag(t string) bool {
	if t == "" || t[0] == '#' {
		return false
	}
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case ' ', '\t', '\n', '\r', '|':
			return false
		}
	}
	return true
}
