package observe

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

// clock is a moment as this package sees it: Unix milliseconds and the
// offset of the user's local time from UTC. Observations are dated in local
// time, as the user lives them; the package never reads a clock or a time
// zone database, so the caller passes both (in Node, Date.now() and
// -new Date().getTimezoneOffset()).
type clock struct {
	Ms   int64 // Unix milliseconds
	Zone int   // minutes east of UTC (+60 for UTC+1)
}

const (
	msPerMinute = 60 * 1000
	msPerDay    = 24 * 60 * msPerMinute
)

// local returns c's local time as milliseconds since 1970-01-01T00:00 local.
func (c clock) local() int64 { return c.Ms + int64(c.Zone)*msPerMinute }

// Day is c's local calendar day, as days since 1970-01-01.
func (c clock) Day() int64 { return civil.FloorDiv(c.local(), msPerDay) }

// minute is c's local minute of the day, 0..1439.
func (c clock) minute() int { return int((c.local() - c.Day()*msPerDay) / msPerMinute) }

// dayStart is the UTC millisecond at which local day d starts.
func (c clock) dayStart(d int64) int64 { return d*msPerDay - int64(c.Zone)*msPerMinute }

var monthNames = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
var weekdays = [7]string{"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"} // 1970-01-01 was a Thursday

// formatDay writes a day as observations date it.
//
//	formatDay(20496) => "Feb 12, 2026"
//
//go:noinline
func formatDay(d int64) string {
	y, m, dd := civil.Date(d)
	return monthNames[m-1] + " " + itoa(dd) + ", " + itoa(y)
}

// weekday is the short English name of day d's weekday.
func weekday(d int64) string { return weekdays[int(((d%7)+7)%7)] }

// formatMinute writes a minute of the day as 24-hour "14:05".
//
//go:noinline
func formatMinute(m int) string {
	return string([]byte{byte('0' + m/600), byte('0' + m/60%10), ':', byte('0' + m%60/10), byte('0' + m%10)})
}

// parseDate reads a date as the observer or a person writes it: "Feb 12,
// 2026", "February 12, 2026", "12 Feb 2026", "2026-02-12", or without a year
// ("Feb 12"), which then takes the year that puts it closest to near. ok is
// false for anything else. Trailing text (a weekday, "(yesterday)") is not
// part of the date and makes it fail: callers cut it first.
//
//	parseDate("Feb 12, 2026", 0) => 20496, true
func parseDate(s string, near int64) (int64, bool) {
	s = strings.TrimSpace(s)
	if len(s) == 10 && s[4] == '-' && s[7] == '-' {
		y, ok1 := civil.Digits(s[0:4])
		m, ok2 := civil.Digits(s[5:7])
		d, ok3 := civil.Digits(s[8:10])
		if ok1 && ok2 && ok3 && validDate(y, m, d) {
			return civil.Days(y, m, d), true
		}
		return 0, false
	}
	words := splitDateWords(s)
	var m, d, y int
	switch len(words) {
	case 2, 3:
	default:
		return 0, false
	}
	if m = civil.Month(words[0]); m > 0 {
		var ok bool
		if d, ok = civil.Digits(words[1]); !ok {
			return 0, false
		}
	} else if m = civil.Month(words[1]); m > 0 {
		var ok bool
		if d, ok = civil.Digits(words[0]); !ok {
			return 0, false
		}
	} else {
		return 0, false
	}
	if len(words) == 3 {
		var ok bool
		if y, ok = civil.Digits(words[2]); !ok || len(words[2]) != 4 {
			return 0, false
		}
		if !validDate(y, m, d) {
			return 0, false
		}
		return civil.Days(y, m, d), true
	}
	// No year: the one of three candidate years closest to near.
	ny, _, _ := civil.Date(near)
	best, found := int64(0), false
	for _, cy := range []int{ny - 1, ny, ny + 1} {
		if !validDate(cy, m, d) {
			continue
		}
		c := civil.Days(cy, m, d)
		if !found || abs64(c-near) < abs64(best-near) {
			best, found = c, true
		}
	}
	return best, found
}

// splitDateWords splits "Feb 12, 2026" into its words, dropping commas and
// periods ("Feb." and "12th" are accepted: the suffixes are cut).
func splitDateWords(s string) []string {
	var words []string
	start := -1
	for i := 0; i <= len(s); i++ {
		sep := i == len(s) || s[i] == ' ' || s[i] == ',' || s[i] == '.' || s[i] == '\t'
		if !sep && start < 0 {
			start = i
		}
		if sep && start >= 0 {
			w := s[start:i]
			if n := len(w); n > 2 && w[0] >= '0' && w[0] <= '9' {
				switch w[n-2:] {
				case "st", "nd", "rd", "th":
					w = w[:n-2]
				}
			}
			words = append(words, w)
			start = -1
		}
	}
	return words
}

func validDate(y, m, d int) bool {
	return y >= 1900 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= civil.DaysIn(y, m)
}

// parseClock reads "14:30" (or "9:05") as a minute of the day.
func parseClock(s string) (int, bool) {
	i := strings.IndexByte(s, ':')
	if i < 1 || i > 2 || len(s)-i-1 != 2 {
		return 0, false
	}
	h, ok1 := civil.Digits(s[:i])
	m, ok2 := civil.Digits(s[i+1:])
	if !ok1 || !ok2 || h > 23 || m > 59 {
		return 0, false
	}
	return h*60 + m, true
}

// relativeDay says how far day d is from today, as date headers show it.
//
//	relativeDay(10, 12) => "2 days ago"; relativeDay(12, 12) => "today"
//
//go:noinline
func relativeDay(d, today int64) string {
	n := today - d
	switch {
	case n == 0:
		return "today"
	case n == 1:
		return "yesterday"
	case n == -1:
		return "tomorrow"
	case n < 0:
		return "in " + span(-n)
	}
	return span(n) + " ago"
}

// gapMarker is the line shown between two date groups n days apart, or ""
// when they are consecutive days.
//
//	gapMarker(9) => "[1 week later]"
func gapMarker(n int64) string {
	if n < 2 {
		return ""
	}
	return "[" + span(n) + " later]"
}

// span writes a number of days (≥ 2) the way people say it: days under two
// weeks, then weeks, months and years, rounded down.
//
//go:noinline
func span(n int64) string {
	unit, k := "day", n
	switch {
	case n >= 730:
		unit, k = "year", n/365
	case n >= 60:
		unit, k = "month", n/30
	case n >= 14:
		unit, k = "week", n/7
	case n >= 7:
		unit, k = "week", 1
	}
	if k == 1 {
		return "1 " + unit
	}
	return strconv.FormatInt(k, 10) + " " + unit + "s"
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
