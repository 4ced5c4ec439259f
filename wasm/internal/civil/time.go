package civil

// The one reader and writer of times every store uses: an event's or a
// record's time, a time pi wrote in a session file.

// ParseTime reads a time ("2026-02-27T06:00:00.000Z", or any RFC 3339 time,
// as time.Parse(time.RFC3339Nano) reads it) as Unix milliseconds; 0 when it
// does not parse. The fixed layout that every writer uses is read first and
// fast, which matters at a million lines. Nothing here uses the time
// package: its parser and zone tables cost the TinyGo module 26 KB
// (docs/decisions/009-module-size.md).
//
//	ParseTime("2026-02-27T07:00:00+01:00") => 1772172000000
func ParseTime(s string) int64 {
	ms, _ := Parse(s)
	return ms
}

// Parse is ParseTime that says whether s parsed (0 is a time too).
func Parse(s string) (int64, bool) {
	if len(s) == 24 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == '.' && s[23] == 'Z' {
		y, ok1 := Digits(s[0:4])
		mo, ok2 := Digits(s[5:7])
		d, ok3 := Digits(s[8:10])
		h, ok4 := Digits(s[11:13])
		mi, ok5 := Digits(s[14:16])
		se, ok6 := Digits(s[17:19])
		ms, ok7 := Digits(s[20:23])
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && mo >= 1 && mo <= 12 && d >= 1 && d <= DaysIn(y, mo) && h < 24 && mi < 60 && se < 60 {
			return (Days(y, mo, d)*86400+int64(h*3600+mi*60+se))*1000 + int64(ms), true
		}
		return 0, false
	}
	return parseRFC3339(s)
}

// parseRFC3339 reads s as Unix milliseconds when time.Parse(time.RFC3339Nano,
// s) reads it, with the same leniency (FuzzParseTime compares the two): a
// one-digit hour, a comma before the fraction, any number of fraction digits,
// a zone offset up to 24:60. Only the first three fraction digits count.
func parseRFC3339(s string) (int64, bool) {
	p := 0
	two := func() (int, bool) {
		if p+2 > len(s) || !isDigit(s[p]) || !isDigit(s[p+1]) {
			return 0, false
		}
		p += 2
		return int(s[p-2]-'0')*10 + int(s[p-1]-'0'), true
	}
	sep := func(c byte) bool {
		if p < len(s) && s[p] == c {
			p++
			return true
		}
		return false
	}
	century, ok1 := two()
	year, ok2 := two()
	if !ok1 || !ok2 || !sep('-') {
		return 0, false
	}
	y := century*100 + year
	mo, ok := two()
	if !ok || mo < 1 || mo > 12 || !sep('-') {
		return 0, false
	}
	d, ok := two()
	if !ok || !sep('T') || p == len(s) || !isDigit(s[p]) {
		return 0, false
	}
	h := int(s[p] - '0')
	p++
	if p < len(s) && isDigit(s[p]) {
		h = h*10 + int(s[p]-'0')
		p++
	}
	if h >= 24 || !sep(':') {
		return 0, false
	}
	mi, ok := two()
	if !ok || mi >= 60 || !sep(':') {
		return 0, false
	}
	se, ok := two()
	if !ok || se >= 60 {
		return 0, false
	}
	ms := 0
	if p+1 < len(s) && (s[p] == '.' || s[p] == ',') && isDigit(s[p+1]) {
		p++
		n := 0
		for ; p < len(s) && isDigit(s[p]); p++ {
			if n < 3 {
				ms = ms*10 + int(s[p]-'0')
				n++
			}
		}
		for ; n < 3; n++ {
			ms *= 10
		}
	}
	off := 0
	if !sep('Z') {
		if p+6 > len(s) || (s[p] != '+' && s[p] != '-') || s[p+3] != ':' {
			return 0, false
		}
		sign := s[p]
		p++
		oh, ok1 := two()
		p++
		om, ok2 := two()
		if !ok1 || !ok2 || oh > 24 || om > 60 {
			return 0, false
		}
		off = (oh*60 + om) * 60
		if sign == '-' {
			off = -off
		}
	}
	if p != len(s) || d < 1 || d > DaysIn(y, mo) {
		return 0, false
	}
	return (Days(y, mo, d)*86400+int64(h*3600+mi*60+se-off))*1000 + int64(ms), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// FormatTime writes Unix milliseconds the way every record stores them.
//
//	FormatTime(1772172000000) => "2026-02-27T06:00:00.000Z"
func FormatTime(ms int64) string {
	var b [24]byte
	days := FloorDiv(ms, 86400000)
	rem := ms - days*86400000
	y, m, d := Date(days)
	put := func(at, n, width int) {
		for k := width - 1; k >= 0; k-- {
			b[at+k] = byte('0' + n%10)
			n /= 10
		}
	}
	put(0, y, 4)
	b[4] = '-'
	put(5, m, 2)
	b[7] = '-'
	put(8, d, 2)
	b[10] = 'T'
	sec := int(rem / 1000)
	put(11, sec/3600, 2)
	b[13] = ':'
	put(14, sec/60%60, 2)
	b[16] = ':'
	put(17, sec%60, 2)
	b[19] = '.'
	put(20, int(rem%1000), 3)
	b[23] = 'Z'
	return string(b[:])
}

// Day is the UTC calendar day of a time, as ids use it ("2026-02-27").
func Day(ms int64) string { return FormatTime(ms)[:10] }

// Digits reads a whole number written with 1 to 9 ASCII digits and
// nothing else, as dates and times write their fields.
//
//	Digits("2026") => 2026, true; Digits("") => 0, false; Digits("1e3") => 0, false
func Digits(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
