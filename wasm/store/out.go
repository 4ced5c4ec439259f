package store

import (
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/registry"
)

// Out collects the effects of one export call into the envelope the host reads
// (docs/decisions/001-core-host-contract.md). A foreground ask (a dialog, a
// model call, a foreground http ask) ends the envelope: the host performs it
// after every other effect and resumes the core with its answer, so effects
// added after it, by the stores whose moment comes later, go before it. One
// envelope holds at most one foreground ask.
type Out struct {
	buf     []byte // where Bytes writes the envelope, nil for a new array
	effects [][]byte
	ask     []byte // the foreground ask that ends the envelope, nil when none
	exit    int
	asks    *Asks
	exact   bool // Output is a contract (--json): never reworded for the surface
	// starting: the stores are starting; a warning the session showed
	// already is not shown again (Starting).
	starting bool
}

// NewOut starts the envelope of one export call, written over buf's array
// when it is large enough; asks keeps what waits for the host's answers.
func NewOut(buf []byte, asks *Asks) *Out { return &Out{buf: buf, asks: asks} }

//go:noinline
func (o *Out) add(b []byte) { o.effects = append(o.effects, b) }

// Effect adds an effect this package encoded earlier (ContextSame), kept by
// a store to be sent again without encoding it each time.
func (o *Out) Effect(b []byte) { o.add(b) }

// foreground ends the envelope with an ask.
//
//go:noinline
func (o *Out) foreground(b []byte) {
	if o.ask != nil {
		panic("store: a second foreground ask in one envelope")
	}
	o.ask = b
}

// OutputType is the customType of a command's output in pi's transcript:
// pi's adapter shows it there, keeps it out of every model request, and a
// store reading the branch skips it (decision 001).
const OutputType = "pi-memory-output"

// Output is a command's result: shown in pi's transcript (OutputType),
// printed on stdout by pimem, where the commands it names are named as
// pimem takes them (registry.ForShell) unless the output is Exact.
func (o *Out) Output(text string) {
	// Output stays in pi's transcript: never a secret in it, as in a
	// notice (a file's name, a value said back). An Exact output is JSON,
	// which a redaction could break: each of its strings is redacted.
	if o.exact {
		text = marker.MapJSONStrings(text, func(s string) string { return marker.Data(redacted(s)) })
	} else {
		text = marker.Data(o.said(redacted(text)))
	}
	w := jsonw.Open(nil)
	w.Str("t", "output")
	w.Str("text", text)
	o.add(w.Close())
}

// Exact marks this call's output as a contract (a command's --json): the
// text is sent as written, whatever the surface.
func (o *Out) Exact() { o.exact = true }

// Notify is a message for the person: info, warning or error, naming
// commands as the person's surface takes them.
func (o *Out) Notify(level, text string) {
	// A notice often says back what it was given (an id, a command, a
	// value): never a secret in it, nor in the warnings kept as said
	// (the session's state, Asks.Said).
	text = redacted(text)
	if level == "warning" && o.asks != nil {
		if o.starting && o.asks.said[text] {
			return
		}
		o.asks.warned(text)
	}
	w := jsonw.Open(nil)
	w.Str("t", "notify")
	w.Str("level", level)
	w.Str("text", marker.Data(o.said(text)))
	o.add(w.Close())
}

// said is text for the person of this session's surface.
func (o *Out) said(text string) string {
	if o.asks != nil && o.asks.Surface == registry.Shell {
		return registry.ForShell(text)
	}
	return text
}

// Starting marks the stores' start (on) and its end: a session that starts
// again (trusted once the person said so, or a core restarted after a
// failure, Asks.TakeBackSaid) does not show a warning twice; a change said
// later, once started, is said whole.
func (o *Out) Starting(on bool) { o.starting = on }

// Warned reports whether this session already showed text as a warning.
func (o *Out) Warned(text string) bool {
	text = redacted(text)
	return o.asks != nil && o.asks.said[text]
}

// Status sets (or with clear, removes) a footer status entry.
func (o *Out) Status(key, text string, clear bool) {
	w := jsonw.Open(nil)
	w.Str("t", "status")
	w.Str("key", key)
	if clear {
		w.Null("text")
	} else {
		w.Str("text", marker.Data(text))
	}
	o.add(w.Close())
}

// SystemPromptAppend is text the host appends to this run's system prompt.
// It carries no block marker of ours (no store keeps text from the system
// prompt), so one written in a memory file is made inert like any other.
func (o *Out) SystemPromptAppend(text string) {
	w := jsonw.Open(nil)
	w.Str("t", "system_prompt_append")
	w.Str("text", marker.Data(text))
	o.add(w.Close())
}

// Message is a custom message injected with the user's prompt.
func (o *Out) Message(customType, content string, display bool) {
	w := jsonw.Open(nil)
	w.Str("t", "message")
	w.Str("customType", customType)
	w.Str("content", marker.Plain(content))
	w.Bool("display", display)
	o.add(w.Close())
}

// Fail ends a command with a user error (exit 1) and a message saying what to do.
//
//go:noinline
func (o *Out) Fail(text string) {
	o.Notify("error", text)
	o.exit = 1
}

// Usage ends a command with a usage error (exit 2).
func (o *Out) Usage(text string) {
	o.Notify("error", text)
	o.exit = 2
}

// SetExit sets the exit code: 1 for a problem found (doctor), 2 for usage.
func (o *Out) SetExit(code int) { o.exit = code }

// Exit returns the exit code decided so far.
func (o *Out) Exit() int { return o.exit }

// Blocked reports whether a foreground ask ends the envelope.
func (o *Out) Blocked() bool { return o.ask != nil }

// Bytes is the envelope: {"v":1,"effects":[…],"exit":N}, the foreground
// ask last.
func (o *Out) Bytes() []byte {
	if o.ask != nil {
		o.effects = append(o.effects, o.ask)
		o.ask = nil
	}
	size := 64
	for _, e := range o.effects {
		size += len(e) + 1
	}
	dst := o.buf[:0]
	if cap(dst) < size {
		dst = make([]byte, 0, size)
	}
	w := jsonw.Open(dst)
	w.Int("v", 1)
	b := append(w.B, `,"effects":[`...)
	for i, e := range o.effects {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	b = append(b, ']')
	w.B = b
	w.Int("exit", int64(o.exit))
	return w.Close()
}

// ContextMessage is one custom message the context event inserts.
type ContextMessage struct {
	CustomType, Content string
}

// ContextMessages are custom messages for the host to insert at index of
// the context event's messages (display false), for this model call only.
// id names them, so that a later request that gets the same messages can
// name them (ContextSame) instead of sending them again.
func (o *Out) ContextMessages(index int, id string, msgs []ContextMessage) {
	w := jsonw.Open(nil)
	w.Str("t", "context_messages")
	w.Int("index", int64(index))
	w.Str("id", id)
	w.Raw("messages", jsonw.Array(nil, len(msgs), func(b []byte, i int) []byte {
		m := jsonw.Open(b)
		m.Str("customType", msgs[i].CustomType)
		m.Str("content", marker.Plain(msgs[i].Content))
		return m.Close()
	}))
	o.add(w.Close())
}

// ContextSame is a context_messages effect that repeats the messages of the
// one named id, which this instance sent earlier in this session, at index:
// the host keeps them and inserts them again (decision 001, addendum). Out.Effect
// adds it.
func ContextSame(index int, id string) []byte {
	w := jsonw.Open(nil)
	w.Str("t", "context_messages")
	w.Int("index", int64(index))
	w.Str("same", id)
	return w.Close()
}

// SessionEntry is a custom entry for the host to append to the session
// (pi.appendEntry): data is one JSON object.
func (o *Out) SessionEntry(customType string, data []byte) {
	w := jsonw.Open(nil)
	w.Str("t", "session_entry")
	w.Str("customType", customType)
	w.Raw("data", data)
	o.add(w.Close())
}

// Compact asks the host to compact the session now if it is idle (pi's
// ctx.compact(); its session_before_compact then asks the core for the
// summary). A busy host skips it: the next settle plans it again.
func (o *Out) Compact() {
	o.add([]byte(`{"t":"compact"}`))
}

// Compaction is the session_before_compact result: the summary pi records
// instead of its own. usage is the model usage of the call that completed
// the observations (nil when none ran).
func (o *Out) Compaction(summary string, details []byte, firstKept string, tokensBefore int64, usage []byte) {
	w := jsonw.Open(nil)
	w.Str("t", "compaction")
	w.Str("summary", marker.Plain(summary))
	w.Raw("details", details)
	w.Str("firstKeptEntryId", firstKept)
	w.Int("tokensBefore", tokensBefore)
	if len(usage) > 0 {
		w.Raw("usage", usage)
	}
	o.add(w.Close())
}

// BranchSummary is the session_before_tree result: the summary of the
// branch being left.
func (o *Out) BranchSummary(summary string, details []byte) {
	w := jsonw.Open(nil)
	w.Str("t", "branch_summary")
	w.Str("summary", marker.Plain(summary))
	w.Raw("details", details)
	o.add(w.Close())
}

// ContextAppend is text for the host to append to the message at index of
// the context event's messages (a user message), for this model call only.
func (o *Out) ContextAppend(index int, text string) {
	w := jsonw.Open(nil)
	w.Str("t", "context_append")
	w.Int("index", int64(index))
	w.Str("text", marker.Plain(text))
	o.add(w.Close())
}

// State is the session's state for the host to keep and hand back when it
// replays session_start after a trap ("restore"): one JSON object, the
// newest replacing the one before.
func (o *Out) State(state []byte) {
	w := jsonw.Open(nil)
	w.Str("t", "state")
	w.Raw("state", state)
	o.add(w.Close())
}

// Tools makes exactly these of the registry's tools active.
func (o *Out) Tools(active []string) {
	w := jsonw.Open(nil)
	w.Str("t", "tools")
	w.Strs("active", active)
	o.add(w.Close())
}

// ToolResult is the tool export's answer to the model (or an MCP client).
// Its text is redacted and cleaned (marker.Data) here, for every tool: an answer may say back what
// the call was given (a query, an id, an argument's name), and a tool's
// caller is a model, whose provider must not receive a secret from us.
func (o *Out) ToolResult(text string, isError bool, details []byte) {
	o.toolResult(marker.Data, text, isError, details)
}

// ToolResultBlocks is a tool's answer that carries blocks of ours
// (marker.Wrap, which makes what they hold inert): cleaned by marker.Plain,
// so that its markers stay for Strip to find when a later turn keeps the
// conversation (recalled memory is never retained again).
func (o *Out) ToolResultBlocks(text string, isError bool) {
	o.toolResult(marker.Plain, text, isError, nil)
}

func (o *Out) toolResult(clean func(string) string, text string, isError bool, details []byte) {
	if redact.Contains(text) {
		text, _ = redact.String(text)
	}
	w := jsonw.Open(nil)
	w.Str("t", "tool_result")
	w.Str("text", clean(text))
	if isError {
		w.Bool("isError", true)
	}
	if len(details) > 0 {
		w.Raw("details", details)
	}
	o.add(w.Close())
}

// redacted is s with every secret in it marked.
func redacted(s string) string {
	s, _ = redact.String(s)
	return s
}
