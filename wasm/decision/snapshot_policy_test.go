package decision

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestSnapshotDueAfterAWholeReplayOfALogOver64KiB(t *testing.T) {
	tests := []struct {
		size int64
		due  bool
	}{
		{0, false},
		{snapshotMin - 1, false},
		{snapshotMin, true},
		{1 << 30, true},
	}
	for _, tt := range tests {
		require.Equal(t, tt.due, snapshotDue(tt.size, 0, false), "size %d", tt.size)
	}
}

func TestSnapshotDueFromASnapshotWhenTheTailOutgrowsIt(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name          string
		covered, tail int64
		due           bool
	}{
		{"no tail", mib, 0, false},
		{"a quarter exactly", mib, mib / 4, false},
		{"over a quarter", mib, mib/4 + 1, true},
		{"a small snapshot and a quarter of snapshotMin", snapshotMin, snapshotMin / 4, false},
		{"a small snapshot and a tail over a quarter of snapshotMin", snapshotMin, snapshotMin/4 + 1, true},
		{"a tiny snapshot and a tail under a quarter of snapshotMin", 1 << 10, snapshotMin/4 - 1, false},
		{"a huge snapshot and snapshotTail exactly", 64 * mib, snapshotTail, false},
		{"a huge snapshot and a tail over snapshotTail", 64 * mib, snapshotTail + 1, true},
	}
	for _, tt := range tests {
		require.Equal(t, tt.due, snapshotDue(tt.covered+tt.tail, tt.covered, true), tt.name)
	}
}

func TestLoadNoteSaysWhatHappensToTheSnapshot(t *testing.T) {
	const loaded = "loaded at start (covered 9 lines)"
	const changed = "the log changed under the snapshot (rewritten or checked out); replayed the log"
	tests := []struct {
		note              string
		fromSnapshot, due bool
		want              string
	}{
		{loaded, true, false, loaded},
		{loaded, true, true, loaded + "; a new one is written when this turn ends"},
		{"", false, true, "replayed the log; a snapshot is written when this turn ends"},
		{"", false, false, "not needed: the log is under 64 KiB and replays as fast"},
		{changed, false, true, changed + "; a snapshot is written when this turn ends"},
		{changed, false, false, changed},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, loadNote(tt.note, tt.fromSnapshot, tt.due), "%q %v %v", tt.note, tt.fromSnapshot, tt.due)
	}
}

// Pins the fix for "replayed the logreplayed the log": the reload says it
// replayed the log once, then whether a new snapshot follows.
func TestReloadNoteSaysTheSnapshotWasReplacedWhileInUse(t *testing.T) {
	require.Equal(t, "the snapshot was replaced or damaged while in use; replayed the log; a new one is written when this turn ends", reloadNote(true))
	require.Equal(t, "the snapshot was replaced or damaged while in use; replayed the log; the log is under 64 KiB, so no new one is written", reloadNote(false))
}

// Once written, the clause that said a snapshot would be written gives way
// to one that says it was (it read "…when this turn ends; a new one written").
func TestWrittenNoteFollowsWhatHappenedBefore(t *testing.T) {
	tests := []struct {
		note  string
		lines int
		want  string
	}{
		{"", 1, "written (covers 1 line)"},
		{"", 2, "written (covers 2 lines)"},
		{"replayed the log; a snapshot is written when this turn ends", 200,
			"replayed the log; a snapshot was written (covers 200 lines)"},
		{"loaded at start (covered 9 lines); a new one is written when this turn ends", 200,
			"loaded at start (covered 9 lines); a new one was written (covers 200 lines)"},
		{reloadNote(true), 200,
			"the snapshot was replaced or damaged while in use; replayed the log; a new one was written (covers 200 lines)"},
		{"the log changed under the snapshot (rewritten or checked out); replayed the log; a snapshot is written when this turn ends", 200,
			"the log changed under the snapshot (rewritten or checked out); replayed the log; a snapshot was written (covers 200 lines)"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, writtenNote(tt.note, tt.lines), tt.note)
	}
}
