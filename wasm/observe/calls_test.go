package observe

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestChainStopsAfterThirtyTwoCalls(t *testing.T) {
	require.Equal(t, "", chainStop("a backlog of 40 chunks", 0))
	require.Equal(t, "", chainStop("a backlog of 40 chunks", 31))
	require.Equal(t, "a backlog of 40 chunks; stopped after 32 model calls, the rest waits for the next settle", chainStop("a backlog of 40 chunks", 32))
}

func TestCompactionWaitsForMoreCallsOnlyInBlockingMode(t *testing.T) {
	require.Equal(t, 1, compactionCalls(modeBuffered))
	require.Equal(t, 8, compactionCalls(modeBlocking))
}

func TestABackgroundCallIsAwaitedForTenMinutes(t *testing.T) {
	tests := []struct {
		name        string
		busy        bool
		busyAt, now int64
		out         bool
	}{
		{"no call out", false, 0, 1, false},
		{"just sent", true, feb12, feb12, true},
		{"a minute short of ten", true, feb12, feb12 + 9*60000, true},
		{"ten minutes: lost", true, feb12, feb12 + 10*60000, false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.out, callOut(tt.busy, tt.busyAt, tt.now), tt.name)
	}
}
