// Package testmod finds the WebAssembly modules the host's tests run on: the
// two builds of the core (make wasm) and the test-only probe module
// (host/testdata/probe), which it builds with the standard Go toolchain the
// tests already run on. Test support only.
package testmod

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// Module is one build of the core.
type Module struct {
	Name string // "tinygo" or "go"
	Rel  string // path from the repository root
}

// Cores are the two builds every host test runs on.
var Cores = []Module{
	{Name: "tinygo", Rel: "ts/core.wasm"},
	{Name: "go", Rel: "build/out/core-go.wasm"},
}

// Path returns the module's absolute path, or skips the test, saying how to
// build it, when the file is missing.
func (m Module) Path(t testing.TB) string {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, m.Rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("core module %s (%s build) is missing: run `make wasm` in %s first", m.Rel, m.Name, root)
	}
	return p
}

// RepoRoot is the folder holding go.mod, found from the working directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("testmod: no go.mod above the working directory")
		}
		dir = parent
	}
}

var probe struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Probe builds host/testdata/probe once per test process and returns the
// module's path. Call Cleanup from TestMain to remove it.
func Probe(t testing.TB) string {
	t.Helper()
	probe.once.Do(func() {
		root, err := RepoRoot()
		if err != nil {
			probe.err = err
			return
		}
		probe.dir, probe.err = os.MkdirTemp("", "pimem-probe-")
		if probe.err != nil {
			return
		}
		out := filepath.Join(probe.dir, "probe.wasm")
		cmd := exec.Command(GoTool(), "build", "-buildmode=c-shared", "-o", out, "./host/testdata/probe")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if msg, err := cmd.CombinedOutput(); err != nil {
			probe.err = fmt.Errorf("testmod: building the probe module: %v\n%s", err, msg)
			return
		}
		probe.path = out
	})
	if probe.err != nil {
		t.Fatal(probe.err)
	}
	return probe.path
}

// Cleanup removes what Probe built.
func Cleanup() {
	if probe.dir != "" {
		os.RemoveAll(probe.dir)
	}
}

// GoTool is the go command of the toolchain running the tests.
func GoTool() string {
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return "go"
}
