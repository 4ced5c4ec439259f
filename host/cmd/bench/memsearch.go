package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pi-memory/pi-memory/host"
	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/wasm/hsimport"
)

// memsearch: memory_search over a large project (issue 18): the decision log
// given (100k live decisions), a generated 5,000-line MEMORY.md and 200
// generated earlier pi sessions of 50 messages each (memsearchData). One
// session starts; the first search builds the index (timed alone), then
// calls searches rotate over the queries, each timed alone.
//
//	bench memsearch -module M -log adds-100k.jsonl -calls 200 -tmp DIR
func memsearch(module, logFile, tmp string, calls int) (any, error) {
	if calls < 1 {
		return nil, errors.New("-calls must be at least 1")
	}
	rt, _, err := compile(module)
	if err != nil {
		return nil, err
	}
	defer rt.Close(context.Background())
	s, data, err := memsearchData(tmp, logFile)
	if s.project != "" {
		defer os.RemoveAll(filepath.Dir(s.project))
	}
	if err != nil {
		return nil, err
	}
	lines, sessions, messages := data.IndexLines, data.Sessions, data.Messages
	inst, err := rt.NewInstance(context.Background(), host.Config{FS: fsys.NewOS()})
	if err != nil {
		return nil, err
	}
	defer inst.Close()
	start, _ := json.Marshal(map[string]any{
		"cwd": s.project, "agentDir": s.agent, "trusted": true, "hasUI": false,
		"mode": "print", "reason": "startup", "sessionId": "bench-now",
	})
	_, startD, err := call(inst, "session_start", start)
	if err != nil {
		return nil, err
	}
	memStart, heapStart := memoryBytes(inst), heapInUse(inst)
	queries := memsearchQueries
	input := func(q string) []byte {
		b, _ := json.Marshal(map[string]any{"name": "memory_search", "params": map[string]any{"query": q}})
		return b
	}
	out := memsearchOut{StartMs: ms(startD), IndexLines: lines, Sessions: sessions, Messages: messages}
	env, d, err := searchCall(inst, input(queries[0]))
	if err != nil {
		return nil, err
	}
	out.FirstMs = ms(d)
	out.MemStartBytes, out.HeapStartBytes = memStart, heapStart
	out.MemFirstBytes, out.HeapFirstBytes = memoryBytes(inst), heapInUse(inst)
	if text := toolText(env.Effects); !strings.Contains(text, "matches for") {
		return nil, fmt.Errorf("the first search found nothing: %s", text)
	}
	for i := 0; i < calls; i++ {
		env, d, err := searchCall(inst, input(queries[i%len(queries)]))
		if err != nil {
			return nil, err
		}
		out.Ms = append(out.Ms, ms(d))
		out.Hits = strings.Count(toolText(env.Effects), "\n")
	}
	out.MemBytes, out.HeapBytes = memoryBytes(inst), heapInUse(inst)
	return out, nil
}

// searchCall is one memory_search as a host drives it (decision 018): the
// tool call, then a resume for each slice the core asks for (an http ask of
// no request, answered at once), until the tool result; the time of all of
// them.
func searchCall(inst *host.Instance, input []byte) (host.Envelope, time.Duration, error) {
	env, d, err := call(inst, "tool", input)
	for err == nil && toolText(env.Effects) == "" {
		next := ""
		for _, e := range env.Effects {
			if e.T == "http" && e.Holds() && len(e.Requests) == 0 {
				next = e.ID
			}
		}
		if next == "" {
			break
		}
		var more time.Duration
		env, more, err = call(inst, "resume", []byte(`{"id":`+strconv.Quote(next)+`,"value":[]}`))
		d += more
	}
	return env, d, err
}

// heapInUse is the module's heap in use (the debug export's memstats), 0
// when it cannot be read.
func heapInUse(inst *host.Instance) int64 {
	env, err := inst.Call("debug", []byte(`{"op":"memstats"}`))
	if err != nil {
		return 0
	}
	for _, e := range env.Effects {
		if e.T == "output" {
			var m struct {
				HeapAlloc int64 `json:"heapAlloc"`
			}
			if json.Unmarshal([]byte(e.Text), &m) == nil {
				return m.HeapAlloc
			}
		}
	}
	return 0
}

// memsearchQueries are what the row's searches look for, in turn.
var memsearchQueries = []string{"database migrations", "flaky tests on CI", "deploying to production", "cache latency", "auth tokens expiry", "rate limits", "feature flags"}

// memsearchSet is the project memsearch searches, as memsearchData made it.
type memsearchSet struct {
	Project    string   `json:"project"`
	Agent      string   `json:"agent"`
	IndexLines int      `json:"indexLines"`
	Sessions   int      `json:"sessions"`
	Messages   int      `json:"messages"`
	Queries    []string `json:"queries"`
}

// memsearchData makes the project of row 15 in a fresh folder under tmp: the
// log, the 5,000-line index and the 200 sessions. The Node probe searches
// it too (bench memsearch-data prints where it is).
func memsearchData(tmp, logFile string) (session, memsearchSet, error) {
	s, err := newSession(tmp, logFile)
	if err != nil {
		return s, memsearchSet{}, err
	}
	lines, err := writeBigIndex(s.project, 5000)
	if err != nil {
		return s, memsearchSet{}, err
	}
	sessions, messages, err := writeSessions(s.agent, s.project, 200, 50)
	if err != nil {
		return s, memsearchSet{}, err
	}
	return s, memsearchSet{Project: s.project, Agent: s.agent, IndexLines: lines, Sessions: sessions, Messages: messages, Queries: memsearchQueries}, nil
}

type memsearchOut struct {
	StartMs    float64   `json:"startMs"`
	FirstMs    float64   `json:"firstMs"` // builds the index
	Ms         []float64 `json:"ms"`
	Hits       int       `json:"hits"` // of the last search: proof that it found something
	IndexLines int       `json:"indexLines"`
	Sessions   int       `json:"sessions"`
	Messages   int       `json:"messages"`
	MemBytes   int64     `json:"memBytes"`  // linear memory after every search
	HeapBytes  int64     `json:"heapBytes"` // heap in use then
	// The same after session_start and after the first search.
	MemStartBytes  int64 `json:"memStartBytes"`
	HeapStartBytes int64 `json:"heapStartBytes"`
	MemFirstBytes  int64 `json:"memFirstBytes"`
	HeapFirstBytes int64 `json:"heapFirstBytes"`
}

func toolText(effects []host.Effect) string {
	for _, e := range effects {
		if e.T == "tool_result" {
			return e.Text
		}
	}
	return ""
}

// benchWords are the generated texts' vocabulary: words the queries use,
// among many they do not.
var benchWords = strings.Fields(`database databases migration migrations schema index query postgres
tests test flaky ci pipeline build cache caching latency p95 deploy deploying production staging
auth token tokens expiry session sessions cookie rate limit limits feature flag flags rollout
frontend backend api endpoint handler error errors retry timeout queue worker job jobs cron
logging metrics tracing alert alerts dashboard incident review release version upgrade node
docker kubernetes helm chart config environment secret vault billing invoice stripe payment
user users customer order orders cart checkout search ranking email notification webhook
the a we should use keep move add fix remove rename check run write read update clean split`)

// writeBigIndex writes a MEMORY.md of n lines: a heading every 50 lines,
// bullets of generated facts between them.
func writeBigIndex(project string, n int) (int, error) {
	r := rand.New(rand.NewSource(7))
	var b strings.Builder
	b.WriteString("# Project memory\n")
	lines := 1
	for lines < n {
		if lines%50 == 1 {
			fmt.Fprintf(&b, "\n## Topic %d\n", lines/50)
			lines += 2
			continue
		}
		b.WriteString("- " + sentence(r, 8+r.Intn(10)) + "\n")
		lines++
	}
	dir := filepath.Join(project, ".pi", "memory")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	return lines, os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte(b.String()), 0o644)
}

// writeSessions writes n earlier pi session files of the project, each of
// m messages (user and assistant in turn), where pi keeps them, each with
// the mtime of its last message.
func writeSessions(agent, project string, n, m int) (int, int, error) {
	r := rand.New(rand.NewSource(11))
	dir := filepath.Join(agent, "sessions", hsimport.SessionFolder(project))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, 0, err
	}
	t0 := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	messages := 0
	for i := 0; i < n; i++ {
		at := t0.Add(time.Duration(i) * 13 * time.Hour)
		id := fmt.Sprintf("bench-%04d", i)
		var b strings.Builder
		hdr, _ := json.Marshal(map[string]any{"type": "session", "version": 3, "id": id, "timestamp": at.Format("2006-01-02T15:04:05.000Z"), "cwd": project})
		b.Write(hdr)
		b.WriteByte('\n')
		parent := any(nil)
		for k := 0; k < m; k++ {
			eid := fmt.Sprintf("e%d", k)
			ts := at.Add(time.Duration(k) * time.Minute).Format("2006-01-02T15:04:05.000Z")
			var msg map[string]any
			if k%2 == 0 {
				msg = map[string]any{"role": "user", "content": sentence(r, 10+r.Intn(30))}
			} else {
				msg = map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": sentence(r, 30+r.Intn(60))}}}
			}
			line, _ := json.Marshal(map[string]any{"type": "message", "id": eid, "parentId": parent, "timestamp": ts, "message": msg})
			b.Write(line)
			b.WriteByte('\n')
			parent = eid
			messages++
		}
		name := strings.NewReplacer(":", "-", ".", "-").Replace(at.Format("2006-01-02T15:04:05.000Z")) + "_" + id + ".jsonl"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			return 0, 0, err
		}
		// Written when it happened, as an earlier session is: a search
		// looks again at a file quiet for ten minutes at most every 30 s
		// (wasm/history), one written a moment ago at every search.
		end := at.Add(time.Duration(m) * time.Minute)
		if err := os.Chtimes(filepath.Join(dir, name), end, end); err != nil {
			return 0, 0, err
		}
	}
	return n, messages, nil
}

// sentence is n words of the vocabulary, with a made-up word now and then
// so the vocabulary grows as real text's does.
func sentence(r *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		if r.Intn(6) == 0 {
			ws[i] = fmt.Sprintf("w%x", r.Intn(20000))
		} else {
			ws[i] = benchWords[r.Intn(len(benchWords))]
		}
	}
	ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
	return strings.Join(ws, " ") + "."
}

// bigsearchSet is the project bigsearch-data made: many small earlier
// sessions, and maybe one large one.
type bigsearchSet struct {
	Project  string   `json:"project"`
	Agent    string   `json:"agent"`
	Sessions int      `json:"sessions"`
	Messages int      `json:"messages"`
	BigBytes int64    `json:"bigBytes"`
	Queries  []string `json:"queries"`
}

// bigsearchData makes the project of row 17 in a fresh folder under tmp: n
// earlier sessions of m messages each, and with bigMB > 0 one more session
// of about that many megabytes (messages of 10 KB of generated text). No
// decision log and no notes: the earlier sessions are what is measured.
func bigsearchData(tmp string, n, m, bigMB int) (bigsearchSet, error) {
	root, err := os.MkdirTemp(tmp, "big-")
	if err != nil {
		return bigsearchSet{}, err
	}
	if root, err = filepath.EvalSymlinks(root); err != nil {
		return bigsearchSet{}, err
	}
	set := bigsearchSet{Project: filepath.Join(root, "project"), Agent: filepath.Join(root, "agent"), Queries: memsearchQueries}
	if err := os.MkdirAll(filepath.Join(set.Project, ".git"), 0o755); err != nil {
		return set, err
	}
	if set.Sessions, set.Messages, err = writeSessions(set.Agent, set.Project, n, m); err != nil {
		return set, err
	}
	if bigMB > 0 {
		set.BigBytes, err = writeBigSession(set.Agent, set.Project, int64(bigMB)<<20)
	}
	return set, err
}

// writeBigSession writes one earlier session of about size bytes: user and
// assistant messages of 10 KB of generated text each, in turn.
func writeBigSession(agent, project string, size int64) (int64, error) {
	r := rand.New(rand.NewSource(13))
	dir := filepath.Join(agent, "sessions", hsimport.SessionFolder(project))
	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	name := filepath.Join(dir, "2026-11-01T09-00-00-000Z_bench-big.jsonl")
	f, err := os.Create(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	hdr, _ := json.Marshal(map[string]any{"type": "session", "version": 3, "id": "bench-big", "timestamp": at.Format("2006-01-02T15:04:05.000Z"), "cwd": project})
	w.Write(append(hdr, '\n'))
	written := int64(len(hdr) + 1)
	for k := 0; written < size; k++ {
		var b strings.Builder
		for b.Len() < 10<<10 {
			b.WriteString(sentence(r, 20) + " ")
		}
		role := "user"
		if k%2 == 1 {
			role = "assistant"
		}
		ts := at.Add(time.Duration(k) * time.Second).Format("2006-01-02T15:04:05.000Z")
		line, _ := json.Marshal(map[string]any{"type": "message", "id": fmt.Sprintf("e%d", k), "timestamp": ts, "message": map[string]any{"role": role, "content": b.String()}})
		w.Write(append(line, '\n'))
		written += int64(len(line) + 1)
	}
	return written, w.Flush()
}
