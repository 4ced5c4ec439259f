package search

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// The floors of the labelled recall set, measured when it was written
// (docs/benchmarks.md, "memory_search recall"): a ranking change that finds
// less fails here.
const (
	floorRecall5    = 0.95
	floorPrecision1 = 0.95
	floorMRR        = 0.95
)

type recallSet struct {
	Entries []struct {
		Ref, Kind, Mark, Title, Text, Extra string
		DaysAgo                             int
	}
	Queries []struct {
		Q    string
		Want []string
	}
}

var recallKinds = map[string]Kind{"decision": Decision, "note": Note, "observation": Observation, "session": Message}

// TestRecallSetStaysAboveItsFloors runs every query of
// testdata/search/recall.json and measures, over the queries: recall@5 (the
// share of the wanted entries in the first five hits), precision@1 (the
// first hit is wanted), precision@5 (the share of the first five hits that
// are wanted, over hits returned) and the mean reciprocal rank of the first
// wanted hit.
func TestRecallSetStaysAboveItsFloors(t *testing.T) {
	data, err := os.ReadFile("../../testdata/search/recall.json")
	require.NoError(t, err)
	var set recallSet
	require.NoError(t, json.Unmarshal(data, &set))
	require.True(t, len(set.Queries) >= 30, "at least 30 queries")
	var entries []Doc
	for _, e := range set.Entries {
		kind, ok := recallKinds[e.Kind]
		require.True(t, ok, "unknown kind", e.Kind)
		var at int64
		if e.DaysAgo > 0 {
			at = now - int64(e.DaysAgo)*day
		}
		entries = append(entries, Doc{Kind: kind, Ref: e.Ref, Cite: e.Ref, Mark: e.Mark, Title: e.Title, Text: e.Text, Extra: e.Extra, Time: at})
	}
	var x Index
	x.Update([]Source{docs(entries...)})

	var recall5, prec1, prec5, mrr float64
	for _, q := range set.Queries {
		hits := x.Search(q.Q, 5, now)
		want := map[string]bool{}
		for _, w := range q.Want {
			want[w] = true
		}
		found, rank := 0, 0
		for i, h := range hits {
			if want[h.Doc.Ref] {
				found++
				if rank == 0 {
					rank = i + 1
				}
			}
		}
		recall5 += float64(found) / float64(len(q.Want))
		if len(hits) > 0 {
			prec5 += float64(found) / float64(len(hits))
			if want[hits[0].Doc.Ref] {
				prec1++
			}
		}
		if rank > 0 {
			mrr += 1 / float64(rank)
		}
		if rank != 1 || found < len(q.Want) {
			t.Logf("%q wants %v, got %s", q.Q, q.Want, refs(hits))
		}
	}
	n := float64(len(set.Queries))
	recall5, prec1, prec5, mrr = recall5/n, prec1/n, prec5/n, mrr/n
	t.Logf("%d queries over %d entries: recall@5 %.3f, precision@1 %.3f, precision@5 %.3f, MRR %.3f", len(set.Queries), len(entries), recall5, prec1, prec5, mrr)
	require.True(t, recall5 >= floorRecall5, "recall@5 "+strconv.FormatFloat(recall5, 'f', 3, 64)+" under its floor")
	require.True(t, prec1 >= floorPrecision1, "precision@1 "+strconv.FormatFloat(prec1, 'f', 3, 64)+" under its floor")
	require.True(t, mrr >= floorMRR, "MRR "+strconv.FormatFloat(mrr, 'f', 3, 64)+" under its floor")
}
