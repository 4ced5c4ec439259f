package notes

import (
	"encoding/hex"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/internal/sha1"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// parse splits a markdown file into typed pages that cover it exactly:
// joining every page's Src gives src back byte for byte, so nothing the
// parser does not understand is ever lost. scope ("global", "project"…) only
// feeds the page ids.
//
//	parse("project", []byte("## Build\n- Run make first\n\n- [Quirks](build.md) — sccache\n"))
//	→ heading  line 1  Text "Build"         Section "Build"
//	  fact     line 2  Text "Run make first" Src "- Run make first\n\n"
//	  pointer  line 4  Text "[Quirks](build.md) — sccache" Link "build.md"
//
// An empty file gives no pages; a file of blank lines gives one text page.
func parse(scope string, src []byte) []page {
	var p parser
	return p.parse(nil, scope, src)
}

// parser is parse for a caller that parses the same file again and again (a
// memory index, re-read whenever it changes): it keeps its scratch space, and
// the pages' array, from one parse to the next. Under TinyGo a large block
// allocated afresh on every parse is kept alive for good by a word of the
// module's static data that happens to point into it, so a session that
// re-parses a large index would grow its memory on every change
// (docs/decisions/003-tinygo-heap.md). The zero parser is ready to use; it is
// not safe for concurrent use.
type parser struct {
	lines []string // the lines of the file being parsed; cleared after each parse
	seen  table64  // ids given so far in this file, by their 40 bits
	// taken are the ids this file's forgotten entries keep until they are
	// restored (sorted; forgottenIDs): no entry is given one, so a twin
	// that stays keeps its id when the one before it goes (h-v89 B1).
	taken []string
	block []byte // where the strings of pages are being copied (keep)
	text  []byte // scratch: the Text of the page being parsed
	key   []byte // scratch: what its hash and id are computed over, then its id
	glued []byte // scratch: a page's text with its broken words closed up (brokenSecrets)
	at    []int  // scratch: where each byte of glued is in the page
}

// parseBlock is the size of the blocks pages' strings share. Thousands of
// pages then cost a few hundred allocations instead of a dozen each, which
// under TinyGo is most of the time a parse takes. Blocks are small on
// purpose: TinyGo's collector walks back from an interior pointer to its
// block's start, one step per 64 bytes (docs/decisions/003-tinygo-heap.md).
const parseBlock = 4 << 10

// keep copies b into the current block and returns the copy as a string. A
// block is never written again where it has handed out a string, so the
// strings stay valid, and immutable, for as long as anything refers to them.
func (ps *parser) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > parseBlock/4 {
		return string(b)
	}
	if len(ps.block)+len(b) > cap(ps.block) {
		ps.block = make([]byte, 0, parseBlock)
	}
	start := len(ps.block)
	ps.block = append(ps.block, b...)
	return unsafe.String(&ps.block[start], len(b))
}

// keepString is keep for a string: a view of the file, a fragment of a line.
func (ps *parser) keepString(s string) string {
	return ps.keep(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// parse is the package's parse, writing into pages' array when it has room.
// The entries of pages are overwritten or cleared, so the caller must not
// use pages (or pointers into it) afterwards; the strings of its pages stay
// valid.
func (ps *parser) parse(pages []page, scope string, src []byte) []page {
	bom := hasBOM(src)
	if bom {
		src = src[len(utf8BOM):]
	}
	pages = ps.parseBody(pages, scope, src)
	if bom && len(pages) > 0 {
		// The mark belongs to no line: it stays in the first page's source,
		// so the pages still give the file back byte for byte.
		pages[0].Src = utf8BOM + pages[0].Src
	}
	return pages
}

// utf8BOM is the byte-order mark some editors write at the start of a file.
// A file that starts with one reads as if it did not, and keeps it when
// pi-memory rewrites it.
const utf8BOM = "\xEF\xBB\xBF"

func hasBOM(b []byte) bool { return len(b) >= 3 && string(b[:3]) == utf8BOM }

// parseBody parses src, the file after its byte-order mark.
func (ps *parser) parseBody(pages []page, scope string, src []byte) []page {
	// Cleared whole, so no page of the last parse stays reachable through
	// the array, whether it is reused or not.
	clear(pages[:cap(pages)])
	pages = pages[:0]
	// A view of src, not a copy: every string a page keeps is copied out of
	// it (keep), so nothing refers to src once parse returns.
	s := unsafe.String(unsafe.SliceData(src), len(src))
	if n := strings.Count(s, "\n") + 1; cap(ps.lines) < n {
		ps.lines = make([]string, 0, n+n/8)
	}
	lines := mdSplitInto(ps.lines[:0], s)
	ps.lines = lines
	defer clear(lines) // views into src: dropped, so the next parse's file is not pinned by this one
	if len(lines) == 0 {
		return pages
	}
	ps.seen.reset(len(lines))
	i := 0
	for i < len(lines) && mdBlank(lines[i]) {
		i++
	}
	if i == len(lines) {
		p := page{Kind: kindText, Line: 1, Lines: len(lines), Src: ps.keepString(s)}
		ps.identify(&p, scope)
		return append(pages, p)
	}
	if n := len(lines) - i; cap(pages) < n {
		// Sized once, with room for the file to grow a little: the arrays
		// append would leave behind hold copies of every page's string
		// pointers, and under TinyGo a stray word that looks like a pointer
		// into such garbage keeps all of it alive.
		pages = make([]page, 0, n+n/8)
	}
	section := ""
	start, off := 0, 0
	for i < len(lines) {
		b := mdScan(lines, i)
		end := b.end
		for end < len(lines) && mdBlank(lines[end]) {
			end++
		}
		n := 0
		for _, l := range lines[start:end] {
			n += len(l)
		}
		// Pages own copies of their strings, in small shared blocks.
		// Substrings of the file would be interior pointers into one large
		// block, and TinyGo's collector walks back to a block's head for
		// every one of them on every cycle (docs/decisions/003-tinygo-heap.md):
		// a 5,000-line index made a rebuild take seconds.
		p := page{Kind: b.kind, Line: start + 1, Lines: end - start, Src: ps.keepString(s[off : off+n]), Level: b.level, Link: ps.keepString(b.link)}
		ps.text = b.appendText(ps.text[:0])
		if utf8.Valid(ps.text) {
			p.Text = ps.keep(ps.text)
		} else {
			p.Text = ps.keepString(mdValid(string(ps.text)))
		}
		if p.Kind == kindHeading {
			// A level-1 heading is the file's title, not a section: it ends the one before.
			section = ""
			if p.Level >= 2 {
				section = p.Text
			}
		}
		p.Section = section
		ps.identify(&p, scope)
		pages = append(pages, p)
		start, off, i = end, off+n, end
	}
	return pages
}

// minForm is the lowest form the page may be shown in: headings stay whole, so
// whatever is resident keeps its structure; everything else may shrink to a
// stub.
//
//	(&page{Kind: kindHeading}).minForm() → formFull
//	(&page{Kind: kindFact}).minForm()    → formPointer
func (p *page) minForm() fidelity {
	if p.Kind == kindHeading {
		return formFull
	}
	return formPointer
}

// form renders the page at fidelity f; file is the display path stubs name.
// Sizes never grow as fidelity drops: len(formPointer) ≤ len(formSummary) ≤
// len(formFull) in bytes. formSummary and formPointer are one valid UTF-8 line of at
// most summaryMax runes, plus one blank line when the page ends with blanks.
//
//	p := parse("project", []byte("- Run `make wasm` before testing the extension,\n  or pi loads the stale core\n"))[0]
//	p.form(formFull, "MEMORY.md")        → "- Run `make wasm` before testing the extension,\n  or pi loads the stale core\n"
//	p.form(formSummary, "MEMORY.md")     → "- Run `make wasm` before testing the extension, or pi loads the stale core\n"
//	p.form(formPointer, "MEMORY.md")     → "- Run `make wasm` before testing the … (MEMORY.md:1)\n"
//	p.form(formDropped, "MEMORY.md")     → ""
func (p *page) form(f fidelity, file string) string {
	switch f {
	case formFull:
		return p.full()
	case formSummary:
		return p.summary(mdShapeOf(p.Src), file)
	case formPointer:
		return p.stub(mdShapeOf(p.Src), file)
	}
	return ""
}

func (p *page) full() string {
	if strings.HasSuffix(p.Src, "\n") {
		return p.Src
	}
	return p.Src + "\n"
}

// summary is the page's summary line, replaced by a plain cut of its first
// line when the rules would make it longer than the page itself (a two-line
// fence is shorter than "[code block, …]").
func (p *page) summary(sh mdShape, file string) string {
	if sh.first == sh.end {
		return "\n"
	}
	line := p.summaryLine(sh, file)
	if n := len(line); n+1+len(sh.after) == len(p.Src) && p.Src[:n] == line && p.Src[n] == '\n' && p.Src[n+1:] == sh.after {
		// A page that is its own summary (most facts): no copy.
		return p.Src
	}
	s := line + "\n" + sh.after
	if len(s) > len(p.full()) {
		// Dropping invalid bytes and cutting without "…" can only shrink the
		// first line, which formFull holds along with its "\n".
		first := strings.ToValidUTF8(strings.TrimRight(mdBody(sh.line), " \t\r"), "")
		s = mdHardCut(first, summaryMax) + "\n" + sh.after
	}
	return s
}

func (p *page) summaryLine(sh mdShape, file string) string {
	first := mdBody(sh.line)
	if sh.end-sh.first == 1 && utf8.RuneCountInString(first) <= summaryMax {
		return mdValid(first)
	}
	switch p.Kind {
	case kindHeading:
		return mdCut(mdValid(strings.TrimRight(first, " \t")), summaryMax)
	case kindFact:
		return mdCut(strings.TrimRight("- "+p.Text, " "), summaryMax)
	case kindPointer:
		return mdCut(mdValid(strings.TrimSpace(first)), summaryMax)
	}
	where := text.Plural(sh.end-sh.first, "line", "lines") + " at " + file + ":" + numstr.Itoa(p.Line+sh.first)
	if _, _, ind, ok := mdFence(first); ok && ind <= 3 {
		return mdCut("[code block, "+where+"]", summaryMax)
	}
	if ind, ok := mdCommentOpen(first); ok && ind <= 3 {
		return mdCut("[comment, "+where+"]", summaryMax)
	}
	return mdCut(mdValid(strings.TrimSpace(first))+" …", summaryMax)
}

// stub is the pointer form: a line that says where the page is, or the
// summary when that is no longer (a short fact is its own best stub).
func (p *page) stub(sh mdShape, file string) string {
	sum := p.summary(sh, file)
	if sh.first == sh.end || p.Kind == kindHeading {
		// A heading's minimum is formFull; its smallest form that never grows
		// past formSummary is the summary, which is the line itself when it fits.
		return sum
	}
	line := p.Line + sh.first
	var s string
	switch p.Kind {
	case kindFact:
		s = "- " + text.FirstWords(p.Text, 6) + " … (" + file + ":" + numstr.Itoa(line) + ")"
	case kindPointer:
		_, content, _ := mdBullet(mdBody(sh.line))
		title, target, ok := mdLink(content)
		if !ok {
			return sum
		}
		s = "- [" + title + "](" + target + ")"
	default:
		s = "[… " + text.Plural(sh.end-sh.first, "line", "lines") + " at " + file + ":" + numstr.Itoa(line) + "]"
	}
	if strings.IndexByte(s, '\n') >= 0 || !utf8.ValidString(s) || utf8.RuneCountInString(s) > summaryMax {
		return sum
	}
	if s += "\n" + sh.after; len(s) > len(sum) {
		return sum
	}
	return s
}

// mdShape is what the reduced forms need to know about a page's source.
type mdShape struct {
	line       string // the first content line
	first, end int    // the content lines, leading and trailing blank lines excluded
	after      string // "\n" when blank lines follow the content: reduced forms keep one
}

// mdShapeOf reads the shape of src line by line, without a slice of its
// lines: forms are made for every page of every injected file.
func mdShapeOf(src string) mdShape {
	var sh mdShape
	n, last := 0, -1 // lines seen; the last content line
	for s := src; s != ""; n++ {
		i := strings.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		if l := s[:i]; !mdBlank(l) {
			if last < 0 {
				sh.first, sh.line = n, l
			}
			last = n
		}
		s = s[i:]
	}
	if last < 0 {
		sh.first, sh.end = n, n
	} else {
		sh.end = last + 1
	}
	if sh.end < n {
		sh.after = "\n"
	}
	return sh
}

// mdBlock is one page as the scanner sees it, before trailing blank lines.
// Its text is the words of first and rest (mdText), or for an HTML comment
// the words between its markers (mdCommentText of rest).
type mdBlock struct {
	end     int // index of the line after the block
	kind    kind
	level   int
	first   string
	rest    []string
	comment bool
	link    string
}

// appendText appends the block's text to dst, as mdText would give it but
// for invalid UTF-8, which is left to the caller to replace.
func (b *mdBlock) appendText(dst []byte) []byte {
	if b.comment {
		return append(dst, mdCommentText(b.rest)...)
	}
	return mdAppendText(dst, b.first, b.rest)
}

// mdScan reads the block that starts at lines[i], a non-blank line. The order
// matters: a fence or comment swallows whatever looks like markdown inside it,
// and a thematic break ("- - -") must not be taken for a bullet.
func mdScan(lines []string, i int) mdBlock {
	l := mdBody(lines[i])
	if level, text, ok := mdHeading(l); ok {
		return mdBlock{end: i + 1, kind: kindHeading, level: level, first: text}
	}
	if ch, n, ind, ok := mdFence(l); ok && ind <= 3 {
		end, inner := mdFenceEnd(lines, i, ch, n, ind)
		return mdBlock{end: end, kind: kindText, rest: lines[i+1 : inner]}
	}
	if ind, ok := mdCommentOpen(l); ok && ind <= 3 {
		end := mdCommentEnd(lines, i)
		return mdBlock{end: end, kind: kindText, rest: lines[i:end], comment: true}
	}
	if !mdRule(l) {
		if ind, content, ok := mdBullet(l); ok {
			end := mdItemEnd(lines, i, ind)
			b := mdBlock{end: end, kind: kindFact, first: content, rest: lines[i+1 : end]}
			if _, target, ok := mdLink(content); ok {
				b.kind, b.link = kindPointer, mdPath(target)
			}
			return b
		}
	}
	end := mdParagraphEnd(lines, i)
	return mdBlock{end: end, kind: kindText, rest: lines[i:end]}
}

// mdItemEnd finds where the bullet item at lines[i] (marker at column ind)
// ends. Deeper-indented lines are its own (nested bullets, indented fences);
// a plain line right after it is a lazy continuation; a blank line ends it
// unless an indented line follows.
func mdItemEnd(lines []string, i, ind int) int {
	j := i + 1
	for j < len(lines) {
		if mdBlank(lines[j]) {
			k := j + 1
			for k < len(lines) && mdBlank(lines[k]) {
				k++
			}
			if k == len(lines) || mdCols(mdBody(lines[k])) < ind+2 {
				return j
			}
			j = k
		}
		l := mdBody(lines[j])
		if mdCols(l) >= ind+2 {
			// A fence inside the item is read whole, so a "# comment" in a
			// shell snippet cannot end the item as a heading.
			if ch, n, fi, ok := mdFence(l); ok {
				j, _ = mdFenceEnd(lines, j, ch, n, fi)
				continue
			}
			if _, ok := mdCommentOpen(l); ok {
				j = mdCommentEnd(lines, j)
				continue
			}
			j++
			continue
		}
		if mdStartsBlock(l) {
			return j
		}
		j++
	}
	return j
}

// mdStartsBlock reports whether a line at most 3 columns in ends a bullet item.
func mdStartsBlock(l string) bool {
	if _, _, ok := mdHeading(l); ok {
		return true
	}
	if _, _, ind, ok := mdFence(l); ok && ind <= 3 {
		return true
	}
	if ind, ok := mdCommentOpen(l); ok && ind <= 3 {
		return true
	}
	_, _, ok := mdBullet(l)
	return ok || mdRule(l)
}

// mdParagraphEnd finds the end of a text run: a blank line, or a line that
// starts another page. A thematic break or a lone "-" under a line is a
// setext underline, and an empty bullet cannot interrupt a paragraph either
// (as in CommonMark), so both stay in the text.
func mdParagraphEnd(lines []string, i int) int {
	j := i + 1
	for ; j < len(lines); j++ {
		l := mdBody(lines[j])
		if mdBlank(l) {
			break
		}
		if _, _, ok := mdHeading(l); ok {
			break
		}
		if _, _, ind, ok := mdFence(l); ok && ind <= 3 {
			break
		}
		if ind, ok := mdCommentOpen(l); ok && ind <= 3 {
			break
		}
		if _, content, ok := mdBullet(l); ok && !mdRule(l) && !mdBlank(content) {
			break
		}
	}
	return j
}

// mdFenceEnd returns the line after the fence opened at lines[i] and the
// index of its closing line (len(lines) when it runs to the end of file).
func mdFenceEnd(lines []string, i int, ch byte, n, ind int) (end, inner int) {
	for j := i + 1; j < len(lines); j++ {
		if mdFenceClose(mdBody(lines[j]), ch, n, ind+3) {
			return j + 1, j
		}
	}
	return len(lines), len(lines)
}

// mdCommentEnd returns the line after the one holding the "-->" that closes
// the comment opened at lines[i].
func mdCommentEnd(lines []string, i int) int {
	l := mdBody(lines[i])
	if strings.Contains(l[strings.Index(l, "<!--")+4:], "-->") {
		return i + 1
	}
	for j := i + 1; j < len(lines); j++ {
		if strings.Contains(lines[j], "-->") {
			return j + 1
		}
	}
	return len(lines)
}

func mdCommentText(lines []string) string {
	s := mdText("", lines)
	s = s[strings.Index(s, "<!--")+4:]
	if k := strings.Index(s, "-->"); k >= 0 {
		s = s[:k] + " " + s[k+3:]
	}
	return mdText(s, nil)
}

// mdHeading reads an ATX heading: up to 3 columns of indent, 1–6 '#', then a
// space, tab or end of line. A closing run of '#' is dropped when a space
// precedes it, as in CommonMark.
//
//	"## Build ##" → 2, "Build"     "# C#" → 1, "C#"     "#5" → not a heading
func mdHeading(l string) (level int, text string, ok bool) {
	ind, at := mdIndent(l)
	if ind > 3 {
		return 0, "", false
	}
	for at+level < len(l) && l[at+level] == '#' {
		level++
	}
	if level == 0 || level > 6 {
		return 0, "", false
	}
	rest := l[at+level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, "", false
	}
	rest = strings.TrimRight(rest, " \t\r")
	if bare := strings.TrimRight(rest, "#"); bare == "" || strings.HasSuffix(bare, " ") || strings.HasSuffix(bare, "\t") {
		rest = bare
	}
	return level, rest, true
}

// mdFence reads a fence opener at any indent: three or more '`' or '~'. A
// backtick fence's info string cannot hold a backtick, so "```x```" on its
// own line is inline code, not a fence that swallows the rest of the file.
func mdFence(l string) (ch byte, n, ind int, ok bool) {
	ind, at := mdIndent(l)
	if at == len(l) || (l[at] != '`' && l[at] != '~') {
		return 0, 0, 0, false
	}
	ch = l[at]
	for at+n < len(l) && l[at+n] == ch {
		n++
	}
	if n < 3 || (ch == '`' && strings.IndexByte(l[at+n:], '`') >= 0) {
		return 0, 0, 0, false
	}
	return ch, n, ind, true
}

// mdFenceClose: the same character, at least as many, nothing after but
// whitespace. maxInd is the opener's indent plus 3, so a fence inside a list
// item may close at the margin.
func mdFenceClose(l string, ch byte, n, maxInd int) bool {
	ind, at := mdIndent(l)
	if ind > maxInd {
		return false
	}
	k := 0
	for at+k < len(l) && l[at+k] == ch {
		k++
	}
	return k >= n && mdBlank(l[at+k:])
}

func mdCommentOpen(l string) (ind int, ok bool) {
	ind, at := mdIndent(l)
	return ind, strings.HasPrefix(l[at:], "<!--")
}

// mdBullet reads a list marker: up to 3 columns of indent, then '-', '*', '+'
// or 1–9 digits and '.' or ')', then a space, tab or end of line. content is
// what follows the marker.
//
//	"- Use pnpm" → 0, " Use pnpm"     "12) x" → 0, " x"     "-x" → not a bullet
func mdBullet(l string) (ind int, content string, ok bool) {
	ind, at := mdIndent(l)
	if ind > 3 || at == len(l) {
		return 0, "", false
	}
	end := at
	switch c := l[at]; {
	case c == '-' || c == '*' || c == '+':
		end++
	case c >= '0' && c <= '9':
		for end < len(l) && end-at < 10 && l[end] >= '0' && l[end] <= '9' {
			end++
		}
		if end-at > 9 || end == len(l) || (l[end] != '.' && l[end] != ')') {
			return 0, "", false
		}
		end++
	default:
		return 0, "", false
	}
	if end < len(l) && l[end] != ' ' && l[end] != '\t' {
		return 0, "", false
	}
	return ind, l[end:], true
}

// mdRule reports a thematic break: three or more of one of '-', '*', '_',
// with only spaces or tabs between ("---", "* * *").
func mdRule(l string) bool {
	ind, at := mdIndent(l)
	if ind > 3 || at == len(l) || (l[at] != '-' && l[at] != '*' && l[at] != '_') {
		return false
	}
	ch, n := l[at], 0
	for _, c := range []byte(l[at:]) {
		switch c {
		case ch:
			n++
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return n >= 3
}

// mdLink reads the "[title](target)" a pointer starts with and accepts it
// when target is a relative path to a markdown file. title and target are
// returned as written.
//
//	" [Build quirks](build.md#cache) — sccache" → "Build quirks", "build.md#cache"
//	" [Docs](https://x.dev/a.md)"              → not a pointer
func mdLink(content string) (title, target string, ok bool) {
	s := strings.TrimLeft(content, " \t")
	if !strings.HasPrefix(s, "[") {
		return "", "", false
	}
	i, depth := 1, 0
title:
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			if depth == 0 {
				break title
			}
			depth--
		}
	}
	if i+1 >= len(s) || s[i+1] != '(' {
		return "", "", false
	}
	title = s[1:i]
	j := i + 2
	k, depth := j, 0
dest:
	for ; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case ' ', '\t':
			break dest
		case '(':
			depth++
		case ')':
			if depth == 0 {
				break dest
			}
			depth--
		}
	}
	if k >= len(s) {
		return "", "", false
	}
	target = s[j:k]
	if s[k] != ')' {
		// A link title may follow the target: [x](a.md "About a").
		rest := strings.TrimLeft(s[k:], " \t")
		if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
			q := strings.IndexByte(rest[1:], rest[0])
			if q < 0 {
				return "", "", false
			}
			rest = strings.TrimLeft(rest[q+2:], " \t")
		}
		if !strings.HasPrefix(rest, ")") {
			return "", "", false
		}
	}
	if strings.Contains(target, "://") || strings.HasPrefix(target, "/") || strings.HasPrefix(target, "#") {
		return "", "", false
	}
	if p := mdPath(target); len(p) < 3 || !strings.EqualFold(p[len(p)-3:], ".md") {
		return "", "", false
	}
	return title, target, true
}

// mdPath is a link target without its "#anchor".
func mdPath(target string) string {
	if h := strings.IndexByte(target, '#'); h >= 0 {
		return target[:h]
	}
	return target
}

// mdText joins first and every line of rest, trimmed, into single-spaced
// words. Invalid UTF-8 becomes U+FFFD so Text is always safe to store and
// compare.
func mdText(first string, rest []string) string {
	return mdValid(string(mdAppendText(nil, first, rest)))
}

// mdAppendText appends the words of first and of every line of rest to dst,
// one space between them, without a slice of words per line: the words of
// strings.Fields, split at Unicode white space.
func mdAppendText(dst []byte, first string, rest []string) []byte {
	start := len(dst)
	dst = mdAppendWords(dst, start, first)
	for _, l := range rest {
		dst = mdAppendWords(dst, start, l)
	}
	return dst
}

// mdAppendWords appends the words of s, each after a space once dst holds
// more than its first start bytes.
func mdAppendWords(dst []byte, start int, s string) []byte {
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		w := i
		for i < len(s) {
			r, size = rune(s[i]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(s[i:])
			}
			if unicode.IsSpace(r) {
				break
			}
			i += size
		}
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		dst = append(dst, s[w:i]...)
	}
	return dst
}

func mdValid(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// mdCut shortens s to at most max runes. When it must cut, it ends in "…",
// after the last whole word that fits; or mid-word, at the limit, when that
// word boundary would throw away more than half of the room (one long word,
// a URL) or there is none.
//
//	mdCut("Run make before testing", 15) → "Run make…"
//	mdCut("- [ttttttttttt](a.md)", 10)    → "- [tttttt…"
func mdCut(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	if max < 1 {
		return ""
	}
	keep, half := 0, 0 // byte offsets after max-1 and (max-1)/2 runes: room for "…"
	for n := 0; n < max-1; n++ {
		if n == (max-1)/2 {
			half = keep
		}
		_, size := utf8.DecodeRuneInString(s[keep:])
		keep += size
	}
	// A space right after the kept runes is a word boundary too, hence keep+1.
	if sp := strings.LastIndexAny(s[:keep+1], " \t"); sp > 0 {
		if head := strings.TrimRight(s[:sp], " \t"); head != "" && len(head) >= half {
			return head + "…"
		}
	}
	return s[:keep] + "…"
}

// mdHardCut keeps the first max runes of s.
func mdHardCut(s string, max int) string {
	at := 0
	for n := 0; n < max && at < len(s); n++ {
		_, size := utf8.DecodeRuneInString(s[at:])
		at += size
	}
	return s[:at]
}

// identify sets the page's Hash and ID. Repeats of an id in one file get
// "-2", "-3"… in order, so ids stay unique and stable while the text is;
// an id a forgotten twin keeps (ps.taken) is passed over.
func (ps *parser) identify(p *page, scope string) {
	kind := p.Kind.String()
	ps.key = append(append(append(ps.key[:0], kind...), 0), p.Text...)
	h := sha1.Sum(ps.key)
	ps.key = hex.AppendEncode(ps.key[:0], h[:])
	p.Hash = ps.keep(ps.key)
	ps.key = append(append(append(append(append(ps.key[:0], scope...), 0), kind...), 0), p.Text...)
	h = sha1.Sum(ps.key)
	ps.key = hex.AppendEncode(append(ps.key[:0], "P-"...), h[:5])
	// The id is those 5 bytes, so they are the key: a repeat gets "-2", "-3"…
	key := uint64(h[0])<<32 | uint64(h[1])<<24 | uint64(h[2])<<16 | uint64(h[3])<<8 | uint64(h[4])
	seen := &ps.seen
	i := seen.home(key)
	for seen.vals[i] != 0 && seen.keys[i] != key {
		i = seen.next(i)
	}
	seen.keys[i] = key
	base := len(ps.key)
	for n := seen.vals[i] + 1; ; n++ {
		ps.key = ps.key[:base]
		if n > 1 {
			ps.key = strconv.AppendInt(append(ps.key, '-'), int64(n), 10)
		}
		if !isTaken(ps.taken, ps.key) {
			seen.vals[i] = n
			break
		}
	}
	p.ID = ps.keep(ps.key)
}

// isTaken reports whether id is one of taken (sorted).
func isTaken(taken []string, id []byte) bool {
	if len(taken) == 0 {
		return false
	}
	s := unsafe.String(&id[0], len(id)) // compared only, not kept
	i, _ := slices.BinarySearch(taken, s)
	return i < len(taken) && taken[i] == s
}

// mdSplit splits s into lines, each with its "\n"; a last line may lack it.
//
//go:noinline
func mdSplit(s string) []string {
	return mdSplitInto(make([]string, 0, strings.Count(s, "\n")+1), s)
}

// mdSplitInto is mdSplit appending to lines.
//
// The lines of a large text are copies in blocks of parseBlock bytes (a line
// longer than a quarter of one, in its own), not views into it: a view is a
// pointer into the middle of the text, and TinyGo's collector walks back to
// the start of the text from each one, every cycle (decision 003). The
// 40,000 lines of a 4 MiB MEMORY.md made each collection during its parse
// take ~1 s, and a parse runs several.
func mdSplitInto(lines []string, s string) []string {
	var block []byte
	copied := len(s) > splitCopied
	for s != "" {
		i := strings.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		l := s[:i]
		switch {
		case !copied:
		case len(l) > parseBlock/4:
			l = string([]byte(l))
		default:
			if len(block)+len(l) > cap(block) {
				block = make([]byte, 0, parseBlock)
			}
			start := len(block)
			block = append(block, l...)
			l = unsafe.String(&block[start], len(l))
		}
		lines = append(lines, l)
		s = s[i:]
	}
	return lines
}

// splitCopied is the size of a text whose lines mdSplitInto copies: below
// it, a walk back to its start is short.
const splitCopied = 64 << 10

// mdBody is a line without its line ending ("\n" or "\r\n").
//
//go:noinline
func mdBody(l string) string {
	l = strings.TrimSuffix(l, "\n")
	return strings.TrimSuffix(l, "\r")
}

func mdBlank(l string) bool {
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ', '\t', '\r', '\n', '\v', '\f':
		default:
			return false
		}
	}
	return true
}

// mdIndent measures leading spaces and tabs in columns (a tab reaches the
// next multiple of 4) and returns the byte offset where the text starts.
func mdIndent(l string) (cols, at int) {
	for ; at < len(l); at++ {
		switch l[at] {
		case ' ':
			cols++
		case '\t':
			cols += 4 - cols%4
		default:
			return cols, at
		}
	}
	return cols, at
}

func mdCols(l string) int {
	cols, _ := mdIndent(l)
	return cols
}
