// Package testmod finds the WebAssembly modules the host's tests run on: the
// two builds of the core (make wasm) and the test-only probe module
// (host/testdata/probe), which it builds with the standard Go toolchain the
// tests already run on. Test support only.
package testmod

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
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

// Path returns the module's absolute path. A missing module, or one older than
// a source it is built from, fails the test: skipped, the host tests would pass
// without having run, and on a stale module they would test code that is no
// longer the core's.
func (m Module) Path(t testing.TB) string {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, m.Rel)
	if err := Current(root, p); err != nil {
		t.Fatalf("%s build of the core: %v", m.Name, err)
	}
	return p
}

// Current says what is wrong with the module at path: missing, or older than
// the newest of the sources make rebuilds it from (the non-test .go files under
// wasm/, go.mod, go.sum). Both errors end with what to do.
func Current(root, path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%s is missing: run `make wasm` in %s", path, root)
	}
	newest, when, err := newestSource(root)
	if err != nil {
		return err
	}
	if info.ModTime().Before(when) {
		return fmt.Errorf("%s is older than %s (changed %s): run `make wasm` in %s",
			path, newest, when.Format(time.DateTime), root)
	}
	return nil
}

// newestSource finds the most recently modified source of the core (a walk
// over about a hundred files: no need to cache it).
func newestSource(root string) (newest string, when time.Time, err error) {
	consider := func(path string, info fs.FileInfo) {
		if info.ModTime().After(when) {
			newest, when = path, info.ModTime()
		}
	}
	err = filepath.WalkDir(filepath.Join(root, "wasm"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		info, err := d.Info()
		if err == nil {
			consider(path, info)
		}
		return err
	})
	for _, name := range []string{"go.mod", "go.sum"} {
		info, statErr := os.Stat(filepath.Join(root, name))
		if statErr != nil {
			err = errors.Join(err, statErr)
			continue
		}
		consider(filepath.Join(root, name), info)
	}
	return newest, when, err
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
