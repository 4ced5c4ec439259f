// Package require holds the assertions every Go test in this repository uses
// (the core's in wasm/ and the hosts' in host/), so tests read as plain Go
// without a test framework. Each helper stops the test on failure, reports the
// caller's line, and takes an optional message: a format and its arguments, or
// values to print.
//
// Test support only: it imports testing and reflect, and nothing the core
// module links may import it (TestTheCoreModuleLinksNoTestSupport checks).
package require

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// NoError fails when err is not nil.
func NoError(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v%s", err, context(msg))
	}
}

// Error fails when err is nil.
func Error(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err == nil {
		t.Fatalf("expected an error, got none%s", context(msg))
	}
}

// ErrorIs fails unless errors.Is(err, target).
func ErrorIs(t testing.TB, err, target error, msg ...any) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("expected error %q, got %v%s", target, err, context(msg))
	}
}

// Equal fails unless want and got are deeply equal ([]byte compared as bytes,
// so nil and empty are equal).
func Equal(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	if wb, ok := want.([]byte); ok {
		if gb, ok := got.([]byte); ok && bytes.Equal(wb, gb) {
			return
		}
	} else if reflect.DeepEqual(want, got) {
		return
	}
	t.Fatalf("expected %#v, got %#v%s", want, got, context(msg))
}

// True fails when cond is false.
func True(t testing.TB, cond bool, msg ...any) {
	t.Helper()
	if !cond {
		t.Fatalf("expected true%s", context(msg))
	}
}

// False fails when cond is true.
func False(t testing.TB, cond bool, msg ...any) {
	t.Helper()
	if cond {
		t.Fatalf("expected false%s", context(msg))
	}
}

// Contains fails unless s contains sub.
func Contains(t testing.TB, s, sub string, msg ...any) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Fatalf("expected %q to contain %q%s", s, sub, context(msg))
	}
}

// NotContains fails when s contains sub.
func NotContains(t testing.TB, s, sub string, msg ...any) {
	t.Helper()
	if strings.Contains(s, sub) {
		t.Fatalf("expected %q not to contain %q%s", s, sub, context(msg))
	}
}

// context renders the optional message: a format and its arguments when the
// first value is a string, else the values as fmt.Sprint prints them.
func context(msg []any) string {
	if len(msg) == 0 {
		return ""
	}
	if f, ok := msg[0].(string); ok {
		return ": " + fmt.Sprintf(f, msg[1:]...)
	}
	return ": " + fmt.Sprint(msg...)
}
