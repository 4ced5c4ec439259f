package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"

	"github.com/pi-memory/pi-memory/host"
	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/relevance"
	"github.com/pi-memory/pi-memory/wasm/hsimport"
)

// conversations: memory_search's recall on the conversation relevance set
// (issue 26), through the compiled module as pimem runs it, beside BM25
// over the same turns computed in the same run. The set's sessions are
// written into an in-memory project (fsys.Mem, the clock at the set's now)
// where pi keeps that project's sessions; each question is asked through
// /memory search --json, ten deep (the ranking memory_search uses).
// Figures, not times: it is a measure of what is found.
//
//	bench conversations -module M [SET]     SET: testdata/search/conversations
func conversations(module string, args []string) (any, error) {
	dir := "testdata/search/conversations"
	if len(args) > 0 {
		dir = args[0]
	}
	set, err := relevance.Load(dir)
	if err != nil {
		return nil, err
	}
	rt, _, err := compile(module)
	if err != nil {
		return nil, err
	}
	defer rt.Close(context.Background())
	clock := fsys.NewManual(set.Now)
	mem := fsys.NewMem(clock)
	project, agent := set.Cwd, "/bench/agent"
	sessions := path.Join(agent, "sessions", hsimport.SessionFolder(project))
	for _, d := range []string{path.Join(project, ".git"), sessions} {
		if err := mem.Mkdir(d); err != nil {
			return nil, err
		}
	}
	for name, data := range set.Files(project) {
		if err := mem.WriteAtomic(path.Join(sessions, name), data); err != nil {
			return nil, err
		}
	}
	inst, err := rt.NewInstance(context.Background(), host.Config{FS: mem, Clock: clock})
	if err != nil {
		return nil, err
	}
	defer inst.Close()
	start, _ := json.Marshal(map[string]any{
		"cwd": project, "agentDir": agent, "trusted": true, "hasUI": false,
		"mode": "print", "reason": "startup", "sessionId": "bench-now",
	})
	if _, _, err := call(inst, "session_start", start); err != nil {
		return nil, err
	}

	var failed error
	ours := relevance.Measure(set, func(q relevance.Question) [][]relevance.Ref {
		if failed != nil {
			return nil
		}
		in, _ := json.Marshal(map[string]any{"name": "memory", "argv": []string{"search", "--limit", strconv.Itoa(relevance.Depth), "--json", "--", q.Q}})
		env, _, err := call(inst, "command", in)
		if err != nil {
			failed = fmt.Errorf("%s: %w", q.ID, err)
			return nil
		}
		var hits []struct {
			Ref  string `json:"ref"`
			Turn struct {
				Ref string `json:"ref"`
			} `json:"turn"`
		}
		if err := json.Unmarshal([]byte(output(env)), &hits); err != nil {
			failed = fmt.Errorf("%s: /memory search --json printed no JSON array: %w", q.ID, err)
			return nil
		}
		var refs [][]relevance.Ref
		for _, h := range hits {
			refs = append(refs, append(set.Cited(h.Ref), set.Cited(h.Turn.Ref)...))
		}
		return refs
	})
	if failed != nil {
		return nil, failed
	}
	if ours.All.Top10 == 0 {
		return nil, errors.New("memory_search found no answer to any question: are the sessions where the project's are looked for?")
	}
	turns := set.Turns()
	bm25, noStop := relevance.NewBM25(turns, false), relevance.NewBM25(turns, true)
	out := conversationsOut{
		Sessions: len(set.Sessions), Turns: len(turns), Questions: len(set.Questions),
		Ours: ours,
		BM25: relevance.Measure(set, func(q relevance.Question) [][]relevance.Ref { return relevance.Each(bm25.Search(q.Q, relevance.Depth)) }),
		BM25NoStop: relevance.Measure(set, func(q relevance.Question) [][]relevance.Ref {
			return relevance.Each(noStop.Search(q.Q, relevance.Depth))
		}),
	}
	out.Table = relevance.Table([]string{"memory_search", "BM25", "BM25 without stop words"}, []relevance.Report{out.Ours, out.BM25, out.BM25NoStop})
	return out, nil
}

type conversationsOut struct {
	Sessions   int              `json:"sessions"`
	Turns      int              `json:"turns"`
	Questions  int              `json:"questions"`
	Ours       relevance.Report `json:"ours"`
	BM25       relevance.Report `json:"bm25"`
	BM25NoStop relevance.Report `json:"bm25NoStop"`
	Table      string           `json:"table"` // the three side by side, in Markdown
}

// output is the text of a command's output effects.
func output(env host.Envelope) string {
	s := ""
	for _, e := range env.Effects {
		if e.T == "output" {
			s += e.Text
		}
	}
	return s
}
