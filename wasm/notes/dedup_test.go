package notes

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// testPage builds a page by hand, so these tests do not depend on parse.
func testPage(k kind, line int, text, section string) page {
	return page{Kind: k, Line: line, Lines: 1, Text: text, Section: section}
}

func TestDuplicateFindsTheFirstFactOrPointerSayingTheSame(t *testing.T) {
	pages := []page{
		testPage(kindHeading, 1, "Build", ""),
		testPage(kindFact, 3, "Run the tests with -race before pushing", "Build"),
		testPage(kindPointer, 4, "[Build quirks](build.md) — sccache breaks -Werror", "Build"),
		testPage(kindText, 6, "Ship on Tuesdays after the freeze", "Build"),
		testPage(kindFact, 8, "Use PostgreSQL for the primary database", "Build"),
		testPage(kindFact, 9, "Use PostgreSQL for the primary database.", "Build"),
		testPage(kindFact, 10, "kiwi fact number 1", "Build"),
	}
	tests := []struct {
		name, text string
		want       int
	}{
		{"exact text", "Run the tests with -race before pushing", 1},
		{"case and punctuation only", "run the tests with race, before pushing!", 1},
		{"reordered words", "Before pushing, run the tests with -race", 1},
		{"paraphrase similarity calls a duplicate", "Use Postgres as the primary DB", 4},
		{"a pointer compares its text", "[Build quirks](build.md) — sccache breaks -Werror", 2},
		{"the first of two duplicates", "use postgresql for the primary database", 4},
		{"an unrelated fact", "Deploy on Fridays only with approval", -1},
		{"a heading with the same text is not a duplicate", "Build", -1},
		{"a text page with the same text is not a duplicate", "Ship on Tuesdays after the freeze", -1},
		{"a text without words duplicates nothing", " — ", -1},
		{"one number changed is another fact", "kiwi fact number 4", -1},
		{"the same number is the same fact", "Kiwi fact, number 1", 6},
	}
	// Two words swapped say another thing (h-v86 B1): the note is written.
	swaps := [][2]string{
		{"Run docker with -p 8080:3000", "Run docker with -p 3000:8080"},
		{"Build with -O2 and test with -O0", "Build with -O0 and test with -O2"},
		{"Use v1 API for reads and v2 API for writes", "Use v2 API for reads and v1 API for writes"},
		{"The primary is db1 and the replica is db2", "The primary is db2 and the replica is db1"},
		{"Port ٨٠٨٠ maps to ٣٠٠٠", "Port ٣٠٠٠ maps to ٨٠٨٠"},
		{"Staging deploys from main, production from release", "Staging deploys from release, production from main"},
	}
	for _, sw := range swaps {
		require.Equal(t, -1, duplicate(sw[1], []page{testPage(kindFact, 3, sw[0], "Notes")}), "Duplicate(%q) beside %q", sw[1], sw[0])
		require.Equal(t, 0, duplicate(sw[0], []page{testPage(kindFact, 3, sw[0], "Notes")}), "Duplicate(%q) beside itself", sw[0])
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, duplicate(tt.text, pages), "Duplicate(%q)", tt.text)
		})
	}
}

func TestDuplicateSkipsHeadingsAndTextEvenWhenIdentical(t *testing.T) {
	pages := []page{
		testPage(kindHeading, 1, "Run the tests with -race", ""),
		testPage(kindText, 2, "Run the tests with -race", ""),
	}
	require.Equal(t, -1, duplicate("Run the tests with -race", pages), "Duplicate")
	require.Equal(t, -1, duplicate("anything", nil), "Duplicate over no pages")
}

// A restore refuses only the entry said again in its section, never a
// near-duplicate or the same text in another section that stood beside it:
// forgetting "Fact 19" beside "Fact 1" and restoring it was refused, and so
// was the second of two bullets of one text in two sections.
func TestRestatedIsTheSameTextInTheSameSection(t *testing.T) {
	pages := []page{
		testPage(kindHeading, 1, "Build", ""),
		testPage(kindFact, 3, "Fact number 1 about subject1 kiwi", "Build"),
		testPage(kindPointer, 4, "[Build quirks](build.md) — sccache breaks -Werror", "Build"),
		testPage(kindText, 6, "Ship on Tuesdays after the freeze", "Build"),
	}
	tests := []struct {
		name, text, section string
		want                int
	}{
		{"exact text", "Fact number 1 about subject1 kiwi", "Build", 1},
		{"case and punctuation only", "fact number 1, about subject1 kiwi!", "Build", 1},
		{"a near-duplicate is another entry", "Fact number 19 about subject19 kiwi", "Build", -1},
		{"a paraphrase is another entry", "Fact no. 1 on subject1 kiwi", "Build", -1},
		{"the same text in another section is another entry", "Fact number 1 about subject1 kiwi", "Deploy", -1},
		{"a pointer", "[Build quirks](build.md) — sccache breaks -Werror", "Build", 2},
		{"a paragraph", "Ship on Tuesdays after the freeze", "Build", 3},
		{"a heading is no entry", "Build", "", -1},
		{"a text without words", " — ", "Build", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, restated(tt.text, tt.section, pages, 0), "restated(%q, %q)", tt.text, tt.section)
		})
	}
}
