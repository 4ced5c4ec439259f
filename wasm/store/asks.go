package store

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"slices"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/tidwall/gjson"
)

// Then receives the host's answer to an ask (a dialog, a model call, an http
// ask), with the envelope of the resume call to write into.
type Then func(out *Out, value gjson.Result)

// Asks is what waits for the host's answers, and the ids this instance
// hands out. One lives in the orchestrator for the module's lifetime: a
// new session forgets what waited (Forget), never the ids, so an id is
// never handed out twice by one instance.
type Asks struct {
	pending map[string]Then
	seq     map[string]int
	// said are the warnings shown this session (Out.Warned).
	said map[string]bool
	// Surface is where the person reading this session's messages types
	// commands: a shell (pimem) reads every command pi's way of naming it
	// the pimem way (Out.Output, Out.Notify).
	Surface registry.Surface
}

// Next is a new id: prefix and a number this instance never gave that
// prefix before ("k1", "k2", … for asks; "b1", … for context blocks).
func (a *Asks) Next(prefix string) string {
	if a.seq == nil {
		a.seq = map[string]int{}
	}
	a.seq[prefix]++
	return prefix + numstr.Itoa(a.seq[prefix])
}

// Forget drops every continuation and the warnings shown: a new session
// starts.
func (a *Asks) Forget() { a.pending, a.said = nil, nil }

// Again drops every continuation but keeps the warnings shown: the same
// session starts again (trusted once the person said so), and a warning it
// showed already is not shown twice while the stores start (Out.Starting).
func (a *Asks) Again() { a.pending = nil }

// Said is the warnings shown this session, sorted: the orchestrator keeps
// them in the session's state, so a core restarted after a failure does
// not show them again (TakeBackSaid).
func (a *Asks) Said() []string {
	said := make([]string, 0, len(a.said))
	for t := range a.said {
		said = append(said, t)
	}
	slices.Sort(said)
	return said
}

// TakeBackSaid takes back what Said gave, before the stores start.
func (a *Asks) TakeBackSaid(said []string) {
	for _, t := range said {
		a.warned(t)
	}
}

func (a *Asks) warned(text string) {
	if a.said == nil {
		a.said = map[string]bool{}
	}
	a.said[text] = true
}

func (a *Asks) park(k Then) string {
	id := a.Next("k")
	if a.pending == nil {
		a.pending = map[string]Then{}
	}
	a.pending[id] = k
	return id
}

// Resume hands the host's answer in (the resume export's {id, value}) to
// what waits for it.
func (a *Asks) Resume(out *Out, in gjson.Result) {
	id := jsonr.Get(in, "id").String()
	k, ok := a.pending[id]
	if !ok {
		out.Notify("warning", "pi-memory: nothing is waiting for answer "+strconv.Quote(id)+" (the core was restarted, or it was already answered); the action was not completed.")
		return
	}
	delete(a.pending, id)
	k(out, jsonr.Get(in, "value"))
}

// Select asks the person to pick one option; k receives the option text, or
// null when the dialog was dismissed. Options are cleaned like every text
// (marker.Data) and compared as built: an option never carries memory text.
func (out *Out) Select(title string, options []string, k Then) {
	w := out.dialog("select", title, k)
	clean := make([]string, len(options))
	for i, o := range options {
		clean[i] = marker.Data(o)
	}
	w.Strs("options", clean)
	out.foreground(w.Close())
}

// Confirm asks a yes/no question; k receives true or false.
func (out *Out) Confirm(title, message string, k Then) {
	w := out.dialog("confirm", title, k)
	w.Str("message", marker.Data(message))
	out.foreground(w.Close())
}

// Input asks for a line of text; k receives the text or null.
func (out *Out) Input(title, placeholder string, k Then) {
	w := out.dialog("input", title, k)
	w.Str("placeholder", marker.Data(placeholder))
	out.foreground(w.Close())
}

// Editor opens a multi-line editor on prefill; k receives the edited text,
// or null when the editor was closed without saving.
func (out *Out) Editor(title, prefill string, k Then) {
	w := out.dialog("editor", title, k)
	w.Str("prefill", marker.Data(prefill))
	out.foreground(w.Close())
}

// dialog starts a dialog effect of one kind, its answer going to k; the
// caller adds the kind's own field and ends the envelope with it. The title
// is cleaned like every text: a conflict's names the decision it meets.
func (out *Out) dialog(kind, title string, k Then) *jsonw.Object {
	w := jsonw.Open(nil)
	w.Str("t", "dialog")
	w.Str("id", out.asks.park(k))
	w.Str("kind", kind)
	w.Str("title", marker.Data(title))
	return &w
}

// Complete asks the host to call the current model; k receives {text} or {error}.
func (out *Out) Complete(system, prompt string, maxTokens int, k Then) {
	out.CompleteCall(Call{System: system, Prompt: prompt, MaxTokens: maxTokens}, k)
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
	// ExitMs bounds how long session shutdown waits for a background call
	// before aborting it (0: the host's own bound).
	ExitMs int
}

// CompleteCall asks the host for a model call with options; k receives
// {text, usage?} or {error}.
func (out *Out) CompleteCall(c Call, k Then) {
	id := out.asks.park(k)
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
	if c.Background && c.ExitMs > 0 {
		w.Int("exitMs", int64(c.ExitMs))
	}
	out.foreground(w.Close())
}

// HTTPBackground is a background HTTP ask (see HTTP) that session shutdown
// waits for at most exitMs: the host aborts it after that (its requests
// answer with errors), so quitting waits no longer than the store's config
// says, whatever the requests' own time bounds (decision 001).
func (out *Out) HTTPBackground(requests []byte, exitMs int, k Then) {
	out.add(out.httpAsk(requests, true, exitMs, k))
}

// HTTP asks the host to perform requests (a JSON array of {method, url,
// headers, body, timeoutMs}, decision 001), all at once, each within its timeout; k
// receives the answers in request order. A background ask does not hold the
// event: the host answers later and other effects may follow it in the
// envelope; a foreground one is last.
func (out *Out) HTTP(requests []byte, background bool, k Then) {
	if background {
		out.add(out.httpAsk(requests, true, -1, k))
		return
	}
	out.foreground(out.httpAsk(requests, false, -1, k))
}

// Yield asks for nothing (an http ask of no request, in the foreground):
// the host answers once its event loop has run, and k goes on in the
// resume (decision 018).
func (out *Out) Yield(k Then) {
	out.foreground(out.httpAsk([]byte("[]"), false, -1, k))
}

// Again runs k at once in pimem's commands (cli: no event loop waits),
// elsewhere in the resume of a Yield, when the host has run its event loop
// (decision 018); stop runs instead when the host answers the ask with an
// error: the call it serves was cancelled (Escape in pi).
func (out *Out) Again(cli bool, k, stop func(out *Out)) {
	if cli {
		k(out)
		return
	}
	out.Yield(func(out *Out, in gjson.Result) {
		if jsonr.Get(in, "0.error").Exists() {
			stop(out)
			return
		}
		k(out)
	})
}

// Worker asks a host that can to run the core off its event loop, from a
// replay of this session_start, at a moment between turns (the worker
// effect: decision 001, addendum 3 of 2026-11-29).
func (out *Out) Worker() {
	w := jsonw.Open(nil)
	w.Str("t", "worker")
	out.add(w.Close())
}

// httpAsk is the http effect, its answer going to k; exitMs < 0 leaves the
// shutdown bound to the host.
func (out *Out) httpAsk(requests []byte, background bool, exitMs int, k Then) []byte {
	w := jsonw.Open(nil)
	w.Str("t", "http")
	w.Str("id", out.asks.park(k))
	w.Raw("requests", requests)
	if background {
		w.Bool("background", true)
	}
	if exitMs >= 0 {
		w.Int("exitMs", int64(exitMs))
	}
	return w.Close()
}
