package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
)

// Issue 25, item 6: one dialog held the server for 10 minutes. A
// decision_propose waiting for the person held the core, so a client that
// cancelled the call, answered the question with an error or with content
// the form does not take, or never came back with the answer of a
// 2026-07-28 input request left every later call waiting up to 10 minutes,
// and the end of its input no longer ended the process. The timings below
// are ceilings, generous on a loaded machine: what they catch is minutes.

// A cancelled request is not answered (the spec says not to), the question
// put to the person is withdrawn and counts as dismissed at once, and the
// next call is answered at once.
func TestMCPCancelledProposalIsNotAnsweredAndWritesNothing(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{"elicitation":{}}`)
	p.send(t, propose(1, "Deploy only on Tuesdays"))
	ask := p.next(t, "the question", isElicitation)
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"the client's request timed out"}}`)
	withdrawn := p.nextWithin(t, prompt, "the question withdrawn", func(m map[string]any) bool {
		params, _ := m["params"].(map[string]any)
		return m["method"] == "notifications/cancelled" && params["requestId"] == ask["id"]
	})
	require.True(t, withdrawn != nil)
	p.send(t, toolCallLine(2, "decision_list"))
	require.Contains(t, resultText(t, p.answerWithin(t, prompt, 2)), "No active decisions.")
	// The person answers the withdrawn question: it changes nothing.
	askID, _ := json.Marshal(ask["id"])
	p.send(t, `{"jsonrpc":"2.0","id":`+string(askID)+`,"result":{"action":"accept","content":{"answer":true}}}`)
	p.send(t, propose(3, "Deploy only on Tuesdays"))
	require.Contains(t, resultText(t, p.answerWithin(t, prompt, 3)), "declined this decision earlier", "it counted as dismissed")
	p.in.Close()
	require.Equal(t, 0, p.exitsWithin(t, prompt))
	require.Equal(t, 0, len(p.seen(isAnswerTo(1))), "the cancelled request was answered")
	noDecisions(t, dir)
}

// A question answered with a JSON-RPC error, or with content the form does
// not take, is a dismissal: the call ends writing nothing, and the next one
// is answered at once.
func TestMCPElicitationAnsweredWithoutAFormAnswerIsADismissal(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{"elicitation":{}}`)
	for i, answer := range []string{
		`"error":{"code":-32603,"message":"the client's form failed"}`,
		`"result":{"action":"accept","content":{}}`,
		`"result":{"action":"accept","content":{"answer":"yes"}}`,
		`"result":{"action":"accept","content":{"answer":1}}`,
		`"result":{"action":"accept"}`,
		`"result":"accept"`,
	} {
		id := 10 + 2*i
		p.send(t, propose(id, fmt.Sprintf("Release train number %d leaves on %s", i, words[i])))
		ask := p.next(t, "the question", isElicitation)
		askID, _ := json.Marshal(ask["id"])
		p.send(t, `{"jsonrpc":"2.0","id":`+string(askID)+`,`+answer+`}`)
		text := resultText(t, p.answerWithin(t, prompt, id))
		require.Contains(t, text, "nothing was written", answer)
		p.send(t, toolCallLine(id+1, "memory_status"))
		require.Contains(t, resultText(t, p.answerWithin(t, prompt, id+1)), "decisions: on", "after %s", answer)
		noDecisions(t, dir)
	}
	p.in.Close()
	require.Equal(t, 0, p.exitsWithin(t, prompt))
}

// While a question waits for the person, other calls go on: the core waits
// for no one.
func TestMCPLaterCallsAreNotHeldByAWaitingQuestion(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{"elicitation":{}}`)
	p.send(t, propose(1, "Deploy only on Tuesdays"))
	ask := p.next(t, "the question", isElicitation)
	p.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_remember","arguments":{"text":"I always use pnpm"}}}`)
	require.Contains(t, resultText(t, p.answerWithin(t, prompt, 2)), "Remembered")
	p.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"pnpm"}}}`)
	require.Contains(t, resultText(t, p.answerWithin(t, prompt, 3)), "I always use pnpm")
	askID, _ := json.Marshal(ask["id"])
	p.send(t, `{"jsonrpc":"2.0","id":`+string(askID)+`,"result":{"action":"accept","content":{"answer":true}}}`)
	require.Contains(t, resultText(t, p.answerWithin(t, prompt, 1)), "Recorded D-")
	b, _ := os.ReadFile(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	require.Contains(t, string(b), "Deploy only on Tuesdays")
	p.in.Close()
	require.Equal(t, 0, p.exitsWithin(t, prompt))
}

// A client of 2026-07-28 gets a result asking for input; one that never
// calls again holds nothing (other calls are answered at once), and the
// question expires within inputWait as a dismissal.
func TestMCPInputRequestNeverAnsweredExpiresAndHoldsNothing(t *testing.T) {
	defer func(w time.Duration) { inputWait = w }(inputWait)
	inputWait = time.Second
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := serveMCP(t, dir, agent, "2026-07-28", `{"elicitation":{}}`)
	p.send(t, propose(1, "Deploy only on Tuesdays"))
	r := p.answerWithin(t, prompt, 1)["result"].(map[string]any)
	require.Equal(t, "input_required", r["resultType"], "%v", r)
	state, _ := r["requestState"].(string)
	require.True(t, state != "", "a requestState: %v", r)
	p.send(t, toolCallLine(2, "memory_status"))
	require.Contains(t, resultText(t, p.answerWithin(t, prompt, 2)), "decisions: on")
	p.send(t, toolCallLine(3, "decision_list"))
	require.Contains(t, resultText(t, p.answerWithin(t, prompt, 3)), "No active decisions.")

	time.Sleep(inputWait + 2*time.Second)
	p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"decision_propose","arguments":{"text":"Deploy only on Tuesdays"},"requestState":%q,"inputResponses":{"dialog":{"action":"accept","content":{"answer":true}}}}}`, state))
	late := p.answerWithin(t, prompt, 4)
	require.Contains(t, resultText(t, late), "no longer waiting")
	noDecisions(t, dir)
	p.in.Close()
	require.Equal(t, 0, p.exitsWithin(t, prompt))
}

// The end of the client's input ends the process promptly, whatever waits:
// a question no one answered, one answered with an error and a call after
// it, an input request never answered. Nothing is written.
func TestMCPClosingTheInputEndsTheProcessWhateverWaits(t *testing.T) {
	for _, c := range []struct {
		name, version string
		steps         func(t *testing.T, p *mcpProc)
	}{
		{"a question unanswered", "2025-06-18", func(t *testing.T, p *mcpProc) {
			p.send(t, propose(1, "Deploy only on Tuesdays"))
			p.next(t, "the question", isElicitation)
		}},
		{"a question answered with an error, and a call after it", "2025-06-18", func(t *testing.T, p *mcpProc) {
			p.send(t, propose(1, "Deploy only on Tuesdays"))
			ask := p.next(t, "the question", isElicitation)
			askID, _ := json.Marshal(ask["id"])
			p.send(t, `{"jsonrpc":"2.0","id":`+string(askID)+`,"error":{"code":-32000,"message":"no"}}`)
			p.send(t, toolCallLine(2, "memory_status"))
		}},
		{"an input request never answered", "2026-07-28", func(t *testing.T, p *mcpProc) {
			p.send(t, propose(1, "Deploy only on Tuesdays"))
			p.answer(t, 1)
			p.send(t, toolCallLine(2, "memory_status"))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
			p := startMCPAt(t, dir, agent, c.version, `{"elicitation":{}}`)
			c.steps(t, p)
			start := time.Now()
			p.in.Close()
			require.Equal(t, 0, p.exitsWithin(t, prompt), "ended %s after its input", time.Since(start))
			noDecisions(t, dir)
			require.True(t, !strings.Contains(fmt.Sprint(p.seen(isAnswerTo(1))), "Recorded"), "nothing recorded")
		})
	}
}

// Two questions open at once (the core no longer waits for either): each
// answer goes to its own call.
func TestMCPTwoQuestionsAtOnceEachTakeTheirOwnAnswer(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{"elicitation":{}}`)
	p.send(t, propose(1, "Deploy only on Tuesdays"))
	p.send(t, propose(2, "Squash commits before merging"))
	asks := map[string]string{}
	for len(asks) < 2 {
		ask := p.next(t, "a question", isElicitation)
		id, _ := json.Marshal(ask["id"])
		asks[ask["params"].(map[string]any)["message"].(string)] = string(id)
	}
	for msg, id := range asks {
		answer := `{"action":"decline"}`
		if strings.Contains(msg, "Squash") {
			answer = `{"action":"accept","content":{"answer":true}}`
		}
		p.send(t, `{"jsonrpc":"2.0","id":`+id+`,"result":`+answer+`}`)
	}
	answers := map[float64]string{}
	for len(answers) < 2 {
		m := p.nextWithin(t, prompt, "the two answers", func(m map[string]any) bool { return isAnswerTo(1)(m) || isAnswerTo(2)(m) })
		answers[m["id"].(float64)] = resultText(t, m)
	}
	require.Contains(t, answers[2], "Recorded D-")
	require.Contains(t, answers[1], "declined")
	b, _ := os.ReadFile(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	require.Contains(t, string(b), "Squash commits before merging")
	require.NotContains(t, string(b), "Deploy only on Tuesdays")
	p.in.Close()
	require.Equal(t, 0, p.exitsWithin(t, prompt))
}

// Two clients, each with a server, propose one decision and both people
// accept at once: it is recorded once.
func TestMCPTwoClientsAcceptingOneProposalRecordItOnce(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	a := startMCP(t, dir, agent, `{"elicitation":{}}`)
	b := startMCP(t, dir, agent, `{"elicitation":{}}`)
	var ids []string
	for _, p := range []*mcpProc{a, b} {
		p.send(t, propose(1, "Deploy only on Tuesdays"))
		ask := p.next(t, "the question", isElicitation)
		id, _ := json.Marshal(ask["id"])
		ids = append(ids, string(id))
	}
	for i, p := range []*mcpProc{a, b} {
		p.send(t, `{"jsonrpc":"2.0","id":`+ids[i]+`,"result":{"action":"accept","content":{"answer":true}}}`)
	}
	texts := []string{resultText(t, a.answerWithin(t, prompt, 1)), resultText(t, b.answerWithin(t, prompt, 1))}
	log, _ := os.ReadFile(filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl"))
	require.Equal(t, 1, strings.Count(string(log), "Deploy only on Tuesdays"), "%s\n%s", texts, log)
}

// A client that cancels a memory_remember while it writes: the note is
// written whole or not at all, no lock or temp file is left, and the session
// goes on.
func TestMCPCancelledMidWriteLeavesAWholeFile(t *testing.T) {
	dir, agent, _ := onCore(t, testmod.Cores[0].Path(t))
	p := startMCP(t, dir, agent, `{}`)
	facts := strings.Fields("amber basil cedar delta ember fjord garnet harbor indigo jasper kelp lotus")
	for i, f := range facts {
		p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_remember","arguments":{"text":"the %s service deploys on its own"}}}`, i+1, f))
		p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`, i+1))
	}
	p.send(t, toolCallLine(100, "memory_status"))
	require.Contains(t, resultText(t, p.answerWithin(t, prompt, 100)), "notes: on")
	p.in.Close()
	require.Equal(t, 0, p.exitsWithin(t, prompt))
	require.Equal(t, []string(nil), crashLeftovers(t, dir, agent))
	notes, _ := os.ReadFile(filepath.Join(dir, ".pi", "memory", "MEMORY.md"))
	for _, l := range strings.Split(string(notes), "\n") {
		require.True(t, l == "" || l == "## Notes" || strings.HasSuffix(l, " service deploys on its own"), "a whole line: %q", l)
	}
}
