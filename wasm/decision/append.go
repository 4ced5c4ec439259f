package decision

import "github.com/pi-memory/pi-memory/wasm/internal/civil"

// What a write appends to the log: the events a transition returned, stamped
// and encoded one a line. The driver takes the lock, seals a torn last line
// and appends the bytes.

// stamp gives every event what each line of a write carries: the format
// version, the time of the write (as written and in ms), the project's id,
// and an actor, "user" unless the transition named one.
//
//	stamp([{Code:Add ID:"D-2026-02-27-0001"}], 1772172000000, "ab")
//	  => [{V:1 Time:"2026-02-27T06:00:00.000Z" TimeMs:1772172000000 Project:"ab" Code:Add ID:"D-2026-02-27-0001" Actor:"user"}]
func stamp(events []Event, nowMs int64, project string) {
	ts := civil.FormatTime(nowMs)
	for i := range events {
		ev := &events[i]
		ev.V = version
		ev.Time, ev.TimeMs = ts, nowMs
		ev.Project = project
		if ev.Actor == "" {
			ev.Actor = "user"
		}
	}
}

// appendLines appends events to dst as log lines, each ended by a newline.
func appendLines(dst []byte, events []Event) []byte {
	for _, ev := range events {
		dst = Encode(dst, ev)
		dst = append(dst, '\n')
	}
	return dst
}
