package observe

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// priority is how much an observation matters, as the observer marks it.
type priority uint8

const (
	low    priority = 1 // 🟢 minor details, uncertain or exploratory notes
	medium priority = 2 // 🟡 project details, tool results, progress (the default)
	high   priority = 3 // 🔴 user preferences and assertions, goals reached, decisions, blockers
)

const (
	emojiHigh   = "🔴"
	emojiMedium = "🟡"
	emojiLow    = "🟢"
)

// Emoji is the marker the observer writes for p.
func (p priority) Emoji() string {
	switch p {
	case high:
		return emojiHigh
	case low:
		return emojiLow
	}
	return emojiMedium
}

// observation is one item of the observations: a line under a date, with
// the lines nested under it (the steps of a tool-call sequence, the reasons
// of a decision).
type observation struct {
	Priority priority
	Minute   int // minute of the local day, 24-hour; -1 when the observer gave no time
	Text     string
	Sub      []string
}

// group is the observations of one local day, oldest first.
type group struct {
	Day   int64 // days since 1970-01-01, local
	Items []observation
}

// render writes groups in the observer's own format, which is also the
// canonical form records store:
//
//	Date: Feb 12, 2026
//	* 🔴 (14:30) User stated the project uses Next.js 15 with App Router
//	  * -> added Levenshtein distance calculation
//
//go:noinline
func render(groups []group) string {
	var b text.Builder
	for gi := range groups {
		g := &groups[gi]
		if len(g.Items) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(cat("Date: ", formatDay(g.Day), "\n"))
		for ii := range g.Items {
			writeItem(&b, &g.Items[ii], true)
		}
	}
	return b.String()
}

//go:noinline
func writeItem(b *text.Builder, it *observation, emoji bool) {
	b.WriteString("* ")
	if emoji {
		b.WriteString(it.Priority.Emoji() + " ")
	}
	if it.Minute >= 0 {
		b.WriteString(cat("(", formatMinute(it.Minute), ") "))
	}
	b.WriteString(it.Text + "\n")
	for _, s := range it.Sub {
		b.WriteString(cat("  * ", s, "\n"))
	}
}

func countItems(groups []group) (n int) {
	for i := range groups {
		n += len(groups[i].Items)
	}
	return n
}

// parsed is what parseObservations found in a text.
type parsed struct {
	groups      []group
	task        string
	response    string
	hasTask     bool
	hasResponse bool
	stray       int // non-empty lines that were neither a date, an item nor a continuation
}

// parseObservations reads text in the observer's format: optional
// <observations>, <current-task> and <suggested-response> tags, "Date:"
// lines, items ("* ", "- " or "• ", optionally a priority emoji and a
// "(HH:MM)" time in either order) and nested items (indented). Items before
// the first date belong to defaultDay; an item without a priority is
// medium. It reads anything without failing: what it cannot place is
// counted in stray.
//
//	parseObservations("Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs", 0)
//	  => one group (Feb 12, 2026) with {high, 870, "User prefers tabs"}
func parseObservations(text string, defaultDay int64) parsed {
	var p parsed
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text, p.task, p.hasTask = cutTag(text, "current-task")
	text, p.response, p.hasResponse = cutTag(text, "suggested-response")
	if body, _, ok := innerTag(text, "observations"); ok {
		text = body
	}
	p.groups, p.stray = readGroups(text, defaultDay)
	return p
}

// readGroups reads the observation lines of text (no tags): dates, items
// and nested items; stray counts the lines it could not place. What it
// reads is sanitized and every item neutralised (data.go).
func readGroups(text string, defaultDay int64) (groups []group, stray int) {
	text = sanitize(text)
	var cur *group
	var item *observation
	group := func(day int64) {
		groups = append(groups, group{Day: day})
		cur, item = &groups[len(groups)-1], nil
	}
	for _, ln := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(ln)
		if trimmed == "" {
			continue
		}
		if day, ok := dateLine(trimmed, defaultDay); ok {
			group(day)
			continue
		}
		if trimmed[0] == '[' && strings.HasSuffix(trimmed, " later]") {
			continue // a gap marker copied from an injected block
		}
		indent := indentOf(ln)
		body, bullet := cutBullet(trimmed)
		switch {
		case bullet && indent >= 2 && item != nil:
			if s := collapse(neutralise(body)); s != "" {
				item.Sub = append(item.Sub, s)
			}
		case bullet:
			it, ok := readItem(body)
			if !ok {
				continue
			}
			if cur == nil {
				group(defaultDay)
			}
			cur.Items = append(cur.Items, it)
			item = &cur.Items[len(cur.Items)-1]
		case item != nil && indent >= 2:
			// A wrapped line of the item above.
			if n := len(item.Sub); n > 0 {
				item.Sub[n-1] += " " + collapse(neutralise(trimmed))
			} else {
				item.Text += " " + collapse(neutralise(trimmed))
			}
		default:
			stray++
		}
	}
	// Drop groups left empty (a date line with nothing under it).
	out := groups[:0]
	for _, g := range groups {
		if len(g.Items) > 0 {
			out = append(out, g)
		}
	}
	return mergeDays(out), stray
}

// dateLine reads a "Date: Feb 12, 2026" line, tolerating markdown around it
// ("### Date: …", "**Date: …**"), a weekday before the date and an
// annotation after it ("(yesterday)").
func dateLine(s string, near int64) (int64, bool) {
	s = strings.Trim(s, "#*_ ")
	if len(s) < 5 || !strings.EqualFold(s[:5], "date:") {
		return 0, false
	}
	s = strings.TrimSpace(s[5:])
	if i := strings.IndexByte(s, '('); i >= 0 {
		s = s[:i]
	}
	s = strings.Trim(s, "*_ ")
	if d, ok := parseDate(s, near); ok {
		return d, true
	}
	// "Thu, Feb 12, 2026" or "Thursday Feb 12, 2026": drop the weekday.
	if i := strings.IndexAny(s, ", "); i > 0 {
		if d, ok := parseDate(strings.TrimLeft(s[i:], ", "), near); ok {
			return d, true
		}
	}
	return near, true // a date line we cannot read still starts a group, of the default day
}

func indentOf(s string) int {
	n := 0
	for _, c := range s {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// cutBullet removes a list marker ("* ", "- ", "• ", "+ ", "1. ").
func cutBullet(s string) (string, bool) {
	for _, m := range []string{"* ", "- ", "• ", "+ "} {
		if strings.HasPrefix(s, m) {
			return s[len(m):], true
		}
	}
	if s == "*" || s == "-" || s == "•" {
		return "", true
	}
	i := 0
	for i < len(s) && i < 3 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return s[i+2:], true
	}
	return s, false
}

// readItem reads an item's body: priority and time in either order, then
// the text. An item with no text is not an item.
func readItem(s string) (observation, bool) {
	it := observation{Priority: medium, Minute: -1}
	gotP, gotT := false, false
	for k := 0; k < 2; k++ {
		s = strings.TrimSpace(s)
		if !gotP {
			if p, rest, ok := cutPriority(s); ok {
				it.Priority, s, gotP = p, rest, true
				continue
			}
		}
		if !gotT && strings.HasPrefix(s, "(") {
			if j := strings.IndexByte(s, ')'); j > 0 {
				if m, ok := parseClock(s[1:j]); ok {
					it.Minute, s, gotT = m, s[j+1:], true
					continue
				}
			}
		}
	}
	it.Text = collapse(neutralise(s))
	return it, it.Text != ""
}

func cutPriority(s string) (priority, string, bool) {
	for _, c := range []struct {
		mark string
		p    priority
	}{{emojiHigh, high}, {emojiMedium, medium}, {emojiLow, low}} {
		if strings.HasPrefix(s, c.mark) {
			rest := strings.TrimPrefix(s[len(c.mark):], "\uFE0F")
			return c.p, rest, true
		}
	}
	return 0, s, false
}

// cutTag removes the first <name>…</name> from text and returns its
// trimmed content. An unclosed tag runs to the end of the text.
func cutTag(text, name string) (rest, content string, ok bool) {
	body, span, ok := innerTag(text, name)
	if !ok {
		return text, "", false
	}
	return text[:span[0]] + text[span[1]:], strings.TrimSpace(body), true
}

// innerTag finds <name>…</name>: its content and the span of the whole tag.
func innerTag(text, name string) (string, [2]int, bool) {
	open, close := "<"+name+">", "</"+name+">"
	i := strings.Index(text, open)
	if i < 0 {
		return "", [2]int{}, false
	}
	start := i + len(open)
	j := strings.Index(text[start:], close)
	if j < 0 {
		return text[start:], [2]int{i, len(text)}, true
	}
	return text[start : start+j], [2]int{i, start + j + len(close)}, true
}

// mergeDays sorts groups by day (stably: a day's items keep their order)
// and joins groups of the same day.
func mergeDays(groups []group) []group {
	for i := 1; i < len(groups); i++ {
		for j := i; j > 0 && groups[j].Day < groups[j-1].Day; j-- {
			groups[j], groups[j-1] = groups[j-1], groups[j]
		}
	}
	out := groups[:0]
	for _, g := range groups {
		if n := len(out); n > 0 && out[n-1].Day == g.Day {
			out[n-1].Items = append(out[n-1].Items, g.Items...)
			continue
		}
		out = append(out, g)
	}
	return out
}

// key is what makes two observations the same: their text and nested
// items, compared normalized (not their time or priority).
//
//go:noinline
func key(it *observation) string {
	k := normalize(it.Text)
	for _, s := range it.Sub {
		k += "\x00" + normalize(s)
	}
	return k
}

// appendGroups merges new observations after old ones: same-day groups
// join, and an item already there (see key) is not added again; it raises
// the priority of the one kept when it is higher.
func appendGroups(old, add []group) []group {
	seen := map[string][2]int{}
	for gi := range old {
		for ii := range old[gi].Items {
			seen[key(&old[gi].Items[ii])] = [2]int{gi, ii}
		}
	}
	out := make([]group, len(old), len(old)+len(add))
	for i := range old {
		out[i] = group{Day: old[i].Day, Items: append([]observation(nil), old[i].Items...)}
	}
	for _, g := range add {
		var keep []observation
		for _, it := range g.Items {
			k := key(&it)
			if at, dup := seen[k]; dup {
				if at[0] >= 0 && at[0] < len(out) && at[1] < len(out[at[0]].Items) {
					if o := &out[at[0]].Items[at[1]]; it.Priority > o.Priority {
						o.Priority = it.Priority
					}
				}
				continue
			}
			seen[k] = [2]int{-1, -1}
			keep = append(keep, it)
		}
		if len(keep) > 0 {
			out = append(out, group{Day: g.Day, Items: keep})
		}
	}
	return mergeDays(out)
}

// dedupe keeps one copy of each observation (see key): the newest, with
// the highest priority any copy had.
func dedupe(groups []group) []group {
	type at struct{ g, i int }
	last := map[string]at{}
	for gi := range groups {
		for ii := range groups[gi].Items {
			last[key(&groups[gi].Items[ii])] = at{gi, ii}
		}
	}
	out := make([]group, 0, len(groups))
	for gi := range groups {
		g := group{Day: groups[gi].Day}
		for ii := range groups[gi].Items {
			it := groups[gi].Items[ii]
			keep := last[key(&it)]
			if keep.g != gi || keep.i != ii {
				// An older copy: lend its priority to the kept one.
				if kept := &groups[keep.g].Items[keep.i]; it.Priority > kept.Priority {
					kept.Priority = it.Priority
				}
				continue
			}
			g.Items = append(g.Items, it)
		}
		if len(g.Items) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// prune drops observations until at most maxItems remain and, when
// maxTokens > 0, they render in at most maxTokens: the lowest priority
// first, and within a priority the oldest first. The newest item always
// stays, so pruning never empties a memory. Sizes are counted in the bytes
// render writes, so the caps hold exactly.
func prune(groups []group, maxItems, maxTokens int) []group {
	maxBytes := -1
	if maxTokens > 0 {
		maxBytes = budget.TokenBytes(maxTokens)
	}
	n := countItems(groups)
	size := len(render(groups))
	over := func() bool { return n > maxItems || (maxBytes >= 0 && size > maxBytes) }
	if !over() {
		return groups
	}
	drop := make([][]bool, len(groups))
	left := make([]int, len(groups)) // items still kept per group
	for gi := range groups {
		drop[gi] = make([]bool, len(groups[gi].Items))
		left[gi] = len(groups[gi].Items)
	}
	lastG := len(groups) - 1
	for p := low; p <= high && over(); p++ {
		for gi := range groups {
			for ii := range groups[gi].Items {
				if !over() {
					break
				}
				it := &groups[gi].Items[ii]
				if it.Priority != p || (gi == lastG && ii == len(groups[gi].Items)-1) {
					continue
				}
				drop[gi][ii] = true
				n--
				var b text.Builder
				writeItem(&b, it, true)
				size -= b.Len()
				if left[gi]--; left[gi] == 0 {
					// The group's date line and the blank line before the
					// next group go with its last item.
					size -= len("Date: "+formatDay(groups[gi].Day)+"\n") + 1
				}
			}
		}
	}
	out := make([]group, 0, len(groups))
	for gi := range groups {
		g := group{Day: groups[gi].Day}
		for ii, it := range groups[gi].Items {
			if !drop[gi][ii] {
				g.Items = append(g.Items, it)
			}
		}
		if len(g.Items) > 0 {
			out = append(out, g)
		}
	}
	return out
}
