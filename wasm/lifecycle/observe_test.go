package lifecycle

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/observe"
	"github.com/tidwall/gjson"
)

// omRig is a rig with a session branch the test grows the way pi does:
// turns of conversation, and the ledger entries the core asks the host to
// append (session_entry), which the next call's branch carries.
type omRig struct {
	*rig
	entries []string
	leaf    string
	n       int
	calls   []gjson.Result // every complete effect, in order
	effects []gjson.Result // every effect of the last exchange (a call and its resumes)
}

// observerConfig makes the observer start after about 1,000 tokens and our
// compaction after about 1,500.
const observerConfig = `{"observerTokens": 1000, "retainTokens": 500, "recentTurnBudgetTokens": 300, "reflectEveryNObservations": 0}`

const observerAnswer = "Date: Feb 27, 2026\n* 🔴 (06:00) User asked to fix the parser in src/parse.go\n"

func newOmRig(t *testing.T, config string, flags string) *omRig {
	t.Helper()
	base := t.TempDir()
	r := &omRig{rig: &rig{t: t, h: &osHost{now: 1772172000000}, project: filepath.Join(base, "proj"), agent: filepath.Join(base, "agent")}}
	os.MkdirAll(filepath.Join(r.project, ".git"), 0o755)
	os.MkdirAll(r.agent, 0o755)
	if config != "" {
		os.MkdirAll(filepath.Join(r.project, ".pi"), 0o755)
		os.WriteFile(filepath.Join(r.project, ".pi", "om-config.json"), []byte(config), 0o644)
	}
	r.e = New(r.h)
	r.raw("session_start", `{"cwd":`+quote(r.project)+`,"agentDir":`+quote(r.agent)+`,"trusted":true,"hasUI":true,"mode":"interactive","reason":"startup","flags":{`+flags+`},"branch":[],"sessionId":"s1","zone":0,"window":200000}`)
	return r
}

func (r *omRig) raw(export, input string) gjson.Result {
	r.t.Helper()
	out := r.e.Handle(export, []byte(input))
	require.True(r.t, gjson.ValidBytes(out), "%s returned invalid JSON: %s", export, out)
	r.last = gjson.ParseBytes(out)
	return r.last
}

func (r *omRig) add(entry string) {
	r.n++
	id := "e" + strconv.Itoa(r.n)
	parent := "null"
	if r.leaf != "" {
		parent = quote(r.leaf)
	}
	r.entries = append(r.entries, `{"id":"`+id+`","parentId":`+parent+`,"timestamp":"2026-02-27T06:00:00.000Z",`+entry+`}`)
	r.leaf = id
}

// turn adds a user prompt and an answer of about size tokens each.
func (r *omRig) turn(size int) {
	text := strings.Repeat("parser detail ", size*4/14)
	r.add(`"type":"message","message":{"role":"user","content":` + quote("Please fix "+text) + `}`)
	r.add(`"type":"message","message":{"role":"assistant","content":[{"type":"text","text":` + quote("Fixed "+text) + `}]}`)
}

func (r *omRig) branch() string { return "[" + strings.Join(r.entries, ",") + "]" }

// exchange calls export and answers every complete effect with answer(call)
// (a JSON value), appending every session_entry to the branch, as pi's
// adapter does; effects collects what came back.
func (r *omRig) exchange(export, input string, answer func(call gjson.Result) string) {
	r.t.Helper()
	r.effects = nil
	env := r.raw(export, input)
	for {
		var waiting gjson.Result
		for _, e := range env.Get("effects").Array() {
			r.effects = append(r.effects, e)
			switch e.Get("t").String() {
			case "session_entry":
				r.add(`"type":"custom","customType":` + quote(e.Get("customType").String()) + `,"data":` + e.Get("data").Raw)
			case "complete":
				waiting = e
				r.calls = append(r.calls, e)
			}
		}
		if !waiting.Exists() {
			return
		}
		env = r.raw("resume", `{"id":`+quote(waiting.Get("id").String())+`,"value":`+answer(waiting)+`}`)
	}
}

func (r *omRig) settle(answer func(gjson.Result) string) {
	r.t.Helper()
	r.exchange("agent_settled", `{"branch":`+r.branch()+`,"window":200000,"aborted":false}`, answer)
}

func (r *omRig) of(t string) []gjson.Result {
	var out []gjson.Result
	for _, e := range r.effects {
		if e.Get("t").String() == t {
			out = append(out, e)
		}
	}
	return out
}

func answerText(text string) func(gjson.Result) string {
	return func(gjson.Result) string { return `{"text":` + quote(text) + `,"usage":{"input":900,"output":40}}` }
}

func answerError(msg string) func(gjson.Result) string {
	return func(gjson.Result) string { return `{"error":` + quote(msg) + `}` }
}

func (r *omRig) context() []gjson.Result {
	r.exchange("context", `{"messages":[{"role":"user","content":"what next for the parser?","timestamp":1}]}`, nil)
	return r.of("context_messages")
}

func TestTheObserverRunsOnlyOnceTheAgentHasSettled(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	for _, step := range []struct{ export, input string }{
		{"before_agent_start", `{"prompt":"go on","messageType":"user"}`},
		{"context", `{"messages":[{"role":"user","content":"go on"}]}`},
		{"agent_end", `{"stopReason":"stop","aborted":false}`},
	} {
		r.exchange(step.export, step.input, answerText(observerAnswer))
	}
	require.Equal(t, 0, len(r.calls), "no model call from a turn's hooks")

	r.settle(answerText(observerAnswer))
	require.Equal(t, 1, len(r.calls))
	require.True(t, r.calls[0].Get("background").Bool(), "the settle's call runs in the background")
	require.Contains(t, r.calls[0].Get("prompt").String(), "parser detail")
	entries := r.of("session_entry")
	require.Equal(t, 1, len(entries))
	require.Equal(t, observe.CustomTypeLedger, entries[0].Get("customType").String())
	require.Equal(t, "observe", entries[0].Get("data.op").String())
	require.Contains(t, r.of("status")[len(r.of("status"))-1].Get("text").String(), "om 1 obs")
}

func TestAnAnswerSayingNothingIsNewMovesTheWatermark(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	r.settle(answerText("No new observations."))
	require.Equal(t, 1, len(r.calls))
	require.Equal(t, 1, len(r.of("session_entry")), "an empty observation is recorded")
	for i := 0; i < 5; i++ {
		r.settle(answerText("No new observations."))
	}
	require.Equal(t, 1, len(r.calls), "the same span is never asked again")
	r.turn(1500)
	r.settle(answerText("No new observations."))
	require.Equal(t, 2, len(r.calls), "a threshold's worth of new conversation asks again")
}

func answerStopped(text, stopReason string) func(gjson.Result) string {
	return func(gjson.Result) string {
		return `{"text":` + quote(text) + `,"stopReason":` + quote(stopReason) + `}`
	}
}

// Issue 19, item 1: an empty or cut-off answer is a failed call, so the
// span stays unobserved and the next run (after the backoff) asks again.
func TestAnEmptyOrCutOffAnswerIsAFailedCallAndTheSpanIsAskedAgain(t *testing.T) {
	for _, tt := range []struct {
		name   string
		answer func(gjson.Result) string
	}{
		{"no text", answerStopped("", "stop")},
		{"no text, no stop reason", answerText("")},
		{"cut off", answerStopped("Date: Feb 27, 2026\n* 🔴 (08:00) User wants the parser to", "length")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newOmRig(t, observerConfig, "")
			r.turn(1500)
			r.settle(tt.answer)
			require.Equal(t, 1, len(r.calls))
			require.Equal(t, 0, len(r.of("session_entry")), "nothing is recorded: the span is not marked observed")
			r.h.now += 5 * 60 * 1000
			r.settle(answerText(observerAnswer))
			require.Equal(t, 2, len(r.calls), "the same span is asked again")
			require.Equal(t, r.calls[0].Get("prompt").String(), r.calls[1].Get("prompt").String())
			require.Equal(t, 1, len(r.of("session_entry")))
		})
	}
}

func TestAFailingObserverIsCalledAtMostThreeTimesInTenSettles(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	for i := 0; i < 10; i++ {
		r.turn(1500)
		r.settle(answerError("500 internal error"))
		require.Equal(t, 0, len(r.of("session_entry")), "a failure records nothing")
		r.h.now += 5 * 60 * 1000
	}
	require.Equal(t, 3, len(r.calls))
	var warnings int
	r.settle(answerError("x"))
	for _, e := range r.effects {
		if e.Get("level").String() == "warning" {
			warnings++
		}
	}
	require.Equal(t, 0, warnings, "the stop was said once, when it happened")
}

func TestAPromptTooLongIsAFailureNotAnEmptyResult(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	r.settle(answerError("400 prompt is too long: 250000 tokens > 200000 maximum"))
	require.Equal(t, 1, len(r.calls))
	require.Equal(t, 0, len(r.of("session_entry")))
}

func TestACoveredCompactionRendersOurSummaryWithPisFirstKeptEntry(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	r.settle(answerText(observerAnswer))
	covered := r.leaf
	r.turn(50)
	firstKept := "e" + strconv.Itoa(r.n-1)
	r.exchange("session_before_compact", `{"branch":`+r.branch()+`,"firstKeptEntryId":`+quote(firstKept)+`,"previousSummary":"","fileOps":{"read":["README.md"],"modified":["src/parse.go"]},"tokensBefore":3100,"reason":"threshold","window":200000}`, answerText(observerAnswer))
	require.Equal(t, 1, len(r.calls), "a covered compaction calls no model")
	c := r.of("compaction")
	require.Equal(t, 1, len(c))
	require.Equal(t, firstKept, c[0].Get("firstKeptEntryId").String())
	require.Equal(t, int64(observe.SchemaVersion), c[0].Get("details.schemaVersion").Int())
	require.Equal(t, int64(3100), c[0].Get("tokensBefore").Int())
	require.Contains(t, c[0].Get("summary").String(), "\nDate: Feb 27, 2026\n* 🔴 (06:00) User asked to fix the parser")
	require.Contains(t, c[0].Get("summary").String(), "## Observations\nNotes an observer wrote")
	require.Contains(t, c[0].Get("summary").String(), "<modified-files>\nsrc/parse.go\n</modified-files>")
	require.False(t, c[0].Get("usage").Exists(), "no call, no usage")
	_ = covered
}

func TestAnUncoveredCompactionWaitsForOneBoundedCallThenLeavesItToPi(t *testing.T) {
	tests := []struct {
		name    string
		answer  func(gjson.Result) string
		summary bool
	}{
		{"the call completes the observations", answerText(observerAnswer), true},
		{"the call fails: pi's own summary", answerError("timed out after 15000 ms"), false},
		{"the call finds nothing: still no observations, pi's own summary", answerText(""), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newOmRig(t, `{"observerTokens": 0}`, "")
			r.turn(1500)
			r.turn(50)
			firstKept := "e" + strconv.Itoa(r.n-1)
			r.exchange("session_before_compact", `{"branch":`+r.branch()+`,"firstKeptEntryId":`+quote(firstKept)+`,"tokensBefore":3100,"reason":"threshold"}`, tt.answer)
			require.Equal(t, 1, len(r.calls))
			require.Equal(t, int64(15000), r.calls[0].Get("timeoutMs").Int(), "the bound of decision 010: one observer call of 15 s (issue 19, item 7)")
			require.False(t, r.calls[0].Get("background").Bool(), "pi waits for this one, within the bound")
			c := r.of("compaction")
			require.Equal(t, tt.summary, len(c) == 1)
			if tt.summary {
				require.Equal(t, firstKept, c[0].Get("firstKeptEntryId").String())
				require.Equal(t, int64(900), c[0].Get("usage.input").Int(), "the observer call's usage goes with the summary")
				require.Equal(t, 1, len(r.of("session_entry")))
			}
		})
	}
}

// Issue 19, item 7: a compaction that comes while the settle's background
// call is out does not send the same span a second time; pi's own summary
// is used, and the background answer is recorded when it comes.
func TestACompactionNeverSendsTheSpanABackgroundCallIsReading(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	env := r.raw("agent_settled", `{"branch":`+r.branch()+`,"window":200000,"aborted":false}`)
	var out gjson.Result
	for _, e := range env.Get("effects").Array() {
		if e.Get("t").String() == "complete" {
			out = e
		}
	}
	require.True(t, out.Exists() && out.Get("background").Bool(), "the settle's call is out in the background")
	require.Equal(t, int64(120000), out.Get("timeoutMs").Int(), "a background call is bounded too")
	require.Equal(t, int64(5000), out.Get("exitMs").Int(), "quitting waits 5 s at most for it")

	r.turn(50)
	firstKept := "e" + strconv.Itoa(r.n-1)
	compact := `{"branch":` + r.branch() + `,"firstKeptEntryId":` + quote(firstKept) + `,"tokensBefore":3100,"reason":"manual"}`
	r.exchange("session_before_compact", compact, answerText(observerAnswer))
	require.Equal(t, 0, len(r.of("complete")), "no second call on the span the background call reads")
	require.Equal(t, 0, len(r.of("compaction")), "pi's own summary")
	r.exchange("command", `{"name":"om","args":"observe"}`, answerText(observerAnswer))
	require.Equal(t, 0, len(r.of("complete")), "nor from /om observe")

	r.raw("resume", `{"id":`+quote(out.Get("id").String())+`,"value":`+answerText(observerAnswer)(out)+`}`)
	for _, e := range r.last.Get("effects").Array() {
		if e.Get("t").String() == "session_entry" {
			r.add(`"type":"custom","customType":` + quote(e.Get("customType").String()) + `,"data":` + e.Get("data").Raw)
		}
	}
	r.exchange("session_before_compact", `{"branch":`+r.branch()+`,"firstKeptEntryId":`+quote(firstKept)+`,"tokensBefore":3100,"reason":"manual"}`, answerText(observerAnswer))
	require.Equal(t, 1, len(r.of("compaction")), "once the answer is in, the compaction is ours")
}

func TestOffMeansNoObserverNoEntryNoBlock(t *testing.T) {
	for _, how := range []string{"--no-memory", "/memory off"} {
		t.Run(how, func(t *testing.T) {
			flags := ""
			if how == "--no-memory" {
				flags = `"no-memory":true`
			}
			r := newOmRig(t, observerConfig, flags)
			r.turn(1500)
			if how == "/memory off" {
				r.settle(answerText(observerAnswer)) // on: one observation
				require.Equal(t, 1, len(r.calls))
				r.raw("command", `{"name":"memory","args":"off"}`)
				r.turn(1500)
			}
			calls := len(r.calls)
			r.settle(answerText(observerAnswer))
			require.Equal(t, 0, len(r.of("session_entry")))
			require.Equal(t, 0, len(r.context()), "no context block")
			r.exchange("session_before_compact", `{"branch":`+r.branch()+`,"firstKeptEntryId":"e2","tokensBefore":3100}`, answerText(observerAnswer))
			require.Equal(t, 0, len(r.of("compaction")), "no compaction of ours")
			r.exchange("command", `{"name":"om","args":"observe"}`, answerText(observerAnswer))
			require.Equal(t, int64(1), r.last.Get("exit").Int(), "a write refuses")
			require.Equal(t, calls, len(r.calls), "no model call")
		})
	}
}

func TestAnAnswerArrivingAfterMemoryWentOffIsDropped(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	env := r.raw("agent_settled", `{"branch":`+r.branch()+`}`)
	id := env.Get(`effects.#(t=="complete").id`).String()
	require.True(t, id != "")
	r.raw("command", `{"name":"memory","args":"off"}`)
	env = r.raw("resume", `{"id":"`+id+`","value":{"text":`+quote(observerAnswer)+`}}`)
	require.Equal(t, 0, len(env.Get(`effects.#(t=="session_entry")#`).Array()))
}

func TestTheContextBlockCrossesOnceAndIsNamedWhileMemoryIsUnchanged(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	r.settle(answerText(observerAnswer))
	first := r.context()
	require.Equal(t, 1, len(first))
	require.Equal(t, int64(0), first[0].Get("index").Int())
	id := first[0].Get("id").String()
	require.True(t, "" != id)
	require.Contains(t, first[0].Get("messages.0.content").String(), "User asked to fix the parser")
	// Later the same day, and on another day: memory is unchanged, so every
	// request names the block it has, and only that.
	same := `{"t":"context_messages","index":0,"same":"` + id + `"}`
	for _, later := range []int64{3 * 60 * 60 * 1000, 2 * 24 * 60 * 60 * 1000} {
		r.h.now += later
		require.Equal(t, same, r.context()[0].Raw)
	}
	// Already in the request: not twice.
	r.exchange("context", `{"messages":[{"role":"custom","customType":"`+observe.CustomTypeContext+`","content":"x"},{"role":"user","content":"q"}]}`, nil)
	require.Equal(t, 0, len(r.of("context_messages")))
	// Off and on again in this session: the host still holds it.
	r.raw("command", `{"name":"memory","args":"off"}`)
	require.Equal(t, 0, len(r.context()))
	r.raw("command", `{"name":"memory","args":"on"}`)
	require.Equal(t, same, r.context()[0].Raw)
	// After a compaction summary, the block follows it (with the continuation
	// hint, since older turns were dropped: other messages, sent in full).
	r.exchange("context", `{"messages":[{"role":"compactionSummary","summary":"s"},{"role":"user","content":"q"}]}`, nil)
	require.Equal(t, int64(1), r.of("context_messages")[0].Get("index").Int())
	r.exchange("context", `{"messages":[{"role":"compactionSummary","summary":"s"},{"role":"branchSummary","summary":"b"},{"role":"user","content":"q"}]}`, nil)
	require.Equal(t, `{"t":"context_messages","index":2,"same":"b2"}`, r.of("context_messages")[0].Raw)
	// /memory last names it.
	r.raw("command", `{"name":"memory","args":"last"}`)
	require.Contains(t, r.text(), "--- observations (in the newest request)")
}

func TestAChangedBlockOrANewSessionSendsTheBlockAgain(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	r.settle(answerText(observerAnswer))
	first := r.context()[0]
	// Older turns dropped: the continuation hint joins the block, so these are other messages.
	r.exchange("context", `{"messages":[{"role":"assistant","content":"a"},{"role":"user","content":"q"}]}`, nil)
	hinted := r.of("context_messages")[0]
	require.Equal(t, 2, len(hinted.Get("messages").Array()))
	require.True(t, first.Get("id").String() != hinted.Get("id").String())
	// Back to the first messages: sent again, since the host keeps only the last.
	again := r.context()[0]
	require.Equal(t, first.Get("messages").Raw, again.Get("messages").Raw)
	require.True(t, hinted.Get("id").String() != again.Get("id").String())
	// A new session (a switch, a fork, a restart replaying session_start) starts over,
	// the same block included, and its ids are new.
	r.raw("session_start", `{"cwd":`+quote(r.project)+`,"agentDir":`+quote(r.agent)+`,"trusted":true,"hasUI":true,"mode":"interactive","reason":"resume","flags":{},"branch":`+r.branch()+`,"sessionId":"s1","zone":0,"window":200000}`)
	next := r.context()[0]
	require.Equal(t, first.Get("messages").Raw, next.Get("messages").Raw)
	for _, earlier := range []gjson.Result{first, hinted, again} {
		require.True(t, earlier.Get("id").String() != next.Get("id").String())
	}
}

func TestAForkHasItsOwnBranchsObservations(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	before := append([]string(nil), r.entries...)
	r.settle(answerText(observerAnswer))
	require.Equal(t, 1, len(r.of("session_entry")))
	r.raw("command", `{"name":"om","args":"observations"}`)
	require.Contains(t, r.text(), "fix the parser")

	// A fork from before the observation: its branch has no ledger entry.
	fork := "[" + strings.Join(before, ",") + "]"
	r.raw("session_start", `{"cwd":`+quote(r.project)+`,"agentDir":`+quote(r.agent)+`,"trusted":true,"hasUI":true,"reason":"fork","branch":`+fork+`,"sessionId":"s2"}`)
	r.raw("command", `{"name":"om","args":"observations"}`)
	require.Equal(t, "No observations yet.", r.text())

	// Back on the original branch (a resume), its observations again.
	start := r.raw("session_start", `{"cwd":`+quote(r.project)+`,"agentDir":`+quote(r.agent)+`,"trusted":true,"hasUI":true,"reason":"resume","branch":`+r.branch()+`,"sessionId":"s1"}`)
	require.Equal(t, "om 1 obs ~20 tok", footerPiece(start.Get(`effects.#(t=="status")`), "om"), "a resumed session with observations shows the footer")
	r.raw("command", `{"name":"om-observations","args":""}`)
	require.Contains(t, r.text(), "fix the parser")
}

func TestOmCommandsChangeTheLedger(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	r.exchange("command", `{"name":"om","args":"observe --no-compact","branch":`+r.branch()+`}`, answerText(observerAnswer))
	require.Equal(t, 1, len(r.calls))
	require.False(t, r.calls[0].Get("background").Bool(), "a command waits for its call")
	require.Equal(t, 0, len(r.of("compact")))
	require.Contains(t, r.of("output")[0].Get("text").String(), "Observed in 1 call: 1 observation (~")

	// Extra words are refused, as every command refuses them, and nothing is set.
	for _, in := range []string{`{"name":"om","args":"mode blocking foo"}`, `{"name":"obs-mode","args":"blocking foo bar"}`} {
		r.exchange("command", in, nil)
		require.Equal(t, int64(2), r.last.Get("exit").Int(), in)
		require.Equal(t, 0, len(r.of("session_entry")), in)
		require.Contains(t, r.text(), `/om mode takes one argument; unexpected "foo"`, in)
	}
	r.exchange("command", `{"name":"obs-mode","args":"blocking"}`, nil)
	require.Equal(t, `{"v":1,"op":"set","t":1772172000000,"mode":"blocking"}`, r.of("session_entry")[0].Get("data").Raw)
	r.exchange("command", `{"name":"obs-auto-compact","args":"off 20000 50000"}`, nil)
	require.Equal(t, `{"v":1,"op":"set","t":1772172000000,"autoCompact":false,"observerTokens":20000,"reflectorTokens":50000}`, r.of("session_entry")[0].Get("data").Raw)
	require.Contains(t, r.of("output")[0].Get("text").String(), "Auto-compact off, blocking mode; observer at 20000 tokens, compaction at 20500; reflector at 50000")

	r.exchange("command", `{"name":"om-clear","args":""}`, nil)
	require.Equal(t, "clear", r.of("session_entry")[0].Get("data.op").String())

	r.raw("command", `{"name":"om","args":"dump"}`)
	require.Equal(t, 4, len(strings.Split(r.text(), "\n")))
	// A restart folds the same state from the branch: the overrides persist.
	r.raw("session_start", `{"cwd":`+quote(r.project)+`,"agentDir":`+quote(r.agent)+`,"trusted":true,"hasUI":true,"reason":"resume","branch":`+r.branch()+`}`)
	r.raw("command", `{"name":"om","args":"mode"}`)
	require.Contains(t, r.text(), "Mode: blocking")
	r.raw("command", `{"name":"om","args":"auto-compact on sometimes"}`)
	require.Equal(t, int64(2), r.last.Get("exit").Int())
}

func TestPimemReadsASessionButNeverWritesIt(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	r.settle(answerText(observerAnswer))
	r.raw("session_start", `{"cwd":`+quote(r.project)+`,"agentDir":`+quote(r.agent)+`,"trusted":true,"hasUI":false,"mode":"cli","branch":`+r.branch()+`}`)
	r.raw("command", `{"name":"om","argv":["view","obs"]}`)
	require.Contains(t, r.text(), "User asked to fix the parser")
	r.raw("command", `{"name":"om","argv":["clear"]}`)
	require.Equal(t, int64(1), r.last.Get("exit").Int())
	require.Contains(t, r.text(), "run it in pi")
}

func TestOurOwnCompactionIsAskedForOnceDue(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	r.settle(answerText(observerAnswer))
	r.turn(100)
	r.turn(100)
	r.settle(answerText(observerAnswer))
	require.Equal(t, 1, len(r.of("compact")), "observations cover enough: compact")
}

func TestABranchSummaryIsGivenOnlyWhenWantedAndCovered(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	r.settle(answerText(observerAnswer))
	for _, tt := range []struct {
		wants bool
		n     int
	}{{false, 0}, {true, 1}} {
		r.exchange("session_before_tree", `{"entries":`+r.branch()+`,"userWantsSummary":`+strconv.FormatBool(tt.wants)+`}`, nil)
		require.Equal(t, tt.n, len(r.of("branch_summary")))
	}
	require.Contains(t, r.of("branch_summary")[0].Get("summary").String(), "## Observations")
	r.turn(1500)
	r.exchange("session_before_tree", `{"entries":`+r.branch()+`,"userWantsSummary":true}`, nil)
	require.Equal(t, 0, len(r.of("branch_summary")), "not covered: pi's own")
}

func TestTheSeedsConfigPathIsAnAlias(t *testing.T) {
	r := newOmRig(t, "", "")
	seed := filepath.Join(r.project, ".pi", "extensions", "observational-memory")
	os.MkdirAll(seed, 0o755)
	os.WriteFile(filepath.Join(seed, "om-config.json"), []byte(`{"observerTokens": 5000}`), 0o644)
	r.raw("command", `{"name":"om","args":"config"}`)
	require.Contains(t, r.text(), "observerTokens: 5000")
	os.WriteFile(filepath.Join(r.project, ".pi", "om-config.json"), []byte(`{"observerTokens": 7000}`), 0o644)
	r.raw("command", `{"name":"om","args":"config reload"}`)
	require.Contains(t, r.text(), "observerTokens: 7000")
	require.Contains(t, r.text(), "is read and the other is ignored")
	os.WriteFile(filepath.Join(r.project, ".pi", "om-config.json"), []byte(`{"observerTokens": 7000,}`), 0o644)
	r.raw("command", `{"name":"om","args":"status"}`)
	require.Contains(t, r.text(), "Observational memory: off")
}

func TestAShortFormFollowedByHelpShowsTheCommandsHelp(t *testing.T) {
	r := newOmRig(t, "", "")
	r.raw("command", `{"name":"om-status","args":"help"}`)
	require.Equal(t, int64(0), r.last.Get("exit").Int())
	require.Contains(t, r.text(), "Usage: /om <command>")
}

func TestASettleWhileTheObserverIsOutPlansNothingUntilItIsLost(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	env := r.raw("agent_settled", `{"branch":`+r.branch()+`}`)
	require.Equal(t, 1, len(env.Get(`effects.#(t=="complete")#`).Array()))
	r.turn(1500)
	env = r.raw("agent_settled", `{"branch":`+r.branch()+`}`)
	require.Equal(t, 0, len(env.Get(`effects.#(t=="complete")#`).Array()), "one background call at a time")
	r.h.now += 10 * 60 * 1000 // decision 010: a call unanswered for 10 minutes is taken as lost
	env = r.raw("agent_settled", `{"branch":`+r.branch()+`}`)
	require.Equal(t, 1, len(env.Get(`effects.#(t=="complete")#`).Array()), "a call never answered does not stop the observer for good")
}

func TestOmConfigEditOpensTheEditorAndWritesOnlyWhatReadsBack(t *testing.T) {
	r := newOmRig(t, "", "")
	file := filepath.Join(r.project, ".pi", "om-config.json")
	edit := func(value string) {
		t.Helper()
		r.raw("command", `{"name":"om","args":"config edit","hasUI":true}`)
		d := r.last.Get("effects.0")
		require.Equal(t, "editor", d.Get("kind").String())
		require.Equal(t, "Edit "+file, d.Get("title").String())
		r.raw("resume", `{"id":`+quote(d.Get("id").String())+`,"value":`+value+`}`)
	}
	read := func() string {
		b, err := os.ReadFile(file)
		if err != nil {
			return "(none)"
		}
		return string(b)
	}

	// No file yet: the editor opens on every key at its default.
	r.raw("command", `{"name":"om","args":"config edit","hasUI":true}`)
	require.Equal(t, observe.DefaultConfigJSON(), r.last.Get("effects.0.prefill").String())
	require.Contains(t, r.last.Get("effects.0.prefill").String(), `"observerTokens": 30000,`)
	tests := []struct {
		name, answer string
		exit         int64
		says         []string
		file         string
	}{
		{"closing the editor writes nothing", `null`, 0, []string{"Nothing written: the editor was closed"}, "(none)"},
		{"the defaults unchanged write nothing", quote(observe.DefaultConfigJSON()), 0, []string{"is unchanged"}, "(none)"},
		{"invalid JSON is not written and the error is shown", quote(`{"observerTokens": 20000,}`), 1, []string{"Nothing written: " + file + " is not valid JSON", "line 1"}, "(none)"},
		{"an unclear switch would turn the store off: not written", quote(`{"enabled": "no"}`), 1, []string{`"enabled" must be true or false`}, "(none)"},
		{"a valid text is written, with the warnings that name the key", quote(`{"observerTokens": 20000, "obsrverTokens": 1}`), 0,
			[]string{"Wrote " + file, `"obsrverTokens"`}, "{\"observerTokens\": 20000, \"obsrverTokens\": 1}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edit(tt.answer)
			require.Equal(t, tt.exit, r.last.Get("exit").Int())
			for _, s := range tt.says {
				require.Contains(t, r.last.Get("effects.0.text").String(), s)
			}
			require.Equal(t, tt.file, read())
		})
	}
	// What was written is in force at once, and the next edit opens it.
	r.raw("command", `{"name":"om","args":"config"}`)
	require.Contains(t, r.text(), "observerTokens: 20000")
	r.raw("command", `{"name":"om","args":"config edit","hasUI":true}`)
	require.Equal(t, "{\"observerTokens\": 20000, \"obsrverTokens\": 1}\n", r.last.Get("effects.0.prefill").String())

	// Without a UI there is no editor: the file is named.
	r.raw("command", `{"name":"om","args":"config edit","hasUI":false}`)
	require.Equal(t, "output", r.last.Get("effects.0.t").String())
	require.Contains(t, r.text(), "Edit "+file+", then run /om config reload")
}

func TestHandleIntoReusesTheEnvelopesArrayAndGivesTheSameBytes(t *testing.T) {
	r := newOmRig(t, observerConfig, "")
	r.turn(1500)
	r.settle(answerText(observerAnswer))
	in := []byte(`{"messages":[{"role":"user","content":"what next for the parser?","timestamp":1}]}`)
	r.context() // the block crossed once: later envelopes name it
	want := string(r.e.Handle("context", in))
	buf := make([]byte, 0, 64<<10)
	got := r.e.HandleInto(buf, "context", in)
	require.Equal(t, want, string(got))
	require.True(t, &got[0] == &buf[:1][0], "the array given is reused when large enough")
	require.Equal(t, want, string(r.e.HandleInto(make([]byte, 0, 8), "context", in)), "and a new one is made when it is not")
}

// An observerModel pi cannot use ("nope/no-such-model") was not warned of
// when the configuration was read, and /om status showed it as if it were
// fine until the observer failed: the host says which models pi can use at
// session start, and both say so.
func TestAnObserverModelPiCannotUseIsWarnedOfWhenTheConfigIsRead(t *testing.T) {
	for _, tc := range []struct {
		name, models, model string
		warned              bool
	}{
		{"unknown", `["fake/fake-model"]`, "nope/no-such-model", true},
		{"known", `["fake/fake-model"]`, "fake/fake-model", false},
		{"an id of a usable provider", `["fake/fake-model"]`, "fake-model", false},
		{"the host does not say", ``, "nope/no-such-model", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			r := &omRig{rig: &rig{t: t, h: &osHost{now: 1772172000000}, project: filepath.Join(base, "proj"), agent: filepath.Join(base, "agent")}}
			require.NoError(t, os.MkdirAll(filepath.Join(r.project, ".pi"), 0o755))
			require.NoError(t, os.MkdirAll(filepath.Join(r.project, ".git"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(r.project, ".pi", "om-config.json"), []byte(`{"observerModel": `+quote(tc.model)+`}`), 0o644))
			r.e = New(r.h)
			models := ""
			if tc.models != "" {
				models = `,"models":` + tc.models
			}
			r.raw("session_start", `{"cwd":`+quote(r.project)+`,"agentDir":`+quote(r.agent)+`,"trusted":true,"hasUI":true,"mode":"print","reason":"startup","flags":{},"branch":[],"sessionId":"s1","zone":0,"window":32000`+models+`}`)
			var warnings []string
			for _, e := range r.last.Get("effects").Array() {
				if e.Get("t").String() == "notify" && e.Get("level").String() == "warning" {
					warnings = append(warnings, e.Get("text").String())
				}
			}
			status := r.cmdText("om", "status")
			if !tc.warned {
				require.Equal(t, 0, len(warnings), "%v", warnings)
				require.NotContains(t, status, "not a model pi can use")
				return
			}
			require.Equal(t, 1, len(warnings), "%v", warnings)
			require.Contains(t, warnings[0], `om-config.json: observerModel "nope/no-such-model" is not a model pi can use here`)
			require.Contains(t, status, "observer model: nope/no-such-model (not a model pi can use here; see Config below)")
			require.Contains(t, status, `Config: `+filepath.Join(r.project, ".pi", "om-config.json")+`: observerModel "nope/no-such-model" is not a model pi can use here`)
		})
	}
}

// cmdText runs a command and returns its output.
func (r *omRig) cmdText(name, args string) string {
	r.t.Helper()
	out := r.raw("command", `{"name":`+quote(name)+`,"args":`+quote(args)+`}`)
	var text []string
	for _, e := range out.Get("effects").Array() {
		if e.Get("t").String() == "output" {
			text = append(text, e.Get("text").String())
		}
	}
	return strings.Join(text, "\n")
}

// A config file's warning is said once per change, whichever store's file
// it is: not again when the session starts again trusted (the person
// answered the trust question), nor when a core restarted after a failure
// replays session_start with the session's state; a change to the file says
// its warnings at the next prompt, once.
func TestConfigWarningsAreSaidOncePerChange(t *testing.T) {
	for _, file := range []string{"agent/om-config.json", "agent/memory/config.json"} {
		t.Run(file, func(t *testing.T) {
			r := newRig(t, true)
			r.write(file, `{"bogus": true}`)
			r.write(projectIndex, "## Build\n- The project deploys with make ship\n")
			said := func(what string) int {
				n := 0
				for _, e := range r.last.Get("effects").Array() {
					if e.Get("t").String() == "notify" && strings.Contains(e.Get("text").String(), `unknown key "`+what+`"`) {
						n++
					}
				}
				return n
			}
			r.startTrust(r.project, true, true, `{"default":"ask"}`)
			require.Equal(t, 1, said("bogus"), "at the start")
			r.answer(trustYes)
			require.Equal(t, 0, said("bogus"), "the session started again, trusted")
			r.injected("hello")
			require.Equal(t, 0, said("bogus"), "a prompt")
			r.startTrust(r.project, true, true, `{"default":"ask"}`, "restore", raw(`{"state":`+r.state+`}`))
			require.Equal(t, 0, said("bogus"), "a restart after a failure")
			r.write(file, `{"bogus": true, "other": 1}`)
			r.injected("hello")
			require.Equal(t, 1, said("other"), "the change")
			require.Equal(t, 1, said("bogus"), "the change says its warnings whole")
			r.injected("hello")
			require.Equal(t, 0, said("other")+said("bogus"), "the prompt after")
		})
	}
}
