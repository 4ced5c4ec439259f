// Package civil is calendar arithmetic on proleptic Gregorian dates counted
// as days since 1970-01-01, for every store that reads or writes dates.
// Nothing here uses the time package: its parser and zone tables cost the
// TinyGo module 26 KB (docs/decisions/009-module-size.md). It never reads a
// clock and knows no time zone.
package civil

// Days is the day number of y-m-d (1970-01-01 is 0), by Howard Hinnant's
// days_from_civil algorithm, restated.
//
//	Days(1970, 1, 1) => 0; Days(2026, 2, 12) => 20496
func Days(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	doy := (153*((m+9)%12)+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// Date is the year, month and day of day number z, the inverse of Days.
//
//	Date(20496) => 2026, 2, 12
func Date(z int64) (int, int, int) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return int(y), int(m), int(d)
}

// DaysIn is the number of days in month m of year y.
//
//	DaysIn(2024, 2) => 29; DaysIn(2100, 2) => 28
func DaysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// FloorDiv divides rounding towards minus infinity, so a time before 1970
// falls on the day it is in.
//
//	FloorDiv(-1, 86400000) => -1
func FloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

var monthNames = [12]string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}

// Month is 1..12 for an English month name or its first three letters
// (any case; "sept" too), else 0.
//
//	Month("March") => 3, Month("sep") => 9, Month("mar.") => 0
func Month(w string) int {
	if len(w) < 3 || len(w) > 9 {
		return 0
	}
	var b [9]byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	lw := string(b[:len(w)])
	for i, name := range monthNames {
		if lw == name || lw == name[:3] || lw == "sept" && i == 8 {
			return i + 1
		}
	}
	return 0
}
