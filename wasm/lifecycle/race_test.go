package lifecycle_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/lifecycle"
)

// session is one pi process on the real disk: its own engine and host, so
// two of them contend for locks exactly as two processes do.
func session(t *testing.T, project, agent string) func(export string, in map[string]any) string {
	e := lifecycle.New(fsys.NewHost(fsys.NewOS(), nil, nil, nil))
	call := func(export string, in map[string]any) string {
		b, _ := json.Marshal(in)
		return string(e.Handle(export, b))
	}
	call("session_start", map[string]any{"cwd": project, "agentDir": agent, "trusted": true, "hasUI": false, "mode": "cli", "reason": "startup"})
	return call
}

// Two processes: one stages facts while the other flushes, and the flush
// compacts the journal. Staging takes the journal's lock, so a fact staged
// while the other process rewrites the journal is never lost: every staged
// fact gets exactly one outcome (written, or refused with a reason), and
// every written one is in MEMORY.md once.
func TestNoStagedFactIsLostToAConcurrentFlush(t *testing.T) {
	if testing.Short() {
		t.Skip("a race of two sessions over many writes")
	}
	base := t.TempDir()
	project, agent := filepath.Join(base, "proj"), filepath.Join(base, "agent")
	os.MkdirAll(filepath.Join(project, ".git"), 0o755)
	// Room for every fact in the index, so none is refused for the caps.
	os.MkdirAll(filepath.Join(project, ".pi/memory"), 0o755)
	os.WriteFile(filepath.Join(project, ".pi/memory/config.json"), []byte(`{"maxInjectLines": 2000, "maxInjectBytes": 65536}`), 0o644)
	stager, flusher := session(t, project, agent), session(t, project, agent)
	// Past the compaction threshold (64 KiB of journal), so flushes rewrite it.
	const facts = 300
	staged := map[string]string{} // id -> fact
	var wg sync.WaitGroup
	wg.Add(2)
	stop := make(chan struct{})
	go func() {
		defer wg.Done()
		defer close(stop)
		for i := 0; i < facts; i++ {
			out := stager("command", map[string]any{"name": "memory", "argv": []string{"remember", "project", fact(i), "--json"}})
			var env struct {
				Effects []struct{ T, Text string }
			}
			json.Unmarshal([]byte(out), &env)
			var got struct{ Staged struct{ ID string } }
			if len(env.Effects) == 0 || json.Unmarshal([]byte(env.Effects[0].Text), &got) != nil || got.Staged.ID == "" {
				t.Errorf("stage %d: %s", i, out)
				return
			}
			staged[got.Staged.ID] = fact(i)
		}
	}()
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				flusher("command", map[string]any{"name": "memory", "argv": []string{"flush"}})
			}
		}
	}()
	wg.Wait()
	flusher("command", map[string]any{"name": "memory", "argv": []string{"flush"}})
	memory, err := os.ReadFile(filepath.Join(project, ".pi/memory/MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	outcomes := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(agent, "pi-memory/notes/*/traces*.jsonl"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(b), "\n") {
			var tr struct{ Ops []struct{ Op, ID string } }
			if json.Unmarshal([]byte(line), &tr) != nil {
				continue
			}
			for _, op := range tr.Ops {
				if outcomes[op.ID] != "" {
					t.Fatalf("%s has two outcomes: %s and %s", op.ID, outcomes[op.ID], op.Op)
				}
				outcomes[op.ID] = op.Op
			}
		}
	}
	if len(staged) != facts {
		t.Fatalf("%d facts staged, want %d", len(staged), facts)
	}
	written := 0
	for id, f := range staged {
		n := strings.Count(string(memory), "- "+f+"\n")
		switch outcomes[id] {
		case "commit":
			written++
			if n != 1 {
				t.Fatalf("%s (%s) was written but is in MEMORY.md %d times", id, f, n)
			}
		case "reject":
		default:
			t.Fatalf("%s (%s) was staged and has no outcome: lost", id, f)
		}
	}
	if written == 0 {
		t.Fatal("nothing was written: the race proved nothing")
	}
}

// fact is the i-th fact.
func fact(i int) string {
	word := func(n int) string {
		b := make([]byte, 4)
		for k := range b {
			b[k] = byte('a' + n%26)
			n /= 26
		}
		return string(b)
	}
	return "Remember " + word(i) + " " + word(i*7919+11) + " " + word(i*104729+5)
}

// interposer runs hook once, just before the journal is rewritten: the worst
// moment for another process to stage a fact.
type interposer struct {
	hostio.Host
	hook  func()
	fired bool
}

func (h *interposer) WriteAtomic(p string, data []byte) error {
	if !h.fired && strings.HasSuffix(p, "writeback-journal.jsonl") {
		h.fired = true
		h.hook()
	}
	return h.Host.WriteAtomic(p, data)
}

// The same race, made certain: process 2 stages a fact at the very moment
// process 1's flush compacts the journal. Process 2 waits for the lock and,
// finding it held past its patience, says the fact was not staged; a fact it
// says was staged is never lost.
func TestAFactStagedDuringACompactionIsNeverLost(t *testing.T) {
	base := t.TempDir()
	project, agent := filepath.Join(base, "proj"), filepath.Join(base, "agent")
	os.MkdirAll(filepath.Join(project, ".git"), 0o755)
	other := session(t, project, agent)
	var reply string
	h := &interposer{Host: fsys.NewHost(fsys.NewOS(), nil, nil, nil)}
	h.hook = func() {
		reply = other("command", map[string]any{"name": "memory", "argv": []string{"remember", "project", "Deploy from the release branch only"}})
	}
	e := lifecycle.New(h)
	call := func(args ...string) string {
		b, _ := json.Marshal(map[string]any{"name": "memory", "argv": args})
		return string(e.Handle("command", b))
	}
	e.Handle("session_start", []byte(`{"cwd":"`+project+`","agentDir":"`+agent+`","trusted":true,"hasUI":false,"mode":"cli"}`))
	// A journal past the compaction threshold with nothing pending.
	dir, _ := filepath.Glob(filepath.Join(agent, "pi-memory/notes/*"))
	if len(dir) == 0 {
		call("remember", "project", "Run make test before pushing")
		call("flush")
		dir, _ = filepath.Glob(filepath.Join(agent, "pi-memory/notes/*"))
	}
	journal := filepath.Join(dir[0], "writeback-journal.jsonl")
	pad := strings.Repeat(`{"v":1,"t":1,"op":"reject","id":"W-00000000","reason":"duplicate","detail":"padding for the test"}`+"\n", 800)
	f, _ := os.OpenFile(journal, os.O_APPEND|os.O_WRONLY, 0o644)
	f.WriteString(pad)
	f.Close()
	call("remember", "project", "Lint before committing")
	call("flush") // compacts: the hook stages from the other process now
	if !h.fired {
		t.Fatal("the journal was not compacted: the test proves nothing")
	}
	data, _ := os.ReadFile(journal)
	staged := strings.Contains(reply, `"Staged `)
	kept := strings.Contains(string(data), "Deploy from the release branch only")
	switch {
	case staged && !kept:
		t.Fatalf("the other process was told its fact was staged, and the compaction dropped it:\n%s", reply)
	case !staged && !strings.Contains(reply, "held") && !strings.Contains(reply, "busy"):
		t.Fatalf("not staged, and not told why: %s", reply)
	}
}

// Two pi processes of one project in resource scope append observational
// memory records at once: each append takes the ledger's lock, so every
// record is one whole line and none is lost.
func TestTwoSessionsAppendingToTheResourceLedgerLoseNothing(t *testing.T) {
	base := t.TempDir()
	project, agent := filepath.Join(base, "proj"), filepath.Join(base, "agent")
	os.MkdirAll(filepath.Join(project, ".git"), 0o755)
	const records = 100
	var wg sync.WaitGroup
	for _, id := range []string{"s1", "s2"} {
		e := lifecycle.New(fsys.NewHost(fsys.NewOS(), nil, nil, nil))
		call := func(in map[string]any) string {
			b, _ := json.Marshal(in)
			return string(e.Handle("command", b))
		}
		b, _ := json.Marshal(map[string]any{"cwd": project, "agentDir": agent, "trusted": true, "hasUI": false, "mode": "interactive", "reason": "startup", "sessionId": id, "env": map[string]string{"PI_OM_SCOPE": "resource"}})
		e.Handle("session_start", b)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < records; i++ {
				mode := []string{"buffered", "blocking"}[i%2]
				if out := call(map[string]any{"name": "om", "args": "mode " + mode}); strings.Contains(out, `"warning"`) {
					t.Errorf("session %s, record %d: %s", id, i, out)
					return
				}
			}
		}()
	}
	wg.Wait()
	data, err := os.ReadFile(filepath.Join(agent, "pi-memory", "observations", lifecycle.ProjectHash(project)+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	perSession := map[string]int{}
	for n, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var rec struct {
			Op, Session string
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.Op != "set" {
			t.Fatalf("line %d is not a whole set record: %q", n+1, line)
		}
		perSession[rec.Session]++
	}
	if perSession["s1"] != records || perSession["s2"] != records {
		t.Fatalf("records per session: %v, want %d each", perSession, records)
	}
}
