package lifecycle

import (
	"regexp"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// The orchestrator's memory_forget and memory_restore over the real stores:
// a note found by its words, a decision by its id; an F- restore
// reference is the notes store's even though the decision store is asked
// first (its id ends are digits only).
func TestForgetAndRestoreThroughTheStoresTheyBelongTo(t *testing.T) {
	r := newRig(t, false)
	r.cmd(`add "Use PostgreSQL for the primary database"`)
	r.write(projectIndex, "# Memory\n\n## Build\n- We deploy with make ship on Fridays\n- Tests need the race detector\n")

	said, isErr := r.tool("memory_forget", `{"query":"deploy make ship"}`)
	require.False(t, isErr, said)
	require.Contains(t, said, "Forgot “We deploy with make ship on Fridays”")
	require.NotContains(t, r.read(projectIndex), "make ship")
	ref := regexp.MustCompile(`F-[0-9a-f]{8}`).FindString(said)
	require.True(t, ref != "", "the answer names what restores it: %s", said)

	said, isErr = r.tool("memory_restore", `{"id":"`+ref+`"}`)
	require.False(t, isErr, said)
	require.Contains(t, r.read(projectIndex), "- We deploy with make ship on Fridays")

	said, isErr = r.tool("memory_forget", `{"id":"D-2026-02-27-0001"}`)
	require.False(t, isErr, said)
	require.Contains(t, said, "D-2026-02-27-0001")
	require.NotContains(t, r.injected("which database?"), "PostgreSQL")
	said, isErr = r.tool("memory_restore", `{"id":"D-2026-02-27-0001"}`)
	require.False(t, isErr, said)
	require.Contains(t, r.injected("which database?"), "Use PostgreSQL for the primary database")

	said, isErr = r.tool("memory_forget", `{"id":"F-00000000"}`)
	require.True(t, isErr, "an id no store holds: %s", said)
}

// /memory forget and /memory restore with no id, over the real notes store:
// what a person types, and the answer names no internal id but what restores.
func TestMemoryForgetAndRestoreCommandsOverTheNotesStore(t *testing.T) {
	r := newRig(t, false)
	r.write(projectIndex, "# Memory\n\n## Build\n- I always use pnpm\n- Tests need the race detector\n")
	r.mem("forget pnpm")
	require.Equal(t, int64(0), r.exit(), r.text())
	require.Contains(t, r.text(), "Forgot “I always use pnpm”")
	require.NotContains(t, r.read(projectIndex), "pnpm")
	r.mem("restore")
	require.Equal(t, int64(0), r.exit(), r.text())
	require.Contains(t, r.text(), "Restored “I always use pnpm”")
	require.Contains(t, r.read(projectIndex), "- I always use pnpm\n")
	r.mem("restore")
	require.Equal(t, int64(1), r.exit(), "nothing left to restore: %s", r.text())
}
