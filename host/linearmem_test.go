package host

import (
	"testing"
	"unsafe"

	"github.com/pi-memory/pi-memory/internal/require"
)

// The core's memory grows in place: the same bytes, never copied, up to its
// max and no further; the fallback grows the same way a slice does.
func TestLinearMemoryGrowsInPlaceUpToItsMax(t *testing.T) {
	const page = 64 << 10
	for name, m := range map[string]interface {
		Reallocate(uint64) []byte
		Free()
	}{"reserved": linearMemory().Allocate(page, 1024*page), "slice": &sliceMemory{max: 1024 * page}} {
		a := m.Reallocate(2 * page)
		require.Equal(t, 2*page, len(a), name)
		a[0], a[len(a)-1] = 7, 9
		b := m.Reallocate(300 * page)
		require.Equal(t, 300*page, len(b), name)
		require.Equal(t, byte(7), b[0], name)
		require.Equal(t, byte(9), b[2*page-1], name)
		require.Equal(t, byte(0), b[len(b)-1], "new memory is zero: %s", name)
		if name == "reserved" {
			require.True(t, unsafe.SliceData(a) == unsafe.SliceData(b), "the reserved memory never moves")
		}
		require.True(t, m.Reallocate(1025*page) == nil, "past max: %s", name)
		m.Free()
	}
}
