//go:build wasip1

package hostio

//go:wasmimport extism:host/user pm_input
func pmInput(dstPtr, dstLen uint32) int64

//go:wasmimport extism:host/user pm_output
func pmOutput(ptr, length uint32) int32

// InputLength is the size in bytes of the input of the export call in
// progress.
func InputLength() int { return int(pmInput(0, 0)) }

// ReadInput copies the input of the export call in progress into buf, grown
// when it is too small, in one host call: Extism's own input is copied 8
// bytes per host call, about 14 ns a byte in Node, so pi's 630 KB branch took
// 9 ms to arrive that way (docs/decisions/001-core-host-contract.md).
func ReadInput(buf []byte) []byte {
	n := InputLength()
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if n > 0 {
		p, l := bytesPtr(buf)
		pmInput(p, l)
	}
	return buf
}

// WriteOutput hands the host the envelope of the export call in progress in
// one host call; the host copies it before the call returns.
func WriteOutput(b []byte) {
	p, l := bytesPtr(b)
	pmOutput(p, l)
}
