package notes

import "testing"

func TestInsertKeepsTheFilesCRLFLineEnds(t *testing.T) {
	out, line := Insert([]byte("## Build\r\n- make\r\n"), "Build", "make test")
	if string(out) != "## Build\r\n- make\r\n- make test\r\n" || line != 3 {
		t.Fatalf("%q %d", out, line)
	}
	out, _ = Insert([]byte("- a\r\n"), "Notes", "b")
	if string(out) != "- a\r\n\r\n## Notes\r\n\r\n- b\r\n" {
		t.Fatalf("%q", out)
	}
}
