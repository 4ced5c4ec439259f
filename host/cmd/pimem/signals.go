package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// finishOnSignal lets a command finish what it is writing when pimem is
// asked to stop (SIGINT, SIGTERM, SIGHUP): killed mid-write it would leave
// its lock, which the next writer waits on until it is stale, and a temp
// file. The first signal is said on stderr and remembered; a second one ends
// pimem at once. stop releases the signals and says which one came, for the
// exit code (128 + its number, as a shell reports a signal).
func finishOnSignal(stderr io.Writer) (stop func() (syscall.Signal, bool)) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	var got atomic.Int32
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			got.Store(int32(s.(syscall.Signal)))
			fmt.Fprintf(stderr, "pimem: %v: finishing what is being written first; send it again to stop at once\n", s)
		case <-done:
			return
		}
		select {
		case s := <-ch:
			os.Exit(128 + int(s.(syscall.Signal)))
		case <-done:
		}
	}()
	return func() (syscall.Signal, bool) {
		close(done)
		signal.Stop(ch)
		n := got.Load()
		return syscall.Signal(n), n != 0
	}
}
