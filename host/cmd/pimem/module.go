package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-memory/pi-memory/host"
)

// findModule is where the core comes from, first found wins: --wasm,
// $PIMEM_WASM, core.wasm beside the pimem executable (an installed pimem),
// ts/core.wasm in a folder above it (a pimem built inside the repository).
func findModule(flagPath string) (string, error) {
	if flagPath != "" {
		if why := notFile(flagPath); why != "" {
			return "", usageError{"--wasm " + flagPath + ": " + why}
		}
		return flagPath, nil
	}
	if env := os.Getenv("PIMEM_WASM"); env != "" {
		if why := notFile(env); why != "" {
			return "", fmt.Errorf("PIMEM_WASM=%s: %s; fix or unset it", env, why)
		}
		return env, nil
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return "", fmt.Errorf("cannot find the core module: cannot locate the pimem executable (%v); pass --wasm PATH", err)
	}
	dir := filepath.Dir(exe)
	tried := []string{filepath.Join(dir, "core.wasm")}
	if isFile(tried[0]) {
		return tried[0], nil
	}
	for d := dir; ; {
		p := filepath.Join(d, "ts", "core.wasm")
		if isFile(p) {
			return p, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if embeddedCore != nil {
		return unpackCore(embeddedCore)
	}
	tried = append(tried, filepath.Join(dir, "ts", "core.wasm")+" and in every folder above")
	return "", errors.New("cannot find the core module; looked for " + strings.Join(tried, ", ") +
		". Pass --wasm PATH or set PIMEM_WASM (in the repository, `make wasm` builds ts/core.wasm)")
}

// moduleSHA256 is the SHA-256 of the module file in hex: what pimem tells
// the core at session_start and prints with --version.
func moduleSHA256(p string) (string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("cannot read the core module: %w", err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

func isFile(p string) bool { return notFile(p) == "" }

// notFile says why p is not a module file to read, "" when it is one.
func notFile(p string) string {
	switch fi, err := os.Stat(p); {
	case errors.Is(err, os.ErrNotExist):
		return "no such file"
	case err != nil:
		return "cannot be read (" + err.Error() + ")"
	case !fi.Mode().IsRegular():
		return "not a regular file (a folder, a device or a FIFO)"
	}
	return ""
}

// newRuntime compiles the module, with wazero's cache on disk when a cache
// folder can be had: without it, each run of pimem recompiles the module.
func newRuntime(ctx context.Context, wasm string) (*host.Runtime, error) {
	if dir := cacheDir(); dir != "" {
		if rt, err := host.NewRuntimeFromFile(ctx, wasm, host.Options{CacheDir: dir}); err == nil {
			return rt, nil
		}
	}
	return host.NewRuntimeFromFile(ctx, wasm, host.Options{})
}

// cacheBase is $XDG_CACHE_HOME/pi-memory, else ~/.cache/pi-memory; "" with
// neither.
func cacheBase() string {
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "pi-memory")
}

// cacheDir is wazero's compiled-code cache under cacheBase, "" when there
// is none.
func cacheDir() string {
	base := cacheBase()
	if base == "" {
		return ""
	}
	dir := filepath.Join(base, "wazero")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ""
	}
	return dir
}

// unpackCore writes the module a release binary carries to the cache, once
// per module (named by its SHA-256, written atomically), and returns its
// path: the runtime, its compiled-code cache and --version read a file.
func unpackCore(module []byte) (string, error) {
	sum := sha256.Sum256(module)
	base := cacheBase()
	if base == "" {
		base = filepath.Join(os.TempDir(), "pi-memory")
	}
	dir := filepath.Join(base, "core")
	file := filepath.Join(dir, "core-"+hex.EncodeToString(sum[:6])+".wasm")
	if b, err := os.ReadFile(file); err == nil && bytes.Equal(b, module) {
		return file, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot unpack the core module this pimem carries: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".core-*.wasm")
	if err != nil {
		return "", fmt.Errorf("cannot unpack the core module this pimem carries: %w", err)
	}
	_, werr := tmp.Write(module)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), file)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("cannot unpack the core module this pimem carries: %w", werr)
	}
	return file, nil
}
