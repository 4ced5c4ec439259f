package notes

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// countFlagValues are values a person may type after --limit or --days;
// FuzzCountFlag starts from them.
var countFlagValues = []struct {
	value string
	want  int
	ok    bool
}{
	{"", 10, true}, // absent: the default
	{"1", 1, true},
	{"25", 25, true},
	{"100", 100, true},
	{"+7", 7, true}, // strconv.Atoi's sign
	{"007", 7, true},
	{"0", 0, false},
	{"101", 0, false},
	{"-3", 0, false},
	{"1.5", 0, false},
	{" 5", 0, false},
	{"5 ", 0, false},
	{"ten", 0, false},
	{"1e2", 0, false},
	{"99999999999999999999", 0, false},
}

func TestCountFlagTakesAWholeNumberInRangeOrSaysWhatItMustBe(t *testing.T) {
	const usage = "/memory recall: --limit must be a whole number from 1 to 100"
	for _, tt := range countFlagValues {
		t.Run(strconv.Quote(tt.value), func(t *testing.T) {
			got, msg := countFlag("recall", "limit", tt.value, 10, 100)
			require.Equal(t, tt.want, got, "countFlag(%q)", tt.value)
			if tt.ok {
				require.Equal(t, "", msg, "countFlag(%q)", tt.value)
			} else {
				require.Equal(t, usage, msg, "countFlag(%q)", tt.value)
			}
		})
	}
}

func TestCountFlagNamesItsCommandFlagAndBound(t *testing.T) {
	_, msg := countFlag("stale", "days", "0", 90, maxStaleDays)
	require.Equal(t, "/memory stale: --days must be a whole number from 1 to 3650", msg)
	_, msg = countFlag("traces", "limit", "401", 20, maxTracesShown)
	require.Equal(t, "/memory traces: --limit must be a whole number from 1 to 400", msg)
	days, msg := countFlag("stale", "days", "", 45, maxStaleDays)
	require.True(t, days == 45 && msg == "", "the default is the caller's: %d %q", days, msg)
}

// FuzzCountFlag: a flag's value is whatever a person types, so any text is
// read without panicking; it is either a count from 1 to max, written back
// the same by strconv.Itoa, or refused with the usage line and 0.
func FuzzCountFlag(f *testing.F) {
	for _, tt := range countFlagValues {
		f.Add(tt.value)
	}
	f.Add("\xff1")
	f.Add("٣") // a digit, but not an ASCII one
	f.Fuzz(func(t *testing.T, value string) {
		const max = 400
		n, msg := countFlag("traces", "limit", value, 20, max)
		switch {
		case value == "":
			require.True(t, n == 20 && msg == "", "absent flag gave %d %q", n, msg)
		case msg == "":
			require.True(t, n >= 1 && n <= max, "%q accepted as %d", value, n)
			again, msg2 := countFlag("traces", "limit", strconv.Itoa(n), 20, max)
			require.True(t, again == n && msg2 == "", "%d written back reads as %d %q", n, again, msg2)
			require.True(t, strings.Trim(value, "+0123456789") == "", "%q accepted though it is not digits", value)
		default:
			require.True(t, n == 0 && msg == "/memory traces: --limit must be a whole number from 1 to 400", "%q refused as %d %q", value, n, msg)
		}
	})
}
