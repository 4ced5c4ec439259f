// Package jsonl reads JSON Lines text the way every reader in the core
// does: one value per line, a UTF-8 byte-order mark at the start dropped,
// "\r\n" a line end, blank lines ignored, and the last line told apart (when
// the text does not end with a newline, the last line may be torn: a crash
// mid-append).
package jsonl

import "strings"

// Problem is a line a reader could not use, for a report a person can act
// on ("line 12: not JSON").
type Problem struct {
	Line int
	Msg  string
}

// Lines calls each with every line of data that is not blank, trimmed of
// spaces, its number (from 1), and whether it is the text's last line
// (nothing but its own newline follows it), until each returns false.
//
//	Lines([]byte("a\n\nb"), f) => f(1, "a", false); f(3, "b", true)
func Lines(data []byte, each func(n int, line string, last bool) bool) {
	rest := strings.TrimPrefix(string(data), "\uFEFF")
	for n := 1; rest != ""; n++ {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if line = strings.TrimSpace(line); line != "" && !each(n, line, rest == "") {
			return
		}
	}
}
