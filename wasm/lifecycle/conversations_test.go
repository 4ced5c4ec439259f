package lifecycle

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/pi-memory/pi-memory/internal/relevance"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hsimport"
	"github.com/tidwall/gjson"
)

// conversationFloors are memory_search's figures on the conversation set
// (testdata/search/conversations) when it was written, per kind of question
// (docs/benchmarks.md, "Conversation recall"): a ranking change that finds
// less on any kind fails here. A change that finds more raises them.
var conversationFloors = map[string]relevance.Score{
	"fact":           {Top5: 0.999, Top10: 0.999, Session5: 0.999},
	"answer-after":   {Top5: 0.999, Top10: 0.999, Session5: 0.999},
	"multi-turn":     {Top5: 0.811, Top10: 0.874, Session5: 0.999},
	"temporal":       {Top5: 0.764, Top10: 0.999, Session5: 0.941},
	"paraphrase":     {Top5: 0.055, Top10: 0.166, Session5: 0.333},
	"function-words": {Top5: 0.799, Top10: 0.799, Session5: 0.866},
	"reversed":       {Top5: 0.733, Top10: 0.999, Session5: 0.866},
	"command":        {Top5: 0.999, Top10: 0.999, Session5: 0.999},
	"chat":           {Top5: 0.944, Top10: 0.944, Session5: 0.999},
}

// TestConversationSetStaysAboveItsFloors writes the set's sessions where pi
// keeps a project's sessions, asks every question through /memory search
// (the ranking memory_search uses, its hits as --json gives them, ten deep)
// at the set's "now", and holds each kind's top-5, top-10 and answer-session
// top-5 recall to its floor. BM25 over the same turns, in the same run, is
// logged beside it, not judged.
func TestConversationSetStaysAboveItsFloors(t *testing.T) {
	set, err := relevance.Load("../../testdata/search/conversations")
	require.NoError(t, err)
	r := newRig(t, false)
	dir := filepath.Join(r.agent, "sessions", hsimport.SessionFolder(r.project))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, data := range set.Files(r.project) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	r.h.now = set.Now.UnixMilli()

	ours := relevance.Measure(set, func(q relevance.Question) [][]relevance.Ref {
		r.call("command", map[string]any{"name": "memory", "argv": []string{"search", "--limit", strconv.Itoa(relevance.Depth), "--json", "--", q.Q}})
		out := r.last.Get(`effects.#(t=="output").text`)
		require.True(t, out.Exists(), "no output for", q.ID, r.last.Raw)
		var hits [][]relevance.Ref
		for _, h := range gjson.Parse(out.Str).Array() {
			hits = append(hits, append(set.Cited(h.Get("ref").Str), set.Cited(h.Get("turn.ref").Str)...))
		}
		return hits
	})
	turns := set.Turns()
	bm25, bm25NoStop := relevance.NewBM25(turns, false), relevance.NewBM25(turns, true)
	plain := relevance.Measure(set, func(q relevance.Question) [][]relevance.Ref { return relevance.Each(bm25.Search(q.Q, relevance.Depth)) })
	noStop := relevance.Measure(set, func(q relevance.Question) [][]relevance.Ref {
		return relevance.Each(bm25NoStop.Search(q.Q, relevance.Depth))
	})
	t.Logf("%d questions over %d turns of %d sessions:\n%s", len(set.Questions), len(turns), len(set.Sessions),
		relevance.Table([]string{"memory_search", "BM25", "BM25 without stop words"}, []relevance.Report{ours, plain, noStop}))
	for _, q := range ours.Questions {
		if q.Top10 < 1 {
			t.Logf("%s %q: answer rank %d (0: not in the first %d)", q.ID, q.Q, q.Rank, relevance.Depth)
		}
	}

	require.Equal(t, len(conversationFloors), len(ours.Kinds), "a floor for every kind")
	for _, k := range ours.Kinds {
		f, ok := conversationFloors[k.Kind]
		require.True(t, ok, "no floor for", k.Kind)
		for _, c := range []struct {
			what       string
			got, floor float64
		}{{"top-5", k.Top5, f.Top5}, {"top-10", k.Top10, f.Top10}, {"session top-5", k.Session5, f.Session5}} {
			require.True(t, c.got >= c.floor, k.Kind+": "+c.what+" recall "+strconv.FormatFloat(c.got, 'f', 3, 64)+" under its floor "+strconv.FormatFloat(c.floor, 'f', 3, 64))
		}
	}
}
