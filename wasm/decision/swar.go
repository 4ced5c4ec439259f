package decision

import "encoding/binary"

// Word-at-a-time scanning. The replay's hot loops look for a newline and for
// the end of a JSON string; checking eight bytes per step cuts their cost
// several-fold in WebAssembly, which has no vectorised IndexByte.
const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// hasByte reports whether any byte of w equals c.
func hasByte(w uint64, c byte) bool {
	x := w ^ (lo8 * uint64(c))
	return (x-lo8)&^x&hi8 != 0
}

// indexNewline is bytes.IndexByte(b, '\n').
func indexNewline(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if hasByte(binary.LittleEndian.Uint64(b[i:]), '\n') {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '\n' {
			return i
		}
	}
	return -1
}

// plainRun returns how many bytes from b[i:] are ordinary string content:
// not a quote, a backslash, a control character or a non-ASCII byte.
func plainRun(b []byte, i int) int {
	start := i
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		// Any byte < 0x20 or >= 0x80, or equal to '"' or '\\', stops the run.
		if (w-lo8*0x20)&^w&hi8 != 0 || w&hi8 != 0 || hasByte(w, '"') || hasByte(w, '\\') {
			break
		}
	}
	for ; i < len(b) && strClass[b[i]] == 0; i++ {
	}
	return i - start
}
