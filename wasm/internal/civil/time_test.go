package civil

import (
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/internal/require"
)

// parseLikeTime is what ParseTime read before it stopped linking the time
// package: the judge of parseRFC3339.
func parseLikeTime(s string) (int64, bool) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, false
	}
	return t.UnixMilli(), true
}

func TestParseRFC3339ReadsWhatTheTimePackageReads(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"the fixed layout", "2026-02-27T06:00:00.000Z", true},
		{"no fraction", "2026-02-27T06:00:00Z", true},
		{"an offset", "2026-02-27T07:00:00+01:00", true},
		{"a negative offset with minutes", "2026-02-26T22:30:00-07:30", true},
		{"a zero offset written -00:00", "2026-02-27T06:00:00-00:00", true},
		{"nine fraction digits, the rest cut", "2026-02-27T06:00:00.123456789Z", true},
		{"more than nine fraction digits", "2026-02-27T06:00:00.1234567891234Z", true},
		{"one fraction digit", "2026-02-27T06:00:00.5Z", true},
		{"a comma before the fraction", "2026-02-27T06:00:00,25Z", true},
		{"a one-digit hour", "2026-02-27T6:00:00Z", true},
		{"an offset of 24:60", "2026-02-27T06:00:00+24:60", true},
		{"year zero, a leap year", "0000-02-29T00:00:00Z", true},
		{"before 1970", "1969-12-31T23:59:59.999Z", true},
		{"the last day there is", "9999-12-31T23:59:59.999999999Z", true},
		{"February 29 of a leap year", "2024-02-29T00:00:00Z", true},
		{"February 29 of 1900", "1900-02-29T00:00:00Z", false},
		{"February 30", "2026-02-30T06:00:00Z", false},
		{"month 13", "2026-13-01T06:00:00Z", false},
		{"hour 24", "2026-02-27T24:00:00Z", false},
		{"a leap second", "2016-12-31T23:59:60Z", false},
		{"a one-digit minute", "2026-02-27T06:0:00Z", false},
		{"an offset hour of 25", "2026-02-27T06:00:00+25:00", false},
		{"an offset minute of 61", "2026-02-27T06:00:00+01:61", false},
		{"an offset without a colon", "2026-02-27T06:00:00+0100", false},
		{"no zone", "2026-02-27T06:00:00", false},
		{"a lowercase z", "2026-02-27T06:00:00z", false},
		{"a lowercase t", "2026-02-27t06:00:00Z", false},
		{"a space for T", "2026-02-27 06:00:00Z", false},
		{"a dot without digits", "2026-02-27T06:00:00.Z", false},
		{"text after the zone", "2026-02-27T06:00:00Z ", false},
		{"a five-digit year", "20260-02-27T06:00:00Z", false},
		{"a signed year", "+026-02-27T06:00:00Z", false},
		{"empty", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, wok := parseLikeTime(tc.in)
			require.Equal(t, tc.ok, wok, "the time package disagrees with this case")
			got, ok := parseRFC3339(tc.in)
			require.Equal(t, wok, ok)
			require.Equal(t, want, got)
		})
	}
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2026-02-27T06:00:00.000Z", "2026-02-27T7:00:00,5+01:00", "0000-02-29T00:00:00-24:60", "2026-02-27T06:00:00.1234567891Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, wok := parseLikeTime(s)
		got, ok := parseRFC3339(s)
		require.Equal(t, wok, ok, "%q", s)
		require.Equal(t, want, got, "%q", s)
		require.Equal(t, want, ParseTime(s), "%q (the fast path)", s)
	})
}

// Every one-byte change, insertion and deletion of a few valid times, with the
// bytes their syntax is made of: the edges of what the time package accepts.
func TestParseRFC3339AgreesOnEveryOneByteEdit(t *testing.T) {
	bases := []string{"2026-02-27T06:00:00.000Z", "2024-02-29T7:05:09,5-07:30", "0000-01-01T00:00:00+24:60"}
	alphabet := "0123456789+-:.,ZzTt "
	checked := 0
	check := func(s string) {
		want, wok := parseLikeTime(s)
		got, ok := parseRFC3339(s)
		require.Equal(t, wok, ok, "%q", s)
		require.Equal(t, want, got, "%q", s)
		checked++
	}
	for _, base := range bases {
		for i := 0; i <= len(base); i++ {
			if i < len(base) {
				check(base[:i] + base[i+1:])
			}
			for j := 0; j < len(alphabet); j++ {
				c := alphabet[j : j+1]
				check(base[:i] + c + base[i:])
				if i < len(base) {
					check(base[:i] + c + base[i+1:])
				}
			}
		}
	}
	require.True(t, checked > 2000, "checked %d", checked)
}

func TestDigitsReadsOneToNineDigitsAndNothingElse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"2026", 2026, true}, {"07", 7, true}, {"0", 0, true}, {"999999999", 999999999, true},
		{"", 0, false}, {"1234567890", 0, false}, {"1e3", 0, false}, {"-1", 0, false}, {" 1", 0, false},
	} {
		got, ok := Digits(tc.in)
		require.Equal(t, tc.ok, ok, "Digits(%q)", tc.in)
		require.Equal(t, tc.want, got, "Digits(%q)", tc.in)
	}
}
