package similarity

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// FuzzCompare: any two texts give a verdict without panicking, a score in
// [0,1], the same verdict in either order, and a text with a word is always a
// duplicate of itself.
func FuzzCompare(f *testing.F) {
	for _, s := range [][2]string{
		{"Use PostgreSQL for the primary database", "Use MySQL for the primary database"},
		{"Always squash merge PRs", "Never squash merge PRs"},
		{"Prefer composition over inheritance", "Use tabs, not spaces"},
		{"Don't use C++ or C#", "For the primary database, use PostgreSQL"},
		{"Migrate from MySQL to PostgreSQL", "Package manager: pnpm"},
		{"", "!!!"},
		{"a b c d e f", "ab cd ef"},
		{"ÉCOLE ’s café", "école's cafe\u0301"},
	} {
		f.Add(s[0], s[1])
	}
	for _, p := range loadPairs(f) {
		f.Add(p.A, p.B)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		x, y := Prepare(a), Prepare(b)
		r := Compare(&x, &y)
		require.True(t, r.Score >= 0 && r.Score <= 1 && r.Score == r.Score, "Compare(%q, %q) score %v outside [0,1]", a, b, r.Score)
		require.Equal(t, r.Verdict, Compare(&y, &x).Verdict, "Compare(%q, %q)", a, b)
		if x.norm != "" {
			z := Prepare(a)
			self := Compare(&x, &z)
			require.True(t, self.Verdict == Duplicate && self.Score == 1, "Compare(%q, itself) = %v %.2f", a, self.Verdict, self.Score)
		}
	})
}

// Every pair of fixture texts, in both orders: realistic words reach the
// frame and conflict paths far more often than random bytes do.
func TestVerdictDoesNotDependOnOrder(t *testing.T) {
	var fs []Features
	for _, p := range loadPairs(t) {
		fs = append(fs, Prepare(p.A), Prepare(p.B))
	}
	for i := range fs {
		for j := i + 1; j < len(fs); j++ {
			r, back := Compare(&fs[i], &fs[j]), Compare(&fs[j], &fs[i])
			require.True(t, r.Verdict == back.Verdict && r.Score == back.Score, "Compare(%q, %q) = %v %.2f, reversed %v %.2f", fs[i].text, fs[j].text, r.Verdict, r.Score, back.Verdict, back.Score)
		}
	}
}
