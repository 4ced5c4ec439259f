package observe

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

var update = flag.Bool("update", false, "rewrite the fixtures in testdata/observe")

// fixtureDir holds the scripted session that tests and benchmarks share
// (testdata/observe/README.md describes it).
var fixtureDir = filepath.Join("..", "..", "testdata", "observe")

// rng is a small deterministic generator (xorshift64*), so the fixture is
// the same bytes with every Go version.
type rng uint64

func (r *rng) next() uint64 {
	x := uint64(*r)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*r = rng(x)
	return x * 2685821657736338717
}

func (r *rng) intn(n int) int { return int(r.next()>>33) % n }

func (r *rng) pick(list []string) string { return list[r.intn(len(list))] }

var (
	fxFiles = []string{"internal/cart/cart.go", "internal/cart/cart_test.go", "internal/api/handlers.go", "internal/api/routes.go",
		"internal/store/postgres.go", "internal/store/migrations/004_orders.sql", "cmd/shopcart/main.go", "internal/pricing/discount.go",
		"internal/pricing/discount_test.go", "config/dev.yaml", "Makefile", "README.md"}
	fxFuncs   = []string{"AddItem", "RemoveItem", "Total", "ApplyDiscount", "HandleCheckout", "NewStore", "SaveOrder", "ParseConfig", "RoundCents", "ValidateSKU"}
	fxPrompts = []string{
		"Add a {f} endpoint test for the empty cart case",
		"Why does {f} return the wrong total when a discount is applied?",
		"Refactor {f} so it takes a context.Context first",
		"Can you check whether {f} handles a nil cart?",
		"Run the tests and fix whatever fails in {file}",
		"Rename {f} to something clearer and update the callers",
		"Add logging to {f} with the request id",
		"Look at {file} and tell me what is missing for checkout",
	}
	fxAssertions = []string{
		"I prefer table-driven tests with t.Run names that read like sentences",
		"We use PostgreSQL 16 for the order store because we need JSONB for line items",
		"Prices are always integer cents, never floats; that was a bug last year",
		"Don't touch cmd/shopcart/main.go, another team owns it",
		"We switched from logrus to log/slog last month, use slog everywhere",
		"The release is on Friday Feb 20, so checkout must be done by then",
		"Call it a 'basket' in user-facing text, not a cart",
		"Keep functions under 50 lines, split them otherwise",
	}
	fxErrors = []string{"panic: runtime error: invalid memory address or nil pointer dereference", "expected total 1999, got 2000",
		"undefined: ctx", "pq: relation \"orders\" does not exist", "context deadline exceeded"}
)

// scriptedSession is a 200-turn coding session on a small Go service: the
// user asks, asserts preferences and decisions, reports bugs; the agent
// reads files, edits them and runs tests, some of which fail. Turns are a
// few minutes apart, over six working days with a weekend in between.
func scriptedSession() *session {
	r := rng(0x9E3779B97F4A7C15)
	start := civil.Days(2026, 2, 11)*msPerDay + 9*3600000 // Wed Feb 11, 2026, 09:00 UTC
	s := newSession(start)
	callN := 0
	fill := func(text string) string {
		text = strings.ReplaceAll(text, "{f}", r.pick(fxFuncs))
		return strings.ReplaceAll(text, "{file}", r.pick(fxFiles))
	}
	code := func(file string, lines int) string {
		var b strings.Builder
		b.WriteString("package " + filepath.Base(filepath.Dir(file)) + "\n\n")
		for i := 0; i < lines; i++ {
			fn := r.pick(fxFuncs)
			switch r.intn(4) {
			case 0:
				b.WriteString("// " + fn + " keeps the cart consistent; see issue #" + strconv.Itoa(100+r.intn(900)) + ".\n")
			case 1:
				b.WriteString("func " + fn + "(c *Cart, sku string, qty int) (int64, error) {\n")
			case 2:
				b.WriteString("\tif qty <= 0 {\n\t\treturn 0, fmt.Errorf(\"" + strings.ToLower(fn) + ": bad quantity %d\", qty)\n\t}\n")
			default:
				b.WriteString("\ttotal += c.Items[i].PriceCents * int64(c.Items[i].Qty)\n}\n")
			}
		}
		return b.String()
	}
	tool := func(name, args, result string, isErr bool) {
		callN++
		id := "call-" + strconv.Itoa(callN)
		s.assistant(r.pick([]string{"", "", "Let me check.", "Looking at the code first.", "Running the tests."}), call{id, name, args})
		s.result(id, name, result, isErr)
	}
	for turn := 0; turn < 200; turn++ {
		switch {
		case turn > 0 && turn%34 == 0 && turn != 102:
			s.t = (civil.FloorDiv(s.t, msPerDay)+1)*msPerDay + 9*3600000 // the next morning
		case turn == 102:
			s.t = (civil.FloorDiv(s.t, msPerDay)+3)*msPerDay + 9*3600000 // after the weekend
		}
		if turn%9 == 4 {
			s.user(fxAssertions[(turn/9)%len(fxAssertions)])
		} else {
			s.user(fill(r.pick(fxPrompts)))
		}
		for k := 1 + r.intn(4); k > 0; k-- {
			file := r.pick(fxFiles)
			switch r.intn(5) {
			case 0, 1:
				tool("read", `{"path":"`+file+`"}`, code(file, 6+r.intn(24)), false)
			case 2:
				tool("edit", `{"path":"`+file+`","oldText":"return 0, nil","newText":"return total, nil"}`, "Successfully replaced text in "+file+".", false)
			case 3:
				pkg := "./" + filepath.Dir(file) + "/..."
				if r.intn(3) == 0 {
					msg := r.pick(fxErrors)
					tool("bash", `{"command":"go test `+pkg+`"}`, "--- FAIL: Test"+r.pick(fxFuncs)+" (0.01s)\n    "+file+":"+strconv.Itoa(10+r.intn(200))+": "+msg+"\nFAIL\nexit status 1", true)
				} else {
					tool("bash", `{"command":"go test `+pkg+`"}`, "ok  \tshopcart/"+filepath.Dir(file)+"\t0."+strconv.Itoa(10+r.intn(89))+"s", false)
				}
			default:
				tool("grep", `{"pattern":"`+r.pick(fxFuncs)+`","path":"internal"}`, strings.Repeat(file+":"+strconv.Itoa(r.intn(300))+": "+r.pick(fxFuncs)+"(c, sku, 1)\n", 1+r.intn(8)), false)
			}
		}
		s.assistant(r.pick([]string{"Done: the change is in place and the tests pass.", "I made the change; one test still fails, see above.", "Here is what I found: the total is computed before the discount is rounded.", "Updated. Anything else?"}))
		s.t += int64(2+r.intn(9)) * 60000
	}
	return s
}

func TestTheScriptedSessionFixtureIsCurrent(t *testing.T) {
	got := scriptedSession().jsonl()
	path := filepath.Join(fixtureDir, "session-200.jsonl")
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./wasm/observe -run Fixture -update to write it")
	require.True(t, bytes.Equal(want, got), "%s is not what scriptedSession writes; run go test ./wasm/observe -run Fixture -update", path)
}

// scriptedObserver answers an observer prompt by rule, from the transcript
// in it, the way testdata/observe/README.md describes (so any host can
// answer the same way): a day line becomes a date; a user message a 🔴
// observation of its first sentence; the tool calls of an assistant
// message one 🟡 observation with a step per call; a failed result a 🔴
// observation of its first line with the failure.
func scriptedObserver(prompt string) string {
	i, j := strings.Index(prompt, "<transcript>\n"), strings.LastIndex(prompt, "\n</transcript>")
	if i < 0 || j < i {
		return ""
	}
	var b strings.Builder
	var steps []string
	stepAt := ""
	flush := func() {
		if len(steps) > 0 {
			b.WriteString("* 🟡 (" + stepAt + ") Agent ran " + strconv.Itoa(len(steps)) + " tool call(s)\n")
			for _, s := range steps {
				b.WriteString("  * -> " + s + "\n")
			}
		}
		steps = nil
	}
	lines := strings.Split(prompt[i+len("<transcript>\n"):j], "\n")
	for k, l := range lines {
		switch {
		case strings.HasPrefix(l, "--- ") && strings.HasSuffix(l, " ---"):
			flush()
			if d := strings.TrimSuffix(strings.TrimPrefix(l, "--- "), " ---"); len(d) > 4 {
				b.WriteString("Date: " + d[4:] + "\n")
			}
		case len(l) > 8 && l[0] == '[' && l[6] == ']':
			at, rest := l[1:6], l[8:]
			switch {
			case strings.HasPrefix(rest, "User: "):
				flush()
				text := rest[len("User: "):]
				if e := strings.IndexAny(text, ".?!"); e > 0 {
					text = text[:e]
				}
				b.WriteString("* 🔴 (" + at + ") User: " + text + "\n")
			case strings.HasPrefix(rest, "Assistant calls "):
				if len(steps) == 0 {
					stepAt = at
				}
				steps = append(steps, strings.TrimPrefix(rest, "Assistant calls "))
			case strings.HasPrefix(rest, "Result of ") && strings.HasSuffix(rest, " (error):") && k+1 < len(lines):
				flush()
				b.WriteString("* 🔴 (" + at + ") " + strings.TrimSuffix(strings.TrimPrefix(rest, "Result of "), " (error):") + " failed: " + strings.TrimSpace(lines[k+1]) + "\n")
			}
		}
	}
	flush()
	return b.String()
}

// scriptedReflector keeps the 🔴 observations and the first line of each
// 🟡 one, drops the 🟢 and the nested steps.
func scriptedReflector(prompt string) string {
	i, j := strings.Index(prompt, "<observations>\n"), strings.Index(prompt, "</observations>")
	var b strings.Builder
	b.WriteString("<observations>\n")
	seen := map[string]bool{}
	for _, l := range strings.Split(prompt[i+len("<observations>\n"):j], "\n") {
		switch {
		case strings.HasPrefix(l, "Date: "):
			b.WriteString(l + "\n")
		case strings.HasPrefix(l, "* 🔴"), strings.HasPrefix(l, "* 🟡"):
			k := l
			if p := strings.IndexByte(l, ')'); p > 0 {
				k = l[p:]
			}
			if !seen[k] {
				seen[k] = true
				b.WriteString(l + "\n")
			}
		}
	}
	b.WriteString("</observations>\n")
	return b.String()
}

// TestCompressionOfTheScriptedSession replays the fixture turn by turn the
// way the driver does: plan after every turn, answer with the scripted
// observer and reflector, append our compaction when one is due. It checks
// the rules that must hold over a whole session and logs the compression.
func TestCompressionOfTheScriptedSession(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtureDir, "session-200.jsonl"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	cfg := defaultConfig()
	env := planEnv{Window: 128000}
	st := fold(nil, "", cfg)
	tr := readEntries(nil, 0)
	var observed, reflected, compactions int
	var last Mark
	maxChunk := 0
	plan := func(now int64) {
		env.Clock = at(now)
		for k := 0; k < 100; k++ {
			a := plan(st, cfg, &tr, env)
			switch a.Do {
			case doObserve:
				require.Equal(t, last, a.Chunk.Start, "each chunk starts where the last one ended")
				if a.Chunk.Tokens > maxChunk {
					maxChunk = a.Chunk.Tokens
				}
				r := st.Answer(a, modelAnswer{Text: scriptedObserver(a.Prompt)}, cfg, env.Clock)
				require.NoError(t, r.Err)
				last = a.Chunk.Through
				observed++
			case doReflect:
				r := st.Answer(a, modelAnswer{Text: scriptedReflector(a.Prompt)}, cfg, env.Clock)
				require.NoError(t, r.Err)
				reflected++
			case doCompact:
				summary, details, why := summaryOf(st, summaryInput{})
				require.Equal(t, "", why)
				compactions++
				entry := `{"type":"compaction","id":"om-` + strconv.Itoa(compactions) + `","timestamp":"` + isoTime(now) + `","summary":` + string(jsonString(summary)) + `,"firstKeptEntryId":"` + a.FirstKept + `","tokensBefore":0,"details":` + string(details) + `}`
				require.True(t, tr.Append([]byte(entry)))
				return
			default:
				return
			}
		}
		t.Fatal("the plan never settles")
	}
	var now int64
	for i, l := range lines[1:] {
		if strings.Contains(l, `"role":"user"`) && i > 0 {
			plan(now) // the previous turn has ended
		}
		require.True(t, tr.Append([]byte(l)))
		now = tr.Entries[len(tr.Entries)-1].Time
	}
	plan(now)

	before := 0
	for _, e := range tr.Entries {
		if e.Role != roleCompaction {
			before += e.Tokens
		}
	}
	after := st.Tokens()
	n := st.Items()
	t.Logf("scripted session: %d entries, ~%d tokens of conversation; observations ~%d tokens (%.1f× smaller): %d kept (🔴 %d, 🟡 %d, 🟢 %d); %d observer calls, %d reflections, %d compactions; largest chunk %d tokens",
		len(tr.Entries), before, after, float64(before)/float64(after), n[0], n[high], n[medium], n[low], observed, reflected, compactions, maxChunk)
	require.True(t, before > 60000, "the fixture is a long session")
	require.True(t, maxChunk <= 128000/5)
	require.True(t, observed <= before/chunkTokens(cfg, 128000, 0)+1+compactions, "%d observer calls", observed)
	require.True(t, compactions >= 1)
	require.True(t, before > 3*after, "compression %d → %d", before, after)
	require.True(t, n[high] > 0 && n[medium] > 0)
	// Everything but the newest turn is covered.
	idx, _ := st.start(&tr)
	require.True(t, observable(&tr, idx, 0) < cfg.ObserverTokens)
	// The summary that the next compaction gives is ours and never observed again.
	summary, _, _ := summaryOf(st, summaryInput{})
	require.True(t, budget.EstimateTokens(summary) < before/3)
}

func jsonString(s string) []byte {
	var o objectAlias
	o.Str("s", s)
	b := o.Close()
	return b[len(`{"s":`) : len(b)-1]
}
