package civil

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestDaysAndDateConvertBothWays(t *testing.T) {
	for d := int64(-800000); d <= 800000; d += 997 {
		y, m, dd := Date(d)
		require.Equal(t, d, Days(y, m, dd), "day %d is %d-%d-%d", d, y, m, dd)
	}
}

func TestDaysOfKnownDates(t *testing.T) {
	for _, tt := range []struct {
		y, m, d int
		want    int64
	}{
		{1970, 1, 1, 0},
		{1969, 12, 31, -1},
		{2000, 3, 1, 11017},
		{2026, 2, 12, 20496},
		{1600, 1, 1, -135140},
	} {
		require.Equal(t, tt.want, Days(tt.y, tt.m, tt.d), "%d-%d-%d", tt.y, tt.m, tt.d)
	}
}

func TestDaysInFollowsTheLeapYearRule(t *testing.T) {
	for _, tt := range []struct{ y, m, want int }{
		{2024, 2, 29}, {2026, 2, 28}, {2100, 2, 28}, {2000, 2, 29}, {2026, 4, 30}, {2026, 12, 31},
	} {
		require.Equal(t, tt.want, DaysIn(tt.y, tt.m), "%d-%d", tt.y, tt.m)
	}
}

func TestFloorDivRoundsTowardsMinusInfinity(t *testing.T) {
	for _, tt := range []struct{ a, b, want int64 }{
		{7, 2, 3}, {-7, 2, -4}, {-1, 86400000, -1}, {0, 5, 0}, {-4, 2, -2},
	} {
		require.Equal(t, tt.want, FloorDiv(tt.a, tt.b), "%d/%d", tt.a, tt.b)
	}
}

func TestMonthReadsEnglishNamesAndTheirFirstThreeLetters(t *testing.T) {
	tests := []struct {
		w    string
		want int
	}{{"January", 1}, {"mar", 3}, {"MAY", 5}, {"sept", 9}, {"September", 9}, {"dec", 12}, {"ma", 0}, {"marc", 0}, {"octobers", 0}, {"", 0}, {"septembers", 0}}
	for _, tt := range tests {
		if got := Month(tt.w); got != tt.want {
			t.Errorf("Month(%q) = %d, want %d", tt.w, got, tt.want)
		}
	}
}
