package hindsight

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// Hindsight's moments (wasm/store).

// storeName is the store's name in the registry.
const storeName = "hindsight"

func (h *driver) Name() string { return storeName }

// Commands are /hindsight's subcommands.
func (h *driver) Commands() map[string]func(c *store.Cmd) {
	return map[string]func(c *store.Cmd){
		"status":       h.cmdStatus,
		"flush":        h.cmdFlush,
		"doctor":       h.cmdDoctor,
		"mode":         h.cmdMode,
		"next-opt-out": h.cmdOptOut,
		"bank":         h.cmdBank,
		"import":       h.cmdImport,
	}
}

func (h *driver) Start(out *store.Out, in gjson.Result) { h.start(out, in) }

// Prompted makes the run's tools follow hindsight.json as it is now.
func (h *driver) Prompted(out *store.Out, _ string, _ []budget.Receipt) { h.runCfg = true }

// Context recalls for the newest user message.
func (h *driver) Context(out *store.Out, in gjson.Result) { h.recall(out, in) }

// AgentEnd queues the run in the outbox, and flushes in the background.
func (h *driver) AgentEnd(out *store.Out, in gjson.Result) { h.retain(out, in) }

// Shutdown flushes what is due within what is left of flush.shutdownMs.
func (h *driver) Shutdown(out *store.Out, in gjson.Result) {
	h.shutdown(out, jsonr.Get(in, "waitedMs").Int())
}

// ActiveTools are Hindsight's tools the model may call now.
func (h *driver) ActiveTools() []string { return h.activeTools() }

// Kept is /hindsight next-opt-out while the run it keeps out is still to
// come: a restart of the core in between must not retain that run.
func (h *driver) Kept() []byte {
	if !h.optOut {
		return nil
	}
	return []byte(`{"optOut":true}`)
}

// TakeBack takes back what Kept wrote.
func (h *driver) TakeBack(v gjson.Result) { h.optOut = jsonr.Get(v, "optOut").Bool() }

// Receipt is the newest recall, for /memory last.
func (h *driver) Receipt() (store.Receipt, bool) {
	if !h.recalled {
		return store.Receipt{}, false
	}
	return store.Receipt{Key: "recall", Text: receiptText(h.last, h.lastBlock), JSON: receiptJSON(h.last, h.lastBlock)}, true
}

// Tool runs one of Hindsight's tools for the model: tool_result last,
// after at most one foreground http ask.
func (h *driver) Tool(out *store.Out, name string, params gjson.Result) {
	if name == "hindsight_status" {
		out.ToolResult(h.statusNow(), false, nil)
		return
	}
	if why := h.env.May(h, store.Capture); why != "" {
		out.ToolResult("Hindsight is not available: "+why, true, nil)
		return
	}
	switch name {
	case "hindsight_recall":
		q := strings.TrimSpace(jsonr.Get(params, "query").String())
		if q == "" {
			out.ToolResult("hindsight_recall needs a query.", true, nil)
			return
		}
		banks := h.banks()
		reqs := recallRequests(h.cfg, banks, h.repoKey, q)
		out.HTTP(encode(nil, reqs), false, func(out *store.Out, v gjson.Result) {
			text, isError := recallReply(recalls(banks, []byte(v.Raw)), h.cfg.RecallMaxTokens)
			out.ToolResultBlocks(text, isError)
		})
	case "hindsight_retain":
		t, ok := toolTurn(jsonr.Get(params, "content").String(), jsonr.Get(params, "context").String(), h.repoKey, h.cfg.RetainMaxChars)
		if !ok {
			out.ToolResult("hindsight_retain needs content.", true, nil)
			return
		}
		if why := h.notRetainedNow(h.optOut); why != "" {
			out.ToolResult("Not retained: "+why+".", true, nil)
			return
		}
		t.UserMs = h.h.Now()
		if err := h.queue(t, sourceTool); err != nil {
			out.ToolResult("Not retained: could not queue it in "+h.outbox+": "+err.Error(), true, nil)
			return
		}
		h.flush(out, false, toolWaitMs, func(out *store.Out, _, failed int, problem string) {
			out.ToolResult(retainReply(failed, problem), false, nil)
		})
	case "hindsight_reflect":
		q := strings.TrimSpace(jsonr.Get(params, "query").String())
		banks := h.banks()
		if q == "" || len(banks) == 0 {
			out.ToolResult("hindsight_reflect needs a query.", true, nil)
			return
		}
		out.HTTP(encode(nil, []request{reflectRequest(h.cfg, banks[0], q, toolWaitMs)}), false, func(out *store.Out, v gjson.Result) {
			text, isError := reflectReply([]byte(v.Raw))
			out.ToolResultBlocks(text, isError)
		})
	default:
		out.ToolResult("pi-memory has no tool "+strconv.Quote(name)+".", true, nil)
	}
}
