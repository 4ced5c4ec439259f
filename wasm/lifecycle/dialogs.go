package lifecycle

import (
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/hindsight"

	"github.com/pi-memory/pi-memory/wasm/jsonr"
	"github.com/pi-memory/pi-memory/wasm/jsonw"
	"github.com/tidwall/gjson"
)

// A continuation receives the host's answer to a dialog or completion, with
// the envelope of the resume call to write into.
type continuation func(out *Out, value gjson.Result)

func (e *Engine) park(k continuation) string {
	e.seq++
	id := "k" + strconv.Itoa(e.seq)
	if e.pending == nil {
		e.pending = map[string]continuation{}
	}
	e.pending[id] = k
	return id
}

// Select asks the person to pick one option; k receives the option text, or
// null when the dialog was dismissed.
func (e *Engine) Select(out *Out, title string, options []string, k continuation) {
	w := e.dialog("select", title, k)
	w.Strs("options", options)
	out.ask(w)
}

// Confirm asks a yes/no question; k receives true or false.
func (e *Engine) Confirm(out *Out, title, message string, k continuation) {
	w := e.dialog("confirm", title, k)
	w.Str("message", message)
	out.ask(w)
}

// Input asks for a line of text; k receives the text or null.
func (e *Engine) Input(out *Out, title, placeholder string, k continuation) {
	w := e.dialog("input", title, k)
	w.Str("placeholder", placeholder)
	out.ask(w)
}

// Editor opens a multi-line editor on prefill; k receives the edited text,
// or null when the editor was closed without saving.
func (e *Engine) Editor(out *Out, title, prefill string, k continuation) {
	w := e.dialog("editor", title, k)
	w.Str("prefill", prefill)
	out.ask(w)
}

// dialog starts a dialog effect of one kind, its answer going to k; the
// caller adds the kind's own field and hands it to out.ask.
func (e *Engine) dialog(kind, title string, k continuation) *jsonw.Object {
	w := jsonw.Open(nil)
	w.Str("t", "dialog")
	w.Str("id", e.park(k))
	w.Str("kind", kind)
	w.Str("title", title)
	return &w
}

// ask ends the envelope with a dialog or a model call: nothing may follow it.
func (out *Out) ask(w *jsonw.Object) {
	out.add(w.Close())
	out.blocked = true
}

// Complete asks the host to call the current model; k receives {text} or {error}.
func (e *Engine) Complete(out *Out, system, prompt string, maxTokens int, k continuation) {
	e.CompleteCall(out, Call{System: system, Prompt: prompt, MaxTokens: maxTokens}, k)
}

// Call is a model call with the options observational memory needs.
type Call struct {
	System, Prompt string
	MaxTokens      int
	// Model is "provider/id" or an id pi knows; "" is the session's current model.
	Model string
	// TimeoutMs bounds the call (0: no bound): the host aborts it and
	// resumes with {error}.
	TimeoutMs int
	// Background lets the host resume later, without holding the event
	// that asked: other exports may run in between.
	Background bool
}

// CompleteCall asks the host for a model call with options; k receives
// {text, usage?} or {error}.
func (e *Engine) CompleteCall(out *Out, c Call, k continuation) {
	id := e.park(k)
	w := jsonw.Open(nil)
	w.Str("t", "complete")
	w.Str("id", id)
	w.Str("system", c.System)
	w.Str("prompt", c.Prompt)
	w.Int("maxTokens", int64(c.MaxTokens))
	if c.Model != "" {
		w.Str("model", c.Model)
	}
	if c.TimeoutMs > 0 {
		w.Int("timeoutMs", int64(c.TimeoutMs))
	}
	if c.Background {
		w.Bool("background", true)
	}
	out.ask(&w)
}

func (e *Engine) resume(out *Out, in gjson.Result) {
	id := jsonr.Get(in, "id").String()
	k, ok := e.pending[id]
	if !ok {
		out.Notify("warning", "pi-memory: nothing is waiting for answer "+strconv.Quote(id)+" (the core was restarted, or it was already answered); the action was not completed.")
		return
	}
	delete(e.pending, id)
	k(out, jsonr.Get(in, "value"))
}

// HTTP asks the host to perform requests, all at once, each within its
// timeout; k receives the answers in request order (hindsight.ReadResponses
// reads them). A background ask does not hold the event: the host answers
// later and other effects may follow it in the envelope; a foreground one
// is last.
func (e *Engine) HTTP(out *Out, reqs []hindsight.Request, background bool, k continuation) {
	id := e.park(k)
	w := jsonw.Open(nil)
	w.Str("t", "http")
	w.Str("id", id)
	w.Raw("requests", hindsight.Encode(nil, reqs))
	if background {
		w.Bool("background", true)
	}
	out.add(w.Close())
	out.blocked = !background
}
