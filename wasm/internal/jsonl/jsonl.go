// Package jsonl reads JSON Lines the way every reader in the core does: one
// value per line, a UTF-8 byte-order mark at the start dropped, "\r\n" a
// line end, blank lines ignored, line numbers counted from 1 as a person's
// editor counts them, and a last line without its newline told apart (it
// may be torn: a crash mid-append). A line that cannot be used is a
// Problem, reported with its number; the lines after it still count.
package jsonl

import (
	"bytes"
	"strconv"
)

// Problem is a line a reader could not use, for a report a person can act
// on ("line 12: not valid JSON").
type Problem struct {
	Line int
	Msg  string
}

func (p Problem) String() string { return "line " + strconv.Itoa(p.Line) + ": " + p.Msg }

var bom = []byte("\xEF\xBB\xBF")

// Lines calls each with every line of data that is not blank, trimmed of
// white space, its number (from 1), and whether it is torn (the data ends
// inside it, without its newline), until each returns false. The lines are
// views of data: nothing is copied.
//
//	Lines([]byte("a\n\nb"), f) => f(1, "a", false); f(3, "b", true)
func Lines(data []byte, each func(n int, line []byte, torn bool) bool) {
	data = bytes.TrimPrefix(data, bom)
	for n := 1; len(data) > 0; n++ {
		line, torn := data, true
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data, torn = data[:i], data[i+1:], false
		} else {
			data = nil
		}
		if line = bytes.TrimSpace(line); len(line) > 0 && !each(n, line, torn) {
			return
		}
	}
}
