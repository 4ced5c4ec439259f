package testmod

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/internal/require"
)

// tree writes files under a temp root, each modified at base plus its offset.
func tree(t *testing.T, base time.Time, files map[string]time.Duration) string {
	t.Helper()
	root := t.TempDir()
	for rel, offset := range files {
		p := filepath.Join(root, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o644))
		when := base.Add(offset)
		require.NoError(t, os.Chtimes(p, when, when))
	}
	return root
}

func TestCurrentFailsOnAMissingOrStaleModuleNamingTheNewestSource(t *testing.T) {
	base := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	sources := map[string]time.Duration{
		"go.mod":                    0,
		"go.sum":                    0,
		"wasm/main.go":              time.Minute,
		"wasm/decision/snapshot.go": 2 * time.Minute,
	}
	with := func(extra map[string]time.Duration) map[string]time.Duration {
		files := map[string]time.Duration{}
		for k, v := range sources {
			files[k] = v
		}
		for k, v := range extra {
			files[k] = v
		}
		return files
	}
	tests := []struct {
		name  string
		files map[string]time.Duration
		want  string // "" when the module is current
	}{
		{"newer than every source", with(map[string]time.Duration{"ts/core.wasm": 3 * time.Minute}), ""},
		{"as old as the newest source", with(map[string]time.Duration{"ts/core.wasm": 2 * time.Minute}), ""},
		{"missing", with(nil), "ts/core.wasm is missing: run `make wasm`"},
		{"older than a source in a package",
			with(map[string]time.Duration{"ts/core.wasm": 90 * time.Second}),
			"ts/core.wasm is older than %ROOT%/wasm/decision/snapshot.go (changed %NEWEST%): run `make wasm`"},
		{"older than go.sum",
			with(map[string]time.Duration{"ts/core.wasm": 3 * time.Minute, "go.sum": 4 * time.Minute}),
			"older than %ROOT%/go.sum"},
		{"a newer test file or fixture is no source",
			with(map[string]time.Duration{"ts/core.wasm": 3 * time.Minute, "wasm/decision/snapshot_test.go": time.Hour, "wasm/decision/testdata/x.json": time.Hour}), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, base, tc.files)
			err := Current(root, filepath.Join(root, "ts", "core.wasm"))
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.True(t, err != nil, "a missing or stale module must be an error")
			want := strings.NewReplacer("%ROOT%", root, "%NEWEST%", base.Add(2*time.Minute).Local().Format(time.DateTime)).Replace(tc.want)
			require.Contains(t, err.Error(), want)
		})
	}
}
