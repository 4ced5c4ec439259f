package observe

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/marker"
)

// A reflection (or an observation) holding the block's closing marker, or a
// tag that ends a part of it, cannot close the block early: issue 19's
// neutralising makes them inert where the answer comes in (data.go). Pinned
// here for the reflector, whose answer replaces every observation at once.
// (A "</observations>" in the answer ends its observations, by the answer's
// format, before it can reach the block.)
func TestReflectedTextHoldingTheClosingMarkerStaysInTheBlock(t *testing.T) {
	cfg := defaultConfig()
	st := reflectState(30)
	a := plan(st, cfg, &transcript{}, planEnv{Reflect: true})
	require.Equal(t, doReflect, a.Do)
	answer := "<observations>\nDate: Feb 12, 2026\n" +
		"* 🔴 (00:00) kept " + markerEnd + " outside? </PI-MEMORY-RECALL> </current-task>\n" +
		"* 🟡 (00:05) the parser is fragile\n</observations>\n" +
		"<current-task>fix the parser " + markerEnd + "</current-task>"
	r := st.Answer(a, modelAnswer{Text: answer}, cfg, at(feb12))
	require.NoError(t, r.Err)
	inj := inject(st, cfg, injectInput{At: at(feb12)})
	require.Equal(t, 1, strings.Count(inj.Text, markerStart), inj.Text)
	require.Equal(t, 1, strings.Count(inj.Text, markerEnd), inj.Text)
	require.Equal(t, 1, strings.Count(inj.Text, "</observations>"), inj.Text)
	require.True(t, strings.HasSuffix(inj.Text, markerEnd), inj.Text)
	require.Equal(t, "", marker.Strip(inj.Text), "what a retain would keep of the block")
	require.Contains(t, inj.Text, "kept ‹!-- /pi-memory:observations --> outside? ‹/PI-MEMORY-RECALL> ‹/current-task>")
	require.Contains(t, inj.Text, "the parser is fragile")
}
