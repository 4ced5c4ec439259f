package lifecycle

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

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

	got, ok, err := f.Forget(out, store.Ref{ID: "0001", Typed: true})
	require.True(t, ok, "a decision id's end is the decision store's")
	require.NoError(t, err)
	require.Equal(t, `Removed decision D-2026-02-27-0001 "Use PostgreSQL for the primary database" (the log keeps its history).`, got.Said)
	require.Equal(t, "D-2026-02-27-0001", got.Restore)
	require.Contains(t, r.log(), `"e":"rm","i":"D-2026-02-27-0001"`)
	require.NotContains(t, r.injected("hi"), "PostgreSQL")

	// Again (another process, a moment later): what was asked holds, and
	// nothing else is removed (h-v89 B3: the loser of two forgets by words
	// was told of an error).
	again, ok, err := f.Forget(out, store.Ref{ID: "D-2026-02-27-0001"})
	require.True(t, ok)
	require.NoError(t, err)
	require.Equal(t, `Decision D-2026-02-27-0001 "Use PostgreSQL for the primary database" was forgotten already; nothing else was removed.`, again.Said)
	require.Equal(t, "D-2026-02-27-0001", again.Restore)

	said, ok, err := f.Restore(out, store.Ref{ID: got.Restore})
	require.True(t, ok)
	require.NoError(t, err)
	require.Equal(t, `Restored decision D-2026-02-27-0001 "Use PostgreSQL for the primary database".`, said)
	require.Contains(t, r.injected("hi"), "D-2026-02-27-0001 | Use PostgreSQL for the primary database | #db")
	lines := strings.Split(strings.TrimSpace(r.log()), "\n")
	require.Equal(t, 4, len(lines))
	require.Contains(t, lines[3], `"e":"a","i":"D-2026-02-27-0001"`)

	_, ok, err = f.Restore(out, store.Ref{ID: "0001", Typed: true})
	require.True(t, ok)
	require.Equal(t, `No removed decision's id ends with "0001".`, err.Error())
}

func TestForgetLeavesReferencesThatAreNotDecisionsToOtherStores(t *testing.T) {
	r := newRig(t, false)
	r.cmd(`add Use Go`)
	f := r.forgetter()
	out := store.NewOut(nil, &r.e.asks)
	for _, ref := range []string{"/home/ana/.pi/agent/memory/MEMORY.md:3", "pnpm", ""} {
		_, ok, err := f.Forget(out, store.Ref{ID: ref, Typed: true})
		require.False(t, ok, "Forget(%q)", ref)
		require.NoError(t, err)
		_, ok, _ = f.Restore(out, store.Ref{ID: ref, Typed: true})
		require.False(t, ok, "Restore(%q)", ref)
	}
	require.NotContains(t, r.log(), `"rm"`)
}

// Issue 25, item 18: the end of an id is for a person typing a command. A
// tool's call names whole ids only: memory_forget {"id": "1"} (a hit's
// number) removes nothing, and neither does memory_restore {"id": "0001"}.
func TestToolsTakeWholeIdsOnly(t *testing.T) {
	r := newRig(t, false)
	r.cmd(`add Use PostgreSQL for the primary database`)
	for _, id := range []string{"1", "0001", "-0001", "27-0001"} {
		said, isErr := r.tool("memory_forget", `{"id":"`+id+`"}`)
		require.True(t, isErr, "memory_forget %q: %s", id, said)
		require.Equal(t, `No decision or note is "`+id+`": search first, and give a hit's whole id (a decision's D-…, a note's <file>:<line>#P-…).`, said)
	}
	require.NotContains(t, r.log(), `"rm"`)
	said, isErr := r.tool("memory_forget", `{"id":"D-2026-02-27-0001"}`)
	require.False(t, isErr, said)
	said, isErr = r.tool("memory_restore", `{"id":"0001"}`)
	require.True(t, isErr, said)
	said, isErr = r.tool("memory_restore", `{"id":"D-2026-02-27-0001"}`)
	require.False(t, isErr, said)
	// A person at a command may still type the end.
	r.mem("forget 0001")
	require.Equal(t, int64(0), r.exit(), r.text())
	require.Contains(t, r.text(), "Removed decision D-2026-02-27-0001")
}

// An id that is a path ending in "passwd" is said back whole: the name that
// ends a path is no label, so "search first" is not taken for its value.
func TestForgetSaysBackAPathIdUnredacted(t *testing.T) {
	r := newRig(t, false)
	said, isErr := r.tool("memory_forget", `{"id":"../../../etc/passwd"}`)
	require.True(t, isErr, said)
	require.Equal(t, `No decision or note is "../../../etc/passwd": search first, and give a hit's whole id (a decision's D-…, a note's <file>:<line>#P-…).`, said)
}

func TestForgetWritesNothingWhileMemoryIsOff(t *testing.T) {
	r := newRig(t, false)
	r.cmd(`add Use Go`)
	r.call("command", map[string]any{"name": "memory", "args": "off"})
	_, ok, err := r.forgetter().Forget(store.NewOut(nil, &r.e.asks), store.Ref{ID: "0001", Typed: true})
	require.True(t, ok)
	require.Error(t, err)
	require.Contains(t, err.Error(), "Decision memory is not written now")
	require.NotContains(t, r.log(), `"rm"`)
}

// A decision written by hand (or before text was checked) that holds an
// escape or a U+FFFD is forgotten like any other, and its restore brings it
// back as the log held it: forget promised a restore, and the rule that
// refuses such text is for new writes, not for what the log already holds.
func TestRestoreBringsBackAHandWrittenDecisionThatIsNotPlain(t *testing.T) {
	for _, text := range []string{`Use \u001b[1mGo\u001b[0m for services`, `Use Rust \ufffd for services`, `Use \u202eGo`} {
		r := newRig(t, false)
		r.writeLog(`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"a","e":"a","i":"D-2026-02-27-0001","d":{"tx":"` + text + `"},"u":"user"}` + "\n")
		f := r.forgetter()
		out := store.NewOut(nil, &r.e.asks)
		got, ok, err := f.Forget(out, store.Ref{ID: "D-2026-02-27-0001"})
		require.True(t, ok)
		require.NoError(t, err)
		_, ok, err = f.Restore(out, store.Ref{ID: got.Restore})
		require.True(t, ok)
		require.NoError(t, err, "restore of %s", text)
		lines := strings.Split(strings.TrimSpace(r.log()), "\n")
		require.Equal(t, 3, len(lines))
		require.Equal(t, gjson.Get(lines[0], "d.tx").String(), gjson.Get(lines[2], "d.tx").String())
		// A new write of the same text is still refused.
		r.cmd(`add -- '` + gjson.Get(lines[0], "d.tx").String() + `'`)
		require.Equal(t, 3, len(strings.Split(strings.TrimSpace(r.log()), "\n")))
	}
}
