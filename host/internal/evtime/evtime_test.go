package evtime

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestStampReadsBackAndNamesTheDay(t *testing.T) {
	ms := Ms("2026-02-27T07:00:00+01:00")
	require.Equal(t, int64(1772172000000), ms)
	require.Equal(t, "2026-02-27T06:00:00.000Z", Stamp(ms))
	require.Equal(t, "2026-02-27", Day(ms))
}
