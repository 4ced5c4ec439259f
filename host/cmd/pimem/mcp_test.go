package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
)

const handToken = "ghp_EXAMPLEexample0123456789EXAMPLEexamp"

// mcpCmd is `pimem mcp` for the project dir, on the core at wasm.
func mcpCmd(t *testing.T, wasm, dir, agent string) *exec.Cmd {
	cmd := exec.Command(pimemBin, "--wasm", wasm, "mcp")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + sharedCache, "PI_CODING_AGENT_DIR=" + agent}
	return cmd
}

// connect starts `pimem mcp` and connects a client; elicit, when set,
// answers the server's elicitations (the client then declares it can).
func connect(t *testing.T, cmd *exec.Cmd, elicit func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "pimem-test", Version: "1"}, &mcp.ClientOptions{ElicitationHandler: elicit})
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its text and whether it is an error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	require.Equal(t, 1, len(r.Content), name)
	return r.Content[0].(*mcp.TextContent).Text, r.IsError
}

// The registry's mcpTools, each called; the resources and the prompt; the
// files on disk after each write. Both builds of the core answer alike.
func TestMCPServesTheCoresToolsResourcesAndPrompt(t *testing.T) {
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			wasm := m.Path(t)
			dir, agent, run := onCore(t, wasm)
			require.NoError(t, os.MkdirAll(filepath.Join(dir, ".pi", "memory"), 0o755))
			memFile := filepath.Join(dir, ".pi", "memory", "MEMORY.md")
			require.NoError(t, os.WriteFile(memFile, []byte("# Memory\n\n## Notes\n- CI token "+handToken+" (rotate monthly)\n"), 0o644))
			require.Equal(t, 0, run("decision", "add", "Use PostgreSQL 16 for the primary database").exit)

			asked := 0
			cs := connect(t, mcpCmd(t, wasm, dir, agent), func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked++
				require.Contains(t, req.Params.Message, "Never deploy on Fridays")
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": true}}, nil
			})
			ctx := context.Background()

			reg := run("commands", "--json")
			var r struct {
				MCPTools []struct {
					Name       string          `json:"name"`
					Parameters json.RawMessage `json:"parameters"`
				} `json:"mcpTools"`
			}
			require.NoError(t, json.Unmarshal([]byte(reg.stdout), &r))
			tools, err := cs.ListTools(ctx, nil)
			require.NoError(t, err)
			require.Equal(t, len(r.MCPTools), len(tools.Tools))
			served := map[string]string{}
			for _, tl := range tools.Tools {
				got, _ := json.Marshal(tl.InputSchema)
				served[tl.Name] = canonical(t, string(got))
			}
			for _, tl := range r.MCPTools {
				require.Equal(t, canonical(t, string(tl.Parameters)), served[tl.Name], tl.Name)
			}

			text, isErr := call(t, cs, "memory_remember", map[string]any{"text": "Always use pnpm, never npm"})
			require.False(t, isErr, text)
			b, _ := os.ReadFile(memFile)
			require.Contains(t, string(b), "- Always use pnpm, never npm")

			text, isErr = call(t, cs, "decision_propose", map[string]any{"text": "Never deploy on Fridays"})
			require.False(t, isErr, text)
			require.Equal(t, 1, asked)
			b, _ = os.ReadFile(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
			require.Contains(t, string(b), "Never deploy on Fridays")

			text, _ = call(t, cs, "decision_list", map[string]any{})
			require.Contains(t, text, "2 active decisions")
			require.Contains(t, text, "Never deploy on Fridays")

			text, _ = call(t, cs, "memory_search", map[string]any{"query": "package manager pnpm"})
			require.Contains(t, text, "Always use pnpm")

			text, _ = call(t, cs, "memory_status", map[string]any{})
			require.Contains(t, text, "pi-memory ")
			require.Contains(t, text, "decisions: on")

			text, isErr = call(t, cs, "memory_forget", map[string]any{"query": "always use pnpm never npm"})
			require.False(t, isErr, text)
			id := text[strings.LastIndex(text, `"F-`)+1 : strings.LastIndex(text, `"`)]
			b, _ = os.ReadFile(memFile)
			require.NotContains(t, string(b), "Always use pnpm")
			text, isErr = call(t, cs, "memory_restore", map[string]any{"id": id})
			require.False(t, isErr, text)
			b, _ = os.ReadFile(memFile)
			require.Contains(t, string(b), "Always use pnpm")

			res, err := cs.ListResources(ctx, nil)
			require.NoError(t, err)
			var uris []string
			for _, x := range res.Resources {
				uris = append(uris, x.URI)
			}
			require.Equal(t, []string{"pimem://decisions/active", "pimem://notes/project/MEMORY.md"}, uris)
			notes, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "pimem://notes/project/MEMORY.md"})
			require.NoError(t, err)
			require.Contains(t, notes.Contents[0].Text, "CI token [REDACTED:github-token]")
			require.NotContains(t, notes.Contents[0].Text, handToken)
			b, _ = os.ReadFile(memFile)
			require.Contains(t, string(b), handToken, "the file keeps what its owner wrote")
			_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "pimem://notes/project/../../x"})
			require.Error(t, err)

			p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "memory", Arguments: map[string]string{"task": "set up the database"}})
			require.NoError(t, err)
			want := run("inject", "--prompt", "set up the database")
			require.Equal(t, want.stdout, p.Messages[0].Content.(*mcp.TextContent).Text)

			// What a client sends that is wrong gets one clear error.
			text, isErr = call(t, cs, "memory_search", map[string]any{"query": 5})
			require.True(t, isErr)
			require.Equal(t, `memory_search: "query" must be a string, got a number.`, text)
			text, isErr = call(t, cs, "memory_remember", map[string]any{"text": strings.Repeat("a", 10<<20)})
			require.True(t, isErr)
			require.Contains(t, text, "at most 65536 are read")
			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
			require.Error(t, err)
		})
	}
}

// Without elicitation nothing is written, and the answer is the shell
// command that records it.
func TestMCPProposalWithoutElicitationWritesNothing(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, _ := onCore(t, wasm)
	cs := connect(t, mcpCmd(t, wasm, dir, agent), nil)
	text, isErr := call(t, cs, "decision_propose", map[string]any{"text": "Never deploy on Fridays"})
	require.False(t, isErr, text)
	require.Contains(t, text, "pimem decision add -- 'Never deploy on Fridays'")
	_, err := os.Stat(filepath.Join(dir, ".pi"))
	require.True(t, os.IsNotExist(err), "nothing written: %v", err)
}

// A line that is not JSON gets JSON-RPC's parse error and the session goes
// on; so does a message past 16 MiB.
func TestMCPAnswersALineThatIsNotJSONAndGoesOn(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, _ := onCore(t, wasm)
	r := startRaw(t, wasm, dir, agent)
	send, read := r.send, r.read
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	require.Equal(t, float64(1), read()["id"])
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":`)
	m := read()
	require.Equal(t, nil, m["id"])
	require.Equal(t, float64(-32700), m["error"].(map[string]any)["code"])
	send(strings.Repeat("x", maxFrame+1))
	m = read()
	require.Contains(t, m["error"].(map[string]any)["message"].(string), "more than 16 MiB")
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"decision_list","arguments":{}}}`)
	m = read()
	require.Equal(t, float64(3), m["id"])
	require.Contains(t, m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string), "No active decisions.")
	require.NoError(t, r.stdin.Close())
	require.NoError(t, r.cmd.Wait(), "ends with exit 0 when the client closes its end")
}

// proposing opens a 2025-06-18 session that can be asked, calls
// decision_propose under id 2 and returns the question it asks
// (elicitation/create).
func (r *rawMCP) proposing(t *testing.T) map[string]any {
	t.Helper()
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`)
	require.Equal(t, float64(1), r.read()["id"])
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"decision_propose","arguments":{"text":"Never deploy on Fridays"}}}`)
	ask := r.read()
	require.Equal(t, "elicitation/create", ask["method"])
	return ask
}

// rawMCP starts `pimem mcp` with pipes a test writes and reads lines on.
type rawMCP struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines *bufio.Reader
}

func startRaw(t *testing.T, wasm, dir, agent string) *rawMCP {
	cmd := mcpCmd(t, wasm, dir, agent)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	return &rawMCP{t, cmd, stdin, bufio.NewReader(stdout)}
}

func (r *rawMCP) send(s string) {
	_, err := io.WriteString(r.stdin, s+"\n")
	require.NoError(r.t, err)
}

func (r *rawMCP) read() map[string]any {
	l, err := r.lines.ReadString('\n')
	require.NoError(r.t, err)
	var m map[string]any
	require.NoError(r.t, json.Unmarshal([]byte(l), &m), l)
	return m
}

// A valid message with a space, a tab or a CR before its newline once ended
// the session ("invalid trailing data at the end of stream"), losing the
// answers already computed.
func TestMCPTakesAMessageWithWhitespaceAroundIt(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, _ := onCore(t, wasm)
	r := startRaw(t, wasm, dir, agent)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + " \t")
	require.Equal(t, float64(1), r.read()["id"])
	r.send(` {"jsonrpc":"2.0","method":"notifications/initialized"}` + "\r")
	r.send("\t" + `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "  ")
	require.Equal(t, float64(2), r.read()["id"])
	r.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}` + " ")
	require.Equal(t, float64(3), r.read()["id"])
	require.NoError(t, r.stdin.Close())
	require.NoError(t, r.cmd.Wait(), "the session ends when the input does, exit 0")
}

// A client of the protocol before 2026-07-28 is asked with
// elicitation/create (the SDK does it for the call); its accept records the
// decision.
func TestMCPAsksAnOlderClientWithElicitationCreate(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, _ := onCore(t, wasm)
	r := startRaw(t, wasm, dir, agent)
	ask := r.proposing(t)
	require.Contains(t, ask["params"].(map[string]any)["message"].(string), "Never deploy on Fridays")
	id, _ := json.Marshal(ask["id"])
	r.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"action":"accept","content":{"answer":true}}}`)
	m := r.read()
	require.Equal(t, float64(2), m["id"])
	b, _ := os.ReadFile(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	require.Contains(t, string(b), "Never deploy on Fridays")
	require.NoError(t, r.stdin.Close())
	require.NoError(t, r.cmd.Wait())
}

// An answer to the question too long to read (past 16 MiB) ends the call
// waiting on it, with nothing written; a request that long is answered
// under its own id (h-v95 a2: the call waited until the client went away).
func TestMCPAnAnswerPast16MiBEndsTheCallWaitingOnIt(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, _ := onCore(t, wasm)
	r := startRaw(t, wasm, dir, agent)
	ask := r.proposing(t)
	id, _ := json.Marshal(ask["id"])
	r.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"action":"accept","content":{"answer":true,"junk":"` + strings.Repeat("x", maxFrame) + `"}}}`)
	m := r.read()
	require.Equal(t, float64(2), m["id"], "the call ends: %v", m)
	_, err := os.Stat(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	require.True(t, os.IsNotExist(err), "nothing written")
	r.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"decision_list","arguments":{"x":"` + strings.Repeat("y", maxFrame) + `"}}}`)
	m = r.read()
	require.Equal(t, float64(7), m["id"])
	require.Contains(t, m["error"].(map[string]any)["message"].(string), "more than 16 MiB")
	// The TypeScript SDK writes the id last (h-v96 a2).
	r.send(`{"method":"tools/call","params":{"name":"decision_list","arguments":{"x":"` + strings.Repeat("y", maxFrame) + `"}},"jsonrpc":"2.0","id":"last"}`)
	m = r.read()
	require.Equal(t, "last", m["id"])
	r.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"decision_propose","arguments":{"text":"Deploy on Tuesdays"}}}`)
	ask = r.read()
	require.Equal(t, "elicitation/create", ask["method"])
	id, _ = json.Marshal(ask["id"])
	r.send(`{"result":{"action":"accept","content":{"answer":true,"junk":"` + strings.Repeat("x", maxFrame) + `"}},"jsonrpc":"2.0","id":` + string(id) + `}`)
	m = r.read()
	require.Equal(t, float64(3), m["id"], "the call ends: %v", m)
	require.NoError(t, r.stdin.Close())
	require.NoError(t, r.cmd.Wait())
}

// A client that goes away while a proposal waits for the person leaves
// nothing behind: the question counts as dismissed, nothing is written, no
// lock stays, no line is torn, pimem exits 0; the next server works.
func TestMCPClientGoneMidCallLeavesNoLockAndNoTornLine(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, run := onCore(t, wasm)
	require.Equal(t, 0, run("decision", "add", "Use PostgreSQL 16").exit)
	before, _ := os.ReadFile(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	r := startRaw(t, wasm, dir, agent)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`)
	r.read()
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"decision_propose","arguments":{"text":"Never deploy on Fridays"}}}`)
	require.Equal(t, "elicitation/create", r.read()["method"])
	require.NoError(t, r.stdin.Close()) // gone without answering
	exited := make(chan error, 1)
	go func() { exited <- r.cmd.Wait() }()
	select {
	case err := <-exited:
		require.NoError(t, err)
	case <-time.After(60 * time.Second):
		t.Fatal("pimem mcp did not end when its client went away")
	}
	after, _ := os.ReadFile(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	require.Equal(t, string(before), string(after))
	for _, root := range []string{dir, agent} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && (strings.HasSuffix(p, ".lock") || strings.HasSuffix(p, ".lock.break")) {
				t.Errorf("stale lock %s", p)
			}
			if err == nil && strings.HasSuffix(p, ".jsonl") {
				b, _ := os.ReadFile(p)
				for n, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
					if l != "" && !json.Valid([]byte(l)) {
						t.Errorf("%s:%d torn: %q", p, n+1, l)
					}
				}
			}
			return nil
		})
	}
	cs := connect(t, mcpCmd(t, wasm, dir, agent), nil)
	text, _ := call(t, cs, "decision_list", map[string]any{})
	require.Contains(t, text, "Use PostgreSQL 16")
}

// A client may send its last request and close its end at once: the
// answer is written before pimem ends.
func TestMCPAnswersWhatCameBeforeTheEndOfInput(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, _ := onCore(t, wasm)
	r := startRaw(t, wasm, dir, agent)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_remember","arguments":{"text":"Always use pnpm"}}}`)
	require.NoError(t, r.stdin.Close())
	ids := map[float64]bool{}
	for len(ids) < 2 {
		ids[r.read()["id"].(float64)] = true
	}
	require.NoError(t, r.cmd.Wait())
	b, _ := os.ReadFile(filepath.Join(dir, ".pi", "memory", "MEMORY.md"))
	require.Contains(t, string(b), "Always use pnpm")
}

// A store the project turned off refuses its tools saying why, and its
// resources are not listed; the other stores' tools go on.
func TestMCPDisabledStoreRefusesWithTheReason(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, _ := onCore(t, wasm)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".pi"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".pi", "decision-memory.config.json"), []byte(`{"enabled":false}`), 0o644))
	cs := connect(t, mcpCmd(t, wasm, dir, agent), nil)
	for name, args := range map[string]any{"decision_list": map[string]any{}, "decision_propose": map[string]any{"text": "Use pnpm"}} {
		text, isErr := call(t, cs, name, args)
		require.True(t, isErr, "%s: %s", name, text)
		require.Contains(t, text, "disabled", name)
	}
	res, err := cs.ListResources(context.Background(), nil)
	require.NoError(t, err)
	require.Equal(t, 0, len(res.Resources))
	text, isErr := call(t, cs, "memory_remember", map[string]any{"text": "Always use pnpm"})
	require.False(t, isErr, text)
	_, err = os.Stat(filepath.Join(dir, ".pi", "decision-memory"))
	require.True(t, os.IsNotExist(err), "the decision store wrote nothing")
}

// pimem in a shell and an MCP client writing one project at the same time
// lose nothing: every note and every decision lands.
func TestMCPAndTheCLIWritingAtOnceLoseNothing(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, run := onCore(t, wasm)
	cs := connect(t, mcpCmd(t, wasm, dir, agent), nil)
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan string, 4*n)
	for i := 0; i < n; i++ {
		wg.Add(3)
		go func(i int) {
			defer wg.Done()
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "memory_remember", Arguments: map[string]any{"text": fmt.Sprintf("MCP fact number %d about the %s service", i, words[i])}})
			if err != nil || r.IsError {
				errs <- fmt.Sprintf("mcp %d: %v %+v", i, err, r)
			}
		}(i)
		go func(i int) {
			defer wg.Done()
			if r := run("memory", "remember", fmt.Sprintf("Shell fact number %d about the %s queue", i, words[n+i])); r.exit != 0 {
				errs <- fmt.Sprintf("cli memory %d: %s", i, r.stderr)
			}
		}(i)
		go func(i int) {
			defer wg.Done()
			if r := run("decision", "add", fmt.Sprintf("Decision %d: the %s team owns the %s", i, words[2*n+i], words[3*n+i])); r.exit != 0 {
				errs <- fmt.Sprintf("cli decision %d: %s", i, r.stderr)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	notes, _ := os.ReadFile(filepath.Join(dir, ".pi", "memory", "MEMORY.md"))
	log, _ := os.ReadFile(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	for i := 0; i < n; i++ {
		require.Contains(t, string(notes), fmt.Sprintf("MCP fact number %d about", i))
		require.Contains(t, string(notes), fmt.Sprintf("Shell fact number %d about", i))
		require.Contains(t, string(log), fmt.Sprintf("Decision %d: the", i))
	}
	text, _ := call(t, cs, "decision_list", map[string]any{})
	require.Contains(t, text, fmt.Sprintf("%d active decisions", n))
}

// words are distinct enough that no two facts are near-duplicates.
var words = []string{"billing", "search", "gateway", "ledger", "mailer", "scheduler", "indexer", "uploader",
	"thumbnails", "webhooks", "exports", "audit", "payments", "sessions", "metrics", "alerts",
	"platform", "mobile", "data", "security", "growth", "infra", "design", "support",
	"runbooks", "dashboards", "migrations", "fixtures", "schemas", "releases", "backups", "certificates"}

// mcpProc is `pimem mcp` as a client starts it: JSON-RPC lines on its
// standard input and output. (ts/e2e/mcp.test.ts drives it with the
// official TypeScript SDK's client.) Each message read carries its line as
// "_line"; a batch's answer (a JSON array) is {"_batch": [...]}.
type mcpProc struct {
	cmd  *exec.Cmd // nil when served in this process (serveMCP)
	in   io.WriteCloser
	msgs chan map[string]any
	done chan struct{}
	code int // the exit code, once done is closed
	mu   sync.Mutex
	all  []map[string]any // every message read, in order
}

// startMCP starts pimem mcp on the tinygo core for the project dir and the
// agent folder agent, and initializes a session of protocol 2025-06-18
// whose client declares caps.
func startMCP(t *testing.T, dir, agent, caps string) *mcpProc {
	return startMCPAt(t, dir, agent, "2025-06-18", caps)
}

// startMCPAt is startMCP for a client of protocol version.
func startMCPAt(t *testing.T, dir, agent, version, caps string) *mcpProc {
	t.Helper()
	cmd := exec.Command(pimemBin, "--wasm", testmod.Cores[0].Path(t), "--project", dir, "--agent-dir", agent, "mcp")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + sharedCache}
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	p := &mcpProc{cmd: cmd, in: in, msgs: make(chan map[string]any, 64), done: make(chan struct{})}
	go p.read(out)
	go func() { cmd.Wait(); p.code = cmd.ProcessState.ExitCode(); close(p.done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
	})
	p.initialize(t, version, caps)
	return p
}

// serveMCP is startMCPAt with the server in this process (mcpServe), for
// what a test sets in it (inputWait).
func serveMCP(t *testing.T, dir, agent, version, caps string) *mcpProc {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", sharedCache)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &mcpProc{in: inW, msgs: make(chan map[string]any, 64), done: make(chan struct{})}
	go p.read(outR)
	go func() {
		code, err := mcpServe(options{project: dir, agentDir: agent, wasm: testmod.Cores[0].Path(t)}, nil, inR, outW, io.Discard)
		if err != nil {
			code = 1
		}
		p.code = code
		outW.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Error("mcpServe did not return within 10 s of the end of its input")
		}
	})
	p.initialize(t, version, caps)
	return p
}

func (p *mcpProc) read(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			var batch []any
			if json.Unmarshal(sc.Bytes(), &batch) != nil {
				continue
			}
			m = map[string]any{"_batch": batch}
		}
		m["_line"] = sc.Text()
		p.mu.Lock()
		p.all = append(p.all, m)
		p.mu.Unlock()
		p.msgs <- m
	}
	close(p.msgs)
}

func (p *mcpProc) initialize(t *testing.T, version, caps string) {
	t.Helper()
	p.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":`+caps+`,"clientInfo":{"name":"test","version":"1"}}}`)
	p.answer(t, 0)
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// seen is every message read so far that satisfies want.
func (p *mcpProc) seen(want func(map[string]any) bool) []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []map[string]any
	for _, m := range p.all {
		if want(m) {
			out = append(out, m)
		}
	}
	return out
}

func (p *mcpProc) send(t *testing.T, line string) {
	t.Helper()
	_, err := io.WriteString(p.in, line+"\n")
	require.NoError(t, err)
}

// next is the next message the server sends that satisfies want.
func (p *mcpProc) next(t *testing.T, what string, want func(map[string]any) bool) map[string]any {
	t.Helper()
	return p.nextWithin(t, 10*time.Second, what, want)
}

// nextWithin is next, failing after d.
func (p *mcpProc) nextWithin(t *testing.T, d time.Duration, what string, want func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case m, ok := <-p.msgs:
			if !ok {
				t.Fatalf("pimem mcp ended its output while waiting for %s", what)
			}
			if want(m) {
				return m
			}
		case <-deadline:
			t.Fatalf("%s did not come within %s", what, d)
		}
	}
}

// answer is the server's answer to the request with id.
func (p *mcpProc) answer(t *testing.T, id any) map[string]any {
	t.Helper()
	return p.answerWithin(t, 10*time.Second, id)
}

// answerWithin is answer, failing after d.
func (p *mcpProc) answerWithin(t *testing.T, d time.Duration, id any) map[string]any {
	t.Helper()
	return p.nextWithin(t, d, fmt.Sprintf("the answer to %v", id), isAnswerTo(id))
}

// isAnswerTo says whether a message is the answer to the request with id.
func isAnswerTo(id any) func(map[string]any) bool {
	if n, ok := id.(int); ok {
		id = float64(n)
	}
	return func(m map[string]any) bool {
		_, isReq := m["method"]
		return m["id"] == id && !isReq
	}
}

// exits waits for the process to end and gives its exit code.
func (p *mcpProc) exits(t *testing.T) int {
	t.Helper()
	return p.exitsWithin(t, 10*time.Second)
}

// exitsWithin is exits, failing after d.
func (p *mcpProc) exitsWithin(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(d):
		t.Fatalf("pimem mcp did not exit within %s", d)
		return -1
	}
}

// prompt is the ceiling on what must come at once: generous on a loaded
// machine; what it catches is minutes.
const prompt = 5 * time.Second

// propose is a tools/call of decision_propose.
func propose(id any, text string) string {
	b, _ := json.Marshal(id)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"decision_propose","arguments":{"text":%q}}}`, b, text)
}

// toolCallLine is a tools/call of name with no arguments.
func toolCallLine(id any, name string) string {
	b, _ := json.Marshal(id)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, b, name)
}

func isElicitation(m map[string]any) bool { return m["method"] == "elicitation/create" }

// resultText is the text of a tools/call answer's one content item.
func resultText(t *testing.T, m map[string]any) string {
	t.Helper()
	r, ok := m["result"].(map[string]any)
	require.True(t, ok, "a result: %v", m["_line"])
	content, _ := r["content"].([]any)
	require.Equal(t, 1, len(content), "one content item: %v", m["_line"])
	return content[0].(map[string]any)["text"].(string)
}

// noDecisions fails if the project has a decision log.
func noDecisions(t *testing.T, dir string) {
	t.Helper()
	_, err := os.Stat(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	require.True(t, os.IsNotExist(err), "nothing recorded: %v", err)
}

func errorCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

// The SDK ended the whole session on JSON that is no JSON-RPC 2.0 message
// (exit 1, no answer): one bad message must cost the client that message only.
func TestMCPAnswersJSONThatIsNotJSONRPCAndGoesOn(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{}`)
	cases := []struct {
		line string
		code float64
	}{
		{"not json", -32700},
		{`{"foo":1}`, -32600},
		{`[1,2]`, -32600},
		{`"a string"`, -32600},
		{`{"jsonrpc":"1.0","id":5,"method":"tools/list"}`, -32600},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600},
		{`{"jsonrpc":"2.0","id":6,"method":7}`, -32600},
	}
	for i, c := range cases {
		p.send(t, c.line)
		m := p.next(t, "the error for "+c.line, func(m map[string]any) bool { return m["error"] != nil })
		require.Equal(t, nil, m["id"], c.line)
		require.Equal(t, c.code, errorCode(m), c.line)
		msg, _ := m["error"].(map[string]any)["message"].(string)
		require.Contains(t, msg, "it was skipped and the session goes on", c.line)
		id := float64(100 + i)
		p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"method":"tools/list"}`, id))
		require.True(t, p.answer(t, id)["result"] != nil, "after %s the next request is answered", c.line)
	}
	p.in.Close()
	require.Equal(t, 0, p.exits(t))
}

// Resources were registered once, at the session's start: a MEMORY.md
// written later (by memory_remember, pi or a person) was neither listed nor
// readable, and a file's last newline was cut from the text.
func TestMCPResourcesAreTheFilesTheProjectHasNowByteForByte(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{}`)
	uris := func(id float64) []string {
		p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"method":"resources/list"}`, id))
		var list struct {
			Resources []struct{ URI string } `json:"resources"`
		}
		b, _ := json.Marshal(p.answer(t, id)["result"])
		require.NoError(t, json.Unmarshal(b, &list))
		var out []string
		for _, r := range list.Resources {
			out = append(out, r.URI)
		}
		return out
	}
	read := func(id float64, uri string) string {
		p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"method":"resources/read","params":{"uri":%q}}`, id, uri))
		m := p.answer(t, id)
		var r struct {
			Contents []struct{ Text string } `json:"contents"`
		}
		b, _ := json.Marshal(m["result"])
		require.NoError(t, json.Unmarshal(b, &r))
		require.Equal(t, 1, len(r.Contents), "%s: %v", uri, m)
		return r.Contents[0].Text
	}
	require.Equal(t, []string{"pimem://decisions/active"}, uris(1))

	p.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_remember","arguments":{"text":"I always use pnpm"}}}`)
	res, _ := json.Marshal(p.answer(t, 2)["result"])
	require.Contains(t, string(res), "Remembered in project memory")
	require.Equal(t, []string{"pimem://decisions/active", "pimem://notes/project/MEMORY.md"}, uris(3))
	notes, err := os.ReadFile(filepath.Join(dir, ".pi", "memory", "MEMORY.md"))
	require.NoError(t, err)
	require.Equal(t, "## Notes\n\n- I always use pnpm\n", string(notes))
	require.Equal(t, string(notes), read(4, "pimem://notes/project/MEMORY.md"))

	// Written by someone else while the session runs, without a last newline.
	global := filepath.Join(agent, "memory", "MEMORY.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(global), 0o755))
	require.NoError(t, os.WriteFile(global, []byte("## Preferences\n- I prefer tabs"), 0o644))
	require.Equal(t, "## Preferences\n- I prefer tabs", read(5, "pimem://notes/global/MEMORY.md"))
	require.Equal(t, []string{"pimem://decisions/active", "pimem://notes/global/MEMORY.md", "pimem://notes/project/MEMORY.md"}, uris(6))

	// Listed, and not read: the core's reason, not "not found".
	require.NoError(t, os.WriteFile(global, []byte("\xff\xfe#\x00 \x00M\x00"), 0o644))
	p.send(t, `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"pimem://notes/global/MEMORY.md"}}`)
	e, _ := json.Marshal(p.answer(t, 7)["error"])
	require.Contains(t, string(e), `"code":-32603`)
	require.Contains(t, string(e), "not UTF-8 text (UTF-16, or NUL bytes): save it as UTF-8 to use it as memory")

	// A symbolic link (a dotfile manager's) and a folder are there too:
	// listed, and their read and memory_status say why they are not read.
	real := filepath.Join(t.TempDir(), "real.md")
	require.NoError(t, os.WriteFile(real, []byte("- Use pnpm\n"), 0o644))
	require.NoError(t, os.Remove(global))
	require.NoError(t, os.Symlink(real, global))
	require.Equal(t, []string{"pimem://decisions/active", "pimem://notes/global/MEMORY.md", "pimem://notes/project/MEMORY.md"}, uris(8))
	p.send(t, `{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"pimem://notes/global/MEMORY.md"}}`)
	e, _ = json.Marshal(p.answer(t, 9)["error"])
	require.Contains(t, string(e), `"code":-32603`)
	require.Contains(t, string(e), "symbolic link")
	p.send(t, `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"memory_status","arguments":{}}}`)
	res, _ = json.Marshal(p.answer(t, 10)["result"])
	require.Contains(t, string(res), "could not read pimem://notes/global/MEMORY.md")
	require.Contains(t, string(res), "symbolic link")
	require.NoError(t, os.Remove(global))
	require.NoError(t, os.Mkdir(global, 0o755))
	p.send(t, `{"jsonrpc":"2.0","id":11,"method":"resources/read","params":{"uri":"pimem://notes/global/MEMORY.md"}}`)
	e, _ = json.Marshal(p.answer(t, 11)["error"])
	require.Contains(t, string(e), `"code":-32603`)
}

// A tool's result went to the client while its goroutine still held the
// core: the client's next resources/list found it taken (TryLock), kept the
// list of before the call, and a MEMORY.md just remembered was missing
// (a fresh clone's first make test, under load). The result is handed over
// once the core is free.
func TestMCPToolResultComesOnceTheCoreIsFree(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, _ := onCore(t, wasm)
	c, closeCore, err := newMCPCore(context.Background(), options{project: dir, agentDir: agent, wasm: wasm}, io.Discard)
	require.NoError(t, err)
	defer closeCore()
	start, _ := json.Marshal(c.session)
	c.mu.Lock()
	_, err = c.run("session_start", start)
	c.mu.Unlock()
	require.NoError(t, err)
	for i := range 100 {
		name, args := "memory_status", json.RawMessage(`{}`)
		if i%10 == 0 {
			name, args = "memory_remember", json.RawMessage(fmt.Sprintf(`{"text":"fact number %d is kept"}`, i))
		}
		w := c.startCall(context.Background(), name, args)
		<-w.done
		require.True(t, w.result != nil && !w.result.IsError, "%s: %v", name, w.result)
		require.True(t, c.mu.TryLock(), "call %d (%s): the result came while the core was held", i, name)
		c.mu.Unlock()
	}
}

// Calls take turns for the core. A memory_remember the client cancelled while
// it waited behind another call, or still waiting when the session began to
// end (SIGTERM: the server went on with every call queued, 150 searches for
// 42 s), does not start: nothing is written that the client gave up on.
func TestMCPCallCancelledOrEndedBeforeItHadTheCoreDoesNothing(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	for _, how := range []string{"cancelled by the client", "the session ending"} {
		t.Run(how, func(t *testing.T) {
			dir, agent, _ := onCore(t, wasm)
			c, closeCore, err := newMCPCore(context.Background(), options{project: dir, agentDir: agent, wasm: wasm}, io.Discard)
			require.NoError(t, err)
			defer closeCore()
			start, _ := json.Marshal(c.session)
			c.mu.Lock()
			_, err = c.run("session_start", start)
			require.NoError(t, err)
			// The core is held, as by a long search: the call waits its turn.
			ctx, cancel := context.WithCancel(context.Background())
			w := c.startCall(ctx, "memory_remember", json.RawMessage(`{"text":"the pangolin build runs at noon"}`))
			if how == "cancelled by the client" {
				cancel()
			} else {
				close(c.closing)
			}
			c.mu.Unlock()
			<-w.done
			cancel()
			require.True(t, w.result != nil && w.result.IsError, "%v", w.result)
			_, err = os.Stat(filepath.Join(dir, ".pi", "memory", "MEMORY.md"))
			require.True(t, os.IsNotExist(err), "the fact was written: %v", err)
		})
	}
}

// crashLeftovers are the files a process killed inside a write leaves: a
// lock (and its breaker) the next writer waits on, and temp files.
func crashLeftovers(t *testing.T, dirs ...string) []string {
	t.Helper()
	var found []string
	junk := regexp.MustCompile(`\.lock$|\.lock\.break$|\.tmp-\d+$`)
	for _, d := range dirs {
		filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && junk.MatchString(e.Name()) {
				found = append(found, p)
			}
			return nil
		})
	}
	return found
}

// Clients end their server with SIGTERM (the TypeScript SDK's close()
// after two seconds; others at once). pimem mcp died on it wherever it was:
// inside a memory_remember it left memory.lock and .MEMORY.md.tmp-* behind
// in most runs, and a question put to the person kept it from ending.
func TestMCPEndsOnSIGTERMAfterTheCallInProgress(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))

	p := startMCP(t, dir, agent, `{"elicitation":{}}`)
	p.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"decision_propose","arguments":{"text":"Deploy only on Tuesdays"}}}`)
	p.next(t, "the question", func(m map[string]any) bool { return m["method"] == "elicitation/create" })
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	require.Equal(t, 0, p.exits(t), "the question withdrawn, the session ends")
	_, err := os.Stat(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	require.True(t, os.IsNotExist(err), "nothing recorded: %v", err)

	// Facts that share no word, so none is refused as a near-duplicate.
	words := strings.Fields(`amber basil cedar delta ember fjord garnet harbor indigo jasper kelp lotus
		maple nectar onyx pepper quartz raven saffron tundra umber velvet willow xenon yarrow zephyr acorn
		birch cobalt dune falcon glacier hazel iris juniper kestrel lichen meadow nimbus orchid prairie quill
		reef sierra thistle upland vortex walnut yucca zinnia anvil beacon canyon dynamo eagle ferry geyser
		hollow island jetty kayak lagoon mosaic nebula oasis pylon quarry ridge summit timber`)
	for i := range len(words) / 3 {
		p := startMCP(t, dir, agent, `{}`)
		p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_remember","arguments":{"text":%q}}}`, strings.Join(words[3*i:3*i+3], " ")))
		time.Sleep(time.Duration(i%8) * time.Millisecond)
		require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
		require.Equal(t, 0, p.exits(t))
		require.Equal(t, []string(nil), crashLeftovers(t, dir, agent), "SIGTERM %d ms into memory_remember", i%8)
	}
	notes, _ := os.ReadFile(filepath.Join(dir, ".pi", "memory", "MEMORY.md"))
	for _, l := range strings.Split(string(notes), "\n") {
		require.True(t, l == "" || l == "## Notes" || regexp.MustCompile(`^- \w+ \w+ \w+$`).MatchString(l), "a whole line: %q", l)
	}
}

// A resources/read of a URI holding a control character ended the server:
// the SDK's not-found error wrote it with %q ("\x1b"), which is no JSON, and
// the answer could not be sent. Each is answered not found, says nothing of
// the URI back, and the session goes on.
func TestMCPResourceURIWithAControlCharacterIsNotFound(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{}`)
	for i, uri := range []string{`\u001b`, `pimem://notes/\u0007x`, `\u007f`, `\u0085`, `pimem://\u202eevil`, `\udb40\udc41`, `a\tb`, `pimem://decisions/active\u200b`, `pimem://\u3164`, `pimem://notes/\ufe0f`, `pimem://\udb40\udd00x`} {
		id := 10 + i
		p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"%s"}}`, id, uri))
		m := p.answer(t, float64(id))
		b, _ := json.Marshal(m)
		require.True(t, m["error"] != nil, "%s: %s", uri, b)
		require.Contains(t, string(b), "Resource not found", uri)
		require.NotContains(t, string(b), "evil", uri)
	}
	p.send(t, `{"jsonrpc":"2.0","id":30,"method":"resources/read","params":{"uri":"pimem://decisions/active"}}`)
	m := p.answer(t, 30)
	require.True(t, m["result"] != nil, "%v", m)
}

// Issue 25, item 12: the server echoed what the client sent, unredacted:
// a query, an id, an unknown argument's and tool's name, a resource's URI
// in error.data, a method's name, a version tag. Every message it writes
// now passes through the core's redact export: nothing a client sends that
// redaction removes comes back, and every request is still answered.
func TestMCPSaysBackNoSecretTheClientSent(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{}`)
	var seen []string
	lines := []string{
		`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"deploy with TOKEN"}}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_forget","arguments":{"id":"TOKEN"}}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_forget","arguments":{"query":"TOKEN"}}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"x","TOKEN":1}}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"TOKEN","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"pimem://notes/TOKEN"}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"prompts/get","params":{"name":"TOKEN"}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"TOKEN/list"}`,
		`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":7,"x":"TOKEN"}}`,
		`{"jsonrpc":"TOKEN","id":%d,"method":"tools/list"}`,
		// A value of the wrong type: the SDK quoted 30 bytes of it, a
		// secret cut short that redaction no longer reads (h-v43).
		`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":["TOKEN"]}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":["TOKEN"]}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"prompts/get","params":{"name":"memory","arguments":{"task":["TOKEN"]}}}`,
	}
	// A message cut to 1 KiB across a secret: the cut comes after the
	// redaction, which has read it whole (h-v46: 31 of its 40 characters went back).
	for pad := 940; pad <= 1030; pad += 10 {
		lines = append(lines, `{"jsonrpc":"2.0","id":%d,"method":"`+strings.Repeat("x", pad)+`TOKEN"}`)
	}
	for i, line := range lines {
		id := float64(200 + i)
		p.send(t, strings.ReplaceAll(fmt.Sprintf(line, int(id)), "TOKEN", handToken))
		var m map[string]any
		if strings.Contains(line, `"jsonrpc":"TOKEN"`) {
			m = p.next(t, "the error for "+line, func(m map[string]any) bool { return m["error"] != nil && m["id"] == nil })
		} else {
			m = p.answer(t, id)
		}
		b, _ := json.Marshal(m)
		seen = append(seen, string(b))
		require.False(t, strings.Contains(string(b), handToken) || strings.Contains(string(b), handToken[4:]) || strings.Contains(string(b), handToken[4:20]), "%s\nanswered %s", line, b)
		if e, ok := m["error"].(map[string]any); ok && strings.Contains(line, strings.Repeat("x", 940)) {
			require.True(t, len(e["message"].(string)) <= 1024+len("…"), "a message of %d bytes", len(e["message"].(string)))
		}
	}
	require.Contains(t, strings.Join(seen, "\n"), "[REDACTED:github-token]")
	// A request's id goes back as it came, whatever it looks like: the
	// client chose it and matches its answer by it.
	p.send(t, `{"jsonrpc":"2.0","id":"`+handToken+`","method":"tools/list"}`)
	p.next(t, "the answer under the secret-shaped id", func(m map[string]any) bool { return m["result"] != nil && m["id"] == handToken })
	p.in.Close()
	require.Equal(t, 0, p.exits(t))
}

// A message cut to 1 KiB after it was checked could read differently: the
// uncut "< pi_memory_recall >= 1" is code, its cut "< pi_memory_recall >…"
// a marker, and it went out raw (h-v97 c2). The cut is checked again.
func TestMCPAMessageCutIsCheckedAfterItsCut(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{}`)
	raw := 0
	for pad := 960; pad <= 1010; pad++ {
		id := 300 + pad
		p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s < pi_memory_recall >= 1 x","arguments":{}}}`, id, strings.Repeat("A", pad)))
		m := p.answer(t, float64(id))
		e, ok := m["error"].(map[string]any)
		if !ok {
			r, _ := json.Marshal(m)
			e = map[string]any{"message": string(r)}
		}
		msg := e["message"].(string)
		require.False(t, strings.Contains(msg, "< pi_memory_recall >…"), "pad %d: %q", pad, msg[max(0, len(msg)-60):])
		if strings.Contains(msg, "pi_memory_recall >…") {
			raw++
		}
	}
	require.True(t, raw > 0, "no cut fell right after the '>'")
	p.in.Close()
	require.Equal(t, 0, p.exits(t))
}

// Issue 25: the tools carried no annotations. Each carries the registry's,
// as the core declares them: a client can tell a search from a forget.
func TestMCPToolsCarryTheRegistrysAnnotations(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, run := onCore(t, wasm)
	var reg struct {
		MCPTools []struct {
			Name        string          `json:"name"`
			Annotations json.RawMessage `json:"annotations"`
		} `json:"mcpTools"`
	}
	require.NoError(t, json.Unmarshal([]byte(run("commands", "--json").stdout), &reg))
	cs := connect(t, mcpCmd(t, wasm, dir, agent), nil)
	tools, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	served := map[string]*mcp.ToolAnnotations{}
	for _, tl := range tools.Tools {
		served[tl.Name] = tl.Annotations
	}
	for _, tl := range reg.MCPTools {
		require.True(t, served[tl.Name] != nil, "%s has no annotations", tl.Name)
		got, _ := json.Marshal(served[tl.Name])
		require.Equal(t, canonical(t, string(tl.Annotations)), canonical(t, string(got)), tl.Name)
	}
	require.True(t, served["memory_search"].ReadOnlyHint, "memory_search is read-only")
	require.True(t, served["decision_list"].ReadOnlyHint && served["memory_status"].ReadOnlyHint)
	require.True(t, *served["memory_forget"].DestructiveHint, "memory_forget is destructive")
	require.False(t, *served["memory_remember"].DestructiveHint, "memory_remember only adds")
	require.Equal(t, "Memory search", served["memory_search"].Title)
	for name, a := range served {
		require.False(t, *a.OpenWorldHint, "%s touches only memory files", name)
	}
}

// A project whose folder's name holds escape sequences (OSC 52 writes the
// clipboard), a bidi override and our marker: the prompt's description,
// which the host writes, reaches the client cleaned as every string the
// core writes is (h-v31: ESC, BEL and the marker went raw into a client's
// slash menu).
func TestMCPPromptDescriptionOfAHostileProjectPathIsData(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pr\x1b]52;c;aGk=\x07j\u202eoj <!-- pi-memory:end -->")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	p := startMCP(t, dir, filepath.Join(t.TempDir(), "agent"), `{}`)
	p.send(t, `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"memory"}}`)
	b, _ := json.Marshal(p.answer(t, 1)["result"])
	var r struct{ Description string }
	require.NoError(t, json.Unmarshal(b, &r))
	require.Contains(t, r.Description, "pi-memory for ")
	require.False(t, strings.ContainsAny(r.Description, "\x1b\x07\u202e"), "%q", r.Description)
	require.NotContains(t, r.Description, "<!-- pi-memory:end")
}
