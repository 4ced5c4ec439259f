package observe

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/search"
)

// Each observation is one search entry, its nested lines part of its text,
// its time the observer's local day and minute turned into UTC.
func TestObservationDocsAreOneEntryPerItemAtItsTime(t *testing.T) {
	day := int64(20412) // 2025-11-20
	groups := []group{{Day: day, Items: []observation{
		{Priority: high, Minute: 14*60 + 30, Text: "User prefers pnpm", Sub: []string{"-> ran pnpm install"}},
		{Priority: low, Minute: -1, Text: "Agent read the README"},
	}}}
	docs := observationDocs(groups, "this session", 60)
	require.Equal(t, 2, len(docs))
	require.Equal(t, search.Observation, docs[0].Kind)
	require.Equal(t, "this session", docs[0].Ref)
	require.Equal(t, "User prefers pnpm -> ran pnpm install", docs[0].Text)
	require.Equal(t, (day*1440+14*60+30-60)*60000, docs[0].Time, "14:30 at UTC+1 is 13:30 UTC")
	require.Equal(t, (day*1440-60)*60000, docs[1].Time, "no time given: the start of the day")
}
