package search

import (
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
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
//   - a date, "2026-09-14".
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
	const day = 86400000
	today := civil.FloorDiv(now, day)
	y, m, _ := civil.Date(today)
	month := func(y, m int) {
		w.add(civil.Days(y, m, 1)*day, (civil.Days(y, m, 1)+int64(civil.DaysIn(y, m)))*day)
	}
	var words [3]string // the word before, this one, the next
	var sp splitter
	next := func(word string) {
		prev, cur := words[0], words[1]
		words[0], words[1] = cur, word
		switch cur {
		case "":
			return
		case "today":
			w.add(today*day, (today+1)*day)
		case "yesterday":
			w.add((today-1)*day, today*day)
		case "week":
			if prev == "this" {
				w.add((today-6)*day, (today+1)*day)
			} else if prev == "last" {
				w.add((today-13)*day, (today-6)*day)
			}
		case "month":
			if prev == "this" {
				month(y, m)
			} else if prev == "last" {
				month(prevMonth(y, m))
			}
		case "year":
			if prev == "this" {
				w.add(civil.Days(y, 1, 1)*day, civil.Days(y+1, 1, 1)*day)
			} else if prev == "last" {
				w.add(civil.Days(y-1, 1, 1)*day, civil.Days(y, 1, 1)*day)
			}
		default:
			if mm := civil.Month(cur); mm > 0 && cur != "may" || cur == "may" && (prev == "in" || yearOf(word) > 0) {
				if mm == 0 {
					mm = 5
				}
				yy := yearOf(word)
				if yy == 0 {
					yy = y
					if mm > m {
						yy-- // the latest one that has begun
					}
				}
				month(yy, mm)
			} else if yy := yearOf(cur); yy > 0 && civil.Month(prev) == 0 {
				w.add(civil.Days(yy, 1, 1)*day, civil.Days(yy+1, 1, 1)*day)
			}
		}
	}
	// Words as written, lower-cased, hyphens kept apart: a date is three
	// of them ("2026", "09", "14").
	var run []string
	sp.raw(q, func(s string, start, end int) {
		if len(run) >= 2 && end-start == 2 && start > 0 && q[start-1] == '-' && len(run[len(run)-1]) == 2 &&
			len(run[len(run)-2]) == 4 && yearOf(run[len(run)-2]) > 0 {
			mm, ok1 := civil.Digits(run[len(run)-1])
			dd, ok2 := civil.Digits(s)
			yy := yearOf(run[len(run)-2])
			if ok1 && ok2 && mm >= 1 && mm <= 12 && dd >= 1 && dd <= civil.DaysIn(yy, mm) {
				d := civil.Days(yy, mm, dd)
				w.add(d*day, (d+1)*day)
				run = run[:len(run)-2]
				return
			}
		}
		run = append(run, string([]byte(s)))
	})
	for _, s := range run {
		next(s)
	}
	next("")
	next("")
	return w
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

func prevMonth(y, m int) (int, int) {
	if m == 1 {
		return y - 1, 12
	}
	return y, m - 1
}
