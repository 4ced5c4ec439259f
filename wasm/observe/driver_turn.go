package observe

import (
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// What observational memory does around pi's turns. The observer never
// runs from a turn's hooks: it runs once the agent has settled, as a
// background call pi does not wait for (agent_settled); a compaction only
// renders what is observed already, or waits for one bounded call
// (session_before_compact); each model request gets the block
// (context).

// Context adds the observations to one model request (in resource scope
// re-read first when another session changed them): a custom message
// after the summaries the request starts with. Nothing when memory may not
// inject, when there is nothing to inject, or when the block is already in
// the request. Unchanged memory gives the same bytes, whatever the date.
func (o *driver) Context(out *store.Out, in gjson.Result) {
	o.injected = true
	o.refreshLedger(false)
	if why := o.env.May(o, store.Inject); why != "" {
		o.inj, o.injWhy = injection{}, why
		return
	}
	v := readContext(jsonr.Get(in, "messages").Raw)
	if v.Injected {
		o.injWhy = "the block was already in the request"
		return
	}
	o.inj = inject(o.st, o.cfg, injectInput{Query: v.Query, At: o.now(), Dropped: v.Dropped})
	o.injWhy = ""
	if o.inj.Text == "" {
		return
	}
	// The block is the same bytes while memory is unchanged, and it is large
	// (a 1,200-observation block is over 100 KiB): it crosses to the host
	// once, and later requests name it while it stays the same.
	c := &o.ctxEffect
	if c.id == "" || !sameString(c.text, o.inj.Text) || !sameString(c.hint, o.inj.Hint) {
		msgs := []store.ContextMessage{{CustomType: CustomTypeContext, Content: o.inj.Text}}
		if o.inj.Hint != "" {
			msgs = append(msgs, store.ContextMessage{CustomType: customTypeContinuation, Content: o.inj.Hint})
		}
		*c = omContextEffect{text: o.inj.Text, hint: o.inj.Hint, id: o.env.NextID("b")}
		out.ContextMessages(v.At, c.id, msgs)
		return
	}
	if c.same == nil || c.at != v.At {
		c.at, c.same = v.At, store.ContextSame(v.At, c.id)
	}
	out.Effect(c.same)
}

// omContextEffect is the block last sent in this session, and the effect
// that repeats it at index at.
type omContextEffect struct {
	text, hint string
	id         string // "" before the first block
	at         int
	same       []byte
}

// sameString is a == b that does not compare the bytes of one string with
// themselves: inject returns the block it rendered last while memory is
// unchanged, and TinyGo compares strings byte by byte, 110 KiB of them here.
func sameString(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b) || a == b
}

// Settled is the observer's moment: the run is over and pi is idle.
// What observe plans runs as background calls, one after another through
// resume; a due compaction of ours is a compact effect (pi then asks
// session_before_compact for the summary).
func (o *driver) Settled(out *store.Out, in gjson.Result) {
	o.take(in)
	if o.env.May(o, store.Capture) != "" {
		return
	}
	o.reportProblems(out)
	if callOut(o.busy, o.busyAt, o.now().Ms) {
		return // the call that is out plans again when it answers
	}
	o.step(out, planEnv{}, &omRun{background: true, act: store.Capture})
}

// omRun is one chain of planned work: a settle's or a command's.
type omRun struct {
	background bool
	act        store.Act // what the gate is asked again when an answer arrives
	calls      int
	compacted  bool
	done       func(out *store.Out, why string) // a command's last word; nil after a settle
	failed     error                            // the model call that ended a command's chain, nil when none failed
}

// step plans and performs until nothing is due: a model call parks the
// chain until its answer, and a compaction is asked for.
func (o *driver) step(out *store.Out, env planEnv, run *omRun) {
	env.Window, env.Clock = o.window, o.now()
	// A command's run must not send what a background call is reading.
	env.Out = !run.background && callOut(o.busy, o.busyAt, env.Clock.Ms)
	a := plan(o.st, o.cfg, &o.tr, env)
	switch a.Do {
	case doObserve, doReflect:
		if stop := chainStop(a.Why, run.calls); stop != "" {
			o.finish(out, run, stop)
			return
		}
		run.calls++
		c := store.Call{Background: run.background}
		if run.background {
			c.TimeoutMs, c.ExitMs = omBackgroundTimeoutMs, omExitMs
		}
		o.ask(out, a, c, run.act, func(out *store.Out, res result, _ []byte) {
			if res.Err != nil && run.done != nil {
				run.failed = res.Err
				o.finish(out, run, res.Err.Error())
				return
			}
			o.step(out, env, run)
		})
		return
	case doCompact:
		if !run.compacted {
			run.compacted = true
			out.Compact()
		}
	}
	o.finish(out, run, a.Why)
}

func (o *driver) finish(out *store.Out, run *omRun, why string) {
	if run.done != nil {
		run.done(out, why)
	}
}

// ask issues one model call for a planned action and hands its result on.
// An answer that arrives after memory was switched off is dropped: nothing
// recorded, nothing appended.
func (o *driver) ask(out *store.Out, a action, c store.Call, act store.Act, then func(out *store.Out, res result, usage []byte)) {
	c.System, c.Prompt, c.MaxTokens, c.Model = a.System, a.Prompt, a.MaxTokens, a.Model
	// Only a background call is "out": a compaction's or a command's call
	// is awaited, and must not clear the mark of one that is still out.
	if c.Background {
		o.busy, o.busyAt = true, o.now().Ms
	}
	out.CompleteCall(c, func(out *store.Out, v gjson.Result) {
		if c.Background {
			o.busy = false
		}
		if o.env.May(o, act) != "" {
			return
		}
		ans := readModelAnswer(v, a.Model)
		res := o.st.Answer(a, ans, o.cfg, o.now())
		if res.Record != nil {
			o.record(out, *res.Record)
		}
		if res.Notice != "" {
			out.Notify("warning", res.Notice)
		}
		var usage []byte
		if u := jsonr.Get(v, "usage"); u.IsObject() {
			usage = []byte(u.Raw)
		}
		then(out, res, usage)
	})
}

// readModelAnswer reads the host's answer to a complete effect that asked
// for model: {text, stopReason?, usage?}, {error}, or {error, noModel,
// provider?} when it found no usable model (decision 001).
func readModelAnswer(v gjson.Result, model string) modelAnswer {
	if !v.IsObject() {
		return modelAnswer{Error: "the host gave no answer", Model: model}
	}
	f := members(v, "text", "stopReason", "error", "noModel", "provider")
	return modelAnswer{Text: f[0].Str, StopReason: f[1].Str, Error: f[2].Str, Model: model, NoModel: f[3].Str, Provider: f[4].Str}
}

// compactReq is what pi's compaction gives the summary.
type compactReq struct {
	firstKept    string
	tokensBefore int64
	sum          summaryInput
}

// BeforeCompact gives pi our summary when the observations cover
// what it drops: at once when they do, after one observer call with a hard
// timeout when a chunk is missing (several in blocking mode), and never an
// empty summary: otherwise nothing, and pi's own compaction runs.
func (o *driver) BeforeCompact(out *store.Out, in gjson.Result) {
	f := members(in, "window", "branch", "firstKeptEntryId", "tokensBefore", "previousSummary", "fileOps")
	o.use(f[0], f[1])
	if o.env.May(o, store.Capture) != "" {
		return
	}
	req := compactReq{
		firstKept:    f[2].Str,
		tokensBefore: f[3].Int(),
		sum: summaryInput{
			PreviousSummary: f[4].Str,
			Read:            strList(jsonr.Get(f[5], "read")),
			Modified:        strList(jsonr.Get(f[5], "modified")),
		},
	}
	o.compaction(out, req, 0, nil)
}

func (o *driver) compaction(out *store.Out, req compactReq, calls int, usage []byte) {
	now := o.now()
	a := planCompaction(o.st, o.cfg, &o.tr, req.firstKept, planEnv{Window: o.window, Clock: now, Out: callOut(o.busy, o.busyAt, now.Ms)})
	switch a.Do {
	case doCompact:
		summary, details, _ := summaryOf(o.st, req.sum)
		if summary != "" {
			out.Compaction(summary, details, req.firstKept, req.tokensBefore, usage)
		}
	case doObserve:
		if calls >= compactionCalls(o.cfg.With(o.st.Settings).Mode) {
			return
		}
		o.ask(out, a, store.Call{TimeoutMs: omCompactionTimeoutMs}, store.Capture, func(out *store.Out, res result, u []byte) {
			if res.Err == nil {
				o.compaction(out, req, calls+1, u)
				return
			}
			if res.Notice == "" {
				out.Notify("warning", compactionFailedText(res.Err))
			}
		})
	}
}

// BeforeTree gives pi a branch summary from the observations when
// the person wants one and they cover every entry being left; otherwise
// nothing (pi summarizes, or not, as asked).
func (o *driver) BeforeTree(out *store.Out, in gjson.Result) {
	if !jsonr.Get(in, "userWantsSummary").Bool() || o.env.May(o, store.Capture) != "" {
		return
	}
	if b := jsonr.Get(in, "branch"); b.Exists() {
		o.readBranch(b.Raw)
	}
	t := readEntries([]byte(jsonr.Get(in, "entries").Raw), o.zone)
	if a := planCompaction(o.st, o.cfg, &t, "", planEnv{Window: o.window, Clock: o.now()}); a.Do != doCompact {
		return
	}
	if summary, details, _ := summaryOf(o.st, summaryInput{}); summary != "" {
		out.BranchSummary(summary, details)
	}
}

// strList reads a JSON array of strings (anything else gives none).
func strList(v gjson.Result) []string {
	var out []string
	v.ForEach(func(_, s gjson.Result) bool {
		if s.Type == gjson.String {
			out = append(out, s.Str)
		}
		return true
	})
	return out
}

// take reads what an event says of the session as it is now: the model's
// context window and the current branch, each when the host sent it.
func (o *driver) take(in gjson.Result) {
	f := members(in, "window", "branch")
	o.use(f[0], f[1])
}

// use is take with the members already read.
func (o *driver) use(window, branch gjson.Result) {
	if window.Exists() {
		o.window = int(window.Int())
	}
	if branch.Exists() {
		o.readBranch(branch.Raw)
	}
	o.refreshLedger(false)
}

// members reads several members of an event's object in one pass: an
// event carries pi's whole branch, and looking each member up on its own
// would step over that branch's text once per member. A member that is
// absent gives a Result that does not Exist; the first of a repeated key
// wins, as jsonr.Get finds it.
func members(in gjson.Result, keys ...string) []gjson.Result {
	out := make([]gjson.Result, len(keys))
	if !in.IsObject() {
		return out
	}
	left := len(keys)
	in.ForEach(func(k, v gjson.Result) bool {
		for i, key := range keys {
			if !out[i].Exists() && k.Str == key {
				out[i] = v
				left--
			}
		}
		return left > 0
	})
	return out
}
