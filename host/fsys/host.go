package fsys

import (
	"crypto/rand"
	"io"

	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// NewHost is the hostio.Host the core's lifecycle engine needs, over fs, so
// native Go tests drive the engine on exactly the files and semantics the
// WebAssembly host gives it:
//
//	engine := lifecycle.New(fsys.NewHost(fsys.NewMem(clock), clock, rnd, nil))
//
// A nil clock is Real, a nil rnd is crypto/rand, a nil log discards.
// log receives hostio levels (0 debug … 3 error).
func NewHost(fs FS, clock Clock, rnd io.Reader, log func(level int, msg string)) hostio.Host {
	if clock == nil {
		clock = Real{}
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	if log == nil {
		log = func(int, string) {}
	}
	return &nativeHost{FS: fs, clock: clock, rnd: rnd, log: log}
}

type nativeHost struct {
	FS
	clock Clock
	rnd   io.Reader
	log   func(int, string)
}

func (h *nativeHost) Now() int64 { return h.clock.Now().UnixMilli() }

// Random panics if the source fails: hostio.Host gives the core no way to
// handle it, and ids built from short reads would collide.
func (h *nativeHost) Random(dst []byte) {
	if _, err := io.ReadFull(h.rnd, dst); err != nil {
		panic("fsys: random source failed: " + err.Error())
	}
}

func (h *nativeHost) Log(level hostio.Level, msg string) { h.log(int(level), msg) }
