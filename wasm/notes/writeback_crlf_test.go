package notes

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestInsertKeepsTheFilesCRLFLineEnds(t *testing.T) {
	out, line := insert([]byte("## Build\r\n- make\r\n"), "Build", "make test")
	require.True(t, string(out) == "## Build\r\n- make\r\n- make test\r\n" && line == 3, "%q %d", out, line)
	out, _ = insert([]byte("- a\r\n"), "Notes", "b")
	require.Equal(t, "- a\r\n\r\n## Notes\r\n\r\n- b\r\n", string(out))
}
