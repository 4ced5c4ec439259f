package relevance

import (
	"strconv"
	"strings"
)

// Depth is how many hits Measure asks a ranking for: the deepest figure it
// takes is top-10.
const Depth = 10

// Score is a ranking's recall over some questions, each figure the mean
// over them of:
//
//	Top5, Top10  the question's answer turns among the first 5 (10) hits:
//	             1 if any is there, or the share there when all are needed
//	Session5     the same for the sessions the answer turns are in, among
//	             the sessions of the first 5 hits
type Score struct {
	N        int     `json:"n"`
	Top5     float64 `json:"top5"`
	Top10    float64 `json:"top10"`
	Session5 float64 `json:"session5"`
}

// Report is a ranking's Score per kind of question, in the set's order,
// and over every question; Questions holds each question's own figures.
type Report struct {
	Kinds     []KindScore     `json:"kinds"`
	All       Score           `json:"all"`
	Questions []QuestionScore `json:"-"`
}

// KindScore is the Score of one kind of question.
type KindScore struct {
	Kind string `json:"kind"`
	Score
}

// QuestionScore is one question's figures and the rank of its first answer
// turn among the hits (0: none of the first Depth).
type QuestionScore struct {
	Question
	Score
	Rank int
}

// Measure asks rank for each question's hits (at most Depth, best first,
// each the turns it shows: one, or a question with its answer) and scores
// them.
func Measure(s *Set, rank func(q Question) [][]Ref) Report {
	sums := map[string]*Score{}
	var all Score
	var rep Report
	for _, q := range s.Questions {
		hits := rank(q)
		qs := QuestionScore{Question: q, Score: Score{N: 1}}
		qs.Top5 = recall(q, hits, 5, func(r Ref) string { return r.Session + "#" + r.ID })
		qs.Top10 = recall(q, hits, Depth, func(r Ref) string { return r.Session + "#" + r.ID })
		qs.Session5 = recall(q, hits, 5, func(r Ref) string { return r.Session })
		for i, h := range hits[:min(Depth, len(hits))] {
			for _, r := range h {
				if qs.Rank == 0 && answers(q, r) {
					qs.Rank = i + 1
				}
			}
		}
		rep.Questions = append(rep.Questions, qs)
		sum := sums[q.Kind]
		if sum == nil {
			sum = &Score{}
			sums[q.Kind] = sum
		}
		for _, x := range []*Score{sum, &all} {
			x.N++
			x.Top5 += qs.Top5
			x.Top10 += qs.Top10
			x.Session5 += qs.Session5
		}
	}
	for _, k := range s.Kinds {
		if sum := sums[k.Name]; sum != nil {
			rep.Kinds = append(rep.Kinds, KindScore{k.Name, sum.mean()})
		}
	}
	rep.All = all.mean()
	return rep
}

func (x Score) mean() Score {
	if x.N == 0 {
		return x
	}
	n := float64(x.N)
	return Score{N: x.N, Top5: x.Top5 / n, Top10: x.Top10 / n, Session5: x.Session5 / n}
}

// recall is the question's answers, seen through key (a turn, or its
// session), among the first k hits: 1 if any is there, or the share there
// when all are needed.
func recall(q Question, hits [][]Ref, k int, key func(Ref) string) float64 {
	found := map[string]bool{}
	for _, h := range hits[:min(k, len(hits))] {
		for _, r := range h {
			found[key(r)] = true
		}
	}
	want := map[string]bool{}
	for _, a := range q.Answers {
		want[key(a)] = true
	}
	n := 0
	for w := range want {
		if found[w] {
			n++
		}
	}
	switch {
	case q.All:
		return float64(n) / float64(len(want))
	case n > 0:
		return 1
	}
	return 0
}

func answers(q Question, r Ref) bool {
	for _, a := range q.Answers {
		if a == r {
			return true
		}
	}
	return false
}

// Table is the reports side by side, one row per kind and one for all
// questions, in Markdown: for each ranking its top-5, top-10 and
// session-top-5 figures.
//
//	| kind | questions | ours top-5 | top-10 | session top-5 | BM25 top-5 | …
func Table(names []string, reps []Report) string {
	var b strings.Builder
	b.WriteString("| kind | questions |")
	sep := "|---|---|"
	for i, n := range names {
		if i == 0 {
			b.WriteString(" " + n + " top-5 | top-10 | session top-5 |")
		} else {
			b.WriteString(" " + n + " top-5 | top-10 | session |")
		}
		sep += "---|---|---|"
	}
	b.WriteString("\n" + sep + "\n")
	row := func(kind string, pick func(Report) Score) {
		b.WriteString("| " + kind + " | " + strconv.Itoa(pick(reps[0]).N) + " |")
		for _, r := range reps {
			s := pick(r)
			b.WriteString(" " + fmt3(s.Top5) + " | " + fmt3(s.Top10) + " | " + fmt3(s.Session5) + " |")
		}
		b.WriteString("\n")
	}
	for i, k := range reps[0].Kinds {
		row(k.Kind, func(r Report) Score { return r.Kinds[i].Score })
	}
	row("**all**", func(r Report) Score { return r.All })
	return b.String()
}

func fmt3(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

// Each is a ranking of single turns (BM25's) as Measure takes it.
func Each(refs []Ref) [][]Ref {
	out := make([][]Ref, len(refs))
	for i, r := range refs {
		out[i] = []Ref{r}
	}
	return out
}
