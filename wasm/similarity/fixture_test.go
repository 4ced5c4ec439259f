package similarity

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

const fixture = "../../testdata/similarity/pairs.jsonl"

// loadPairs reads the labelled fixture, naming the line of any bad entry.
func loadPairs(t testing.TB) []Pair {
	t.Helper()
	f, err := os.Open(filepath.FromSlash(fixture))
	require.NoError(t, err, "open the labelled pairs")
	defer f.Close()
	var pairs []Pair
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var p Pair
		require.NoError(t, json.Unmarshal(sc.Bytes(), &p), "%s:%d", fixture, line)
		require.True(t, p.A != "" && p.B != "" && p.Note != "", "%s:%d: a, b and note are required", fixture, line)
		pairs = append(pairs, p)
	}
	require.NoError(t, sc.Err(), "read %s", fixture)
	return pairs
}

func split(pairs []Pair, name string) []Pair {
	var out []Pair
	for _, p := range pairs {
		if (p.Split == "test") == (name == "test") {
			out = append(out, p)
		}
	}
	return out
}

// The bar: at least 0.9 duplicate precision at the chosen threshold,
// on the tuning lines and on the held-out lines alike.
func TestFixtureDuplicatePrecisionAtLeast90(t *testing.T) {
	all := loadPairs(t)
	require.True(t, len(all) >= 150, "fixture has %d pairs, want at least 150", len(all))
	for _, name := range []string{"tune", "test"} {
		pairs := split(all, name)
		r := Evaluate(pairs)
		t.Logf("%-4s %s", name, r)
		for _, m := range r.Misses {
			p := pairs[m.Pair]
			t.Logf("  want %-9s got %-9s %.2f  %q | %q  (%s)", m.Want, m.Got.Verdict, m.Got.Score, p.A, p.B, m.Got.Reason)
		}
		require.True(t, r.Duplicate.Precision >= 0.9, "%s split: duplicate precision %.2f < 0.90", name, r.Duplicate.Precision)
	}
}
