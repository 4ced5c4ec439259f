package host

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"
)

// ErrEnvelope is an export's output that breaks the contract's envelope shape.
var ErrEnvelope = errors.New("malformed envelope")

// Envelope is what every export returns: effects for the host to perform, in
// order, and the exit code pimem should end with.
//
//	{"v":1,"effects":[{"t":"notify","level":"info","text":"Added D-2026-11-21-0001"}],"exit":0}
type Envelope struct {
	Effects []Effect
	Exit    int
}

// Effect is one request of the core. Only the fields of its type T are set;
// Raw holds the effect as the core wrote it.
type Effect struct {
	T string

	Text  string // output, notify, status, system_prompt_append
	Level string // notify: info, warning, error
	Key   string // status
	Clear bool   // status: text was null, remove the entry

	CustomType string // message
	Content    string // message (raw JSON if not a string)
	Display    bool   // message

	ID          string   // dialog, complete: what resume answers; context_messages: what a later Same names
	Kind        string   // dialog: select, confirm, input, editor
	Title       string   // dialog
	Message     string   // dialog
	Options     []string // dialog (select)
	Placeholder string   // dialog (input)
	Prefill     string   // dialog (editor): the text the editor opens on

	System     string // complete
	Prompt     string // complete
	MaxTokens  int    // complete
	Model      string // complete: "" for the session's current model
	TimeoutMs  int    // complete: 0 for no bound
	Background bool   // complete, http: the host may answer later, without holding the event

	Requests []Request // http: performed at once, answered in this order
	Active   []string  // tools: the registry's tools to make active
	IsError  bool      // tool_result

	Index            int             // context_messages: where the messages go
	Messages         json.RawMessage // context_messages: [{customType, content}], those of the effect Same names when the core sent none (Instance.Call)
	Same             string          // context_messages: the ID of an earlier context_messages effect whose messages go in again
	Data             json.RawMessage // session_entry: the entry's data
	Summary          string          // compaction, branch_summary
	Details          json.RawMessage // compaction, branch_summary
	FirstKeptEntryID string          // compaction
	TokensBefore     int64           // compaction
	Usage            json.RawMessage // compaction: the observer call's usage, when one ran
	State            json.RawMessage // state: the session's state, handed back when session_start is replayed

	Raw json.RawMessage
}

// Request is one request of an http effect.
type Request struct {
	Method, URL string
	Headers     map[string]string
	Body        string
	TimeoutMs   int
	MaxBytes    int // the most of the body to read (0: defaultMaxBytes); past it the answer is truncated
	// BearerEnv names an environment variable whose value, when set, the
	// host sends as "Authorization: Bearer …": a key the person keeps in
	// their environment never enters the core (decision 001).
	BearerEnv string
}

// Waits reports whether the effect needs an answer through resume (an ask).
func (e Effect) Waits() bool { return e.T == "dialog" || e.T == "complete" || e.T == "http" }

// Holds reports whether the effect is a foreground ask: it must be the last
// of its envelope, and the event that asked waits for its answer. A
// background ask may stand anywhere; the host answers it later.
func (e Effect) Holds() bool { return e.Waits() && !e.Background }

// ParseEnvelope reads an export's output, checking what the contract
// promises: version 1, effects as objects with a type, and at most one
// foreground ask (dialog, completion or http), only as the last effect;
// background asks may stand anywhere.
//
//	ParseEnvelope([]byte(`{"v":1,"effects":[{"t":"output","text":"pong"}],"exit":0}`))
//	=> Envelope{Effects: [{T: "output", Text: "pong"}]}
func ParseEnvelope(b []byte) (Envelope, error) {
	if !gjson.ValidBytes(b) {
		return Envelope{}, fmt.Errorf("%w: not JSON: %.200q", ErrEnvelope, b)
	}
	r := gjson.ParseBytes(b)
	if !r.IsObject() {
		return Envelope{}, fmt.Errorf("%w: not an object: %.200s", ErrEnvelope, b)
	}
	if v := r.Get("v"); v.Type != gjson.Number || v.Float() != 1 {
		return Envelope{}, fmt.Errorf("%w: version %s, this host reads version 1", ErrEnvelope, v.Raw)
	}
	var env Envelope
	if x := r.Get("exit"); x.Exists() {
		if x.Type != gjson.Number || x.Float() != float64(int(x.Int())) || x.Int() < 0 || x.Int() > 255 {
			return Envelope{}, fmt.Errorf("%w: exit %s is not a code from 0 to 255", ErrEnvelope, x.Raw)
		}
		env.Exit = int(x.Int())
	}
	effects := r.Get("effects")
	if effects.Exists() && !effects.IsArray() {
		return Envelope{}, fmt.Errorf("%w: effects is not a list", ErrEnvelope)
	}
	var err error
	effects.ForEach(func(_, e gjson.Result) bool {
		if !e.IsObject() || e.Get("t").Type != gjson.String {
			err = fmt.Errorf("%w: effect %d has no type: %.200s", ErrEnvelope, len(env.Effects), e.Raw)
			return false
		}
		if n := len(env.Effects); n > 0 && env.Effects[n-1].Holds() {
			err = fmt.Errorf("%w: effect %q follows a %s, which must come last", ErrEnvelope, e.Get("t").String(), env.Effects[n-1].T)
			return false
		}
		env.Effects = append(env.Effects, effectOf(e))
		return true
	})
	if err != nil {
		return Envelope{}, err
	}
	return env, nil
}

func effectOf(e gjson.Result) Effect {
	ef := Effect{
		T:           e.Get("t").String(),
		Text:        e.Get("text").String(),
		Level:       e.Get("level").String(),
		Key:         e.Get("key").String(),
		CustomType:  e.Get("customType").String(),
		Content:     e.Get("content").String(),
		Display:     e.Get("display").Bool(),
		ID:          e.Get("id").String(),
		Same:        e.Get("same").String(),
		Kind:        e.Get("kind").String(),
		Title:       e.Get("title").String(),
		Message:     e.Get("message").String(),
		Placeholder: e.Get("placeholder").String(),
		Prefill:     e.Get("prefill").String(),
		System:      e.Get("system").String(),
		Prompt:      e.Get("prompt").String(),
		MaxTokens:   int(e.Get("maxTokens").Int()),
		Model:       e.Get("model").String(),
		TimeoutMs:   int(e.Get("timeoutMs").Int()),
		Background:  e.Get("background").Bool(),
		Index:       int(e.Get("index").Int()),
		Summary:     e.Get("summary").String(),
		Raw:         json.RawMessage(e.Raw),
	}
	ef.FirstKeptEntryID = e.Get("firstKeptEntryId").String()
	ef.TokensBefore = e.Get("tokensBefore").Int()
	for _, f := range []struct {
		dst *json.RawMessage
		key string
	}{{&ef.Messages, "messages"}, {&ef.Data, "data"}, {&ef.Details, "details"}, {&ef.Usage, "usage"}, {&ef.State, "state"}} {
		if v := e.Get(f.key); v.Exists() {
			*f.dst = json.RawMessage(v.Raw)
		}
	}
	ef.Clear = ef.T == "status" && e.Get("text").Type == gjson.Null
	ef.IsError = e.Get("isError").Bool()
	for _, a := range e.Get("active").Array() {
		ef.Active = append(ef.Active, a.String())
	}
	for _, r := range e.Get("requests").Array() {
		req := Request{Method: r.Get("method").String(), URL: r.Get("url").String(), Body: r.Get("body").String(), TimeoutMs: int(r.Get("timeoutMs").Int()),
			MaxBytes: int(r.Get("maxBytes").Int()), BearerEnv: r.Get("bearerEnv").String()}
		r.Get("headers").ForEach(func(k, v gjson.Result) bool {
			if req.Headers == nil {
				req.Headers = map[string]string{}
			}
			req.Headers[k.String()] = v.String()
			return true
		})
		ef.Requests = append(ef.Requests, req)
	}
	for _, o := range e.Get("options").Array() {
		ef.Options = append(ef.Options, o.String())
	}
	return ef
}
