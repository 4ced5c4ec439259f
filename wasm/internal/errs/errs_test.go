package errs

import (
	"errors"
	"testing"
)

type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

type kind struct{ name string }

func (k *kind) Error() string { return k.name }

var (
	errA = errors.New("a")
	errB = errors.New("b")
)

func TestIsAndAsAgreeWithTheStandardLibraryOnChains(t *testing.T) {
	k := &kind{"k"}
	cases := []struct {
		name string
		err  error
	}{
		{"nil", nil},
		{"the sentinel", errA},
		{"another sentinel", errB},
		{"wrapped once", &wrapped{"w", errA}},
		{"wrapped twice", &wrapped{"w1", &wrapped{"w2", errA}}},
		{"wrapped nil", &wrapped{"w", nil}},
		{"a typed error", k},
		{"a typed error wrapped", &wrapped{"w", k}},
		{"wrapped by fmt-style %w", errors.Join(errA)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, target := range []error{errA, errB} {
				// errors.Join's Unwrap() []error is outside our chains: only the direct case counts.
				want := errors.Is(c.err, target)
				if _, multi := c.err.(interface{ Unwrap() []error }); multi {
					want = c.err == target
				}
				if got := Is(c.err, target); got != want {
					t.Errorf("Is(%v, %v) = %v, want %v", c.err, target, got, want)
				}
			}
			var std *kind
			wantOK := errors.As(c.err, &std)
			got, ok := As[*kind](c.err)
			if ok != wantOK || got != std {
				t.Errorf("As = %v %v, want %v %v", got, ok, std, wantOK)
			}
		})
	}
}
