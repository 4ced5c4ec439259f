package main

import (
	"context"
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
// exit code (128 + its number, as a shell reports a signal). stopped is done
// at the first signal: the requests out are aborted and no other is sent (an
// import must neither go on through every session nor wait for a server that
// hangs; what the server answered is recorded, and the next run resumes).
func finishOnSignal(stderr io.Writer) (stopped context.Context, stop func() (syscall.Signal, bool)) {
	ch := make(chan os.Signal, 2)
	stopped, abort := context.WithCancel(context.Background())
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	var got atomic.Int32
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			got.Store(int32(s.(syscall.Signal)))
			abort()
			fmt.Fprintf(stderr, "pimem: %v: finishing what is being written first, sending nothing more; send it again to stop at once\n", s)
		case <-done:
			return
		}
		select {
		case s := <-ch:
			os.Exit(128 + int(s.(syscall.Signal)))
		case <-done:
		}
	}()
	return stopped, func() (syscall.Signal, bool) {
		close(done)
		abort()
		signal.Stop(ch)
		n := got.Load()
		return syscall.Signal(n), n != 0
	}
}
