package search

import (
	"errors"
	"math"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// When is the time a query names, [From, To) in Unix ms; the zero When
// names none.
type When struct{ From, To int64 }

// Has reports whether t (Unix ms, 0 unknown) falls in w.
func (w When) Has(t int64) bool { return w.To > 0 && t >= w.From && t < w.To }

// add widens w to hold [from, to).
func (w *When) add(from, to int64) {
	if w.To == 0 || from < w.From {
		w.From = from
	}
	if to > w.To {
		w.To = to
	}
}

// WhenOf reads the times a query names, against now (Unix ms: the host's
// clock the core is given, never a clock of its own), as one span (the
// earliest start to the latest end of what it names):
//
//   - "today", "yesterday"; "this week", "last week" (the seven days up to
//     today, the seven before them); "this month", "last month", "this
//     year", "last year" (calendar months and years);
//   - a month by its name or first three letters, "in March": the latest
//     March that has begun; "March 2026": that one;
//   - a year, 1970 to 2199: "in 2025";
//   - a month by its number, "2026-09"; a date, "2026-09-14".
//
// Days are UTC days.
//
//	WhenOf("what did we decide in March", <2026-11-29>) => [2026-03-01, 2026-04-01)
//	WhenOf("the flaky test last week", <2026-11-29>)    => [2026-11-16, 2026-11-23)
func WhenOf(q string, now int64) When {
	var w When
	if now <= 0 {
		return w
	}
	if len(q) > MaxQuery {
		q = q[:MaxQuery]
	}
	// The query's words as written, lower-cased; a month's two words
	// ("2026", "09") become one, "2026-09", and a date's three
	// "2026-09-14".
	var words []string
	var sp splitter
	sp.raw(q, func(s string, start, _ int) {
		if n := len(words); n >= 1 && len(s) == 2 && (len(words[n-1]) == 4 || len(words[n-1]) == 7) && q[start-1] == '-' {
			words[n-1] += "-" + s
			return
		}
		words = append(words, string([]byte(s)))
	})
	const day = 86400000
	today := civil.FloorDiv(now, day)
	y, m, _ := civil.Date(today)
	for i, cur := range words {
		prev, next := "", ""
		if i > 0 {
			prev = words[i-1]
		}
		if i+1 < len(words) {
			next = words[i+1]
		}
		from, to := int64(0), int64(0) // in days
		yy, mm := 0, 0                 // a month named, or a year (mm 0)
		last := prev == "last"
		switch cur {
		case "today":
			from, to = today, today+1
		case "yesterday":
			from, to = today-1, today
		case "week":
			if last {
				from, to = today-13, today-6
			} else if prev == "this" {
				from, to = today-6, today+1
			}
		case "month":
			if last && m == 1 {
				yy, mm = y-1, 12
			} else if last {
				yy, mm = y, m-1
			} else if prev == "this" {
				yy, mm = y, m
			}
		case "year":
			if last {
				yy = y - 1
			} else if prev == "this" {
				yy = y
			}
		default:
			if len(cur) == 7 && cur[4] == '-' {
				if yy, mm = yearOf(cur[:4]), digits2(cur[5:]); yy == 0 || mm < 1 || mm > 12 {
					yy, mm = 0, 0
				}
			} else if len(cur) == 10 && cur[4] == '-' {
				dy, dm, dd := yearOf(cur[:4]), digits2(cur[5:7]), digits2(cur[8:])
				if dy > 0 && dm >= 1 && dm <= 12 && dd >= 1 && dd <= civil.DaysIn(dy, dm) {
					from = civil.Days(dy, dm, dd)
					to = from + 1
				}
			} else if mm = civil.Month(cur); mm > 0 && (cur != "may" || prev == "in" || yearOf(next) > 0) {
				if yy = yearOf(next); yy == 0 {
					yy = y
					if mm > m {
						yy-- // the latest one that has begun
					}
				}
			} else if mm = 0; civil.Month(prev) == 0 {
				yy = yearOf(cur)
			}
		}
		if mm == 0 && yy > 0 {
			from, to = civil.Days(yy, 1, 1), civil.Days(yy+1, 1, 1)
		} else if mm != 0 {
			from = civil.Days(yy, mm, 1)
			to = from + int64(civil.DaysIn(yy, mm))
		}
		if to > 0 {
			w.add(from*day, to*day)
		}
	}
	return w
}

// digits2 is the number two digits write, else 0.
func digits2(s string) int {
	n, _ := civil.Digits(s)
	return n
}

// yearOf is the year a word names, 1970 to 2199, else 0.
func yearOf(s string) int {
	if len(s) != 4 {
		return 0
	}
	if y, ok := civil.Digits(s); ok && y >= 1970 && y < 2200 {
		return y
	}
	return 0
}

// SpanOf reads a query's since: and until: filters (Filter) against now:
// since:V keeps the entries from the start of the time V names, until:V
// those up to its end. V is what WhenOf reads, with "-" for a space: a
// date (2026-09-14), a month (2026-09, march, may, march-2026), a year
// (2026), today, yesterday, last-week, this-month… and nothing else: a V
// with a word that names no time (2026-9-1, 2026-09-14T10:00, soon-2026)
// is an error, not a search of the part it could read. The zero When for
// neither.
//
//	SpanOf([{since 2026-09} {until 2026-10-05}], now) => [2026-09-01, 2026-10-06)
//	SpanOf([{since soon}], now) => error: since:soon names no time: …
func SpanOf(fs []Filter, now int64) (When, error) {
	var span When
	for _, f := range fs {
		if f.Name != "since" && f.Name != "until" {
			continue
		}
		// A value is read as after "in": since:may is May.
		w := When{}
		if timeWords(f.Value) {
			w = WhenOf("in "+f.Value, now)
		}
		if w.To == 0 {
			return When{}, errors.New(f.Name + ":" + saidBack(f.Said) + " names no time: give a date (2026-09-14), a month (2026-09 or march), a year (2026), today, yesterday, last-week or last-month")
		}
		if span.To == 0 {
			span = When{1, math.MaxInt64}
		}
		if f.Name == "since" {
			span.From = max(span.From, w.From)
		} else {
			span.To = min(span.To, w.To)
		}
	}
	if span.To != 0 && span.From >= span.To {
		return When{}, errors.New("since: is after until:: no time is between them")
	}
	return span, nil
}

// timeWords reports whether every "-"-separated word of a since: or until:
// value is one WhenOf reads as (part of) a time: a month's name, a year, a
// month's or a day's two digits, or today, yesterday, this, last, in, week,
// month, year.
func timeWords(v string) bool {
	if v == "" || len(v) > 64 {
		return false
	}
	for _, w := range strings.Split(v, "-") {
		switch {
		case w == "today", w == "yesterday", w == "this", w == "last", w == "in", w == "week", w == "month", w == "year":
		case civil.Month(w) > 0, yearOf(w) > 0:
		case len(w) == 2 && '0' <= w[0] && w[0] <= '9' && '0' <= w[1] && w[1] <= '9':
		default:
			return false
		}
	}
	return true
}

// saidBack is a value a caller gave, as an error says it back: redacted,
// then cut to a line (a since: of a megabyte is not said back whole).
func saidBack(v string) string {
	v, _ = redact.String(text.Whole(v, 4<<10))
	return text.Runes(v, 60)
}

// Within takes the since: and until: words out of a query memory_search
// is given (SpanOf reads them) and returns the rest. It reads a query of
// any size in one pass.
//
//	Within("flaky test since:2026-10", now) => "flaky test", [2026-10-01, ∞)
func Within(q string, now int64) (string, When, error) {
	var fs []Filter
	var rest []string
	for _, w := range strings.Fields(q) {
		if f, ok := filterOf(w, timeFilters); ok {
			fs = append(fs, f)
		} else {
			rest = append(rest, w)
		}
	}
	if fs == nil {
		return q, When{}, nil
	}
	span, err := SpanOf(fs, now)
	return strings.Join(rest, " "), span, err
}

// timeFilters are the filters SpanOf reads, for Parse.
var timeFilters = []string{"since", "until"}
