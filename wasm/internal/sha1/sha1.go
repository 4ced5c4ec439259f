// Package sha1 computes SHA-1 digests (FIPS 180-4) for the core's ids: the
// project id, page ids and hashes, staged-fact ids. It computes byte for byte
// what crypto/sha1 computes, so ids written before stay the same, without
// linking crypto/sha1: in TinyGo that package brings FIPS 140 self-tests and
// godebug settings that run when the module starts, cost about 45 KB, and
// leave later package initializers (every map literal) to run at start-up too
// (docs/decisions/009-module-size.md).
//
// It names files and pages; it must never be used where security depends on
// the hash (SHA-1 is broken for that).
package sha1

import "math/bits"

// Size is the length of a digest in bytes.
const Size = 20

const blockSize = 64

// Digest is a running SHA-1 computation. The zero value is not ready: use New.
type Digest struct {
	h   [5]uint32
	buf [blockSize]byte
	n   int    // bytes waiting in buf
	len uint64 // bytes written in all
}

// New returns a Digest with nothing written yet.
func New() *Digest {
	d := &Digest{}
	d.Reset()
	return d
}

// Reset forgets everything written.
func (d *Digest) Reset() {
	d.h = [5]uint32{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0}
	d.n, d.len = 0, 0
}

// Size is the length of the digest in bytes.
func (d *Digest) Size() int { return Size }

// BlockSize is the length of the blocks SHA-1 works on.
func (d *Digest) BlockSize() int { return blockSize }

// Write adds p to what is digested. It never fails.
func (d *Digest) Write(p []byte) (int, error) {
	n := len(p)
	d.len += uint64(n)
	if d.n > 0 {
		c := copy(d.buf[d.n:], p)
		d.n += c
		p = p[c:]
		if d.n < blockSize {
			return n, nil
		}
		d.block(d.buf[:])
		d.n = 0
	}
	for len(p) >= blockSize {
		d.block(p[:blockSize])
		p = p[blockSize:]
	}
	d.n = copy(d.buf[:], p)
	return n, nil
}

// Sum appends the digest of what was written to b; d can go on being written.
func (d *Digest) Sum(b []byte) []byte {
	s := d.final()
	return append(b, s[:]...)
}

// Sum returns the SHA-1 digest of data.
//
//	hex.EncodeToString(Sum([]byte("abc"))) => "a9993e364706816aba3e25717850c26c9cd0d89d"
func Sum(data []byte) [Size]byte {
	var d Digest
	d.Reset()
	d.Write(data)
	return d.final()
}

// final pads a copy of d (a 1 bit, zeros, the length in bits) and returns its digest.
func (d Digest) final() [Size]byte {
	bitLen := d.len << 3
	var pad [blockSize + 8]byte
	pad[0] = 0x80
	k := 56 - d.n
	if d.n >= 56 {
		k += blockSize
	}
	for i := 0; i < 8; i++ {
		pad[k+i] = byte(bitLen >> (56 - 8*i))
	}
	d.Write(pad[:k+8])
	var out [Size]byte
	for i, v := range d.h {
		out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	}
	return out
}

// block digests one 64-byte block.
func (d *Digest) block(p []byte) {
	var w [80]uint32
	for i := 0; i < 16; i++ {
		w[i] = uint32(p[4*i])<<24 | uint32(p[4*i+1])<<16 | uint32(p[4*i+2])<<8 | uint32(p[4*i+3])
	}
	for i := 16; i < 80; i++ {
		w[i] = bits.RotateLeft32(w[i-3]^w[i-8]^w[i-14]^w[i-16], 1)
	}
	a, b, c, dd, e := d.h[0], d.h[1], d.h[2], d.h[3], d.h[4]
	for i := 0; i < 80; i++ {
		var f, k uint32
		switch {
		case i < 20:
			f, k = b&c|^b&dd, 0x5A827999
		case i < 40:
			f, k = b^c^dd, 0x6ED9EBA1
		case i < 60:
			f, k = b&c|b&dd|c&dd, 0x8F1BBCDC
		default:
			f, k = b^c^dd, 0xCA62C1D6
		}
		t := bits.RotateLeft32(a, 5) + f + e + k + w[i]
		a, b, c, dd, e = t, a, bits.RotateLeft32(b, 30), c, dd
	}
	d.h[0] += a
	d.h[1] += b
	d.h[2] += c
	d.h[3] += dd
	d.h[4] += e
}
