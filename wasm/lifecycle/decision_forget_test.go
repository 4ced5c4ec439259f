package lifecycle

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// forgetter is the decision store as memory_forget and memory_restore reach it.
func (r *rig) forgetter() store.Forgetter {
	r.t.Helper()
	f, ok := r.e.store("decisions").(store.Forgetter)
	require.True(r.t, ok, "the decision store is a store.Forgetter")
	return f
}

func TestForgetRemovesADecisionAsRemoveDoesAndRestoreBringsItBack(t *testing.T) {
	r := newRig(t, false)
	r.cmd(`add Use PostgreSQL for the primary database --tag db`)
	r.cmd(`add Keep functions under 60 lines`)
	f := r.forgetter()
	out := store.NewOut(nil, &r.e.asks)

	got, ok, err := f.Forget(out, "0001")
	require.True(t, ok, "a decision id's end is the decision store's")
	require.NoError(t, err)
	require.Equal(t, `Removed decision D-2026-02-27-0001 "Use PostgreSQL for the primary database" (the log keeps its history).`, got.Said)
	require.Equal(t, "D-2026-02-27-0001", got.Restore)
	require.Contains(t, r.log(), `"e":"rm","i":"D-2026-02-27-0001"`)
	require.NotContains(t, r.injected("hi"), "PostgreSQL")

	_, ok, err = f.Forget(out, "D-2026-02-27-0001")
	require.True(t, ok)
	require.Equal(t, "D-2026-02-27-0001 was already removed.", err.Error())

	said, ok, err := f.Restore(out, got.Restore)
	require.True(t, ok)
	require.NoError(t, err)
	require.Equal(t, `Restored decision D-2026-02-27-0001 "Use PostgreSQL for the primary database".`, said)
	require.Contains(t, r.injected("hi"), "D-2026-02-27-0001 | Use PostgreSQL for the primary database | #db")
	lines := strings.Split(strings.TrimSpace(r.log()), "\n")
	require.Equal(t, 4, len(lines))
	require.Contains(t, lines[3], `"e":"a","i":"D-2026-02-27-0001"`)

	_, ok, err = f.Restore(out, "0001")
	require.True(t, ok)
	require.Equal(t, `No removed decision's id ends with "0001".`, err.Error())
}

func TestForgetLeavesReferencesThatAreNotDecisionsToOtherStores(t *testing.T) {
	r := newRig(t, false)
	r.cmd(`add Use Go`)
	f := r.forgetter()
	out := store.NewOut(nil, &r.e.asks)
	for _, ref := range []string{"/home/ana/.pi/agent/memory/MEMORY.md:3", "pnpm", ""} {
		_, ok, err := f.Forget(out, ref)
		require.False(t, ok, "Forget(%q)", ref)
		require.NoError(t, err)
		_, ok, _ = f.Restore(out, ref)
		require.False(t, ok, "Restore(%q)", ref)
	}
	require.NotContains(t, r.log(), `"rm"`)
}

func TestForgetWritesNothingWhileMemoryIsOff(t *testing.T) {
	r := newRig(t, false)
	r.cmd(`add Use Go`)
	r.call("command", map[string]any{"name": "memory", "args": "off"})
	_, ok, err := r.forgetter().Forget(store.NewOut(nil, &r.e.asks), "0001")
	require.True(t, ok)
	require.Error(t, err)
	require.Contains(t, err.Error(), "Decision memory is not written now")
	require.NotContains(t, r.log(), `"rm"`)
}
