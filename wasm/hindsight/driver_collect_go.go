//go:build !tinygo

package hindsight

// collect does nothing under the standard Go runtime, whose collector is
// paced and marks in the background (wasm/yield_go.go): a forced full
// collection would cost more than it saves.
func collect() {}
