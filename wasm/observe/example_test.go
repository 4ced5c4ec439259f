package observe_test

import (
	"fmt"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/observe"
)

// A session branch as pi's sessionManager.getBranch() gives it.
const branch = `[
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-02-12T14:30:00.000Z","message":{"role":"user","content":"The search fails on C++; my token=abc123def456"}},
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-02-12T14:31:00.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"…"},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"src/search.ts"}}]}},
{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-02-12T14:31:05.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"export function search(q) { return new RegExp(q) }"}],"isError":false}},
{"type":"custom_message","id":"a4","parentId":"a3","timestamp":"2026-02-12T14:32:00.000Z","customType":"observational-memory-context","content":"(our own block: never observed)","display":false}
]`

func ExampleReadEntries() {
	tr := observe.ReadEntries([]byte(branch), 60) // UTC+1
	for _, e := range tr.Entries {
		fmt.Printf("%s %-10s %q\n", e.ID, e.Role, e.Text)
	}
	// Output:
	// a1 user       "[15:30] User: The search fails on C++; my token=[REDACTED:secret]"
	// a2 assistant  "[15:31] Assistant calls read(path=\"src/search.ts\")"
	// a3 toolResult "[15:31] Result of read(path=\"src/search.ts\"):\nexport function search(q) { return new RegExp(q) }"
	// a4 custom     ""
}

func ExamplePlan() {
	cfg := observe.DefaultConfig()
	tr := observe.ReadEntries([]byte(branch), 0)
	st := observe.Fold(nil, "", cfg)
	now := observe.Clock{Ms: 1770907000000}

	// A few dozen tokens: below the observer's threshold (30k, or a fifth of
	// a smaller context window).
	fmt.Println(observe.Plan(st, cfg, &tr, observe.Env{Clock: now, Window: 200000}).Why)

	// /om observe: the driver issues a complete effect, then hands the answer back.
	a := observe.Plan(st, cfg, &tr, observe.Env{Clock: now, Force: true, NoCompact: true})
	fmt.Println(a.Do, a.Chunk.From, "→", a.Chunk.Through.ID)
	r := st.Answer(a, observe.Answer{Text: "Date: Feb 12, 2026\n* 🔴 (14:30) User reported: search fails on \"C++\"\n* 🟡 (14:31) Agent read src/search.ts: search() builds a RegExp from the raw query\n<current-task>\nFix search for special characters\n</current-task>"}, cfg, now)
	fmt.Println(r.Err, string(observe.Encode(*r.Record)))
	fmt.Println(observe.Plan(st, cfg, &tr, observe.Env{Clock: now}).Do == observe.DoNothing)
	// Output:
	// ~54 unobserved tokens, observer at 30000
	// observe a1 → a4
	// <nil> {"v":1,"op":"observe","t":1770907000000,"from":"a1","through":"a4","tokens":60,"obs":"Date: Feb 12, 2026\n* 🔴 (14:30) User reported: search fails on \"C++\"\n* 🟡 (14:31) Agent read src/search.ts: search() builds a RegExp from the raw query\n","task":"Fix search for special characters","read":["src/search.ts"]}
	// true
}

func ExampleSummary() {
	st := observe.Fold([]observe.Record{{Op: observe.OpObserve, Time: 1770907000000, Through: observe.Mark{ID: "a4"},
		Obs: "Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n", Task: "Reindent src/", HasTask: true, Modified: []string{"src/a.go"}}}, "", observe.DefaultConfig())
	summary, details, _ := observe.Summary(st, observe.SummaryInput{PreviousSummary: "…\n<read-files>\nREADME.md\n</read-files>"})
	fmt.Print(summary)
	fmt.Println(string(details))

	_, _, why := observe.Summary(observe.Fold(nil, "", observe.DefaultConfig()), observe.SummaryInput{})
	fmt.Println(why)
	// Output:
	// ## Observations
	// Date: Feb 12, 2026
	// * 🔴 (14:30) User prefers tabs
	//
	// ## Open Threads
	// - Reindent src/
	//
	// ## Next Action Bias
	// - Continue from the most recent observations.
	//
	// <read-files>
	// README.md
	// </read-files>
	//
	// <modified-files>
	// src/a.go
	// </modified-files>
	// {"schemaVersion":1,"store":"observations","coversThrough":"a4","observations":1,"byPriority":{"high":1,"medium":0,"low":0},"observationTokens":13,"readFiles":["README.md"],"modifiedFiles":["src/a.go"]}
	// no observations yet; pi's own summary is used
}

func ExampleInject() {
	st := observe.Fold([]observe.Record{{Op: observe.OpObserve, Time: 1770907000000, Through: observe.Mark{ID: "a4"},
		Obs: "Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n* 🟡 (14:45) Agent added fuzzy matching to src/search.ts\n"}}, "", observe.DefaultConfig())
	// Rendered on Feb 13: relative dates count from the day memory last
	// changed (Feb 12), so the bytes hold until it changes again.
	inj := observe.Inject(st, observe.DefaultConfig(), observe.InjectInput{At: observe.Clock{Ms: 1770990000000}})
	fmt.Println(inj.Why)
	start, end := strings.Index(inj.Text, "Relative"), strings.Index(inj.Text, "</observations>")
	fmt.Print(inj.Text[start:end])
	// Output:
	// all: 2 observations (~215 tokens)
	// Relative dates count from Thu Feb 12, 2026, when this memory last changed.
	//
	// <observations>
	// Date: Feb 12, 2026 (today)
	// * 🔴 (14:30) User prefers tabs
	// * (14:45) Agent added fuzzy matching to src/search.ts
}

func ExampleReadContext() {
	v := observe.ReadContext(`[{"role":"compactionSummary","summary":"…"},{"role":"user","content":"why does search fail?"}]`)
	fmt.Printf("%q dropped=%v injected=%v at=%d\n", v.Query, v.Dropped, v.Injected, v.At)
	// Output:
	// "why does search fail?" dropped=true injected=false at=1
}

func ExampleDecodeLedger() {
	ledger := `{"v":1,"op":"observe","t":1770907000000,"session":"s-1","from":"a1","through":"a4","tokens":64,"obs":"Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n"}
{"v":1,"op":"set","t":1770907100000,"mode":"blocking"}
{"v":1,"op":"obs`
	recs, problems := observe.DecodeLedger([]byte(ledger))
	st := observe.Fold(recs, "s-1", observe.DefaultConfig())
	fmt.Println(len(recs), problems)
	fmt.Println(st.Mark.ID, st.Items()[0], *st.Settings.Mode)
	// Output:
	// 2 [line 3: torn last line (a write was interrupted; the next write starts on a new line): not valid JSON]
	// a4 1 blocking
}

func ExampleParseConfig() {
	c := observe.ParseConfig("~/.pi/agent/extensions/observational-memory/om-config.json", []byte(`{"preset": "cost-first"}`),
		".pi/extensions/observational-memory/om-config.json", []byte(`{"coreMemoryMaxTokens": 400, "geminiCliModel": "gemini-2.5-flash"}`))
	fmt.Println(c.MemoryInjectionMode, c.CoreMemoryMaxTokens, c.RelevantObservationMaxItems)
	fmt.Println(c.Warnings)
	// Output:
	// core_relevant 400 12
	// [.pi/extensions/observational-memory/om-config.json: "geminiCliModel" is not used: the observer runs on pi's models; set "observerModel" (any model pi knows, "" for the current one)]
}
