package text

import (
	"unicode/utf8"
	"unsafe"
)

// Builder is strings.Builder for the core's messages: the same methods and
// results, with its writes kept out of line. TinyGo inlines strings.Builder's
// WriteString, with its check for a copied Builder and the append behind it,
// at every call, a few hundred bytes of module each time (decision 009); one
// call to these costs a few. A Builder, like strings.Builder, must not be
// copied once written to (this one does not check).
//
//	var b text.Builder
//	b.WriteString("3 decisions")
//	b.WriteByte('\n')
//	b.String() => "3 decisions\n"
type Builder struct{ buf []byte }

// String is what was written. It shares the Builder's memory, as
// strings.Builder's does: later writes never change it.
func (b *Builder) String() string { return unsafe.String(unsafe.SliceData(b.buf), len(b.buf)) }

// Len is the number of bytes written.
func (b *Builder) Len() int { return len(b.buf) }

// Cap is the capacity of the Builder's buffer.
func (b *Builder) Cap() int { return cap(b.buf) }

// Reset empties the Builder.
func (b *Builder) Reset() { b.buf = nil }

// Grow makes room for n more bytes without another allocation; n must not
// be negative.
//
//go:noinline
func (b *Builder) Grow(n int) {
	if n < 0 {
		panic("text.Builder.Grow: negative count")
	}
	if cap(b.buf)-len(b.buf) < n {
		buf := make([]byte, len(b.buf), 2*cap(b.buf)+n)
		copy(buf, b.buf)
		b.buf = buf
	}
}

// Write appends p; it never fails.
//
//go:noinline
func (b *Builder) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// WriteString appends s; it never fails.
//
//go:noinline
func (b *Builder) WriteString(s string) (int, error) {
	b.buf = append(b.buf, s...)
	return len(s), nil
}

// WriteByte appends c; it never fails.
//
//go:noinline
func (b *Builder) WriteByte(c byte) error {
	b.buf = append(b.buf, c)
	return nil
}

// WriteRune appends r in UTF-8 (utf8.RuneError for an invalid rune); it
// never fails.
//
//go:noinline
func (b *Builder) WriteRune(r rune) (int, error) {
	n := len(b.buf)
	b.buf = utf8.AppendRune(b.buf, r)
	return len(b.buf) - n, nil
}
