package require

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder stands in for a test: it keeps what a helper reported instead of
// stopping.
type recorder struct {
	testing.TB
	failure string
	failed  bool
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.failure = true, fmt.Sprintf(format, args...)
}

func TestEachHelperFailsExactlyWhenItsConditionDoesNotHold(t *testing.T) {
	wrapped := fmt.Errorf("reading: %w", fs.ErrNotExist)
	tests := []struct {
		name string
		call func(t testing.TB)
		want string // "" when the helper must pass
	}{
		{"NoError passes nil", func(t testing.TB) { NoError(t, nil) }, ""},
		{"NoError fails an error", func(t testing.TB) { NoError(t, errors.New("boom")) }, "unexpected error: boom"},
		{"Error passes an error", func(t testing.TB) { Error(t, errors.New("boom")) }, ""},
		{"Error fails nil", func(t testing.TB) { Error(t, nil) }, "expected an error, got none"},
		{"ErrorIs passes a wrapped target", func(t testing.TB) { ErrorIs(t, wrapped, fs.ErrNotExist) }, ""},
		{"ErrorIs fails another error", func(t testing.TB) { ErrorIs(t, wrapped, fs.ErrExist) },
			`expected error "file already exists", got reading: file does not exist`},
		{"Equal passes deeply equal values", func(t testing.TB) { Equal(t, []string{"a"}, []string{"a"}) }, ""},
		{"Equal fails different values", func(t testing.TB) { Equal(t, 1, 2) }, "expected 1, got 2"},
		{"Equal fails equal numbers of different types", func(t testing.TB) { Equal(t, 1, int64(1)) }, "expected 1, got 1"},
		{"Equal compares bytes as bytes", func(t testing.TB) { Equal(t, []byte(nil), []byte{}) }, ""},
		{"Equal fails different bytes", func(t testing.TB) { Equal(t, []byte("a"), []byte("b")) }, `expected []byte{0x61}, got []byte{0x62}`},
		{"Equal fails bytes against a string", func(t testing.TB) { Equal(t, []byte("a"), "a") }, `expected []byte{0x61}, got "a"`},
		{"True passes true", func(t testing.TB) { True(t, true) }, ""},
		{"True fails false", func(t testing.TB) { True(t, false) }, "expected true"},
		{"False passes false", func(t testing.TB) { False(t, false) }, ""},
		{"False fails true", func(t testing.TB) { False(t, true) }, "expected false"},
		{"Contains passes a substring", func(t testing.TB) { Contains(t, "abc", "b") }, ""},
		{"Contains fails a missing substring", func(t testing.TB) { Contains(t, "abc", "d") }, `expected "abc" to contain "d"`},
		{"NotContains passes a missing substring", func(t testing.TB) { NotContains(t, "abc", "d") }, ""},
		{"NotContains fails a substring", func(t testing.TB) { NotContains(t, "abc", "b") }, `expected "abc" not to contain "b"`},
		{"a message is a format and its arguments", func(t testing.TB) { True(t, false, "line %d of %s", 3, "x.md") }, "expected true: line 3 of x.md"},
		{"a message of other values is printed as fmt.Sprint does", func(t testing.TB) { True(t, false, 3, 4) }, "expected true: 3 4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			tc.call(r)
			if tc.want == "" {
				if r.failed {
					t.Fatalf("failed with %q, want a pass", r.failure)
				}
				return
			}
			if !r.failed {
				t.Fatalf("passed, want a failure %q", tc.want)
			}
			if r.failure != tc.want {
				t.Fatalf("failure %q, want %q", r.failure, tc.want)
			}
		})
	}
}

// The core's tests import this package and internal/relevance; the module
// must not: it would link testing and reflect into every build of core.wasm.
func TestTheCoreModuleLinksNoTestSupport(t *testing.T) {
	gotool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gotool); err != nil {
		gotool = "go"
	}
	cmd := exec.Command(gotool, "list", "-deps", "github.com/pi-memory/pi-memory/wasm")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./wasm: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps ./wasm listed only %q", deps)
	}
	for _, d := range deps {
		if d == "testing" || strings.HasSuffix(d, "/internal/require") || strings.HasSuffix(d, "/internal/relevance") {
			t.Fatalf("the core module depends on %s", d)
		}
	}
}
