package notes

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// residentScope is one injected file as the resident-set policy sees it.
type residentScope struct {
	Name     string // "project", "local" or "global"
	File     string // display path, used in stubs and in the omission marker
	Pages    []page
	MaxLines int // cap on the scope's rendered text (maxInjectLines)
	MaxBytes int // cap on the scope's rendered text (maxInjectBytes)
}

// fault is a page that could not stay resident even in its minimum form.
type fault struct {
	Scope  string
	Page   string // page id
	Line   int
	Reason string // "scope_lines", "scope_bytes" or "tokens"
	Bytes  int    // size of the page's minimum form
}

// residency is the outcome of fit: the form of every page, each scope's text
// and the faults.
type residency struct {
	Forms  [][]fidelity // [scope][page]
	Texts  []string     // [scope]; "" for a scope with nothing resident and no room for its marker
	Faults []fault      // the first maxTraceFaults
	// MoreFaults counts the faults past those.
	MoreFaults int
}

// fit chooses the form of every page so that each scope's text stays within
// its own caps and all the texts together within maxBytes (docs/decisions/
// 005-markdown-memory.md). order lists the scopes by priority, highest first;
// inside a scope the file's order is its priority. Deterministically:
//
//  1. every page starts at its minimum form (page.minForm);
//  2. while a cap is exceeded, the lowest-priority page leaves the resident
//     set and becomes a fault;
//  3. pages are upgraded in priority order, first to formSummary, then to formFull,
//     each only when the result still fits.
//
// A scope whose pages all fit in full is rendered exactly as written. A scope
// that lost pages ends with a marker line naming its file, inside its caps
// and maxBytes; when nothing of a scope is left, its marker is the first
// thing to go, before any page of a higher-priority scope.
func fit(scopes []residentScope, order []int, maxBytes int) residency {
	f := fitter{scopes: scopes, maxBytes: maxBytes}
	f.init()
	f.dropOverflow(order)
	for _, target := range []fidelity{formSummary, formFull} {
		for _, si := range order {
			for pi := range scopes[si].Pages {
				f.upgrade(si, pi, target)
			}
		}
	}
	return f.result()
}

type fitter struct {
	scopes   []residentScope
	maxBytes int
	forms    [][]fidelity
	texts    [][3]string // the formPointer, formSummary and formFull text of each page, flattened by scope, made when first asked (made)
	made     []uint8     // per page, flattened, a bit for each form of texts made
	lines    []int       // per scope, lines of resident pages (marker excluded)
	bytes    []int       // per scope, bytes of resident pages (marker excluded)
	dropped  []int       // per scope, pages left out
	hidden   []bool      // per scope, nothing resident and no room for the marker either
	// kept: per scope, how many of its first pages may still be resident;
	// every page after them is dropped. drop looks below it only, so a
	// 4 MiB MEMORY.md of 40,000 pages over its caps is fitted in one pass
	// (from the last page each time, dropping them took 40,000²/2 looks).
	kept   []int
	faults []fault
	more   int   // faults past maxTraceFaults, counted
	base   []int // index of a scope's first page in texts
}

func formIndex(f fidelity) int { return int(f) - int(formPointer) }

func (f *fitter) init() {
	n := len(f.scopes)
	f.forms = make([][]fidelity, n)
	f.lines = make([]int, n)
	f.bytes = make([]int, n)
	f.dropped = make([]int, n)
	f.hidden = make([]bool, n)
	f.base = make([]int, n)
	f.kept = make([]int, n)
	for si := range f.scopes {
		s := &f.scopes[si]
		f.base[si] = len(f.texts)
		f.forms[si] = make([]fidelity, len(s.Pages))
		f.kept[si] = len(s.Pages)
		for pi := range s.Pages {
			p := &s.Pages[pi]
			f.texts = append(f.texts, [3]string{})
			f.made = append(f.made, 0)
			min := p.minForm()
			f.forms[si][pi] = min
			txt := f.text(si, pi, min)
			f.bytes[si] += len(txt)
			f.lines[si] += strings.Count(txt, "\n")
		}
	}
}

// text is page pi of scope si at fidelity form, rendered the first time it
// is asked: most pages of a file far over its caps are only ever measured
// at their minimum form, and their other forms were made for nothing (three
// strings a page for TinyGo's collector to mark, decision 003).
func (f *fitter) text(si, pi int, form fidelity) string {
	if form == formDropped {
		return ""
	}
	k, fi := f.base[si]+pi, formIndex(form)
	if f.made[k]&(1<<fi) == 0 {
		f.texts[k][fi] = f.scopes[si].Pages[pi].form(form, f.scopes[si].File)
		f.made[k] |= 1 << fi
	}
	return f.texts[k][fi]
}

// marker is the line that ends a scope that lost pages.
func marker(file string, n int) string {
	return "[" + text.Plural(n, "more entry", "more entries") + " not shown: read " + file + "]\n"
}

// size is a scope's rendered size with the marker it would carry.
func (f *fitter) size(si int) (lines, bytes int) {
	lines, bytes = f.lines[si], f.bytes[si]
	if f.dropped[si] > 0 && !f.hidden[si] {
		lines++
		bytes += len(marker(f.scopes[si].File, f.dropped[si]))
	}
	return lines, bytes
}

func (f *fitter) total() int {
	t := 0
	for si := range f.scopes {
		_, b := f.size(si)
		t += b
	}
	return t
}

// over names the cap scope si exceeds, "" when it fits.
func (f *fitter) over(si int) string {
	lines, bytes := f.size(si)
	switch {
	case lines > f.scopes[si].MaxLines:
		return "scope_lines"
	case bytes > f.scopes[si].MaxBytes:
		return "scope_bytes"
	}
	return ""
}

// drop removes the last resident page of scope si; false when none is left.
func (f *fitter) drop(si int, reason string) bool {
	forms := f.forms[si]
	for pi := f.kept[si] - 1; pi >= 0; pi-- {
		f.kept[si] = pi
		if forms[pi] == formDropped {
			continue
		}
		txt := f.text(si, pi, forms[pi])
		f.bytes[si] -= len(txt)
		f.lines[si] -= strings.Count(txt, "\n")
		forms[pi] = formDropped
		f.dropped[si]++
		if len(f.faults) == maxTraceFaults {
			f.more++
			return true
		}
		p := &f.scopes[si].Pages[pi]
		f.faults = append(f.faults, fault{Scope: f.scopes[si].Name, Page: p.ID, Line: p.Line, Reason: reason, Bytes: len(txt)})
		return true
	}
	return false
}

func (f *fitter) dropOverflow(order []int) {
	for si := range f.scopes {
		for {
			reason := f.over(si)
			if reason == "" {
				break
			}
			if !f.drop(si, reason) {
				// Only the marker is left, and it alone breaks a cap.
				f.hidden[si] = true
				break
			}
		}
	}
	for k := len(order) - 1; k >= 0 && f.total() > f.maxBytes; {
		if !f.drop(order[k], "tokens") {
			// Nothing of it is resident: its marker goes before a page of
			// a higher-priority scope does, and the total stays in maxBytes.
			f.hidden[order[k]] = true
			k--
		}
	}
}

// upgrade raises page pi of scope si to target when that fits every cap.
func (f *fitter) upgrade(si, pi int, target fidelity) {
	cur := f.forms[si][pi]
	if cur == formDropped || cur >= target {
		return
	}
	old, neu := f.text(si, pi, cur), f.text(si, pi, target)
	dl := strings.Count(neu, "\n") - strings.Count(old, "\n")
	db := len(neu) - len(old)
	f.lines[si] += dl
	f.bytes[si] += db
	if f.over(si) != "" || f.total() > f.maxBytes {
		f.lines[si] -= dl
		f.bytes[si] -= db
		return
	}
	f.forms[si][pi] = target
}

func (f *fitter) result() residency {
	r := residency{Forms: f.forms, Texts: make([]string, len(f.scopes)), Faults: f.faults, MoreFaults: f.more}
	for si := range f.scopes {
		var b text.Builder
		for pi, form := range f.forms[si] {
			b.WriteString(f.text(si, pi, form))
		}
		// The marker is only shown where it fits (hidden): a scope capped
		// below one line would otherwise break its own cap.
		if f.dropped[si] > 0 && !f.hidden[si] {
			b.WriteString(marker(f.scopes[si].File, f.dropped[si]))
		}
		r.Texts[si] = b.String()
	}
	return r
}

// cut is the plain injection used when pageTableInjection is off: the longest
// prefix of src made of whole lines within maxLines and maxBytes. When lines
// are left out, the last line kept is a marker naming file, inside the caps.
//
//	cut("a\nb\nc\n", 2, 100, "MEMORY.md") => "a\n[2 more lines not shown: read MEMORY.md]\n", true
func cut(src string, maxLines, maxBytes int, file string) (string, bool) {
	if src != "" && !strings.HasSuffix(src, "\n") {
		src += "\n"
	}
	total := strings.Count(src, "\n")
	if total <= maxLines && len(src) <= maxBytes {
		return src, false
	}
	// Find the longest prefix that leaves room for the marker.
	end, kept := 0, 0
	for {
		nl := strings.IndexByte(src[end:], '\n')
		if nl < 0 {
			break
		}
		next := end + nl + 1
		m := cutMarker(file, total-kept-1)
		if kept+2 > maxLines || next+len(m) > maxBytes {
			break
		}
		end, kept = next, kept+1
	}
	m := cutMarker(file, total-kept)
	if kept+1 > maxLines || end+len(m) > maxBytes {
		return src[:end], true
	}
	return src[:end] + m, true
}

func cutMarker(file string, n int) string {
	return "[" + text.Plural(n, "more line", "more lines") + " not shown: read " + file + "]\n"
}
