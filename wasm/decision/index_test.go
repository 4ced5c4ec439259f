package decision

import (
	"fmt"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

func TestIndexFindsEveryIdShape(t *testing.T) {
	log := ev(t1, "a", "D-2026-02-27-0001", `{"tx":"canonical"}`) +
		ev(t1, "a", "D-2026-02-27-00012", `{"tx":"zero-padded beyond four digits"}`) +
		ev(t1, "a", "D-2026-02-27-0012", `{"tx":"same number, canonical"}`) +
		ev(t1, "a", "D-2026-02-27-12345", `{"tx":"five digits"}`) +
		ev(t1, "a", "ADR-7", `{"tx":"imported from another tool"}`) +
		ev(t2, "rm", "ADR-7", `{}`) +
		ev(t3, "a", "ADR-7", `{"tx":"added again"}`)
	st, _ := replay(t, log)
	for id, want := range map[string]string{
		"D-2026-02-27-0001":  "canonical",
		"D-2026-02-27-00012": "zero-padded beyond four digits",
		"D-2026-02-27-0012":  "same number, canonical",
		"D-2026-02-27-12345": "five digits",
		"ADR-7":              "added again",
	} {
		d := st.Get(id)
		require.True(t, d != nil && d.Text == want, "Get(%q) = %+v, want text %q", id, d, want)
	}
	require.Equal(t, 5, st.Len(), "live")
	require.Equal(t, (*decision)(nil), st.Get("D-2026-02-27-0002"), "absent")
	require.Equal(t, "D-2026-02-27-12346", st.NextID(civil.ParseTime(t3)), "next after the highest")
}

func TestIndexGrowsPastManyThousands(t *testing.T) {
	st := newState()
	base := civil.ParseTime("2026-01-01T00:00:00.000Z")
	for i := 1; i <= 20000; i++ {
		e := Event{V: 1, Code: Add, ID: fmt.Sprintf("D-2026-01-01-%04d", i), TimeMs: base + int64(i), Data: Data{Text: "x"}}
		st.apply(&e, i)
	}
	for i := 1; i <= 20000; i += 997 {
		require.True(t, st.Get(fmt.Sprintf("D-2026-01-01-%04d", i)) != nil, "lost D-2026-01-01-%04d", i)
	}
	require.Equal(t, "D-2026-01-01-20001", st.NextID(base), "next")
}
