package lifecycle

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

// bigLog writes a log of n decisions (about 300 bytes each) into the rig's project.
func (r *rig) bigLog(n int) {
	r.t.Helper()
	var b strings.Builder
	base := civil.ParseTime("2025-01-01T00:00:00.000Z")
	for i := 1; i <= n; i++ {
		ms := base + int64(i)*60_000
		fmt.Fprintf(&b, `{"v":1,"t":"%s","p":"x","e":"a","i":"D-%s-%04d","d":{"tx":"Decision %d: %s","tg":["t%d"]},"u":"user"}`+"\n",
			civil.FormatTime(ms), civil.Day(ms), i%1440+1, i, strings.Repeat("use the agreed approach ", 10), i%7)
	}
	os.MkdirAll(filepath.Join(r.project, ".pi/decision-memory"), 0o755)
	if err := os.WriteFile(filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl"), []byte(b.String()), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) snapshotFile() string {
	return filepath.Join(r.agent, "pi-memory", "snapshots", ProjectHash(r.project)+".snap")
}

// settle ends the turn the way pi does, which writes a due snapshot.
func (r *rig) settle() { r.call("session_shutdown", map[string]any{"reason": "quit"}) }

func (r *rig) status() string {
	r.cmd("status")
	return r.text()
}

func TestALargeLogGetsASnapshotThatTheNextStartUses(t *testing.T) {
	r := newRig(t, false)
	r.bigLog(4000)
	r.start(false, true)
	if !strings.Contains(r.status(), "a snapshot is written when this turn ends") {
		t.Fatalf("status: %s", r.text())
	}
	if _, err := os.Stat(r.snapshotFile()); !os.IsNotExist(err) {
		t.Fatal("the snapshot must not be written during the session start")
	}
	r.settle()
	if !strings.Contains(r.status(), "Snapshot: "+r.snapshotFile()+" — ") || !strings.Contains(r.text(), "written (covers 4000 lines)") {
		t.Fatalf("status: %s", r.text())
	}
	cold := r.injected("x")
	r.start(false, true)
	if !strings.Contains(r.status(), "loaded at start") {
		t.Fatalf("second start did not use the snapshot: %s", r.text())
	}
	if got := r.injected("x"); got != cold {
		t.Fatalf("injection differs after a snapshot start:\n%s\nvs\n%s", got, cold)
	}
	r.cmd("search decision 3999")
	r.contains("D-")
}

func TestSnapshotPlusTailEqualsAFullReplay(t *testing.T) {
	r := newRig(t, false)
	r.bigLog(4000)
	r.start(false, true)
	r.settle() // writes the snapshot
	r.h.now += 86400_000
	r.cmd("add A brand new rule after the snapshot --tag fresh")
	r.start(false, true)
	r.contains("") // status effect only
	withSnap := r.injected("x")
	if !strings.Contains(withSnap, "A brand new rule after the snapshot") {
		t.Fatalf("tail not replayed: %s", withSnap)
	}
	os.Remove(r.snapshotFile())
	r.start(false, true)
	if got := r.injected("x"); got != withSnap {
		t.Fatalf("deleting the snapshot changed what is injected")
	}
}

func TestARewrittenLogIsReplayedNotReadFromTheSnapshot(t *testing.T) {
	r := newRig(t, false)
	r.bigLog(4000)
	r.start(false, true)
	r.settle()
	// A checkout of another branch: same size, other content near the end.
	p := filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl")
	b, _ := os.ReadFile(p)
	i := strings.LastIndex(string(b), "Decision 4000")
	copy(b[i:], "Decision 9999")
	os.WriteFile(p, b, 0o644)
	r.start(false, true)
	if !strings.Contains(r.status(), "changed under the snapshot (rewritten or checked out); replayed the log; a snapshot is written when this turn ends") {
		t.Fatalf("status: %s", r.text())
	}
	r.cmd("search 9999")
	r.contains("Decision 9999")
}

func TestADamagedSnapshotIsRefusedAndReplaced(t *testing.T) {
	r := newRig(t, false)
	r.bigLog(4000)
	r.start(false, true)
	r.settle()
	b, _ := os.ReadFile(r.snapshotFile())
	b[len(b)/3] ^= 0xff
	os.WriteFile(r.snapshotFile(), b, 0o644)
	r.start(false, true)
	// The damage is in a string page: found when the page is first read,
	// which makes the state replay the log.
	r.cmd("list --limit 1")
	r.contains("Decision 4000")
	if !strings.Contains(r.status(), "replaced or damaged while in use; replayed the log; a new one is written when this turn ends") {
		t.Fatalf("damage went unnoticed: %s", r.text())
	}
	// The replay writes a good snapshot over the damaged one.
	r.settle()
	if !strings.Contains(r.status(), "replaced or damaged while in use; replayed the log; a new one was written (covers 4000 lines)") {
		t.Fatalf("status after the write: %s", r.text())
	}
	r.start(false, true)
	if !strings.Contains(r.status(), "loaded at start") {
		t.Fatalf("status: %s", r.text())
	}
	r.cmd("list --limit 1")
	r.contains("Decision 4000")
}

func TestASnapshotReplacedDuringTheSessionIsDetected(t *testing.T) {
	r := newRig(t, false)
	r.bigLog(4000)
	r.start(false, true)
	r.settle()           // writes
	r.start(false, true) // loads lazily
	// Another process appends enough to rewrite the snapshot.
	other := newRig(t, false)
	other.project, other.agent = r.project, r.agent
	other.e = New(other.h)
	other.h.now = r.h.now
	other.start(false, true)
	other.h.now += 1000
	f, _ := os.OpenFile(filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(f, `{"v":1,"t":"2026-02-27T07:00:00.000Z","p":"x","e":"ed","i":"D-2025-01-01-%04d","d":{"tx":"rewritten %d %s"},"u":"user"}`+"\n", i%1440+2, i, strings.Repeat("z", 300))
	}
	f.Close()
	other.start(false, true) // tail > snapshotTail/quarter: a new snapshot is due
	other.settle()
	got := r.injected("x")
	if strings.Contains(got, "| |") || !strings.Contains(got, "rewritten") {
		t.Fatalf("the first session must notice the replaced snapshot and replay: %s", got)
	}
}

func TestDisabledMemoryWritesNoSnapshot(t *testing.T) {
	r := newRig(t, false)
	r.bigLog(4000)
	os.WriteFile(filepath.Join(r.project, ".pi/decision-memory.config.json"), []byte(`{"enabled":false}`), 0o644)
	r.start(false, true)
	r.settle()
	if _, err := os.Stat(filepath.Join(r.agent, "pi-memory")); !os.IsNotExist(err) {
		t.Fatalf("disabled memory created %v", err)
	}
}

// unsampledLine is the index of a line of log that no sample of the
// snapshot's log sum reads (decision.logSum: the first and last 16 KiB and
// 16 slices of 1 KiB between): a rewrite there is told only by the file's
// identity or its mtime.
func unsampledLine(t *testing.T, log []byte) int {
	t.Helper()
	size := int64(len(log))
	step := (size - 32<<10) / 17
	mid := 16<<10 + 8*step + 1<<10 + (step-1<<10)/2
	start := strings.LastIndexByte(string(log[:mid]), '\n') + 1
	if start < int(16<<10+8*step+1<<10) || start+400 > int(16<<10+9*step) {
		t.Fatalf("no unsampled line around %d", mid)
	}
	return strings.Count(string(log[:start]), "\n")
}

func (r *rig) logPath() string {
	return filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl")
}

// editLine rewrites line n of the log with edit, which must keep its length.
func (r *rig) editLine(n int, edit func(string) string) []byte {
	r.t.Helper()
	lines := strings.SplitAfter(r.log(), "\n")
	was := lines[n]
	lines[n] = edit(was)
	if len(lines[n]) != len(was) || lines[n] == was {
		r.t.Fatalf("edit changed the length or nothing: %q", lines[n])
	}
	return []byte(strings.Join(lines, ""))
}

// snapshotted is a rig whose big log has a snapshot the running session
// started from and read.
func snapshotted(t *testing.T) *rig {
	r := newRig(t, false)
	r.bigLog(4000)
	r.fromSnapshot()
	r.cmd("list --limit 1")
	return r
}

// fromSnapshot starts a session that writes the log's snapshot, then one
// that starts from it.
func (r *rig) fromSnapshot() {
	r.t.Helper()
	r.start(false, true)
	r.settle()
	r.start(false, true)
	if !strings.Contains(r.status(), "loaded at start") {
		r.t.Fatalf("status: %s", r.text())
	}
}

// forked is the log with the line n's "agreed" made "forked", its length kept.
func (r *rig) forked(n int) []byte {
	return r.editLine(n, func(l string) string {
		return strings.Replace(l, "use the agreed approach", "use the forked approach", 1)
	})
}

// seesForked checks the running session and the next start find the edit.
func (r *rig) seesForked() {
	r.t.Helper()
	for _, session := range []string{"the running session", "the next start"} {
		r.cmd("search forked")
		if !strings.Contains(r.text(), "forked approach") {
			r.t.Fatalf("%s does not see the edit: %s", session, r.text())
		}
		r.start(false, true)
	}
}

// h-v94 d3: doctor --fix gives a union merge's second decision an id of the
// same length, in a line no sample reads. The snapshot written before the
// fix must not be trusted after it (the decision disappeared, and the next
// add reused its new id), in this process or the next.
func TestASnapshotIsNotTrustedAfterDoctorFixRenamesAnIdInPlace(t *testing.T) {
	r := newRig(t, false)
	r.bigLog(4000)
	log := []byte(r.log())
	n := unsampledLine(t, log)
	lines := strings.SplitAfter(string(log), "\n")
	prevID := gjson.Get(lines[n-1], "i").String()
	text := gjson.Get(lines[n], "d.tx").String()
	r.writeLog(string(r.editLine(n, func(l string) string {
		return strings.Replace(l, gjson.Get(l, "i").String(), prevID, 1)
	})))
	r.fromSnapshot()
	r.cmd("doctor --fix --yes")
	if r.exit() != 0 || r.log() == string(log) {
		t.Fatalf("exit %d: %s", r.exit(), r.text())
	}
	if len(r.log()) != len(log) {
		t.Fatal("the fix changed the log's length: the test no longer tests a same-size rewrite")
	}
	newID := gjson.Get(strings.SplitAfter(r.log(), "\n")[n], "i").String()
	if newID == prevID || len(newID) != len(prevID) {
		t.Fatalf("the fix gave %q", newID)
	}
	for _, session := range []string{"the fixing process", "the next process"} {
		r.cmd("show " + newID)
		if r.exit() != 0 || !strings.Contains(r.text(), text[:40]) {
			t.Fatalf("%s: %s is gone after the fix: %s", session, newID, r.text())
		}
		r.settle()
		r.start(false, true)
	}
	r.cmd("add One more rule after the fix")
	if strings.Contains(r.text(), newID) || strings.Count(r.log(), `"i":"`+newID+`"`) != 1 {
		t.Fatalf("the add reused %s: %s", newID, r.text())
	}
}

// h-v94 d2: a hand edit in place that keeps the log's size, in a line no
// sample reads, is seen by the next start and by a running session.
func TestASameSizeEditInPlaceIsSeen(t *testing.T) {
	r := snapshotted(t)
	p := r.logPath()
	fi, _ := os.Stat(p)
	if err := os.WriteFile(p, r.forked(unsampledLine(t, []byte(r.log()))), 0o644); err != nil { // in place: the same file
		t.Fatal(err)
	}
	os.Chtimes(p, fi.ModTime().Add(2*time.Second), fi.ModTime().Add(2*time.Second))
	r.seesForked()
}

// A log another file replaced with the same size and mtime (a rename over
// it, as doctor --fix and most editors write) is seen by its identity.
func TestALogRenamedOverWithTheSameSizeAndMtimeIsSeen(t *testing.T) {
	r := snapshotted(t)
	p := r.logPath()
	fi, _ := os.Stat(p)
	if err := os.WriteFile(p+".new", r.forked(unsampledLine(t, []byte(r.log()))), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p+".new", fi.ModTime(), fi.ModTime())
	if err := os.Rename(p+".new", p); err != nil {
		t.Fatal(err)
	}
	r.seesForked()
}

// h-v95 d1: git's merge or rebase with our merge driver puts a teammate's
// line before the session's newest one and keeps the file's inode; the
// lines' last bytes are alike. The running session replays it rather than
// taking it for an append, so a remove lands on the decision it names.
func TestARunningSessionSeesAGrownRewriteInPlace(t *testing.T) {
	r := newRig(t, false)
	line := func(tm, id, text string) string {
		return `{"v":1,"t":"2026-12-03T` + tm + `:00.000Z","p":"x","e":"a","i":"` + id + `","d":{"tx":"` + text + `","tg":[],"s":"active","sp":null,"c":[]},"u":"user"}` + "\n"
	}
	base := ""
	for i := 1; i <= 5; i++ {
		base += line("08:0"+fmt.Sprint(i), fmt.Sprintf("D-2026-12-02-%04d", i), fmt.Sprintf("Base decision %d for workspace installs", i))
	}
	r.writeLog(base + line("10:00", "D-2026-12-03-0001", "Adopt pnpm for workspace installs"))
	r.start(false, true)
	r.cmd("list")
	r.contains("Adopt pnpm")
	p := r.logPath()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0) // in place: the same inode
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(base + line("09:00", "D-2026-12-03-0001", "Adopt yarn for workspace installs") + line("10:00", "D-2026-12-03-0002", "Adopt pnpm for workspace installs"))
	f.Close()
	r.cmd("list")
	r.contains("Adopt yarn")
	r.cmd("show D-2026-12-03-0002")
	r.contains("Adopt pnpm")
}

// h-v95 d3: an add, then a same-size edit in place where no sample reads:
// the snapshot's stat is out of date after the add, so every byte it
// covers is read again, by the next start and by a running session.
func TestAnEditInPlaceAfterAnAppendIsSeen(t *testing.T) {
	r := snapshotted(t)
	f, _ := os.OpenFile(r.logPath(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"v":1,"t":"2026-02-27T07:00:00.000Z","p":"x","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Another process added this"},"u":"user"}` + "\n")
	f.Close()
	edited := r.forked(unsampledLine(t, []byte(r.log())))
	f, _ = os.OpenFile(r.logPath(), os.O_WRONLY, 0)
	f.WriteAt(edited, 0)
	f.Close()
	r.seesForked()
}

// h-v95 d2: a session whose state is older than the log (edited in place
// and appended to during its turn) writes no snapshot of that state
// checksummed against the log of now.
func TestASnapshotIsWrittenOfTheLogAsItIsNow(t *testing.T) {
	r := newRig(t, false)
	r.bigLog(4000)
	r.start(false, true)
	r.cmd("list --limit 1") // read; a snapshot is due when the turn ends
	edited := r.editLine(4, func(l string) string {
		return strings.Replace(l, "use the agreed approach", "use the OMEGAS approach", 1)
	})
	f, _ := os.OpenFile(r.logPath(), os.O_WRONLY, 0)
	f.WriteAt(edited, 0)
	f.Close()
	f, _ = os.OpenFile(r.logPath(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"v":1,"t":"2026-02-27T07:00:00.000Z","p":"x","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Another process added this"},"u":"user"}` + "\n")
	f.Close()
	r.settle()
	r.start(false, true)
	r.cmd("search OMEGAS")
	r.contains("OMEGAS approach")
}

// rewriteMidRead rewrites the log in place (the same inode, as git's
// checkout here leaves it) once, when a read past its first mebibyte
// comes: in the middle of a replay.
type rewriteMidRead struct {
	*osHost
	path string
	with []byte
	done bool
}

func (h *rewriteMidRead) ReadAt(p string, off int64, dst []byte) (int, error) {
	if !h.done && p == h.path && off >= 1<<20 {
		h.done = true
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
		if err == nil {
			f.Write(h.with)
			f.Close()
		}
	}
	return h.osHost.ReadAt(p, off, dst)
}

// h-v97 d1: a rewrite in place between the replay's read and the second
// read that hashed what it replayed paired the old text with the new
// bytes' hash; the running session kept it, and its snapshot gave it to
// every later start. The two reads must agree, else the log is read again.
func TestALogRewrittenInPlaceDuringTheReplayIsReadAgain(t *testing.T) {
	r := newRig(t, false)
	r.bigLog(4000)
	grown := append(r.forked(0), `{"v":1,"t":"2026-02-27T07:00:00.000Z","p":"x","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Added by the checkout"},"u":"user"}`+"\n"...)
	h := &rewriteMidRead{osHost: r.h, path: r.logPath(), with: grown}
	r.e = New(h)
	r.start(false, true)
	r.cmd("search forked")
	if !h.done || !strings.Contains(r.text(), "forked approach") {
		t.Fatalf("rewritten %v; the running session does not see the rewrite: %s", h.done, r.text())
	}
	r.settle()
	r.e = New(r.h)
	r.start(false, true)
	r.cmd("search forked")
	r.contains("forked approach")
}
