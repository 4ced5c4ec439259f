package notes

import (
	"strings"
	"testing"
)

// A clean memory file is scanned for secrets where it lies, not copied: under
// TinyGo a copy of a large index on every read is a block that may never be
// freed (docs/decisions/003-tinygo-heap.md). A file with secrets is redacted
// into the array kept from the last redaction.
func TestRedactedViewCopiesAFileOnlyToRedactIt(t *testing.T) {
	clean := []byte(strings.Repeat("- Run make lint before pushing; it checks the style of every file\n", 5000))
	if n := testing.AllocsPerRun(5, func() { redactedView(clean, nil) }); n != 0 {
		t.Fatalf("a clean file was copied: %v allocations", n)
	}
	if view, kept := redactedView(clean, nil); &view[0] != &clean[0] || kept != nil {
		t.Fatal("a clean file must be its own view")
	}
	secret := append(append([]byte(nil), clean...), "- db password = hunter22x\n"...)
	view, kept := redactedView(secret, nil)
	if !strings.HasSuffix(string(view), "- db password = [REDACTED:secret]\n") || &view[0] != &kept[0] {
		t.Fatalf("redacted view ends %q", view[len(view)-40:])
	}
	again, kept2 := redactedView(secret, kept)
	if &again[0] != &kept[0] || &kept2[0] != &kept[0] || string(again) != string(view) {
		t.Fatal("a second redaction must reuse the kept array")
	}
}
