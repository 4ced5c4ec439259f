//go:build tinygo

package hindsight

import "runtime"

// collect runs TinyGo's collector now, where nothing waits for it: it would
// otherwise run inside whichever later call first finds the heap full.
func collect() { runtime.GC() }
