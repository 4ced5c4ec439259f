package decision

import (
	"reflect"
	"testing"
)

// A tiny in-repo require helper, in the spirit of wazero's.
func eq(t *testing.T, got, want any, what string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %#v, want %#v", what, got, want)
	}
}

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// replay runs a whole log given as text through a Reader, as the lifecycle does.
func replay(t *testing.T, log string) (*State, Cursor) {
	t.Helper()
	st := NewState()
	var r Reader
	cur, err := r.Replay(st, func(off int64, dst []byte) (int, error) {
		return copy(dst, log[off:]), nil
	}, Cursor{}, int64(len(log)))
	noErr(t, err)
	return st, cur
}

func ev(t, e, id, d string) string {
	return `{"v":1,"t":"` + t + `","p":"p1","e":"` + e + `","i":"` + id + `","d":` + d + `,"u":"user"}` + "\n"
}
