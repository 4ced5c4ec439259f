package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// exports are the core's exports a case may call
// (docs/decisions/001-core-host-contract.md); debug is left out on purpose:
// a trap is no conformance answer.
var exports = map[string]bool{
	"session_start": true, "before_agent_start": true, "agent_end": true,
	"session_shutdown": true, "command": true, "resume": true, "merge": true,
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
			must(t, err)
			for _, e := range entries {
				if !used[e.Name()] {
					t.Errorf("%s is not used by case.json", e.Name())
				}
			}
			for i, s := range c.Steps {
				if !exports[s.Export] {
					t.Errorf("step %d: unknown export %q", i+1, s.Export)
				}
				var in map[string]any
				if err := json.Unmarshal(s.Input, &in); err != nil {
					t.Errorf("step %d: input is not a JSON object: %v", i+1, err)
				}
			}
			var want Expected
			if err := decodeStrict(filepath.Join(c.Dir, "expected.json"), &want); err != nil {
				t.Fatal(err)
			}
			if len(want.Envelopes) != len(c.Steps) {
				t.Errorf("%d steps but %d expected envelopes", len(c.Steps), len(want.Envelopes))
			}
			for _, rel := range c.Check {
				if _, ok := want.Files[rel]; !ok {
					t.Errorf("checked file %s is missing from expected.json", rel)
				}
			}
			if len(want.Files) != len(c.Check) {
				t.Errorf("expected.json has %d files, case.json checks %d", len(want.Files), len(c.Check))
			}
		})
	}
}
