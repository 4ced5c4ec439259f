package lifecycle

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestZZTags(t *testing.T) {
	r := newRig(t, false)
	b, _ := os.ReadFile("/tmp/a1t/Q/.pi/decision-memory/decisions.jsonl")
	os.MkdirAll(filepath.Join(r.project, ".pi/decision-memory"), 0o755)
	os.WriteFile(filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl"), b, 0o644)
	t0 := time.Now()
	r.start(false, true)
	t.Logf("start %v", time.Since(t0))
	t0 = time.Now()
	r.cmd("list")
	t.Logf("list %v", time.Since(t0))
	t0 = time.Now()
	r.settle()
	t.Logf("settle %v", time.Since(t0))
}
