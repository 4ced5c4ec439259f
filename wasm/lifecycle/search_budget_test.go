package lifecycle

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/hsimport"
	"github.com/tidwall/gjson"
)

// costHost counts what one export call asks of the host.
type costHost struct {
	hostio.Host
	stats, reads, bytes, maxRead int
}

func (h *costHost) Stat(p string) (hostio.FileInfo, error) { h.stats++; return h.Host.Stat(p) }

func (h *costHost) ReadAt(p string, off int64, dst []byte) (int, error) {
	n, err := h.Host.ReadAt(p, off, dst)
	h.reads++
	h.bytes += n
	h.maxRead = max(h.maxRead, len(dst))
	return n, err
}

// cost is what one export call of a search asked of the host.
type cost struct{ stats, bytes, maxRead int }

// budgetRig is a session over an in-memory project with many earlier
// sessions, on a clock that does not move: a search's slices end by its
// work alone, so what each call does is the same on every run.
type budgetRig struct {
	t       *testing.T
	e       *Engine
	h       *costHost
	mem     *fsys.Mem
	dir     string // where pi keeps the project's sessions
	project string
}

const budgetAgent = "/home/ada/.pi/agent"

func newBudgetRig(t *testing.T, mode string) *budgetRig {
	clock := fsys.NewManual(time.UnixMilli(1795737600000))
	mem := fsys.NewMem(clock)
	r := &budgetRig{t: t, mem: mem, project: "/home/ada/app"}
	require.NoError(t, mem.Mkdir(r.project+"/.git"))
	r.dir = budgetAgent + "/sessions/" + hsimport.SessionFolder(r.project)
	require.NoError(t, mem.Mkdir(r.dir))
	r.h = &costHost{Host: fsys.NewHost(mem, clock, nil, nil)}
	r.e = New(r.h)
	r.e.Handle("session_start", []byte(`{"cwd":"/home/ada/app","agentDir":"`+budgetAgent+`","trusted":true,"hasUI":false,"mode":"`+mode+`","reason":"startup","sessionId":"now"}`))
	return r
}

// session writes earlier session i: a header, then messages of the given
// text (%d is the message's number).
func (r *budgetRig) session(i, messages int, text string) {
	var b strings.Builder
	at := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	fmt.Fprintf(&b, `{"type":"session","version":3,"id":"s%d","timestamp":"%s","cwd":"%s"}`+"\n", i, at.Format("2006-01-02T15:04:05.000Z"), r.project)
	for m := 0; m < messages; m++ {
		fmt.Fprintf(&b, `{"type":"message","id":"m%d","timestamp":"%s","message":{"role":"user","content":%q}}`+"\n", m, at.Format("2006-01-02T15:04:05.000Z"), fmt.Sprintf(text, m))
	}
	name := strings.NewReplacer(":", "-", ".", "-").Replace(at.Format("2006-01-02T15:04:05.000Z")) + "_s" + strconv.Itoa(i) + ".jsonl"
	require.NoError(r.t, r.mem.WriteAtomic(r.dir+"/"+name, []byte(b.String())))
}

// search runs memory_search as pi's adapter does, answering each http ask
// of no request (the core asking for its next slice), and returns the
// tool's text and what each call asked of the host.
func (r *budgetRig) search(q string) (string, []cost) {
	r.t.Helper()
	in := []byte(`{"name":"memory_search","params":{"query":` + strconv.Quote(q) + `}}`)
	export := "tool"
	var costs []cost
	for range 100_000 {
		*r.h = costHost{Host: r.h.Host}
		out := gjson.ParseBytes(r.e.Handle(export, in))
		costs = append(costs, cost{stats: r.h.stats, bytes: r.h.bytes, maxRead: r.h.maxRead})
		next := ""
		for _, e := range out.Get("effects").Array() {
			switch {
			case e.Get("t").String() == "tool_result":
				return e.Get("text").String(), costs
			case e.Get("t").String() == "http" && !e.Get("background").Bool():
				require.Equal(r.t, 0, len(e.Get("requests").Array()), "a search asks for nothing but its next slice")
				next = e.Get("id").String()
			}
		}
		require.True(r.t, next != "", "neither a result nor an ask: %s", out.Raw)
		export, in = "resume", []byte(`{"id":"`+next+`","value":[]}`)
	}
	r.t.Fatal("the search never ended")
	return "", nil
}

// With 20,000 earlier sessions, one call held pi's main thread for the
// whole search: get_state waited 12 s for a first search, and a 60 KB query
// took 119 s. A search now works in slices, each within DefaultBudget's
// SliceUnits (a stat is statUnits of them, a byte read one), and asks pi
// for nothing between them, so pi's event loop runs; the sessions it could
// not read within the search's budget are named, and the next search goes
// on with them.
func TestASearchOfManySessionsIsDoneInBoundedSlices(t *testing.T) {
	r := newBudgetRig(t, "rpc")
	const sessions = 20_000
	for i := range sessions {
		r.session(i, 2, "session "+strconv.Itoa(i)+" message %d about deploying the billing service")
	}
	r.session(sessions, 2, "we rotate the kubernetes certificates on fridays %d")
	r.e.budget.Units = 2 * int64(r.e.budget.SliceUnits)
	maxStats := r.e.budget.SliceUnits/1024 + 64
	var later []int
	for round := 0; ; round++ {
		text, costs := r.search("kubernetes certificates")
		require.True(t, len(costs) > 1, "round %d: the search yielded", round)
		for k, c := range costs {
			require.True(t, c.stats <= maxStats, "round %d, call %d: %d files looked at", round, k, c.stats)
			require.True(t, c.bytes <= r.e.budget.SliceUnits+(256<<10), "round %d, call %d: %d bytes read", round, k, c.bytes)
		}
		require.Contains(t, text, "we rotate the kubernetes certificates on fridays", "the newest session is read first")
		n := 0
		if i := strings.Index(text, "Not searched: "); i >= 0 {
			fmt.Sscanf(text[i+len("Not searched: "):], "%d earlier sessions, not read within", &n)
			require.True(t, n > 0, "round %d: %s", round, text[i:])
		}
		later = append(later, n)
		if n == 0 || round == 50 {
			break
		}
	}
	require.True(t, len(later) >= 2 && later[len(later)-1] == 0, "each search read on until every session was read: %v", later)
	for i := 1; i < len(later); i++ {
		require.True(t, later[i] < later[i-1], "each search read on: %v", later)
	}
	text, costs := r.search("billing service 19999")
	require.NotContains(t, text, "Not searched")
	require.Contains(t, text, "session 19999 message")
	require.True(t, len(costs) < 40, "a search over an index read whole: %d calls", len(costs))
}

// A project with a thousand earlier sessions or more asks pi's adapter for a worker
// thread at session_start (its searches would hold pi's thread: listing
// 20,000 sessions took 250 ms, and the index's collections grow with it); a
// few sessions, or pimem (no event loop to keep free), do not.
func TestAProjectWithAThousandEarlierSessionsAsksForAWorker(t *testing.T) {
	base := t.TempDir()
	project, agent := filepath.Join(base, "app"), filepath.Join(base, "agent")
	require.NoError(t, os.MkdirAll(filepath.Join(project, ".git"), 0o755))
	folder := filepath.Join(agent, "sessions", hsimport.SessionFolder(project))
	require.NoError(t, os.MkdirAll(folder, 0o755))
	write := func(from, to int) {
		for i := from; i < to; i++ {
			name := fmt.Sprintf("2026-06-01T00-00-00-000Z_0f9e8d7c-1234-4abc-9def-%012d.jsonl", i)
			require.NoError(t, os.WriteFile(filepath.Join(folder, name), []byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-06-01T00:00:00.000Z","cwd":"`+project+`"}`+"\n"), 0o644))
		}
	}
	asks := func(mode string) bool {
		e := New(fsys.NewHost(fsys.NewOS(), nil, nil, nil))
		out := gjson.ParseBytes(e.Handle("session_start", []byte(`{"cwd":`+strconv.Quote(project)+`,"agentDir":`+strconv.Quote(agent)+`,"trusted":true,"mode":"`+mode+`","reason":"startup"}`)))
		return out.Get(`effects.#(t=="worker")`).Exists()
	}
	write(0, 10)
	require.True(t, !asks("rpc"), "10 earlier sessions: no worker")
	write(10, 1_500)
	require.True(t, asks("rpc"), "1,500 earlier sessions: a worker")
	require.True(t, asks("interactive"), "in pi's terminal too")
	require.True(t, !asks("cli") && !asks("mcp"), "pimem has no event loop to keep free")
	require.True(t, !asks("print"), "nor pi -p: its one prompt would wait for the worker's start")

	// A few sessions, one of them of 40 MB.
	require.NoError(t, os.RemoveAll(folder))
	require.NoError(t, os.MkdirAll(folder, 0o755))
	write(0, 5)
	require.True(t, !asks("rpc"), "5 small sessions: no worker")
	big := filepath.Join(folder, "2026-07-01T00-00-00-000Z_big.jsonl")
	require.NoError(t, os.WriteFile(big, nil, 0o644))
	require.NoError(t, os.Truncate(big, 40<<20))
	require.True(t, asks("rpc"), "a session of 40 MB: a worker")
	require.NoError(t, os.Remove(big))

	// Beside 5 sessions, 1,500 files that are not sessions: each is listed
	// by a search (100,000 held pi's thread 300 ms).
	for i := range 1_500 {
		require.NoError(t, os.WriteFile(filepath.Join(folder, fmt.Sprintf("junk-%05d.txt", i)), nil, 0o644))
	}
	require.True(t, asks("rpc"), "1,500 other files in the session folder: a worker")
	require.NoError(t, os.RemoveAll(folder))
	require.NoError(t, os.MkdirAll(folder, 0o755))
	write(0, 5)
	require.True(t, !asks("rpc"), "5 small sessions again: no worker")

	// No session at all, and a decision log: 100,000 decisions (40 MB) took
	// 2–3 s to index in TinyGo at the first search, on pi's thread.
	require.NoError(t, os.RemoveAll(folder))
	require.NoError(t, os.MkdirAll(folder, 0o755))
	logFile := filepath.Join(project, ".pi", "decision-memory", "decisions.jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(logFile), 0o755))
	decisions := func(n int) {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `{"v":1,"t":"2026-01-02T09:00:00.000Z","p":"5f1c2a9be07d43aa","e":"a","i":"D-2026-01-02-%04d","d":{"tx":"Decision %d: keep the billing service's retries behind one interface so it can be swapped later, and revisit when traffic grows.","tg":["billing"],"s":"active","r":"","sp":null,"c":[]},"u":"user"}`+"\n", i+1, i)
		}
		require.NoError(t, os.WriteFile(logFile, []byte(b.String()), 0o644))
	}
	decisions(1_000)
	require.True(t, !asks("rpc"), "1,000 decisions: no worker")
	decisions(40_000)
	require.True(t, asks("rpc"), "40,000 decisions (over 8 MiB): a worker")
	require.True(t, !asks("cli"), "never for pimem")
	require.NoError(t, os.Remove(logFile))
	require.True(t, !asks("rpc"), "no decision log, 5 small sessions: no worker")

	// Memory files of 8 KiB or more together: each entry is parsed,
	// redacted and fitted at the first prompt (a 4 MiB MEMORY.md held pi's
	// thread 5–20 s under TinyGo).
	memory := filepath.Join(project, ".pi", "memory", "MEMORY.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(memory), 0o755))
	require.NoError(t, os.WriteFile(memory, []byte(strings.Repeat("- the staging deploy uses helm and runs after the billing job\n", 100)), 0o644))
	require.True(t, !asks("rpc"), "a MEMORY.md of 6 KiB: no worker")
	require.NoError(t, os.WriteFile(memory, []byte(strings.Repeat("- the staging deploy uses helm and runs after the billing job\n", 140)), 0o644))
	require.True(t, asks("rpc"), "a MEMORY.md of 8.5 KiB: a worker")
	require.True(t, !asks("cli"), "never for pimem")
	require.NoError(t, os.Remove(memory))
	// Topic files too: a search reads them whole.
	topic := filepath.Join(filepath.Dir(memory), "deploy.md")
	require.NoError(t, os.WriteFile(memory, []byte("- see deploy.md\n"), 0o644))
	require.NoError(t, os.WriteFile(topic, []byte(strings.Repeat("- the staging deploy uses helm and runs after the billing job\n", 140)), 0o644))
	require.True(t, asks("rpc"), "a topic file of 8.5 KiB beside a small MEMORY.md: a worker")
	require.NoError(t, os.Remove(topic))
	require.NoError(t, os.Remove(memory))

	// 10,000 other projects' folders in sessions/: its own size says so,
	// without listing them; it never shrinks on ext4, so this comes last (20,000 held pi's thread 80–140 ms at every search).
	for i := range 10_000 {
		require.NoError(t, os.Mkdir(filepath.Join(agent, "sessions", fmt.Sprintf("--home-someone-else-projects-a-rather-long-project-name-%05d--", i)), 0o755))
	}
	require.True(t, asks("rpc"), "10,000 other projects' folders: a worker")
}

// A 60 KB query (a pasted file) looked each of its thousands of words up in
// every source; a search reads its first search.MaxTerms distinct words and
// says it left the rest out.
func TestAHugeQueryIsCutAndSaysSo(t *testing.T) {
	r := newBudgetRig(t, "rpc")
	r.session(1, 3, "deploy the billing service %d")
	var q strings.Builder
	for q.Len() < 60_000 {
		q.WriteString("word" + strconv.Itoa(q.Len()) + " ")
	}
	text, _ := r.search("billing " + q.String())
	require.Contains(t, text, "deploy the billing service")
	require.Contains(t, text, "Not searched: the query's words after its first 32 distinct ones or its first 1,000 bytes.")
	require.True(t, len(text) < 4000, "the answer quotes the query as searched: %d bytes", len(text))
}

// A 60 MB session was read whole into the module, with every entry's
// copies: six of them trapped at 2.2 GB. A session is read a piece at a
// time, and gives the index its first megabyte of messages; a session over
// 64 MiB (a 500 MB one was skipped without a word) is skipped, and said.
// A message of 50 MB (a paste) is a line longer than a session's lines are
// read: it was skipped without a word. The messages after it are found, and
// the answer says the session was read in part.
func TestAMessageTooLongToReadIsSaid(t *testing.T) {
	r := newBudgetRig(t, "cli")
	msg := func(id, text string) string {
		return `{"type":"message","id":"` + id + `","timestamp":"2026-06-01T00:01:00.000Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
	}
	session := `{"type":"session","version":3,"id":"s1","timestamp":"2026-06-01T00:01:00.000Z","cwd":"` + r.project + `"}` + "\n" +
		msg("m1", "a paste about the ledger "+strings.Repeat("x", 9<<20)) + msg("m2", "the ledger closes monthly")
	require.NoError(t, r.mem.WriteAtomic(r.dir+"/2026-06-01T00-01-00-000Z_s1.jsonl", []byte(session)))
	text, _ := r.search("ledger")
	require.Contains(t, text, "the ledger closes monthly")
	require.Contains(t, text, "Not searched: the rest of 1 long earlier session past its first megabyte, or a message in it too long to read.")
}

func TestALargeSessionIsReadInPiecesAndGivesItsFirstMegabyte(t *testing.T) {
	r := newBudgetRig(t, "cli")
	r.session(1, 6_000, "message %d: "+strings.Repeat("the quarterly invoice export runs nightly ", 240))
	r.session(2, 2, "a small session about invoices %d")
	require.NoError(t, r.mem.WriteAtomic(r.dir+"/2026-07-01T00-00-00-000Z_huge.jsonl", make([]byte, 65<<20)))
	text, costs := r.search("quarterly invoice export")
	// Its messages are alike; each after the first is scored with the one
	// before it too (docs/search.md, "Conversations"), so message 1 leads.
	require.Contains(t, text, "message 1: the quarterly invoice export")
	require.Contains(t, text, "1 earlier session, skipped for its size: "+budgetAgent+"/sessions/"+hsimport.SessionFolder(r.project)+"/2026-07-01T00-00-00-000Z_huge.jsonl")
	require.Contains(t, text, "the rest of 1 long earlier session past its first megabyte")
	read := 0
	for _, c := range costs {
		require.True(t, c.maxRead <= 256<<10, "one read of %d bytes", c.maxRead)
		read += c.bytes
	}
	require.True(t, read < 2<<20, "%d bytes read of a 60 MB session for its first megabyte of messages", read)
	require.True(t, r.e.index.Held() < 3<<20, "the sessions hold %d bytes of the index", r.e.index.Held())
}

// What earlier sessions hold in the index is bounded (Budget.IndexBytes):
// the newest that fit are read, the others are named.
func TestEarlierSessionsHoldAtMostTheIndexBudget(t *testing.T) {
	r := newBudgetRig(t, "cli")
	for i := range 200 {
		r.session(i, 20, "session "+strconv.Itoa(i)+" note %d: "+strings.Repeat("text to fill the index ", 20))
	}
	r.e.budget.IndexBytes = 256 << 10
	for range 2 {
		text, _ := r.search("session note")
		require.Contains(t, text, "session 199 note")
		require.Contains(t, text, ", not read within this search's budget of time and memory")
		require.True(t, r.e.index.Held() <= r.e.budget.IndexBytes+64<<10, "%d bytes held: the budget and one session more at most", r.e.index.Held())
	}
}

// A past session's secret is redacted by the index, as every entry is: it
// is neither shown nor found (the session store leaves redaction to it).
func TestASecretInAnEarlierSessionIsNeitherShownNorFound(t *testing.T) {
	r := newBudgetRig(t, "cli")
	token := "ghp_" + strings.Repeat("a1B2", 9)
	r.session(1, 1, "the deploy token is "+token+" %d")
	text, _ := r.search("deploy token")
	require.Contains(t, text, "the deploy token is [REDACTED")
	require.NotContains(t, text, token)
	text, _ = r.search(token)
	require.NotContains(t, text, token[4:])
	require.Contains(t, text, "No memory matches")
}

// Escape in pi cancels the tool call: the adapter answers the search's next
// slice with an error, and the search ends at once, saying so and ranking
// nothing; the next search goes on with the index.
func TestACancelledSearchEndsAtItsNextSlice(t *testing.T) {
	r := newBudgetRig(t, "rpc")
	for i := range 3_000 {
		r.session(i, 2, "session "+strconv.Itoa(i)+" message %d about deploying the billing service")
	}
	r.session(3_000, 2, "we rotate the kubernetes certificates on fridays %d")
	for _, tool := range []struct{ name, params, want string }{
		{"memory_search", `{"query":"kubernetes certificates"}`, cancelled},
	} {
		out := gjson.ParseBytes(r.e.Handle("tool", []byte(`{"name":"`+tool.name+`","params":`+tool.params+`}`)))
		ask := out.Get(`effects.#(t=="http")`)
		require.True(t, ask.Exists() && len(ask.Get("requests").Array()) == 0, "%s: the search yielded: %s", tool.name, out.Raw)
		out = gjson.ParseBytes(r.e.Handle("resume", []byte(`{"id":"`+ask.Get("id").String()+`","value":[{"error":"aborted"}]}`)))
		require.False(t, out.Get(`effects.#(t=="http")`).Exists(), "%s: no slice after the cancel: %s", tool.name, out.Raw)
		res := out.Get(`effects.#(t=="tool_result")`)
		require.Equal(t, tool.want, res.Get("text").String(), tool.name)
		require.True(t, res.Get("isError").Bool())
	}
	text, _ := r.search("kubernetes certificates")
	require.Contains(t, text, "we rotate the kubernetes certificates on fridays")
}

// A secret in a file's name is not shown by /memory search (nor pimem
// memory search), whose output pi keeps in its transcript.
func TestASecretInAFileNameIsNotShownBySearch(t *testing.T) {
	r := newBudgetRig(t, "rpc")
	tok := "ghp_u8jzPde0IgxLd6GncfBAepfJBd0123456789"
	line := `{"type":"session","version":3,"id":"s","timestamp":"2026-06-01T00:00:00.000Z","cwd":"` + r.project + `"}` + "\n" +
		`{"type":"message","id":"m1","timestamp":"2026-06-01T00:00:00.000Z","message":{"role":"user","content":"we rotate the kubernetes certificates on fridays"}}` + "\n"
	require.NoError(t, r.mem.WriteAtomic(r.dir+"/2026-06-01T00-00-00-000Z_"+tok+".jsonl", []byte(line)))
	for _, args := range []string{"search kubernetes certificates", "search kubernetes certificates --json"} {
		out := string(r.e.Handle("command", []byte(`{"name":"memory","args":"`+args+`"}`)))
		require.Contains(t, out, "kubernetes", args)
		require.NotContains(t, out, tok, args)
	}
	text, _ := r.search("kubernetes certificates")
	require.NotContains(t, text, tok)
}

// Memory that grows bulky while a session runs (a git pull brings a
// MEMORY.md of thousands of lines) asks for the worker when pi is idle
// after the run that found it, once (h-v31: every turn held pi's thread
// 88-300 ms, as the core stayed where session_start left it).
func TestMemoryGrownBulkyMidSessionAsksForAWorkerOnce(t *testing.T) {
	base := t.TempDir()
	project, agent := filepath.Join(base, "app"), filepath.Join(base, "agent")
	notes := filepath.Join(project, ".pi", "memory", "MEMORY.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(notes), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(project, ".git"), 0o755))
	require.NoError(t, os.WriteFile(notes, []byte("## Notes\n\n- Use pnpm\n"), 0o644))
	e := New(fsys.NewHost(fsys.NewOS(), nil, nil, nil))
	worker := func(export, input string) bool {
		return gjson.ParseBytes(e.Handle(export, []byte(input))).Get(`effects.#(t=="worker")`).Exists()
	}
	require.False(t, worker("session_start", `{"cwd":`+strconv.Quote(project)+`,"agentDir":`+strconv.Quote(agent)+`,"trusted":true,"mode":"interactive","reason":"startup"}`))
	require.False(t, worker("agent_settled", `{}`), "small memory: no worker")
	require.NoError(t, os.WriteFile(notes, []byte("## Notes\n\n"+strings.Repeat("- Keep the billing retries behind one interface so it can be swapped\n", 300)), 0o644))
	require.True(t, worker("agent_settled", `{}`), "grown past 8 KiB: a worker")
	require.False(t, worker("agent_settled", `{}`), "asked once")
}

// The session being continued is read whole by each event that carries its
// branch: one of 14 MB held pi's thread 3 s at its start and 14 s when pi
// settled (h-v48). A branch of 1 MiB or more asks for the worker, at the
// start or when pi settles after the run that grew it; in pi's terminal and
// rpc only.
func TestALongSessionAsksForAWorker(t *testing.T) {
	base := t.TempDir()
	project, agent := filepath.Join(base, "app"), filepath.Join(base, "agent")
	require.NoError(t, os.MkdirAll(filepath.Join(project, ".git"), 0o755))
	branch := func(n int) string {
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"type":"message","id":"m%d","message":{"role":"user","content":"%s"}}`, i, strings.Repeat("words of a long session ", 40))
		}
		return b.String() + "]"
	}
	start := func(e *Engine, mode, branch string) bool {
		out := gjson.ParseBytes(e.Handle("session_start", []byte(`{"cwd":`+strconv.Quote(project)+`,"agentDir":`+strconv.Quote(agent)+`,"trusted":true,"mode":"`+mode+`","reason":"startup","branch":`+branch+`}`)))
		return out.Get(`effects.#(t=="worker")`).Exists()
	}
	small, long := branch(10), branch(1200)
	require.True(t, len(long) > 1<<20 && len(small) < 1<<20)
	host := func() *Engine { return New(fsys.NewHost(fsys.NewOS(), nil, nil, nil)) }
	require.True(t, !start(host(), "interactive", small), "a short session: no worker")
	require.True(t, start(host(), "interactive", long), "a long one: a worker")
	require.True(t, start(host(), "rpc", long), "in rpc too")
	require.True(t, !start(host(), "print", long) && !start(host(), "cli", long) && !start(host(), "mcp", long), "not in pi -p nor pimem")
	var short strings.Builder
	short.WriteString("[")
	for i := range 2500 {
		if i > 0 {
			short.WriteString(",")
		}
		fmt.Fprintf(&short, `{"type":"message","id":"m%d","message":{"role":"user","content":"ok"}}`, i)
	}
	short.WriteString("]")
	require.True(t, short.Len() < 1<<20 && start(host(), "interactive", short.String()), "2,500 short entries: a worker (h-v52)")
	e := host()
	require.True(t, !start(e, "interactive", small))
	out := gjson.ParseBytes(e.Handle("agent_settled", []byte(`{"branch":`+long+`}`)))
	require.True(t, out.Get(`effects.#(t=="worker")`).Exists(), "the session grew long during the run")
}
