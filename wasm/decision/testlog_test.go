package decision

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// Decision logs as text for the tests: a whole log replayed, one event line.

// replay runs a whole log given as text through a reader, as the driver does.
func replay(t *testing.T, log string) (*state, cursor) {
	t.Helper()
	st := newState()
	var r reader
	cur, err := r.Replay(st, func(off int64, dst []byte) (int, error) {
		return copy(dst, log[off:]), nil
	}, cursor{}, int64(len(log)))
	require.NoError(t, err)
	return st, cur
}

// ev is one event line of the log: time, event code, id and data (JSON).
func ev(t, e, id, d string) string {
	return `{"v":1,"t":"` + t + `","p":"p1","e":"` + e + `","i":"` + id + `","d":` + d + `,"u":"user"}` + "\n"
}
