//go:build !wasip1

// Command wasm is the pi-memory core; build it for WebAssembly (make wasm).
// Natively it does nothing: tests drive the lifecycle package directly.
package main

func main() {}
