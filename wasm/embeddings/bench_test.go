package embeddings

import (
	"math/rand"
	"strconv"
	"testing"
)

// BenchmarkNearest is a search's cosine over the most vectors held
// (maxHeld), natively, at 256 dimensions (a model cut with "dimensions"),
// 384 (all-MiniLM's) and 1536 (text-embedding-3-small's); the figure under
// TinyGo is in decision 019's second addendum.
func BenchmarkNearest(b *testing.B) {
	for _, dims := range []int{256, 384, 1536} {
		b.Run(strconv.Itoa(dims), func(b *testing.B) {
			rng := rand.New(rand.NewSource(1))
			vec := func() []int8 {
				f := make([]float64, dims)
				for i := range f {
					f[i] = rng.NormFloat64()
				}
				v, _ := blend(mustQ(f), nil, 0)
				return v
			}
			var t table
			all := func(string) bool { return true }
			for i := 0; i < maxHeld; i++ {
				t.add(record{File: "/s/" + strconv.Itoa(i/15) + ".jsonl", Stamp: 1, Line: i%15 + 2, Vec: vec()}, all)
			}
			q := vec()
			b.ResetTimer()
			for range b.N {
				t.nearest(q, nearestN)
			}
		})
	}
}

func mustQ(f []float64) []int8 {
	v := make([]int8, len(f))
	for i, x := range f {
		v[i] = int8(max(min(x*40, 127), -127))
	}
	return v
}
