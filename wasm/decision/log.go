package decision

import (
	"bytes"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
)

// readAt reads the log: up to len(dst) bytes at off, 0 at the end.
type readAt func(off int64, dst []byte) (int, error)

// cursor is how far a state has read its log: everything before Offset has
// been applied (or reported), and Offset is just after a newline or at the end
// of a complete unterminated line.
type cursor struct {
	Offset int64
	Line   int  // lines consumed
	Sealed bool // false when the log's last byte is not a newline
}

// reader replays a log in chunks into a state, reusing one buffer, so a
// million-event log never has to fit in memory at once.
type reader struct {
	buf []byte
	sc  scanner
	ev  Event
}

const chunk = 1 << 20

// maxLine bounds a line of the log: no event comes near it (each field is
// cut at maxField), so a longer line is not an event a person wrote. It is
// skipped as it is read, never held, and reported with its number (tooLong):
// a 300 MB line costs one read past it, not a buffer of its size.
const maxLine = 8 << 20

// Replay applies the lines between cur.Offset and size. A final segment
// without a newline is applied when it is a valid event (a hand-edited file
// often lacks the last newline) and otherwise left for later: it may be a
// write in progress, and a writer holding the lock seals it (see Seal). A
// line longer than maxLine, the last one too, is skipped and reported
// (tooLong), and the cursor moves past it. It returns the new cursor.
func (r *reader) Replay(st *state, read readAt, cur cursor, size int64) (cursor, error) {
	if need := size - cur.Offset; r.buf == nil || len(r.buf) < chunk && int64(len(r.buf)) < need {
		// A small log gets a small buffer: zeroing (and, under TinyGo,
		// growing the heap for) a mebibyte costs more than replaying 1k lines.
		n := int64(chunk)
		if need < n {
			n = need + 4096
		}
		r.buf = make([]byte, n)
		r.sc.view = true
	}
	off := cur.Offset
	line := cur.Line
	if !cur.Sealed && off > 0 && off < size {
		// The last line was applied (or skipped) without its newline; a
		// newline written since ends it and starts no line of its own.
		var b [1]byte
		if n, err := read(off, b[:]); err != nil {
			return cur, err
		} else if n == 1 && b[0] == '\n' {
			off++
		}
	}
	carry := 0    // bytes of an unfinished line at the start of buf
	long := false // inside a line over maxLine: its bytes are not kept
	pos := off    // where the next read starts: off+carry, or past off in a long line
	for pos < size {
		want := len(r.buf) - carry
		if rem := size - pos; int64(want) > rem {
			want = int(rem)
		}
		n, err := read(pos, r.buf[carry:carry+want])
		if err != nil {
			return cursor{Offset: off, Line: line, Sealed: cur.Sealed || off != cur.Offset}, err
		}
		if n == 0 {
			size = pos // the file shrank under us; stop here
			break
		}
		pos += int64(n)
		data := r.buf[:carry+n]
		start, from := 0, carry // the carried bytes hold no newline
		if long {
			nl := indexNewline(data)
			if nl < 0 {
				continue
			}
			line++
			r.skipLong(st, line)
			long, start, from = false, nl+1, nl+1
			off = pos - int64(len(data)) // data[0]'s place in the file
		}
		for {
			nl := indexNewline(data[from:])
			if nl < 0 {
				break
			}
			line++
			r.applyLine(st, data[start:from+nl], line)
			start = from + nl + 1
			from = start
		}
		off += int64(start)
		carry = len(data) - start
		switch {
		case carry > maxLine:
			long, carry = true, 0
		case carry > 0 && start > 0:
			copy(r.buf, data[start:])
		case carry == len(r.buf):
			// One line longer than the buffer: grow it, up to one byte past
			// maxLine (a line that fills that is too long).
			nb := make([]byte, min(2*len(r.buf), maxLine+1))
			copy(nb, r.buf)
			r.buf = nb
		}
	}
	if long {
		// The last line, past maxLine and without its newline: no write in
		// progress is that long, and a writer seals it before appending.
		line++
		r.skipLong(st, line)
		st.Lines = line
		return cursor{Offset: size, Line: line, Sealed: false}, nil
	}
	out := cursor{Offset: off, Line: line, Sealed: true}
	if carry > 0 {
		out.Sealed = false
		seg := trimCR(r.buf[:carry])
		if line == 0 {
			seg = trimBOM(seg)
		}
		if isBlank(seg) {
			return out, nil
		}
		if err := r.sc.decode(seg, nil, &r.ev); err == nil {
			line++
			st.problem(line, noNewline, r.ev.ID, "last line has no newline (hand-edited?); applied, and sealed on the next write")
			st.apply(&r.ev, line)
			st.Lines = line
			out.Offset, out.Line = off+int64(carry), line
			return out, nil
		}
		// Left unconsumed: a torn write or one in progress.
	}
	st.Lines = line
	return out, nil
}

// skipLong reports a line over maxLine, skipped unread.
func (r *reader) skipLong(st *state, line int) {
	st.problem(line, tooLong, "", "longer than "+numstr.Itoa(maxLine>>20)+" MiB, which no decision is; skipped unread and kept on disk (remove it by hand)")
}

func (r *reader) applyLine(st *state, b []byte, line int) {
	b = trimCR(b)
	if line == 1 {
		b = trimBOM(b)
	}
	if isBlank(b) {
		return
	}
	if err := r.sc.decode(b, nil, &r.ev); err != nil {
		kind := corrupt
		if de, ok := err.(*decodeError); ok && de.Err == errVersion && r.ev.V > version {
			kind = newerVersion
		}
		st.problem(line, kind, r.ev.ID, err.Error())
		return
	}
	st.apply(&r.ev, line)
}

// readTornTail reports the unterminated, undecodable segment at the end of a log,
// if any, so doctor can show it. read/size/cur as for Replay. Bytes past cur
// that hold a line end are lines another process appended since cur was
// read, not a torn tail (an append seals a torn line before it writes:
// files.AppendLocked): they are for the next read to judge.
//
//	readTornTail(…, cur at 120, log of 200 bytes ending "…}\n")  => 0, ""
//	readTornTail(…, cur at 120, log of 150 bytes ending `{"v":1,"t`) => line, `{"v":1,"t`
func readTornTail(read readAt, cur cursor, size int64) (line int, text string, err error) {
	if cur.Offset >= size {
		return 0, "", nil
	}
	n := size - cur.Offset
	if n > 4096 {
		n = 4096
	}
	buf := make([]byte, n)
	k, err := read(cur.Offset, buf)
	if err != nil {
		return 0, "", err
	}
	if bytes.IndexByte(buf[:k], '\n') >= 0 {
		return 0, "", nil
	}
	return cur.Line + 1, string(buf[:k]), nil
}

// trimBOM drops a UTF-8 byte order mark some editors put at the start of a
// file: the first event is an event like any other. The file keeps it (the
// log is only ever appended to).
func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

func trimCR(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\r' {
		return b[:len(b)-1]
	}
	return b
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
