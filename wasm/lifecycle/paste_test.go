package lifecycle

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// pastedLog is a build log of about n bytes, as a person pastes one.
func pastedLog(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString("2026-11-20T09:00:00 INFO request path=/api/v1/items status=200 dur=")
		b.WriteString(strings.Repeat("3", i%7+1))
		b.WriteString("ms\n")
	}
	return b.String()
}

// h-v93 a1: a turn whose prompt is an 8 MB pasted log reads the log's ends,
// not all of it: the observer is shown them around a line saying how much
// it was not, while what the message adds to the model's context is counted
// in full (the observer runs: 2M tokens are past its threshold); a decision
// typed after the log is still captured; a password its cut would separate
// from its label is not shown.
func TestAPastedLogIsReadAsItsEnds(t *testing.T) {
	const v = "Vq7Lm2Zr9KxW"
	log := pastedLog(8 << 20)
	cut := store.MaxRead * 2 / 3
	prompt := log[:cut-6] + "password:\n  " + v + "\n" + log[cut-6:] + "\nDecision: Use pnpm for package management"
	r := newOmRig(t, observerConfig, "")
	r.add(`"type":"message","message":{"role":"user","content":[{"type":"text","text":` + quote(prompt) + `}]}`)
	r.add(`"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"The build failed in step 3."}]}`)
	r.exchange("before_agent_start", `{"prompt":`+quote(prompt)+`,"messageType":"user"}`, nil)
	r.exchange("context", `{"messages":[{"role":"user","content":[{"type":"text","text":`+quote(prompt)+`}]}]}`, nil)
	r.exchange("agent_end", `{"stopReason":"stop","aborted":false}`, nil)
	d := r.last.Get("effects.#(t==\"dialog\")")
	require.Contains(t, d.Raw, "Use pnpm for package management", "the decision after the log is asked about")
	r.raw("resume", `{"id":`+quote(d.Get("id").String())+`,"value":false}`)

	r.settle(answerText(observerAnswer))
	require.Equal(t, 1, len(r.calls), "2M tokens of conversation start the observer")
	shown := r.calls[0].Get("prompt").String()
	require.Contains(t, shown, " bytes not read …]")
	require.Contains(t, shown, "The build failed in step 3.")
	require.NotContains(t, shown, v)
	require.True(t, len(shown) < 2*store.MaxRead, "the observer is shown %d bytes of an 8 MB message", len(shown))
}

// h-v94 a1: a tool call's argument of megabytes (a model writing a big
// file) is read as its ends too, not redacted whole.
func TestABigToolArgumentIsReadAsItsEnds(t *testing.T) {
	log := pastedLog(8 << 20)
	r := newOmRig(t, observerConfig, "")
	r.add(`"type":"message","message":{"role":"user","content":"write the log"}`)
	r.add(`"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"w1","name":"write","arguments":{"path":"build.log","content":` + quote(log) + `}}]}`)
	r.add(`"type":"message","message":{"role":"toolResult","toolCallId":"w1","toolName":"write","content":[{"type":"text","text":"written"}]}`)
	r.settle(answerText(observerAnswer))
	require.Equal(t, 1, len(r.calls))
	shown := r.calls[0].Get("prompt").String()
	require.Contains(t, shown, `write(path="build.log", content=`)
	require.True(t, len(shown) < store.MaxRead, "the observer is shown %d bytes", len(shown))
}
