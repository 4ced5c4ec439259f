package observe

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
)

// How far the driver goes with the model calls the plans ask for: a chain
// of calls is bounded, a compaction waits for few, and a call the host never
// answers does not stop the observer for good.
const (
	omMaxCalls    = 32             // model calls one command or settle may chain (a backlog in chunks)
	omBlockingMax = 8              // calls a compaction may wait for in blocking mode
	omLostMs      = 10 * 60 * 1000 // a background call unanswered this long is taken as lost
)

// chainStop says why a chain of calls stops before its next one (why is
// what the plan said of it), or "" when it may go on: the rest waits for
// the next settle.
func chainStop(why string, calls int) string {
	if calls < omMaxCalls {
		return ""
	}
	return why + "; stopped after " + numstr.Itoa(calls) + " model calls, the rest waits for the next settle"
}

// compactionCalls is how many observer calls a compaction waits for before
// it lets pi compact by itself: one, or omBlockingMax in blocking mode, where
// nothing was observed in the background.
func compactionCalls(mode string) int {
	if mode == modeBlocking {
		return omBlockingMax
	}
	return 1
}

// callOut reports a background call that went out at busyAt as still
// awaited at now: a settle plans nothing then, since the answer plans
// again. After omLostMs it is taken as lost.
func callOut(busy bool, busyAt, now int64) bool {
	return busy && now-busyAt < omLostMs
}
