package main

// pimem mcp: the project's memory served to any agent that speaks the
// Model Context Protocol (Claude Code, Codex, Cursor, pi's own MCP client),
// over stdio, on the same core pi loads (issue 20, decision 014). This file
// only translates: the tools, their schemas and results, the resources and
// the prompt's text all come from the core (a rule here is a bug, as in
// pi's adapter), and every message it writes passes through the core's
// redact export (mcpCore.redacted), the SDK's own errors included.
// Tool calls and their dialogs are in mcp_dialog.go; what passes between
// the client's lines and the SDK (ids, cancellations, batches) in
// mcp_wire.go.
//
//	MCP                          core
//	initialize (capabilities) -> session_start {mode:"mcp", hasUI: the client elicits}
//	tools/list                -> the registry's mcpTools, with their annotations
//	tools/call                -> tool {name, params}; a dialog it opens -> elicitation/create,
//	                             or a result asking for input (2026-07-28)
//	resources/list, read      -> resources {op:"list"}, {op:"read", uri}
//	prompts/get memory        -> before_agent_start {prompt}: what pi would append to its system prompt
//	end of input, SIGTERM     -> session_shutdown, after the call in progress

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-memory/pi-memory/host"
	"github.com/pi-memory/pi-memory/host/fsys"
)

// mcpPrompt is the prompt that renders the block pi injects.
const mcpPrompt = "memory"

// mcpTool is one tool of the registry's mcpTools.
type mcpTool struct {
	Name        string          `json:"name"`
	Label       string          `json:"label"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	// Annotations are the registry's hints: read-only, destructive,
	// idempotent, open world, and the title.
	Annotations *mcp.ToolAnnotations `json:"annotations"`
}

// mcpCore is one core session shared by every request of one client: the
// core is single-threaded, so calls take turns (mu), and it starts when the
// client has said what it can do (start), so hasUI tells the truth. A call
// waiting for a person's answer does not hold the core (mcp_dialog.go).
type mcpCore struct {
	mu       sync.Mutex
	d        *host.Driver
	session  sessionStart
	stderr   io.Writer
	startMu  sync.Mutex // guards started and startErr
	started  bool
	startErr error
	server   *mcp.Server
	// pmu guards parked, the calls whose result asked a client of
	// 2026-07-28 for input, by the token it gave (requestState), and
	// stopped: the session is ending and no tool call starts.
	pmu     sync.Mutex
	parked  map[string]*parkedCall
	stopped bool
	// calls are the tool calls running in the core, which the session's
	// end waits for; asking counts those waiting for a person's answer to
	// an elicitation/create.
	calls  sync.WaitGroup
	asking atomic.Int32
	// closing ends every wait when the client has gone.
	closing chan struct{}
	// listed is the resources registered with the server: their MIME type by
	// URI. listChanged tells the wire the list changed (true), or that the
	// client is given it (false): called with mu held.
	listed      map[string]string
	listChanged func(changed bool)
	// ended: the session is shut down (mu guards it); a call that comes
	// after is refused, so no core call starts while the process exits.
	ended bool
	// red is a second instance of the core, with no session, that every
	// message the server writes goes through (redacted): the first may be
	// held for minutes by a call waiting for a person while the server
	// writes. redMu guards it.
	redMu sync.Mutex
	red   *host.Driver
}

// mcpServe runs the server until the client closes its input.
func mcpServe(o options, argv []string, in io.ReadCloser, out io.WriteCloser, stderr io.Writer) (int, error) {
	if len(argv) > 0 {
		return 0, usageError{fmt.Sprintf("mcp takes no arguments, got %q (flags: --project DIR, --agent-dir DIR, --wasm PATH)", argv)}
	}
	if o.session != "" {
		return 0, usageError{"mcp reads no pi session (--session)"}
	}
	ctx := context.Background()
	c, closeCore, err := newMCPCore(ctx, o, stderr)
	if err != nil {
		return 0, err
	}
	defer closeCore()
	// A client ends its server with SIGTERM (the TypeScript SDK's close()
	// when the end of input is not enough, others at once). Killed
	// mid-write, the server would leave its lock, which the next writer waits
	// on until it is stale, and temp files; so a signal ends the input as the
	// client closing it does: the call in progress finishes, a question put
	// to the person is dismissed, nothing starts after. A second signal kills.
	sig, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	context.AfterFunc(sig, stop)
	w := newWire(out, c.redacted)
	c.listChanged = w.resourcesChanged
	asking := func() int { return int(c.asking.Load()) }
	err = c.server.Run(ctx, &mcp.IOTransport{Reader: frames(sig, in, w, asking), Writer: w, MaxLineLength: -1})
	c.shutdown()
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		return 1, fmt.Errorf("mcp: %w", err)
	}
	return 0, nil
}

// newMCPCore loads the core for the project o names and builds the server
// from its registry; closeCore releases the module.
func newMCPCore(ctx context.Context, o options, stderr io.Writer) (*mcpCore, func(), error) {
	session, err := sessionInput(o)
	if err != nil {
		return nil, nil, err
	}
	session.Mode = "mcp"
	wasm, err := findModule(o.wasm)
	if err != nil {
		return nil, nil, err
	}
	if session.Module, err = moduleSHA256(wasm); err != nil {
		return nil, nil, err
	}
	rt, err := newRuntime(ctx, wasm)
	if err != nil {
		return nil, nil, err
	}
	inst, err := rt.NewInstance(ctx, host.Config{FS: fsys.NewOS(), Log: logTo(stderr)})
	if err != nil {
		rt.Close(ctx)
		return nil, nil, err
	}
	red, err := rt.NewInstance(ctx, host.Config{FS: fsys.NewOS(), Log: logTo(stderr)})
	if err != nil {
		inst.Close()
		rt.Close(ctx)
		return nil, nil, err
	}
	closeCore := func() { inst.Close(); red.Close(); rt.Close(ctx) }
	reg, err := readRegistry(inst)
	if err != nil {
		closeCore()
		return nil, nil, err
	}
	var tools struct {
		MCP []mcpTool `json:"mcpTools"`
	}
	if err := json.Unmarshal([]byte(reg.raw), &tools); err != nil || len(tools.MCP) == 0 {
		closeCore()
		return nil, nil, errors.New("this core module serves no MCP tools (it is older than this pimem); rebuild it with `make wasm` or pass --wasm")
	}
	c := &mcpCore{d: &host.Driver{Inst: inst, Stdout: io.Discard, Stderr: stderr}, session: session, stderr: stderr,
		parked: map[string]*parkedCall{}, closing: make(chan struct{}), listed: map[string]string{},
		red: &host.Driver{Inst: red, Stdout: io.Discard, Stderr: stderr}}
	if res, err := c.red.Run("redact", []byte("{}")); err != nil || len(res.Outputs) != 1 {
		closeCore()
		return nil, nil, errors.New("this core module cannot redact what pimem mcp sends (it is older than this pimem); rebuild it with `make wasm` or pass --wasm")
	}
	c.server = mcp.NewServer(&mcp.Implementation{Name: "pimem", Title: "pi-memory", Version: reg.Version}, &mcp.ServerOptions{
		Instructions: "pi-memory: this project's decisions, notes and earlier pi sessions. Search before answering about earlier work, rules or preferences; remember lasting preferences; decisions are the user's: propose them.",
		InitializedHandler: func(ctx context.Context, req *mcp.InitializedRequest) {
			c.start(req.Session)
		},
		Capabilities: &mcp.ServerCapabilities{
			Tools:   &mcp.ToolCapabilities{},
			Prompts: &mcp.PromptCapabilities{},
			// A MEMORY.md appears (memory_remember, pi, a person): a
			// client that listed is told (wire.resourcesChanged).
			Resources: &mcp.ResourceCapabilities{ListChanged: true},
		},
	})
	for _, t := range tools.MCP {
		c.server.AddTool(&mcp.Tool{Name: t.Name, Title: t.Label, Description: t.Description, InputSchema: t.Parameters, Annotations: t.Annotations}, c.callTool)
	}
	c.server.AddPrompt(&mcp.Prompt{
		Name: mcpPrompt, Title: "Project memory",
		Description: "The block pi adds to its system prompt for this project: its active decisions, notes and what they say to do with them.",
		Arguments:   []*mcp.PromptArgument{{Name: "task", Description: "what you are about to do (optional): the notes most relevant to it are chosen"}},
	}, c.getPrompt)
	// The resources are the files the project has when the client asks: a
	// MEMORY.md written since the session started (by a tool, pi or a person)
	// is listed and read. One that appears is noticed at the client's next
	// request (a tool call looks when it ends), and a client that has listed
	// is told its list changed (listChanged).
	c.server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			ss, _ := req.GetSession().(*mcp.ServerSession)
			switch {
			case ss == nil || method == "initialize" || method == "tools/call" || strings.HasPrefix(method, "notifications/"):
			case method == "resources/list":
				// The list the client gets is the one it is told has
				// changed after: no change falls between the two.
				if c.ready(ss) == nil {
					c.mu.Lock()
					defer c.mu.Unlock()
					c.syncResources()
					if c.listChanged != nil {
						c.listChanged(false)
					}
				}
			case method == "resources/read":
				if c.ready(ss) == nil {
					c.mu.Lock()
					c.syncResources()
					c.mu.Unlock()
				}
			default:
				// Any other request, once the session has started (a ping
				// before the client's initialized must not start it
				// blind), unless a call is using the core.
				c.startMu.Lock()
				started := c.started
				c.startMu.Unlock()
				if started && c.mu.TryLock() {
					c.syncResources()
					c.mu.Unlock()
				}
			}
			return next(ctx, method, req)
		}
	})
	return c, closeCore, nil
}

// start opens the core's session once, when the client has initialized:
// elicitation is the client's UI, so decision_propose asks through it.
// The resources the core lists then are registered.
func (c *mcpCore) start(ss *mcp.ServerSession) error {
	// startMu, not mu: the first request may come while a call holds the
	// core, and must wait for the start, not for the call.
	c.startMu.Lock()
	defer c.startMu.Unlock()
	if c.started {
		return c.startErr
	}
	c.started = true
	if p := ss.InitializeParams(); p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil {
		c.session.HasUI = true
	}
	input, _ := json.Marshal(c.session)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.run("session_start", input); err != nil {
		c.startErr = err
		return err
	}
	c.syncResources()
	return nil
}

// ready starts the session if the client asked before it said it was
// initialized, and says why the core cannot answer.
func (c *mcpCore) ready(ss *mcp.ServerSession) error {
	if err := c.start(ss); err != nil {
		return fmt.Errorf("pi-memory's core could not start: %w", err)
	}
	return nil
}

// mcpResult is a call's result (its command output in Outputs, never on
// this process's stdout, which is the protocol's) and the notices it printed.
type mcpResult struct {
	host.Result
	Problems string
}

// errEnded refuses a call that comes after the session's end.
var errEnded = errors.New("the MCP session has ended")

// run calls an export with the lock held, its command output collected.
func (c *mcpCore) run(export string, input []byte) (mcpResult, error) {
	if c.ended {
		return mcpResult{}, errEnded
	}
	var stderr bytes.Buffer
	c.d.Stderr = io.MultiWriter(&stderr, c.stderr)
	res, err := c.d.Run(export, input)
	c.d.Stderr = c.stderr
	return mcpResult{res, stderr.String()}, err
}

// syncResources registers the resources the core lists now and removes
// those it no longer lists. Called with the lock held.
func (c *mcpCore) syncResources() {
	res, err := c.run("resources", []byte(`{"op":"list"}`))
	if err != nil || res.Exit != 0 {
		return
	}
	var list []struct {
		URI, Name, Description string
		MIMEType               string `json:"mimeType"`
	}
	if json.Unmarshal([]byte(strings.Join(res.Outputs, "")), &list) != nil {
		return
	}
	now := map[string]string{}
	changed := false
	for _, r := range list {
		now[r.URI] = r.MIMEType
		if _, ok := c.listed[r.URI]; !ok {
			c.server.AddResource(&mcp.Resource{URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType}, c.readResource)
			changed = true
		}
	}
	for uri := range c.listed {
		if _, ok := now[uri]; !ok {
			c.server.RemoveResources(uri)
			changed = true
		}
	}
	c.listed = now
	if changed && c.listChanged != nil {
		c.listChanged(true)
	}
}

// readResource reads one resource through the core.
func (c *mcpCore) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	if err := c.ready(req.Session); err != nil {
		return nil, err
	}
	input, _ := json.Marshal(map[string]string{"op": "read", "uri": req.Params.URI})
	c.mu.Lock()
	defer c.mu.Unlock()
	res, err := c.run("resources", input)
	if err != nil {
		return nil, fmt.Errorf("pi-memory's core failed: %w", err)
	}
	if res.Exit != 0 {
		// Not the SDK's mcp.ResourceNotFoundError, which writes the URI
		// with %q: no JSON for some characters (plainURI).
		data, _ := json.Marshal(map[string]string{"uri": req.Params.URI})
		if _, why, ok := strings.Cut(res.Problems, "pi-memory: could not read "); ok {
			why, _, _ = strings.Cut(why, "\n")
			// There, and not read (a memory file saved as UTF-16): the
			// core's reason, redacted, is what a person can act on.
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "could not read " + why, Data: data}
		}
		return nil, &jsonrpc.Error{Code: mcp.CodeResourceNotFound, Message: "Resource not found", Data: data}
	}
	// The type the core listed it with (every URI read was listed: the SDK
	// answers an unlisted one itself).
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: c.listed[req.Params.URI], Text: strings.Join(res.Outputs, "")}}}, nil
}

// getPrompt is `pimem inject --prompt TASK`'s text as one user message.
func (c *mcpCore) getPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	if err := c.ready(req.Session); err != nil {
		return nil, err
	}
	input, _ := json.Marshal(struct {
		Prompt      string `json:"prompt"`
		MessageType string `json:"messageType"`
	}{req.Params.Arguments["task"], "user"})
	c.mu.Lock()
	defer c.mu.Unlock()
	res, err := c.run("before_agent_start", input)
	if err != nil {
		return nil, fmt.Errorf("pi-memory's core failed: %w", err)
	}
	text := strings.Join(res.SystemPromptAppend, "")
	if strings.TrimSpace(text) == "" {
		text = "pi-memory holds nothing to inject for this project yet."
	}
	return &mcp.GetPromptResult{
		Description: "pi-memory for " + c.session.Cwd,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
	}, nil
}

// shutdown ends the core's session after the last call: what can wait is
// written now, as when pi quits.
func (c *mcpCore) shutdown() {
	// A question no one will answer now is dismissed, so the call it held
	// ends (writing nothing) before the session does; no call starts after.
	close(c.closing)
	c.pmu.Lock()
	c.stopped = true
	c.pmu.Unlock()
	c.calls.Wait()
	c.startMu.Lock()
	defer c.startMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	defer func() { c.ended = true }()
	if !c.started || c.startErr != nil {
		return
	}
	if _, err := c.run("session_shutdown", []byte(`{"reason":"quit"}`)); err != nil && !errors.Is(err, host.ErrUnknownExport) {
		fmt.Fprintln(c.stderr, "pimem: "+coreFailed("session_shutdown", err).Error())
	}
}

// redacted is msg, one JSON-RPC message (or a value of one), as the core's
// redact export leaves it (every string redacted by the core's one rule):
// every message the server writes goes through it, its own and its SDK's (an
// error that quotes a tool's name, an argument or a URI the client sent).
// A message the core could not check is not sent as it was: a response
// becomes an error that says so, with its id; anything else is dropped.
func (c *mcpCore) redacted(body []byte) []byte {
	body = messageWindow(excerptsDropped(body))
	c.redMu.Lock()
	res, err := c.red.Run("redact", body)
	if err == nil && res.Exit == 0 && len(res.Outputs) == 1 {
		if cut := messageCut([]byte(res.Outputs[0])); len(cut) != len(res.Outputs[0]) {
			// Cut, the text can read differently: "< pi_memory_recall >= 1"
			// is code, its cut "< pi_memory_recall >…" a marker (h-v97 c2).
			// The cut, a kilobyte, is checked again.
			res, err = c.red.Run("redact", cut)
		}
	}
	c.redMu.Unlock()
	if err == nil && res.Exit == 0 && len(res.Outputs) == 1 {
		return []byte(res.Outputs[0])
	}
	if err == nil {
		err = errors.New("no answer" + problems(mcpResult{Result: res}))
	}
	fmt.Fprintln(c.stderr, "pimem: a message was not sent: its check for secrets failed: "+err.Error())
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return nil
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{
		"code": -32603, "message": "Internal error: pimem could not check its answer for secrets, so it was not sent",
	}})
	return b
}

// excerptsDropped is body, when it is a JSON-RPC error whose message quotes
// what the client sent, without the SDK's excerpt of a value it could not
// read (`cannot unmarshal "[\"ghp_abcdefghijklmnopqrstuvwxyz..." into`):
// a secret cut short there is no longer one the redaction reads.
func excerptsDropped(body []byte) []byte {
	return errorMessage(body, func(out string) string {
		const cut = "unmarshal \""
		for i := strings.Index(out, cut); i >= 0; i = strings.Index(out, cut) {
			j := strings.Index(out[i+len(cut):], "\" into ")
			if j < 0 {
				return out[:i] + "unmarshal a value"
			}
			out = out[:i] + "unmarshal a value" + out[i+len(cut)+j+1:]
		}
		return out
	})
}

// messageWindow is body with its error's message and data cut to what messageCut
// keeps and a window past it, longer than any secret the patterns know, so
// that the redaction before messageCut reads every secret of what is kept
// whole, and only that: a 15 MB tool name quoted in an error held every
// answer for 23–31 s while all of it was redacted (h-v93 a3).
func messageWindow(body []byte) []byte {
	return errorMessage(body, func(out string) string { return cutAt(out, maxMessage+secretWindow) })
}

const (
	maxMessage   = 1024 // bytes of an error's message sent
	secretWindow = 8192 // redact.Window: longer than any secret the patterns know (an 8192-bit RSA key is ~6.5 KB)
)

// cutAt is s cut to at most n bytes at a character's start.
func cutAt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := n
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return s[:k]
}

// messageCut is body with its error's message and data cut to 1 KiB (they may quote
// the whole request, a megabyte of it); after the redaction, which then has
// read every secret whole.
func messageCut(body []byte) []byte {
	return errorMessage(body, func(out string) string {
		if len(out) <= maxMessage {
			return out
		}
		return cutAt(out, maxMessage) + "…"
	})
}

// errorMessage is body with its error's message, and each string of its
// data (the SDK's and our data.uri: the URI the client sent, 15 MB of it in
// h-v94 a3), as edit makes them, when body is a JSON-RPC error; else body.
func errorMessage(body []byte, edit func(string) string) []byte {
	if !bytes.Contains(body, []byte(`"error"`)) {
		return body
	}
	var m map[string]json.RawMessage
	var e map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || json.Unmarshal(m["error"], &e) != nil {
		return body
	}
	changed := false
	str := func(raw json.RawMessage) json.RawMessage {
		var v string
		if json.Unmarshal(raw, &v) != nil {
			return raw
		}
		out := edit(v)
		if out == v {
			return raw
		}
		changed = true
		b, _ := json.Marshal(out)
		return b
	}
	if _, ok := e["message"]; ok {
		e["message"] = str(e["message"])
	}
	if data, ok := e["data"]; ok {
		var fields map[string]json.RawMessage
		if json.Unmarshal(data, &fields) == nil && fields != nil {
			for k, v := range fields {
				fields[k] = str(v)
			}
			e["data"], _ = json.Marshal(fields)
		} else {
			e["data"] = str(data)
		}
	}
	if !changed {
		return body
	}
	m["error"], _ = json.Marshal(e)
	b, err := json.Marshal(m)
	if err != nil {
		return body
	}
	return b
}

// stdio is this process's standard input and output for the transport;
// closing output is left to the process's end.
func stdio() (io.ReadCloser, io.WriteCloser) {
	return os.Stdin, nopWriteCloser{os.Stdout}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
