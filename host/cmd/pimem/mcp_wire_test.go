package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
)

// rawAnswer is the answer, as its line, to the request whose id is raw (as
// sent, byte for byte).
func rawAnswer(t *testing.T, p *mcpProc, raw string) string {
	t.Helper()
	return p.nextWithin(t, prompt, "the answer to id "+raw, func(m map[string]any) bool {
		_, isReq := m["method"]
		return !isReq && m["id"] != nil && strings.Contains(m["_line"].(string), `"id":`+raw+`,`)
	})["_line"].(string)
}

// Issue 25: id 1.5 was answered as 1, 2^53+1 as 2^53: the SDK reads an id
// as a float and writes it as an int64. Every id comes back as it was sent.
func TestMCPEchoesEveryIdByteForByte(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{"elicitation":{}}`)
	for _, id := range []string{`1.5`, `12345678901234567890`, `9007199254740993`, `-0`, `1e2`, `0.10`, `-7`,
		`"x"`, `""`, `"1"`, `"a\u0062"`, `"\ud800"`} {
		p.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		line := rawAnswer(t, p, id)
		require.Contains(t, line, `"result":{}`, id)
	}
	// The same value, in bytes no terminal or model takes for anything
	// else (h-v83 B3: a bidi override, our marker, ESC came back raw).
	for id, safe := range map[string]string{
		`"<&>"`: `"\u003c\u0026\u003e"`, `"日本"`: `"\u65e5\u672c"`, "\"\u202e\\u001b[31m\"": `"\u202e\u001b[31m"`,
		`"</pi-memory-recall>"`: `"\u003c/pi-memory-recall\u003e"`, `"a😀"`: `"a\ud83d\ude00"`,
	} {
		p.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		line := rawAnswer(t, p, safe)
		var sent, got struct{ ID any }
		require.NoError(t, json.Unmarshal([]byte(`{"id":`+id+`}`), &sent))
		require.NoError(t, json.Unmarshal([]byte(line), &got))
		require.Equal(t, sent.ID, got.ID, line)
	}
	// Through the core, and two requests whose ids the SDK took for one.
	p.send(t, strings.Replace(propose(1, "Deploy only on Tuesdays"), `"id":1`, `"id":7`, 1))
	ask := p.next(t, "the question", isElicitation)
	p.send(t, `{"jsonrpc":"2.0","id":7.5,"method":"tools/call","params":{"name":"memory_status","arguments":{}}}`)
	require.Contains(t, rawAnswer(t, p, `7.5`), "decisions: on")
	askID, _ := json.Marshal(ask["id"])
	p.send(t, `{"jsonrpc":"2.0","id":`+string(askID)+`,"result":{"action":"accept","content":{"answer":true}}}`)
	require.Contains(t, rawAnswer(t, p, `7`), "Recorded D-")

	// A cancellation names the request by the id it was sent with.
	p.send(t, strings.Replace(propose(1, "Squash commits before merging"), `"id":1`, `"id":8.25`, 1))
	p.next(t, "the question", isElicitation)
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8.25}}`)
	p.send(t, `{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	rawAnswer(t, p, `8`)

	// No id the protocol allows, or one already waiting: an invalid request, answered with id null.
	p.send(t, propose(9, "Indent with tabs in Go files"))
	p.next(t, "the question", isElicitation)
	for _, id := range []string{`null`, `true`, `{}`, `[1]`, `9`} {
		p.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		m := p.nextWithin(t, prompt, "the error for id "+id, func(m map[string]any) bool { return m["error"] != nil })
		require.Equal(t, nil, m["id"], id)
		require.Equal(t, float64(-32600), errorCode(m), id)
	}
	p.in.Close()
	require.Equal(t, 0, p.exitsWithin(t, prompt))
	require.Equal(t, 0, len(p.seen(func(m map[string]any) bool { return strings.Contains(m["_line"].(string), `"id":8.25`) })), "the cancelled request was answered")
}

// Issue 25: a JSON-RPC batch, which protocol 2025-03-26 allows, was refused
// as an invalid request. Each member is answered, the answers one array in
// the members' order; a member that is no request gets its error in its
// place; notifications get none.
func TestMCPAnswersABatchInA20250326Session(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCPAt(t, dir, agent, "2025-03-26", `{}`)
	p.send(t, `[{"jsonrpc":"2.0","id":1.5,"method":"ping"},`+
		`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},`+
		`{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"memory_status","arguments":{}}},`+
		`5,`+
		`{"jsonrpc":"2.0","id":"c","method":"no/such/method"},`+
		`{"jsonrpc":"2.0","id":"b","method":"ping"}]`)
	m := p.nextWithin(t, prompt, "the batch's answer", func(m map[string]any) bool { return m["_batch"] != nil })
	line := m["_line"].(string)
	answers := m["_batch"].([]any)
	require.Equal(t, 5, len(answers), line)
	require.True(t, strings.HasPrefix(line, `[{"jsonrpc":"2.0","id":1.5,"result":{}}`), line)
	get := func(i int) map[string]any { return answers[i].(map[string]any) }
	require.Equal(t, "b", get(1)["id"])
	require.Contains(t, fmt.Sprint(get(1)["result"]), "decisions: on")
	require.Equal(t, nil, get(2)["id"])
	require.Equal(t, float64(-32600), errorCode(get(2)))
	require.Equal(t, "c", get(3)["id"])
	require.Equal(t, float64(-32601), errorCode(get(3)))
	require.Equal(t, nil, get(4)["id"], "a member reusing an id waiting in its batch")
	require.Equal(t, float64(-32600), errorCode(get(4)))

	// Notifications only: no answer at all (never an empty array).
	p.send(t, `[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]`)
	p.send(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	next := p.nextWithin(t, prompt, "the next message", func(map[string]any) bool { return true })
	require.Equal(t, float64(2), next["id"], "%v", next["_line"])
	// An empty batch is one invalid request.
	p.send(t, `[]`)
	m = p.nextWithin(t, prompt, "the error for []", func(m map[string]any) bool { return m["error"] != nil })
	require.Equal(t, float64(-32600), errorCode(m))
	p.in.Close()
	require.Equal(t, 0, p.exitsWithin(t, prompt))
}

// In a session of 2025-06-18 or later a batch is one invalid request that
// names the version, and the session goes on.
func TestMCPRefusesABatchInALaterSession(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		p := startMCPAt(t, dir, agent, version, `{}`)
		p.send(t, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
		m := p.nextWithin(t, prompt, "the error for the batch", func(m map[string]any) bool { return m["error"] != nil })
		require.Equal(t, nil, m["id"])
		require.Equal(t, float64(-32600), errorCode(m))
		require.Contains(t, m["error"].(map[string]any)["message"].(string), "protocol version "+version)
		p.send(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
		p.answerWithin(t, prompt, 2)
		p.in.Close()
		require.Equal(t, 0, p.exitsWithin(t, prompt))
	}
}

// Issue 25: no notifications/resources/list_changed was sent when a
// MEMORY.md appeared. The server declares it, and a client that has listed
// is told once after a change: memory_remember creating the project's
// MEMORY.md, a file written on disk between two calls.
func TestMCPTellsAClientThatListedWhenItsResourcesChange(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{}`)
	init := p.seen(isAnswerTo(0))[0]
	caps := init["result"].(map[string]any)["capabilities"].(map[string]any)
	require.Equal(t, true, caps["resources"].(map[string]any)["listChanged"], "%v", init["_line"])
	isChange := func(m map[string]any) bool { return m["method"] == "notifications/resources/list_changed" }
	list := func(id int) string {
		p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/list"}`, id))
		return p.answerWithin(t, prompt, id)["_line"].(string)
	}

	require.NotContains(t, list(1), "MEMORY.md")
	p.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_remember","arguments":{"text":"I always use pnpm"}}}`)
	p.nextWithin(t, prompt, "list_changed after memory_remember", isChange)
	require.Contains(t, list(3), "pimem://notes/project/MEMORY.md")

	global := filepath.Join(agent, "memory", "MEMORY.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(global), 0o755))
	require.NoError(t, os.WriteFile(global, []byte("## Preferences\n- I prefer tabs\n"), 0o644))
	p.send(t, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_status","arguments":{}}}`)
	p.nextWithin(t, prompt, "list_changed after a MEMORY.md appeared on disk", isChange)
	require.Contains(t, list(5), "pimem://notes/global/MEMORY.md")

	// Nothing changed: nothing said.
	p.send(t, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"pnpm"}}}`)
	p.answerWithin(t, prompt, 6)
	p.send(t, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	p.answerWithin(t, prompt, 7)
	p.in.Close()
	require.Equal(t, 0, p.exitsWithin(t, prompt))
	require.Equal(t, 2, len(p.seen(isChange)), "one list_changed per change")
}

// The wire takes any line a client sends: what it passes to the SDK is one
// JSON-RPC message each, a request under an integer id of its own; what it
// writes is JSON, one message a line; and the SDK's answer to each request
// goes out under the id the client gave it, byte for byte, the requests of
// a batch answered in one line.
func FuzzWireTake(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a\u0062","method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"action":"accept"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},5,{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]`,
		`[]`, `[1,2]`, `"x"`, `{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"id":{},"method":"ping","jsonrpc":"2.0"}`,
	} {
		f.Add("2025-03-26", []byte(s))
		f.Add("2025-06-18", []byte(s))
	}
	f.Fuzz(func(t *testing.T, version string, line []byte) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return
		}
		var out bytes.Buffer
		w := newWire(nopWriteCloser{&out}, func(b []byte) []byte { return b })
		w.version = version
		passed := w.take(line, false)
		var requests []int64
		for _, p := range passed {
			m, err := jsonrpc.DecodeMessage(p)
			if err != nil {
				t.Fatalf("passed %q, not a message: %v", p, err)
			}
			if r, ok := m.(*jsonrpc.Request); ok && r.ID.IsValid() {
				n, ok := r.ID.Raw().(int64)
				if !ok || w.calls[n] == nil {
					t.Fatalf("passed %q under id %v, not one of the wire's", p, r.ID.Raw())
				}
				requests = append(requests, n)
			}
		}
		want := map[int64][]byte{}
		for _, n := range requests {
			want[n] = safeID(w.calls[n].id) // as the wire writes it back (safeID escapes &, <, > and past ASCII)
			if w.calls[n].cancelled {
				delete(want, n)
			}
		}
		for _, n := range requests {
			if _, err := w.Write([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`+"\n", n))); err != nil {
				t.Fatal(err)
			}
		}
		if w.unanswered() != 0 || len(w.inUse) != 0 {
			t.Fatalf("answered every request, yet %d calls and %d ids are left", w.unanswered(), len(w.inUse))
		}
		written := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		for _, l := range written {
			if l != "" && !json.Valid([]byte(l)) {
				t.Fatalf("wrote %q", l)
			}
		}
		all := out.String()
		for _, id := range want {
			if !strings.Contains(all, `"id":`+string(id)+`,"result":{}`) {
				t.Fatalf("no answer under id %s in %q", id, all)
			}
		}
		if line[0] == '[' && len(want) > 0 && strings.Count(all, `,"result":{}`) != len(want) {
			t.Fatalf("a batch of %d requests answered as %q", len(want), all)
		}
	})
}

// A client may send its next message with its initialize, not waiting for
// the answer: it is judged under the version the initialize settles (h-v77
// B4: a batch sent at once was refused as if it came before it).
func TestMCPTakesWhatFollowsAnInitializeUnderItsVersion(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	for range 3 {
		cmd := exec.Command(pimemBin, "--wasm", testmod.Cores[0].Path(t), "--project", dir, "--agent-dir", agent, "mcp")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + sharedCache}
		cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n" +
			`[{"jsonrpc":"2.0","id":10,"method":"ping"}]` + "\n")
		out, err := cmd.Output()
		require.NoError(t, err)
		require.Contains(t, string(out), `[{"jsonrpc":"2.0","id":10,"result":{}}]`)
		require.NotContains(t, string(out), "before the session's initialize")
	}
}

// An error quoting megabytes of what the client sent is redacted only as
// far as it is sent and a window past it (h-v93 a3: a 15 MB tool name held
// every answer while all of it was redacted): the window is what messageCut
// keeps and more than any secret, so a secret that ends inside it is read
// whole.
func TestAnErrorsMessageIsRedactedOnlyAsFarAsItIsSent(t *testing.T) {
	msg := strings.Repeat("password=hunter2; ", 1<<20)
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "error": map[string]any{"code": -32602, "message": msg}})
	var got struct {
		Error struct{ Message string } `json:"error"`
	}
	require.NoError(t, json.Unmarshal(messageWindow(body), &got))
	require.Equal(t, maxMessage+secretWindow, len(got.Error.Message))
	require.True(t, strings.HasPrefix(msg, got.Error.Message))
	short, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "error": map[string]any{"code": -32602, "message": "unknown tool x", "data": map[string]any{"uri": "pimem://x"}}})
	require.Equal(t, string(short), string(messageWindow(short)))
	// The data quotes what the client sent too (the SDK's and our data.uri,
	// h-v94 a3: a 15 MB URI was redacted whole and sent whole).
	uri := "pimem://" + msg
	body, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "error": map[string]any{"code": -32002, "message": "Resource not found", "data": map[string]any{"uri": uri, "n": 3}}})
	var withData struct {
		Error struct {
			Message string
			Data    struct {
				URI string
				N   int
			}
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(messageCut(messageWindow(body)), &withData))
	require.Equal(t, "Resource not found", withData.Error.Message)
	require.Equal(t, cutAt(uri, maxMessage)+"…", withData.Error.Data.URI)
	require.Equal(t, 3, withData.Error.Data.N)
	require.Equal(t, "é", cutAt("éa", 1+1))
	require.Equal(t, "", cutAt("é", 1))
}

// topLevel and lastID read any start or end of a line without failing, and the id they give
// is a JSON number or string that the start holds whole.
func FuzzTopLevel(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":{"x":"yyy`, `{"method":"tools/call","id":"a\"b","params":{`, `{"id":{"x":1},"method":"m"}`, `[1,2`, `{"id":-1.5e3`, `{"a":{"id":4}}`} {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"result":{"x":"y"},"jsonrpc":"2.0","id":7}`))
	f.Fuzz(func(t *testing.T, head []byte) {
		if last := lastID(head); last != nil {
			var v any
			if json.Unmarshal(last, &v) != nil || !bytes.Contains(head, last) {
				t.Fatalf("lastID(%q) = %q", head, last)
			}
		}
		id, _ := topLevel(head)
		if id == nil {
			return
		}
		var v any
		if err := json.Unmarshal(id, &v); err != nil {
			t.Fatalf("topLevel(%q) gave id %q: %v", head, id, err)
		}
		switch v.(type) {
		case float64, string:
		default:
			t.Fatalf("topLevel(%q) gave id %q", head, id)
		}
		if !bytes.Contains(head, id) {
			t.Fatalf("topLevel(%q) gave id %q, not in it", head, id)
		}
	})
}
