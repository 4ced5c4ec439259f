package sha1

import (
	"bytes"
	stdsha1 "crypto/sha1"
	"encoding/hex"
	"math/rand"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestSumMatchesTheStandardVectors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
		{"abc", "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"two blocks (FIPS 180 example)", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
		{"a million a", strings.Repeat("a", 1000000), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Sum([]byte(tc.in))
			require.Equal(t, tc.want, hex.EncodeToString(s[:]))
		})
	}
}

// Every length around the block and padding boundaries, and random text,
// digested at once and in pieces: the ids written by crypto/sha1 before must
// come out the same.
func TestSumIsWhatCryptoSHA1Computes(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n <= 300; n++ {
		data := make([]byte, n)
		rng.Read(data)
		want := stdsha1.Sum(data)
		require.Equal(t, want, Sum(data), "length %d", n)
		for _, cut := range []int{0, 1, n / 3, n / 2, n - 1} {
			if cut < 0 || cut > n {
				continue
			}
			d := New()
			d.Write(data[:cut])
			d.Write(data[cut:])
			require.Equal(t, want[:], d.Sum(nil), "length %d cut at %d", n, cut)
		}
	}
}

func TestSumAppendsAndLeavesTheDigestRunning(t *testing.T) {
	d := New()
	d.Write([]byte("ab"))
	first := d.Sum([]byte("x"))
	require.Equal(t, byte('x'), first[0])
	want := stdsha1.Sum([]byte("ab"))
	require.Equal(t, want[:], first[1:])
	d.Write([]byte("c"))
	abc := stdsha1.Sum([]byte("abc"))
	require.Equal(t, abc[:], d.Sum(nil))
	d.Reset()
	empty := stdsha1.Sum(nil)
	require.Equal(t, empty[:], d.Sum(nil))
	require.Equal(t, Size, d.Size())
	require.Equal(t, 64, d.BlockSize())
}

func FuzzSum(f *testing.F) {
	f.Add([]byte(""), uint16(0))
	f.Add([]byte("abc"), uint16(1))
	f.Add(bytes.Repeat([]byte{0xff}, 119), uint16(55))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		want := stdsha1.Sum(data)
		require.Equal(t, want, Sum(data))
		c := int(cut) % (len(data) + 1)
		d := New()
		d.Write(data[:c])
		d.Write(data[c:])
		require.Equal(t, want[:], d.Sum(nil))
	})
}
