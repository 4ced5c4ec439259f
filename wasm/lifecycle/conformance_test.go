package lifecycle_test

import (
	"flag"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/conformance"
	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/wasm/lifecycle"
)

var update = flag.Bool("update", false, "rewrite testdata/conformance/*/expected.json from the native engine (review every diff: the fixtures are the spec)")

// TestConformance runs the shared fixtures (testdata/conformance) on the
// engine compiled natively, over the real disk, as host/conformance_test.go
// and ts/test/conformance.test.ts run them on the WebAssembly builds.
func TestConformance(t *testing.T) {
	conformance.Run(t, *update, func(t *testing.T, c *conformance.Case, s *conformance.Sandbox) conformance.Call {
		clock := fsys.NewManual(time.UnixMilli(c.NowMs()))
		e := lifecycle.New(fsys.NewHost(fsys.NewOS(), clock, conformance.Random{}, func(level int, msg string) { t.Logf("log %d: %s", level, msg) }))
		return func(export string, input []byte) ([]byte, error) { return e.Handle(export, input), nil }
	})
}
