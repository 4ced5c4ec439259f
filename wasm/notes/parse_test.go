package notes

import (
	"crypto/sha1"
	"encoding/hex"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/internal/require"
)

// pageList renders pages as "kind@line+lines text", one string each, so a
// table row can state a whole parse in one readable line.
func pageList(pages []page) []string {
	var out []string
	for _, p := range pages {
		out = append(out, p.Kind.String()+"@"+strconv.Itoa(p.Line)+"+"+strconv.Itoa(p.Lines)+" "+p.Text)
	}
	return out
}

// samePages reports whether two parses gave the same pages (no pages at all
// being the same whether the slice is nil or not).
func samePages(a, b []page) bool {
	return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b)
}

type parseCase struct {
	name string
	src  string
	want []string // pageList of parse("project", src)
}

func runParseCases(t *testing.T, cases []parseCase) {
	t.Helper()
	// One parser for every case, reusing its pages' array: a file parsed
	// after another must come out exactly as it does alone.
	var ps parser
	var reused []page
	for _, tc := range cases {
		pages := parse("project", []byte(tc.src))
		checkPages(t, tc.src, pages)
		require.Equal(t, tc.want, pageList(pages), "%s: Parse(%q)", tc.name, tc.src)
		reused = ps.parse(reused, "project", []byte(tc.src))
		require.True(t, samePages(pages, reused), "%s: a reused Parser gave\n%+v\nParse gave\n%+v", tc.name, reused, pages)
	}
}

// checkPages asserts everything that must hold for any input: the pages
// cover src exactly and in order, their texts are clean, ids are unique, and
// every form has its shape and never grows as fidelity drops. The fuzz test
// runs it on random bytes.
func checkPages(t *testing.T, src string, pages []page) {
	t.Helper()
	var joined strings.Builder
	lines, next := 0, 1
	ids := map[string]bool{}
	for i := range pages {
		p := &pages[i]
		joined.WriteString(p.Src)
		require.True(t, p.Src != "", "page %d of %q has no source", i, src)
		n := strings.Count(p.Src, "\n")
		if !strings.HasSuffix(p.Src, "\n") {
			n++
			require.Equal(t, len(pages)-1, i, "page %d of %q does not end a line: %q", i, src, p.Src)
		}
		require.True(t, p.Lines == n && p.Line == next, "page %d of %q: Line %d Lines %d, want %d and %d (%q)", i, src, p.Line, p.Lines, next, n, p.Src)
		next += n
		lines += n
		require.True(t, utf8.ValidString(p.Text) && !strings.ContainsAny(p.Text, "\r\n\t") && !strings.Contains(p.Text, "  ") && strings.TrimSpace(p.Text) == p.Text, "page %d of %q: Text %q is not single-spaced valid UTF-8", i, src, p.Text)
		require.True(t, !ids[p.ID] && strings.HasPrefix(p.ID, "P-"), "page %d of %q: id %q repeated or malformed", i, src, p.ID)
		ids[p.ID] = true
		checkForms(t, p)
	}
	require.Equal(t, src, joined.String(), "the pages of %q joined", src)
	want := strings.Count(src, "\n")
	if src != "" && !strings.HasSuffix(src, "\n") {
		want++
	}
	require.Equal(t, want, lines, "pages of %q hold", src)
}

func checkForms(t *testing.T, p *page) {
	t.Helper()
	full := p.form(formFull, "MEMORY.md")
	sum := p.form(formSummary, "MEMORY.md")
	ptr := p.form(formPointer, "MEMORY.md")
	require.True(t, (full == p.Src || full == p.Src+"\n") && strings.HasSuffix(full, "\n"), "Full of %q = %q", p.Src, full)
	require.True(t, len(ptr) <= len(sum) && len(sum) <= len(full), "forms of %q grow as fidelity drops: pointer %d %q, summary %d %q, full %d", p.Src, len(ptr), ptr, len(sum), sum, len(full))
	require.Equal(t, "", p.form(formDropped, "MEMORY.md"), "Dropped form of %q is not empty", p.Src)
	// A page with content that ends in blank lines keeps exactly one. Blank
	// means spaces and tabs, as in CommonMark: an em space is content.
	blank := func(s string) bool { return strings.Trim(s, " \t\r\n\v\f") == "" }
	lines := strings.SplitAfter(p.Src, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	blankAfter := !blank(p.Src) && blank(lines[len(lines)-1])
	for _, f := range []string{sum, ptr} {
		require.True(t, utf8.ValidString(f), "reduced form %q of %q is not valid UTF-8", f, p.Src)
		line := strings.TrimSuffix(f, "\n")
		if blankAfter {
			require.True(t, strings.HasSuffix(line, "\n"), "reduced form %q of %q lost the blank line after it", f, p.Src)
			line = strings.TrimSuffix(line, "\n")
		}
		require.True(t, strings.HasSuffix(f, "\n") && !strings.Contains(line, "\n"), "reduced form %q of %q is not one line", f, p.Src)
		require.True(t, utf8.RuneCountInString(line) <= summaryMax, "reduced form %q of %q is over %d runes", f, p.Src, summaryMax)
	}
}

func TestPagesCoverTheFileExactly(t *testing.T) {
	for _, src := range []string{
		"",
		"\n",
		"   \n\t\n",
		"# Title",
		"# Title\n- a\n- b",
		"\n\n# Memory\n\n## Build\n\n- one\n- two\n  more\n\n\n```\ncode\n",
		"- a\r\n- b\r\n\r\n",
		"text\nwith\n\nparagraphs\n<!-- open\n",
		"| a | b |\n|---|---|\n| 1 | 2 |\n",
		"\xff\xfe\n- \xc3\n#\xe2\x82",
		"no newline at all",
	} {
		checkPages(t, src, parse("global", []byte(src)))
	}
}

func TestParserReusesThePagesArrayAndClearsWhatItDoesNotUse(t *testing.T) {
	long := []byte("# Memory\n\n## Build\n- one\n- two\n- three\n- four\n")
	short := []byte("\xEF\xBB\xBF- only\n")
	var ps parser
	pages := ps.parse(nil, "project", short)
	// An array too small for the file is replaced, and cleared so nothing
	// it held stays reachable through it.
	small := pages
	pages = ps.parse(pages, "project", long)
	require.True(t, &pages[:1][0] != &small[:1][0], "a one-page array cannot hold the long file")
	require.Equal(t, page{}, small[:1][0], "the replaced array still holds a page")
	require.True(t, reflect.DeepEqual(parse("project", long), pages), "parse after growing = %+v", pages)
	// One that is large enough is reused, and cleared past the new pages.
	first := &pages[:1][0]
	pages = ps.parse(pages, "project", short)
	require.True(t, &pages[:1][0] == first, "the array of the longer file was not reused")
	require.True(t, reflect.DeepEqual(parse("project", short), pages), "reused parse = %+v", pages)
	for i, p := range pages[len(pages):cap(pages)] {
		require.Equal(t, page{}, p, "slot %d past the short file's pages still holds a page of the long one", len(pages)+i)
	}
}

func TestEmptyFileHasNoPagesAndBlankFileHasOne(t *testing.T) {
	pages := parse("global", nil)
	require.True(t, pages == nil, "Parse(nil) = %v, want no pages", pages)
	runParseCases(t, []parseCase{
		{name: "one newline", src: "\n", want: []string{"text@1+1 "}},
		{name: "spaces and tabs", src: "  \n\t\n \r\n", want: []string{"text@1+3 "}},
		{name: "no final newline", src: "\n   ", want: []string{"text@1+2 "}},
		// Found by FuzzParse: only spaces and tabs make a line blank, so an
		// em space is a (textless) page with a blank line after it.
		{name: "em space", src: "\u2003\n ", want: []string{"text@1+2 "}},
	})
}

func TestHeadingsFollowCommonMark(t *testing.T) {
	tests := []struct {
		line  string
		level int // 0: not a heading
		text  string
	}{
		{"# Memory", 1, "Memory"},
		{"###### Six", 6, "Six"},
		{"####### Seven", 0, ""},
		{"#5 bolt", 0, ""},
		{"#hashtag", 0, ""},
		{"#", 1, ""},
		{"#\tTabbed", 1, "Tabbed"},
		{"   ## Indented three", 2, "Indented three"},
		{"    ## Indented four", 0, ""},
		{"## Build ##", 2, "Build"},
		{"## Build ##   ", 2, "Build"},
		{"# C#", 1, "C#"},
		{"# Build \\#", 1, "Build \\#"},
		{"### ###", 3, ""},
		{"##   spaced    out   ", 2, "spaced out"},
	}
	for _, tt := range tests {
		p := parse("project", []byte(tt.line+"\n"))[0]
		if tt.level == 0 {
			require.True(t, p.Kind != kindHeading, "%q parsed as a heading", tt.line)
			continue
		}
		require.True(t, p.Kind == kindHeading && p.Level == tt.level && p.Text == tt.text, "%q = %v level %d %q, want heading level %d %q", tt.line, p.Kind, p.Level, p.Text, tt.level, tt.text)
	}
}

func TestFencedCodeIsOnePageEvenWithHeadingsInside(t *testing.T) {
	runParseCases(t, []parseCase{
		{
			name: "backticks",
			src:  "## Build\n```sh\n# install\n- not a bullet\n<!-- nor a comment\n\nmake\n```\n- after\n",
			want: []string{"heading@1+1 Build", "text@2+7 # install - not a bullet <!-- nor a comment make", "fact@9+1 after"},
		},
		{
			name: "tildes close only with tildes, at least as long",
			src:  "~~~~\n```\n~~~\n~~~~~\n# Next\n",
			want: []string{"text@1+4 ``` ~~~", "heading@5+1 Next"},
		},
		{
			name: "unclosed runs to the end of the file",
			src:  "```\n# one\n\n- two\n",
			want: []string{"text@1+4 # one - two"},
		},
		{
			name: "backticks in the info string make it inline code",
			src:  "```x```\n# Real\n",
			want: []string{"text@1+1 ```x```", "heading@2+1 Real"},
		},
		{
			name: "indented three columns still opens; four does not",
			src:  "   ```\n# a\n   ```\n\n    ```\n# b\n",
			want: []string{"text@1+4 # a", "text@5+1 ```", "heading@6+1 b"},
		},
	})
}

func TestHTMLCommentIsOneTextPage(t *testing.T) {
	runParseCases(t, []parseCase{
		{
			name: "multi-line",
			src:  "<!-- keep:\n# not a heading\n- not a bullet -->\n- real\n",
			want: []string{"text@1+3 keep: # not a heading - not a bullet", "fact@4+1 real"},
		},
		{
			name: "one line",
			src:  "<!-- note --> trailing\n# H\n",
			want: []string{"text@1+1 note trailing", "heading@2+1 H"},
		},
		{
			name: "unclosed runs to the end of the file",
			src:  "<!--\n# a\n",
			want: []string{"text@1+2 # a"},
		},
	})
}

func TestNestedBulletsBelongToTheirParent(t *testing.T) {
	runParseCases(t, []parseCase{
		{
			name: "two-space nesting",
			src:  "- parent\n  - child\n    - grandchild\n- sibling\n",
			want: []string{"fact@1+3 parent - child - grandchild", "fact@4+1 sibling"},
		},
		{
			name: "one space is a sibling",
			src:  "- a\n - b\n",
			want: []string{"fact@1+1 a", "fact@2+1 b"},
		},
		{
			name: "ordered with tab-indented child",
			src:  "1. first\n\t* child\n2) second\n",
			want: []string{"fact@1+2 first * child", "fact@3+1 second"},
		},
		{
			name: "indented fence inside an item is read whole",
			src:  "- build:\n  ```sh\n# not a heading\n  ```\n- next\n",
			want: []string{"fact@1+4 build: ```sh # not a heading ```", "fact@5+1 next"},
		},
	})
}

func TestBulletContinuationLines(t *testing.T) {
	runParseCases(t, []parseCase{
		{
			name: "lazy continuation",
			src:  "- Use pnpm,\nnot npm\n- next\n",
			want: []string{"fact@1+2 Use pnpm, not npm", "fact@3+1 next"},
		},
		{
			name: "a blank line then an indented line continues",
			src:  "- first\n\n  still first\n\n- second\n",
			want: []string{"fact@1+4 first still first", "fact@5+1 second"},
		},
		{
			name: "a blank line then a margin line ends the item",
			src:  "- first\n\nparagraph\n",
			want: []string{"fact@1+2 first", "text@3+1 paragraph"},
		},
		{
			name: "headings, fences, comments and rules end the item",
			src:  "- a\n# H\n- b\n```\n```\n- c\n<!-- x -->\n- d\n***\n",
			want: []string{"fact@1+1 a", "heading@2+1 H", "fact@3+1 b", "text@4+2 ", "fact@6+1 c", "text@7+1 x", "fact@8+1 d", "text@9+1 ***"},
		},
		{
			name: "empty item",
			src:  "-\n- \n+\n",
			want: []string{"fact@1+1 ", "fact@2+1 ", "fact@3+1 "},
		},
		{
			name: "not markers",
			src:  "-x\n1234567890. ten digits\n2024-01-01 date\n",
			want: []string{"text@1+3 -x 1234567890. ten digits 2024-01-01 date"},
		},
	})
}

func TestThematicBreakIsTextNotABullet(t *testing.T) {
	runParseCases(t, []parseCase{
		{name: "dashes", src: "---\n- a\n", want: []string{"text@1+1 ---", "fact@2+1 a"}},
		{name: "spaced stars", src: "* * *\n", want: []string{"text@1+1 * * *"}},
		{name: "underscores", src: "___\n", want: []string{"text@1+1 ___"}},
		{name: "under a paragraph it is a setext underline", src: "Title\n---\n", want: []string{"text@1+2 Title ---"}},
		{name: "a lone dash under a paragraph too", src: "Title\n-\n", want: []string{"text@1+2 Title -"}},
	})
}

func TestParagraphsRunToABlankLineOrABlockStart(t *testing.T) {
	runParseCases(t, []parseCase{
		{
			name: "blank line",
			src:  "one\ntwo\n\nthree\n",
			want: []string{"text@1+3 one two", "text@4+1 three"},
		},
		{
			name: "interrupted",
			src:  "a\n# H\nb\n- c\nd\n```\n```\ne\n<!-- f -->\n",
			want: []string{"text@1+1 a", "heading@2+1 H", "text@3+1 b", "fact@4+2 c d", "text@6+2 ", "text@8+1 e", "text@9+1 f"},
		},
		{
			name: "a table is text",
			src:  "| a | b |\n|---|---|\n| 1 | 2 |\n",
			want: []string{"text@1+3 | a | b | |---|---| | 1 | 2 |"},
		},
		{
			name: "indented four columns is not a block start",
			src:  "para\n    - code\n    # code\n",
			want: []string{"text@1+3 para - code # code"},
		},
	})
}

func TestBlankLinesBelongToThePageBefore(t *testing.T) {
	pages := parse("project", []byte("\n\n# Memory\n\n\n- fact\n \t\n"))
	want := []string{"\n\n# Memory\n\n\n", "- fact\n \t\n"}
	var got []string
	for _, p := range pages {
		got = append(got, p.Src)
	}
	require.Equal(t, want, got, "Src")
	require.True(t, pages[0].Line == 1 && pages[0].Lines == 5 && pages[1].Line == 6 && pages[1].Lines == 2, "lines = %d+%d, %d+%d", pages[0].Line, pages[0].Lines, pages[1].Line, pages[1].Lines)
}

func TestSectionIsTheNearestSubheading(t *testing.T) {
	src := "- before\n# Title\n- under title\n## Build\n- b\n### Deep\n- d\n## Style\n- s\n# Other\n- o\n"
	var got []string
	for _, p := range parse("project", []byte(src)) {
		got = append(got, p.Text+"="+p.Section)
	}
	want := []string{"before=", "Title=", "under title=", "Build=Build", "b=Build", "Deep=Deep", "d=Deep", "Style=Style", "s=Style", "Other=", "o="}
	require.Equal(t, want, got, "sections")
}

func TestPointerNeedsARelativeMarkdownLink(t *testing.T) {
	tests := []struct {
		line string
		link string // "" when the bullet is a plain fact
	}{
		{"- [Build quirks](build.md) — sccache breaks -Werror", "build.md"},
		{"* [Build](topics/build.MD)", "topics/build.MD"},
		{"1. [Build](./build.md#cache) see there", "./build.md"},
		{"- [Up](../shared/notes.md)", "../shared/notes.md"},
		{"- [A [nested] title](a.md)", "a.md"},
		{"- [Titled](a.md \"About a\")", "a.md"},
		{"- [Parens](a(1).md)", "a(1).md"},
		{"- [Web](https://example.com/a.md)", ""},
		{"- [Abs](/etc/a.md)", ""},
		{"- [Anchor](#build)", ""},
		{"- [Text](notes.txt)", ""},
		{"- [Almost](a.md", ""},
		{"- [Spaced] (a.md)", ""},
		{"- see [Build](build.md)", ""},
		{"- [Bad title](a.md \"open)", ""},
	}
	for _, tt := range tests {
		p := parse("project", []byte(tt.line+"\n"))[0]
		wantKind := kindFact
		if tt.link != "" {
			wantKind = kindPointer
		}
		require.True(t, p.Kind == wantKind && p.Link == tt.link, "%q = %v %q, want %v %q", tt.line, p.Kind, p.Link, wantKind, tt.link)
	}
}

func TestRepeatedFactsGetNumberedIDs(t *testing.T) {
	pages := parse("project", []byte("- Use pnpm\n## Again\n- Use  pnpm\n* Use pnpm\n- Other\n"))
	base := pages[0].ID
	var got []string
	for _, p := range pages {
		got = append(got, p.ID)
	}
	want := []string{base, pages[1].ID, base + "-2", base + "-3", pages[4].ID}
	require.True(t, reflect.DeepEqual(got, want) && len(base) == len("P-")+10, "ids = %q, want %q", got, want)
}

// An id a forgotten twin keeps (parser.taken) is given to no entry: the
// repeats of its text take the next ones, in order.
func TestIDsAForgottenTwinKeepsAreGivenToNoEntry(t *testing.T) {
	const src = "- Use pnpm\n- Use pnpm\n- Other\n- Use pnpm\n"
	base := parse("project", []byte(src))[0].ID
	other := parse("project", []byte(src))[2].ID
	for _, tc := range []struct {
		taken []string
		want  []string
	}{
		{nil, []string{base, base + "-2", other, base + "-3"}},
		{[]string{base}, []string{base + "-2", base + "-3", other, base + "-4"}},
		{[]string{base + "-2"}, []string{base, base + "-3", other, base + "-4"}},
		{[]string{base, base + "-3"}, []string{base + "-2", base + "-4", other, base + "-5"}},
		{[]string{other}, []string{base, base + "-2", other + "-2", base + "-3"}},
		{[]string{"P-0000000000", base + "-9"}, []string{base, base + "-2", other, base + "-3"}},
	} {
		ps := parser{taken: tc.taken}
		var got []string
		for _, p := range ps.parse(nil, "project", []byte(src)) {
			got = append(got, p.ID)
		}
		require.Equal(t, tc.want, got, "taken %q", tc.taken)
	}
}

func TestIDsDependOnScopeKindAndTextOnly(t *testing.T) {
	id := func(scope, src string) string { return parse(scope, []byte(src))[0].ID }
	sum := sha1.Sum([]byte("project\x00fact\x00Use pnpm"))
	want := "P-" + hex.EncodeToString(sum[:])[:10]
	tests := []struct {
		name, scope, src string
		same             bool
	}{
		{"same text", "project", "- Use pnpm\n", true},
		{"other marker, spacing, line ending", "project", "+   Use   pnpm\r\n\n\n", true},
		{"other scope", "global", "- Use pnpm\n", false},
		{"other kind", "project", "Use pnpm\n", false},
		{"other text", "project", "- Use npm\n", false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.same, id(tt.scope, tt.src) == want, "%s: id", tt.name)
	}
}

func TestHashIsSHA1OfKindAndText(t *testing.T) {
	sum := sha1.Sum([]byte("heading\x00Build"))
	for _, scope := range []string{"global", "project"} {
		require.Equal(t, hex.EncodeToString(sum[:]), parse(scope, []byte("## Build\n"))[0].Hash, "%s: Hash", scope)
	}
}

func TestCRLFStaysInSrcButNotInText(t *testing.T) {
	src := "# Memory\r\n\r\n- Use pnpm\r\n  not npm\r\n```\r\ncode\r\n```\r\n[x](a.md)\r"
	pages := parse("project", []byte(src))
	checkPages(t, src, pages)
	want := []string{"heading@1+2 Memory", "fact@3+2 Use pnpm not npm", "text@5+3 code", "text@8+1 [x](a.md)"}
	require.Equal(t, want, pageList(pages), "pages")
	require.Equal(t, "# Memory\r\n\r\n", pages[0].Src, "heading Src")
	require.Equal(t, "- Use pnpm not npm\n", pages[1].form(formSummary, "MEMORY.md"), "Summary")
	require.Equal(t, "# Memory\n\n", pages[0].form(formSummary, "MEMORY.md"), "heading Summary")
}

func TestInvalidUTF8IsReplacedInText(t *testing.T) {
	pages := parse("project", []byte("- caf\xe9 \xff\xfe ok\n# \xc3\n"))
	require.True(t, pages[0].Text == "caf\uFFFD \uFFFD ok" && pages[1].Text == "\uFFFD", "Text = %q, %q", pages[0].Text, pages[1].Text)
}

func TestMinIsFullOnlyForHeadings(t *testing.T) {
	for kind, want := range map[kind]fidelity{kindHeading: formFull, kindFact: formPointer, kindPointer: formPointer, kindText: formPointer} {
		p := page{Kind: kind}
		require.Equal(t, want, p.minForm(), "%v.Min()", kind)
	}
}

// firstPageForm renders the first page of src at f, for MEMORY.md.
func firstPageForm(src string, f fidelity) string {
	p := parse("project", []byte(src))[0]
	return p.form(f, "MEMORY.md")
}

func TestFullFormIsTheSourceEndingInANewline(t *testing.T) {
	for src, want := range map[string]string{
		"- a\n\n":   "- a\n\n",
		"- a":       "- a\n",
		"- a\r\n":   "- a\r\n",
		"- a\n  ":   "- a\n  \n",
		"\n\n# T\n": "\n\n# T\n",
	} {
		require.Equal(t, want, firstPageForm(src, formFull), "Full of %q", src)
	}
}

func TestShortOneLinePageIsItsOwnSummary(t *testing.T) {
	max := strings.Repeat("é", summaryMax-2)
	for _, line := range []string{
		"- Use pnpm",
		"  *   spaced   out  ",
		"# Title",
		"A one-line paragraph.",
		"- [Build](build.md) — quirks",
		"<!-- one-line comment -->",
		"- " + max,
	} {
		require.Equal(t, line+"\n", firstPageForm(line+"\n", formSummary), "Summary of %q", line)
	}
}

func TestSummaryOfLongerPages(t *testing.T) {
	long := strings.Repeat("word ", 30) // 150 runes
	tests := []struct {
		name, src, want string
	}{
		{"fact joins its lines", "- Use pnpm,\n  not npm\n", "- Use pnpm, not npm\n"},
		{"nested fact", "* parent\n  - child\n", "- parent - child\n"},
		{"long heading is cut", "## " + long + "\n", "## " + strings.Repeat("word ", 22) + "word…\n"},
		{"pointer keeps its first line", "- [Build](build.md) — quirks\n  of the build\n", "- [Build](build.md) — quirks\n"},
		{"paragraph", "Some paragraph\nthat goes on.\n", "Some paragraph …\n"},
		{"long paragraph line", long + "\n", strings.Repeat("word ", 23) + "word…\n"},
		{"fence", "```go\nfunc main() {\n\tprintln(\"a long enough line\")\n}\n```\n", "[code block, 5 lines at MEMORY.md:1]\n"},
		{"comment", "<!--\nThis file is read by the agent on every turn.\n-->\n", "[comment, 3 lines at MEMORY.md:1]\n"},
		{"stub lines skip leading blanks", "\n\n```\nsome code that is long enough\n```\n", "[code block, 3 lines at MEMORY.md:3]\n"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, firstPageForm(tt.src, formSummary), "%s: Summary", tt.name)
	}
}

func TestSummaryCutsAtAWordBoundary(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"fits", "Run make first", 14, "Run make first"},
		{"last space that fits", "Run make before testing", 15, "Run make…"},
		{"space right after the kept runes", "Run make before", 9, "Run make…"},
		{"no space: hard at the limit", "Supercalifragilistic", 6, "Super…"},
		{"only a leading word too long", "Supercalifragilistic expialidocious", 6, "Super…"},
		{"a boundary too far back cuts hard", "see https://example.com/long/path", 12, "see https:/…"},
		{"a long link title cuts hard", "- [ttttttttttt](a.md)", 10, "- [tttttt…"},
		{"multibyte runes are never split", "日本語のテキスト", 4, "日本語…"},
		{"tabs count as spaces", "a\tbbbbbb", 4, "a…"},
		{"zero", "abc", 0, ""},
	}
	for _, tt := range tests {
		got := mdCut(tt.in, tt.max)
		require.True(t, got == tt.want && utf8.RuneCountInString(got) <= tt.max && utf8.ValidString(got), "%s: mdCut(%q, %d) = %q, want %q", tt.name, tt.in, tt.max, got, tt.want)
	}
	// Through a page: the fact's words fill the summary, "…" included, to
	// summaryMax runes or one less when the cut falls on a space.
	fact := "- " + strings.Repeat("ab ", 35) + "\n  " + strings.Repeat("cd ", 20) + "\n"
	want := "- " + strings.Repeat("ab ", 35) + "cd cd cd cd…\n"
	require.Equal(t, want, firstPageForm(fact, formSummary), "Summary")
}

func TestPointerFormOfEachKind(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"fact: six words and where", "- Run `make wasm` before testing the extension,\n  or pi loads a stale core\n", "- Run `make wasm` before testing the … (MEMORY.md:1)\n"},
		{"pointer: its link", "- [Build quirks](build.md#cache) — sccache breaks -Werror on every clean build\n", "- [Build quirks](build.md#cache)\n"},
		{"text: where and how long", "A paragraph that explains\nsomething at length,\nover three lines.\n", "[… 3 lines at MEMORY.md:1]\n"},
		{"fence", "```\na = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9\n```\n", "[… 3 lines at MEMORY.md:1]\n"},
		{"heading: its summary", "## Build\n\n\n", "## Build\n\n"},
		{"short fact: the summary is shorter than a stub", "- Use pnpm\n", "- Use pnpm\n"},
		{"long title: the summary is no longer", "- [" + strings.Repeat("t", 130) + "](a.md) x\n", "- [" + strings.Repeat("t", 116) + "…\n"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, firstPageForm(tt.src, formPointer), "%s: PointerForm", tt.name)
	}
	p := parse("project", []byte("# T\n- Squash merge every pull request unless it carries a database migration that other branches depend on\n"))[1]
	require.Equal(t, "- Squash merge every pull request unless … (.pi/memory/MEMORY.md:2)\n", p.form(formPointer, ".pi/memory/MEMORY.md"), "stub names the file and line")
}

func TestReducedFormsKeepOneBlankLine(t *testing.T) {
	src := "Some paragraph\nthat goes on.\n\n\n\n- Use pnpm\n \n"
	pages := parse("project", []byte(src))
	for i, want := range [][2]string{
		{"Some paragraph …\n\n", "Some paragraph …\n\n"},
		{"- Use pnpm\n\n", "- Use pnpm\n\n"},
	} {
		require.Equal(t, want, [2]string{pages[i].form(formSummary, "MEMORY.md"), pages[i].form(formPointer, "MEMORY.md")}, "page %d: Summary, PointerForm", i)
	}
	require.Equal(t, "\n", firstPageForm("\n \n", formSummary), "a page of blanks summarizes as one blank line")
}

func TestFormsNeverGrowAsFidelityDrops(t *testing.T) {
	for _, src := range []string{
		"```\n```\n",                           // a stub would be longer than the fence
		"<!--\n-->\n",                          // or than the comment
		"a\nb\n",                               // "a …" is longer than "a\nb"
		"- a\n  b\n",                           // the fact's stub is longer than its summary
		"- \xff\xff\n  \xff\n",                 // U+FFFD is longer than the byte it replaces
		"## \xff\xfe\xfd\n\n",                  // same on a heading's fast path
		"# " + strings.Repeat("x", 119) + "\n", // over summaryMax with no space
		"- [t](a.md)\n  b\n",
		"\n\n\n- x\n",
	} {
		checkPages(t, src, parse("project", []byte(src)))
	}
}
