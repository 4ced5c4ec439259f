package similarity

import (
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Pair is one labelled line of testdata/similarity/pairs.jsonl.
type Pair struct {
	A     string  `json:"a"`
	B     string  `json:"b"`
	Label Verdict `json:"label"`
	Note  string  `json:"note,omitempty"`
	Split string  `json:"split,omitempty"` // "test" for the held-out lines
}

// Metrics counts one verdict's hits. Precision is 0 when the verdict was
// never given, recall 0 when it was never expected.
type Metrics struct {
	TP, FP, FN            int
	Precision, Recall, F1 float64
}

// Miss is a pair whose verdict differs from its label.
type Miss struct {
	Pair int // index into the pairs given to Evaluate
	Want Verdict
	Got  Result
}

// Report is Evaluate's answer.
type Report struct {
	Pairs     int
	Duplicate Metrics
	Conflict  Metrics
	Misses    []Miss
}

// Evaluate runs Compare(A, B) over labelled pairs and scores the Duplicate
// and Conflict verdicts.
//
//	Evaluate([{A:"Use tabs", B:"use tabs!", Label:Duplicate},
//	          {A:"Use Go for the CLI", B:"Use Rust for the CLI", Label:Conflict}])
//	  => Duplicate P 1.00 R 1.00, Conflict P 1.00 R 1.00, no misses
func Evaluate(pairs []Pair) Report {
	r := Report{Pairs: len(pairs)}
	for i, p := range pairs {
		a, b := Prepare(p.A), Prepare(p.B)
		got := Compare(&a, &b)
		tally(&r.Duplicate, Duplicate, p.Label, got.Verdict)
		tally(&r.Conflict, Conflict, p.Label, got.Verdict)
		if got.Verdict != p.Label {
			r.Misses = append(r.Misses, Miss{Pair: i, Want: p.Label, Got: got})
		}
	}
	r.Duplicate.finish()
	r.Conflict.finish()
	return r
}

func tally(m *Metrics, v, want, got Verdict) {
	switch {
	case got == v && want == v:
		m.TP++
	case got == v:
		m.FP++
	case want == v:
		m.FN++
	}
}

func (m *Metrics) finish() {
	if m.TP+m.FP > 0 {
		m.Precision = float64(m.TP) / float64(m.TP+m.FP)
	}
	if m.TP+m.FN > 0 {
		m.Recall = float64(m.TP) / float64(m.TP+m.FN)
	}
	if m.Precision+m.Recall > 0 {
		m.F1 = 2 * m.Precision * m.Recall / (m.Precision + m.Recall)
	}
}

// String is one line for make bench.
//
//	"150 pairs  duplicate P 0.95 R 0.88 F1 0.91  conflict P 0.90 R 0.70 F1 0.79"
func (r Report) String() string {
	return text.Plural(r.Pairs, "pair", "pairs") + "  duplicate " + r.Duplicate.String() + "  conflict " + r.Conflict.String()
}

// String reads "P 0.95 R 0.88 F1 0.91".
func (m Metrics) String() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
	return "P " + f(m.Precision) + " R " + f(m.Recall) + " F1 " + f(m.F1)
}
