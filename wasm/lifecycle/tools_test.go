package lifecycle

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/search"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// tool calls one of the model's tools and returns its result's text and
// whether it is an error.
//
// A yield (an http ask of no request: a search's next slice, decision 018)
// is answered as pi's adapter answers it.
func (r *rig) tool(name, params string) (string, bool) {
	r.t.Helper()
	out := r.answerYields(r.e.Handle("tool", []byte(`{"name":`+quote(name)+`,"params":`+params+`}`)))
	r.last = gjson.ParseBytes(out)
	for _, e := range r.last.Get("effects").Array() {
		if e.Get("t").String() == "tool_result" {
			return e.Get("text").String(), e.Get("isError").Bool()
		}
	}
	r.t.Fatalf("no tool_result in %s", out)
	return "", false
}

// fakeForgetter is a store holding a few entries the orchestrator can
// search, forget and restore, standing in for the stores' own Forgetters in
// these tests of the orchestrator's routing.
type fakeForgetter struct {
	name    string
	prefix  string // the references it owns start with it
	entries map[string]string
	gone    map[string]string // restore ref → entry ref
	refuse  string            // Forget refuses with this, when set
	asked   *[]string         // every Forget and Restore, "name op ref"
	gen     int
	when    map[string]int64 // restore ref → when it was forgotten (a counter shared by the fakes)
	clock   *int64
}

func (f *fakeForgetter) Name() string                            { return f.name }
func (f *fakeForgetter) Off() string                             { return "" }
func (f *fakeForgetter) Refresh(*store.Out)                      {}
func (f *fakeForgetter) Ready(*store.Out) error                  { return nil }
func (f *fakeForgetter) Commands() map[string]func(c *store.Cmd) { return nil }

func (f *fakeForgetter) Searches() string { return f.name }

func (f *fakeForgetter) SearchSources() []search.Source {
	return []search.Source{{Key: "fake:" + f.name, Stamp: string(rune('0' + f.gen)), Load: func() []search.Doc {
		var docs []search.Doc
		for ref, text := range f.entries {
			docs = append(docs, search.Doc{Kind: search.Note, Ref: ref, Cite: ref, Text: text})
		}
		return docs
	}}}
}

func (f *fakeForgetter) Forget(out *store.Out, r store.Ref) (store.Forgot, bool, error) {
	ref := r.ID
	*f.asked = append(*f.asked, f.name+" forget "+ref)
	if !strings.HasPrefix(ref, f.prefix) {
		return store.Forgot{}, false, nil
	}
	if f.refuse != "" {
		return store.Forgot{}, true, errors.New(f.refuse)
	}
	text, ok := f.entries[ref]
	if !ok {
		return store.Forgot{}, false, nil
	}
	delete(f.entries, ref)
	f.gen++
	f.gone["R-"+ref] = ref + "\x00" + text
	*f.clock++
	f.when["R-"+ref] = *f.clock
	return store.Forgot{Said: "Forgot “" + text + "”.", Restore: "R-" + ref}, true, nil
}

func (f *fakeForgetter) Forgotten(_ *store.Out, limit int) []store.Forgot {
	var all []store.Forgot
	for ref, v := range f.gone {
		_, text, _ := strings.Cut(v, "\x00")
		all = append(all, store.Forgot{Said: "“" + text + "”", Restore: ref, At: f.when[ref]})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].At > all[j].At })
	return all[:min(limit, len(all))]
}

func (f *fakeForgetter) Restore(out *store.Out, r store.Ref) (string, bool, error) {
	ref := r.ID
	*f.asked = append(*f.asked, f.name+" restore "+ref)
	v, ok := f.gone[ref]
	if !ok {
		return "", false, nil
	}
	delete(f.gone, ref)
	entry, text, _ := strings.Cut(v, "\x00")
	f.entries[entry] = text
	f.gen++
	return "Restored “" + text + "”.", true, nil
}

// withFakes adds two fake Forgetters after the session's own stores.
func withFakes(r *rig) (a, b *fakeForgetter, asked *[]string) {
	asked = &[]string{}
	clock := new(int64)
	a = &fakeForgetter{name: "fake-a", prefix: "A-", entries: map[string]string{"A-1": "Deploy with Helm charts", "A-2": "Deploy on Fridays is fine"}, gone: map[string]string{}, asked: asked, when: map[string]int64{}, clock: clock}
	b = &fakeForgetter{name: "fake-b", prefix: "B-", entries: map[string]string{"B-1": "The staging cluster runs Kubernetes 1.30"}, gone: map[string]string{}, asked: asked, when: map[string]int64{}, clock: clock}
	r.e.stores = append(r.e.stores, a, b)
	return a, b, asked
}

func TestTheMemoryToolsAreOfferedWhileMemoryIsOnTrustedOrNot(t *testing.T) {
	// The orchestrator's tools; the stores' own (decision_propose,
	// memory_remember) follow their stores' rules.
	tools := func(r *rig) string {
		var own []string
		for _, n := range r.e.activeTools() {
			if strings.HasPrefix(n, "memory_") && n != "memory_remember" {
				own = append(own, n)
			}
		}
		return strings.Join(own, ",")
	}
	r := newRig(t, false)
	require.Equal(t, "memory_search,memory_forget,memory_restore", tools(r))
	r.mem("off")
	require.Equal(t, "", tools(r), "/memory off")
	text, isErr := r.tool("memory_search", `{"query":"anything"}`)
	require.True(t, isErr)
	require.Contains(t, text, "memory is off for this session (/memory off)")
	r.mem("on")
	require.Equal(t, "memory_search,memory_forget,memory_restore", tools(r))

	r.call("session_start", map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": false, "mode": "rpc"})
	require.Equal(t, "memory_search,memory_forget,memory_restore", tools(r), "untrusted project: the stores decide what they reach")
	r.e.Handle("session_start", []byte(`{"cwd":`+quote(r.project)+`,"agentDir":`+quote(r.agent)+`,"trusted":true,"mode":"rpc","flags":{"no-memory":true}}`))
	require.Equal(t, "", tools(r), "--no-memory")
	r.start(false, true)
	require.Equal(t, "memory_search,memory_forget,memory_restore", tools(r))
}

func TestMemorySearchFindsDecisionsNotesAndEarlierSessionsWithCitations(t *testing.T) {
	r := newRig(t, false)
	r.cmd(`add "Use PostgreSQL for the primary database"`)
	r.cmd(`add "Run the linters before every commit"`)
	notes := r.write(projectIndex, "# Memory\n\n## Build\n- Tests need the race detector: go test -race\n- Databases are migrated with goose\n")
	sessions := filepath.Join(r.agent, "sessions", "--"+strings.ReplaceAll(strings.TrimPrefix(r.project, "/"), "/", "-")+"--")
	require.NoError(t, os.MkdirAll(sessions, 0o755))
	past := filepath.Join(sessions, "2026-02-20T09-00-00-000Z_s0.jsonl")
	require.NoError(t, os.WriteFile(past, []byte(`{"type":"session","version":3,"id":"s0","timestamp":"2026-02-20T09:00:00.000Z","cwd":"`+r.project+`"}
{"type":"message","id":"a","parentId":null,"timestamp":"2026-02-20T09:00:01.000Z","message":{"role":"user","content":"the database backups run nightly at 02:00"}}
`), 0o644))

	text, isErr := r.tool("memory_search", `{"query":"databases"}`)
	require.False(t, isErr, text)
	require.Contains(t, text, "matches for \"databases\"")
	require.Contains(t, text, "decision D-")
	require.Contains(t, text, "(active, 2026-02-27): Use PostgreSQL for the primary database")
	require.Contains(t, text, "note .pi/memory/MEMORY.md:5")
	require.NotContains(t, text, notes)
	require.Contains(t, text, "session "+past+":2 (2026-02-20): User: the database backups run nightly at 02:00")
	require.NotContains(t, text, "linters")

	r.mem("search race detector")
	require.Contains(t, r.text(), ".pi/memory/MEMORY.md:4#P-432d41edbd  note")
	for _, l := range strings.Split(r.text(), "\n") {
		require.True(t, len([]rune(l)) <= 80, "over 80 columns:", l)
	}
}

// A memory file search could not read (past 4 MiB here) is named in every
// answer, hits or not, so the model does not take what it holds for absent.
func TestMemorySearchNamesAMemoryFileItCouldNotRead(t *testing.T) {
	r := newRig(t, false)
	big := filepath.Join(filepath.Dir(r.write(projectIndex, "# Memory\n\n- Deploys go through Helm charts\n")), "runbook.md")
	require.NoError(t, os.WriteFile(big, []byte("- kiwi "+strings.Repeat("x", 5<<20)+"\n"), 0o644))
	for _, q := range []string{"deploys", "kiwi", "deploys"} {
		text, isErr := r.tool("memory_search", `{"query":`+quote(q)+`}`)
		require.False(t, isErr, text)
		require.Contains(t, text, "Not searched: 1 memory file that could not be read (do not take what it holds for absent): .pi/memory/runbook.md.", q)
	}
	require.NoError(t, os.WriteFile(big, []byte("- kiwi season starts in May\n"), 0o644))
	text, _ := r.tool("memory_search", `{"query":"kiwi"}`)
	require.Contains(t, text, "kiwi season starts in May")
	require.NotContains(t, text, "could not be read")
}

// sessionsDir is where pi keeps the rig's project's sessions, made.
func (r *rig) sessionsDir() string {
	dir := filepath.Join(r.agent, "sessions", "--"+strings.ReplaceAll(strings.TrimPrefix(r.project, "/"), "/", "-")+"--")
	require.NoError(r.t, os.MkdirAll(dir, 0o755))
	return dir
}

// sessionJSONL is a pi session file of id, run in cwd, of one user message
// per text said.
func sessionJSONL(id, cwd string, said ...string) string {
	s := `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-02-20T09:00:00.000Z","cwd":"` + cwd + `"}` + "\n"
	for i, m := range said {
		s += `{"type":"message","id":"m` + strconv.Itoa(i) + `","parentId":null,"timestamp":"2026-02-20T09:00:01.000Z","message":{"role":"user","content":"` + m + `"}}` + "\n"
	}
	return s
}

// Session files are pi's and only read: a link to one of this project's
// sessions kept elsewhere is followed; a link to any other file, or to
// another project's session, gives nothing. (A link to a FIFO is refused by
// the hosts' reads: host/imports_special_unix_test.go.)
func TestSearchFollowsLinkedSessionsOnlyToThisProjectsSessions(t *testing.T) {
	r := newRig(t, false)
	sessions := r.sessionsDir()
	elsewhere := t.TempDir()
	session := func(name, cwd, said string) string {
		p := filepath.Join(elsewhere, name)
		require.NoError(t, os.WriteFile(p, []byte(sessionJSONL(name, cwd, said)), 0o644))
		return p
	}
	link := func(target, name string) {
		require.NoError(t, os.Symlink(target, filepath.Join(sessions, name)))
	}
	link(session("mine", r.project, "kiwi harvest is in May"), "2026-02-20T09-00-00-000Z_mine.jsonl")
	link(session("theirs", "/elsewhere/other", "kiwi prices from the other project"), "2026-02-21T09-00-00-000Z_theirs.jsonl")
	plain := filepath.Join(elsewhere, "notes.txt")
	require.NoError(t, os.WriteFile(plain, []byte("kiwi password=hunter2hunter2\n"), 0o644))
	link(plain, "2026-02-22T09-00-00-000Z_plain.jsonl")

	text, isErr := r.tool("memory_search", `{"query":"kiwi"}`)
	require.False(t, isErr, text)
	require.Contains(t, text, "kiwi harvest is in May")
	require.NotContains(t, text, "other project")
	require.NotContains(t, text, "hunter2")
}

// An earlier session still for ten minutes is looked at again at most every
// 30 s (a warm search stat'ed every session file); one written lately is
// looked at by every search.
func TestAQuietSessionIsLookedAtAgainEvery30Seconds(t *testing.T) {
	r := newRig(t, false)
	sessions := r.sessionsDir()
	write := func(name string, mtime int64, said ...string) string {
		p := filepath.Join(sessions, name)
		require.NoError(t, os.WriteFile(p, []byte(sessionJSONL(name, r.project, said...)), 0o644))
		at := time.UnixMilli(mtime)
		require.NoError(t, os.Chtimes(p, at, at))
		return p
	}
	search := func(q string) string {
		text, _ := r.tool("memory_search", `{"query":`+quote(q)+`}`)
		return text
	}
	now := r.h.now
	old := write("2026-02-20T09-00-00-000Z_old.jsonl", now-day, "kiwi harvest")
	recent := write("2026-02-26T09-00-00-000Z_new.jsonl", now-60_000, "plum harvest")
	require.Contains(t, search("harvest"), "kiwi harvest")

	write(filepath.Base(old), now-day+1000, "kiwi harvest", "mango season")
	write(filepath.Base(recent), now-30_000, "plum harvest", "cherry season")
	got := search("season")
	require.Contains(t, got, "cherry season", "a session written lately is looked at by every search")
	require.NotContains(t, got, "mango season", "a quiet one is taken at its last look for 30 s")
	r.h.now += 31_000
	require.Contains(t, search("season"), "mango season")
}

// Search hits cited absolute paths, which wrapped over three lines at 80
// columns in pi's transcript: a hit is cited relative to the project or
// with ~ for the home folder where its reader can open it that way, and
// memory_forget takes that citation back. pi running in a folder below the
// project's root gets the absolute path of a project file. An MCP client
// gets what pi gets.
func TestSearchCitesShortPathsItsReaderCanOpen(t *testing.T) {
	for _, tc := range []struct {
		name, mode, sub string
		short           bool
	}{
		{"pi at the project's root", "rpc", "", true},
		{"pi in a folder below the root", "tui", "src", false},
		{"an MCP client", "mcp", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, false)
			home := filepath.Dir(r.agent)
			cwd := filepath.Join(r.project, tc.sub)
			require.NoError(t, os.MkdirAll(cwd, 0o755))
			r.call("session_start", map[string]any{"cwd": cwd, "agentDir": r.agent, "home": home, "trusted": true, "hasUI": false, "mode": tc.mode, "reason": "startup"})
			notes := r.write(projectIndex, "## Build\n- Databases are migrated with goose\n")
			global := r.write(globalIndex, "## Notes\n- Databases I like: PostgreSQL\n")

			text, _ := r.tool("memory_search", `{"query":"databases"}`)
			page := `#P-[0-9a-f]{10}: `
			require.True(t, regexp.MustCompile(`note ~/agent/memory/MEMORY\.md:2`+page+`Notes — Databases I like`).MatchString(text), text)
			require.NotContains(t, text, global)
			if tc.short {
				require.True(t, regexp.MustCompile(`note \.pi/memory/MEMORY\.md:2`+page+`Build — Databases are migrated`).MatchString(text), text)
				require.NotContains(t, text, r.project)
			} else {
				require.True(t, regexp.MustCompile(`note `+regexp.QuoteMeta(notes)+`:2`+page+`Build — Databases are migrated`).MatchString(text), text)
			}

			// What the search cited is what memory_forget takes.
			for _, line := range strings.Split(text, "\n")[1:] {
				ref := strings.TrimPrefix(line[strings.Index(line, " ")+1:], "note ")
				ref = ref[:strings.Index(ref, ": ")]
				got, isErr := r.tool("memory_forget", `{"id":`+quote(ref)+`}`)
				require.False(t, isErr, "%s: %s", ref, got)
			}
			require.Equal(t, "## Build\n", r.read(projectIndex))
			require.Equal(t, "## Notes\n", r.read(globalIndex))
		})
	}
}

func TestMemoryForgetByIdAsksEachForgetterInListOrder(t *testing.T) {
	r := newRig(t, false)
	_, b, asked := withFakes(r)
	text, isErr := r.tool("memory_forget", `{"id":"B-1"}`)
	require.False(t, isErr, text)
	require.Equal(t, "Forgot “The staging cluster runs Kubernetes 1.30”. To bring it back: memory_restore with id \"R-B-1\".", text)
	require.Equal(t, "fake-a forget B-1,fake-b forget B-1", strings.Join(*asked, ","))
	require.Equal(t, 0, len(b.entries))

	text, isErr = r.tool("memory_restore", `{"id":"R-B-1"}`)
	require.False(t, isErr, text)
	require.Equal(t, "Restored “The staging cluster runs Kubernetes 1.30”.", text)
	require.Equal(t, 1, len(b.entries))

	text, isErr = r.tool("memory_forget", `{"id":"Z-9"}`)
	require.True(t, isErr)
	require.Contains(t, text, `No decision or note is "Z-9"`)
	text, isErr = r.tool("memory_restore", `{"id":"R-Z-9"}`)
	require.True(t, isErr)
	require.Contains(t, text, "Nothing to restore")
}

func TestAForgetterThatRefusesStopsTheForget(t *testing.T) {
	r := newRig(t, false)
	a, _, asked := withFakes(r)
	a.refuse = "that decision is superseded; remove the newer one first"
	text, isErr := r.tool("memory_forget", `{"id":"A-1"}`)
	require.True(t, isErr)
	require.Equal(t, a.refuse, text)
	require.Equal(t, "fake-a forget A-1", strings.Join(*asked, ","), "nobody after the store that answered")
}

func TestMemoryForgetByQueryForgetsOnlyAClearBestMatch(t *testing.T) {
	r := newRig(t, false)
	a, b, _ := withFakes(r)

	text, isErr := r.tool("memory_forget", `{"query":"kubernetes staging cluster"}`)
	require.False(t, isErr, text)
	require.Contains(t, text, "Forgot “The staging cluster runs Kubernetes 1.30”.")
	require.Equal(t, 0, len(b.entries))

	text, isErr = r.tool("memory_forget", `{"query":"deploy"}`)
	require.False(t, isErr, text)
	require.Contains(t, text, "2 entries match \"deploy\" and none clearly best; nothing was forgotten. Forget one by its id:")
	require.Contains(t, text, "A-1: Deploy with Helm charts")
	require.Contains(t, text, "A-2: Deploy on Fridays is fine")
	require.Equal(t, 2, len(a.entries))

	text, isErr = r.tool("memory_forget", `{"query":"terraform"}`)
	require.True(t, isErr)
	require.Contains(t, text, "No decision or note matches \"terraform\"")
	_, isErr = r.tool("memory_forget", `{}`)
	require.True(t, isErr)
}

func TestMemoryRestoreWithoutAnIdBringsBackTheLastForgotten(t *testing.T) {
	r := newRig(t, false)
	_, b, _ := withFakes(r)
	r.mem("restore")
	require.Equal(t, int64(1), r.exit())
	require.Equal(t, "Nothing has been forgotten here, so there is nothing to restore.", r.text())

	r.mem("forget B-1")
	require.Contains(t, r.text(), "Forgot “The staging cluster runs Kubernetes 1.30”. /memory restore brings it back.")
	r.mem("restore")
	require.Contains(t, r.text(), "Restored “The staging cluster runs Kubernetes 1.30”.")
	require.Equal(t, 1, len(b.entries))

	r.mem("forget helm charts")
	require.Contains(t, r.text(), "Forgot “Deploy with Helm charts”.")
	r.mem("forget deploy")
	require.Equal(t, int64(0), r.exit(), "one deploy entry left: clearly best")
}

func TestMemoryForgetIsRefusedWhileMemoryIsOff(t *testing.T) {
	r := newRig(t, false)
	_, b, asked := withFakes(r)
	r.mem("off")
	r.mem("forget B-1")
	require.Equal(t, int64(1), r.exit())
	require.Contains(t, r.text(), "Nothing was forgotten: ")
	require.Equal(t, 0, len(*asked))
	require.Equal(t, 1, len(b.entries))
}

func TestSearchInAnUntrustedProjectReadsOnlyGlobalNotes(t *testing.T) {
	r := newRig(t, false)
	r.write(globalIndex, "# Memory\n- Prefer small pull requests\n")
	r.write(projectIndex, "# Memory\n- Pull requests need two approvals here\n")
	r.start(false, false)
	r.mem("search pull requests")
	require.Contains(t, r.text(), "1 match for \"pull requests\":")
	require.Contains(t, r.text(), "agent/memory/MEMORY.md:2")
	require.NotContains(t, r.text(), "two approvals")
}

// Issue 25, item 15: with decisions and notes disabled by their config,
// memory_search, memory_forget and memory_restore were still offered and a
// search returned earlier sessions' text. A disabled store is neither
// searched, forgotten nor restored; a tool no store could answer is not
// offered; and earlier sessions follow the stores a person keeps: with both
// off, memory is off for the project and no past-session text comes back.
func TestDisabledStoresAreNotSearchedForgottenOrRestoredNorTheirToolsOffered(t *testing.T) {
	own := func(r *rig) string {
		var names []string
		for _, n := range r.e.activeTools() {
			if n == "memory_search" || n == "memory_forget" || n == "memory_restore" {
				names = append(names, n)
			}
		}
		return strings.Join(names, ",")
	}
	setup := func(t *testing.T) (*rig, string) {
		r := newRig(t, false)
		r.cmd(`add "Use PostgreSQL for the primary database"`)
		r.write(projectIndex, "## Build\n- Databases are migrated with goose\n")
		sessions := filepath.Join(r.agent, "sessions", "--"+strings.ReplaceAll(strings.TrimPrefix(r.project, "/"), "/", "-")+"--")
		require.NoError(t, os.MkdirAll(sessions, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(sessions, "2026-02-20T09-00-00-000Z_s0.jsonl"), []byte(`{"type":"session","version":3,"id":"s0","timestamp":"2026-02-20T09:00:00.000Z","cwd":"`+r.project+`"}
{"type":"message","id":"a","parentId":null,"timestamp":"2026-02-20T09:00:01.000Z","message":{"role":"user","content":"the database backups run nightly at 02:00"}}
`), 0o644))
		text, _ := r.tool("memory_forget", `{"query":"goose"}`)
		require.Contains(t, text, "Forgot")
		restoreID := regexp.MustCompile(`R-[0-9a-f-]+|N-[^ )"]+`).FindString(text)
		r.write(projectIndex, "## Build\n- Databases are migrated with goose\n")
		return r, restoreID
	}
	const pg, goose, backups = "Use PostgreSQL for", "migrated with goose", "backups run nightly"
	for _, tc := range []struct {
		name, decisions, notes string
		tools                  string
		found, notFound        []string
	}{
		{"both on", "", "", "memory_search,memory_forget,memory_restore", []string{pg, goose, backups}, nil},
		{"decisions off", `{"enabled": false}`, "", "memory_search,memory_forget,memory_restore", []string{goose, backups}, []string{pg}},
		{"notes off", "", `{"enabled": false}`, "memory_search,memory_forget,memory_restore", []string{pg, backups}, []string{goose}},
		{"both off", `{"enabled": false}`, `{"enabled": false}`, "memory_search", nil, []string{pg, goose, backups}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := setup(t)
			if tc.decisions != "" {
				r.write("proj/.pi/decision-memory.config.json", tc.decisions)
			}
			if tc.notes != "" {
				r.write("agent/memory/config.json", tc.notes)
			}
			r.start(false, true)
			require.Equal(t, tc.tools, own(r))
			text, _ := r.tool("memory_search", `{"query":"database databases goose backups PostgreSQL"}`)
			for _, w := range tc.found {
				require.Contains(t, text, w)
			}
			for _, w := range tc.notFound {
				require.NotContains(t, text, w)
			}
			r.mem("search database backups")
			for _, w := range tc.notFound {
				require.NotContains(t, r.text(), w)
			}
		})
	}
	t.Run("observations off too: no tool is offered", func(t *testing.T) {
		r, restoreID := setup(t)
		r.write("proj/.pi/decision-memory.config.json", `{"enabled": false}`)
		r.write("agent/memory/config.json", `{"enabled": false}`)
		r.write("proj/.pi/om-config.json", `{"enabled": false}`)
		r.start(false, true)
		require.Equal(t, "", own(r))
		text, isErr := r.tool("memory_search", `{"query":"backups"}`)
		require.True(t, isErr, text)
		require.Contains(t, text, "Nothing to search")
		r.mem("search backups")
		require.Equal(t, int64(1), r.exit())
		require.NotContains(t, r.text(), backups)
		text, isErr = r.tool("memory_restore", `{"id":`+quote(restoreID)+`}`)
		require.True(t, isErr, text)
		require.NotContains(t, r.read(projectIndex), "goose\n- Databases")
		text, isErr = r.tool("memory_forget", `{"query":"goose"}`)
		require.True(t, isErr, text)
		require.Contains(t, r.read(projectIndex), "goose")
	})
}

// TestSinceAndUntilNarrowEverySearch: memory_search's since and until, and
// the since: and until: words of /memory search and /decision search, keep
// the entries of that time; a time that names none is a clear error.
func TestSinceAndUntilNarrowEverySearch(t *testing.T) {
	r := newRig(t, false)
	r.start(false, true)
	for _, d := range []struct{ day, text string }{
		{"2026-08-30", "Deploy on Fridays only"},
		{"2026-09-14", "Deploy with make ship"},
		{"2026-10-05", "Deploy previews close at night"},
	} {
		r.h.now = civil.ParseTime(d.day + "T12:00:00.000Z")
		r.cmd("add " + d.text)
		require.Equal(t, int64(0), r.exit(), r.text())
	}
	r.h.now = civil.ParseTime("2026-11-29T09:00:00.000Z")

	text, isErr := r.tool("memory_search", `{"query":"deploy","since":"2026-09","until":"2026-09-30"}`)
	require.False(t, isErr, text)
	require.Contains(t, text, `1 match for "deploy since:2026-09 until:2026-09-30"`)
	require.Contains(t, text, "Deploy with make ship")
	text, _ = r.tool("memory_search", `{"query":"deploy","since":"last month"}`)
	require.Contains(t, text, "Deploy previews close at night")
	require.NotContains(t, text, "make ship")
	text, isErr = r.tool("memory_search", `{"query":"deploy","since":"the old days"}`)
	require.True(t, isErr, text)
	require.Contains(t, text, "since:the-old-days names no time")
	text, isErr = r.tool("memory_search", `{"query":"","since":"2026-09"}`)
	require.True(t, isErr, text)
	require.Contains(t, text, "needs a query")
	// What is no time is said back without its secret (redacted before
	// its words are joined) and not whole; a value of the wrong type is no
	// time either.
	for _, since := range []string{`"my password is Tr0ub4dor&3xyz"`, `"AKIAIOSFODNN7EXAMPLE"`, `"` + strings.Repeat("x ", 20000) + `"`} {
		text, isErr = r.tool("memory_search", `{"query":"deploy","since":`+since+`}`)
		require.True(t, isErr, text)
		require.Contains(t, text, "names no time")
		require.True(t, len(text) < 400, "%d bytes", len(text))
		require.NotContains(t, strings.ToLower(text), "tr0ub4dor")
		require.NotContains(t, strings.ToLower(text), "iosfodnn7example")
	}
	for _, since := range []string{`true`, `2026`, strings.Repeat("[", 1000) + strings.Repeat("]", 1000)} {
		text, isErr = r.tool("memory_search", `{"query":"deploy","since":`+since+`}`)
		require.True(t, isErr, text)
		require.Contains(t, text, `"since" must be a string`)
	}

	r.call("command", map[string]any{"name": "memory", "args": "search deploy until:2026-09-14"})
	require.Contains(t, r.text(), "Deploy with make ship")
	require.Contains(t, r.text(), "Deploy on Fridays only")
	require.NotContains(t, r.text(), "previews")
	r.call("command", map[string]any{"name": "memory", "args": "search deploy since:someday"})
	require.Contains(t, r.text(), "since:someday names no time")

	r.cmd("search deploy since:2026-09-01 until:2026-09")
	require.Contains(t, r.text(), "Deploy with make ship")
	require.NotContains(t, r.text(), "Fridays")
	require.NotContains(t, r.text(), "previews")
	r.cmd("search since:september")
	require.Contains(t, r.text(), "make ship")
	require.Contains(t, r.text(), "previews")
	require.NotContains(t, r.text(), "Fridays")
	r.cmd("search deploy since:2026-10 until:2026-09")
	require.Contains(t, r.text(), "since: is after until:")
}

// A memory file that is there but is no regular file search may read (a
// link, a FIFO, a device, a folder, a link to itself), as MEMORY.md or as a
// topic file, is named in the answer like one too large: left out silently,
// its absence passed for nothing remembered.
func TestMemorySearchNamesAMemoryFileThatIsNotARegularFile(t *testing.T) {
	cases := []struct {
		name string
		make func(p string) error
	}{
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"a link to a regular file", func(p string) error {
			other := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(p))), "elsewhere.md")
			if err := os.WriteFile(other, []byte("- kiwi season\n"), 0o644); err != nil {
				return err
			}
			return os.Symlink(other, p)
		}},
		{"a link to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"a link to itself", func(p string) error { return os.Symlink(filepath.Base(p), p) }},
		{"a folder", func(p string) error { return os.Mkdir(p, 0o755) }},
	}
	for _, c := range cases {
		for _, file := range []string{"MEMORY.md", "runbook.md"} {
			if c.name == "a folder" && file != "MEMORY.md" {
				continue // a folder beside the index is no topic file
			}
			t.Run(c.name+" as "+file, func(t *testing.T) {
				r := newRig(t, false)
				dir := filepath.Join(r.project, ".pi/memory")
				require.NoError(t, os.MkdirAll(dir, 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "deploy.md"), []byte("- Deploys go through Helm charts\n"), 0o644))
				require.NoError(t, c.make(filepath.Join(dir, file)))
				text, isErr := r.tool("memory_search", `{"query":"deploys"}`)
				require.False(t, isErr, text)
				require.Contains(t, text, "Deploys go through Helm charts")
				require.Contains(t, text, "Not searched: 1 memory file that could not be read (do not take what it holds for absent): .pi/memory/"+file+".")
			})
		}
	}
}

// The decision log, when it is there and cannot be read (a FIFO, a link),
// is named in the answer as a memory file is: the search said nothing, and
// its decisions passed for none.
func TestMemorySearchNamesADecisionLogItCouldNotRead(t *testing.T) {
	cases := map[string]func(p string) error{
		"a FIFO": func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"a link": func(p string) error {
			other := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(p)))), "elsewhere.jsonl")
			if err := os.WriteFile(other, nil, 0o644); err != nil {
				return err
			}
			return os.Symlink(other, p)
		},
	}
	for name, make := range cases {
		t.Run(name, func(t *testing.T) {
			base := t.TempDir()
			r := &rig{t: t, h: &osHost{now: 1772172000000}, project: filepath.Join(base, "proj"), agent: filepath.Join(base, "agent")}
			require.NoError(t, os.MkdirAll(filepath.Join(r.project, ".git"), 0o755))
			require.NoError(t, os.MkdirAll(filepath.Join(r.project, ".pi/decision-memory"), 0o755))
			require.NoError(t, os.MkdirAll(r.agent, 0o755))
			require.NoError(t, make(filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl")))
			r.write(projectIndex, "# Memory\n\n- Deploys go through Helm charts\n")
			r.e = New(r.h)
			r.start(false, true)
			text, isErr := r.tool("memory_search", `{"query":"deploys"}`)
			require.False(t, isErr, text)
			require.Contains(t, text, "Deploys go through Helm charts")
			require.Contains(t, text, "Not searched: 1 memory file that could not be read (do not take what it holds for absent): .pi/decision-memory/decisions.jsonl.")
		})
	}
}

// A decision log line past the format's bound is skipped, not read, and
// every answer names it: the decisions around it are found, and what it
// may hold is not passed for none.
func TestMemorySearchNamesADecisionLogLineTooLongToRead(t *testing.T) {
	base := t.TempDir()
	r := &rig{t: t, h: &osHost{now: 1772172000000}, project: filepath.Join(base, "proj"), agent: filepath.Join(base, "agent")}
	require.NoError(t, os.MkdirAll(filepath.Join(r.project, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(r.agent, 0o755))
	ok := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"p1","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Deploys go through Helm charts"},"u":"user"}` + "\n"
	long := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"p1","e":"a","i":"D-2026-02-27-0002","d":{"tx":"` + strings.Repeat("deploys ", 1<<20+1) + `"},"u":"user"}` + "\n"
	r.write("proj/.pi/decision-memory/decisions.jsonl", ok+long)
	r.e = New(r.h)
	r.start(false, true)
	for _, q := range []string{"deploys", "nothing"} {
		text, isErr := r.tool("memory_search", `{"query":"`+q+`"}`)
		require.False(t, isErr, text)
		require.Contains(t, text, "Not searched: 1 memory file that could not be read (do not take what it holds for absent): .pi/decision-memory/decisions.jsonl line 2 (over 8 MiB).", q)
	}
	text, _ := r.tool("memory_search", `{"query":"deploys"}`)
	require.Contains(t, text, "D-2026-02-27-0001")
	require.NotContains(t, text, "D-2026-02-27-0002")
}

// A topic file whose name holds a newline, in the project's memory folder
// or the agent's, is named in the answer, escaped: left out silently, its
// absence passed for nothing remembered; said raw, its name would break the
// answer's lines.
func TestMemorySearchNamesATopicFileWhoseNameHoldsANewline(t *testing.T) {
	r := newRig(t, false)
	r.write(projectIndex, "# Memory\n\n- Deploys go through Helm charts\n")
	r.write(globalIndex, "# Memory\n\n- Prefer small pull requests\n")
	r.write("proj/.pi/memory/a\nb.md", "- kiwi season\n")
	r.write("agent/memory/c\n\x1b[31md.md", "- kiwi season\n")
	for _, q := range []string{"deploys", "kiwi"} {
		text, isErr := r.tool("memory_search", `{"query":`+quote(q)+`}`)
		require.False(t, isErr, text)
		line := text[strings.Index(text, "Not searched: "):]
		require.Equal(t, `Not searched: 2 memory files that could not be read (do not take what it holds for absent): `+r.agent+`/memory/"c\n\x1b[31md.md", .pi/memory/"a\nb.md".`, line, q)
	}
}

// An earlier session whose file name holds a newline or is not UTF-8
// cannot be opened by the name the list gives: it is named in the answer,
// quoted, not left out without a word (its absence passed for nothing
// said).
func TestMemorySearchNamesASessionWhoseNameCannotBeListed(t *testing.T) {
	r := newRig(t, false)
	sessions := r.sessionsDir()
	require.NoError(t, os.WriteFile(filepath.Join(sessions, "2026-02-20T09-00-00-000Z_a\nb.jsonl"), []byte(sessionJSONL("a", r.project, "okapi sightings")), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sessions, "2026-02-21T09-00-00-000Z_\xff.jsonl"), []byte(sessionJSONL("b", r.project, "okapi sightings")), 0o644))
	text, isErr := r.tool("memory_search", `{"query":"okapi"}`)
	require.False(t, isErr, text)
	require.Contains(t, text, `Not searched: 2 memory files that could not be read (do not take what it holds for absent): `+sessions+"/\"2026-02-21T09-00-00-000Z_\ufffd.jsonl\", "+sessions+`/"2026-02-20T09-00-00-000Z_a\nb.jsonl".`)
	home := filepath.Dir(r.agent)
	r.call("session_start", map[string]any{"cwd": r.project, "agentDir": r.agent, "home": home, "trusted": true, "hasUI": false, "mode": "rpc", "reason": "new"})
	text, _ = r.tool("memory_search", `{"query":"okapi"}`)
	require.Contains(t, text, `~`+strings.TrimPrefix(sessions, home)+`/"2026-02-20T09-00-00-000Z_a\nb.jsonl".`, "the home folder as ~")
}

// A forget by words that finds nothing says what it could not read: the
// entry may be in a memory file too large to read, which a bare "no
// match" passed for not there.
func TestAForgetThatFindsNothingSaysWhatItCouldNotRead(t *testing.T) {
	r := newRig(t, false)
	r.write(projectIndex, "# Memory\n\n- zebrafish target\n"+strings.Repeat("- filler line of the memory file\n", 160_000))
	text, isErr := r.tool("memory_forget", `{"query":"zebrafish target"}`)
	require.True(t, isErr, text)
	require.Contains(t, text, `No decision or note matches "zebrafish target"; nothing was forgotten.`+"\nNot searched: 1 memory file that could not be read")
	require.Contains(t, text, ".pi/memory/MEMORY.md")
}

// h-v97 d: with decisions and notes off, a restore of a decision's id
// named the notes' config, the last store kept out: the store a reference
// is for by its shape is the one whose reason is given.
func TestARefusedRestoreNamesTheStoreItsReferenceIsFor(t *testing.T) {
	r := newRig(t, false)
	r.write("proj/.pi/decision-memory.config.json", `{"enabled": false}`)
	r.write("agent/memory/config.json", `{"enabled": false}`)
	r.start(false, true)
	r.mem("restore D-2026-02-27-0001")
	r.contains("Nothing was restored: Decision memory is disabled by")
}

// h-v99 d1: a one-word /memory forget with the other store off answered
// that store's reason and searched nothing: a store that does not claim
// the word by its shape says nothing, and the word is searched for.
func TestAForgetByOneWordWithTheOtherStoreOffForgetsWhatMatches(t *testing.T) {
	r := newRig(t, false)
	r.cmd(`add "Project decision PLUGH"`)
	r.write(projectIndex, "## Build\n- Quux rule XYZZY note\n")
	r.write("proj/.pi/decision-memory.config.json", `{"enabled": false}`)
	r.start(false, true)
	r.mem("forget XYZZY")
	r.contains("Forgot")
	require.NotContains(t, r.read(projectIndex), "XYZZY")
	r = newRig(t, false)
	r.cmd(`add "Project decision PLUGH"`)
	r.write("agent/memory/config.json", `{"enabled": false}`)
	r.start(false, true)
	r.mem("forget PLUGH")
	r.contains("Removed decision D-2026-02-27-0001")
}

// h-v100 d1/d2: a number alone typed to /memory forget is no decision's id
// by its last digits unless it is all of its number ("0001"), and is never
// forgotten at once by words: "1" after a forget's candidates removed
// …-0001, and "8080" answered only of decision ids.
func TestANumberTypedToForgetIsListedNotTaken(t *testing.T) {
	r := newRig(t, false)
	r.cmd(`add "Adopt PostgreSQL for the main store"`)
	r.cmd(`add "Adopt Redis for caching"`)
	r.write(projectIndex, "## Build\n- Use Node 22 for builds\n- Use pnpm 9 for installs\n- Port 8080 is open\n")
	r.start(false, true)
	r.mem("forget use")
	r.contains("1.")
	r.mem("forget 1")
	require.NotContains(t, r.text(), "Removed decision")
	require.Contains(t, r.log(), "Adopt PostgreSQL")
	require.NotContains(t, r.log(), `"e":"rm"`)
	r.mem("forget 8080")
	require.NotContains(t, r.text(), "No decision's id ends")
	r.contains("Port 8080 is open")
	require.Contains(t, r.read(projectIndex), "Port 8080 is open") // listed, not forgotten
	r.mem("forget 0001")
	r.contains("Removed decision D-2026-02-27-0001")
}
