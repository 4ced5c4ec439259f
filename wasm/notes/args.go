package notes

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
)

// countFlag reads the value of a count flag of a /memory command (--limit N,
// --days N): def when the flag is absent (value ""), N when it is a whole
// number from 1 to max, and otherwise 0 and the usage line that says what it
// must be.
//
//	countFlag("recall", "limit", "", 10, 100)    => 10, ""
//	countFlag("recall", "limit", "25", 10, 100)  => 25, ""
//	countFlag("recall", "limit", "0", 10, 100)   => 0, "/memory recall: --limit must be a whole number from 1 to 100"
//	countFlag("stale", "days", "1.5", 90, 3650)  => 0, "/memory stale: --days must be a whole number from 1 to 3650"
func countFlag(command, flag, value string, def, max int) (int, string) {
	if value == "" {
		return def, ""
	}
	k, err := strconv.Atoi(value)
	if err != nil || k < 1 || k > max {
		return 0, "/memory " + command + ": --" + flag + " must be a whole number from 1 to " + numstr.Itoa(max)
	}
	return k, ""
}
