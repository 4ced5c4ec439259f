package decision

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// When the driver starts from a snapshot, when it replays the whole log, and
// when it writes a new snapshot; and the note /decision status shows about it.
// The driver reads and writes the files; these rules only decide.

const (
	// A log this large is replayed once, then read from a snapshot; a
	// snapshot is rewritten when the tail after it grows past snapshotTail
	// or a quarter of what it covers. The threshold is low because a fresh
	// pi process runs the core's code unoptimized at first: replay then goes
	// at ~15 MB/s (64 KiB, about 200 events, in ~4 ms), a snapshot start in a
	// few milliseconds whatever the size.
	snapshotMin  = 64 << 10
	snapshotTail = 4 << 20
)

// snapshotDue says, once a load has replayed a log of size bytes, whether a
// snapshot should be written when the turn is over. covered is how much of
// the log the snapshot the load started from covers (fromSnapshot false: it
// replayed the whole log).
//
// From a snapshot, a new one is due when the tail replayed after it is over
// snapshotTail, or over a quarter of what the snapshot covers and over a
// quarter of snapshotMin (a small snapshot is not rewritten for every few
// lines). After a whole replay, one is due when the log is at least
// snapshotMin.
//
//	snapshotDue(64<<10, 0, false)           => true
//	snapshotDue(1<<20+300<<10, 1<<20, true) => true (tail over a quarter)
func snapshotDue(size, covered int64, fromSnapshot bool) bool {
	if !fromSnapshot {
		return size >= snapshotMin
	}
	tail := size - covered
	return tail > snapshotTail || tail > covered/4 && tail > snapshotMin/4
}

// The clause a note ends with while a snapshot is due (dueNew when one
// was in use, dueFirst when the log was replayed), and the one that
// replaces it once the snapshot is written.
const (
	dueNew   = "; a new one is written when this turn ends"
	dueFirst = "; a snapshot is written when this turn ends"
	replayed = "replayed the log"
)

// loadNote is the snapshot note after a load: note is what loading the
// snapshot said ("" when there was none to load), due is snapshotDue.
//
//	loadNote("loaded at start (covered 9 lines)", true, true)
//	  => "loaded at start (covered 9 lines); a new one is written when this turn ends"
//	loadNote("", false, false) => "not needed: the log is under 64 KiB and replays as fast"
func loadNote(note string, fromSnapshot, due bool) string {
	switch {
	case fromSnapshot && due:
		return note + dueNew
	case fromSnapshot:
		return note
	case due:
		if note == "" {
			note = replayed
		}
		return note + dueFirst
	case note == "":
		return "not needed: the log is under 64 KiB and replays as fast"
	}
	return note
}

// reloadNote is the snapshot note after the whole log was replayed because
// the snapshot in use was replaced or damaged mid-session; due is
// snapshotDue after that replay.
//
//	reloadNote(true) => "the snapshot was replaced or damaged while in use;
//	  replayed the log; a new one is written when this turn ends"
func reloadNote(due bool) string {
	const head = "the snapshot was replaced or damaged while in use; " + replayed
	if due {
		return head + dueNew
	}
	return head + "; the log is under 64 KiB, so no new one is written"
}

// writtenNote is the snapshot note once a snapshot covering lines lines was
// written; note is the note before ("" when none). The clause saying one
// would be written gives way to one saying it was.
//
//	writtenNote("", 2) => "written (covers 2 lines)"
//	writtenNote("replayed the log; a snapshot is written when this turn ends", 2)
//	  => "replayed the log; a snapshot was written (covers 2 lines)"
func writtenNote(note string, lines int) string {
	covers := " (covers " + text.Plural(lines, "line", "lines") + ")"
	if rest, ok := strings.CutSuffix(note, dueNew); ok {
		return rest + "; a new one was written" + covers
	}
	if rest, ok := strings.CutSuffix(note, dueFirst); ok {
		return rest + "; a snapshot was written" + covers
	}
	if note != "" {
		return note + "; a new one was written" + covers
	}
	return "written" + covers
}
