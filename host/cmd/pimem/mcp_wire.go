package main

// The wire: every line between the client and the Go MCP SDK passes here,
// for what the SDK does not do as the protocol says (decision 014, addendum
// of issue 25):
//
//   - ids: the SDK reads a request's id as a float and answers it as an
//     int64 (1.5 came back as 1, 2^53+1 as 2^53). Each request reaches the
//     SDK under an id of pimem's own, and its answer goes out with the
//     client's id byte for byte.
//   - cancellation: the SDK answers a request the client cancelled; the
//     spec says not to. Its answer is dropped here.
//   - batches: the SDK ends the session on one bad member, and answers a
//     member whose id repeats another's as a whole-session error. A batch
//     (protocol 2025-03-26 and before) is taken apart here and its answers
//     put together again, one per request, in order; a later protocol's
//     session is told it has none.
//   - bad lines: the SDK ends the session on a line that is not JSON or not
//     JSON-RPC 2.0; here it costs the client that line only.
//   - resources/list_changed is sent once after a change, to a client that
//     has listed since the last one, at once (the SDK's own goes out 10 ms
//     after any change, also while the session starts, before any list: it
//     broke clients that read one line per request, and could tell a client
//     of a change the list it was just given holds).
//
// Every message written passes through the core's redact export first.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
)

// maxFrame bounds one JSON-RPC message: the largest arguments a tool reads
// are 64 KiB (registry.MaxParamsBytes), so a 16 MiB line is no request.
const maxFrame = 16 << 20

// drainWait bounds how long answers are waited for once the input ended.
const drainWait = time.Minute

// initWait bounds how long the next message waits for an initialize's
// answer (the SDK answers at once; a stuck one must not hold the input).
const initWait = 10 * time.Second

// batchesUntil is the first protocol version without JSON-RPC batches
// (2025-06-18 removed them; 2025-03-26 and 2024-11-05 sessions may send them).
const batchesUntil = "2025-06-18"

// wire is both ends of the SDK's transport: take reads what the client sent,
// Write what the SDK sends.
type wire struct {
	mu  sync.Mutex
	out io.WriteCloser
	// redact is one message as the core's redact export leaves it, nil when
	// it must not be sent (mcpCore.redacted).
	redact func(msg []byte) []byte
	// last is the last id handed to the SDK; calls are the requests it has
	// not answered yet, by that id, and inUse the same by the client's id.
	last  int64
	calls map[int64]*rpcCall
	inUse map[string]int64
	// asked is the protocol version the client's initialize asked for,
	// version the one it settled on.
	asked, version string
	// listed: the client has listed the resources since the last
	// list_changed.
	listed bool
}

// rpcCall is a request the SDK has: the id the client gave it, byte for byte.
type rpcCall struct {
	id        []byte
	method    string
	cancelled bool
	batch     *batch
	slot      int
}

// batch is a batch's answers, in the order of its members; a slot is nil
// until answered and empty when the answer is not sent (a cancelled request).
type batch struct {
	answers [][]byte
	left    int
}

func newWire(out io.WriteCloser, redact func([]byte) []byte) *wire {
	return &wire{out: out, redact: redact, calls: map[int64]*rpcCall{}, inUse: map[string]int64{}}
}

// frames passes the client's messages to the SDK one line at a time, each
// as the wire takes it (take). When the input ends, the connection stays
// open until every request passed on has its answer written (a client may
// send its last request and close its end at once), except those waiting
// for a person who can no longer answer (asking counts them), for at most
// drainWait.
//
// When stop is done (a signal), the input ends at once, answered or not.
func frames(stop context.Context, in io.ReadCloser, w *wire, asking func() int) io.ReadCloser {
	pr, pw := io.Pipe()
	context.AfterFunc(stop, func() { pw.CloseWithError(io.EOF) })
	go func() {
		defer in.Close()
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, tooLong, err := readFrame(r)
			// JSON allows whitespace around a value; the SDK reads the
			// message to its newline and takes a space before it for
			// trailing data, and ended the session on it.
			line = bytes.TrimSpace(line)
			if len(line) > 0 || tooLong {
				for _, m := range w.take(line, tooLong) {
					if _, werr := pw.Write(append(m, '\n')); werr != nil {
						return
					}
				}
				// What follows an initialize is taken once it is answered:
				// its version decides what the next message may be (a batch
				// sent at once was refused as if before it, h-v77 B4).
				for end := time.Now().Add(initWait); w.initializing() && stop.Err() == nil && time.Now().Before(end); {
					time.Sleep(time.Millisecond)
				}
			}
			if err != nil {
				for end := time.Now().Add(drainWait); w.unanswered() > asking() && time.Now().Before(end); {
					time.Sleep(10 * time.Millisecond)
				}
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// readFrame reads one line without its newline; past maxFrame it reads on
// to the line's end and keeps only its first frameHead bytes and its last
// frameHead (where its id is: topLevel, lastID), joined by a newline.
func readFrame(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	var tail []byte
	for {
		part, isPrefix, err := r.ReadLine()
		if !tooLong && len(line)+len(part) > maxFrame {
			tail = append(tail, line[max(0, len(line)-frameHead):]...)
			tooLong, line = true, append(line[:min(len(line), frameHead):min(len(line), frameHead)], '\n')
		}
		if tooLong {
			tail = append(tail, part...)
			if len(tail) > 2*frameHead {
				tail = append(tail[:0], tail[len(tail)-frameHead:]...)
			}
		} else {
			line = append(line, part...)
		}
		if err != nil || !isPrefix {
			if tooLong {
				line = append(line, tail[max(0, len(tail)-frameHead):]...)
			}
			return line, tooLong, err
		}
	}
}

// take is what the SDK gets of one line the client sent: nothing when the
// wire answered it itself (a parse error, an invalid request, a batch of
// those) or dropped it (a cancellation of a request already answered).
func (w *wire) take(line []byte, tooLong bool) [][]byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case tooLong:
		// Its id, when its start says it: a request is answered under it,
		// and the answer to a question of ours (a dialog) is passed on as an
		// error under it, so the call waiting on it ends (h-v95 a2: it
		// waited until the client closed its end).
		head, tail, _ := bytes.Cut(line, []byte{'\n'})
		id, method := topLevel(head)
		if id == nil {
			id = lastID(tail) // the TypeScript SDK writes the id last (h-v96 a2)
		}
		switch {
		case id != nil && !method:
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32600, "message": "the answer was more than 16 MiB; pimem mcp did not read it"}})
			return [][]byte{b}
		case id != nil:
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32600, "message": "Invalid request: pimem mcp received a message of more than 16 MiB; it was skipped and the session goes on"}})
			w.send(b)
		default:
			w.send(parseError("a message of more than 16 MiB"))
		}
	case !json.Valid(line):
		w.send(parseError("a line that is not JSON"))
	case line[0] == '[':
		return w.takeBatch(line)
	default:
		pass, answer, _ := w.takeOne(line)
		if answer != nil {
			w.send(answer)
		}
		if pass != nil {
			return [][]byte{pass}
		}
	}
	return nil
}

// takeBatch takes a batch's members one by one; the answers of those the
// wire refused fill their slots at once.
func (w *wire) takeBatch(line []byte) [][]byte {
	if w.version == "" || w.version >= batchesUntil {
		why := "before the session's initialize"
		if w.version != "" {
			why = "in protocol version " + w.version + ", which has none (2025-03-26 had them)"
		}
		w.send(invalidRequest("a batch (a JSON array) " + why + "; send each message on its own line"))
		return nil
	}
	var members []json.RawMessage
	if json.Unmarshal(line, &members) != nil || len(members) == 0 {
		w.send(invalidRequest("an empty batch"))
		return nil
	}
	b := &batch{}
	var pass [][]byte
	for _, m := range members {
		p, answer, c := w.takeOne(m)
		switch {
		case answer != nil:
			b.answers = append(b.answers, answer)
		case c != nil:
			c.batch, c.slot = b, len(b.answers)
			b.answers = append(b.answers, nil)
			b.left++
		}
		if p != nil {
			pass = append(pass, p)
		}
	}
	if b.left == 0 {
		w.sendBatch(b)
	}
	return pass
}

// takeOne takes one message: a request goes on under an id of the wire's
// (c is its call), a cancellation under the id its request went on with, a
// notification or a response (to the server's own request) as it came;
// what is no message gets its error (answer).
func (w *wire) takeOne(msg []byte) (pass, answer []byte, c *rpcCall) {
	if _, err := jsonrpc.DecodeMessage(msg); err != nil {
		return nil, invalidRequest("JSON that is not a JSON-RPC 2.0 message (" + err.Error() + ")"), nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil {
		return nil, invalidRequest("JSON that is not a JSON-RPC 2.0 message"), nil
	}
	rawMethod, isCall := m["method"]
	id, hasID := m["id"]
	id = bytes.TrimSpace(id)
	var method string
	json.Unmarshal(rawMethod, &method)
	switch {
	case !isCall:
		return msg, nil, nil
	case hasID && string(id) == "null":
		return nil, invalidRequest("a request whose id is null (MCP: a string or a number)"), nil
	case !hasID && method == "notifications/cancelled":
		return w.cancel(m), nil, nil
	case !hasID:
		return msg, nil, nil
	}
	if _, taken := w.inUse[idKey(id)]; taken {
		return nil, invalidRequest("a request whose id " + string(safeID(id)) + " is the id of one not answered yet"), nil
	}
	if method == "resources/read" && !plainURI(m["params"]) {
		return nil, notFound(id), nil
	}
	if method == "initialize" {
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(m["params"], &p)
		w.asked = p.ProtocolVersion
	}
	w.last++
	c = &rpcCall{id: bytes.Clone(id), method: method}
	w.calls[w.last] = c
	w.inUse[idKey(id)] = w.last
	m["id"] = json.RawMessage(strconv.FormatInt(w.last, 10))
	return encode(m), nil, c
}

// cancel marks the request a notifications/cancelled names, whose answer
// is then not sent, and passes the notification on under the id the SDK
// knows it by; a cancellation of no request waiting (answered, or never
// sent) is dropped, as the spec allows.
func (w *wire) cancel(m map[string]json.RawMessage) []byte {
	var p map[string]json.RawMessage
	if json.Unmarshal(m["params"], &p) != nil {
		return nil
	}
	n, ok := w.inUse[idKey(bytes.TrimSpace(p["requestId"]))]
	if !ok || w.calls[n].method == "initialize" {
		return nil
	}
	w.calls[n].cancelled = true
	p["requestId"] = json.RawMessage(strconv.FormatInt(n, 10))
	b, _ := json.Marshal(p)
	m["params"] = b
	return encode(m)
}

// initializing: an initialize the SDK has not answered yet.
func (w *wire) initializing() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range w.calls {
		if c.method == "initialize" {
			return true
		}
	}
	return false
}

// unanswered counts the requests the SDK has not answered.
func (w *wire) unanswered() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.calls)
}

// Write takes one message of the SDK's: an answer goes out under the id the
// client gave its request, in its batch if it came in one, or not at all if
// the request was cancelled.
func (w *wire) Write(b []byte) (int, error) {
	msg := bytes.TrimSpace(b)
	w.mu.Lock()
	defer w.mu.Unlock()
	method, id := gjson.GetBytes(msg, "method"), gjson.GetBytes(msg, "id")
	var c *rpcCall
	if !method.Exists() && id.Type == gjson.Number {
		if n, err := strconv.ParseInt(id.Raw, 10, 64); err == nil && w.calls[n] != nil {
			c = w.calls[n]
			delete(w.calls, n)
			delete(w.inUse, idKey(c.id))
		}
	}
	switch {
	case c != nil:
		if c.method == "initialize" {
			if v := gjson.GetBytes(msg, "result.protocolVersion"); v.Type == gjson.String {
				w.version = v.Str
			}
		}
		if c.cancelled {
			w.answered(c, []byte{})
			return len(b), nil
		}
		out := w.redact(msg)
		if out != nil {
			out = withID(out, c.id)
		}
		return len(b), w.answered(c, out)
	case method.Str == "notifications/resources/list_changed" && !gjson.GetBytes(msg, "params._meta").Exists():
		// The SDK's, sent to a session before 2026-07-28 10 ms after any
		// change: the wire sends its own (resourcesChanged). A session of
		// 2026-07-28 gets the SDK's on the subscription it asked for, with
		// _meta naming it.
		return len(b), nil
	}
	return len(b), w.send(msg)
}

// resourcesChanged is told that the list of resources changed, or that
// the client is given the list (changed false): a client that has listed
// since the last list_changed is sent one, at once.
func (w *wire) resourcesChanged(changed bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.asked >= "2026-07-28":
		// Told on the subscription it asks for (the SDK's).
	case !changed:
		w.listed = true
	case w.listed:
		w.listed = false
		w.send([]byte(`{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}`))
	}
}

// answered sends c's answer, or puts it in its batch and sends the batch
// once every member is answered.
func (w *wire) answered(c *rpcCall, out []byte) error {
	if c.batch == nil {
		if len(out) == 0 {
			return nil
		}
		return w.write(out)
	}
	if out == nil {
		out = []byte{}
	}
	c.batch.answers[c.slot] = out
	if c.batch.left--; c.batch.left == 0 {
		return w.sendBatch(c.batch)
	}
	return nil
}

// sendBatch writes a batch's answers as one array, or nothing when none is
// sent (JSON-RPC: never an empty array).
func (w *wire) sendBatch(b *batch) error {
	var out []byte
	for _, a := range b.answers {
		if len(a) == 0 {
			continue
		}
		if out == nil {
			out = append(out, '[')
		} else {
			out = append(out, ',')
		}
		out = append(out, a...)
	}
	if out == nil {
		return nil
	}
	return w.write(append(out, ']'))
}

// send writes a message through redact.
func (w *wire) send(msg []byte) error {
	if out := w.redact(msg); out != nil {
		return w.write(out)
	}
	return nil
}

func (w *wire) write(b []byte) error {
	_, err := w.out.Write(append(b, '\n'))
	return err
}

func (w *wire) Close() error { return w.out.Close() }

// idKey is what tells one id from another: a string by its value (however
// escaped), a number as written.
func idKey(id []byte) string {
	var s string
	if len(id) > 0 && id[0] == '"' && json.Unmarshal(id, &s) == nil {
		return `"` + s
	}
	return string(id)
}

// withID is msg with its id replaced by id, the request's as the client sent
// it, the same value, even one redaction would mark: it only ever goes back
// to the client that chose it, which matches its answer by it (an answer
// under another id is one it waits for forever). Its bytes are safeID's.
func withID(msg, id []byte) []byte {
	r := gjson.GetBytes(msg, "id")
	if r.Index <= 0 {
		return msg
	}
	id = safeID(id)
	out := make([]byte, 0, len(msg)-len(r.Raw)+len(id))
	out = append(out, msg[:r.Index]...)
	out = append(out, id...)
	return append(out, msg[r.Index+len(r.Raw):]...)
}

// safeID is a string id's JSON with every character past ASCII, every
// control and '<', '>', '&' written as a \u escape: the value the client
// sent (its parser reads back the same string, a lone surrogate's escape
// kept as it came), in bytes that a terminal or a model reading the line
// cannot take for anything else (a bidi override, our marker, ESC). An id
// that is not a string is as it came.
func safeID(id []byte) []byte {
	if len(id) < 2 || id[0] != '"' {
		return id
	}
	out := make([]byte, 0, len(id))
	for i := 0; i < len(id); {
		c := id[i]
		switch {
		case c == '\\' && i+1 < len(id):
			n := 2
			if id[i+1] == 'u' {
				n = min(6, len(id)-i)
			}
			out = append(out, id[i:i+n]...)
			i += n
		case c == '<' || c == '>' || c == '&' || c < 0x20 || c == 0x7f:
			out = fmt.Appendf(out, `\u%04x`, c)
			i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, n := utf8.DecodeRune(id[i:])
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
			i += n
		}
	}
	return out
}

// encode is a message the wire rewrote, for the SDK (which reads its values,
// so key order and escapes do not matter).
func encode(m map[string]json.RawMessage) []byte {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	e.Encode(m)
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// frameHead is how much of a line past maxFrame is kept of its start and
// of its end, where a message's id is written.
const frameHead = 4 << 10

// topLevel reads the start of a JSON object for its "id" (a number or a
// string, whole within it) and whether a "method" comes before or beside
// it: a message too long to read is still told a request or an answer.
func topLevel(head []byte) (id json.RawMessage, method bool) {
	d := json.NewDecoder(bytes.NewReader(head))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, false
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return id, method || key == "method"
		}
		switch key {
		case "id":
			if len(v) > 0 && (v[0] == '"' || v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
				id = v
			}
		case "method":
			method = true
		}
	}
	return id, method
}

// lastID is the id a message's end gives when it is the last member of the
// message's object (`…,"jsonrpc":"2.0","id":7}`), nil for none.
func lastID(tail []byte) json.RawMessage {
	t := bytes.TrimRight(tail, " \t\r")
	if !bytes.HasSuffix(t, []byte("}")) {
		return nil
	}
	t = bytes.TrimRight(t[:len(t)-1], " \t\r")
	k := bytes.LastIndex(t, []byte(`"id"`))
	if k < 0 {
		return nil
	}
	v := bytes.TrimLeft(t[k+len(`"id"`):], " \t\r")
	if len(v) == 0 || v[0] != ':' {
		return nil
	}
	v = bytes.TrimLeft(v[1:], " \t\r")
	var id any
	if json.Unmarshal(v, &id) != nil {
		return nil
	}
	switch id.(type) {
	case float64, string:
		// A member's value, after a ',' that ends the one before it.
		if before := bytes.TrimRight(t[:k], " \t\r"); len(before) > 0 && before[len(before)-1] == ',' {
			return json.RawMessage(v)
		}
	}
	return nil
}

// parseError answers a message that could not be read (JSON-RPC 2.0: code
// -32700, id null).
func parseError(what string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{
		"code": -32700, "message": "Parse error: pimem mcp received " + what + "; it was skipped and the session goes on",
	}})
	return b
}

// plainURI: the uri of a resources/read's params, if it is a string, is
// printable ASCII, as every pimem resource's is (pimem://notes/project/
// MEMORY.md). The SDK answers a URI it did not list with an error that
// writes it back with Go's %q, which is no JSON for a control character
// ("\x1b") or an invisible one beyond the first plane ("\U000e0041"): the
// answer could not be sent and the server ended. Nor is an invisible one
// that prints as nothing (U+3164, a variation selector) said back
// (decision 017).
func plainURI(params json.RawMessage) bool {
	var p struct {
		URI string `json:"uri"`
	}
	if json.Unmarshal(params, &p) != nil {
		return true // not a string: the SDK refuses it itself
	}
	for i := 0; i < len(p.URI); i++ {
		if c := p.URI[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// notFound answers request id, a resources/read of a URI no resource has,
// without saying the URI back.
func notFound(id []byte) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(safeID(id)), "error": map[string]any{
		"code": mcp.CodeResourceNotFound, "message": "Resource not found: its URI holds a character no pimem resource has (a blank, a control, or one that is not ASCII)",
	}})
	return b
}

// invalidRequest answers JSON that is no JSON-RPC 2.0 request it can take
// (code -32600, id null: a message that is not one has no id to answer).
func invalidRequest(what string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{
		"code": -32600, "message": "Invalid Request: pimem mcp received " + what + "; it was skipped and the session goes on",
	}})
	return b
}
