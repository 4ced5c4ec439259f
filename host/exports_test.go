package host

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/lifecycle"
	"github.com/tetratelabs/wazero"
)

// A host that calls an export the module lacks fails only when a person
// reaches that call (argument completion did, on every key typed). Both
// builds must export every name the engine answers.
func TestBothBuildsExportEveryExportTheEngineAnswers(t *testing.T) {
	ctx := context.Background()
	for _, core := range testmod.Cores {
		t.Run(core.Name, func(t *testing.T) {
			data, err := os.ReadFile(core.Path(t))
			require.NoError(t, err)
			rt := wazero.NewRuntime(ctx)
			defer rt.Close(ctx)
			m, err := rt.CompileModule(ctx, data)
			require.NoError(t, err)
			have := m.ExportedFunctions()
			for _, name := range lifecycle.Exports {
				if _, ok := have[name]; !ok {
					t.Errorf("%s does not export %q, which lifecycle.Exports lists", core.Rel, name)
				}
			}
		})
	}
}

// callSite is an export named where the host calls the core.
var callSite = regexp.MustCompile(`\b(?:Call|CallContext|Run|run|call|startCall|drive)\((?:[a-zA-Z.]+, )?"([a-z_]+)"`)

// Every export the Go host and pimem call by name is one the module has.
func TestTheHostCallsOnlyTheModulesExports(t *testing.T) {
	seen := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range callSite.FindAllSubmatch(src, -1) {
			seen++
			if !slices.Contains(lifecycle.Exports, string(m[1])) {
				t.Errorf("%s calls the export %q, which the module does not have (lifecycle.Exports)", p, m[1])
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.True(t, seen >= 10, "found only %d call sites: has the host's way of calling the core changed? Update callSite", seen)
}
