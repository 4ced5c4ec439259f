//go:build wasip1 && tinygo

package main

// yield has nothing to do under TinyGo: the module is built without a
// scheduler (-scheduler=none), and its collector runs inside the call that
// allocates.
func yield() {}
