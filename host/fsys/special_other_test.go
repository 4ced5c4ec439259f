//go:build !unix

package fsys_test

import (
	"testing"

	"github.com/pi-memory/pi-memory/host/fsys"
)

func makeSpecial(t *testing.T, _ string, s fsys.Special) {
	t.Skipf("a %s has no path in this system's file system", s)
}
