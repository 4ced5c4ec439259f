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

// Read is Lines over a file read through read (ReadAt's shape: 0 bytes at
// its end) len(piece) bytes at a time, whatever its size: only a line that
// does not end in its piece is kept whole across pieces, up to maxLine
// bytes; a longer one is not held but given to long with its number (the
// lines after it still count). read's error ends the reading and is
// returned.
func Read(read func(off int64, dst []byte) (int, error), piece []byte, maxLine int, each func(n int, line []byte, torn bool) bool, long func(n int)) error {
	n := 0
	var carry []byte // the start of a line that did not end in its piece
	skipping := false
	one := func(line []byte, torn bool) bool {
		n++
		if n == 1 {
			line = bytes.TrimPrefix(line, bom)
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return each(n, line, torn)
		}
		return true
	}
	for off := int64(0); ; {
		k, err := read(off, piece)
		if err != nil {
			return err
		}
		if k == 0 {
			break
		}
		off += int64(k)
		for data := piece[:k]; len(data) > 0; {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				switch {
				case skipping:
				case len(carry)+len(data) > maxLine:
					skipping, carry = true, carry[:0]
				default:
					carry = append(carry, data...)
				}
				break
			}
			line := data[:i]
			data = data[i+1:]
			switch {
			case skipping:
				n++
				long(n)
				skipping = false
			case len(carry) > 0 && len(carry)+len(line) > maxLine:
				n++
				long(n)
			case len(carry) > 0:
				if !one(append(carry, line...), false) {
					return nil
				}
			default:
				if !one(line, false) {
					return nil
				}
			}
			carry = carry[:0]
		}
	}
	switch {
	case skipping:
		n++
		long(n)
	case len(carry) > 0:
		one(carry, true)
	}
	return nil
}
