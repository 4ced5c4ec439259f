package notes

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// A clean memory file is scanned for secrets where it lies, not copied: under
// TinyGo a copy of a large index on every read is a block that may never be
// freed (docs/decisions/003-tinygo-heap.md). A file with secrets is redacted
// into the array kept from the last redaction.
func TestViewCopiesAFileOnlyToRedactIt(t *testing.T) {
	clean := []byte(strings.Repeat("- Run make lint before pushing; it checks the style of every file\n", 5000))
	var ps parser
	view, kept, pages := ps.view(nil, "project", clean, nil)
	if &view[0] != &clean[0] || kept != nil {
		t.Fatal("a clean file must be its own view")
	}
	if n := testing.AllocsPerRun(5, func() { ps.entrySecrets(pages) }); n != 0 {
		t.Fatalf("reading a clean file's pages for secrets allocated %v times", n)
	}
	secret := append(append([]byte(nil), clean...), "- db password = hunter22x\n"...)
	view, kept, pages = ps.view(pages, "project", secret, nil)
	if !strings.HasSuffix(string(view), "- db password = [REDACTED:secret]\n") || &view[0] != &kept[0] {
		t.Fatalf("redacted view ends %q", view[len(view)-40:])
	}
	again, kept2, _ := ps.view(pages, "project", secret, kept)
	if &again[0] != &kept[0] || &kept2[0] != &kept[0] || string(again) != string(view) {
		t.Fatal("a second redaction must reuse the kept array")
	}
}

// A name the host could not list as a line (hostio.Unlisted) is no topic to
// read but one to name; folders, indexes and malformed entries are neither.
func TestTopicsInSetsApartNamesThatHoldANewline(t *testing.T) {
	names, unlisted := topicsIn([]string{`/"a\nb.md"`, `/"c\nd"/`, `/"e\nf.txt"`, `/"broken.md`, "MEMORY.md", "MEMORY.local.md", "deploy.md", "x/"})
	require.Equal(t, []string{"deploy.md"}, names)
	require.Equal(t, []string{"a\nb.md"}, unlisted)
}
