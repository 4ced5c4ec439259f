package lifecycle_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/lifecycle"
)

// projectWith makes a project (a git repository) and an agent folder in a
// test's folder, with content in the project's file rel, and returns them.
func projectWith(t *testing.T, rel, content string) (project, agent, file string) {
	base := t.TempDir()
	project, agent = filepath.Join(base, "proj"), filepath.Join(base, "agent")
	os.MkdirAll(filepath.Join(project, ".git"), 0o755)
	file = filepath.Join(project, rel)
	os.MkdirAll(filepath.Dir(file), 0o755)
	os.WriteFile(file, []byte(content), 0o644)
	return project, agent, file
}

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

// Two processes remember facts into the same MEMORY.md at once while a
// third flushes: each remember reads the file again under the scope's lock,
// so no write goes over an older copy. Every fact said written is in
// MEMORY.md exactly once, and every other one was told why.
func TestTwoProcessesRememberingAtOnceLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("a race of two sessions over many writes")
	}
	base := t.TempDir()
	project, agent := filepath.Join(base, "proj"), filepath.Join(base, "agent")
	os.MkdirAll(filepath.Join(project, ".git"), 0o755)
	// Room for every fact in the index, so none is refused for the caps.
	os.MkdirAll(filepath.Join(project, ".pi/memory"), 0o755)
	os.WriteFile(filepath.Join(project, ".pi/memory/config.json"), []byte(`{"maxInjectLines": 2000, "maxInjectBytes": 65536}`), 0o644)
	const facts = 120
	written := make([][]string, 2)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for p := 0; p < 2; p++ {
		call := session(t, project, agent)
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			for i := p; i < facts; i += 2 {
				out := call("command", map[string]any{"name": "memory", "argv": []string{"remember", "project", fact(i), "--json"}})
				var env struct {
					Effects []struct{ T, Text string }
				}
				json.Unmarshal([]byte(out), &env)
				var got struct {
					Written bool
					Reason  string
				}
				if len(env.Effects) == 0 || json.Unmarshal([]byte(env.Effects[0].Text), &got) != nil || (!got.Written && got.Reason == "") {
					t.Errorf("remember %d: %s", i, out)
					return
				}
				if got.Written {
					written[p] = append(written[p], fact(i))
				}
			}
		}(p)
	}
	flusher := session(t, project, agent)
	go func() {
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
	close(stop)
	memory, err := os.ReadFile(filepath.Join(project, ".pi/memory/MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, list := range written {
		for _, f := range list {
			n++
			if c := strings.Count(string(memory), "- "+f+"\n"); c != 1 {
				t.Fatalf("%q was written but is in MEMORY.md %d times", f, c)
			}
		}
	}
	if n < facts/2 {
		t.Fatalf("only %d of %d facts written: the race proved little", n, facts)
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
	// Under a lock the write is staged beside the journal and renamed in.
	if !h.fired && strings.Contains(filepath.Base(p), "writeback-journal.jsonl") {
		h.fired = true
		h.hook()
	}
	return h.Host.WriteAtomic(p, data)
}

// The race made certain: process 2 remembers a fact at the very moment
// process 1's flush compacts the journal under the scope's lock. Process 2
// waits for the lock and, finding it held past its patience, says the fact
// was not remembered and why; the fact the flush wrote is kept.
func TestARememberDuringACompactionNeverWritesOverIt(t *testing.T) {
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
	call("remember", "project", "Run make test before pushing")
	dir, _ := filepath.Glob(filepath.Join(agent, "pi-memory/notes/*"))
	journal := filepath.Join(dir[0], "writeback-journal.jsonl")
	// A journal past the compaction threshold, and one fact staged (as an
	// import stages it) for the flush.
	pad := strings.Repeat(`{"v":1,"t":1,"op":"reject","id":"W-00000000","reason":"duplicate","detail":"padding for the test"}`+"\n", 800)
	f, _ := os.OpenFile(journal, os.O_APPEND|os.O_WRONLY, 0o644)
	f.WriteString(pad + `{"v":1,"t":2,"op":"stage","id":"W-0000abcd","scope":"project","text":"Lint before committing","source":"import:claude"}` + "\n")
	f.Close()
	call("flush") // compacts: the hook remembers from the other process now
	if !h.fired {
		t.Fatal("the journal was not compacted: the test proves nothing")
	}
	memory, _ := os.ReadFile(filepath.Join(project, ".pi/memory/MEMORY.md"))
	remembered := strings.Contains(reply, "Remembered in")
	kept := strings.Contains(string(memory), "- Deploy from the release branch only\n")
	switch {
	case remembered && !kept:
		t.Fatalf("the other process was told its fact was written, and it is not in MEMORY.md:\n%s\n%s", reply, memory)
	case !remembered && !strings.Contains(reply, "held") && !strings.Contains(reply, "busy"):
		t.Fatalf("not remembered, and not told why: %s", reply)
	case !strings.Contains(string(memory), "- Lint before committing\n") || !strings.Contains(string(memory), "- Run make test before pushing\n"):
		t.Fatalf("a write was lost:\n%s", memory)
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

// toolAnswer is a tool's text and whether it is an error.
func toolAnswer(t *testing.T, out string) (string, bool) {
	t.Helper()
	var env struct {
		Effects []struct {
			T, Text string
			IsError bool
		}
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	for _, e := range env.Effects {
		if e.T == "tool_result" {
			return e.Text, e.IsError
		}
	}
	t.Fatalf("no tool result in %s", out)
	return "", false
}

// twentyEntries is a MEMORY.md of twenty facts, each with words of its own.
func twentyEntries() (string, []string) {
	var b strings.Builder
	var facts []string
	b.WriteString("## Notes\n\n")
	for i := 0; i < 20; i++ {
		f := fact(i)
		facts = append(facts, f)
		b.WriteString("- " + f + "\n")
	}
	return b.String(), facts
}

// forgetAtOnce calls memory_forget in every session of calls at once, with
// params[p] in session p: the answers, "ERROR " before a tool error's.
func forgetAtOnce(t *testing.T, calls []func(string, map[string]any) string, params []map[string]any) []string {
	answers := make([]string, len(calls))
	var wg sync.WaitGroup
	for p := range calls {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			text, isErr := toolAnswer(t, calls[p]("tool", map[string]any{"name": "memory_forget", "params": params[p]}))
			if isErr {
				text = "ERROR " + text
			}
			answers[p] = text
		}(p)
	}
	wg.Wait()
	return answers
}

// Issue 25, item 17: twenty processes forget one entry at once, by the id a
// search gave each of them, and twenty by its words: each resolves the
// entry under the scope's lock by what it says, not where it was, so that
// entry goes once and no other entry goes; every process is told it is
// gone and what restores it.
func TestTwentyProcessesForgettingOneEntryRemoveOnlyIt(t *testing.T) {
	for _, by := range []string{"id", "words"} {
		t.Run(by, func(t *testing.T) {
			base := t.TempDir()
			project, agent := filepath.Join(base, "proj"), filepath.Join(base, "agent")
			os.MkdirAll(filepath.Join(project, ".pi/memory"), 0o755)
			os.MkdirAll(filepath.Join(project, ".git"), 0o755)
			index := filepath.Join(project, ".pi/memory/MEMORY.md")
			src, facts := twentyEntries()
			os.WriteFile(index, []byte(src), 0o644)
			target := facts[7]
			calls := make([]func(string, map[string]any) string, 20)
			params := make([]map[string]any, 20)
			for p := range calls {
				calls[p] = session(t, project, agent)
				if by == "words" {
					params[p] = map[string]any{"query": target}
					continue
				}
				hits, _ := toolAnswer(t, calls[p]("tool", map[string]any{"name": "memory_search", "params": map[string]any{"query": target, "limit": 1}}))
				ref := strings.TrimSpace(hits[strings.Index(hits, "note ")+5 : strings.LastIndex(hits, ": ")])
				params[p] = map[string]any{"id": ref}
			}
			answers := forgetAtOnce(t, calls, params)
			after, _ := os.ReadFile(index)
			for i, f := range facts {
				if got := strings.Count(string(after), "- "+f+"\n"); got != map[bool]int{true: 0, false: 1}[i == 7] {
					t.Fatalf("%q is in MEMORY.md %d times after the forgets:\n%s\nanswers:\n%s", f, got, after, strings.Join(answers, "\n"))
				}
			}
			forgot := 0
			for _, a := range answers {
				switch {
				case strings.HasPrefix(a, "Forgot “"+target+"”"):
					forgot++
				case strings.HasPrefix(a, "“"+target+"” (.pi/memory/MEMORY.md) was forgotten already"):
				default:
					t.Fatalf("an answer says neither that it forgot %q nor that it was gone: %s", target, a)
				}
				if !strings.Contains(a, "memory_restore with id \"F-") {
					t.Fatalf("an answer does not say what restores it: %s", a)
				}
			}
			if forgot != 1 {
				t.Fatalf("%d processes say they forgot it:\n%s", forgot, strings.Join(answers, "\n"))
			}
		})
	}
}

// Twenty processes forget the first of two identical bullets side by side,
// each by the id a search gave it before any of them ran: one copy goes, the
// other stays (its id is its own while the first is forgotten), and the
// other nineteen are told the first went (h-v89 B1).
func TestTwentyProcessesForgettingOneOfTwoTwinsRemoveOnlyIt(t *testing.T) {
	project, agent, index := projectWith(t, ".pi/memory/MEMORY.md", "## Notes\n\n- Use tabs in the okra module\n- Use tabs in the okra module\n- Run make test\n")
	calls := make([]func(string, map[string]any) string, 20)
	var ref string
	for p := range calls {
		calls[p] = session(t, project, agent)
	}
	hits, _ := toolAnswer(t, calls[0]("tool", map[string]any{"name": "memory_search", "params": map[string]any{"query": "tabs okra", "limit": 2}}))
	for _, l := range strings.Split(hits, "\n") {
		if i := strings.Index(l, "MEMORY.md:3#"); i >= 0 {
			ref = strings.TrimSpace(l[strings.Index(l, "note ")+5 : strings.LastIndex(l, ": ")])
		}
	}
	if ref == "" {
		t.Fatalf("the first twin is not cited: %s", hits)
	}
	params := make([]map[string]any, len(calls))
	for p := range params {
		params[p] = map[string]any{"id": ref}
	}
	answers := forgetAtOnce(t, calls, params)
	after, _ := os.ReadFile(index)
	if want := "## Notes\n\n- Use tabs in the okra module\n- Run make test\n"; string(after) != want {
		t.Fatalf("MEMORY.md after the forgets:\n%s\nanswers:\n%s", after, strings.Join(answers, "\n"))
	}
	forgot := 0
	for _, a := range answers {
		switch {
		case strings.HasPrefix(a, "Forgot "):
			forgot++
		case !strings.Contains(a, "was forgotten already"):
			t.Fatalf("an answer says neither that it forgot the twin nor that it was gone: %s", a)
		}
	}
	if forgot != 1 {
		t.Fatalf("%d processes say they forgot it:\n%s", forgot, strings.Join(answers, "\n"))
	}
}

// Three twins, the first and the third forgotten; then at once, in twelve
// processes, both restored six times each and the second forgotten four
// times by its id: each restore happens once, the second goes once, and
// the first and the third are back with their ids (h-v92 B1: a forget that
// read the file between another's record and its write gave the second
// twin's id to the third, and two twins went).
func TestRestoresAndForgetsOfTwinsAtOnceRemoveOnlyTheOneCited(t *testing.T) {
	const tw = "- deploy uses terraform\n"
	for round := range 4 {
		project, agent, index := projectWith(t, ".pi/memory/MEMORY.md", "# M\n\n## A\n"+tw+tw+tw+"- other fact here\n")
		first := session(t, project, agent)
		cite := func(line int) string {
			hits, _ := toolAnswer(t, first("tool", map[string]any{"name": "memory_search", "params": map[string]any{"query": "deploy terraform", "limit": 5}}))
			for _, l := range strings.Split(hits, "\n") {
				if strings.Contains(l, "MEMORY.md:"+strconv.Itoa(line)+"#") {
					return strings.TrimSpace(l[strings.Index(l, "note ")+5 : strings.LastIndex(l, ": ")])
				}
			}
			t.Fatalf("no hit at line %d: %s", line, hits)
			return ""
		}
		second := cite(5)
		var restores []string
		for _, line := range []int{4, 5} { // the first, then the third (at line 5 once the first went)
			text, isErr := toolAnswer(t, first("tool", map[string]any{"name": "memory_forget", "params": map[string]any{"id": cite(line)}}))
			if isErr {
				t.Fatal(text)
			}
			restores = append(restores, text[strings.Index(text, `id "`)+4:strings.LastIndex(text, `"`)])
		}
		type job struct{ tool, key, val string }
		var jobs []job
		for range 4 {
			jobs = append(jobs, job{"memory_restore", "id", restores[0]}, job{"memory_restore", "id", restores[1]}, job{"memory_forget", "id", second})
		}
		answers := make([]string, len(jobs))
		var wg sync.WaitGroup
		for p, j := range jobs {
			call := session(t, project, agent)
			wg.Add(1)
			go func() {
				defer wg.Done()
				text, _ := toolAnswer(t, call("tool", map[string]any{"name": j.tool, "params": map[string]any{j.key: j.val}}))
				answers[p] = text
			}()
		}
		wg.Wait()
		after, _ := os.ReadFile(index)
		if want := "# M\n\n## A\n" + tw + tw + "- other fact here\n"; string(after) != want {
			t.Fatalf("round %d: MEMORY.md after the calls:\n%s\nanswers:\n%s", round, after, strings.Join(answers, "\n"))
		}
		forgot := 0
		for _, a := range answers {
			if strings.HasPrefix(a, "Forgot ") {
				forgot++
			}
		}
		if forgot != 1 {
			t.Fatalf("round %d: %d calls say they forgot the second:\n%s", round, forgot, strings.Join(answers, "\n"))
		}
	}
}

// A reference cited before the file changed names its entry where it moved
// to; once the entry is gone, it removes nothing.
func TestAStaleReferenceNeverRemovesAnotherEntry(t *testing.T) {
	project, agent, index := projectWith(t, ".pi/memory/MEMORY.md", "## Notes\n\n- Run make test before pushing\n- Use pnpm, not npm\n")
	one, two := session(t, project, agent), session(t, project, agent)
	hits, _ := toolAnswer(t, one("tool", map[string]any{"name": "memory_search", "params": map[string]any{"query": "make test pushing", "limit": 1}}))
	ref := strings.TrimSpace(hits[strings.Index(hits, "note ")+5 : strings.LastIndex(hits, ": ")])
	if !strings.Contains(ref, "MEMORY.md:3#P-") {
		t.Fatalf("the hit cites %q", ref)
	}
	// Another process puts an entry above it: line 3 is now another entry.
	os.WriteFile(index, []byte("## Notes\n\n- Deploy on Fridays only\n- Run make test before pushing\n- Use pnpm, not npm\n"), 0o644)
	text, isErr := toolAnswer(t, two("tool", map[string]any{"name": "memory_forget", "params": map[string]any{"id": ref}}))
	if isErr || !strings.HasPrefix(text, "Forgot “Run make test before pushing”") {
		t.Fatalf("forget by the stale reference: %s", text)
	}
	text, isErr = toolAnswer(t, one("tool", map[string]any{"name": "memory_forget", "params": map[string]any{"id": ref}}))
	if isErr || !strings.Contains(text, "was forgotten already") {
		t.Fatalf("a second forget: %s", text)
	}
	if got, _ := os.ReadFile(index); string(got) != "## Notes\n\n- Deploy on Fridays only\n- Use pnpm, not npm\n" {
		t.Fatalf("MEMORY.md is now %q", got)
	}
}

// A forget by words that names a decision another process removed a moment
// ago is told it went: the removed decisions are searched as gone, so the
// best of the rest (a decision beside it, sharing its words) is not taken
// for it.
func TestAForgetByWordsOfADecisionRemovedAMomentAgoRemovesNoOther(t *testing.T) {
	var b strings.Builder
	for i, text := range []string{
		"Use PostgreSQL for the primary database of the billing service",
		"Keep functions under sixty lines",
		"Back up the PostgreSQL database of the billing service nightly",
	} {
		fmt.Fprintf(&b, `{"v":1,"t":"2026-02-27T09:00:00.000Z","p":"x","e":"a","i":"D-2026-02-27-%04d","d":{"tx":%q,"s":"active"},"u":"user"}`+"\n", i+1, text)
	}
	project, agent, _ := projectWith(t, ".pi/decision-memory/decisions.jsonl", b.String())
	one, two := session(t, project, agent), session(t, project, agent)
	const words = "PostgreSQL primary database billing service"
	text, isErr := toolAnswer(t, two("tool", map[string]any{"name": "memory_forget", "params": map[string]any{"query": words}}))
	if isErr || !strings.Contains(text, "D-2026-02-27-0001") {
		t.Fatalf("the first forget: %s", text)
	}
	text, isErr = toolAnswer(t, one("tool", map[string]any{"name": "memory_forget", "params": map[string]any{"query": words}}))
	if isErr || !strings.Contains(text, "was forgotten already") || !strings.Contains(text, "D-2026-02-27-0001") {
		t.Fatalf("the second forget: %s", text)
	}
	list, _ := toolAnswer(t, one("tool", map[string]any{"name": "decision_list", "params": map[string]any{}}))
	if !strings.Contains(list, "D-2026-02-27-0003") {
		t.Fatalf("the decision beside it went too: %s", list)
	}
}

// logRewriter rewrites the decision log in place (longer, the same inode)
// at the nth stat of it after its lock is taken: between the add's catch-up
// under the lock and its own append, as a program that takes no lock (cp,
// an editor, git) can.
type logRewriter struct {
	hostio.Host
	log, with string
	n, seen   int
	locked    bool
}

func (h *logRewriter) Lock(p string, waitMs, staleMs int) error {
	err := h.Host.Lock(p, waitMs, staleMs)
	h.locked = h.locked || err == nil && p == h.log+".lock"
	return err
}

func (h *logRewriter) Stat(p string) (hostio.FileInfo, error) {
	if h.locked && p == h.log {
		if h.seen++; h.seen == h.n {
			f, _ := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
			f.WriteString(h.with)
			f.Close()
		}
	}
	return h.Host.Stat(p)
}

// h-v96 d1: a rewrite between an add's catch-up and its append is not
// taken for the add's own growth: the session, and the snapshot it writes,
// read the log again, so the teammate's text stands and the next process
// shows it.
func TestARewriteDuringAnAddIsNotTakenForItsOwnAppend(t *testing.T) {
	line := func(id, text string) string {
		return `{"v":1,"t":"2026-12-01T08:00:00.000Z","p":"x","e":"a","i":"` + id + `","d":{"tx":"` + text + `"},"u":"user"}` + "\n"
	}
	var a strings.Builder
	for i := 2; i <= 400; i++ {
		a.WriteString(line(fmt.Sprintf("D-2026-11-01-%04d", i), fmt.Sprintf("Base decision number %d %s", i, strings.Repeat("x", 200))))
	}
	old := line("D-2026-12-01-0001", "Use postgres for storage") + a.String()
	teammate := line("D-2026-12-01-0001", "Teammate: deploy on Fridays is fine now") + a.String()
	for n := 1; n <= 4; n++ {
		t.Run(fmt.Sprint("stat ", n), func(t *testing.T) {
			project, agent, log := projectWith(t, ".pi/decision-memory/decisions.jsonl", old)
			h := &logRewriter{Host: fsys.NewHost(fsys.NewOS(), nil, nil, nil), log: log, with: teammate, n: n}
			e := lifecycle.New(h)
			call := func(export string, in map[string]any) string {
				b, _ := json.Marshal(in)
				return string(e.Handle(export, b))
			}
			call("session_start", map[string]any{"cwd": project, "agentDir": agent, "trusted": true, "hasUI": false, "mode": "cli", "reason": "startup"})
			call("command", map[string]any{"name": "decision", "argv": []string{"add", "Prefer small pull requests over large ones", "--force"}})
			show := call("command", map[string]any{"name": "decision", "argv": []string{"show", "D-2026-12-01-0001"}})
			b, _ := os.ReadFile(log)
			if strings.Contains(string(b), "Teammate") && !strings.Contains(show, "Teammate") {
				t.Fatalf("the session kept the old text: %s", show)
			}
			call("session_shutdown", map[string]any{"reason": "quit"}) // writes the snapshot
			next := session(t, project, agent)
			if show := next("command", map[string]any{"name": "decision", "argv": []string{"show", "D-2026-12-01-0001"}}); strings.Contains(string(b), "Teammate") && !strings.Contains(show, "Teammate") {
				t.Fatalf("the next process kept the old text: %s", show)
			}
		})
	}
}
