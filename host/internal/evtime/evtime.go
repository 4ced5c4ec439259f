// Package evtime reads and writes times as decision events hold them
// ("2026-02-27T06:00:00.000Z", docs/formats.md), for the host's test data
// and tests, with Go's time package; the core has its own reader and
// writer (wasm/internal/civil), which does without it.
package evtime

import "time"

// Ms is the Unix milliseconds of an RFC 3339 time; it panics on anything
// else (a test's or generator's constant).
func Ms(s string) int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UnixMilli()
}

// Stamp writes Unix milliseconds as an event's time.
func Stamp(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z") }

// Day is the UTC calendar day of a time, as decision ids use it.
func Day(ms int64) string { return Stamp(ms)[:10] }
