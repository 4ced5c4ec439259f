package notes

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Forgetting and restoring an entry (store.Forgetter; the driver is
// driver_forget.go): which entry a reference names, how the file changes,
// and the recovery records of forgotten.jsonl that bring an entry back.
//
// A note's reference is "<file>:<line>": the memory file (an index, MEMORY.md
// or MEMORY.local.md, or a topic file beside an index), absolute or relative
// to the project root, and a 1-based line of the entry, as search hits cite
// it. The entry is the whole bullet (a fact or a pointer, with its
// continuation lines) that covers the line. Forget hands back the id of its
// recovery record, "F-" and 8 hex digits, which Restore takes.
//
//	/home/ada/app/.pi/memory/MEMORY.md:7
//	.pi/memory/build.md:3
//	F-1a2b3c4d

// parseRef splits a note's reference into its file and line. ok is false
// for what is not a note's reference (a decision id, a restore id, a file
// that is not markdown, a line that is not a positive whole number).
//
//	parseRef("/p/.pi/memory/MEMORY.md:7") => "/p/.pi/memory/MEMORY.md", 7, true
//	parseRef("D-0001")                    => "", 0, false
func parseRef(ref string) (file string, line int, ok bool) {
	i := strings.LastIndexByte(ref, ':')
	if i <= 0 {
		return "", 0, false
	}
	file, num := strings.TrimSpace(ref[:i]), ref[i+1:]
	if num == "" || len(num) > 9 || strings.TrimLeft(num, "0123456789") != "" {
		return "", 0, false
	}
	line, _ = strconv.Atoi(num)
	if line < 1 || !strings.HasSuffix(strings.ToLower(file), ".md") {
		return "", 0, false
	}
	return file, line, true
}

// isRestoreID reports whether ref is a recovery record's id: "F-" and 8
// lower-case hex digits.
func isRestoreID(ref string) bool {
	if len(ref) != 10 || ref[:2] != "F-" {
		return false
	}
	for _, c := range ref[2:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// entryAt finds the entry of pages that covers line: a fact or pointer
// page whose lines, its trailing blank lines left out, hold it. It returns
// the page's index and how many lines the entry has, or -1 and why there is
// no entry there, in words ("line 2 is a heading, not an entry"). lines is
// the file's line count.
func entryAt(pages []page, line, lines int) (int, int, string) {
	if line > lines {
		return -1, 0, "line " + strconv.Itoa(line) + " is past the end (the file has " + text.Plural(lines, "line", "lines") + ")"
	}
	for i := range pages {
		p := &pages[i]
		n := contentLines(p.Src)
		if line < p.Line || line >= p.Line+p.Lines {
			continue
		}
		if line >= p.Line+n {
			return -1, 0, "line " + strconv.Itoa(line) + " is blank, not an entry"
		}
		switch p.Kind {
		case kindFact, kindPointer:
			return i, n, ""
		case kindHeading:
			return -1, 0, "line " + strconv.Itoa(line) + " is a heading, not an entry; forget the entries under it one by one"
		}
		return -1, 0, "line " + strconv.Itoa(line) + " is text, not a bullet entry; edit the file by hand"
	}
	return -1, 0, "line " + strconv.Itoa(line) + " is not an entry"
}

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

// removeEntry removes the n lines starting at line (1-based) from src. When
// the entry stood after a blank line or at the top, the blank lines that
// followed it go too, so no double blank is left. It returns the new file,
// the removed text exactly as it was (line ends included) and the line just
// above it without its line end ("" at the top).
//
//	removeEntry("## B\n\n- a\n\n## C\n", 3, 1) => "## B\n\n## C\n", "- a\n\n", ""
//	removeEntry("## B\n- a\n- b\n", 2, 1)      => "## B\n- b\n", "- a\n", "## B"
func removeEntry(src []byte, line, n int) (out []byte, removed, before string) {
	lines := mdSplit(string(src))
	start := line - 1
	end := start + n
	if start < 0 || end > len(lines) || n < 1 {
		return src, "", ""
	}
	if start == 0 || strings.TrimSpace(lines[start-1]) == "" {
		for end < len(lines) && strings.TrimSpace(lines[end]) == "" {
			end++
		}
	}
	if start > 0 {
		before = mdBody(lines[start-1])
	}
	var b strings.Builder
	for i := 0; i < start; i++ {
		b.WriteString(lines[i])
	}
	for i := end; i < len(lines); i++ {
		b.WriteString(lines[i])
	}
	removed = strings.Join(lines[start:end], "")
	if !strings.HasSuffix(removed, "\n") {
		removed += "\n" // the file's last line, without a line end
	}
	return []byte(b.String()), removed, before
}

// restoreEntry puts a forgotten entry back into src: at its old line when
// the line above is still the one that was (nothing moved), else at the end
// of its section (the first heading of level 2 or more with its text),
// created when it is gone. It returns the new file and the line the entry
// starts on.
func restoreEntry(src []byte, r *forgotten) ([]byte, int) {
	lines := mdSplit(string(src))
	at := r.Line - 1
	if at <= len(lines) && (at == 0 && r.Before == "" || at > 0 && mdBody(lines[at-1]) == r.Before) {
		entry := r.Src
		if at < len(lines) && !isHeadingLine(lines[at]) {
			// The blank lines removed with it stood before a heading; before
			// anything else they would open a gap.
			entry = strings.Join(mdSplit(entry)[:contentLines(entry)], "")
			if !strings.HasSuffix(entry, "\n") {
				entry += "\n"
			}
		}
		if strings.Contains(string(src), "\r\n") && !strings.Contains(entry, "\r\n") {
			entry = strings.ReplaceAll(entry, "\n", "\r\n")
		}
		var b strings.Builder
		for i := 0; i < at; i++ {
			b.WriteString(lines[i])
		}
		if at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
			b.WriteString("\n")
		}
		b.WriteString(entry)
		for i := at; i < len(lines); i++ {
			b.WriteString(lines[i])
		}
		return []byte(b.String()), r.Line
	}
	entry := mdSplit(r.Src)
	entry = entry[:contentLines(r.Src)]
	block := strings.Join(entry, "")
	if !strings.HasSuffix(block, "\n") {
		block += "\n"
	}
	return insertBlock(src, r.Section, block, 6)
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
	Src     string // the removed lines as they were (secrets redacted), line ends included
	Before  string // the line above it, without its line end; "" at the top

	Restored     int64 // when Restore brought it back; 0 while forgotten
	RestoredLine int   // the line it went back to
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
	w.Str("src", r.Src)
	w.Str("before", r.Before)
	return append(w.Close(), '\n')
}

// restoreRecord is the line that marks the record id restored at t, to line.
func restoreRecord(id string, t int64, file string, line int) []byte {
	w := jsonw.Open(nil)
	w.Int("v", formatVersion)
	w.Int("t", t)
	w.Str("op", "restore")
	w.Str("id", id)
	w.Str("file", file)
	w.Int("line", int64(line))
	return append(w.Close(), '\n')
}

// forgottenFile is a decoded forgotten.jsonl.
type forgottenFile struct {
	Records  []forgotten // every forget record, in file order, restores folded in
	Problems []Problem
}

// find is the record with id, nil when there is none.
func (f *forgottenFile) find(id string) *forgotten {
	for i := range f.Records {
		if f.Records[i].ID == id {
			return &f.Records[i]
		}
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

// decodeForgotten reads forgotten.jsonl, keeping what it can: a bad line (not
// JSON, another version, a forget without its file, line or text, an id
// given twice, a restore of an id no earlier line forgot) is a Problem,
// never a reason to lose the other records. The file is append-only and
// never rewritten, so a bad line stays on disk for a person to look at.
func decodeForgotten(data []byte) forgottenFile {
	var f forgottenFile
	eachLine(data, func(n int, line []byte) {
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
				Src: own(jsonr.Get(r, "src")), Before: own(jsonr.Get(r, "before")),
			}
			switch {
			case !isScopeWord(rec.Scope) || rec.File == "" || rec.Line < 1 || rec.Text == "" || rec.Src == "":
				f.Problems = append(f.Problems, Problem{Line: n, Msg: `a forget needs "scope", "file", "line", "text" and "src"`})
			case f.find(id) != nil:
				f.Problems = append(f.Problems, Problem{Line: n, Msg: "repeats the id " + id})
			default:
				f.Records = append(f.Records, rec)
			}
		case "restore":
			rec := f.find(id)
			if rec == nil {
				f.Problems = append(f.Problems, Problem{Line: n, Msg: "restores " + id + ", which no earlier line forgot"})
				return
			}
			rec.Restored, rec.RestoredLine = jsonr.Get(r, "t").Int(), int(jsonr.Get(r, "line").Int())
			if rec.Restored == 0 {
				rec.Restored = 1 // restored, whenever: a zero time must not read as "still forgotten"
			}
		default:
			f.Problems = append(f.Problems, Problem{Line: n, Msg: `unknown "op" ` + strconv.Quote(op)})
		}
	})
	return f
}
