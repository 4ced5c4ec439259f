package hindsight

import (
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// recall adds the recalled block to the newest user message of one model
// request. The outcome is keyed on that message (its time and the SHA-1 of
// its text) and kept: a retry or a tool-loop step of the same message gets
// the same bytes and asks nothing. A miss asks every selected bank at once,
// each within recall.timeoutMs; a bank that fails or is slow is left out and
// named in the footer, the others still count.
func (h *driver) recall(out *store.Out, in gjson.Result) {
	h.runCfg = true
	if h.env.May(h, store.Inject) != "" || !recallRuns(h.cfg, h.modeNow()) {
		return
	}
	index, ts, text := newestUserMessage(jsonr.Get(in, "messages"))
	if index < 0 || text == "" {
		return
	}
	key := recallKey(ts, text)
	h.recalled = true
	if block, ok := h.cache.get(key); ok {
		if block != "" {
			out.ContextAppend(index, block)
		}
		return
	}
	banks := h.banks()
	reqs := recallRequests(h.cfg, banks, h.repoKey, text)
	out.HTTP(encode(nil, reqs), false, func(out *store.Out, v gjson.Result) {
		rs := recalls(banks, []byte(v.Raw))
		block := render(rs, h.cfg.RecallMaxTokens)
		h.cache.put(key, block)
		h.last, h.lastBlock = rs, block
		if block != "" {
			out.ContextAppend(index, block)
		}
		h.unreached = recallFooter(rs)
	})
}

// retain queues the run in the outbox, one job per bank, before any network
// call, then flushes in the background. Nothing when memory may not
// capture, in read-only or ignored mode, or after next-opt-out (which it
// clears). The flush is built after pi's hook has returned: agent_end asks
// for nothing (a background http ask of no request, which the host answers
// at once, decision 001) and the flush runs in its resume, so the hook costs
// the durable append alone. Under TinyGo the resume also collects the
// module's garbage: TinyGo collects when an allocation finds its heap full,
// and a collection inside agent_end would double that call (bench row 13);
// after the hook, the next turns start with a heap that has room.
func (h *driver) retain(out *store.Out, in gjson.Result) {
	optOut := h.optOut
	h.optOut = false
	// The run's prompt or last model request checked the config (runCfg); a run that
	// made none is checked here.
	if !h.runCfg {
		h.refreshConfig()
	}
	h.runCfg = false
	if h.notRetainedNow(optOut) != "" {
		return
	}
	t := serializeTurn(jsonr.RawAt(in, "messages"), h.repoKey, h.cfg.RetainMaxChars)
	if t.Content == "" {
		return
	}
	if t.UserMs == 0 {
		t.UserMs = h.h.Now()
	}
	if err := h.queue(t, sourcePi); err != nil {
		out.Notify("warning", "pi-memory: Hindsight could not queue this turn in "+h.outbox+": "+err.Error()+". It is not retained.")
		return
	}
	h.countWaiting()
	out.HTTPBackground(encode(nil, nil), h.cfg.ShutdownMs, func(out *store.Out, _ gjson.Result) {
		h.flush(out, true, flushMs, nil)
		collect()
	})
}

// flushOut says a background flush is out, and not yet taken as lost: the
// next one waits for it (it covers the queue as it was).
func (h *driver) flushOut() bool {
	return h.flushing && !flushLost(h.flushAt, h.h.Now())
}

// queue appends one job per selected bank for a turn or an explicit retain.
func (h *driver) queue(t turn, source string) error {
	now := h.h.Now()
	recs := jobRecords(h.banks(), t, h.repoKey, h.sessionID, source, now)
	return h.appendOutbox(recs, nil)
}

// flush sends the due jobs, a request per bank of at most 20, and records
// each outcome. A background flush while another is out sends nothing (the
// one out covers the queue as it was; the next turn sends the rest). The
// jobs are claimed under the outbox's lock first (claimDue): another
// process's flush leaves them alone until they are done, failed, or the
// claim runs out, and the lock is not held while the requests are out.
func (h *driver) flush(out *store.Out, background bool, timeoutMs int, then func(out *store.Out, sent, failed int, problem string)) {
	if then == nil {
		then = func(*store.Out, int, int, string) {}
	}
	if background && h.flushOut() {
		h.countWaiting()
		then(out, 0, 0, "")
		return
	}
	due, err := h.claimDue(h.h.Now() + int64(timeoutMs) + claimSlackMs)
	if err != nil {
		then(out, 0, 0, h.outbox+": "+err.Error())
		return
	}
	if len(due) == 0 {
		h.countWaiting()
		then(out, 0, 0, "")
		return
	}
	batches := flushBatches(h.cfg, due, timeoutMs)
	reqs := batchRequests(batches)
	if background {
		h.flushing, h.flushAt = true, h.h.Now()
	}
	h.countWaiting()
	ask := func(k store.Then) { out.HTTP(encode(nil, reqs), false, k) }
	if background {
		// Quitting waits for a background flush no longer than
		// flush.shutdownMs: what it did not send waits in the outbox.
		ask = func(k store.Then) { out.HTTPBackground(encode(nil, reqs), h.cfg.ShutdownMs, k) }
	}
	ask(func(out *store.Out, v gjson.Result) {
		if background {
			h.flushing = false
		}
		f := settle(h.cfg, batches, readResponses([]byte(v.Raw), len(batches)), h.h.Now())
		if err := h.appendOutbox(f.Outbox, f.Dead); err != nil {
			out.Notify("warning", "pi-memory: Hindsight could not record the flush in "+h.outbox+": "+err.Error()+". The jobs will be sent again (the server replaces them).")
		}
		if w := f.gaveUp(h.cfg.MaxAttempts, h.dead); w != "" {
			out.Notify("warning", w)
		}
		h.countWaiting()
		then(out, f.Sent, f.Failed, f.Problem)
	})
}

// shutdown flushes what is due within what is left of flush.shutdownMs
// once the host has waited waitedMs for the background asks (a flush from
// agent_end among them): quitting waits for Hindsight at most
// flush.shutdownMs in all, counted from when pi began to quit. A job whose
// backoff ran out during that wait would otherwise start a second full
// bound. What is not sent waits in the outbox for the next session.
func (h *driver) shutdown(out *store.Out, waitedMs int64) {
	if h.env.May(h, store.Capture) != "" || h.cfg.ShutdownMs == 0 {
		return
	}
	h.flushing = false // a background flush still out is lost with the session
	left := int64(h.cfg.ShutdownMs) - max(0, waitedMs)
	if left <= 0 {
		return
	}
	h.flush(out, false, int(left), nil)
}
