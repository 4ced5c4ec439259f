//go:build !wasip1

package main

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/lifecycle"
)

// An export the engine answers but main.go does not export is a call every
// host fails with "no such export" (the adapter's argument completion did,
// on every key typed after /memory).
func TestTheModuleExportsExactlyWhatTheEngineAnswers(t *testing.T) {
	src, err := os.ReadFile("main.go")
	require.NoError(t, err)
	var exported []string
	for _, m := range regexp.MustCompile(`(?m)^//go:wasmexport (\S+)$`).FindAllSubmatch(src, -1) {
		exported = append(exported, string(m[1]))
	}
	want := slices.Clone(lifecycle.Exports)
	slices.Sort(want)
	slices.Sort(exported)
	require.Equal(t, want, exported, "wasm/main.go's //go:wasmexport lines against lifecycle.Exports")
}
