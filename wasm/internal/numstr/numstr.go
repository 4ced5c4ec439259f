// Package numstr writes numbers as text out of line.
package numstr

import "strconv"

// Itoa is strconv.Itoa kept out of line: TinyGo inlined a copy of it at
// each of its hundreds of call sites (docs/decisions/009-module-size.md).
//
//go:noinline
func Itoa(i int) string { return strconv.Itoa(i) }
