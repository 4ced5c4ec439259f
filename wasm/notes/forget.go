package notes

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Forgetting and restoring an entry (store.Forgetter; the driver is
// driver_forget.go): which entry a reference names, how the file changes,
// and the recovery records of forgotten.jsonl that bring an entry back.
//
// A note's reference is "<file>:<line>#<page id>": the memory file (an
// index, MEMORY.md or MEMORY.local.md, or a topic file beside an index),
// absolute, relative to the project root or to the home folder ("~/…"),
// the line where search found the entry, and the id of its page (P- and 10
// hex digits of its scope, kind and text, "-2"… for a repeat in the file),
// as search hits cite it. The id names the entry; the line only says where
// it was. The entry is the whole bullet (a fact or a pointer, with its
// continuation and nested lines), found again under the scope's lock in the
// file as it is then, so a stale reference, or two processes forgetting one
// entry at once, never removes another entry. Forget hands back the id of its
// recovery record, "F-" and 8 hex digits, which Restore takes.
//
//	/home/ada/app/.pi/memory/MEMORY.md:7#P-7b8d6c97ae
//	.pi/memory/build.md:3#P-448f928cb9
//	F-1a2b3c4d

// noteRef is a note's reference, split.
type noteRef struct {
	File string
	Line int
	ID   string // the page id; "" for a bare "<file>:<line>", which names no entry
}

// parseRef splits a note's reference. ok is false for what is not one (a
// decision id, a restore id, a file that is not markdown, a line that is
// not a positive whole number, an id that is not a page's).
//
//	parseRef("/p/.pi/memory/MEMORY.md:7#P-7b8d6c97ae") => {"/p/.pi/memory/MEMORY.md", 7, "P-7b8d6c97ae"}, true
//	parseRef("/p/.pi/memory/MEMORY.md:7")              => {"/p/.pi/memory/MEMORY.md", 7, ""}, true
//	parseRef("D-0001")                                 => {}, false
func parseRef(ref string) (noteRef, bool) {
	id := ""
	if h := strings.LastIndexByte(ref, '#'); h >= 0 {
		ref, id = ref[:h], ref[h+1:]
		if !isPageID(id) {
			return noteRef{}, false
		}
	}
	i := strings.LastIndexByte(ref, ':')
	if i <= 0 {
		return noteRef{}, false
	}
	file, num := strings.TrimSpace(ref[:i]), ref[i+1:]
	if num == "" || len(num) > 9 || strings.TrimLeft(num, "0123456789") != "" {
		return noteRef{}, false
	}
	line, _ := strconv.Atoi(num)
	if line < 1 || !strings.HasSuffix(strings.ToLower(file), ".md") {
		return noteRef{}, false
	}
	return noteRef{file, line, id}, true
}

// formatRef is a note's reference: "<file>:<line>#<page id>".
func formatRef(file string, line int, id string) string {
	return file + ":" + numstr.Itoa(line) + "#" + id
}

// isPageID reports whether id is a page's: "P-", 10 lower-case hex digits,
// and "-N" (N ≥ 2) for a repeat.
func isPageID(id string) bool {
	if len(id) < 12 || id[:2] != "P-" || !isLowerHex(id[2:12]) {
		return false
	}
	rest := id[12:]
	if rest == "" {
		return true
	}
	n, err := strconv.Atoi(strings.TrimPrefix(rest, "-"))
	return rest[0] == '-' && rest[1] != '0' && err == nil && n >= 2
}

func isLowerHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// isRestoreID reports whether ref is a recovery record's id: "F-" and 8
// lower-case hex digits.
func isRestoreID(ref string) bool {
	return len(ref) == 10 && ref[:2] == "F-" && isLowerHex(ref[2:])
}

// normRestoreID is ref as a person typed or pasted a recovery record's id,
// spelled as records write it: blanks around it trimmed, "f-" and capital
// hex digits read small, a typographic dash read as "-" (as decision ids
// are since h-v97; h-v100 d). Anything else is ref as it was.
//
//	normRestoreID(" f–1A2B3C4D ") => "F-1a2b3c4d"
func normRestoreID(ref string) string {
	r := strings.TrimSpace(ref)
	for _, d := range [...]string{"\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212", "\ufe63", "\uff0d"} {
		r = strings.Replace(r, d, "-", 1)
	}
	if len(r) == 10 && (r[:2] == "F-" || r[:2] == "f-") && isLowerHex(strings.ToLower(r[2:])) {
		return "F-" + strings.ToLower(r[2:])
	}
	return ref
}

// entryAt finds the entry of pages that covers line: a fact or pointer
// page whose lines, its trailing blank lines left out, hold it. It returns
// the page's index, or -1 and why there is no entry there, in words ("line
// 2 is a heading, not an entry"). lines is the file's line count.
func entryAt(pages []page, line, lines int) (int, string) {
	if line > lines {
		return -1, "line " + numstr.Itoa(line) + " is past the end (the file has " + text.Plural(lines, "line", "lines") + ")"
	}
	for i := range pages {
		p := &pages[i]
		if line < p.Line || line >= p.Line+p.Lines {
			continue
		}
		if line >= p.Line+contentLines(p.Src) {
			return -1, "line " + numstr.Itoa(line) + " is blank, not an entry"
		}
		switch p.Kind {
		case kindFact, kindPointer:
			if p.Text == "" {
				// No text to keep in its recovery record, which could not
				// be restored (h-v93 d5).
				return -1, "line " + numstr.Itoa(line) + " is an empty list item, with nothing to forget; delete it by hand"
			}
			return i, ""
		case kindHeading:
			return -1, "line " + numstr.Itoa(line) + " is a heading, not an entry; forget the entries under it one by one"
		}
		return -1, "line " + numstr.Itoa(line) + " is text, not a bullet entry; edit the file by hand"
	}
	return -1, "line " + numstr.Itoa(line) + " is not an entry"
}

// distance is how many lines apart a and b are.
func distance(a, b int) int { return max(a-b, b-a) }

// isHeadingLine reports whether line is an ATX heading.
func isHeadingLine(line string) bool {
	lvl, _ := headingOf(line)
	return lvl > 0
}

// contentLines counts the lines of src before its trailing blank lines.
func contentLines(src string) int {
	lines := mdSplit(src)
	n := len(lines)
	for n > 0 && strings.TrimSpace(lines[n-1]) == "" {
		n--
	}
	return n
}

// forgetEntry removes the entry ref names from data, a memory file of
// scope (display names it as a person opens it): it returns the file
// without the entry, the record of what went (its ID, time, scope and file
// are the caller's to set) and whether the entry held a secret, or why
// nothing can be removed. The entry is found by its page id among the
// pages of the file's view (view.go), and removed from the file itself:
// the view's pages are the file's, line for line, and one that is not (a
// mark that reads as markdown) is refused, not guessed at. The record keeps
// the view's lines: an entry without a secret exactly as it was in the
// file, one with a secret with its marks (a secret written by hand into the
// file does not move into a sidecar).
func forgetEntry(scope, display string, data []byte, ref noteRef, taken []string) (out []byte, rec forgotten, secret bool, why string) {
	view, pages := readView(scope, data, taken)
	if ref.ID == "" {
		// A bare line names where an entry was when someone looked, not the
		// entry: name the one there now, and the reference that removes it.
		i, why := entryAt(pages, ref.Line, lineCount(view))
		if i < 0 {
			return nil, rec, false, display + ": " + why + "; nothing was forgotten"
		}
		p := &pages[i]
		return nil, rec, false, display + " line " + numstr.Itoa(ref.Line) + " is " + quoteFact(p.Text) +
			"; a note is forgotten by its id, which names the entry wherever it moves: " + formatRef(display, p.Line, p.ID) + "; nothing was forgotten"
	}
	i := -1
	for k := range pages {
		if pages[k].ID == ref.ID {
			i = k
			break
		}
	}
	if i >= 0 && pages[i].Line != ref.Line {
		// Forgets and restores move lines, never ids (a forgotten entry
		// keeps its id: parser.taken), so the id names the entry: the twin
		// nearest the cited line is another one (h-v92 B1). Only a copy
		// typed by hand above takes the ids of the twins below it: one put
		// in an earlier section took the id of the one cited in a later
		// one (h-v89 B2). Of its twins in other sections, one nearer the
		// cited line is the one meant.
		held := i
		for k := range pages {
			if pages[k].Hash == pages[held].Hash && pages[k].Section != pages[held].Section && distance(pages[k].Line, ref.Line) < distance(pages[i].Line, ref.Line) {
				i = k
			}
		}
	}
	if i < 0 {
		return nil, rec, false, ""
	}
	p := &pages[i]
	if p.Kind != kindFact && p.Kind != kindPointer {
		return nil, rec, false, display + ": " + ref.ID + " is not a bullet entry; edit the file by hand; nothing was forgotten"
	}
	if p.Text == "" {
		return nil, rec, false, display + " line " + numstr.Itoa(p.Line) + " is an empty list item, with nothing to forget; delete it by hand; nothing was forgotten"
	}
	n := contentLines(p.Src)
	raw := parse(scope, data)
	if k := pageAtLine(raw, p.Line); k < 0 || raw[k].Lines != p.Lines || raw[k].Kind != p.Kind {
		return nil, rec, false, display + " line " + numstr.Itoa(p.Line) + ": the entry reads differently once its secrets are hidden; edit the file by hand; nothing was forgotten"
	}
	out, removed := removeEntry(data, p.Line, n)
	if !utf8.ValidString(removed) {
		// Its record is JSON, which holds UTF-8 alone: restore would give
		// back U+FFFD for what is not.
		return nil, rec, false, display + " line " + numstr.Itoa(p.Line) + ": the entry is not UTF-8 text (the file was saved in another encoding, such as Latin-1); save the file as UTF-8 and forget it again; nothing was forgotten"
	}
	if !hasBOM(data) && hasBOM(out) {
		// The entry stood before a U+FEFF that would then open the file and
		// read as its byte-order mark: restore could not put it back before.
		return nil, rec, false, display + " line " + numstr.Itoa(p.Line) + ": the entry stands before an invisible character (U+FEFF) that would become the file's byte-order mark; edit the file by hand; nothing was forgotten"
	}
	_, kept := removeEntry(view, p.Line, n)
	// What is above and below it is read in the file as it is left: a
	// line's view can change with the entry gone (the body of a key whose
	// first line went reads as itself), and restore compares with that file.
	before, after := neighbours(out, scope, p.Line-1)
	rec = forgotten{Line: p.Line, Section: p.Section, Text: p.Text, Page: p.ID, Src: kept, Before: before, After: after, HasAfter: true}
	_, body := splitBOM(out)
	if crlf, ok := endings(mdSplit(body), p.Line-1); ok {
		rec.Ends = "lf"
		if crlf {
			rec.Ends = "crlf"
		}
	}
	// Its twins, the same text in its section, stay: a restore is refused
	// only when more than they say it again.
	if _, n := saying(p.Text, p.Section, pages); n > 1 {
		rec.Twins = n - 1
	}
	return out, rec, kept != removed, ""
}

// sameLine: the view's line l reads as want, a record's line, whose JSON
// turned each byte of it that is not UTF-8 into U+FFFD (a Latin-1 file's
// lines: jsonw).
func sameLine(l, want string) bool {
	if l = mdBody(l); l == want || utf8.ValidString(l) {
		return l == want
	}
	var b text.Builder
	for i := 0; i < len(l); {
		r, n := utf8.DecodeRuneInString(l[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(l[i : i+n])
		}
		i += n
	}
	return b.String() == want
}

// pageAtLine is the index of the page that starts at line, -1 for none.
func pageAtLine(pages []page, line int) int {
	for i := range pages {
		if pages[i].Line == line {
			return i
		}
	}
	return -1
}

// removeEntry removes the n lines starting at line (1-based) from src. When
// the entry stood after a blank line or at the top, the blank lines that
// followed it go too, so no double blank is left. It returns the new file,
// the removed text exactly as it was (line ends included; the file's last
// line may have none). A byte-order mark stays in the file: it belongs to
// no line.
//
//	removeEntry("## B\n\n- a\n\n## C\n", 3, 1) => "## B\n\n## C\n", "- a\n\n"
//	removeEntry("## B\n- a\n- b", 3, 1)        => "## B\n- a\n", "- b"
func removeEntry(src []byte, line, n int) (out []byte, removed string) {
	bom, body := splitBOM(src)
	lines := mdSplit(body)
	start := line - 1
	end := start + n
	if start < 0 || end > len(lines) || n < 1 {
		return src, ""
	}
	if start == 0 || strings.TrimSpace(lines[start-1]) == "" {
		for end < len(lines) && strings.TrimSpace(lines[end]) == "" {
			end++
		}
	}
	var b text.Builder
	b.WriteString(bom)
	for i := 0; i < start; i++ {
		b.WriteString(lines[i])
	}
	for i := end; i < len(lines); i++ {
		b.WriteString(lines[i])
	}
	return []byte(b.String()), strings.Join(lines[start:end], "")
}

// neighbours is the view of the lines either side of the gap at index at
// (0-based) of data, a memory file: what restoreEntry compares with.
func neighbours(data []byte, scope string, at int) (before, after string) {
	view, _ := readView(scope, data, nil)
	_, body := splitBOM(view)
	lines := mdSplit(body)
	if at > 0 && at <= len(lines) {
		before = mdBody(lines[at-1])
	}
	if at < len(lines) {
		after = mdBody(lines[at])
	}
	return before, after
}

// splitBOM is src's byte-order mark ("" for none) and the rest.
func splitBOM(src []byte) (bom, body string) {
	if hasBOM(src) {
		return utf8BOM, string(src[len(utf8BOM):])
	}
	return "", string(src)
}

// restoreEntry puts a forgotten entry back into src, whose view (view.go)
// is view: where the forgets and restores of its file since (others, its
// records) moved its place (since), when a line around it there is one that
// was or it falls between entries of its section; else at its old line when
// the line above is still the one that was (in the view, as the record
// keeps it), else at the nearest line between the two lines that were
// around it, else at the end of its section (the first heading of level 2
// or more with its text), created when it is gone.
// In its old place it is exactly the bytes it removed while the line after
// is still the one that was too, so a forget and a restore with nothing
// written between give the file back byte for byte; before another line, the
// blank lines removed with it (they stood before a heading) go back only
// before a heading, where they would not open a gap, or after the entries
// they stood after that came back into its hole first. It returns the new
// file, the line the entry starts on and how many of its blank lines went
// to the other part of its hole (tailed).
func restoreEntry(src, view []byte, r *forgotten, others []forgotten) (out []byte, line, tailed int) {
	bom, body := splitBOM(src)
	lines := mdSplit(body)
	_, vbody := splitBOM(view)
	vlines := mdSplit(vbody)
	v := viewLines{vlines, parse("", view)} // parse reads past a byte-order mark as vlines do
	at, hole := r.Line-1, false
	k, tail, later := since(r, others)
	if k >= 0 && len(vlines) == len(lines) && (v.fitsAt(k, r, false) || v.fitsBelow(k, r) || (k != at || later) && v.between(k, r.Section)) {
		// Where the forgets and restores of the file since moved its place:
		// beside a line that was around it, or between two entries of its
		// section (the lines around it then are gone or back too); at its
		// old line so only when entries of its file were forgotten or came
		// back since it went (h-v101 d1: it went to its section's end
		// below them): with none, what changed around it was typed, and
		// the lines it was between say where it goes.
		at, hole = k, true
	} else if len(vlines) == len(lines) && !v.fitsAt(at, r, false) {
		// Lines came or went above it since (another entry restored, a
		// line typed): the nearest place between the same two lines.
		for d := 1; d <= len(vlines); d++ {
			if k := at - d; k >= 0 && k <= len(vlines) && v.fitsAt(k, r, true) {
				at = k
				break
			}
			if k := at + d; k <= len(vlines) && v.fitsAt(k, r, true) {
				at = k
				break
			}
		}
	}
	if at <= len(lines) && len(vlines) == len(lines) && (hole || v.fitsAt(at, r, false) || v.fitsBelow(at, r)) {
		entry, nl := r.Src, "\n"
		// The same lines around it, or its own place as the records tell it
		// (the lines around it went or came back since, as its records
		// say): it goes back as it went, blank lines and all. The blank
		// lines it took after an entry that came back into its hole before
		// it (lift split the hole around that one) go back after that
		// entry, where they stood (tailing).
		same := hole || v.fitsBelow(at, r)
		n := contentLines(entry)
		tailing := hole && tail >= at && tail <= len(lines) && n < len(mdSplit(entry))
		if !same {
			// The file changed around it: it goes back as the file is now.
			if at < len(lines) && !isHeadingLine(lines[at]) {
				entry = strings.Join(mdSplit(entry)[:n], "")
			}
			entry = strings.ReplaceAll(entry, "\r\n", "\n")
			if strings.Contains(body, "\r\n") {
				entry, nl = strings.ReplaceAll(entry, "\n", "\r\n"), "\r\n"
			}
		} else if crlf, ok := endings(lines, at); ok && r.Ends != "" && crlf != (r.Ends == "crlf") {
			// Its own place, the line ends around it changed since (an
			// editor saved the file with CRLF): it goes back with theirs.
			entry = strings.ReplaceAll(entry, "\r\n", "\n")
			if nl = "\n"; crlf {
				entry, nl = strings.ReplaceAll(entry, "\n", "\r\n"), "\r\n"
			}
		}
		var blank string
		if tailing {
			e := mdSplit(entry)
			entry, blank = strings.Join(e[:n], ""), strings.Join(e[n:], "")
		}
		var b text.Builder
		b.WriteString(bom)
		for i := 0; i < at; i++ {
			b.WriteString(lines[i])
		}
		// Line ends that were there when it went, if the file lost them since.
		if at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
			b.WriteString(nl)
		}
		b.WriteString(entry)
		if at < len(lines) && !strings.HasSuffix(entry, "\n") {
			b.WriteString(nl)
		}
		for i := at; i < len(lines); i++ {
			if blank != "" && i == tail {
				b.WriteString(blank)
			}
			b.WriteString(lines[i])
		}
		if blank != "" && tail == len(lines) {
			b.WriteString(blank) // at the file's end
		}
		// Not into a code block or a comment that lines around its place
		// opened since: there it would be no entry (its section's end); nor
		// right above a paragraph that would read as its continuation, with
		// the blank line between them still out with another entry (h-v101
		// d2: the driver refused the restore, blaming the record).
		if out := []byte(b.String()); readsBack(out, at+1) && addsOneEntry("", src, out) {
			return out, at + 1, len(mdSplit(blank))
		}
	}
	entry := mdSplit(r.Src)
	entry = entry[:contentLines(r.Src)]
	block := strings.Join(entry, "")
	if !strings.HasSuffix(block, "\n") {
		block += "\n"
	}
	out, line = insertBlock(src, r.Section, block, 6)
	return out, line, 0
}

// fitsBelow: line at (of the view's lines) is the one that was below the
// entry when it went.
// A blank line is one only in its section: the blank line that ends
// another section is not the one that was below it.
func (v viewLines) fitsBelow(at int, r *forgotten) bool {
	vlines := v.lines
	return r.HasAfter && at >= 0 && (at < len(vlines) && sameLine(vlines[at], r.After) && (r.After != "" || v.sectionAt(at) == r.Section) || at == len(vlines) && r.After == "")
}

// between: line at (of the view's lines) starts an entry, a heading or a
// blank line, or the file ends there, and the section it is in is section:
// an entry put there splits no other.
func (v viewLines) between(at int, section string) bool {
	vlines := v.lines
	if at < 0 || at > len(vlines) {
		return false
	}
	// Only before an entry, a heading, a blank line, a code block's fence or
	// a comment (they end the entry above them: h-v93 d1): an entry put
	// right above a plain line would take it as its lazy continuation.
	if at < len(vlines) && !mdBlank(vlines[at]) && !isHeadingLine(vlines[at]) {
		body := mdBody(vlines[at])
		_, _, fi, fence := mdFence(body)
		ci, comment := mdCommentOpen(body)
		if _, _, ok := mdBullet(body); !ok && !(fence && fi < 4) && !(comment && ci < 4) {
			return false
		}
	}
	return v.sectionAt(at) == section
}

// viewLines are a view's lines and its pages, which say what section each
// line is in as the parser reads sections: a "## x" in a list item, a code
// block or a comment heads none.
type viewLines struct {
	lines []string
	pages []page
}

// sectionAt is the section of the place before line at (of the view's
// lines): the text of the nearest heading above of level 2 or more that
// the parser reads as one; "" at the top, or under a level-1 heading.
func (v viewLines) sectionAt(at int) string {
	i := sort.Search(len(v.pages), func(i int) bool { return v.pages[i].Line > at }) - 1
	if at <= 0 || i < 0 {
		return ""
	}
	return v.pages[i].Section
}

// since is where r's first line goes in its file now, as the forgets and
// restores its records name (others, every record of the file's
// forgotten.jsonl, in their lines' order) moved it. The file is followed
// as runs of lines and holes, a hole for each entry forgotten and not back,
// where its lines were: r's place is the lines before its hole. Holes
// between the same two lines keep the order their entries stood in, which
// their line numbers alone do not tell (each was counted in the file of its
// own moment). -1 when others do not hold r. later: another entry of the
// file was forgotten or came back after r went. tail is where the last part of r's hole is when an entry r took with it
// came back first and split it (-1 for none): the blank lines r took after
// that entry go back there.
//
//	forgot "- a" (line 3), then "- b" (line 3, "- a" gone), restored "- a" to line 3: "- b" goes to line 4
func since(r *forgotten, others []forgotten) (at, tail int, later bool) {
	type event struct {
		seq     int
		q       *forgotten
		restore bool
	}
	var evs []event
	for i := range others {
		q := &others[i]
		if q.File != r.File {
			continue
		}
		evs = append(evs, event{q.Seq, q, false})
		if q.RestoreSeq > 0 && q.ID != r.ID {
			evs = append(evs, event{q.RestoreSeq, q, true})
		}
	}
	slices.SortFunc(evs, func(a, b event) int { return a.seq - b.seq })
	later = len(evs) > 0 && evs[len(evs)-1].seq > r.Seq
	doc := []lineRun{{n: 1 << 30}}
	for _, e := range evs {
		if e.restore {
			n := e.q.RestoredLines
			if n == 0 {
				n = e.q.Lines // a record written before restores counted them
			}
			doc = fillHole(doc, e.q.ID, e.q.RestoredLine-1, n, e.q.RestoredTail)
		} else {
			doc = cutHole(doc, e.q.Line-1, e.q.Lines, e.q.ID)
		}
	}
	at, tail = -1, -1
	n := 0
	for _, x := range doc {
		if x.n == 0 && at < 0 && (x.id == r.ID || holds(x.inner, r.ID)) {
			// r's own hole, or one it is in: an entry forgotten after r took
			// the lines around r's place, and r goes where that entry was.
			at = n
		} else if x.n == 0 && at >= 0 && x.id == r.ID {
			// The other part of r's hole, which an entry it held split in
			// two when it came back (lift): the lines r took after that
			// entry's place are there.
			tail = n
		}
		n += x.n
	}
	return at, tail, later
}

// holds: runs hold the hole of id, at any depth. A loop, not a call per
// level: the records that nest holes are read from a file, and the core's
// stack is 64 KiB.
func holds(runs []lineRun, id string) bool {
	stack := [][]lineRun{runs}
	for len(stack) > 0 {
		rs := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, x := range rs {
			if x.n != 0 {
				continue
			}
			if x.id == id {
				return true
			}
			if len(x.inner) > 0 {
				stack = append(stack, x.inner)
			}
		}
	}
	return false
}

// lineRun is n lines of a file, or (n 0) the hole of the entry forgotten
// by record id, with what the forget took (inner): its lines, and the
// holes of entries forgotten before it that stood between them (an entry
// that took the blank line after another one gone).
type lineRun struct {
	n     int
	id    string
	inner []lineRun
}

// cutHole takes n lines away at line p (0-based) and leaves the hole of id
// where they were: after the holes already before line p, before those
// after the lines it takes; the holes between them go into it. doc changes
// in place: a restore follows every record of its file, and a copy of the
// runs for each made thousands of records cost minutes under TinyGo's
// collector (h-v100 d4).
func cutHole(doc []lineRun, p, n int, id string) []lineRun {
	doc, k := splitAt(doc, p)
	hole := lineRun{id: id}
	j := k
	for ; j < len(doc) && n > 0; j++ {
		if doc[j].n == 0 {
			hole.inner = append(hole.inner, doc[j])
			continue
		}
		take := min(doc[j].n, n)
		hole.inner = append(hole.inner, lineRun{n: take})
		n -= take
		if doc[j].n > take {
			doc[j].n -= take
			break
		}
	}
	return joinAt(slices.Replace(doc, k, j, hole), k, k+1)
}

// fillHole brings n lines back for record id at line p: in its hole when
// the hole is there (what the forget took, the holes between its lines
// with it: refill; tail of them in the hole's other part when lift split
// it), else (it went back elsewhere: its section's end) the
// hole goes and the lines come in at p, after any hole there, the holes it
// held after them. doc changes in place, as in cutHole.
func fillHole(doc []lineRun, id string, p, n, tail int) []lineRun {
	doc = lift(doc, id)
	at := 0
	var inner []lineRun
	for k, x := range doc {
		if x.n == 0 && x.id == id {
			if at == p {
				fill := refill(x.inner, n-tail)
				if rest, split := unsplit(doc[k+1:], id, tail); split {
					return joinRuns(slices.Concat(doc[:k:k], fill, rest))
				}
				return joinAt(slices.Replace(doc, k, k+1, fill...), k, k+len(fill))
			}
			inner = x.inner
			doc, _ = unsplit(slices.Delete(doc, k, k+1), id, 0)
			break
		}
		at += x.n
	}
	back := []lineRun{{n: n}}
	for _, x := range inner {
		if x.n == 0 {
			back = append(back, x)
		}
	}
	doc, k := splitAt(doc, p)
	return joinAt(slices.Insert(doc, k, back...), k, k+len(back))
}

// splitAt cuts doc at line p (0-based): the index k of the run that holds
// line p, after the holes already there, the run it was in split in two
// so that one starts there.
func splitAt(doc []lineRun, p int) ([]lineRun, int) {
	at, k := 0, 0
	for ; k < len(doc) && (doc[k].n == 0 || at+doc[k].n <= p); k++ {
		at += doc[k].n
	}
	if k < len(doc) && p > at {
		doc = slices.Insert(doc, k, lineRun{n: p - at})
		doc[k+1].n -= p - at
		k++
	}
	return doc, k
}

// bodyLines is how many lines a file has after its byte-order mark.
func bodyLines(b []byte) int {
	_, body := splitBOM(b)
	n := strings.Count(body, "\n")
	if body != "" && !strings.HasSuffix(body, "\n") {
		n++
	}
	return n
}

// lift brings the hole of id up from inside another hole, which it splits
// in two around it: the entry is back while the one that took the lines
// around its place is not, and goes between that one's two parts.
func lift(doc []lineRun, id string) []lineRun {
	// The holes down to the one that holds id's directly, then each split
	// around it from the bottom up (a loop: see holds).
	levels, path := [][]lineRun{doc}, []int(nil)
	for cur := doc; ; {
		k := slices.IndexFunc(cur, func(x lineRun) bool { return x.n == 0 && x.id != id && holds(x.inner, id) })
		if k < 0 {
			break
		}
		path = append(path, k)
		cur = cur[k].inner
		levels = append(levels, cur)
	}
	inner := levels[len(levels)-1]
	for i := len(path) - 1; i >= 0; i-- {
		x := levels[i][path[i]]
		j := slices.IndexFunc(inner, func(y lineRun) bool { return y.n == 0 && y.id == id })
		if j < 0 {
			return doc
		}
		before := lineRun{id: x.id, inner: inner[:j:j]}
		after := lineRun{id: x.id, inner: inner[j+1:]}
		inner = slices.Concat(levels[i][:path[i]:path[i]], []lineRun{before, inner[j], after}, levels[i][path[i]+1:])
	}
	return inner
}

// unsplit takes the other parts of a hole lift split (id's) out of runs,
// leaving the holes they held where they were: their lines came back with
// the first part's, but for the last tail lines, which came back in the
// last part (restoreEntry's tailed), after the holes there. split says
// there were any (else runs is returned as it is).
func unsplit(runs []lineRun, id string, tail int) (_ []lineRun, split bool) {
	last := -1
	for k, x := range runs {
		if x.n == 0 && x.id == id {
			last = k
		}
	}
	if last < 0 {
		return runs, false
	}
	out := make([]lineRun, 0, len(runs)+4)
	for k, x := range runs {
		switch {
		case x.n != 0 || x.id != id:
			out = append(out, x)
		case k == last && tail > 0:
			out = append(out, refillLast(x.inner, tail)...)
		default:
			for _, y := range x.inner {
				if y.n == 0 {
					out = append(out, y)
				}
			}
		}
	}
	return out, true
}

// refillLast is a hole's part (inner) when its last n lines came back: the
// holes it held where they were, and those lines, any more at the start.
func refillLast(inner []lineRun, n int) []lineRun {
	out := make([]lineRun, len(inner), len(inner)+1)
	copy(out, inner)
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].n > 0 {
			out[i].n = min(out[i].n, n)
			n -= out[i].n
		}
	}
	if n > 0 {
		out = append([]lineRun{{n: n}}, out...)
	}
	return joinRuns(out)
}

// refill is what a forget took (inner) when n lines of it came back in its
// place: its lines up to n (a restore beside other lines than it had
// leaves the blank lines it took), the holes among them where they were,
// and any lines more at the end.
func refill(inner []lineRun, n int) []lineRun {
	out := make([]lineRun, 0, len(inner)+1)
	for _, x := range inner {
		if x.n > 0 {
			if x.n = min(x.n, n); x.n == 0 {
				continue
			}
			n -= x.n
		}
		out = append(out, x)
	}
	if n > 0 {
		out = append(out, lineRun{n: n})
	}
	return out
}

// joinAt is joinRuns over the runs doc[lo:hi] that changed and their
// neighbours, the rest of doc joined already: a change costs what it
// touched, not the file's every run (h-v100 d4).
func joinAt(doc []lineRun, lo, hi int) []lineRun {
	lo, hi = max(0, lo-1), min(len(doc), hi+1)
	w := joinRuns(doc[lo:hi])
	n := copy(doc[lo+len(w):], doc[hi:])
	return doc[:lo+len(w)+n]
}

// joinRuns merges runs of lines that touch, and drops runs of no lines
// that are no hole (what refill leaves when all it took came back): left,
// they read as holes beside the holes around them, and a file forgotten
// from and restored to thousands of times held thousands of them, each
// walked at every event after it (h-v92 B4: 3,000 pairs, a restore of
// minutes).
func joinRuns(doc []lineRun) []lineRun {
	out := doc[:0]
	for _, x := range doc {
		if x.n == 0 && x.id == "" {
			continue
		}
		if k := len(out) - 1; x.n > 0 && k >= 0 && out[k].n > 0 {
			out[k].n += x.n
			continue
		}
		out = append(out, x)
	}
	return out
}

// fitsAt: the line above line at (of the view's lines) is the one that was
// above the entry when it went; with both, the one below is the one that
// was below it too.
func (v viewLines) fitsAt(at int, r *forgotten, both bool) bool {
	vlines := v.lines
	// Before is "" at the top and for a blank line above: the top is its
	// place only when it stood there (a blank line above it was not; a
	// heading inside a list item above it made its section seem another).
	if at < 0 || at > len(vlines) || !(at == 0 && r.Before == "" && r.Line == 1 || at > 0 && sameLine(vlines[at-1], r.Before) && (r.Before != "" || v.sectionAt(at) == r.Section)) {
		return false
	}
	return !both || v.fitsBelow(at, r)
}

// endings says whether the lines around line at (the one above, the one
// below) end with CRLF, when every one of them that has a line end agrees.
func endings(lines []string, at int) (crlf, ok bool) {
	n := 0
	for _, i := range [2]int{at - 1, at} {
		if i < 0 || i >= len(lines) || !strings.HasSuffix(lines[i], "\n") {
			continue
		}
		c := strings.HasSuffix(lines[i], "\r\n")
		if n > 0 && c != crlf {
			return false, false
		}
		crlf, n = c, n+1
	}
	return crlf, n > 0
}

// ---- Recovery records ----------------------------------------------------------

// forgotten is one record of forgotten.jsonl: an entry Forget removed, and
// whether Restore brought it back.
type forgotten struct {
	ID      string // "F-" + 8 hex digits
	T       int64
	Scope   string // global, project or local: whose lock and sidecars
	File    string // the memory file, absolute
	Line    int    // the entry's first line when it was removed
	Section string // the "##"-or-deeper heading above it, "" for none
	Text    string // the entry as it reads (a page's Text): quoted, compared for duplicates
	Page    string // the entry's page id when it was removed: a later forget of it is told it is gone
	Src     string // the removed lines as they were (secrets marked), line ends included
	Before  string // the line above it, without its line end; "" at the top
	After   string // the line after it, without its line end; "" at the end
	// HasAfter: the record says what followed (records written before it
	// did not).
	HasAfter bool
	// Twins is how many other entries of its section said the same when it
	// was removed (restated): they stay, and do not stop a restore.
	Twins int
	// Ends is the line ends of the lines around it when it was removed
	// ("lf", "crlf"; "" when they differ or there are none): a restore
	// beside the same lines, their ends changed since, takes theirs.
	Ends string
	// From is the stamp (size@mtime) of the file the entry was cut from,
	// before the forget wrote it: while the file still has it, the forget
	// has not written the file yet (forgottenIDs).
	From string

	Restored     int64 // when Restore brought it back; 0 while forgotten
	RestoredLine int   // the line it went back to
	// RestoredTail is how many of the blank lines it took went back after
	// an entry that came back into its hole before it (its record's
	// "tail"; restoreEntry's tailed).
	RestoredTail int

	// Read from forgotten.jsonl, not written: how many lines Src has, and
	// the lines of the file that forgot and that restored it (0: not
	// restored), which order what the file went through since a forget.
	Lines           int
	Seq, RestoreSeq int
	// RestoredLines is how many lines the restore put back (its record's
	// "lines"; 0 in one written before it counted them).
	RestoredLines int
}

func (r *forgotten) encode() []byte {
	w := jsonw.Open(nil)
	w.Int("v", formatVersion)
	w.Int("t", r.T)
	w.Str("op", "forget")
	w.Str("id", r.ID)
	w.Str("scope", r.Scope)
	w.Str("file", r.File)
	w.Int("line", int64(r.Line))
	w.Str("section", r.Section)
	w.Str("text", r.Text)
	if r.Page != "" {
		w.Str("page", r.Page)
	}
	w.Str("src", r.Src)
	w.Str("before", r.Before)
	if r.HasAfter {
		w.Str("after", r.After)
	}
	if r.Twins > 0 {
		w.Int("twins", int64(r.Twins))
	}
	if r.Ends != "" {
		w.Str("ends", r.Ends)
	}
	if r.From != "" {
		w.Str("from", r.From)
	}
	return append(w.Close(), '\n')
}

// restoreRecord is the line that marks the record id restored at t, to line.
func restoreRecord(id string, t int64, file string, line, lines, tail int) []byte {
	w := jsonw.Open(nil)
	w.Int("v", formatVersion)
	w.Int("t", t)
	w.Str("op", "restore")
	w.Str("id", id)
	w.Str("file", file)
	w.Int("line", int64(line))
	if lines > 0 {
		w.Int("lines", int64(lines))
	}
	if tail > 0 {
		w.Int("tail", int64(tail))
	}
	return append(w.Close(), '\n')
}

// forgottenFile is forgotten.jsonl folded line by line (add), however
// large: every record is kept but the one it looks for (Want) without its
// source, so a file of any size is read in pieces (driver_forget.go) and
// costs what its records say, not what they removed.
type forgottenFile struct {
	Want     string      // the id whose record is kept whole; "*" keeps every one
	Records  []forgotten // every forget record, in file order, restores folded in
	Problems []Problem
	index    map[string]int // record index by id
}

// find is the record with id, nil when there is none.
func (f *forgottenFile) find(id string) *forgotten {
	if i, ok := f.index[id]; ok {
		return &f.Records[i]
	}
	return nil
}

// unrestored are the records still forgotten, the last line first.
func (f *forgottenFile) unrestored() []forgotten {
	var rs []forgotten
	for i := len(f.Records) - 1; i >= 0; i-- {
		if f.Records[i].Restored == 0 {
			rs = append(rs, f.Records[i])
		}
	}
	return rs
}

// gone is the newest record, still forgotten, of the entry with page id
// in file (that stood at line, unless line < 0): what a forget of an entry
// that is no longer there answers.
func (f *forgottenFile) gone(file, page string, line int) *forgotten {
	for i := len(f.Records) - 1; i >= 0; i-- {
		if r := &f.Records[i]; r.Restored == 0 && r.Page == page && r.File == file && (line < 0 || r.Line == line) {
			return r
		}
	}
	return nil
}

// decodeForgotten reads a whole forgotten.jsonl, keeping every record.
func decodeForgotten(data []byte) forgottenFile {
	f := forgottenFile{Want: "*"}
	eachLine(data, f.add)
	return f
}

// add folds line n into the file, keeping what it can: a bad line (not
// JSON, another version, a forget without its file, line or text, an id
// given twice, a restore of an id no earlier line forgot) is a Problem,
// never a reason to lose the other records. The file is append-only and
// never rewritten, so a bad line stays on disk for a person to look at.
func (f *forgottenFile) add(n int, line []byte) {
	r, msg := record(line)
	if msg != "" {
		f.Problems = append(f.Problems, Problem{Line: n, Msg: msg})
		return
	}
	id := own(jsonr.Get(r, "id"))
	if !isRestoreID(id) {
		f.Problems = append(f.Problems, Problem{Line: n, Msg: `no "id" of the form F-1a2b3c4d`})
		return
	}
	switch op := jsonr.Get(r, "op").String(); op {
	case "forget":
		rec := forgotten{
			ID: id, T: jsonr.Get(r, "t").Int(), Scope: own(jsonr.Get(r, "scope")), File: own(jsonr.Get(r, "file")),
			Line: int(jsonr.Get(r, "line").Int()), Section: own(jsonr.Get(r, "section")), Text: own(jsonr.Get(r, "text")),
			Page: own(jsonr.Get(r, "page")), Before: own(jsonr.Get(r, "before")), Twins: int(jsonr.Get(r, "twins").Int()), Ends: own(jsonr.Get(r, "ends")), From: own(jsonr.Get(r, "from")),
		}
		if a := jsonr.Get(r, "after"); a.Exists() {
			rec.After, rec.HasAfter = own(a), true
		}
		src := jsonr.Get(r, "src")
		rec.Lines, rec.Seq = len(mdSplit(src.Str)), n
		if f.Want == "*" || f.Want == id {
			rec.Src = own(src)
		} else {
			rec.Text = cutRunes(rec.Text, factQuoteRunes) // enough to quote it in a list
		}
		switch {
		case !isScopeWord(rec.Scope) || rec.File == "" || rec.Line < 1 || rec.Text == "" || src.Str == "":
			f.Problems = append(f.Problems, Problem{Line: n, Msg: `a forget needs "scope", "file", "line", "text" and "src"`})
		case f.find(id) != nil:
			f.Problems = append(f.Problems, Problem{Line: n, Msg: "repeats the id " + id})
		default:
			if f.index == nil {
				f.index = map[string]int{}
			}
			f.index[id] = len(f.Records)
			f.Records = append(f.Records, rec)
		}
	case "restore":
		rec := f.find(id)
		if rec == nil {
			f.Problems = append(f.Problems, Problem{Line: n, Msg: "restores " + id + ", which no earlier line forgot"})
			return
		}
		rec.Restored, rec.RestoredLine, rec.RestoreSeq = jsonr.Get(r, "t").Int(), int(jsonr.Get(r, "line").Int()), n
		rec.RestoredLines = int(max(0, min(jsonr.Get(r, "lines").Int(), 1<<30)))
		rec.RestoredTail = int(max(0, min(jsonr.Get(r, "tail").Int(), int64(rec.RestoredLines))))
		if rec.Restored == 0 {
			rec.Restored = 1 // restored, whenever: a zero time must not read as "still forgotten"
		}
	default:
		f.Problems = append(f.Problems, Problem{Line: n, Msg: `unknown "op" ` + strconv.Quote(op)})
	}
}

// addsOneEntry reports whether out reads as data with one page more and
// every page of data still there, in its section: what a restore writes
// brings its entry back and changes nothing else memory reads.
func addsOneEntry(scope string, data, out []byte) bool {
	_, before := readView(scope, data, nil)
	_, after := readView(scope, out, nil)
	if len(after) != len(before)+1 {
		return false
	}
	left := make(map[string]int, len(after))
	for _, p := range after {
		left[p.Section+"\x00"+p.Text]++
	}
	for _, p := range before {
		k := p.Section + "\x00" + p.Text
		if left[k] == 0 {
			return false
		}
		left[k]--
	}
	return true
}
