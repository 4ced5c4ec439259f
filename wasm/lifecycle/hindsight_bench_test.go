package lifecycle_test

import (
	"strconv"
	"strings"
	"testing"
)

// benchTurn is a turn of about 3 KiB, as bench row 13 retains, told apart
// by ts (its document id).
func benchTurn(ts int64) []any {
	text := strings.Repeat("the build uses make and TinyGo; ", 45)
	return []any{
		userMsg("question "+strconv.FormatInt(ts, 10)+": "+text, ts),
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}},
	}
}

// BenchmarkAgentEndWithHindsight times agent_end's retain: with the flush
// keeping up (every flush answered, nothing waits; the flush is built in the
// resume of agent_end's ask of no request, untimed, as pi does not wait for
// it) and with 200 jobs queued behind a flush that is out (the queue grows by
// one a call from there).
func BenchmarkAgentEndWithHindsight(b *testing.B) {
	b.Run("keptUp", func(b *testing.B) {
		r := newHSRig(b, `{"url":"http://hs:1"}`, nil)
		for i := 0; i < b.N; i++ {
			r.last = r.callOnly("agent_end", map[string]any{"stopReason": "stop", "messages": benchTurn(int64(1000 + i))})
			b.StopTimer()
			r.last = r.callOnly("resume", map[string]any{"id": r.effects("http")[0].Get("id").String(), "value": []any{}})
			r.answer(ok(retained))
			b.StartTimer()
		}
	})
	b.Run("queued200", func(b *testing.B) {
		r := newHSRig(b, `{"url":"http://hs:1"}`, nil)
		for i := 0; i < 200; i++ {
			r.call("agent_end", map[string]any{"stopReason": "stop", "messages": benchTurn(int64(1000 + i))})
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			r.last = r.callOnly("agent_end", map[string]any{"stopReason": "stop", "messages": benchTurn(int64(2000 + i))})
			b.StopTimer()
			r.callOnly("resume", map[string]any{"id": r.effects("http")[0].Get("id").String(), "value": []any{}})
			b.StartTimer()
		}
	})
	b.Run("off", func(b *testing.B) {
		r := newHSRig(b, "", nil)
		for i := 0; i < b.N; i++ {
			r.call("agent_end", map[string]any{"stopReason": "stop", "messages": benchTurn(int64(1000 + i))})
		}
	})
}

// BenchmarkRetryContextWithHindsight times a retry's context call: the
// recall of its user message is kept, so the call asks nothing and appends
// the same 5 KiB block, over a conversation of 40 messages whose earlier user
// messages carry their own recalled blocks.
func BenchmarkRetryContextWithHindsight(b *testing.B) {
	r := newHSRig(b, bothBanks, nil)
	var msgs []any
	for i := 0; i < 20; i++ {
		ts := int64(100 + i)
		msgs = append(msgs, map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "question " + strconv.Itoa(i) + "\n\n<pi-memory-recall>\n" + strings.Repeat("- an earlier memory line\n", 70) + "</pi-memory-recall>"}}, "timestamp": ts})
		msgs = append(msgs, map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": strings.Repeat("an answer ", 40)}}})
	}
	in := map[string]any{"messages": msgs}
	r.call("context", in)
	memories := `{"results":[` + strings.TrimSuffix(strings.Repeat(`{"text":"the build uses make and TinyGo for the release module"},`, 36), ",") + `]}`
	r.answer(ok(memories), ok(memories))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.call("context", in)
	}
}
