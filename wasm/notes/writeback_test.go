package notes

import (
	mk "github.com/pi-memory/pi-memory/wasm/marker"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/internal/require"
)

// writebackMemory is a project MEMORY.md as a person keeps it.
const writebackMemory = "# Project memory\n" +
	"\n" +
	"## Build\n" +
	"- Run `make wasm` before testing the extension\n" + // line 4
	"- [Build quirks](build.md) — sccache breaks -Werror\n" +
	"\n" +
	"## Style\n" +
	"- Use tabs in Go files\n" + // line 8
	"\n"

func strictRules() rules {
	return rules{Strict: true, MaxLines: 200, MaxBytes: 8192, File: ".pi/memory/MEMORY.md"}
}

func laxRules() rules {
	r := strictRules()
	r.Strict = false
	return r
}

func checkAgainst(text, section string, src string, r rules) outcome {
	return check(text, section, []byte(src), parse("project", []byte(src)), r)
}

func TestCheckCommitsAFactAsTheLastBulletOfItsSection(t *testing.T) {
	for _, r := range []rules{strictRules(), laxRules()} {
		o := checkAgainst("  Run make test before pushing  ", "Build", writebackMemory, r)
		want := outcome{
			Commit:    true,
			Text:      "Run make test before pushing",
			Section:   "Build",
			Duplicate: -1,
			Out:       []byte(strings.Replace(writebackMemory, "-Werror\n", "-Werror\n- Run make test before pushing\n", 1)),
			Line:      6,
		}
		require.Equal(t, want, o, "strict %v: Check", r.Strict)
	}
}

func TestCheckPutsAFactWithoutSectionUnderNotes(t *testing.T) {
	for _, section := range []string{"", "   "} {
		o := checkAgainst("Use pnpm", section, writebackMemory, strictRules())
		want := writebackMemory + "## Notes\n\n- Use pnpm\n"
		require.True(t, o.Commit && string(o.Out) == want && o.Line == 12, "section %q: %+v\nwant %q line 12", section, o, want)
	}
}

// A file saved as Latin-1 takes an ASCII fact (its bytes stay as they
// are), not one that would add UTF-8 to it: two encodings in one file.
func TestCheckKeepsAFileThatIsNotUTF8InOneEncoding(t *testing.T) {
	latin1 := "## Notes\n\n- d\xe9ploiement le vendredi\n"
	o := checkAgainst("Use pnpm", "", latin1, strictRules())
	require.True(t, o.Commit && string(o.Out) == latin1+"- Use pnpm\n", "%+v", o)
	o = checkAgainst("Pas de déploiement le lundi", "", latin1, strictRules())
	require.False(t, o.Commit)
	require.Equal(t, "invalid", o.Reason)
	require.Contains(t, o.Detail, "is not UTF-8 text (Latin-1, or another encoding)")
}

func TestCheckNeverWritesADuplicate(t *testing.T) {
	pages := parse("project", []byte(writebackMemory))
	tests := []struct {
		name, text string
		want       int // index in pages
	}{
		{"the same text", "Run `make wasm` before testing the extension", 2},
		{"case and punctuation", "run `make wasm` before testing the extension!", 2},
		{"a near duplicate", "Run make wasm before you test the extension", 2},
		{"a pointer's text", "[Build quirks](build.md) — sccache breaks -Werror", 3},
		{"in another section than named", "Use tabs in Go files", 5},
		{"the same once its lines are joined", "Use tabs\nin Go files", 5},
	}
	for _, tt := range tests {
		for _, r := range []rules{strictRules(), laxRules()} {
			if r.Strict && strings.Contains(tt.text, "\n") {
				continue // refused as multiline first; still never written
			}
			o := checkAgainst(tt.text, "Build", writebackMemory, r)
			require.True(t, !o.Commit && o.Out == nil && o.Reason == "duplicate" && o.Duplicate == tt.want, "%s (strict %v): %+v, want a duplicate of page %d", tt.name, r.Strict, o, tt.want)
			p := pages[tt.want]
			require.Contains(t, o.Detail, ".pi/memory/MEMORY.md:"+strconv.Itoa(p.Line)+" ("+p.ID+")", "%s: Detail does not name the duplicate", tt.name)
		}
	}
	// A heading with the same words is not a bullet saying it.
	o := checkAgainst("Build", "Style", writebackMemory, strictRules())
	require.True(t, o.Commit && o.Duplicate == -1, "a fact repeating a heading: %+v", o)
}

func TestCheckRejectsSecretsWhenStrictAndRedactsThemWhenNot(t *testing.T) {
	tests := []struct {
		name, text, kinds, redacted string
	}{
		{"a labelled token", "Deploy with token=abc123def456ghi", "secret", "Deploy with token=[REDACTED:secret]"},
		{"two kinds, listed sorted", "CI uses AKIAIOSFODNN7EXAMPLE and password: hunter2hunter2", "aws-key, secret",
			"CI uses [REDACTED:aws-key] and password: [REDACTED:secret]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := checkAgainst(tt.text, "Build", writebackMemory, strictRules())
			require.True(t, !o.Commit && o.Out == nil && o.Reason == "secret" && strings.Contains(o.Detail, "("+tt.kinds+")"), "strict: %+v, want a secret rejection naming %q", o, tt.kinds)
			o = checkAgainst(tt.text, "Build", writebackMemory, laxRules())
			require.True(t, o.Commit && o.Text == tt.redacted && o.Detail == "redacted "+tt.kinds, "lax: %+v, want %q redacted", o, tt.redacted)
			require.Contains(t, string(o.Out), "- "+tt.redacted+"\n", "lax: the file does not hold the redacted fact:\n%s", o.Out)
			for _, secret := range []string{"abc123def456ghi", "AKIAIOSFODNN7EXAMPLE", "hunter2hunter2"} {
				require.NotContains(t, string(o.Out), secret, "lax: a secret reached the file")
			}
		})
	}
}

func TestCheckRejectsOrCutsAFactOver500Characters(t *testing.T) {
	words := strings.TrimSpace(strings.Repeat("retry flaky integration suites once ", 20)) // 719 runes
	tests := []struct {
		name, text string
		long       bool
	}{
		{"exactly 500 ASCII characters", strings.Repeat("a", 500), false},
		{"exactly 500 two-byte characters", strings.Repeat("é", 500), false},
		{"501 characters", strings.Repeat("a", 501), true},
		{"501 two-byte characters", strings.Repeat("é", 501), true},
		{"many words", words, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			strict := checkAgainst(tt.text, "Build", writebackMemory, strictRules())
			lax := checkAgainst(tt.text, "Build", writebackMemory, laxRules())
			if !tt.long {
				require.True(t, strict.Commit && strict.Text == tt.text && lax.Commit && lax.Text == tt.text, "a fact of %d characters was not kept as is: %+v / %+v", utf8.RuneCountInString(tt.text), strict, lax)
				return
			}
			n := strconv.Itoa(utf8.RuneCountInString(tt.text))
			require.True(t, !strict.Commit && strict.Reason == "too_long" && strings.Contains(strict.Detail, "it is "+n+" characters, over 500"), "strict: %+v, want too_long saying %s characters", strict, n)
			require.True(t, lax.Commit && lax.Detail == "cut to 500 characters", "lax: %+v, want a cut", lax)
			got := lax.Text
			c := utf8.RuneCountInString(got)
			require.True(t, c <= maxFactRunes && utf8.ValidString(got) && strings.HasSuffix(got, "…"), "lax: cut to %d runes %q", c, got)
			head := strings.TrimSuffix(got, "…")
			require.True(t, strings.HasPrefix(tt.text, head) && !strings.HasSuffix(head, " "), "lax: %q is not a trimmed prefix of the fact", got)
		})
	}
	// Text with spaces is cut after a whole word.
	o := checkAgainst(words, "Build", writebackMemory, laxRules())
	head := strings.TrimSuffix(o.Text, "…")
	require.Equal(t, byte(' '), words[len(head)], "cut mid-word: %q", o.Text[len(o.Text)-20:])
}

func TestCheckRejectsOrJoinsAFactOfSeveralLines(t *testing.T) {
	tests := []struct {
		name, text, joined string
	}{
		{"two lines", "Pin the Node version\nin .nvmrc", "Pin the Node version in .nvmrc"},
		{"CRLF and indentation", "Pin the Node version\r\n    in .nvmrc", "Pin the Node version in .nvmrc"},
		{"a lone carriage return", "Pin the Node version\rin .nvmrc", "Pin the Node version in .nvmrc"},
		{"blank lines between", "Pin the Node version\n\n\nin .nvmrc", "Pin the Node version in .nvmrc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := checkAgainst(tt.text, "Build", writebackMemory, strictRules())
			require.True(t, !o.Commit && o.Reason == "multiline" && o.Out == nil, "strict: %+v, want a multiline rejection", o)
			o = checkAgainst(tt.text, "Build", writebackMemory, laxRules())
			require.True(t, o.Commit && o.Text == tt.joined && o.Detail == "joined its lines", "lax: %+v, want %q joined", o, tt.joined)
			require.Equal(t, strings.Count(writebackMemory, "\n")+1, strings.Count(string(o.Out), "\n"), "lax: the file gained more than one line:\n%s", o.Out)
		})
	}
	// Newlines around the text are not lines of it.
	o := checkAgainst("\n  Pin the Node version \n\n", "Build", writebackMemory, strictRules())
	require.True(t, o.Commit && o.Text == "Pin the Node version", "surrounding newlines: %+v", o)
}

func TestCheckListsEveryRepairItMade(t *testing.T) {
	text := "Deploy with token=abc123def456ghi\n" + strings.Repeat("then wait ", 60)
	o := checkAgainst(text, "Build", writebackMemory, laxRules())
	want := "joined its lines; redacted secret; cut to 500 characters"
	require.True(t, o.Commit && o.Detail == want, "Detail %q, want %q (%+v)", o.Detail, want, o)
}

func TestCheckRejectsAnIndexOverItsCapsWhenStrictAndWarnsWhenNot(t *testing.T) {
	fact := "Run make test before pushing"
	out := checkAgainst(fact, "Build", writebackMemory, strictRules()).Out
	lines, size := strings.Count(string(out), "\n"), len(out) // 10 lines, 193 bytes
	tests := []struct {
		name               string
		maxLines, maxBytes int
		over               string // "" when the write fits
	}{
		{"exactly at both caps", lines, size, ""},
		{"one line over", lines - 1, size, "10 lines, over maxInjectLines 9"},
		{"one byte over", lines, size - 1, "193 bytes, over maxInjectBytes 192"},
		{"both over", lines - 1, size - 1, "10 lines, over maxInjectLines 9, and 193 bytes, over maxInjectBytes 192"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := strictRules()
			r.MaxLines, r.MaxBytes = tt.maxLines, tt.maxBytes
			strict := checkAgainst(fact, "Build", writebackMemory, r)
			r.Strict = false
			lax := checkAgainst(fact, "Build", writebackMemory, r)
			if tt.over == "" {
				require.True(t, strict.Commit && strict.Warning == "" && lax.Commit && lax.Warning == "", "at the caps: %+v / %+v", strict, lax)
				return
			}
			want := ".pi/memory/MEMORY.md would be " + tt.over + ","
			require.True(t, !strict.Commit && strict.Reason == "index_cap" && strict.Out == nil && strings.HasPrefix(strict.Detail, want), "strict: %+v, want index_cap starting %q", strict, want)
			require.True(t, lax.Commit && string(lax.Out) == string(out) && lax.Warning == strict.Detail, "lax: %+v, want the write with the same words as a warning", lax)
		})
	}
}

func TestOverCapsNamesOnlyTheCapsPassed(t *testing.T) {
	tests := []struct {
		lines, bytes int
		want         string
	}{
		{200, 8192, ""},
		{0, 0, ""},
		{201, 8192, "201 lines, over maxInjectLines 200"},
		{200, 8193, "8193 bytes, over maxInjectBytes 8192"},
		{250, 9000, "250 lines, over maxInjectLines 200, and 9000 bytes, over maxInjectBytes 8192"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, overCaps(tt.lines, tt.bytes, 200, 8192), "OverCaps(%d, %d)", tt.lines, tt.bytes)
	}
}

func TestCheckRefusesEmptyTextAndBadSections(t *testing.T) {
	tests := []struct {
		name, text, section string
	}{
		{"empty", "", "Build"},
		{"blank", " \t\n ", "Build"},
		{"invalid UTF-8", "caf\xe9", "Build"},
		{"a section of two lines", "Use pnpm", "Build\nStyle"},
		{"a section with a carriage return", "Use pnpm", "Build\rStyle"},
		{"a section of invalid UTF-8", "Use pnpm", "Bu\xffild"},
	}
	for _, tt := range tests {
		for _, r := range []rules{strictRules(), laxRules()} {
			o := checkAgainst(tt.text, tt.section, writebackMemory, r)
			require.True(t, !o.Commit && o.Reason == "invalid" && o.Detail != "" && o.Out == nil && o.Duplicate == -1, "%s (strict %v): %+v, want invalid", tt.name, r.Strict, o)
		}
	}
}

// ---- insert ---------------------------------------------------------------------

func TestInsertAppendsAtTheEndOfItsSection(t *testing.T) {
	tests := []struct {
		name, src, section string
		want               string
		line               int
	}{
		{"the documented example", "## Build\n- make\n\n## Style\n- tabs\n", "Build",
			"## Build\n- make\n- make test\n\n## Style\n- tabs\n", 3},
		{"before the section's trailing blank lines", writebackMemory, "Build",
			strings.Replace(writebackMemory, "-Werror\n", "-Werror\n- make test\n", 1), 6},
		{"the section name ignores case", writebackMemory, "bUILD",
			strings.Replace(writebackMemory, "-Werror\n", "-Werror\n- make test\n", 1), 6},
		{"the last section before the file's trailing blank line", writebackMemory, "Style",
			strings.Replace(writebackMemory, "Go files\n", "Go files\n- make test\n", 1), 9},
		{"a level-1 heading ends a section", "## Build\n- make\n# Archive\n- old\n", "Build",
			"## Build\n- make\n- make test\n# Archive\n- old\n", 3},
		{"deeper headings belong to the section", "## Build\n- make\n### Cache\n- sccache\n\n## Style\n", "Build",
			"## Build\n- make\n### Cache\n- sccache\n- make test\n\n## Style\n", 5},
		{"the first of two same-named sections", "## Build\n- a\n## Build\n- b\n", "Build",
			"## Build\n- a\n- make test\n## Build\n- b\n", 3},
		{"a heading with closing hashes", "## Build ##\n- make\n", "Build",
			"## Build ##\n- make\n- make test\n", 3},
		{"a heading indented up to three spaces", "   ## Build\n- make\n", "Build",
			"   ## Build\n- make\n- make test\n", 3},
		{"a fence's end stays above the bullet", "## Build\n```sh\nmake\n```\n\n## Style\n", "Build",
			"## Build\n```sh\nmake\n```\n- make test\n\n## Style\n", 5},
		{"headings inside a fence do not end the section", "## Build\n```md\n## Style\n# Title\n```\n- make\n\n## Style\n", "Build",
			"## Build\n```md\n## Style\n# Title\n```\n- make\n- make test\n\n## Style\n", 7},
		{"a file without a final newline", "## Build\n- make", "Build",
			"## Build\n- make\n- make test\n", 3},
		{"an empty section gets a blank line under its heading", "## Build\n", "Build",
			"## Build\n\n- make test\n", 3},
		{"an empty section without a final newline", "## Build", "Build",
			"## Build\n\n- make test\n", 3},
		{"an empty section followed by blank lines", "## Build\n\n\n## Style\n", "Build",
			"## Build\n\n- make test\n\n\n## Style\n", 3},
		{"a heading straight above the next one", "## Build\n## Style\n", "Build",
			"## Build\n\n- make test\n## Style\n", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, line := insert([]byte(tt.src), tt.section, "make test")
			require.True(t, string(out) == tt.want && line == tt.line, "Insert(%q, %q)\n got %q line %d\nwant %q line %d", tt.src, tt.section, out, line, tt.want, tt.line)
			checkInsert(t, tt.src, tt.section, "make test", out, line)
		})
	}
}

func TestInsertCreatesAMissingSectionAtTheEnd(t *testing.T) {
	tests := []struct {
		name, src, want string
		line            int
	}{
		{"an empty file", "", "## Notes\n\n- make test\n", 3},
		{"a file of blank lines", "\n\n", "\n\n## Notes\n\n- make test\n", 5},
		{"after a final newline, one blank line", "## Build\n- make\n", "## Build\n- make\n\n## Notes\n\n- make test\n", 6},
		{"after a blank line, no second one", "## Build\n- make\n\n", "## Build\n- make\n\n## Notes\n\n- make test\n", 6},
		{"without a final newline", "## Build\n- make", "## Build\n- make\n\n## Notes\n\n- make test\n", 6},
		{"a level-3 heading is not the section", "### Notes\n- a\n", "### Notes\n- a\n\n## Notes\n\n- make test\n", 6},
		{"a level-1 heading is not the section", "# Notes\n", "# Notes\n\n## Notes\n\n- make test\n", 5},
		{"a longer name is not the section", "## Notes and more\n", "## Notes and more\n\n## Notes\n\n- make test\n", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, line := insert([]byte(tt.src), "Notes", "make test")
			require.True(t, string(out) == tt.want && line == tt.line, "Insert(%q)\n got %q line %d\nwant %q line %d", tt.src, out, line, tt.want, tt.line)
			checkInsert(t, tt.src, "Notes", "make test", out, line)
		})
	}
}

// Regression: the section was looked for on every line, fenced code
// included, so a "## Notes" in an example snippet received the bullet
// inside the fence, where it is code, not memory.
func TestInsertIgnoresASectionHeadingInsideFencedCode(t *testing.T) {
	src := "## Build\n```md\n## Notes\n- example\n```\n"
	out, line := insert([]byte(src), "Notes", "make test")
	want := src + "\n## Notes\n\n- make test\n"
	require.True(t, string(out) == want && line == 9, "Insert\n got %q line %d\nwant %q line 9", out, line, want)
	checkInsert(t, src, "Notes", "make test", out, line)
	// A real section after the fence is found.
	src = "```\n## Notes\n```\n\n## Notes\n- a\n"
	out, line = insert([]byte(src), "Notes", "make test")
	want = src + "- make test\n"
	require.True(t, string(out) == want && line == 7, "Insert\n got %q line %d\nwant %q line 7", out, line, want)
}

// insert reads fences as the parser does: only a closing fence of the same
// character and at least the opener's length closes one, and a line like
// "```x```" is inline code, not a fence.
func TestInsertReadsFencesAsTheParserDoes(t *testing.T) {
	tests := []struct {
		name, src, want string
		line            int
	}{
		{"a longer fence holds a shorter one",
			"````md\n```\n## Notes\n```\n````\n",
			"````md\n```\n## Notes\n```\n````\n\n## Notes\n\n- make test\n", 9},
		{"a tilde fence is not closed by backticks",
			"~~~\n```\n## Notes\n~~~\n## Notes\n- a\n",
			"~~~\n```\n## Notes\n~~~\n## Notes\n- a\n- make test\n", 7},
		{"inline code on its own line opens no fence",
			"```x```\n## Notes\n- a\n",
			"```x```\n## Notes\n- a\n- make test\n", 4},
	}
	for _, tt := range tests {
		out, line := insert([]byte(tt.src), "Notes", "make test")
		require.True(t, string(out) == tt.want && line == tt.line, "%s:\n got %q line %d\nwant %q line %d", tt.name, out, line, tt.want, tt.line)
		checkInsert(t, tt.src, "Notes", "make test", out, line)
	}
}

// A file that ends inside an open fence or comment would swallow the new
// bullet: the flush refuses, strict or not, and says what to fix.
func TestCheckRefusesABulletThatWouldNotReadAsAFact(t *testing.T) {
	for _, src := range []string{
		"## Notes\n- a\n\n```sh\nmake\n",
		"## Notes\n- a\n<!-- draft\n",
	} {
		for _, r := range []rules{strictRules(), laxRules()} {
			o := checkAgainst("Run make test", "Other", src, r)
			require.True(t, !o.Commit && o.Reason == "invalid" && strings.Contains(o.Detail, "open code fence or HTML comment"), "%q (strict %v): %+v, want invalid", src, r.Strict, o)
		}
	}
}

// Regression: a trailing "#" was stripped from every heading, so "## C#"
// never matched the section "C#" and each remember added another "## C#".
func TestInsertFindsASectionWhoseNameEndsInAHash(t *testing.T) {
	src := []byte("## C#\n- Use nullable reference types\n")
	out, line := insert(src, "C#", "Prefer records for DTOs")
	want := "## C#\n- Use nullable reference types\n- Prefer records for DTOs\n"
	require.True(t, string(out) == want && line == 3, "Insert\n got %q line %d\nwant %q line 3", out, line, want)
	// Inserting twice into a new section makes one section, not two.
	out, _ = insert(nil, "F#", "a")
	out, _ = insert(out, "F#", "b")
	require.Equal(t, "## F#\n\n- a\n- b\n", string(out), "two inserts into a new section")
}

func TestInsertKeepsCRLFLinesAsTheyAre(t *testing.T) {
	src := "## Build\r\n- make\r\n\r\n## Style\r\n- tabs\r\n"
	out, line := insert([]byte(src), "Build", "make test")
	require.True(t, line == 3 && strings.HasPrefix(string(out), "## Build\r\n- make\r\n- make test") && strings.HasSuffix(string(out), "\n\r\n## Style\r\n- tabs\r\n"), "Insert = %q line %d", out, line)
	checkInsert(t, src, "Build", "make test", out, line)
}

// checkInsert asserts what holds for every insert: the new bullet is on the
// returned line, it parses as a fact of its own whose nearest level-1 or -2
// heading is the "## section", and every other byte of the file is kept
// (only a newline the file lacked at its end, a blank line under an empty
// heading, or the new section's heading and blank lines are added).
func checkInsert(t *testing.T, src, section, text string, out []byte, line int) {
	t.Helper()
	// insert keeps a CRLF file's line ends.
	nl := "\n"
	if strings.Contains(src, "\r\n") {
		nl = "\r\n"
	}
	lines := strings.SplitAfter(string(out), "\n")
	require.True(t, line >= 1 && line <= len(lines) && lines[line-1] == "- "+text+nl, "line %d of %q is not the bullet", line, out)
	rest := strings.Join(lines[:line-1], "") + strings.Join(lines[line:], "")
	switch {
	case rest == src:
	case strings.HasSuffix(rest, "## "+section+nl+nl) && strings.HasPrefix(rest, src) && line == strings.Count(string(out), "\n"):
		// A new section at the end: at most two newlines before its heading.
		gap := strings.TrimSuffix(rest[len(src):], "## "+section+nl+nl)
		require.True(t, gap == "" || gap == nl || gap == nl+nl, "new section after %q in %q", gap, out)
	default:
		// At most two newlines added: one ending an unterminated last
		// line, one as a blank line under an empty section's heading.
		added, j := 0, 0
		for i := 0; i < len(rest); i++ {
			if j < len(src) && rest[i] == src[j] {
				j++
				continue
			}
			if rest[i] != '\n' && rest[i] != '\r' {
				added = 99
			}
			added++
		}
		require.True(t, j == len(src) && added <= 2*len(nl), "Insert(%q) changed other bytes: %q", src, out)
	}
	pages := parse("project", out)
	var under *page
	for i := range pages {
		p := &pages[i]
		if p.Line == line {
			require.True(t, p.Kind == kindFact && p.Text == text, "the bullet at line %d parses as %s %q in %q", line, p.Kind, p.Text, out)
			require.True(t, under != nil && under.Level == 2 && strings.EqualFold(under.Text, section), "the bullet at line %d is under %+v, want ## %s, in %q", line, under, section, out)
			return
		}
		if p.Kind == kindHeading && p.Level <= 2 {
			under = p
		}
	}
	t.Fatalf("no page starts at line %d of %q", line, out)
}

func TestInsertKeepsEveryOtherByteOfRandomFiles(t *testing.T) {
	rnd := rand.New(rand.NewSource(11))
	for i := 0; i < 2000; i++ {
		src := genMarkdown(rnd)
		// A section the file has, when it has one, else a new one.
		section := "Notes"
		var sections []string
		for _, p := range parse("project", []byte(src)) {
			if p.Kind == kindHeading && p.Level == 2 && p.Text != "" {
				sections = append(sections, p.Text)
			}
		}
		if len(sections) > 0 && rnd.Intn(4) > 0 {
			section = sections[rnd.Intn(len(sections))]
		}
		out, line := insert([]byte(src), section, "remembered fact")
		checkInsert(t, src, section, "remembered fact", out, line)
	}
}

// A fact that could never be written is refused when it is remembered, not
// later at a flush: /memory remember runs checkFact at once.
func TestCheckFactRefusesWhatNoFileCouldTake(t *testing.T) {
	tests := []struct {
		name, text, section string
		strict              bool
		reason              string
	}{
		{"empty", "", "Notes", true, "invalid"},
		{"only spaces", "   ", "Notes", false, "invalid"},
		{"invalid UTF-8", "a\xffb", "Notes", false, "invalid"},
		{"newline in the section", "Run it", "Build\nOps", false, "invalid"},
		{"a section that is a paragraph", "Run it", strings.Repeat("s", maxSectionRunes+1), false, "invalid"},
		{"newline in the fact, strict", "one\ntwo", "Notes", true, "multiline"},
		{"a secret in the fact, strict", "deploy with token=abc123def456", "Notes", true, "secret"},
		{"a secret in the section, strict", "Deploy", "Sec ghp_abcdefghijklmnopqrstuvwxyz0123456789AB", true, "secret"},
		{"100k characters, strict", strings.Repeat("x", 100_000), "Notes", true, "too_long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if o := checkFact(tt.text, tt.section, tt.strict); o.Reason != tt.reason {
				t.Errorf("CheckFact(%.40q, %.40q, %v) = %q (%s), want %q", tt.text, tt.section, tt.strict, o.Reason, o.Detail, tt.reason)
			}
		})
	}
}

// Not strict, what Check refuses is removed, U+FFFD too (a lone surrogate
// arrives as one): the answer said it was removed while the file kept it.
func TestCheckFactRemovesWhatItSaysItRemovedWhenNotStrict(t *testing.T) {
	o := checkFact("lone \uFFFD surrogate \x1b[31mred", "low \uFFFD", false)
	require.Equal(t, "", o.Reason, o.Detail)
	require.Equal(t, "lone  surrogate red", o.Text)
	require.Equal(t, "low", o.Section)
	require.Equal(t, "", mk.Check(o.Text+o.Section))
}

func TestCheckFactRepairsASectionNameHoldingASecretWhenNotStrict(t *testing.T) {
	o := checkFact("Deploy nightly", "Sec ghp_abcdefghijklmnopqrstuvwxyz0123456789AB", false)
	if o.Reason != "" || strings.Contains(o.Section, "ghp_") || !strings.Contains(o.Detail, "section name") {
		t.Errorf("CheckFact = %+v", o)
	}
}

// A MEMORY.md saved with a byte-order mark: its first heading is a heading,
// a fact remembered under it joins that section (not a second "## Build"),
// and the file keeps its mark.
func TestAByteOrderMarkIsReadThroughAndKept(t *testing.T) {
	src := "\xEF\xBB\xBF## Build\n\n- Run make first\n"
	pages := parse("project", []byte(src))
	if len(pages) == 0 || pages[0].Kind != kindHeading || pages[0].Text != "Build" {
		t.Fatalf("first page: %+v", pages)
	}
	var all string
	for _, p := range pages {
		all += p.Src
	}
	if all != src {
		t.Fatalf("pages give back %q, want %q", all, src)
	}
	o := check("Lint before pushing", "Build", []byte(src), pages, strictRules())
	want := "\xEF\xBB\xBF## Build\n\n- Run make first\n- Lint before pushing\n"
	if !o.Commit || string(o.Out) != want {
		t.Fatalf("Check = %+v, out %q", o, o.Out)
	}
}
