// Package jsonl reads JSON Lines the way every reader in the core does: one
// value per line, a UTF-8 byte-order mark at the start dropped, "\r\n" a
// line end, blank lines ignored, line numbers counted from 1 as a person's
// editor counts them, and a last line without its newline told apart (it
// may be torn: a crash mid-append). A line that cannot be used is a
// Problem, reported with its number; the lines after it still count.
package jsonl

import (
	"bytes"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
)

// Problem is a line a reader could not use, for a report a person can act
// on ("line 12: not valid JSON").
type Problem struct {
	Line int
	Msg  string
}

func (p Problem) String() string { return "line " + numstr.Itoa(p.Line) + ": " + p.Msg }

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
	var p Pieces
	for !p.Done {
		if err := p.Next(read, piece, maxLine, 1<<62, each, long); err != nil {
			return err
		}
	}
	return nil
}

// Pieces is Read a step at a time, for a file too large to read in one go
// (a search reading a 60 MB session between other work): each Next goes on
// where the last stopped, for a piece or more and about budget bytes, and
// Done is set once the file has ended or each asked to stop.
type Pieces struct {
	Off      int64 // the bytes read so far
	Done     bool
	n        int    // lines so far
	carry    []byte // the start of a line that did not end in its piece
	skipping bool   // inside a line over maxLine
}

// Next reads on through read for about budget bytes (at least a piece) and
// calls each and long as Read does; read's error is returned.
func (p *Pieces) Next(read func(off int64, dst []byte) (int, error), piece []byte, maxLine int, budget int64, each func(n int, line []byte, torn bool) bool, long func(n int)) error {
	one := func(line []byte, torn bool) bool {
		p.n++
		if p.n == 1 {
			line = bytes.TrimPrefix(line, bom)
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return each(p.n, line, torn)
		}
		return true
	}
	for start := p.Off; !p.Done && (p.Off == start || p.Off-start < budget); {
		k, err := read(p.Off, piece)
		if err != nil {
			return err
		}
		if k == 0 {
			p.Done = true
			switch {
			case p.skipping:
				p.n++
				long(p.n)
			case len(p.carry) > 0:
				one(p.carry, true)
			}
			break
		}
		p.Off += int64(k)
		for data := piece[:k]; len(data) > 0; {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				switch {
				case p.skipping:
				case len(p.carry)+len(data) > maxLine:
					p.skipping, p.carry = true, p.carry[:0]
				default:
					p.carry = append(p.carry, data...)
				}
				break
			}
			line := data[:i]
			data = data[i+1:]
			ok := true
			switch {
			case p.skipping:
				p.n++
				long(p.n)
				p.skipping = false
			case len(p.carry) > 0 && len(p.carry)+len(line) > maxLine:
				p.n++
				long(p.n)
			case len(p.carry) > 0:
				ok = one(append(p.carry, line...), false)
			default:
				ok = one(line, false)
			}
			p.carry = p.carry[:0]
			if !ok {
				p.Done = true
				return nil
			}
		}
	}
	return nil
}
