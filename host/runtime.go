// Package host runs the pi-memory core module on wazero, through Extism's Go
// SDK, for tests, benchmarks and the pimem CLI. It implements the contract of
// docs/decisions/001-core-host-contract.md from the host side: the imports in
// extism:host/user over an fsys.FS, the exports' JSON envelopes, the loss and
// recreation of an instance after a trap, and (Driver) the effect loop of a
// host without a UI or a model.
//
// It translates and never decides: what to read, write, inject or answer is
// the core's call. A memory rule found here is a bug.
package host

import (
	"context"
	"fmt"
	"os"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero"
)

// Options tune how a Runtime compiles the module.
type Options struct {
	// CacheDir, if not empty, keeps wazero's compiled code on disk, keyed by
	// the module's bytes: the standard-Go build takes about a second to
	// compile, tens of milliseconds from the cache.
	CacheDir string
}

// Runtime is the core module compiled once; it makes any number of Instances.
// Safe for concurrent use.
type Runtime struct {
	compiled *extism.CompiledPlugin
	cache    wazero.CompilationCache
}

// NewRuntimeFromFile compiles the module at path.
func NewRuntimeFromFile(ctx context.Context, path string, opts Options) (*Runtime, error) {
	wasm, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("host: read core module: %w", err)
	}
	rt, err := NewRuntime(ctx, wasm, opts)
	if err != nil {
		return nil, fmt.Errorf("%w (module %s)", err, path)
	}
	return rt, nil
}

// NewRuntime compiles wasm. Imports are resolved when an Instance is made,
// so a module asking for an import this host lacks fails there.
func NewRuntime(ctx context.Context, wasm []byte, opts Options) (*Runtime, error) {
	rc := wazero.NewRuntimeConfig()
	var cache wazero.CompilationCache
	if opts.CacheDir != "" {
		c, err := wazero.NewCompilationCacheWithDir(opts.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("host: compilation cache %s: %w", opts.CacheDir, err)
		}
		cache = c
		rc = rc.WithCompilationCache(c)
	}
	manifest := extism.Manifest{Wasm: []extism.Wasm{extism.WasmData{Data: wasm}}}
	// EnableWasi gives the Go and TinyGo runtimes what they need to start;
	// with no mounts it grants no file-system authority: all files go
	// through the contract's imports.
	compiled, err := extism.NewCompiledPlugin(ctx, manifest, extism.PluginConfig{
		RuntimeConfig: rc,
		EnableWasi:    true,
	}, hostFunctions())
	if err != nil {
		if cache != nil {
			cache.Close(ctx)
		}
		return nil, fmt.Errorf("host: compile core module: %w", err)
	}
	return &Runtime{compiled: compiled, cache: cache}, nil
}

// Close releases the compiled module; its Instances stop working.
func (r *Runtime) Close(ctx context.Context) error {
	err := r.compiled.Close(ctx)
	if r.cache != nil {
		r.cache.Close(ctx)
	}
	return err
}
