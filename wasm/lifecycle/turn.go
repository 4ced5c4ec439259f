package lifecycle

import (
	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// The moments of a turn. At each, the stores that take part in it act in
// list order; the gate has the last word on what each may do. A store
// follows its configuration as it is at the moment it acts on its own
// (Refresh): before the prompt every store, before a model request, a
// settle, a compaction or the shutdown those taking part. agent_end acts
// under the configuration its run's prompt and requests read.

// beforeAgentStart injects stable memory into the system prompt. Each store
// follows its configuration as it is now and sees the prompt; each store
// with a section renders it (or, when the gate says no, only its cap); the
// budget orders and caps them, and the receipt of what went in is kept for
// /memory last.
func (e *Engine) beforeAgentStart(out *store.Out, in gjson.Result) {
	for _, st := range e.stores {
		st.Refresh(out)
	}
	e.toolsChanged(out)
	for _, st := range e.stores {
		if x, ok := st.(store.Prompter); ok {
			x.Prompt(out, in)
		}
	}
	var sections []budget.Section
	for _, st := range e.stores {
		if x, ok := st.(store.Sectioner); ok {
			sections = append(sections, x.Section(out, e.may(st, store.Inject)))
		}
	}
	text, receipts := budget.Assemble(sections)
	e.last = receipts
	if text != "" {
		out.SystemPromptAppend(text)
	}
	for _, st := range e.stores {
		if x, ok := st.(store.Prompted); ok {
			x.Prompted(out, text, receipts)
		}
	}
}

// context adds what belongs to one model request only (observations, a
// recall). A store's foreground ask ends the envelope.
func (e *Engine) context(out *store.Out, in gjson.Result) {
	for _, st := range e.stores {
		if x, ok := st.(store.Contexter); ok {
			st.Refresh(out)
			x.Context(out, in)
		}
	}
	e.toolsChanged(out)
}

// agentEnd is the end of a run: capture, retain, and what can wait until
// the turn is over.
func (e *Engine) agentEnd(out *store.Out, in gjson.Result) {
	for _, st := range e.stores {
		if x, ok := st.(store.Ender); ok {
			x.AgentEnd(out, in)
		}
	}
}

// agentSettled is pi idle after a run: background work (the observer), and
// the worker asked for if memory grew bulky since the session started.
func (e *Engine) agentSettled(out *store.Out, in gjson.Result) {
	for _, st := range e.stores {
		if x, ok := st.(store.Settler); ok {
			st.Refresh(out)
			x.Settled(out, in)
		}
	}
	e.askWorker(out, in)
}

// sessionBeforeCompact lets a store give pi the compaction's summary.
func (e *Engine) sessionBeforeCompact(out *store.Out, in gjson.Result) {
	for _, st := range e.stores {
		if x, ok := st.(store.Compacter); ok {
			st.Refresh(out)
			x.BeforeCompact(out, in)
		}
	}
}

// sessionBeforeTree lets a store give pi the summary of a branch being left.
func (e *Engine) sessionBeforeTree(out *store.Out, in gjson.Result) {
	for _, st := range e.stores {
		if x, ok := st.(store.Compacter); ok {
			st.Refresh(out)
			x.BeforeTree(out, in)
		}
	}
}
