package observe

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

func TestDaysReadAsDatesAndWeekdays(t *testing.T) {
	require.Equal(t, "Feb 12, 2026", formatDay(20496))
	require.Equal(t, "Thu", weekday(20496))
	require.Equal(t, "Thu", weekday(0))
	require.Equal(t, "Wed", weekday(-1))
}

func TestParseDateReadsWhatObserversWrite(t *testing.T) {
	near := civil.Days(2026, 2, 12)
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"Feb 12, 2026", civil.Days(2026, 2, 12), true},
		{"February 12, 2026", civil.Days(2026, 2, 12), true},
		{"feb. 12th 2026", civil.Days(2026, 2, 12), true},
		{"12 Feb 2026", civil.Days(2026, 2, 12), true},
		{"2026-02-12", civil.Days(2026, 2, 12), true},
		{"Sept 3, 2026", civil.Days(2026, 9, 3), true},
		// Without a year: the year that puts it closest to near.
		{"Feb 10", civil.Days(2026, 2, 10), true},
		{"Dec 30", civil.Days(2025, 12, 30), true},
		{"Feb 30, 2026", 0, false},
		{"2026-13-01", 0, false},
		{"Feb 12, 26", 0, false},
		{"tomorrow", 0, false},
		{"", 0, false},
		{"Feb 12, 2026 (yesterday)", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseDate(tt.in, near)
		require.Equal(t, tt.ok, ok, "parseDate(%q)", tt.in)
		if ok {
			require.Equal(t, tt.want, got, "parseDate(%q)", tt.in)
		}
	}
}

// pi's timestamps are read by the one time reader every store uses.
func TestPiTimestampsAreReadByTheOneTimeReader(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"2026-02-12T14:30:00.000Z", feb12, true},
		{"2026-02-12T14:30:00Z", feb12, true},
		{"2026-02-12T15:30:00.000+01:00", feb12, true},
		{"2026-02-12T14:30:00.5Z", feb12 + 500, true},
		{"2026-02-12T14:30:00", 0, false},
		{"2026-02-30T14:30:00Z", 0, false},
		{"garbage", 0, false},
	}
	for _, tt := range tests {
		got, ok := civil.Parse(tt.in)
		require.Equal(t, tt.ok, ok, "civil.Parse(%q)", tt.in)
		require.Equal(t, tt.want, got, "civil.Parse(%q)", tt.in)
	}
}

func TestClockDatesAreLocal(t *testing.T) {
	// 23:30 UTC on Feb 12 is Feb 13 00:30 in UTC+1.
	c := clock{Ms: feb12 + 9*3600000, Zone: 60}
	require.Equal(t, civil.Days(2026, 2, 13), c.Day())
	require.Equal(t, 30, c.minute())
	require.Equal(t, civil.Days(2026, 2, 12), clock{Ms: c.Ms}.Day())
	require.Equal(t, "00:30", formatMinute(c.minute()))
}

func TestRelativeTimesReadLikePeopleSayThem(t *testing.T) {
	tests := []struct {
		n        int64
		relative string
		gap      string
	}{
		{0, "today", ""},
		{1, "yesterday", ""},
		{2, "2 days ago", "[2 days later]"},
		{6, "6 days ago", "[6 days later]"},
		{7, "1 week ago", "[1 week later]"},
		{13, "1 week ago", "[1 week later]"},
		{14, "2 weeks ago", "[2 weeks later]"},
		{59, "8 weeks ago", "[8 weeks later]"},
		{60, "2 months ago", "[2 months later]"},
		{800, "2 years ago", "[2 years later]"},
		{-1, "tomorrow", ""},
		{-3, "in 3 days", ""},
	}
	for _, tt := range tests {
		require.Equal(t, tt.relative, relativeDay(100-tt.n, 100), "%d days", tt.n)
		require.Equal(t, tt.gap, gapMarker(tt.n), "gap of %d days", tt.n)
	}
}
