package main

// Tool calls, and the dialogs they open. A call runs in the core on its own
// goroutine (runTool); a dialog the core opens (decision_propose's confirm)
// is put to the person as an elicitation and the call waits for the answer,
// but the core does not: like pi, the core keeps the call's continuation
// and answers other calls meanwhile, so a question left open, abandoned or
// slow to answer never holds another call.
//
// Who answers a dialog, and when it counts as dismissed (nothing written):
//
//	client of 2026-07-28 (SEP-2322)   the result asks for input, naming the call in requestState;
//	                                  the client calls again with the answer: dismissed if it does
//	                                  not within inputWait
//	an older client                   elicitation/create, sent here: dismissed on a JSON-RPC error,
//	                                  content that is not the form's, no answer within dialogWait,
//	                                  or the tools/call cancelled (its answer is then not sent)
//	either                            dismissed when the client goes (end of input, a signal)

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-memory/pi-memory/host"
)

// dialogWait is how long an elicitation/create waits for the person's
// answer: past it the dialog counts as dismissed.
const dialogWait = 10 * time.Minute

// inputWait is how long a call whose result asked for input waits for the
// client to call again with the answer. The client may have dropped the
// result, and nothing tells the server so, so it is shorter than
// dialogWait; an answer after it finds the question gone (dismissed, so
// declined for this session).
var inputWait = 2 * time.Minute

// dialogInput names the one input a waiting call asks for.
const dialogInput = "dialog"

// toolCall is a tool call running in the core: the dialogs it opens come on
// asks, one at a time, each waiting for its answer; done is closed when
// result is set.
type toolCall struct {
	asks   chan *dialog
	answer chan json.RawMessage
	done   chan struct{}
	result *mcp.CallToolResult
	// stop is done once the client cancels the request the call is
	// running for: a search ends at its next slice, a request out is
	// aborted. A call parked for an answer outlives its first request, so
	// stop is the call's own, not that request's context.
	stop   context.Context
	cancel context.CancelFunc
}

// parkedCall is a call whose result asked a client of 2026-07-28 for the
// answer to dialog, until the client calls again or timer dismisses it.
type parkedCall struct {
	call   *toolCall
	dialog *dialog
	timer  *time.Timer
}

// callTool runs one registry tool in the core and answers with its result,
// or, for a client of 2026-07-28, with a request for the answer to the
// dialog it opened (SEP-2322): the client calls again with the answer and
// the token (requestState), and the call goes on.
func (c *mcpCore) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := c.ready(req.Session); err != nil {
		return toolError(err.Error()), nil
	}
	var w *toolCall
	if state := req.Params.RequestState; state != "" {
		p := c.unpark(state)
		if p == nil {
			return toolError("pi-memory: that question is no longer waiting: it was answered, or it went unanswered for " +
				inputWait.String() + " and counted as declined; nothing was recorded by it."), nil
		}
		var answer *mcp.ElicitResult
		if r, ok := req.Params.InputResponses[dialogInput].(*mcp.ElicitResult); ok {
			answer = r
		}
		w = p.call
		w.answer <- p.dialog.value(answer)
	} else {
		w = c.startCall(ctx, req.Params.Name, req.Params.Arguments)
	}
	cancelled := ctx.Done()
	for {
		select {
		case <-cancelled:
			w.cancel()
			cancelled = nil
		case <-w.done:
			return w.result, nil
		case d := <-w.asks:
			switch {
			case ctx.Err() != nil:
				// Cancelled: the answer will not be sent (wire), and no
				// one is there to answer the question.
				w.answer <- d.value(nil)
			case multiRoundTrip(req.Session):
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{dialogInput: d.params()}, RequestState: c.park(w, d)}, nil
			default:
				w.answer <- d.value(c.elicit(ctx, req.Session, d))
			}
		}
	}
}

// multiRoundTrip says whether the client takes a result that asks for input
// (protocol 2026-07-28), as the SDK decides it.
func multiRoundTrip(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= "2026-07-28"
}

// elicit asks the person with elicitation/create; nil when they gave no
// answer the form can take (an error, content not of the form, cancelled,
// timed out, the client gone).
func (c *mcpCore) elicit(ctx context.Context, ss *mcp.ServerSession, d *dialog) *mcp.ElicitResult {
	ctx, cancel := context.WithTimeout(ctx, dialogWait)
	defer cancel()
	go func() {
		select {
		case <-c.closing:
			cancel()
		case <-ctx.Done():
		}
	}()
	c.asking.Add(1)
	defer c.asking.Add(-1)
	// The SDK holds the content to the form's schema: a required answer
	// missing or of another type is an error here.
	r, err := ss.Elicit(ctx, d.params())
	if err != nil {
		return nil
	}
	return r
}

// startCall runs the tool in the core on its own goroutine (runTool).
func (c *mcpCore) startCall(ctx context.Context, name string, args json.RawMessage) *toolCall {
	w := &toolCall{asks: make(chan *dialog), answer: make(chan json.RawMessage, 1), done: make(chan struct{})}
	w.stop, w.cancel = context.WithCancel(context.Background())
	c.pmu.Lock()
	if c.stopped {
		c.pmu.Unlock()
		w.result = toolError("pi-memory: " + errEnded.Error())
		close(w.done)
		return w
	}
	c.calls.Add(1)
	c.pmu.Unlock()
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	input, err := json.Marshal(struct {
		Name   string          `json:"name"`
		Params json.RawMessage `json:"params"`
	}{name, args})
	if err != nil {
		// Not JSON: the SDK passes what the client sent as it came.
		input, _ = json.Marshal(struct {
			Name   string `json:"name"`
			Params string `json:"params"`
		}{name, string(args)})
	}
	// The result is reported only once runTool has let go of the core: the
	// client's next request (resources/list after a memory_remember) finds
	// it free.
	go func() {
		defer c.calls.Done()
		defer w.cancel()
		w.result = c.runTool(ctx, w, name, input)
		close(w.done)
	}()
	return w
}

// runTool runs the tool in the core. While a dialog waits for its answer
// the core is free for other calls; the answer resumes the call.
//
// Calls take turns for the core, so one may wait behind others for long. A
// call the client cancelled while it waited, or that still waited when the
// session began to end (a signal, the input closed past its drain), does not
// start: the client would never learn that a memory_remember or a
// memory_forget it gave up on was done, and a server told to stop would go
// on with every search queued.
func (c *mcpCore) runTool(ctx context.Context, w *toolCall, name string, input []byte) *mcp.CallToolResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return toolError("pi-memory: " + errEnded.Error())
	}
	select {
	case <-c.closing:
		return toolError("pi-memory: " + errEnded.Error())
	default:
	}
	if ctx.Err() != nil {
		return toolError("pi-memory: the call was cancelled before it started; nothing was done")
	}
	var said strings.Builder
	d := &host.Driver{Inst: c.d.Inst, Stdout: io.Discard, Stderr: io.MultiWriter(&said, c.stderr), Stop: w.stop}
	d.Dialog = func(e host.Effect) json.RawMessage {
		q := &dialog{e}
		select {
		case <-c.closing:
			return q.value(nil)
		default:
		}
		c.mu.Unlock()
		defer c.mu.Lock()
		select {
		case w.asks <- q:
		case <-c.closing:
			return q.value(nil)
		}
		select {
		case v := <-w.answer:
			return v
		case <-c.closing:
			return q.value(nil)
		}
	}
	res, err := d.Run("tool", input)
	// A note it wrote may have made a MEMORY.md.
	c.syncResources()
	switch {
	case err != nil:
		return toolError("pi-memory's core failed: " + err.Error())
	case len(res.ToolResults) > 0:
		r := res.ToolResults[len(res.ToolResults)-1]
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Text}}, IsError: r.IsError}
	}
	return toolError("pi-memory answered nothing for " + name + problems(mcpResult{res, said.String()}))
}

// park keeps a call waiting for the answer to d under a new token, for at
// most inputWait.
func (c *mcpCore) park(w *toolCall, d *dialog) string {
	var b [12]byte
	rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	c.pmu.Lock()
	defer c.pmu.Unlock()
	c.parked[token] = &parkedCall{call: w, dialog: d, timer: time.AfterFunc(inputWait, func() {
		if p := c.unpark(token); p != nil {
			c.abandon(p.call, p.dialog)
		}
	})}
	return token
}

// unpark takes the call parked under token, nil when none is.
func (c *mcpCore) unpark(token string) *parkedCall {
	c.pmu.Lock()
	p := c.parked[token]
	delete(c.parked, token)
	c.pmu.Unlock()
	if p != nil {
		p.timer.Stop()
	}
	return p
}

// abandon dismisses d and every later dialog of the call, whose result no
// one will read.
func (c *mcpCore) abandon(w *toolCall, d *dialog) {
	w.answer <- d.value(nil)
	for {
		select {
		case <-w.done:
			return
		case q := <-w.asks:
			w.answer <- q.value(nil)
		}
	}
}

func toolError(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
}

// problems is what the core said on stderr during a call, for an error.
func problems(res mcpResult) string {
	if p := strings.TrimSpace(res.Problems); p != "" {
		return ": " + p
	}
	return ""
}

// dialog is a dialog effect of the core, put to the person as a form of one
// field: a confirm as a yes/no, a select as a choice among its options, an
// input or editor as a text.
type dialog struct{ e host.Effect }

const dialogField = "answer"

func (d *dialog) params() *mcp.ElicitParams {
	e := d.e
	schema := map[string]any{"type": "string", "title": e.Title}
	switch e.Kind {
	case "confirm":
		schema = map[string]any{"type": "boolean", "title": e.Title, "description": "true to go ahead"}
	case "select":
		schema["enum"] = e.Options
	case "input", "editor":
		if e.Prefill != "" {
			schema["default"] = e.Prefill
		}
	}
	msg := e.Title
	if e.Message != "" {
		msg += "\n\n" + e.Message
	}
	return &mcp.ElicitParams{Message: msg, RequestedSchema: map[string]any{
		"type": "object", "properties": map[string]any{dialogField: schema}, "required": []string{dialogField},
	}}
}

// value is the resume value for the person's answer: declined, cancelled,
// none, or an answer the form does not take (a confirm's answer that is not
// true, a choice not among the options, a text that is not a string) is a
// dismissed dialog (a confirm's false, else null), as in pi.
func (d *dialog) value(r *mcp.ElicitResult) json.RawMessage {
	dismissed := json.RawMessage("null")
	if d.e.Kind == "confirm" {
		dismissed = json.RawMessage("false")
	}
	if r == nil || r.Action != "accept" {
		return dismissed
	}
	switch v := r.Content[dialogField].(type) {
	case bool:
		if d.e.Kind == "confirm" && v {
			return json.RawMessage("true")
		}
	case string:
		if d.e.Kind == "input" || d.e.Kind == "editor" || (d.e.Kind == "select" && slices.Contains(d.e.Options, v)) {
			b, _ := json.Marshal(v)
			return b
		}
	}
	return dismissed
}
