package host

import (
	"bytes"
	"strconv"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/conformance"
	"github.com/pi-memory/pi-memory/host/fsys"
)

// TestConformance runs the shared fixtures (testdata/conformance) on both
// builds of the module through this host, over the real disk. Their
// expected.json comes from the native engine (wasm/lifecycle): any difference
// here is a difference between the module and the native core, or a host bug.
func TestConformance(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		conformance.Run(t, false, func(t *testing.T, c *conformance.Case, s *conformance.Sandbox) conformance.Call {
			i := newInstance(t, rt, Config{
				FS:     fsys.NewOS(),
				Clock:  fsys.NewManual(time.UnixMilli(c.NowMs())),
				Random: conformance.Random{},
				Log:    func(level int, msg string) { t.Logf("log %d: %s", level, msg) },
			})
			return func(export string, input []byte) ([]byte, error) {
				env, err := i.Call(export, input)
				if err != nil {
					return nil, err
				}
				return envelopeJSON(env), nil
			}
		})
	})
}

// envelopeJSON writes a parsed envelope back as JSON: the effects exactly as
// the core wrote them, and the exit code as this host read it.
func envelopeJSON(env Envelope) []byte {
	var b bytes.Buffer
	b.WriteString(`{"v":1,"effects":[`)
	for i, e := range env.Effects {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(e.Raw)
	}
	b.WriteString(`],"exit":` + strconv.Itoa(env.Exit) + `}`)
	return b.Bytes()
}
