// Package jsonw appends JSON to byte slices without reflection, so the core's
// outputs are fast under TinyGo and byte-for-byte deterministic. It only writes;
// reading is gjson's job.
package jsonw

import (
	"math"
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// String appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, so the output
// is always valid JSON.
//
//	String(nil, `say "hi"`) => "say \"hi\""
func String(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Int appends n.
//
//go:noinline
func Int(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// Bool appends true or false.
//
//go:noinline
func Bool(dst []byte, b bool) []byte {
	if b {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// Float appends f with the shortest representation that round-trips. NaN and
// the infinities have no JSON form: they are written as null (as JavaScript's
// JSON.stringify does), so the output stays valid JSON.
//
//	Float(nil, 0.25) => 0.25
//	Float(nil, 1e21) => 1e+21
//	Float(nil, math.NaN()) => null
func Float(dst []byte, f float64) []byte {
	if f != f || f > math.MaxFloat64 || f < -math.MaxFloat64 {
		return append(dst, "null"...)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}

// Object builds one JSON object; keys are written in the order they are added.
//
//	var o jsonw.Object
//	o.Str("a", "x"); o.Int("n", 2)
//	o.Close() => {"a":"x","n":2}
type Object struct {
	B []byte
	n int
}

// Open starts an object appended to buf.
//
//go:noinline
func Open(buf []byte) Object { return Object{B: append(buf, '{')} }

//go:noinline
func (o *Object) key(k string) {
	if len(o.B) == 0 {
		o.B = append(o.B, '{')
	}
	if o.n > 0 {
		o.B = append(o.B, ',')
	}
	o.n++
	o.B = String(o.B, k)
	o.B = append(o.B, ':')
}

//go:noinline
func (o *Object) Str(k, v string) { o.key(k); o.B = String(o.B, v) }

//go:noinline
func (o *Object) Int(k string, v int64) { o.key(k); o.B = Int(o.B, v) }

//go:noinline
func (o *Object) Bool(k string, v bool) { o.key(k); o.B = Bool(o.B, v) }

//go:noinline
func (o *Object) Float(k string, v float64) { o.key(k); o.B = Float(o.B, v) }

//go:noinline
func (o *Object) Null(k string) { o.key(k); o.B = append(o.B, "null"...) }

// Raw appends an already encoded JSON value.
//
//go:noinline
func (o *Object) Raw(k string, raw []byte) { o.key(k); o.B = append(o.B, raw...) }

// Strs appends an array of strings.
//
//go:noinline
func (o *Object) Strs(k string, vs []string) {
	o.key(k)
	o.B = append(o.B, '[')
	for i, v := range vs {
		if i > 0 {
			o.B = append(o.B, ',')
		}
		o.B = String(o.B, v)
	}
	o.B = append(o.B, ']')
}

// Array appends a JSON array of n elements, each appended by elem.
//
//	Array(nil, 2, func(b []byte, i int) []byte { return Int(b, int64(i)) }) => [0,1]
//
//go:noinline
func Array(dst []byte, n int, elem func(b []byte, i int) []byte) []byte {
	dst = append(dst, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = elem(dst, i)
	}
	return append(dst, ']')
}

// Close ends the object and returns the bytes.
//
//go:noinline
func (o *Object) Close() []byte {
	if len(o.B) == 0 {
		o.B = append(o.B, '{')
	}
	o.B = append(o.B, '}')
	return o.B
}
