package lifecycle_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hindsight"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/lifecycle"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/tidwall/gjson"
)

const hsSecret = "ghp_EXAMPLEexample0123456789EXAMPLEexamp"

// hsRig is one pi process with Hindsight configured (both banks) over real
// folders and a manual clock.
type hsRig struct {
	t              testing.TB
	clock          *fsys.Manual
	e              *lifecycle.Engine
	project, agent string
	last           gjson.Result
}

func newHSRig(t testing.TB, config string, start map[string]any) *hsRig {
	return newHSRigOn(t, config, start, nil)
}

// newHSRigOn is newHSRig over the host wrap makes of the real one (nil: as is).
func newHSRigOn(t testing.TB, config string, start map[string]any, wrap func(hostio.Host) hostio.Host) *hsRig {
	base := t.TempDir()
	r := &hsRig{t: t, clock: fsys.NewManual(time.UnixMilli(1772172000000)), project: filepath.Join(base, "proj"), agent: filepath.Join(base, "agent")}
	os.MkdirAll(filepath.Join(r.project, ".git"), 0o755)
	os.WriteFile(filepath.Join(r.project, ".git/config"), []byte("[remote \"origin\"]\n\turl = git@github.com:o/r.git\n"), 0o644)
	os.MkdirAll(r.agent, 0o755)
	if config != "" {
		os.WriteFile(filepath.Join(r.agent, "hindsight.json"), []byte(config), 0o644)
	}
	host := fsys.NewHost(fsys.NewOS(), r.clock, nil, nil)
	if wrap != nil {
		host = wrap(host)
	}
	r.e = lifecycle.New(host)
	in := map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "hasUI": false, "mode": "rpc", "reason": "startup", "sessionId": "s1"}
	for k, v := range start {
		in[k] = v
	}
	r.call("session_start", in)
	return r
}

const bothBanks = `{"url":"http://hs:1","banks":["project","user"]}`

// call runs an export and, as every host does, answers a background http
// ask of no request at once (agent_end's, whose resume is the flush); last
// holds the effects of both, that ask left out.
func (r *hsRig) call(export string, in any) gjson.Result {
	r.t.Helper()
	r.last = r.callOnly(export, in)
	var effects []string
	next := ""
	for _, e := range r.last.Get("effects").Array() {
		if e.Get("t").String() == "http" && e.Get("background").Bool() && len(e.Get("requests").Array()) == 0 {
			next = e.Get("id").String()
			continue
		}
		effects = append(effects, e.Raw)
	}
	if next == "" {
		return r.last
	}
	for _, e := range r.callOnly("resume", map[string]any{"id": next, "value": []any{}}).Get("effects").Array() {
		effects = append(effects, e.Raw)
	}
	r.last = gjson.Parse(`{"v":1,"effects":[` + strings.Join(effects, ",") + `],"exit":` + r.last.Get("exit").Raw + `}`)
	return r.last
}

// callOnly runs an export and answers nothing.
func (r *hsRig) callOnly(export string, in any) gjson.Result {
	r.t.Helper()
	b, _ := json.Marshal(in)
	out := r.e.Handle(export, b)
	require.True(r.t, gjson.ValidBytes(out), "%s: %s", export, out)
	return gjson.ParseBytes(out)
}

func (r *hsRig) effects(t string) []gjson.Result {
	var out []gjson.Result
	for _, e := range r.last.Get("effects").Array() {
		if e.Get("t").String() == t {
			out = append(out, e)
		}
	}
	return out
}

// answer resumes the http ask of the last envelope with answers.
// status is Hindsight's piece of the footer the last envelope sent ("" if
// it sent none, or the footer has no such piece).
func (r *hsRig) status() string {
	for _, e := range r.effects("status") {
		return lifecycle.FooterPiece(e, "hindsight")
	}
	return ""
}

func (r *hsRig) answer(answers ...any) gjson.Result {
	r.t.Helper()
	asks := r.effects("http")
	require.Equal(r.t, 1, len(asks), "asks in %s", r.last.Raw)
	return r.call("resume", map[string]any{"id": asks[0].Get("id").String(), "value": answers})
}

func (r *hsRig) outbox() string {
	b, _ := os.ReadFile(filepath.Join(r.agent, "pi-memory/hindsight/outbox.jsonl"))
	return string(b)
}

// retained is how Hindsight 1.1.0 answers an async retain.
const retained = `{"success":true,"bank_id":"b","items_count":1,"async":true,"operation_id":"op-1"}`

func ok(body string) map[string]any { return map[string]any{"status": 200, "body": body} }

func userMsg(text string, ts int64) map[string]any {
	return map[string]any{"role": "user", "content": text, "timestamp": ts}
}

func TestRecallIsOneAskPerUserMessageAndAFailingBankKeepsTheOther(t *testing.T) {
	r := newHSRig(t, bothBanks, nil)
	require.Equal(t, `["memory_search","memory_forget","memory_restore","decision_propose","memory_remember","hindsight_recall","hindsight_retain","hindsight_reflect","hindsight_status"]`, r.effects("tools")[0].Get("active").Raw)
	require.Equal(t, "hindsight project+user", r.status())
	msgs := []any{userMsg("how do we build?", 100)}
	r.call("context", map[string]any{"messages": msgs})
	asks := r.effects("http")
	require.Equal(t, 1, len(asks))
	reqs := asks[0].Get("requests").Array()
	require.Equal(t, 2, len(reqs))
	require.Contains(t, reqs[0].Get("url").String(), "/banks/"+hindsight.ProjectBankID("github.com/o/r")+"/memories/recall")
	require.Equal(t, `["project:github.com/o/r"]`, gjson.Get(reqs[0].Get("body").String(), "tags").Raw)
	require.Equal(t, int64(1500), reqs[0].Get("timeoutMs").Int())
	r.answer(ok(`{"results":[{"text":"We build with make"}]}`), map[string]any{"status": 500, "body": "boom"})
	app := r.effects("context_append")
	require.Equal(t, 1, len(app))
	block := app[0].Get("text").String()
	require.Contains(t, block, "- We build with make")
	require.Equal(t, int64(0), app[0].Get("index").Int())
	require.Contains(t, r.status(), "user bank HTTP 500")

	// The query leaves the machine redacted; the key is the message as typed.
	r.call("context", map[string]any{"messages": []any{userMsg("use "+hsSecret, 150)}})
	require.NotContains(t, r.last.Raw, hsSecret)
	r.answer(ok(`{"results":[]}`), ok(`{"results":[]}`))
	// A retry and a tool-loop step: no ask, the same bytes.
	for _, m := range [][]any{msgs, append(msgs, map[string]any{"role": "assistant", "content": []any{}}, map[string]any{"role": "toolResult", "toolCallId": "c", "content": "x"})} {
		r.call("context", map[string]any{"messages": m})
		require.Equal(t, 0, len(r.effects("http")))
		require.Equal(t, block, r.effects("context_append")[0].Get("text").String())
	}
	// A bank timing out is cached as such too: the next message asks again.
	r.call("context", map[string]any{"messages": []any{userMsg("next", 200)}})
	r.answer(map[string]any{"error": "timed out after 1500 ms"}, map[string]any{"error": "timed out after 1500 ms"})
	require.Equal(t, 0, len(r.effects("context_append")))
	r.call("context", map[string]any{"messages": []any{userMsg("next", 200)}})
	require.Equal(t, 0, len(r.effects("http")))
	require.Equal(t, 0, len(r.effects("context_append")))
}

func turn(user string, secretResult string) []any {
	return []any{
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": user + "\n\n<pi-memory-recall>\nRECALLED-FACT\n</pi-memory-recall>"}}, "timestamp": 500},
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "toolCall", "id": "c1", "name": "bash", "arguments": map[string]any{"command": "env"}}}},
		map[string]any{"role": "toolResult", "toolCallId": "c1", "content": []any{map[string]any{"type": "text", "text": secretResult}}},
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "Done."}}},
	}
}

func TestRetainQueuesARedactedStrippedJobPerBankThenFlushesInTheBackground(t *testing.T) {
	r := newHSRig(t, bothBanks, nil)
	r.call("agent_end", map[string]any{"stopReason": "stop", "aborted": false, "messages": turn("deploy with "+hsSecret, "TOKEN="+hsSecret)})
	box := r.outbox()
	require.Equal(t, 2, strings.Count(box, `"op":"job"`))
	require.NotContains(t, box, hsSecret)
	require.NotContains(t, box, "RECALLED-FACT")
	require.Contains(t, box, `"id":"pimem:s1:500"`)
	require.Contains(t, box, `"scope:user"`)
	require.Equal(t, "hindsight 2 waiting", r.status())
	ask := r.effects("http")[0]
	require.True(t, ask.Get("background").Bool())
	require.Equal(t, 2, len(ask.Get("requests").Array()))
	item := gjson.Get(ask.Get("requests.0.body").String(), "items.0")
	require.Equal(t, "pimem:s1:500", item.Get("document_id").String())
	require.Contains(t, item.Get("context").String(), "[REDACTED:github-token]")
	r.answer(ok(retained), ok(retained))
	require.Equal(t, 2, strings.Count(r.outbox(), `"op":"done"`))
	require.Equal(t, "hindsight project+user", r.status())
}

func TestA2xxThatIsNotHindsightsLeavesTheJobWaitingAndStatusSaysWhatCameBack(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	r.call("agent_end", map[string]any{"stopReason": "stop", "aborted": false, "messages": turn("deploy", "x")})
	r.answer(ok("<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head>"))
	box := r.outbox()
	require.Equal(t, 0, strings.Count(box, `"op":"done"`))
	require.Contains(t, box, `"op":"fail"`)
	r.call("command", map[string]any{"name": "hindsight", "args": "status"})
	require.Contains(t, r.effects("output")[0].Get("text").String(), "1 failure, last the answer is not Hindsight's: an HTML page (Welcome to nginx!)")
}

func TestAURLWithAPasswordTurnsHindsightOffSayingWhyAndIsShownNowhere(t *testing.T) {
	r := newHSRig(t, `{"url":"http://me:hunter2@hs:1/"}`, nil)
	require.NotContains(t, r.last.Raw, "hunter2")
	warn := r.effects("notify")
	require.Equal(t, 1, len(warn), "%s", r.last.Raw)
	require.Contains(t, warn[0].Get("text").String(), `pi-memory: Hindsight is off: `)
	require.Contains(t, warn[0].Get("text").String(), `hindsight.json: "url" http://***@hs:1 holds a user name or password. Put the key in "apiKey" (or HINDSIGHT_API_KEY)`)
	require.Equal(t, "hindsight off (bad config)", r.status())
	r.call("context", map[string]any{"messages": []any{userMsg("q", 1)}})
	r.call("agent_end", map[string]any{"stopReason": "stop", "aborted": false, "messages": turn("keep this", "x")})
	require.Equal(t, 0, len(r.effects("http")))
	require.Equal(t, "", r.outbox())
	for _, args := range []string{"status", "doctor"} {
		r.call("command", map[string]any{"name": "hindsight", "args": args})
		require.NotContains(t, r.last.Raw, "hunter2", args)
		require.Contains(t, r.last.Raw, "http://***@hs:1", args)
	}
}

func TestNothingIsQueuedOrAskedWhenMemoryMayNotRetain(t *testing.T) {
	tests := []struct {
		name   string
		config string
		start  map[string]any
		before func(r *hsRig)
		recall bool
	}{
		{name: "read-only", config: `{"url":"http://hs:1","mode":"read-only"}`, recall: true},
		{name: "ignored", config: `{"url":"http://hs:1","mode":"ignored"}`},
		{name: "next-opt-out", config: `{"url":"http://hs:1"}`, recall: true, before: func(r *hsRig) {
			r.call("command", map[string]any{"name": "hindsight", "args": "next-opt-out"})
		}},
		{name: "mode command", config: `{"url":"http://hs:1"}`, before: func(r *hsRig) {
			r.call("command", map[string]any{"name": "hindsight", "args": "mode ignored"})
			require.Equal(t, `{"mode":"ignored"}`, r.effects("session_entry")[0].Get("data").Raw)
		}},
		{name: "--no-memory", config: `{"url":"http://hs:1"}`, start: map[string]any{"flags": map[string]any{"no-memory": true}}},
		{name: "/memory off", config: `{"url":"http://hs:1"}`, before: func(r *hsRig) {
			r.call("command", map[string]any{"name": "memory", "args": "off"})
			require.Equal(t, `[]`, r.effects("tools")[0].Get("active").Raw)
		}},
		{name: "untrusted", config: `{"url":"http://hs:1"}`, start: map[string]any{"trusted": false}},
		{name: "not configured", config: ``},
		{name: "mode from the branch", config: `{"url":"http://hs:1"}`, start: map[string]any{"branch": []any{map[string]any{"type": "custom", "id": "e1", "customType": "pi-memory-hindsight", "data": map[string]any{"mode": "ignored"}}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newHSRig(t, tc.config, tc.start)
			if tc.before != nil {
				tc.before(r)
			}
			r.call("context", map[string]any{"messages": []any{userMsg("q", 1)}})
			require.Equal(t, tc.recall, len(r.effects("http")) == 1, "recall ask: %s", r.last.Raw)
			r.call("agent_end", map[string]any{"stopReason": "stop", "aborted": false, "messages": turn("keep this", "x")})
			require.Equal(t, 0, len(r.effects("http")), "retain ask: %s", r.last.Raw)
			require.Equal(t, "", r.outbox())
			_, err := os.Stat(filepath.Join(r.agent, "pi-memory"))
			require.True(t, os.IsNotExist(err), "pi-memory/ was created")
			r.call("session_shutdown", map[string]any{"reason": "quit"})
			require.Equal(t, 0, len(r.effects("http")))
		})
	}
	// next-opt-out covers one run only.
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	r.call("command", map[string]any{"name": "hindsight", "args": "next-opt-out"})
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("one", "x")})
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("two", "x")})
	require.Equal(t, 1, strings.Count(r.outbox(), `"op":"job"`))
}

// /hindsight next-opt-out once lived only in the instance: a trap before
// the run it keeps out dropped it, and the run was retained.
func TestNextOptOutSurvivesARestartOfTheCore(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	r.call("command", map[string]any{"name": "hindsight", "args": "next-opt-out"})
	state := r.last.Get(`effects.#(t=="state").state`)
	require.True(t, state.Get("stores.hindsight.optOut").Bool(), "kept: %s", r.last.Raw)

	// The host's restart: a new engine, the session start replayed with the state.
	r.e = lifecycle.New(fsys.NewHost(fsys.NewOS(), r.clock, nil, nil))
	r.call("session_start", map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "hasUI": false, "mode": "rpc", "reason": "startup", "sessionId": "s1",
		"restore": map[string]any{"state": json.RawMessage(state.Raw)}})
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("private", "x")})
	require.Equal(t, "", r.outbox(), "the run opted out is not retained")
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("two", "x")})
	require.Equal(t, 1, strings.Count(r.outbox(), `"op":"job"`), "the one after it is")
}

func TestATornOutboxLineIsKeptAndTheNextJobStartsOnItsOwnLine(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	dir := filepath.Join(r.agent, "pi-memory/hindsight")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "outbox.jsonl"), []byte(`{"v":1,"op":"job","id":"x","bank":"b","at":1,"item":{"cont`), 0o644)
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("after the tear", "x")})
	lines := strings.Split(r.outbox(), "\n")
	require.Equal(t, 4, len(lines)) // the torn line, the job, its flush's claim, ""
	require.True(t, gjson.Valid(lines[1]), lines[1])
	o := hindsight.FoldOutbox([]byte(r.outbox()))
	require.Equal(t, 1, len(o.Pending))
	require.Equal(t, []string{"line 1: not an outbox record"}, o.Problems)
}

// agent_end appends and asks for nothing: the flush is built in the resume
// of its ask of no request, which the host answers once the hook returned.
func TestAgentEndOnlyAppendsAndItsAskOfNoRequestResumesIntoTheFlush(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	got := r.callOnly("agent_end", map[string]any{"stopReason": "stop", "messages": turn("one", "x")})
	require.Equal(t, 1, strings.Count(r.outbox(), `"op":"job"`))
	asks := got.Get(`effects.#(t=="http")#`).Array()
	require.Equal(t, 1, len(asks), got.Raw)
	require.True(t, asks[0].Get("background").Bool())
	require.Equal(t, "[]", asks[0].Get("requests").Raw)
	require.Equal(t, "hindsight 1 waiting", lifecycle.FooterPiece(got.Get(`effects.#(t=="status")`), "hindsight"))

	flush := r.callOnly("resume", map[string]any{"id": asks[0].Get("id").String(), "value": []any{}})
	reqs := flush.Get(`effects.#(t=="http").requests`).Array()
	require.Equal(t, 1, len(reqs), flush.Raw)
	require.Contains(t, reqs[0].Get("body").String(), "user: one")

	// While that flush is out, a turn appends, and its ask resumes into no flush.
	got = r.callOnly("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("two", 900)}})
	require.Equal(t, "hindsight 2 waiting", lifecycle.FooterPiece(got.Get(`effects.#(t=="status")`), "hindsight"))
	again := r.callOnly("resume", map[string]any{"id": got.Get(`effects.#(t=="http").id`).String(), "value": []any{}})
	require.Equal(t, 0, len(again.Get(`effects.#(t=="http")#`).Array()), again.Raw)
}

func TestAJobIsADeadLetterAfterMaxAttemptsFailures(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1","outbox":{"maxAttempts":2}}`, nil)
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("remember me", "x")})
	r.answer(map[string]any{"status": 503, "body": "down"})
	require.Contains(t, r.outbox(), `"op":"fail"`)
	r.call("command", map[string]any{"name": "hindsight", "args": "flush"})
	require.Contains(t, r.last.Get("effects.0.text").String(), "nothing is due") // backoff: 2 s
	r.clock.Advance(3 * time.Second)
	r.call("command", map[string]any{"name": "hindsight", "args": "flush"})
	r.answer(map[string]any{"error": "connect ECONNREFUSED 127.0.0.1:1"})
	dead, _ := os.ReadFile(filepath.Join(r.agent, "pi-memory/hindsight/dead.jsonl"))
	require.Equal(t, 1, strings.Count(string(dead), "\n"))
	require.Contains(t, string(dead), "ECONNREFUSED")
	// The fold keeps no items: the letter's is read back from the outbox.
	queued := gjson.Get(strings.SplitN(r.outbox(), "\n", 2)[0], "item").Raw
	require.Contains(t, queued, "remember me")
	require.Equal(t, queued, gjson.Get(string(dead), "item").Raw)
	require.Equal(t, 0, len(hindsight.FoldOutbox([]byte(r.outbox())).Pending))
}

// The kept fold holds where each job's record lies, not its item: a flush
// reads the items back, another process's record left without its newline
// included.
func TestAFlushSendsTheItemsReadBackFromTheOutbox(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	dir := filepath.Join(r.agent, "pi-memory/hindsight")
	os.MkdirAll(dir, 0o755)
	theirs := hindsight.JobRecord("pimem-other", hindsight.Item{Content: "theirs, unsealed", DocumentID: "pimem:s9:1"}, 5)
	os.WriteFile(filepath.Join(dir, "outbox.jsonl"), theirs[:len(theirs)-1], 0o644)
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("mine, sealed after it", "x")})
	var sent []string
	for _, q := range r.effects("http")[0].Get("requests").Array() {
		for _, it := range gjson.Get(q.Get("body").String(), "items").Array() {
			sent = append(sent, it.Get("content").String())
		}
	}
	require.Equal(t, 2, len(sent), sent)
	require.Equal(t, "theirs, unsealed", sent[0])
	require.Contains(t, sent[1], "mine, sealed after it")
}

// A file rewritten under the fold with its size and mtime unchanged (so
// the stat cannot tell) is caught when the records are read back: that
// flush sends nothing, and the next folds the file again.
func TestAFlushWhoseRecordsMovedSendsNothingAndTheNextFoldsAgain(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("first", 500)}})
	r.answer(map[string]any{"error": "connect ECONNREFUSED"})
	r.clock.Advance(time.Minute)
	file := filepath.Join(r.agent, "pi-memory/hindsight/outbox.jsonl")
	info, err := os.Stat(file)
	require.NoError(t, err)
	// Another process's rewrite: one job of the same length where the fold's was.
	box := r.outbox()
	other := strings.ReplaceAll(box, "pimem:s1:500", "pimem:s1:501")
	require.Equal(t, len(box), len(other))
	os.WriteFile(file, []byte(other), 0o644)
	os.Chtimes(file, info.ModTime(), info.ModTime())
	r.call("command", map[string]any{"name": "hindsight", "args": "flush"})
	require.Equal(t, 0, len(r.effects("http")), r.last.Raw)
	require.Contains(t, r.last.Raw, "changed while it was read")
	r.call("command", map[string]any{"name": "hindsight", "args": "flush"})
	body := r.effects("http")[0].Get("requests.0.body").String()
	require.Equal(t, "pimem:s1:501", gjson.Get(body, "items.0.document_id").String())
}

func TestRecalledTextFromAToolIsNeverRetained(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	r.call("tool", map[string]any{"name": "hindsight_recall", "params": map[string]any{"query": "build"}, "toolCallId": "c9"})
	r.answer(ok(`{"results":[{"text":"TOOL-RECALLED"}]}`))
	res := r.effects("tool_result")[0].Get("text").String()
	require.Contains(t, res, "TOOL-RECALLED")
	msgs := []any{
		userMsg("what do we use?", 700),
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "toolCall", "id": "c9", "name": "hindsight_recall", "arguments": map[string]any{"query": "build"}}}},
		map[string]any{"role": "toolResult", "toolCallId": "c9", "content": []any{map[string]any{"type": "text", "text": res}}},
	}
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": msgs})
	require.NotContains(t, r.outbox(), "TOOL-RECALLED")
	require.Contains(t, r.outbox(), "what do we use?")
}

func TestToolsAnswerWithAnErrorWhenHindsightIsOff(t *testing.T) {
	r := newHSRig(t, "", nil)
	require.Equal(t, `["memory_search","memory_forget","memory_restore","decision_propose","memory_remember"]`, r.effects("tools")[0].Get("active").Raw, "no Hindsight tool: the orchestrator's and the stores'")
	r.call("tool", map[string]any{"name": "hindsight_retain", "params": map[string]any{"content": "x"}})
	res := r.effects("tool_result")[0]
	require.True(t, res.Get("isError").Bool())
	require.Contains(t, res.Get("text").String(), "not configured")
}

func TestTheToolsFollowAConfigThatAppearsOrGoesAwayDuringTheSession(t *testing.T) {
	r := newHSRig(t, "", nil)
	require.Equal(t, `["memory_search","memory_forget","memory_restore","decision_propose","memory_remember"]`, r.effects("tools")[0].Get("active").Raw, "no Hindsight tool: the orchestrator's and the stores'")
	r.call("before_agent_start", map[string]any{"prompt": "hi", "messageType": "user"})
	require.Equal(t, 0, len(r.effects("tools")), "no config, nothing new to announce")

	cfg := filepath.Join(r.agent, "hindsight.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"url":"http://hs:1"}`), 0o644))
	r.call("before_agent_start", map[string]any{"prompt": "hi", "messageType": "user"})
	require.Equal(t, `["memory_search","memory_forget","memory_restore","decision_propose","memory_remember","hindsight_recall","hindsight_retain","hindsight_reflect","hindsight_status"]`, r.effects("tools")[0].Get("active").Raw)
	r.call("before_agent_start", map[string]any{"prompt": "hi", "messageType": "user"})
	require.Equal(t, 0, len(r.effects("tools")), "announced once, not on every run")

	require.NoError(t, os.Remove(cfg))
	r.call("context", map[string]any{"messages": []any{userMsg("hi", 1)}})
	require.Equal(t, `["memory_search","memory_forget","memory_restore","decision_propose","memory_remember"]`, r.effects("tools")[0].Get("active").Raw, "a tool-loop step after the config went away")
	require.Equal(t, 0, len(r.effects("http")))
}

// A run's agent_end retains under the config its requests saw; an agent_end
// with no request since the last one reads the config itself.
func TestARunRetainsUnderTheConfigItsRequestsChecked(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	cfg := filepath.Join(r.agent, "hindsight.json")
	end := map[string]any{"stopReason": "stop", "messages": []any{userMsg("we deploy with make ship", 7)}}

	r.call("context", map[string]any{"messages": []any{userMsg("we deploy with make ship", 7)}})
	r.answer(ok(`{"results":[]}`))
	require.NoError(t, os.Remove(cfg))
	r.call("agent_end", end)
	require.Contains(t, r.outbox(), "make ship", "the run's request saw Hindsight configured")

	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("we test with make check", 9)}})
	require.NotContains(t, r.outbox(), "make check", "no request in this run: agent_end read the config, which is gone")
}

// The guard remembers the folders it found real only within a call: a
// folder swapped for a link after one turn is refused at the next.
func TestAnOutboxFolderSwappedForALinkBetweenTurnsIsRefused(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("we deploy with make ship", 7)}})
	require.Contains(t, r.outbox(), "make ship")

	dir := filepath.Join(r.agent, "pi-memory")
	outside := filepath.Join(t.TempDir(), "elsewhere")
	require.NoError(t, os.Rename(dir, outside))
	require.NoError(t, os.Symlink(outside, dir))
	outbox := filepath.Join(outside, "hindsight/outbox.jsonl")
	before, err := os.ReadFile(outbox)
	require.NoError(t, err)

	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("we test with make check", 9)}})
	after, err := os.ReadFile(outbox)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after), "nothing written through the link")
	require.Contains(t, r.last.Raw, "pi-memory is a symbolic link", r.last.Raw)
	_, err = os.Lstat(outbox + ".lock")
	require.True(t, os.IsNotExist(err), "no lock taken through the link")
}

func TestTheRetainToolQueuesRedactedContentAndContext(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	r.call("tool", map[string]any{"name": "hindsight_retain", "params": map[string]any{"content": "key is " + hsSecret, "context": "from " + hsSecret}})
	require.NotContains(t, r.outbox(), hsSecret)
	require.Contains(t, r.outbox(), `"source:tool"`)
	r.answer(ok(retained))
	require.Equal(t, "Retained.", r.effects("tool_result")[0].Get("text").String())
}

// Two processes retaining at once: every job is whole and on its own line.
func TestTwoEnginesRetainingIntoOneOutboxLoseNoJob(t *testing.T) {
	if testing.Short() {
		t.Skip("two sessions × 100 retains")
	}
	base := t.TempDir()
	project, agent := filepath.Join(base, "proj"), filepath.Join(base, "agent")
	os.MkdirAll(filepath.Join(project, ".git"), 0o755)
	os.MkdirAll(agent, 0o755)
	os.WriteFile(filepath.Join(agent, "hindsight.json"), []byte(`{"url":"http://hs:1"}`), 0o644)
	var wg sync.WaitGroup
	for s := 0; s < 2; s++ {
		e := lifecycle.New(fsys.NewHost(fsys.NewOS(), nil, nil, nil))
		start, _ := json.Marshal(map[string]any{"cwd": project, "agentDir": agent, "trusted": true, "mode": "cli", "sessionId": "s" + strconv.Itoa(s)})
		e.Handle("session_start", start)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				in, _ := json.Marshal(map[string]any{"stopReason": "stop", "messages": []any{userMsg("fact "+strconv.Itoa(i), int64(i+1))}})
				e.Handle("agent_end", in)
			}
		}()
	}
	wg.Wait()
	data, err := os.ReadFile(filepath.Join(agent, "pi-memory/hindsight/outbox.jsonl"))
	require.NoError(t, err)
	o := hindsight.FoldOutbox(data)
	require.Equal(t, 0, len(o.Problems))
	require.Equal(t, 200, len(o.Pending))
}

func TestMemoryLastNamesWhatEachBankReturnedAndWhatWasAppended(t *testing.T) {
	r := newHSRig(t, bothBanks, nil)
	r.call("context", map[string]any{"messages": []any{userMsg("how do we build?", 100)}})
	r.answer(ok(`{"results":[{"text":"We build with make"},{"text":"CI runs make test"}]}`), map[string]any{"error": "timed out after 1500 ms"})
	r.call("command", map[string]any{"name": "memory", "args": "last"})
	text := r.effects("output")[0].Get("text").String()
	require.Contains(t, text, "project ("+hindsight.ProjectBankID("github.com/o/r")+"): 2 memories")
	require.Contains(t, text, "user (pimem-user): timed out after 1500 ms")
	require.Contains(t, text, "- CI runs make test")
	r.call("command", map[string]any{"name": "memory", "args": "last --json"})
	j := gjson.Parse(r.effects("output")[0].Get("text").String())
	require.Equal(t, int64(2), j.Get("recall.banks.0.memories").Int())
	require.Equal(t, "timed out after 1500 ms", j.Get("recall.banks.1.error").String())
}

func TestShutdownFlushesDueJobsWithinItsBound(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1","flush":{"shutdownMs":2500}}`, nil)
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("keep", "x")})
	r.call("session_shutdown", map[string]any{"reason": "quit"})
	asks := r.effects("http")
	require.Equal(t, 1, len(asks))
	require.False(t, asks[0].Get("background").Bool())
	require.Equal(t, int64(2500), asks[0].Get("requests.0.timeoutMs").Int())
	r.answer(map[string]any{"error": "timed out after 2500 ms"})
	require.Equal(t, 1, len(hindsight.FoldOutbox([]byte(r.outbox())).Pending))
}

// Issue 19, item 7: quitting waits for Hindsight at most flush.shutdownMs in
// all. The host first waits for a background flush (as long as its exitMs,
// the same bound); a job whose backoff ran out meanwhile used to start a
// second flush with the whole bound again, so pi -p with a hanging server
// took twice flush.shutdownMs.
func TestShutdownFlushesWithinWhatIsLeftOfItsBoundAfterTheBackgroundWait(t *testing.T) {
	tests := []struct {
		name     string
		waitedMs int64
		want     int64 // the shutdown flush's timeoutMs, 0 for none
	}{
		{"no wait", 0, 2500},
		{"part of the bound spent", 2000, 500},
		{"the whole bound spent", 2500, 0},
		{"more than the bound", 9000, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newHSRig(t, `{"url":"http://hs:1","flush":{"shutdownMs":2500}}`, nil)
			r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("keep", "x")})
			r.call("session_shutdown", map[string]any{"reason": "quit", "waitedMs": tt.waitedMs})
			asks := r.effects("http")
			if tt.want == 0 {
				require.Equal(t, 0, len(asks), "%s", r.last.Raw)
				require.Equal(t, 1, len(hindsight.FoldOutbox([]byte(r.outbox())).Pending), "the job waits for the next session")
				return
			}
			require.Equal(t, 1, len(asks))
			require.Equal(t, tt.want, asks[0].Get("requests.0.timeoutMs").Int())
		})
	}
}

func TestEveryRegisteredToolRuns(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	for _, tool := range registry.Tools {
		r.call("tool", map[string]any{"name": tool.Name, "params": map[string]any{"query": "q", "content": "c"}})
		require.Equal(t, 0, len(r.effects("tool_result"))+len(r.effects("http"))-1, "%s: %s", tool.Name, r.last.Raw)
		for _, res := range r.effects("tool_result") {
			require.NotContains(t, res.Get("text").String(), "has no tool")
		}
	}
}

func TestABackgroundFlushOutstandingHoldsTheNextUntilItIsTakenAsLost(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("one", "x")})
	require.Equal(t, 1, len(r.effects("http")))
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("two", 900)}})
	require.Equal(t, 0, len(r.effects("http")))
	r.clock.Advance(11 * time.Minute)
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("three", 901)}})
	// The lost flush's job and the two since go out together.
	require.Equal(t, 3, len(gjson.Parse(r.effects("http")[0].Get("requests.0.body").String()).Get("items").Array()))
}

func TestAnOutboxWithNothingPendingPast64KiBIsRewrittenEmpty(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	dir := filepath.Join(r.agent, "pi-memory/hindsight")
	os.MkdirAll(dir, 0o755)
	var old []byte
	for i := 0; len(old) < 70<<10; i++ {
		j := hindsight.Job{ID: "old" + strconv.Itoa(i), Bank: "b"}
		old = append(old, hindsight.JobRecord("b", hindsight.Item{DocumentID: j.ID, Content: strings.Repeat("x", 200)}, 1)...)
		old = append(old, hindsight.DoneRecord(j, 2)...)
	}
	os.WriteFile(filepath.Join(dir, "outbox.jsonl"), old, 0o644)
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("new", "x")})
	require.True(t, len(r.outbox()) > 70<<10)
	r.answer(ok(retained))
	require.Equal(t, "", r.outbox())
	// The fold this process kept starts again from the emptied file.
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("newer", "x")})
	require.Equal(t, 1, len(hindsight.FoldOutbox([]byte(r.outbox())).Pending))
	require.Equal(t, "hindsight 1 waiting", r.status())
}

// An outbox past 64 MiB (a server away for long, or years of turns) is read
// a piece at a time: it is compacted under its lock to its unsent jobs, which
// are sent, instead of never being read again while turns are appended to it.
func TestAnOutboxOver64MiBIsCompactedToItsUnsentJobsAndFlushed(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	dir := filepath.Join(r.agent, "pi-memory/hindsight")
	os.MkdirAll(dir, 0o755)
	f, err := os.Create(filepath.Join(dir, "outbox.jsonl"))
	require.NoError(t, err)
	w := bufio.NewWriterSize(f, 1<<20)
	size, unsent := 0, 0
	for i := 0; size < 65<<20; i++ {
		it := hindsight.Item{DocumentID: "old" + strconv.Itoa(i), Content: strings.Repeat("x", 4000)}
		rec := hindsight.JobRecord("b", it, 1)
		if i%5000 == 17 { // a few never sent, one with a failure
			unsent++
		} else {
			rec = append(rec, hindsight.DoneRecord(hindsight.Job{ID: it.DocumentID, Bank: "b"}, 2)...)
		}
		if i == 17 {
			rec = append(rec, `{"v":1,"op":"fail","id":"old17","bank":"b","at":3,"n":2,"next":4,"error":"HTTP 503"}`+"\n"...)
		}
		w.Write(rec)
		size += len(rec)
	}
	require.NoError(t, w.Flush())
	f.Close()
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("new", "x")})
	require.Equal(t, 0, len(r.effects("notify")), "%s", r.last.Raw)
	box := r.outbox()
	require.True(t, len(box) < 1<<20, "compacted to %d bytes", len(box))
	o := hindsight.FoldOutbox([]byte(box))
	require.Equal(t, unsent+1, len(o.Pending))
	require.Equal(t, 0, len(o.Problems))
	require.Equal(t, "old17", o.Pending[0].ID)
	require.Equal(t, 2, o.Pending[0].Attempts)
	require.Equal(t, "HTTP 503", o.Pending[0].LastError)
	require.Equal(t, fmt.Sprintf("hindsight %d waiting", unsent+1), r.status())
	ask := r.effects("http")[0]
	reqs := ask.Get("requests").Array()
	require.Equal(t, 2, len(reqs)) // bank b's old jobs, and the new turn in the project bank
	require.Equal(t, unsent, len(gjson.Get(reqs[0].Get("body").String(), "items").Array()))
	r.answer(ok(retained), ok(retained))
	require.Equal(t, 0, len(hindsight.FoldOutbox([]byte(r.outbox())).Pending))
}

// Issue 19: an outbox holding a line it cannot read was never compacted,
// so it grew for good. It is compacted now, and each such line is first
// kept, byte for byte, in unreadable.jsonl, which the status names: a bad
// line in the middle, a line too long to read, and a torn last line (the
// next append seals it, so it is a bad line too).
func TestAnOutboxWithUnreadableLinesIsCompactedAndTheyAreKeptAside(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	dir := filepath.Join(r.agent, "pi-memory/hindsight")
	os.MkdirAll(dir, 0o755)
	bad := "not json \x01 at all"
	long := `{"v":1,"op":"job","id":"big","bank":"b","at":1,"item":{"content":"` + strings.Repeat("y", 16<<20) + `"}}`
	torn := `{"v":1,"op":"job","id":"x","bank":"b","at":1,"item":{"cont`
	var old []byte
	for i := 0; len(old) < 80<<10; i++ {
		it := hindsight.Item{DocumentID: "old" + strconv.Itoa(i), Content: "c"}
		old = append(old, hindsight.JobRecord("b", it, 1)...)
		old = append(old, hindsight.DoneRecord(hindsight.Job{ID: it.DocumentID, Bank: "b"}, 2)...)
		if i == 3 {
			old = append(old, bad+"\n"+long+"\n"...)
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "outbox.jsonl"), append(old, torn...), 0o644))
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("new", "x")})
	r.answer(ok(retained))
	box := r.outbox()
	require.True(t, len(box) < 4<<10, "compacted to %d bytes", len(box))
	o := hindsight.FoldOutbox([]byte(box))
	require.Equal(t, 0, len(o.Pending))
	require.Equal(t, 0, len(o.Problems))
	aside, err := os.ReadFile(filepath.Join(dir, "unreadable.jsonl"))
	require.NoError(t, err)
	require.True(t, string(aside) == bad+"\n"+long+"\n"+torn+"\n", "kept as they were (%d bytes)", len(aside))
	r.call("command", map[string]any{"name": "hindsight", "args": "status"})
	require.Contains(t, r.effects("output")[0].Get("text").String(), "\nLines the outbox could not read, kept as they were when it was compacted: "+filepath.Join(dir, "unreadable.jsonl"))
}

// failingReads fails every read of the outbox: a file that cannot be read.
type failingReads struct{ hostio.Host }

func (f failingReads) ReadAt(p string, off int64, dst []byte) (int, error) {
	if strings.HasSuffix(p, "outbox.jsonl") {
		return 0, errors.New("input/output error")
	}
	return f.Host.ReadAt(p, off, dst)
}

func TestAnOutboxThatCannotBeReadIsNotAppendedToAndTheTurnSaysSo(t *testing.T) {
	r := newHSRigOn(t, `{"url":"http://hs:1"}`, nil, func(h hostio.Host) hostio.Host { return failingReads{h} })
	dir := filepath.Join(r.agent, "pi-memory/hindsight")
	os.MkdirAll(dir, 0o755)
	old := hindsight.JobRecord("b", hindsight.Item{DocumentID: "old", Content: "c"}, 1)
	os.WriteFile(filepath.Join(dir, "outbox.jsonl"), old, 0o644)
	r.call("agent_end", map[string]any{"stopReason": "stop", "messages": turn("new", "x")})
	require.Equal(t, string(old), r.outbox())
	warn := r.effects("notify")
	require.Equal(t, 1, len(warn), "%s", r.last.Raw)
	require.Contains(t, warn[0].Get("text").String(), "outbox.jsonl: it cannot be read (input/output error), so nothing more is queued in it until it can")
}

// besideRig is a second pi process on r's project and agent folder, with
// the same clock, in session id.
func besideRig(t *testing.T, r *hsRig, id string) *hsRig {
	b := &hsRig{t: t, clock: r.clock, project: r.project, agent: r.agent}
	b.e = lifecycle.New(fsys.NewHost(fsys.NewOS(), r.clock, nil, nil))
	b.call("session_start", map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "hasUI": false, "mode": "rpc", "reason": "startup", "sessionId": id})
	return b
}

// items are the document ids of every item an http ask of the last call sends.
func (r *hsRig) items() []string {
	var ids []string
	for _, ask := range r.effects("http") {
		for _, req := range ask.Get("requests").Array() {
			for _, it := range gjson.Get(req.Get("body").String(), "items").Array() {
				ids = append(ids, it.Get("document_id").String())
			}
		}
	}
	return ids
}

// Two pi processes finishing runs at once each send what the other has not
// claimed: every job goes out once (it went out twice, 47 of 47). A process
// killed mid-flush leaves its claim to run out, then the other sends its jobs.
func TestTwoProcessesFlushingAtOnceSendEachJobOnce(t *testing.T) {
	a := newHSRig(t, `{"url":"http://hs:1"}`, map[string]any{"sessionId": "sa"})
	b := besideRig(t, a, "sb")
	dir := filepath.Join(a.agent, "pi-memory/hindsight")
	os.MkdirAll(dir, 0o755)
	var old []byte
	for i := 0; i < 5; i++ {
		old = append(old, hindsight.JobRecord("b", hindsight.Item{DocumentID: "old" + strconv.Itoa(i), Content: "c"}, 1)...)
	}
	os.WriteFile(filepath.Join(dir, "outbox.jsonl"), old, 0o644)

	a.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("from a", 10)}})
	b.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("from b", 20)}})
	require.Equal(t, []string{"old0", "old1", "old2", "old3", "old4", "pimem:sa:10"}, a.items())
	require.Equal(t, []string{"pimem:sb:20"}, b.items())
	a.answer(ok(retained), ok(retained))
	b.answer(ok(retained))
	require.Equal(t, 0, len(hindsight.FoldOutbox([]byte(a.outbox())).Pending))

	// a's flush never comes back (killed): b leaves its job alone until the claim runs out.
	a.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("lost", 30)}})
	require.Equal(t, []string{"pimem:sa:30"}, a.items())
	b.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("b again", 40)}})
	require.Equal(t, []string{"pimem:sb:40"}, b.items())
	b.answer(ok(retained))
	// The status says why that job waits and is not due (issue 19: it said nothing).
	b.call("command", map[string]any{"name": "hindsight", "args": "status"})
	require.Contains(t, b.effects("output")[0].Get("text").String(), "1 waiting, 0 due, ")
	require.Contains(t, b.effects("output")[0].Get("text").String(), "\n  1 being sent by another pi (session sa), for 40 s more at most")
	a.clock.Advance(41 * time.Second) // the flush's 10 s bound and the claim's 30 s of slack
	b.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("b later", 50)}})
	require.Equal(t, []string{"pimem:sa:30", "pimem:sb:50"}, b.items())
}

// countingHost counts the locks taken, the folders made and the whole
// reads of files named like the outbox (those from its start: a flush
// reads its jobs' records back from where they lie).
type countingHost struct {
	hostio.Host
	locks, reads, mkdirs int
}

func (c *countingHost) Mkdir(p string) error {
	c.mkdirs++
	return c.Host.Mkdir(p)
}

func (c *countingHost) Lock(p string, waitMs, staleMs int) error {
	c.locks++
	return c.Host.Lock(p, waitMs, staleMs)
}

func (c *countingHost) ReadAt(p string, off int64, dst []byte) (int, error) {
	if strings.HasSuffix(p, "outbox.jsonl") && off == 0 {
		c.reads++
	}
	return c.Host.ReadAt(p, off, dst)
}

func TestAnAgentEndLocksOnceAndReadsTheOutboxOnlyAfterAnotherProcessChangedIt(t *testing.T) {
	var c *countingHost
	r := newHSRigOn(t, `{"url":"http://hs:1"}`, nil, func(h hostio.Host) hostio.Host { c = &countingHost{Host: h}; return c })
	end := func(ts int64) {
		c.locks, c.reads, c.mkdirs = 0, 0, 0
		r.call("agent_end", map[string]any{"stopReason": "stop", "messages": []any{userMsg("fact "+strconv.FormatInt(ts, 10), ts)}})
	}
	end(1)
	r.answer(ok(retained)) // the flush keeps up
	for ts := int64(2); ts <= 4; ts++ {
		end(ts) // the first flush is out: the next turns wait
		want := 1
		if ts == 2 {
			want = 2 // the hook's append, and its flush claiming the job (after the hook)
		}
		require.Equal(t, want, c.locks, "locks at turn %d", ts)
		require.Equal(t, 0, c.reads, "outbox reads at turn %d", ts)
		require.Equal(t, 0, c.mkdirs, "the folder is made once, at turn %d", ts)
	}
	require.Equal(t, "hindsight 3 waiting", r.status())

	// Another process queues a job: the next turn folds the file again and counts it.
	other := hindsight.JobRecord("pimem-other", hindsight.Item{Content: "theirs", DocumentID: "pimem:s9:1"}, 5)
	f, err := os.OpenFile(filepath.Join(r.agent, "pi-memory/hindsight/outbox.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	f.Write(other)
	f.Close()
	end(5)
	require.Equal(t, 1, c.locks)
	require.True(t, c.reads > 0, "the outbox another process changed is read again")
	require.Equal(t, "hindsight 5 waiting", r.status())
	end(6)
	require.Equal(t, 0, c.reads)
	require.Equal(t, hindsight.FoldOutbox([]byte(r.outbox())).Pending[3].Item, string(gjson.GetBytes(other, "item").Raw))
}
