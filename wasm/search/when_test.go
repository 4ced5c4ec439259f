package search

import (
	"math"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

func TestWhenOfReadsTheTimeAQueryNames(t *testing.T) {
	at := civil.ParseTime("2026-11-29T09:00:00.000Z") // a Sunday
	d := func(s string) int64 { return civil.ParseTime(s + "T00:00:00.000Z") }
	tests := []struct {
		q        string
		from, to string // "" for none
	}{
		{"what did we decide in March", "2026-03-01", "2026-04-01"},
		{"the flaky test we fixed in September", "2026-09-01", "2026-10-01"},
		{"what happened in December", "2025-12-01", "2026-01-01"}, // the latest December that has begun
		{"the sept release", "2026-09-01", "2026-10-01"},
		{"March 2025 migration", "2025-03-01", "2025-04-01"},
		{"budget for 2025", "2025-01-01", "2026-01-01"},
		{"what broke yesterday", "2026-11-28", "2026-11-29"},
		{"today's deploy", "2026-11-29", "2026-11-30"},
		{"the bug from last week", "2026-11-16", "2026-11-23"},
		{"this week", "2026-11-23", "2026-11-30"},
		{"last month's invoices", "2026-10-01", "2026-11-01"},
		{"this year", "2026-01-01", "2027-01-01"},
		{"last year", "2025-01-01", "2026-01-01"},
		{"the outage on 2026-09-14", "2026-09-14", "2026-09-15"},
		{"the 2026-09 invoices", "2026-09-01", "2026-10-01"},
		{"since 2026-13", "", ""}, // no month 13
		{"between March and May 2026", "2026-03-01", "2026-06-01"},
		{"may we deploy", "", ""}, // "may" is a month only after "in" or before a year
		{"in may", "2026-05-01", "2026-06-01"},
		{"port 8080 on 13-40", "", ""}, // not a year, not a date
		{"the deploy policy", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			w := WhenOf(tt.q, at)
			if tt.from == "" {
				require.Equal(t, When{}, w)
				return
			}
			require.Equal(t, When{d(tt.from), d(tt.to)}, w)
		})
	}
	require.Equal(t, When{}, WhenOf("yesterday", 0), "no clock, no time")
	jan := civil.ParseTime("2027-01-10T12:00:00.000Z")
	require.Equal(t, When{d("2026-12-01"), d("2027-01-01")}, WhenOf("last month", jan), "last month in January")
	require.Equal(t, When{d("2026-03-01"), d("2026-04-01")}, WhenOf("in March", jan), "March in January")
}

// FuzzWhenOf: a query comes from the model or a person. Reading its time
// never panics, and a time it names is a span that starts before it ends.
func FuzzWhenOf(f *testing.F) {
	for _, s := range []string{"deploy since:2026-09 until:last-week", "since:may-2025 until:2026-09-14", "since:", "in March", "last week", "2026-09-14", "May 2025", "yesterday today", "2026-02-29", "in may", "march 1970 2199 2200", "-2026-01-01-", "last"} {
		f.Add(s, int64(1795737600000))
	}
	f.Fuzz(func(t *testing.T, q string, now int64) {
		w := WhenOf(q, now)
		if w != (When{}) && w.From >= w.To {
			t.Fatalf("%q at %d: empty span %v", q, now, w)
		}
		// since:/until: words (Within) read the same times: a span kept is
		// never empty, and the rest holds no such word.
		rest, span, err := Within(q, now)
		if err == nil && span != (When{}) && span.From >= span.To {
			t.Fatalf("%q at %d: empty since/until span %v", q, now, span)
		}
		// A word that only holds "since:" further in ("0since:") is a word.
		for _, word := range strings.Fields(strings.ToLower(rest)) {
			if err == nil && strings.HasPrefix(word, "since:") && span != (When{}) {
				t.Fatalf("%q: since: left in %q", q, rest)
			}
		}
	})
}

// A since: or until: value is a time and nothing else: a value WhenOf reads
// only a part of (a date not written with two digits, a date with a time of
// day, a word around a year) is an error, not a search of a wider time.
func TestSinceAndUntilReadOnlyAWholeTime(t *testing.T) {
	at := civil.ParseTime("2026-11-29T09:00:00.000Z")
	d := func(s string) int64 { return civil.ParseTime(s + "T00:00:00.000Z") }
	for _, tt := range []struct {
		v        string
		from, to string // "" for an error
	}{
		{"2026-09-14", "2026-09-14", "2026-09-15"},
		{"2026-09", "2026-09-01", "2026-10-01"},
		{"2026", "2026-01-01", "2027-01-01"},
		{"march-2026", "2026-03-01", "2026-04-01"},
		{"may", "2026-05-01", "2026-06-01"}, // a filter's May is the month
		{"may-2025", "2025-05-01", "2025-06-01"},
		{"last-week", "2026-11-16", "2026-11-23"},
		{"2024-02-29", "2024-02-29", "2024-03-01"},
		{"2199-12-31", "2199-12-31", "2200-01-01"},
		{"2026-9-1", "", ""},         // was the whole of 2026
		{"2026-09-14t10:00", "", ""}, // was September
		{"soon-2026", "", ""},        // was 2026
		{"-2026", "", ""},
		{"2026-02-29", "", ""},
		{"0000-01-01", "", ""},
		{"9999-12-31", "", ""},
		{"", "", ""},
		{"last", "", ""},
		{strings.Repeat("2026-", 20) + "2026", "", ""}, // a time is a few words
	} {
		t.Run(tt.v, func(t *testing.T) {
			span, err := SpanOf([]Filter{{Name: "since", Value: tt.v, Said: tt.v}}, at)
			if tt.from == "" {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, When{d(tt.from), math.MaxInt64}, span)
			span, err = SpanOf([]Filter{{Name: "until", Value: tt.v, Said: tt.v}}, at)
			require.NoError(t, err)
			require.Equal(t, When{1, d(tt.to)}, span)
		})
	}
}

// A value that is no time is said back redacted as it was written (a key
// lower-cased is no longer known by its shape) and cut to a line.
func TestSinceSaysBackNoSecretAndNoMegabyte(t *testing.T) {
	at := civil.ParseTime("2026-11-29T09:00:00.000Z")
	for _, q := range []string{
		"deploy since:AKIAIOSFODNN7EXAMPLE",
		"deploy until:eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
		"deploy since:" + strings.Repeat("x", 1<<20),
	} {
		_, _, err := Within(q, at)
		require.Error(t, err)
		require.True(t, len(err.Error()) < 300, "%d bytes", len(err.Error()))
		for _, secret := range []string{"iosfodnn7example", "sflkxwrj", "SflKxwRJ"} {
			require.NotContains(t, strings.ToLower(err.Error()), strings.ToLower(secret))
		}
	}
}

// Within reads a query of any size in one pass: a paste of 400,000 words
// took minutes when the rest was built a word at a time.
func TestWithinReadsAHugeQueryInOnePass(t *testing.T) {
	q := strings.Repeat("ab ", 400000) + "since:2026"
	rest, span, err := Within(q, civil.ParseTime("2026-11-29T09:00:00.000Z"))
	require.NoError(t, err)
	require.Equal(t, strings.TrimSpace(strings.Repeat("ab ", 400000)), rest)
	require.True(t, span.To > 0)
	rest, _, err = Within("deploy\u00a0since:2026\u3000frontend", 1)
	require.NoError(t, err)
	require.Equal(t, "deploy frontend", rest, "Unicode spaces part words, as strings.Fields")
}
