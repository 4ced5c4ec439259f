package notes

import (
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	mk "github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// Writeback limits (docs/decisions/005-markdown-memory.md).
const (
	// maxFactRunes is the longest fact a flush writes as one bullet; longer
	// detail belongs in a topic file.
	maxFactRunes = 500
	// defaultSection is where a remembered fact goes when no section is named.
	defaultSection = "Notes"
	// maxSectionRunes is the longest section name a fact may name: a heading,
	// not a paragraph.
	maxSectionRunes = 80
)

// rules are what a flush checks a staged fact against.
type rules struct {
	Strict   bool // reject instead of repairing
	MaxLines int  // the scope's maxInjectLines: the index must stay injectable
	MaxBytes int  // the scope's maxInjectBytes
	File     string
}

// outcome is the verdict on one staged fact.
type outcome struct {
	Commit    bool
	Reason    string // when rejected: duplicate, secret, too_long, multiline, index_cap, invalid
	Detail    string // what a person reads: why it was rejected, or what was repaired
	Text      string // the fact as it will be written
	Section   string // the section it goes under
	Duplicate int    // index in pages of the duplicated page, -1 when none
	Out       []byte // the new file when committed
	Line      int    // line of the new bullet when committed
	Warning   string // committed, but worth saying (an index over its caps, not strict)
}

// checkFact checks what a staged fact is by itself, whatever file it goes to:
// one line of UTF-8 text, no secret (in the text or the section name),
// within maxFactRunes. Strict rules refuse; otherwise the fact is repaired
// and Detail says how. A refused fact has Reason set; an accepted one
// carries the text and section as they will be written. /memory remember
// runs it at once, so nobody learns at a flush that a fact could never be
// written.
//
//	checkFact("", "Notes", true).Reason => "invalid"
//	checkFact("token=abc123def456", "Notes", false).Text => "token=[REDACTED:secret]"
func checkFact(fact, section string, strict bool) outcome {
	o := outcome{Duplicate: -1}
	fact = strings.TrimSpace(fact)
	if section = strings.TrimSpace(section); section == "" {
		section = defaultSection
	}
	var repaired []string
	if fact == "" || !utf8.ValidString(fact) {
		o.Reason, o.Detail = "invalid", "a fact must be non-empty UTF-8 text"
		return o
	}
	if strings.ContainsAny(section, "\r\n") || !utf8.ValidString(section) {
		o.Reason, o.Detail = "invalid", "a section name must be one line of text"
		return o
	}
	if n := utf8.RuneCountInString(section); n > maxSectionRunes {
		o.Reason, o.Detail = "invalid", "a section name is a short heading; this one is "+numstr.Itoa(n)+" characters, over "+numstr.Itoa(maxSectionRunes)
		return o
	}
	if strings.ContainsAny(fact, "\r\n") {
		if strict {
			o.Reason, o.Detail = "multiline", "a fact is one line; put longer detail in a topic file and remember a pointer to it"
			return o
		}
		fact = text.OneLine(fact)
		repaired = append(repaired, "joined its lines")
	}
	// What a terminal or a model would read as something else is never
	// written (the core's one rule, marker.Check): refused when someone waits for the answer,
	// removed from what an import stages.
	for _, f := range []*string{&fact, &section} {
		why := mk.Check(*f)
		if why == "" {
			continue
		}
		what := "fact"
		if f == &section {
			what = "section name"
		}
		if strict {
			o.Reason, o.Detail = "invalid", "the "+what+" holds "+why+"; memory keeps plain text, so remember it without that"
			return o
		}
		// Data keeps U+FFFD (what it makes of bytes that are not UTF-8), which
		// Check refuses: removed here too, the repair writes what it says.
		*f = strings.TrimSpace(strings.ReplaceAll(mk.Data(*f), "\uFFFD", ""))
		repaired = append(repaired, "removed "+why+" from the "+what)
	}
	if fact == "" {
		o.Reason, o.Detail = "invalid", "a fact must be non-empty UTF-8 text"
		return o
	}
	for _, f := range []*string{&section, &fact} {
		clean, kinds := redact.String(*f)
		if head := "## " + section + "\n- "; f == &fact && len(kinds) == 0 {
			// The fact as it will stand, under its section: "grafana: PW"
			// under "Passwords" gives a password (redact's listed secrets).
			if c, k := redact.String(head + fact); len(k) > 0 && strings.HasPrefix(c, head) {
				clean, kinds = c[len(head):], k
			}
		}
		if len(kinds) > 0 {
			what := "fact"
			if f == &section {
				what = "section name"
			}
			if strict {
				o.Reason, o.Detail = "secret", "the "+what+" contains what looks like a secret ("+strings.Join(kinds, ", ")+"); memory files are read by people and models, so remember it without the secret"
				return o
			}
			*f = clean
			if f == &section {
				repaired = append(repaired, "redacted "+strings.Join(kinds, ", ")+" from the section name")
			} else {
				repaired = append(repaired, "redacted "+strings.Join(kinds, ", "))
			}
		}
	}
	if n := utf8.RuneCountInString(fact); n > maxFactRunes {
		if strict {
			o.Reason, o.Detail = "too_long", "it is "+numstr.Itoa(n)+" characters, over "+numstr.Itoa(maxFactRunes)+"; put the detail in a topic file and remember a one-line pointer to it"
			return o
		}
		fact = cutRunes(fact, maxFactRunes)
		repaired = append(repaired, "cut to "+numstr.Itoa(maxFactRunes)+" characters")
	}
	o.Text, o.Section, o.Detail = fact, section, strings.Join(repaired, "; ")
	return o
}

// check validates a staged fact against the file src (parsed into pages) and
// returns the new file when it may be written. A duplicate is never written,
// strict or not: the caller confirms the page it duplicates instead.
//
//	check("Run make test", "Notes", src, pages, rules{Strict: true, …}).Commit => true
func check(text, section string, src []byte, pages []page, r rules) outcome {
	o := checkFact(text, section, r.Strict)
	if o.Reason != "" {
		return o
	}
	text, section = o.Text, o.Section
	var repaired []string
	if o.Detail != "" {
		repaired = append(repaired, o.Detail)
	}
	if i := duplicate(text, pages); i >= 0 {
		p := &pages[i]
		o.Reason, o.Duplicate = "duplicate", i
		o.Detail = "already in " + r.File + ":" + numstr.Itoa(p.Line) + " (" + p.ID + ")"
		return o
	}
	if !utf8.Valid(src) && strings.IndexFunc(text, func(c rune) bool { return c >= 0x80 }) >= 0 {
		o.Reason = "invalid"
		o.Detail = r.File + " is not UTF-8 text (Latin-1, or another encoding): a fact that is not ASCII would mix two encodings in it; save it as UTF-8 first"
		return o
	}
	out, line := insert(src, section, text)
	// A marker may span lines (marker.Check reads line ends as blanks): the
	// fact and its heading must not make one with the lines around them
	// ("ends with </" above, "pi-memory-recall> …" remembered next).
	if why := mk.Check(lf(out)); why != "" && mk.Check(lf(src)) == "" {
		o.Reason, o.Detail = "invalid", "with the lines around it in "+r.File+", the fact would make "+why+"; memory keeps plain text, so remember it without that"
		return o
	}
	if !readsBack(out, line) {
		o.Reason = "invalid"
		o.Detail = "in " + r.File + " the new bullet would fall inside an open code fence or HTML comment and not read as a fact; close it, then flush again"
		return o
	}
	if over := overCaps(strings.Count(string(out), "\n"), len(out), r.MaxLines, r.MaxBytes); over != "" {
		msg := r.File + " would be " + over + ", so part of it would stop being injected; move detail to a topic file or archive/ first"
		if r.Strict {
			o.Reason, o.Detail = "index_cap", msg
			return o
		}
		o.Warning = msg
	}
	o.Commit, o.Text, o.Out, o.Line = true, text, out, line
	o.Detail = strings.Join(repaired, "; ")
	return o
}

// lf is a file's text with CRLF line ends read as LF: a CR there is a line's
// end, not a control character marker.Check would name.
func lf(b []byte) string { return strings.ReplaceAll(string(b), "\r\n", "\n") }

// overCaps says how an index of lines and bytes passes the injection caps,
// naming only the caps it passes; "" when it fits.
//
//	overCaps(250, 9000, 200, 8192) => "250 lines, over maxInjectLines 200, and 9000 bytes, over maxInjectBytes 8192"
func overCaps(lines, bytes, maxLines, maxBytes int) string {
	var parts []string
	if lines > maxLines {
		parts = append(parts, numstr.Itoa(lines)+" lines, over maxInjectLines "+numstr.Itoa(maxLines))
	}
	if bytes > maxBytes {
		parts = append(parts, numstr.Itoa(bytes)+" bytes, over maxInjectBytes "+numstr.Itoa(maxBytes))
	}
	return strings.Join(parts, ", and ")
}

func cutRunes(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	n, end := 0, 0
	for i := range s {
		if n == max-1 {
			end = i
			break
		}
		n++
	}
	cut := s[:end]
	if sp := strings.LastIndexByte(cut, ' '); sp > len(cut)/2 {
		cut = cut[:sp]
	}
	return strings.TrimRight(cut, " ") + "…"
}

// insert appends "- text" as the last item of the "## section" of src (the
// first level-2 heading whose text matches, ignoring case), creating the
// section at the end of the file when there is none. It returns the new file
// and the 1-based line of the new bullet. Everything else stays byte for byte.
//
//	insert([]byte("## Build\n- make\n\n## Style\n- tabs\n"), "Build", "make test") => "## Build\n- make\n- make test\n\n## Style\n- tabs\n", 3
func insert(src []byte, section, text string) ([]byte, int) {
	return insertBlock(src, section, "- "+text+"\n", 2)
}

// insertBlock is insert for any block of whole lines ("\n" line ends,
// written as the file's): it goes after the last non-blank line of the
// first section whose heading has text section and a level from 2 to
// maxLevel, which ends at the next heading of its level or above; a missing
// section is created at the end as "## section". The section "" is the top
// of the file, before its first heading of level 2 or more. It returns the
// new file and the 1-based line of the block's first line.
func insertBlock(src []byte, section, block string, maxLevel int) ([]byte, int) {
	if hasBOM(src) {
		out, line := insertBlock(src[len(utf8BOM):], section, block, maxLevel)
		return append([]byte(utf8BOM), out...), line
	}
	// A file written with CRLF line ends keeps them; one without them gets
	// none (a restored entry went with the ends its file had then).
	nl := "\n"
	block = strings.ReplaceAll(block, "\r\n", "\n")
	if strings.Contains(string(src), "\r\n") {
		nl = "\r\n"
		block = strings.ReplaceAll(block, "\n", "\r\n")
	}
	bullet := block
	lines := mdSplit(string(src))
	head := headings(src, len(lines)) // a "## Notes" in a code sample is not the section
	start, level := -1, 2
	if section == "" {
		return insertTop(lines, head, block, nl)
	}
	for i, l := range lines {
		if lvl, t := headingOf(l); head[i] && lvl >= 2 && lvl <= maxLevel && strings.EqualFold(t, section) {
			start, level = i, lvl
			break
		}
	}
	if start < 0 {
		var b text.Builder
		b.Write(src)
		if len(src) > 0 && !strings.HasSuffix(string(src), "\n") {
			b.WriteString(nl)
		}
		if len(strings.TrimSpace(string(src))) > 0 {
			if !strings.HasSuffix(string(src), "\n\n") && !strings.HasSuffix(string(src), "\n\r\n") {
				b.WriteString(nl)
			}
		}
		b.WriteString("## " + section + nl + nl)
		line := strings.Count(b.String(), "\n") + 1
		b.WriteString(bullet)
		return []byte(b.String()), line
	}
	// The section ends at the next heading of level 1 or 2, or at the end; the
	// bullet goes after its last non-blank line, inside any fence's end.
	end := len(lines)
	for i := start + 1; i < len(lines); i++ {
		if lvl, _ := headingOf(lines[i]); head[i] && lvl >= 1 && lvl <= level {
			end = i
			break
		}
	}
	at := end
	for at > start+1 && strings.TrimSpace(lines[at-1]) == "" {
		at--
	}
	// A heading straight followed by its first item: keep a blank line
	// between them, as the section creation above does.
	return splice(lines, at, bullet, nl, at == start+1, false)
}

// splice puts block before lines[at], ending the line before it first;
// blankBefore and blankAfter keep a blank line on either side. It returns
// the file and the 1-based line block starts on.
func splice(lines []string, at int, block, nl string, blankBefore, blankAfter bool) ([]byte, int) {
	var b text.Builder
	for i := 0; i < at; i++ {
		b.WriteString(lines[i])
	}
	if at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
		b.WriteString(nl)
	}
	if blankBefore {
		b.WriteString(nl)
	}
	line := strings.Count(b.String(), "\n") + 1
	b.WriteString(block)
	if blankAfter {
		b.WriteString(nl)
	}
	for i := at; i < len(lines); i++ {
		b.WriteString(lines[i])
	}
	return []byte(b.String()), line
}

// insertTop puts block after the last non-blank line before the file's
// first heading of level 2 or more (the part a section "" names).
func insertTop(lines []string, head []bool, block, nl string) ([]byte, int) {
	end := len(lines)
	for i := range lines {
		if lvl, _ := headingOf(lines[i]); head[i] && lvl >= 2 {
			end = i
			break
		}
	}
	at := end
	for at > 0 && strings.TrimSpace(lines[at-1]) == "" {
		at--
	}
	// A heading right after: keep a blank line before it.
	return splice(lines, at, block, nl, false, at == end && end < len(lines))
}

// headingOf returns the level and text of an ATX heading line, or 0. It is
// the parser's rule (mdHeading), so "## C#" is the section "C#" here too.
func headingOf(line string) (int, string) {
	if n, text, ok := mdHeading(mdBody(line)); ok {
		return n, strings.TrimSpace(text)
	}
	return 0, ""
}

// headings marks the n lines of src that the parser reads as headings: a
// "## x" in a code block, an HTML comment or a list item is none (h-v92 B3:
// a line scanner that knew only code blocks put a restored entry above a
// comment that held its section's name).
func headings(src []byte, n int) []bool {
	head := make([]bool, n)
	for _, p := range parse("", src) {
		if p.Kind == kindHeading && p.Line >= 1 && p.Line <= n {
			head[p.Line-1] = true
		}
	}
	return head
}

// readsBack reports whether the bullet insert put at line of out parses as
// a fact or pointer of its own. It does not when something before it left a
// code fence or an HTML comment open: the bullet would be read as part of it.
func readsBack(out []byte, line int) bool {
	for _, p := range parse("", out) {
		if p.Line == line {
			return p.Kind == kindFact || p.Kind == kindPointer
		}
		if p.Line > line {
			break
		}
	}
	return false
}
