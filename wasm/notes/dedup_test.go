package notes

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// page builds a Page by hand, so these tests do not depend on Parse.
func page(kind Kind, line int, text, section string) Page {
	return Page{Kind: kind, Line: line, Lines: 1, Text: text, Section: section}
}

func TestDuplicateFindsTheFirstFactOrPointerSayingTheSame(t *testing.T) {
	pages := []Page{
		page(Heading, 1, "Build", ""),
		page(Fact, 3, "Run the tests with -race before pushing", "Build"),
		page(Pointer, 4, "[Build quirks](build.md) — sccache breaks -Werror", "Build"),
		page(Text, 6, "Ship on Tuesdays after the freeze", "Build"),
		page(Fact, 8, "Use PostgreSQL for the primary database", "Build"),
		page(Fact, 9, "Use PostgreSQL for the primary database.", "Build"),
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, Duplicate(tt.text, pages), "Duplicate(%q)", tt.text)
		})
	}
}

func TestDuplicateSkipsHeadingsAndTextEvenWhenIdentical(t *testing.T) {
	pages := []Page{
		page(Heading, 1, "Run the tests with -race", ""),
		page(Text, 2, "Run the tests with -race", ""),
	}
	require.Equal(t, -1, Duplicate("Run the tests with -race", pages), "Duplicate")
	require.Equal(t, -1, Duplicate("anything", nil), "Duplicate over no pages")
}
