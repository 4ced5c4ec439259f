//go:build wasip1 && tinygo

package main

import "unsafe"

//go:wasmimport wasi_snapshot_preview1 random_get
func wasiRandomGet(buf unsafe.Pointer, n uint32) uint32

// arc4random stands in for wasi-libc's, which TinyGo's runtime calls to seed
// its random state: libc's version reaches fprintf through its assert, about
// 20 KB of stdio and printf in a module that never prints (decision 009).
// WASI's random_get is what libc's calls underneath.
//
//export arc4random
func arc4random() uint32 {
	var v uint32
	wasiRandomGet(unsafe.Pointer(&v), 4)
	return v
}
