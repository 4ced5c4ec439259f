package notes

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// fitScope parses src the way the driver does and wraps it as a residentScope.
func fitScope(name, file, src string, maxLines, maxBytes int) residentScope {
	return residentScope{Name: name, File: file, Pages: parse(name, []byte(src)), MaxLines: maxLines, MaxBytes: maxBytes}
}

// endLine is src with a final newline: what an index that fits whole is
// rendered as.
func endLine(src string) string {
	if src != "" && !strings.HasSuffix(src, "\n") {
		return src + "\n"
	}
	return src
}

func newlines(s string) int { return strings.Count(s, "\n") }

// fitRender is a scope's text for the given forms, with the marker a scope
// that lost pages carries: what fit must have produced.
func fitRender(s *residentScope, forms []fidelity) (text string, dropped int) {
	var b strings.Builder
	for pi, f := range forms {
		b.WriteString(s.Pages[pi].form(f, s.File))
		if f == formDropped {
			dropped++
		}
	}
	if dropped > 0 {
		b.WriteString(marker(s.File, dropped))
	}
	return b.String(), dropped
}

// fitBreaks reports whether texts break a scope cap or the total.
func fitBreaks(scopes []residentScope, texts []string, maxBytes int) bool {
	total := 0
	for si, txt := range texts {
		if newlines(txt) > scopes[si].MaxLines || len(txt) > scopes[si].MaxBytes {
			return true
		}
		total += len(txt)
	}
	return total > maxBytes
}

// checkResidency asserts everything fit promises for any input: caps kept,
// forms legal, dropped pages a suffix of each file and recorded as faults,
// lower-priority scopes showing nothing before a higher one loses a page
// to the token budget, no upgrade left that would still fit, an index that fits
// whole rendered as written, and the same answer every time.
func checkResidency(t *testing.T, scopes []residentScope, order []int, maxBytes int, r residency) {
	t.Helper()
	require.True(t, len(r.Forms) == len(scopes) && len(r.Texts) == len(scopes), "%d forms and %d texts for %d scopes", len(r.Forms), len(r.Texts), len(scopes))
	total := 0
	rank := make([]int, len(scopes)) // position of each scope in order
	for k, si := range order {
		rank[si] = k
	}
	faults := map[string][]fault{}
	for _, f := range r.Faults {
		faults[f.Scope] = append(faults[f.Scope], f)
	}
	for si := range scopes {
		s := &scopes[si]
		forms, text := r.Forms[si], r.Texts[si]
		require.Equal(t, len(s.Pages), len(forms), "scope %s", s.Name)
		require.True(t, newlines(text) <= s.MaxLines && len(text) <= s.MaxBytes, "scope %s: %d lines and %d bytes over caps %d and %d:\n%s", s.Name, newlines(text), len(text), s.MaxLines, s.MaxBytes, text)
		total += len(text)
		resident := 0
		for pi, f := range forms {
			p := &s.Pages[pi]
			if f == formDropped {
				continue
			}
			require.True(t, f >= p.minForm() && f <= formFull, "scope %s page %d (%s) at %s, below its minimum %s", s.Name, pi, p.Kind, f, p.minForm())
			require.True(t, pi == 0 || forms[pi-1] != formDropped, "scope %s: page %d resident after dropped page %d; a file loses its last pages first", s.Name, pi, pi-1)
			resident++
		}
		want, dropped := fitRender(s, forms)
		// With nothing left, the text may be empty: the marker alone would break a cap.
		require.True(t, text == want || resident == 0 && text == "", "scope %s: text\n%q\nwant\n%q", s.Name, text, want)
		require.True(t, dropped != 0 || text == endLine(srcOf(s.Pages)) || !fitAllFull(forms), "scope %s fits whole but is not rendered as written:\n%q", s.Name, text)

		fs := faults[s.Name]
		require.Equal(t, dropped, len(fs), "scope %s", s.Name)
		for k, f := range fs {
			// Faults come last page first, the scope's own caps before tokens.
			pi := len(s.Pages) - 1 - k
			p := &s.Pages[pi]
			require.True(t, f.Page == p.ID && f.Line == p.Line && f.Bytes == len(p.form(p.minForm(), s.File)), "scope %s fault %d = %+v, want page %s line %d bytes %d", s.Name, k, f, p.ID, p.Line, len(p.form(p.minForm(), s.File)))
			require.True(t, f.Reason == "scope_lines" || f.Reason == "scope_bytes" || f.Reason == "tokens", "scope %s: fault reason %q", s.Name, f.Reason)
			require.True(t, f.Reason == "tokens" || k == 0 || fs[k-1].Reason != "tokens", "scope %s: a %s fault after a tokens fault", s.Name, f.Reason)
		}
	}
	require.True(t, total <= maxBytes || maxBytes < 0, "texts total %d bytes over maxBytes %d", total, maxBytes)
	// The token budget takes from the lowest priority first: a scope that
	// lost a page to it sits above scopes that show nothing, not even a
	// marker.
	for si := range scopes {
		for _, f := range faults[scopes[si].Name] {
			if f.Reason != "tokens" {
				continue
			}
			for sj := range scopes {
				require.True(t, rank[sj] <= rank[si] || r.Texts[sj] == "", "scope %s lost page %s to tokens while lower-priority %s shows %q", scopes[si].Name, f.Page, scopes[sj].Name, r.Texts[sj])
			}
		}
	}
	// Nothing is dropped when every page fits at its minimum.
	if len(r.Faults) > 0 {
		min := make([]string, len(scopes))
		for si := range scopes {
			forms := make([]fidelity, len(scopes[si].Pages))
			for pi := range forms {
				forms[pi] = scopes[si].Pages[pi].minForm()
			}
			min[si], _ = fitRender(&scopes[si], forms)
		}
		require.True(t, fitBreaks(scopes, min, maxBytes), "faults %+v although every page fits at its minimum", r.Faults)
	}
	// No upgrade was left out that still fits: sizes only grow with
	// fidelity, so a page that could not take the next form when its turn
	// came cannot take it now either.
	texts := append([]string(nil), r.Texts...)
	for si := range scopes {
		for pi, f := range r.Forms[si] {
			if f == formDropped || f == formFull {
				continue
			}
			forms := append([]fidelity(nil), r.Forms[si]...)
			forms[pi] = f + 1
			texts[si], _ = fitRender(&scopes[si], forms)
			require.True(t, fitBreaks(scopes, texts, maxBytes), "scope %s page %d left at %s though %s fits", scopes[si].Name, pi, f, f+1)
			texts[si] = r.Texts[si]
		}
	}
	require.Equal(t, r, fit(scopes, order, maxBytes), "Fit is not deterministic")
}

func srcOf(pages []page) string {
	var b strings.Builder
	for i := range pages {
		b.WriteString(pages[i].Src)
	}
	return b.String()
}

func fitAllFull(forms []fidelity) bool {
	for _, f := range forms {
		if f != formFull {
			return false
		}
	}
	return true
}

func TestFitRendersAnIndexThatFitsExactlyAsWritten(t *testing.T) {
	tests := []struct{ name, src string }{
		{"headings, facts and a pointer", "# Memory\n\n## Build\n- Run `make wasm` before testing the extension\n- [Build quirks](build.md) — sccache breaks -Werror\n\n## Style\n- Use tabs in Go files\n  and in Makefiles\n"},
		{"no final newline", "## Notes\n- Use pnpm, not npm"},
		{"CRLF line endings", "## Notes\r\n- Use pnpm\r\n\r\n- Run make first\r\n"},
		{"fenced code and a table", "## Deploy\n```sh\n# not a heading\nmake deploy\n```\n\n| env | url |\n|-----|-----|\n| dev | x   |\n"},
		{"blank lines everywhere", "\n\n# Memory\n\n\n\n- a\n\n\n"},
		{"a comment and invalid UTF-8", "<!-- the agent reads this -->\n- caf\xe9 \xff\n"},
		{"one long line", "- " + strings.Repeat("word ", 100) + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			full := endLine(tt.src)
			// Caps exactly at the file's size: fitting whole includes the edge.
			scopes := []residentScope{fitScope("project", "MEMORY.md", tt.src, newlines(full), len(full))}
			r := fit(scopes, []int{0}, len(full))
			require.Equal(t, full, r.Texts[0], "text")
			require.True(t, len(r.Faults) == 0 && fitAllFull(r.Forms[0]), "forms %v faults %+v, want every page full", r.Forms[0], r.Faults)
			checkResidency(t, scopes, []int{0}, len(full), r)
		})
	}
}

func TestFitRendersEachScopeThatFitsWholeAsWrittenBesideOthers(t *testing.T) {
	project := "## Build\n- Run make first\n"
	global := "## Style\n- Tabs, not spaces\n- Wrap at 100 columns\n"
	scopes := []residentScope{
		fitScope("global", "~/.pi/agent/memory/MEMORY.md", global, 200, 8192),
		fitScope("project", ".pi/memory/MEMORY.md", project, 200, 8192),
	}
	r := fit(scopes, []int{1, 0}, 1<<20)
	require.True(t, r.Texts[0] == global && r.Texts[1] == project, "texts %q", r.Texts)
	none := fit(nil, nil, 100)
	require.True(t, len(none.Texts) == 0 && len(none.Faults) == 0, "Fit of nothing = %+v", none)
}

func TestFitFaultsNameTheCapThatForcedThem(t *testing.T) {
	const src = "## Build\n- a one\n- b is the second fact\n- c is the third fact\n- d is the fourth fact\n" // 85 bytes
	const want = "## Build\n- a one\n[3 more entries not shown: read MEMORY.md]\n"                           // 60 bytes, 3 lines
	tests := []struct {
		name                       string
		maxLines, maxBytes, tokens int
		reason                     string
	}{
		{"too many lines", 3, 1000, 10000, "scope_lines"},
		{"too many bytes", 100, 60, 10000, "scope_bytes"},
		{"over the token budget", 100, 1000, 60, "tokens"},
		// Lines are checked first when both caps are broken.
		{"lines and bytes", 3, 60, 10000, "scope_lines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scopes := []residentScope{fitScope("project", "MEMORY.md", src, tt.maxLines, tt.maxBytes)}
			r := fit(scopes, []int{0}, tt.tokens)
			require.Equal(t, want, r.Texts[0], "text")
			pages := scopes[0].Pages
			wantFaults := []fault{
				{Scope: "project", Page: pages[4].ID, Line: 5, Reason: tt.reason, Bytes: 23},
				{Scope: "project", Page: pages[3].ID, Line: 4, Reason: tt.reason, Bytes: 22},
				{Scope: "project", Page: pages[2].ID, Line: 3, Reason: tt.reason, Bytes: 23},
			}
			require.Equal(t, wantFaults, r.Faults, "faults")
			require.Equal(t, []fidelity{formFull, formFull, formDropped, formDropped, formDropped}, r.Forms[0], "forms")
			checkResidency(t, scopes, []int{0}, tt.tokens, r)
		})
	}
}

func TestFitMarkerCountsTheEntriesLeftOut(t *testing.T) {
	const (
		file = ".pi/memory/MEMORY.md"
		head = "## Build\n- Regenerate protobuf bindings after schema migrations\n"
		b    = "- Rebuild the wasm core before extension tests\n"
		c    = "- Staging deployments require VPN-authenticated kubeconfig credentials\n"
	)
	tests := []struct{ name, want string }{
		{"one entry", head + b + "[1 more entry not shown: read " + file + "]\n"},
		{"two entries", head + "[2 more entries not shown: read " + file + "]\n"},
		{"everything", "[4 more entries not shown: read " + file + "]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A byte cap exactly the size of the wanted text: the marker is
			// counted inside it, and one page more would not fit.
			scopes := []residentScope{fitScope("project", file, head+b+c, 200, len(tt.want))}
			r := fit(scopes, []int{0}, 1<<20)
			require.Equal(t, tt.want, r.Texts[0], "text")
			checkResidency(t, scopes, []int{0}, 1<<20, r)
		})
	}
}

func TestFitShrinksPagesToPointersBeforeDroppingAny(t *testing.T) {
	src := "## Build\n- Run the unit tests with the race detector before every push to main\n  because the CI runners are slower and hide data races\n"
	scopes := []residentScope{fitScope("project", "MEMORY.md", src, 200, 8192)}
	want := "## Build\n- Run the unit tests with the … (MEMORY.md:2)\n"
	r := fit(scopes, []int{0}, len(want))
	require.True(t, r.Texts[0] == want && len(r.Faults) == 0, "text %q faults %+v, want %q and none", r.Texts[0], r.Faults, want)
	checkResidency(t, scopes, []int{0}, len(want), r)
}

// priorityScopes are three indexes listed in display order (global first),
// whose priority is project, local, global.
func priorityScopes() ([]residentScope, []int) {
	global := "# Global memory\n\n## Style\n- Prefer table-driven tests with names that state the behaviour\n- Keep comments short and say why, not what\n- Wrap prose at one hundred columns in every markdown file\n"
	project := "## Build\n- Run `make wasm` before testing the extension\n- [Build quirks](build.md) — sccache breaks -Werror\n"
	local := "## Me\n- My fork is at github.com/ana/pi-memory\n- I test on the arm64 laptop first\n"
	scopes := []residentScope{
		fitScope("global", "~/.pi/agent/memory/MEMORY.md", global, 200, 8192),
		fitScope("project", ".pi/memory/MEMORY.md", project, 200, 8192),
		fitScope("local", ".pi/memory/MEMORY.local.md", local, 200, 8192),
	}
	return scopes, []int{1, 2, 0}
}

func TestFitTakesTheTokenBudgetFromTheLowestPriorityScopeFirst(t *testing.T) {
	scopes, order := priorityScopes()
	project, local := endLine(srcOf(scopes[1].Pages)), endLine(srcOf(scopes[2].Pages))
	global := endLine(srcOf(scopes[0].Pages))
	all := len(project) + len(local) + len(global)
	for maxBytes := 0; maxBytes <= all; maxBytes++ {
		r := fit(scopes, order, maxBytes)
		checkResidency(t, scopes, order, maxBytes, r)
		switch {
		case maxBytes == all:
			require.True(t, len(r.Faults) == 0 && r.Texts[0] == global && r.Texts[1] == project && r.Texts[2] == local, "maxBytes %d fits everything: texts %q faults %+v", maxBytes, r.Texts, r.Faults)
		case maxBytes >= len(project)+len(local):
			// Room for both higher scopes whole: only global pays. (They
			// may still be shown reduced: pages leave only until every
			// minimum fits, then the rest is upgraded as far as it goes.)
			for _, f := range r.Faults {
				require.True(t, f.Scope == "global" && f.Reason == "tokens", "maxBytes %d: fault %+v outside the global scope", maxBytes, f)
			}
		}
	}
	// Tight enough that local pays too: global shows nothing, project
	// loses nothing.
	r := fit(scopes, order, len(project)+40)
	require.Equal(t, "", r.Texts[0], "global")
	for _, f := range r.Faults {
		require.True(t, f.Scope != "project", "project lost %+v while local kept pages", f)
	}
	require.True(t, r.Faults[0].Scope == "global" && r.Faults[len(r.Faults)-1].Scope == "local", "faults %+v, want global's first and local's last", r.Faults)
}

// Regression: an emptied low-priority scope kept its marker while the token
// budget took pages from higher-priority scopes, so with room for the whole
// project index the project showed only a marker beside local's marker.
func TestFitDropsAnEmptiedScopesMarkerBeforeAHigherScopesPage(t *testing.T) {
	scopes, order := priorityScopes()
	project := endLine(srcOf(scopes[1].Pages))
	for _, extra := range []int{0, 10, 40} {
		maxBytes := len(project) + extra
		r := fit(scopes, order, maxBytes)
		checkResidency(t, scopes, order, maxBytes, r)
		require.True(t, r.Texts[1] == project || extra != 0, "maxBytes %d: project %q, want it whole", maxBytes, r.Texts[1])
		for _, f := range r.Faults {
			require.True(t, f.Scope != "project", "maxBytes %d: project lost %+v; texts %q", maxBytes, f, r.Texts)
		}
	}
	require.Equal(t, []string{"", project, ""}, fit(scopes, order, len(project)).Texts, "texts")
}

// Regression: when the token budget emptied every scope, their markers were
// still rendered, so the texts could total more than maxBytes (renderBlock
// passes 0 when the preamble and headers eat the whole budget).
func TestFitKeepsTheTotalWithinMaxBytesWhenOnlyMarkersRemain(t *testing.T) {
	scopes, order := priorityScopes()
	for _, maxBytes := range []int{0, 1, 40, 60, 100} {
		r := fit(scopes, order, maxBytes)
		checkResidency(t, scopes, order, maxBytes, r)
		total := 0
		for _, txt := range r.Texts {
			total += len(txt)
		}
		require.True(t, total <= maxBytes, "maxBytes %d: texts total %d: %q", maxBytes, total, r.Texts)
	}
	// A marker that fits is kept for the highest-priority scope first.
	r := fit(scopes, order, 60)
	require.True(t, strings.HasPrefix(r.Texts[1], "[") && r.Texts[0] == "", "texts %q: want project's marker before global's", r.Texts)
}

func TestFitGivesTheSameAnswerForTheSameText(t *testing.T) {
	scopes, order := priorityScopes()
	for _, maxBytes := range []int{0, 100, 250, 400, 1 << 20} {
		first := fit(scopes, order, maxBytes)
		// Pages parsed afresh from the same files: the driver re-parses
		// on every change, and an unchanged file must inject the same bytes.
		again, _ := priorityScopes()
		require.Equal(t, fit(again, order, maxBytes), first, "maxBytes %d", maxBytes)
	}
}

func TestFitDoesNotChangeItsInput(t *testing.T) {
	scopes, order := priorityScopes()
	before := make([][]page, len(scopes))
	for i := range scopes {
		before[i] = append([]page(nil), scopes[i].Pages...)
	}
	fit(scopes, order, 200)
	for i := range scopes {
		require.Equal(t, before[i], scopes[i].Pages, "scope %d pages changed", i)
	}
	require.Equal(t, []int{1, 2, 0}, order, "order changed")
}

// genMarkdown writes a plausible memory file: headings, facts with
// continuation lines and nested bullets, pointers, paragraphs, fences,
// comments, long lines, blank runs, CRLF and a missing final newline.
func genMarkdown(rnd *rand.Rand) string {
	words := []string{"run", "make", "wasm", "before", "testing", "the", "extension", "pnpm", "npm", "sccache",
		"breaks", "-Werror", "tabs", "in", "Go", "files", "deploy", "on", "Fridays", "é", "日本語", "`go test`", "CI", "race"}
	phrase := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rnd.Intn(len(words))])
		}
		return b.String()
	}
	nl := "\n"
	if rnd.Intn(8) == 0 {
		nl = "\r\n"
	}
	var b strings.Builder
	for blocks := rnd.Intn(14); blocks >= 0; blocks-- {
		switch rnd.Intn(9) {
		case 0:
			b.WriteString(strings.Repeat("#", 1+rnd.Intn(3)) + " " + phrase(1+rnd.Intn(4)) + nl)
		case 1, 2, 3:
			b.WriteString("- " + phrase(1+rnd.Intn(12)) + nl)
			for c := rnd.Intn(3); c > 0; c-- {
				b.WriteString("  " + phrase(1+rnd.Intn(8)) + nl)
			}
			if rnd.Intn(4) == 0 {
				b.WriteString("  - " + phrase(3) + nl)
			}
		case 4:
			b.WriteString("- [" + phrase(2) + "](topic-" + strconv.Itoa(rnd.Intn(9)) + ".md) — " + phrase(rnd.Intn(6)) + nl)
		case 5:
			for l := 1 + rnd.Intn(3); l > 0; l-- {
				b.WriteString(phrase(2+rnd.Intn(10)) + nl)
			}
		case 6:
			b.WriteString("```sh" + nl + "# " + phrase(2) + nl + phrase(3) + nl + "```" + nl)
		case 7:
			b.WriteString("- " + strings.Repeat(phrase(6)+" ", 10+rnd.Intn(20)) + nl)
		case 8:
			b.WriteString("<!-- " + phrase(3) + " -->" + nl)
		}
		for n := rnd.Intn(3); n > 0; n-- {
			b.WriteString(nl)
		}
	}
	s := b.String()
	if rnd.Intn(5) == 0 {
		s = strings.TrimRight(s, "\r\n")
	}
	return s
}

func TestFitKeepsEveryCapForRandomMarkdown(t *testing.T) {
	rnd := rand.New(rand.NewSource(5))
	names := []string{"project", "local", "global"}
	for i := 0; i < 3000; i++ {
		n := 1 + rnd.Intn(3)
		scopes := make([]residentScope, n)
		for si := range scopes {
			maxLines, maxBytes := 1+rnd.Intn(40), 1+rnd.Intn(2500)
			if rnd.Intn(4) == 0 {
				maxLines, maxBytes = 200, 8192
			}
			scopes[si] = fitScope(names[si], names[si]+"/MEMORY.md", genMarkdown(rnd), maxLines, maxBytes)
		}
		order := rnd.Perm(n)
		maxBytes := rnd.Intn(6000)
		if rnd.Intn(5) == 0 {
			maxBytes = 1 << 20
		}
		r := fit(scopes, order, maxBytes)
		checkResidency(t, scopes, order, maxBytes, r)
		require.True(t, !t.Failed(), "case %d: order %v maxBytes %d", i, order, maxBytes)
	}
}

// ---- cut ------------------------------------------------------------------------

func TestCutKeepsAFileThatFitsWhole(t *testing.T) {
	tests := []struct {
		name, src, want    string
		maxLines, maxBytes int
	}{
		{"well within", "## Notes\n- a\n", "## Notes\n- a\n", 200, 8192},
		{"exactly at both caps", "## Notes\n- a\n", "## Notes\n- a\n", 2, 13},
		{"a final newline is added", "## Notes\n- a", "## Notes\n- a\n", 2, 13},
		{"an empty file", "", "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := cut(tt.src, tt.maxLines, tt.maxBytes, "MEMORY.md")
			require.True(t, got == tt.want && !cut, "Cut = %q, %v; want %q, false", got, cut, tt.want)
		})
	}
}

func TestCutKeepsWholeLinesAndPutsTheMarkerInsideBothCaps(t *testing.T) {
	const src = "alpha\nbeta\ngamma\n"
	long := strings.Repeat(strings.Repeat("x", 60)+"\n", 3)
	const m3, m2, m1 = "[3 more lines not shown: read MEMORY.md]\n", "[2 more lines not shown: read MEMORY.md]\n", "[1 more line not shown: read MEMORY.md]\n"
	tests := []struct {
		name               string
		src                string
		maxLines, maxBytes int
		want               string
	}{
		{"the documented example", "a\nb\nc\n", 2, 100, "a\n" + m2},
		{"the marker takes the last line", src, 2, 1000, "alpha\n" + m2},
		{"one line short", src + "delta\n", 3, 1000, "alpha\nbeta\n" + m2},
		{"one byte short", long, 100, len(long) - 1, long[:122] + m1},
		{"bytes for one line and the marker", long, 100, 61 + len(m2), long[:61] + m2},
		{"one byte less keeps the marker only", long, 100, 61 + len(m2) - 1, m3},
		{"a one-line cap holds only the marker", src, 1, 1000, m3},
		{"a cap below the marker keeps nothing", long, 100, len(m3) - 1, ""},
		{"a zero line cap keeps nothing", src, 0, 1000, ""},
		{"a missing final newline is counted as a line", "alpha\nbeta\ngamma", 2, 1000, "alpha\n" + m2},
		{"CRLF lines stay whole", "alpha\r\nbeta\r\ngamma\r\n", 2, 1000, "alpha\r\n" + m2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := cut(tt.src, tt.maxLines, tt.maxBytes, "MEMORY.md")
			require.True(t, got == tt.want && cut, "Cut = %q, %v; want %q, true", got, cut, tt.want)
			require.True(t, newlines(got) <= tt.maxLines && len(got) <= tt.maxBytes, "%d lines %d bytes over caps %d %d", newlines(got), len(got), tt.maxLines, tt.maxBytes)
		})
	}
}

func TestCutNeverBreaksItsCaps(t *testing.T) {
	rnd := rand.New(rand.NewSource(7))
	srcs := []string{"", "x", "x\n", "a\nb\nc\n", "## Notes\n- " + strings.Repeat("long ", 40) + "\n- b\n", "é\n日本語\n\n\n"}
	for i := 0; i < 40; i++ {
		srcs = append(srcs, genMarkdown(rnd))
	}
	for _, src := range srcs {
		full := endLine(src)
		total := newlines(full)
		for maxLines := 0; maxLines <= 6; maxLines++ {
			for maxBytes := 0; maxBytes <= 160; maxBytes += 1 + maxBytes/16 {
				got, cut := cut(src, maxLines, maxBytes, "MEMORY.md")
				require.True(t, newlines(got) <= maxLines && len(got) <= maxBytes, "Cut(%q, %d, %d) = %q breaks a cap", src, maxLines, maxBytes, got)
				if !cut {
					require.True(t, got == full && total <= maxLines && len(full) <= maxBytes, "Cut(%q, %d, %d) = %q, not cut", src, maxLines, maxBytes, got)
					continue
				}
				require.True(t, total > maxLines || len(full) > maxBytes, "Cut(%q, %d, %d) cut a file that fits", src, maxLines, maxBytes)
				// What is kept is whole lines of the file, then the marker
				// naming the rest, when it fits.
				body := got
				if k := strings.LastIndex(strings.TrimSuffix(got, "\n"), "\n"); strings.HasSuffix(got, " not shown: read MEMORY.md]\n") {
					body = got[:k+1]
				}
				require.True(t, strings.HasPrefix(full, body) && (body == "" || strings.HasSuffix(body, "\n")), "Cut(%q, %d, %d) = %q is not whole lines of the file", src, maxLines, maxBytes, got)
				kept := newlines(body)
				require.True(t, body == got || got[len(body):] == cutMarker("MEMORY.md", total-kept), "Cut(%q, %d, %d) = %q: marker should count %d lines", src, maxLines, maxBytes, got, total-kept)
				// It is the longest such prefix: one more line and its marker break a cap.
				if body != got && kept+1 < total {
					next := len(body) + strings.IndexByte(full[len(body):], '\n') + 1
					require.True(t, kept+2 > maxLines || next+len(cutMarker("MEMORY.md", total-kept-1)) > maxBytes, "Cut(%q, %d, %d) = %q stopped a line early", src, maxLines, maxBytes, got)
				}
			}
		}
	}
}
