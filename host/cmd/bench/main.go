// Command bench measures the core on the Go host (wazero through Extism's Go
// SDK), as pimem runs it. build/bench.sh calls one subcommand at a time and
// ts/bench/main.ts turns the JSON it prints into docs/benchmarks.md: this
// program only takes raw samples (milliseconds, bytes); medians, percentiles
// and targets live in the report, once.
//
//	bench replay -module ts/core.wasm -log L -reps 5 -tmp DIR   cold session_start
//	bench hooks  -module M -log L -calls 2000 -tmp DIR          before_agent_start, context
//	bench load   -module M -n 30                                instance from a compiled module
//	bench search -module M -log L -reps 7 -tmp DIR QUERY…       /decision search QUERY (words split on spaces)
//	bench similarity -pairs testdata/similarity/pairs.jsonl     near-duplicate precision/recall
//	bench conversations -module M [SET]                        memory_search's recall on the conversation set, beside BM25
//	bench memsearch -module M -log L -calls 200 -tmp DIR       memory_search: L, a 5,000-line index, 200 sessions
//	bench memsearch-data -log L -tmp DIR                       makes that project for the Node probe, prints where
//	bench bigsearch-data -sessions 20000 -messages 4 -big-mb 60 -tmp DIR
//	                                                           a project of many or large earlier sessions (row 17), prints where
//
// -cache DIR keeps wazero's compiled code between the calls of one run.
//
// Every session runs on a fresh copy of the log in a fresh project and agent
// folder under -tmp, so nothing a session writes (a snapshot, say) can make a
// later "cold" sample warm. It is a benchmark, not a test: it never judges speed.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"
	"unsafe"

	"github.com/pi-memory/pi-memory/host"
	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/wasm/similarity"
	"github.com/tetratelabs/wazero/api"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	fl := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	module := fl.String("module", "", "core module (.wasm)")
	logFile := fl.String("log", "", "decision log to start the session on")
	tmp := fl.String("tmp", "", "folder for the sessions' projects (removed by the caller)")
	reps := fl.Int("reps", 5, "repetitions")
	calls := fl.Int("calls", 2000, "calls per hook")
	n := fl.Int("n", 30, "instances to create")
	pairs := fl.String("pairs", "testdata/similarity/pairs.jsonl", "labelled similarity pairs")
	cacheDir := fl.String("cache", "", "wazero compilation cache folder (compiling is never what is measured)")
	sessions := fl.Int("sessions", 20000, "bigsearch-data: earlier sessions")
	messages := fl.Int("messages", 4, "bigsearch-data: messages per session")
	bigMB := fl.Int("big-mb", 0, "bigsearch-data: one more session of this many MB (0: none)")
	fl.Parse(os.Args[2:])
	compileOpts.CacheDir = *cacheDir

	var out any
	var err error
	switch os.Args[1] {
	case "replay":
		out, err = replay(*module, *logFile, *tmp, *reps)
	case "hooks":
		out, err = hooks(*module, *logFile, *tmp, *calls)
	case "load":
		out, err = load(*module, *n)
	case "search":
		out, err = search(*module, *logFile, *tmp, *reps, fl.Args())
	case "similarity":
		out, err = evaluate(*pairs)
	case "conversations":
		out, err = conversations(*module, fl.Args())
	case "memsearch":
		out, err = memsearch(*module, *logFile, *tmp, *calls)
	case "memsearch-data":
		_, out, err = memsearchData(*tmp, *logFile)
	case "bigsearch-data":
		out, err = bigsearchData(*tmp, *sessions, *messages, *bigMB)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench "+os.Args[1]+":", err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(out)
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: bench replay|hooks|load|search|similarity [flags] (see the doc comment)")
	os.Exit(2)
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

var compileOpts host.Options

// compile loads the module once per process; compiling is not what we measure.
func compile(module string) (*host.Runtime, float64, error) {
	if module == "" {
		return nil, 0, errors.New("-module is required")
	}
	t := time.Now()
	rt, err := host.NewRuntimeFromFile(context.Background(), module, compileOpts)
	return rt, ms(time.Since(t)), err
}

// session is one fresh project holding a copy of the log, and its agent folder.
type session struct {
	project, agent string
}

func newSession(tmp, logFile string) (session, error) {
	if tmp == "" || logFile == "" {
		return session{}, errors.New("-tmp and -log are required")
	}
	root, err := os.MkdirTemp(tmp, "go-")
	if err != nil {
		return session{}, err
	}
	// Canonical paths: the core sees what the OS reports for cwd.
	if root, err = filepath.EvalSymlinks(root); err != nil {
		return session{}, err
	}
	s := session{project: filepath.Join(root, "project"), agent: filepath.Join(root, "agent")}
	dir := filepath.Join(s.project, ".pi", "decision-memory")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return session{}, err
	}
	if err := os.MkdirAll(s.agent, 0o755); err != nil {
		return session{}, err
	}
	return s, copyFile(logFile, filepath.Join(dir, "decisions.jsonl"))
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

func (s session) startInput() []byte {
	b, _ := json.Marshal(map[string]any{
		"cwd": s.project, "agentDir": s.agent, "trusted": true, "hasUI": false,
		"mode": "print", "reason": "startup", "flags": map[string]bool{"no-memory": false},
	})
	return b
}

// call runs one export and turns a failure the core reports (exit code, an
// error notice) into an error, so a broken run never passes for a fast one.
func call(inst *host.Instance, export string, input []byte) (host.Envelope, time.Duration, error) {
	t := time.Now()
	env, err := inst.Call(export, input)
	d := time.Since(t)
	if err != nil {
		return env, d, err
	}
	for _, e := range env.Effects {
		if e.T == "notify" && e.Level == "error" {
			return env, d, fmt.Errorf("%s: the core reported: %s", export, e.Text)
		}
	}
	if env.Exit != 0 {
		return env, d, fmt.Errorf("%s: exit %d: %s", export, env.Exit, string(firstRaw(env)))
	}
	return env, d, nil
}

func firstRaw(env host.Envelope) []byte {
	if len(env.Effects) == 0 {
		return nil
	}
	return env.Effects[0].Raw
}

// memoryBytes is the size of the guest's linear memory. Instance keeps the
// guest memory private; until it exposes MemorySize, the field is read
// through reflection (bench tooling only), and 0 means "not measurable".
func memoryBytes(inst *host.Instance) int64 {
	if m, ok := any(inst).(interface{ MemorySize() uint32 }); ok {
		return int64(m.MemorySize())
	}
	v := reflect.ValueOf(inst).Elem().FieldByName("mem")
	if !v.IsValid() || v.Type() != reflect.TypeOf((*api.Memory)(nil)).Elem() {
		return 0
	}
	mem := *(*api.Memory)(unsafe.Pointer(v.UnsafeAddr()))
	if mem == nil {
		return 0
	}
	return int64(mem.Size())
}

type replaySample struct {
	Ms       float64 `json:"ms"`
	MemBytes int64   `json:"memBytes"`
}

type replayOut struct {
	CompileMs float64        `json:"compileMs"`
	Samples   []replaySample `json:"samples"`
}

// replay: a fresh instance per repetition (the module compiled once), timed
// from session_start's call to its envelope.
func replay(module, logFile, tmp string, reps int) (any, error) {
	rt, compileMs, err := compile(module)
	if err != nil {
		return nil, err
	}
	defer rt.Close(context.Background())
	out := replayOut{CompileMs: compileMs}
	for r := 0; r < reps; r++ {
		s, err := newSession(tmp, logFile)
		if err != nil {
			return nil, err
		}
		inst, err := rt.NewInstance(context.Background(), host.Config{FS: fsys.NewOS()})
		if err != nil {
			return nil, err
		}
		_, d, err := call(inst, "session_start", s.startInput())
		mem := memoryBytes(inst)
		inst.Close()
		os.RemoveAll(filepath.Dir(s.project))
		if err != nil {
			return nil, err
		}
		out.Samples = append(out.Samples, replaySample{Ms: ms(d), MemBytes: mem})
	}
	return out, nil
}

var prompts = []string{
	"Fix the failing test in the parser package",
	"Add pagination to the orders endpoint",
	"Why is the build slow on CI?",
	"Rename the config loader and update its callers",
	"Explain how the cache invalidation works here",
}

type hooksOut struct {
	ReplayMs         float64   `json:"replayMs"`
	MemBytes         int64     `json:"memBytes"`
	BeforeAgentStart []float64 `json:"before_agent_start"`
}

// started compiles the module and starts a session on a copy of the log in
// a fresh project under tmp; done closes and removes all of it. d is the
// time session_start took.
func started(module, logFile, tmp string) (inst *host.Instance, d time.Duration, done func(), err error) {
	rt, _, err := compile(module)
	if err != nil {
		return nil, 0, nil, err
	}
	s, err := newSession(tmp, logFile)
	if err != nil {
		rt.Close(context.Background())
		return nil, 0, nil, err
	}
	done = func() {
		if inst != nil {
			inst.Close()
		}
		os.RemoveAll(filepath.Dir(s.project))
		rt.Close(context.Background())
	}
	if inst, err = rt.NewInstance(context.Background(), host.Config{FS: fsys.NewOS()}); err != nil {
		done()
		return nil, 0, nil, err
	}
	if _, d, err = call(inst, "session_start", s.startInput()); err != nil {
		done()
		return nil, 0, nil, err
	}
	return inst, d, done, nil
}

// hooks: one session on the log, then before_agent_start calls,
// each timed alone, after a short warm-up.
func hooks(module, logFile, tmp string, calls int) (any, error) {
	inst, d, done, err := started(module, logFile, tmp)
	if err != nil {
		return nil, err
	}
	defer done()
	out := hooksOut{ReplayMs: ms(d)}
	inputs := make([][]byte, len(prompts))
	for i, p := range prompts {
		inputs[i], _ = json.Marshal(map[string]string{"prompt": p, "messageType": "user"})
	}
	const warmup = 50
	for i := 0; i < warmup+calls; i++ {
		_, d, err := call(inst, "before_agent_start", inputs[i%len(inputs)])
		if err != nil {
			return nil, err
		}
		if i >= warmup {
			out.BeforeAgentStart = append(out.BeforeAgentStart, ms(d))
		}
	}
	out.MemBytes = memoryBytes(inst)
	return out, nil
}

type loadOut struct {
	CompileMs float64   `json:"compileMs"`
	Ms        []float64 `json:"ms"`
}

// load: a fresh instance from the compiled module, n times.
func load(module string, n int) (any, error) {
	rt, compileMs, err := compile(module)
	if err != nil {
		return nil, err
	}
	defer rt.Close(context.Background())
	out := loadOut{CompileMs: compileMs}
	for i := 0; i < n; i++ {
		t := time.Now()
		inst, err := rt.NewInstance(context.Background(), host.Config{FS: fsys.NewOS()})
		d := time.Since(t)
		if err != nil {
			return nil, err
		}
		inst.Close()
		out.Ms = append(out.Ms, ms(d))
	}
	return out, nil
}

type searchQuery struct {
	Word  string    `json:"word"`
	Ms    []float64 `json:"ms"`
	Lines int       `json:"lines"` // lines of output of the last run: proof that it searched
}

type searchOut struct {
	ReplayMs float64       `json:"replayMs"`
	Queries  []searchQuery `json:"queries"`
}

// search: one session on the log, then each query reps times.
func search(module, logFile, tmp string, reps int, words []string) (any, error) {
	if len(words) == 0 {
		return nil, errors.New("give the search words as arguments")
	}
	inst, d, done, err := started(module, logFile, tmp)
	if err != nil {
		return nil, err
	}
	defer done()
	out := searchOut{ReplayMs: ms(d)}
	for _, w := range words {
		argv := append([]string{"search"}, strings.Fields(w)...)
		in, _ := json.Marshal(map[string]any{"name": "decision", "argv": argv, "hasUI": false})
		q := searchQuery{Word: w}
		for r := 0; r < reps; r++ {
			env, d, err := call(inst, "command", in)
			if err != nil {
				return nil, err
			}
			q.Ms = append(q.Ms, ms(d))
			q.Lines = 0
			for _, e := range env.Effects {
				if e.T == "output" {
					q.Lines += countLines(e.Text)
				}
			}
		}
		out.Queries = append(out.Queries, q)
	}
	return out, nil
}

func countLines(s string) int {
	n := 1
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}

type metrics struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

type splitReport struct {
	Pairs     int     `json:"pairs"`
	Duplicate metrics `json:"duplicate"`
	Conflict  metrics `json:"conflict"`
	Line      string  `json:"line"` // Report.String()
}

// evaluate scores the similarity verdicts on the labelled pairs: all of them,
// and the tuning and held-out ("split":"test") lines apart.
func evaluate(file string) (any, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var all, tune, test []similarity.Pair
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var p similarity.Pair
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		all = append(all, p)
		if p.Split == "test" {
			test = append(test, p)
		} else {
			tune = append(tune, p)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	rep := func(ps []similarity.Pair) splitReport {
		r := similarity.Evaluate(ps)
		m := func(x similarity.Metrics) metrics { return metrics{x.Precision, x.Recall, x.F1} }
		return splitReport{Pairs: r.Pairs, Duplicate: m(r.Duplicate), Conflict: m(r.Conflict), Line: r.String()}
	}
	return map[string]splitReport{"all": rep(all), "tune": rep(tune), "test": rep(test)}, nil
}
