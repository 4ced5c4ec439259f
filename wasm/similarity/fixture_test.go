package similarity

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

const fixture = "../../testdata/similarity/pairs.jsonl"

// loadPairs reads the labelled fixture, naming the line of any bad entry.
func loadPairs(t testing.TB) []Pair {
	t.Helper()
	f, err := os.Open(filepath.FromSlash(fixture))
	if err != nil {
		t.Fatalf("open the labelled pairs: %v", err)
	}
	defer f.Close()
	var pairs []Pair
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var p Pair
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("%s:%d: %v", fixture, line, err)
		}
		if p.A == "" || p.B == "" || p.Note == "" {
			t.Fatalf("%s:%d: a, b and note are required", fixture, line)
		}
		pairs = append(pairs, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", fixture, err)
	}
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
	if len(all) < 150 {
		t.Fatalf("fixture has %d pairs, want at least 150", len(all))
	}
	for _, name := range []string{"tune", "test"} {
		pairs := split(all, name)
		r := Evaluate(pairs)
		t.Logf("%-4s %s", name, r)
		for _, m := range r.Misses {
			p := pairs[m.Pair]
			t.Logf("  want %-9s got %-9s %.2f  %q | %q  (%s)", m.Want, m.Got.Verdict, m.Got.Score, p.A, p.B, m.Got.Reason)
		}
		if r.Duplicate.Precision < 0.9 {
			t.Errorf("%s split: duplicate precision %.2f < 0.90", name, r.Duplicate.Precision)
		}
	}
}
