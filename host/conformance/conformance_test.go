package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// exports are the core's exports a case may call
// (docs/decisions/001-core-host-contract.md); debug is left out on purpose:
// a trap is no conformance answer.
var exports = map[string]bool{
	"session_start": true, "before_agent_start": true, "agent_end": true,
	"session_shutdown": true, "command": true, "resume": true, "merge": true,
	"context": true, "agent_settled": true, "session_before_compact": true, "session_before_tree": true,
	"tool":      true,
	"resources": true,
}

// TestEveryCaseIsComplete checks the fixtures themselves, so a typo fails
// here rather than as a puzzling difference in a runner: known exports,
// inputs that are objects, one expected envelope per step, checked files
// listed in expected.json, and no stray file in a case folder.
func TestEveryCaseIsComplete(t *testing.T) {
	for _, c := range Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			used := map[string]bool{"case.json": true, "expected.json": true}
			for _, f := range c.Files {
				if f.From != nil {
					used[*f.From] = true
				}
			}
			entries, err := os.ReadDir(c.Dir)
			require.NoError(t, err)
			for _, e := range entries {
				require.True(t, used[e.Name()], "%s is not used by case.json", e.Name())
			}
			for i, s := range c.Steps {
				require.True(t, exports[s.Export], "step %d: unknown export %q", i+1, s.Export)
				var in map[string]any
				require.NoError(t, json.Unmarshal(s.Input, &in), "step %d: input is not a JSON object", i+1)
			}
			var want Expected
			require.NoError(t, decodeStrict(filepath.Join(c.Dir, "expected.json"), &want))
			require.Equal(t, len(c.Steps), len(want.Envelopes), "expected envelopes, one per step")
			for _, rel := range c.Check {
				_, ok := want.Files[rel]
				require.True(t, ok, "checked file %s is missing from expected.json", rel)
			}
			require.Equal(t, len(c.Check), len(want.Files), "files in expected.json, one per checked file")
		})
	}
}
