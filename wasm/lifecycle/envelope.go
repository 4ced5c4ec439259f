package lifecycle

import "github.com/pi-memory/pi-memory/wasm/jsonw"

// Out collects the effects of one export call into the envelope the host reads
// (docs/decisions/001-core-host-contract.md).
type Out struct {
	effects [][]byte
	exit    int
	blocked bool // a dialog or completion was emitted: nothing may follow
}

func (o *Out) add(b []byte) {
	if o.blocked {
		panic("lifecycle: effect after a dialog or completion")
	}
	o.effects = append(o.effects, b)
}

// Output is a command's result: shown in pi, printed on stdout by pimem.
func (o *Out) Output(text string) {
	w := jsonw.Open(nil)
	w.Str("t", "output")
	w.Str("text", text)
	o.add(w.Close())
}

// Notify is a message for the person: info, warning or error.
func (o *Out) Notify(level, text string) {
	w := jsonw.Open(nil)
	w.Str("t", "notify")
	w.Str("level", level)
	w.Str("text", text)
	o.add(w.Close())
}

// Status sets (or with clear, removes) a footer status entry.
func (o *Out) Status(key, text string, clear bool) {
	w := jsonw.Open(nil)
	w.Str("t", "status")
	w.Str("key", key)
	if clear {
		w.Null("text")
	} else {
		w.Str("text", text)
	}
	o.add(w.Close())
}

// SystemPromptAppend is text the host appends to this run's system prompt.
func (o *Out) SystemPromptAppend(text string) {
	w := jsonw.Open(nil)
	w.Str("t", "system_prompt_append")
	w.Str("text", text)
	o.add(w.Close())
}

// Message is a custom message injected with the user's prompt.
func (o *Out) Message(customType, content string, display bool) {
	w := jsonw.Open(nil)
	w.Str("t", "message")
	w.Str("customType", customType)
	w.Str("content", content)
	w.Bool("display", display)
	o.add(w.Close())
}

// Fail ends a command with a user error (exit 1) and a message saying what to do.
func (o *Out) Fail(text string) {
	o.Notify("error", text)
	o.exit = 1
}

// Usage ends a command with a usage error (exit 2).
func (o *Out) Usage(text string) {
	o.Notify("error", text)
	o.exit = 2
}

// Exit returns the exit code decided so far.
func (o *Out) Exit() int { return o.exit }

// Blocked reports whether a dialog or completion is pending.
func (o *Out) Blocked() bool { return o.blocked }

func (o *Out) bytes() []byte {
	w := jsonw.Open(make([]byte, 0, 256))
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
