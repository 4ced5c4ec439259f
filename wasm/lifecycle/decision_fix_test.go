package lifecycle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two decisions under D-2026-02-27-0002, as git's merge=union leaves them.
const unionLog = `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"a","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use Go for services"},"u":"user"}
{"v":1,"t":"2026-02-27T07:00:00.000Z","p":"a","e":"a","i":"D-2026-02-27-0002","d":{"tx":"Expose the API over REST"},"u":"user"}
{"v":1,"t":"2026-02-27T07:30:00.000Z","p":"b","e":"a","i":"D-2026-02-27-0002","d":{"tx":"Deploy with Docker Compose"},"u":"user"}
`

func (r *rig) writeLog(text string) {
	r.t.Helper()
	dir := filepath.Join(r.project, ".pi/decision-memory")
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, "decisions.jsonl"), []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// The person agreed to one repair; if the log changed meanwhile so that the
// repair would be another, nothing is written and they are told.
func TestFixWritesNothingWhenTheLogChangedWhileThePersonAnswered(t *testing.T) {
	r := newRig(t, true)
	r.writeLog(unionLog)
	r.start(true, true)
	r.cmd("doctor --fix")
	if !strings.Contains(r.dialog().Get("message").String(), "D-2026-02-27-0002 → D-2026-02-27-0003") {
		t.Fatalf("dialog %s", r.dialog().Raw)
	}
	changed := unionLog + `{"v":1,"t":"2026-02-27T08:00:00.000Z","p":"c","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use Rust for services"},"u":"user"}` + "\n"
	r.writeLog(changed)
	r.answer(true)
	if r.exit() != 1 || !strings.Contains(r.text(), "changed while you answered") {
		t.Fatalf("exit %d: %s", r.exit(), r.text())
	}
	if r.log() != changed {
		t.Fatalf("the log was written: %q", r.log())
	}
}

// The repair rewrites the log under its lock: while another process holds
// it, nothing is written.
func TestFixWaitsForTheLogLock(t *testing.T) {
	r := newRig(t, false)
	r.writeLog(unionLog)
	r.start(false, true)
	lock := filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl.lock")
	os.WriteFile(lock, []byte("another process"), 0o644)
	r.cmd("doctor --fix --yes")
	if r.exit() != 1 || !strings.Contains(r.text(), "Not written") || r.log() != unionLog {
		t.Fatalf("exit %d: %s; log %q", r.exit(), r.text(), r.log())
	}
	os.Remove(lock)
	r.cmd("doctor --fix --yes")
	if r.exit() != 0 || !strings.Contains(r.log(), `"i":"D-2026-02-27-0003","d":{"tx":"Deploy with Docker Compose"}`) {
		t.Fatalf("exit %d: %s; log %q", r.exit(), r.text(), r.log())
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Fatalf("the lock stays after the repair: %v", err)
	}
}
