//go:build wasip1 && !tinygo

package main

import "runtime"

// yield gives the standard Go runtime's other goroutines their turn before an
// export returns. Its collector marks in background goroutines, which run only
// when the goroutine of an export gives way, and an export never blocks: a
// collection started during a call could stay unfinished for many calls while
// the heap grew (15 /memory verify runs of a 5,000-line index ended at 34 MiB
// of linear memory with no collection finished; 19.5 MiB with this).
func yield() { runtime.Gosched() }
