package fsys

import (
	"runtime"
	"sync"
	"time"
)

// Clock is where a host gets the time: pm_now, Mem's mtimes, and Mem's lock
// waits. Tests use a Manual clock so time only moves when they say so.
type Clock interface {
	Now() time.Time
	// Sleep waits d; a Manual clock advances itself by d instead.
	Sleep(d time.Duration)
}

// Real is the system clock.
type Real struct{}

func (Real) Now() time.Time        { return time.Now() }
func (Real) Sleep(d time.Duration) { time.Sleep(d) }

// Manual is a clock that moves only when told to (Set, Advance, or Sleep,
// which advances it at once). Safe for concurrent use.
//
//	c := NewManual(time.UnixMilli(1_700_000_000_000))
//	c.Advance(time.Second) // c.Now().UnixMilli() == 1_700_000_001_000
type Manual struct {
	mu  sync.Mutex
	now time.Time
}

// NewManual returns a Manual clock showing t.
func NewManual(t time.Time) *Manual { return &Manual{now: t} }

func (c *Manual) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t (backwards too).
func (c *Manual) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// Advance moves the clock forward by d.
func (c *Manual) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Sleep advances the clock by d without waiting, so a lock wait under a
// Manual clock finishes instantly and deterministically. It yields so other
// goroutines still get to run between a waiter's tries.
func (c *Manual) Sleep(d time.Duration) {
	c.Advance(d)
	runtime.Gosched()
}
