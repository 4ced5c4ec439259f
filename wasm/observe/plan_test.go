package observe

import (
	"errors"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// drive plans and answers until nothing is due, returning the actions that
// called a model. It fails the test on a loop.
func drive(t *testing.T, s *state, cfg omConfig, tr *transcript, env planEnv, answer func(action) modelAnswer) (calls []action, last action) {
	t.Helper()
	for i := 0; i < 500; i++ {
		a := plan(s, cfg, tr, env)
		if a.Do != doObserve && a.Do != doReflect {
			return calls, a
		}
		calls = append(calls, a)
		r := s.Answer(a, answer(a), cfg, env.Clock)
		if r.Err != nil {
			return calls, a // a failure: the next plan waits for the backoff
		}
	}
	t.Fatal("the plan never settles")
	return nil, action{}
}

func empty(action) modelAnswer { return modelAnswer{Text: "No new observations."} }

// echo answers an observer with one observation naming the chunk's first entry.
func echo(a action) modelAnswer {
	if a.Do == doReflect {
		return modelAnswer{Text: "<observations>\nDate: Feb 12, 2026\n* 🔴 (14:30) reflected\n</observations>"}
	}
	return modelAnswer{Text: "Date: Feb 12, 2026\n* 🟡 (14:30) observed from " + a.Chunk.From + " through " + a.Chunk.Through.ID}
}

// checkCoverage verifies that chunks cover the transcript from start to its
// end exactly once: each starts where the one before ended, holds the text
// of what it covers, and stays within maxTokens.
func checkCoverage(t *testing.T, tr *transcript, chunks []chunk, start Mark, end, maxTokens int) {
	t.Helper()
	s := &state{Mark: start}
	for ci, c := range chunks {
		require.Equal(t, s.Mark, c.Start, "chunk %d starts where the previous one ended", ci)
		require.True(t, c.Tokens <= maxTokens, "chunk %d has %d tokens, over %d", ci, c.Tokens, maxTokens)
		idx, off := s.start(tr)
		last := tr.index(c.Through.ID)
		require.True(t, last >= idx, "chunk %d ends before it starts", ci)
		covered := 0
		for i := idx; i <= last; i++ {
			e := &tr.Entries[i]
			from, to := 0, len(e.Text)
			if i == idx {
				from = off
			}
			if i == last && c.Through.Off > 0 {
				to = c.Through.Off
			}
			if from >= to {
				continue
			}
			part := e.Text[from:to]
			require.Contains(t, c.Text, part, "chunk %d holds entry %s [%d:%d]", ci, e.ID, from, to)
			covered += len(part)
		}
		require.True(t, covered > 0, "chunk %d reads something", ci)
		s.Mark = c.Through
	}
	if end > 0 {
		idx, _ := s.start(tr)
		for i := idx; i < end; i++ {
			require.Equal(t, "", tr.Entries[i].Text, "entry %s is left unobserved", tr.Entries[i].ID)
		}
	}
}

func randomSession(rng *rand.Rand, turns int) *session {
	s := newSession(feb12)
	words := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 && rng.Intn(12) == 0 {
				b.WriteByte('\n')
			} else if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString([]string{"alpha", "beta", "gamma", "delta", "src/main.go", "error:", "42"}[rng.Intn(7)])
		}
		return b.String()
	}
	for k := 0; k < turns; k++ {
		s.user(words(1 + rng.Intn(60)))
		for c := rng.Intn(4); c > 0; c-- {
			id := "c" + strconv.Itoa(s.n)
			s.assistant(words(rng.Intn(20)), call{id, "bash", `{"command":"go test ./..."}`})
			n := rng.Intn(400)
			if rng.Intn(20) == 0 {
				n = 6000 // a huge output
			}
			s.result(id, "bash", words(n), rng.Intn(5) == 0)
		}
		if rng.Intn(6) == 0 {
			s.custom(CustomTypeContext, "ours")
		}
		if rng.Intn(15) == 0 {
			s.user(strings.Repeat(words(50)+"\n", 300)) // a paste larger than a chunk
		}
		s.assistant(words(rng.Intn(80)))
		if rng.Intn(10) == 0 {
			s.t += 3 * msPerDay
		}
	}
	return s
}

func TestChunksCoverEveryEntryExactlyOnce(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 20; round++ {
		tr := randomSession(rng, 5+rng.Intn(40)).transcript()
		for _, maxTokens := range []int{256, 1000, 5000, 40000} {
			chunks := cutChunks(&tr, 0, 0, len(tr.Entries), Mark{}, maxTokens)
			checkCoverage(t, &tr, chunks, Mark{}, len(tr.Entries), maxTokens)
			// From the middle of an entry too.
			if len(chunks) > 2 && chunks[1].Through.Off > 0 {
				m := chunks[1].Through
				i := tr.index(m.ID)
				rest := cutChunks(&tr, i, m.Off, len(tr.Entries), m, maxTokens)
				checkCoverage(t, &tr, rest, m, len(tr.Entries), maxTokens)
			}
		}
	}
}

func TestChunksKeepACallWithItsResults(t *testing.T) {
	s := newSession(feb12)
	s.user(strings.Repeat("x", 2500))
	s.assistant("", call{"c1", "read", `{"path":"a.go"}`})
	s.result("c1", "read", strings.Repeat("y", 1000), false)
	s.result("c1", "read", strings.Repeat("z", 500), false)
	tr := s.transcript()
	chunks := cutChunks(&tr, 0, 0, len(tr.Entries), Mark{}, 1000) // 4000 bytes
	require.Equal(t, 2, len(chunks))
	require.Equal(t, Mark{ID: "e1"}, chunks[0].Through)
	require.Equal(t, "e2", chunks[1].From)
	require.Contains(t, chunks[1].Text, "Assistant calls read")
	require.Contains(t, chunks[1].Text, "zzz")
}

func TestObserverThresholdIsNeverMoreThanAChunk(t *testing.T) {
	cfg := defaultConfig()
	require.Equal(t, 25600, chunkTokens(cfg, 128000, 0), "a fifth of the window")
	require.Equal(t, 6400, chunkTokens(cfg, 32000, 0))
	require.Equal(t, 25600, chunkTokens(cfg, 0, 0), "unknown window: 128k")
	require.Equal(t, 50000, chunkTokens(cfg, 1000000, 0), "maxObserverTranscriptChars caps it")
	require.Equal(t, 1600, chunkTokens(cfg, 32000, 2), "each prompt-too-long failure halves it")
	require.Equal(t, 256, chunkTokens(cfg, 1000, 0))

	s := newSession(feb12)
	for i := 0; i < 12; i++ {
		s.turn("next step", 4000) // ~1000 tokens each
	}
	tr := s.transcript()
	st := fold(nil, "", cfg)
	// 12k tokens: below 30k, but over a fifth of a 32k window.
	require.Equal(t, doNothing, plan(st, cfg, &tr, planEnv{Window: 200000}).Do)
	a := plan(st, cfg, &tr, planEnv{Window: 32000})
	require.Equal(t, doObserve, a.Do)
	require.True(t, a.Chunk.Tokens <= 6400)
}

// /om status showed "compaction at 38000" on a model with a 32k window,
// where pi compacts by itself at 32000 − 16384: our compaction starts
// before pi's, and never before the observer.
func TestCompactionStartsBeforePisOwnOnTheModelsWindow(t *testing.T) {
	cfg := defaultConfig()
	for _, tc := range []struct {
		window           int
		observe, compact int
	}{
		{200000, 30000, 38000},
		{128000, 25600, 38000},
		{0, 25600, 38000}, // unknown: 128k
		{64000, 12800, 38000},
		{32000, 6400, 15616},
		{16000, 3200, 3200}, // pi compacts at once: never before the observer
	} {
		observe, compact := thresholds(cfg, tc.window)
		require.Equal(t, tc.observe, observe, "window %d", tc.window)
		require.Equal(t, tc.compact, compact, "window %d", tc.window)
	}

	// Used, not only shown: ~20k tokens observed on a 32k model compact.
	s := newSession(feb12)
	for i := 0; i < 5; i++ {
		s.turn("turn "+strconv.Itoa(i), 16000) // 4k tokens a turn
	}
	tr := s.transcript()
	st := fold(nil, "", cfg)
	st.Groups = []group{{Day: d12, Items: []observation{item(high, 1, "something")}}}
	st.Mark = Mark{ID: s.last}
	require.Equal(t, doNothing, plan(st, cfg, &tr, planEnv{Window: 200000, Clock: at(s.t)}).Do, "under 38000 on a large window")
	a := plan(st, cfg, &tr, planEnv{Window: 32000, Clock: at(s.t)})
	require.Equal(t, doCompact, a.Do, a.Why)
	require.Contains(t, a.Why, "everything before turn ")
}

func TestTenEmptyTurnsCostAtMostOneCallPerThreshold(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	st := fold(nil, "", cfg)
	env := planEnv{Window: 200000}
	calls := 0
	var starts []Mark
	for turn := 0; turn < 10; turn++ {
		s.user("please continue with step " + strconv.Itoa(turn))
		for k := 0; k < 6; k++ {
			id := "t" + strconv.Itoa(turn) + "-" + strconv.Itoa(k)
			s.assistant("running", call{id, "bash", `{"command":"make test"}`})
			s.result(id, "bash", strings.Repeat("ok line of output\n", 300), false) // ~1.3k tokens
		}
		s.assistant("done with this step")
		tr := s.transcript()
		env.Clock = at(s.t)
		got, _ := drive(t, st, cfg, &tr, env, empty)
		for _, a := range got {
			starts = append(starts, a.Chunk.Start)
		}
		calls += len(got)
	}
	tr := s.transcript()
	total := observable(&tr, 0, 0)
	require.True(t, total > 60000, "the session is large enough to matter: %d tokens", total)
	require.True(t, calls <= total/cfg.ObserverTokens+1, "%d calls for %d tokens at a %d threshold", calls, total, cfg.ObserverTokens)
	require.True(t, calls >= 2)
	for i := 1; i < len(starts); i++ {
		require.True(t, tr.index(starts[i].ID) > tr.index(starts[i-1].ID), "span %v asked again", starts[i])
	}
	require.Equal(t, calls, st.Empty)
	require.Equal(t, 0, len(st.Groups))
}

func TestAFailingObserverStopsAfterThreeCalls(t *testing.T) {
	for _, gap := range []int64{1000, 60 * 1000, 3600 * 1000} {
		cfg := defaultConfig()
		s := newSession(feb12)
		st := fold(nil, "", cfg)
		calls, notices := 0, 0
		for turn := 0; turn < 10; turn++ {
			s.turn("step", 50000) // 12.5k tokens a turn: over the threshold from the third on
			tr := s.transcript()
			for k := 0; k < 5; k++ { // turn_end, agent_settled and more: plans are cheap
				a := plan(st, cfg, &tr, planEnv{Window: 200000, Clock: at(feb12 + int64(turn)*gap)})
				if a.Do != doObserve {
					continue
				}
				calls++
				r := st.Answer(a, modelAnswer{Error: "503 upstream overloaded"}, cfg, at(feb12+int64(turn)*gap))
				require.True(t, errors.Is(r.Err, errFailed))
				require.True(t, r.Record == nil)
				if r.Notice != "" {
					notices++
					require.Contains(t, r.Notice, "failed 3 times in a row (last: the model call failed: 503 upstream overloaded); it stops for this session and pi's own compaction is used")
				}
			}
		}
		require.True(t, calls <= 3, "%d observer calls with turns %d ms apart", calls, gap)
		if calls == 3 {
			require.Equal(t, 1, notices, "one warning when it stops")
		} else {
			require.Equal(t, 0, notices, "no warning while it backs off")
		}
		require.Equal(t, Mark{}, st.Mark, "a failure never moves the watermark")
		if calls == 3 {
			require.Contains(t, footer(st, cfg), "observer stopped")
		} else {
			require.Contains(t, footer(st, cfg), "observer retrying")
		}
		// /om observe tries again.
		st.Retry()
		tr := s.transcript()
		require.Equal(t, doObserve, plan(st, cfg, &tr, planEnv{Force: true, Window: 200000, Clock: at(feb12)}).Do)
	}
}

func TestBackoffDoublesBetweenFailures(t *testing.T) {
	var f failure
	require.Equal(t, "", f.fail("observer", "x", 0))
	require.False(t, f.ready(29999))
	require.True(t, f.ready(30000))
	f.fail("observer", "x", 30000)
	require.False(t, f.ready(89999))
	require.True(t, f.ready(90000))
	f.ok()
	require.True(t, f.ready(0))
}

func TestPromptTooLongIsAFailureAndShrinksTheChunks(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	for i := 0; i < 40; i++ {
		s.turn("go on", 4000)
	}
	tr := s.transcript()
	st := fold(nil, "", cfg)
	env := planEnv{Window: 100000, Force: true, Clock: at(feb12)}
	a := plan(st, cfg, &tr, env)
	require.True(t, a.Chunk.Tokens > 10000)
	r := st.Answer(a, modelAnswer{Text: "Error: prompt is too long: 30000 tokens > 20000 maximum"}, cfg, env.Clock)
	require.True(t, errors.Is(r.Err, errTooLong), "%v", r.Err)
	require.Equal(t, Mark{}, st.Mark, "not an empty result: nothing is marked as observed")
	env.Clock = at(feb12 + 30000)
	b := plan(st, cfg, &tr, env)
	require.Equal(t, doObserve, b.Do)
	require.True(t, b.Chunk.Tokens <= chunkTokens(cfg, 100000, 0)/2, "%d tokens", b.Chunk.Tokens)
	require.Equal(t, a.Chunk.Start, b.Chunk.Start)
}

func TestAnEntryLargerThanAChunkIsObservedInParts(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	s.user("short question")
	paste := ""
	for i := 0; i < 3000; i++ {
		paste += "line " + strconv.Itoa(i) + " of a pasted log\n"
	}
	s.user(paste)
	s.assistant("read it")
	tr := s.transcript()
	st := fold(nil, "", cfg)
	env := planEnv{Window: 20000, Force: true, Clock: at(feb12)} // 4000-token chunks
	calls, _ := drive(t, st, cfg, &tr, env, empty)
	require.True(t, len(calls) >= 5, "%d calls", len(calls))
	parts := ""
	for i, a := range calls {
		require.True(t, a.Chunk.Tokens <= 4000)
		if i > 0 && i < len(calls)-1 {
			require.Equal(t, "e2", a.Chunk.Through.ID)
			require.True(t, a.Chunk.Through.Off > 0)
		}
		parts += a.Chunk.Text
	}
	for _, n := range []int{0, 1234, 2999} {
		require.Contains(t, parts, "line "+strconv.Itoa(n)+" of a pasted log\n", "nothing is truncated and dropped")
	}
	require.Equal(t, Mark{ID: "e3"}, st.Mark)
}

func TestBlockingModeNeverObservesInTheBackground(t *testing.T) {
	cfg := defaultConfig()
	cfg.Mode = modeBlocking
	s := newSession(feb12)
	for i := 0; i < 20; i++ {
		s.turn("more", 20000)
	}
	tr := s.transcript()
	st := fold(nil, "", cfg)
	a := plan(st, cfg, &tr, planEnv{Clock: at(feb12)})
	require.Equal(t, doNothing, a.Do)
	require.Equal(t, doObserve, plan(st, cfg, &tr, planEnv{Force: true, Clock: at(feb12)}).Do, "/om observe still works")
	// An observer threshold of 0 is the same in buffered mode.
	cfg.Mode, cfg.ObserverTokens = modeBuffered, 0
	require.Equal(t, doNothing, plan(st, cfg, &tr, planEnv{Clock: at(feb12)}).Do)
}

func TestOurCompactionKeepsRecentTurnsAndOnlyDropsWhatIsCovered(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	for i := 0; i < 12; i++ {
		s.turn("turn "+strconv.Itoa(i), 16000) // 4k tokens a turn
	}
	tr := s.transcript()
	st := fold(nil, "", cfg)
	env := planEnv{Window: 200000, Clock: at(s.t)}
	calls, last := drive(t, st, cfg, &tr, env, echo)
	require.Equal(t, 1, len(calls))
	require.Equal(t, doCompact, last.Do, last.Why)
	kept := tr.index(last.FirstKept)
	require.True(t, tr.Entries[kept].CanCut)
	tail := 0
	for i := kept; i < len(tr.Entries); i++ {
		tail += tr.Entries[i].Tokens
	}
	require.True(t, tail >= cfg.RecentTurnBudgetTokens, "kept %d tokens", tail)
	require.True(t, tail < cfg.RecentTurnBudgetTokens+4100, "kept %d tokens", tail)
	// Everything before the kept entry is covered.
	idx, _ := st.start(&tr)
	require.True(t, idx >= kept)
}

func TestOurCompactionNeverDropsWhatIsNotObserved(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	for i := 0; i < 12; i++ {
		s.turn("turn "+strconv.Itoa(i), 16000)
	}
	tr := s.transcript()
	st := fold(nil, "", cfg)
	st.Groups = []group{{Day: d12, Items: []observation{item(high, 1, "something")}}}
	st.Mark = Mark{ID: "e6"} // turns 0–2 observed
	// The observer is stopped: the compaction still happens, keeping all that is unobserved.
	st.observer.stopped = true
	a := plan(st, cfg, &tr, planEnv{Window: 200000, Clock: at(s.t)})
	require.Equal(t, doCompact, a.Do, a.Why)
	require.Equal(t, "e7", a.FirstKept)
}

func TestAKeptTailOverTheThresholdDoesNotRepeatCompaction(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	s.user("start")
	s.assistant("", call{"c1", "read", `{"path":"huge.json"}`})
	keep := s.result("c1", "read", strings.Repeat("{\"k\": 1}\n", 25000), false) // ~56k tokens kept raw
	s.assistant("that file is large")
	tr := s.transcript()
	st := fold(nil, "", cfg)
	st.Groups = []group{{Day: d12, Items: []observation{item(high, 1, "User started")}}}
	st.Mark = Mark{ID: s.last}
	s.compaction(keep, "## Observations\n…", true) // the kept tail is already over 38k
	for i := 0; i < 5; i++ {
		s.turn("small turn", 400)
		tr = s.transcript()
		st.Mark = Mark{ID: s.last}
		a := plan(st, cfg, &tr, planEnv{Window: 200000, Clock: at(s.t)})
		require.Equal(t, doNothing, a.Do, "turn %d: %s", i, a.Why)
	}
}

func TestCompactionDoesNotRepeatAfterOurOwn(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	for i := 0; i < 12; i++ {
		s.turn("turn", 16000)
	}
	tr := s.transcript()
	st := fold(nil, "", cfg)
	_, last := drive(t, st, cfg, &tr, planEnv{Window: 200000, Clock: at(s.t)}, echo)
	require.Equal(t, doCompact, last.Do)
	s.compaction(last.FirstKept, "summary", true)
	for i := 0; i < 5; i++ {
		s.turn("small", 400)
		tr = s.transcript()
		calls, a := drive(t, st, cfg, &tr, planEnv{Window: 200000, Clock: at(s.t)}, echo)
		require.Equal(t, 0, len(calls))
		require.Equal(t, doNothing, a.Do, a.Why)
	}
}

func TestPiCompactionRendersCoveredSpansOnly(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	for i := 0; i < 8; i++ {
		s.turn("turn", 4000)
	}
	tr := s.transcript()
	env := planEnv{Window: 200000, Clock: at(s.t)}

	st := fold(nil, "", cfg)
	a := planCompaction(st, cfg, &tr, "e13", env)
	require.Equal(t, doObserve, a.Do, "one call completes the span")
	require.Equal(t, Mark{ID: "e12"}, a.Chunk.Through, "the observer reads only what the compaction drops")
	r := st.Answer(a, echo(a), cfg, env.Clock)
	require.NoError(t, r.Err)
	a = planCompaction(st, cfg, &tr, "e13", env)
	require.Equal(t, doCompact, a.Do)
	require.Equal(t, "e13", a.FirstKept)

	// Covered but empty: pi's own summary.
	st = fold(nil, "", cfg)
	a = planCompaction(st, cfg, &tr, "e13", env)
	st.Answer(a, modelAnswer{Text: "<observations></observations>"}, cfg, env.Clock)
	a = planCompaction(st, cfg, &tr, "e13", env)
	require.Equal(t, doNothing, a.Do)
	require.Contains(t, a.Why, "no observations yet; pi's own compaction runs")

	// A span that needs several calls: pi's own compaction, unless blocking.
	small := planEnv{Window: 10000, Clock: env.Clock}
	st = fold(nil, "", cfg)
	a = planCompaction(st, cfg, &tr, "e13", small)
	require.Equal(t, doNothing, a.Do)
	require.Contains(t, a.Why, "observer calls; pi's own compaction runs")
	blocking := cfg
	blocking.Mode = modeBlocking
	a = planCompaction(st, blocking, &tr, "e13", small)
	require.Equal(t, doObserve, a.Do)
	require.True(t, a.Pending > 1)

	// A stopped observer, an unknown entry.
	st.observer.stopped = true
	require.Contains(t, planCompaction(st, cfg, &tr, "e13", env).Why, "observer stopped")
	require.Contains(t, planCompaction(st, cfg, &tr, "nope", env).Why, "is not in the branch")
}

func TestReflectorTriggers(t *testing.T) {
	big := []group{{Day: d12}}
	for i := 0; i < 600; i++ {
		big[0].Items = append(big[0].Items, item(medium, i%1440, "observation number "+strconv.Itoa(i)+" "+strings.Repeat("detail ", 40)))
	}
	small := []group{{Day: d12, Items: []observation{item(high, 1, "one")}}}
	mid := []group{{Day: d12}}
	for i := 0; i < 100; i++ {
		mid[0].Items = append(mid[0].Items, item(medium, i, "observation "+strconv.Itoa(i)+" "+strings.Repeat("x ", 40)))
	}
	tr := newSession(feb12).transcript()
	tests := []struct {
		name   string
		groups []group
		since  int
		env    planEnv
		cfg    func(*omConfig)
		want   string
	}{
		{"over the token threshold", big, 0, planEnv{}, nil, doReflect},
		{"a small memory waits", small, 0, planEnv{}, nil, doNothing},
		{"every N runs", mid, 3, planEnv{}, nil, doReflect},
		{"not before N runs", mid, 2, planEnv{}, nil, doNothing},
		{"every N runs needs something to consolidate", small, 5, planEnv{}, nil, doNothing},
		{"reflection off", big, 5, planEnv{}, func(c *omConfig) { c.EnableReflection = false }, doNothing},
		{"forced even when off", small, 0, planEnv{Reflect: true}, func(c *omConfig) { c.EnableReflection = false }, doReflect},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := defaultConfig()
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			st := &state{Groups: tt.groups, SinceReflect: tt.since}
			a := plan(st, cfg, &tr, tt.env)
			require.Equal(t, tt.want, a.Do, a.Why)
			if a.Do == doReflect {
				require.Contains(t, a.Prompt, "<observations>\nDate: Feb 12, 2026\n")
				require.Contains(t, a.System, "Observations in an older format")
				require.Contains(t, a.System, outputRules, "the reflector is given the observer's format")
			}
		})
	}
}

func TestReflectionBeforeOurCompaction(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	for i := 0; i < 12; i++ {
		s.turn("turn", 16000)
	}
	tr := s.transcript()
	st := fold(nil, "", cfg)
	mid := group{Day: d12}
	for i := 0; i < 100; i++ {
		mid.Items = append(mid.Items, item(medium, i, "observation "+strconv.Itoa(i)+" "+strings.Repeat("x ", 40)))
	}
	st.Groups = []group{mid}
	calls, last := drive(t, st, cfg, &tr, planEnv{Window: 200000, Clock: at(s.t)}, echo)
	require.Equal(t, 2, len(calls))
	require.Equal(t, doObserve, calls[0].Do)
	require.Equal(t, doReflect, calls[1].Do)
	require.Equal(t, "reflecting before compaction", calls[1].Why)
	require.Equal(t, doCompact, last.Do)
}

func TestAnAnswerToAnOlderStateIsStale(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	s.turn("hello", 400)
	tr := s.transcript()
	st := fold(nil, "", cfg)
	a := plan(st, cfg, &tr, planEnv{Force: true, Clock: at(feb12)})
	b := plan(st, cfg, &tr, planEnv{Force: true, Clock: at(feb12)})
	require.NoError(t, st.Answer(a, echo(a), cfg, at(feb12)).Err)
	r := st.Answer(b, echo(b), cfg, at(feb12))
	require.True(t, errors.Is(r.Err, errStale))
	require.Equal(t, 1, countItems(st.Groups), "the same span is never observed twice")
	require.Equal(t, 0, st.observer.count, "a stale answer is not a failure")
}

func TestPlanIsQuietWhenOff(t *testing.T) {
	cfg := defaultConfig()
	cfg.Enabled = false
	s := newSession(feb12)
	s.turn("x", 400000)
	tr := s.transcript()
	st := fold(nil, "", cfg)
	a := plan(st, cfg, &tr, planEnv{Force: true})
	require.Equal(t, doNothing, a.Do)
	require.Equal(t, doNothing, planCompaction(st, cfg, &tr, "e2", planEnv{}).Do)
}

func TestABranchSummaryCoversTheWholeBranch(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	s.user("try the left approach")
	s.assistant("done", call{"c1", "edit", `{"path":"left.go"}`})
	s.result("c1", "edit", "ok", false)
	left := s.transcript()
	st := fold(nil, "", cfg) // the left branch had no records yet
	env := planEnv{Clock: at(s.t)}
	a := planCompaction(st, cfg, &left, "", env)
	require.Equal(t, doObserve, a.Do)
	require.Equal(t, Mark{ID: "e3"}, a.Chunk.Through)
	require.NoError(t, st.Answer(a, echo(a), cfg, env.Clock).Err)
	require.Equal(t, doCompact, planCompaction(st, cfg, &left, "", env).Do)
	summary, _, why := summaryOf(st, summaryInput{})
	require.Equal(t, "", why)
	require.Contains(t, summary, "## Observations\n")
	require.Contains(t, summary, "<modified-files>\nleft.go\n</modified-files>")
}

func TestPlanWaitsForTheThresholdThenObserveCoversTheBranchOnce(t *testing.T) {
	cfg := defaultConfig()
	tr := readEntries([]byte(piBranch), 0)
	st := fold(nil, "", cfg)
	now := clock{Ms: 1770907000000}

	// A few dozen tokens: below the observer's threshold (30k, or a fifth of
	// a smaller context window).
	require.Equal(t, "~54 unobserved tokens, observer at 30000", plan(st, cfg, &tr, planEnv{Clock: now, Window: 200000}).Why)

	// /om observe: the driver issues a complete effect, then hands the answer back.
	a := plan(st, cfg, &tr, planEnv{Clock: now, Force: true, NoCompact: true})
	require.Equal(t, "observe a1 → a4", a.Do+" "+a.Chunk.From+" → "+a.Chunk.Through.ID)
	r := st.Answer(a, modelAnswer{Text: "Date: Feb 12, 2026\n* 🔴 (14:30) User reported: search fails on \"C++\"\n* 🟡 (14:31) Agent read src/search.ts: search() builds a RegExp from the raw query\n<current-task>\nFix search for special characters\n</current-task>"}, cfg, now)
	require.NoError(t, r.Err)
	require.Equal(t, `{"v":1,"op":"observe","t":1770907000000,"from":"a1","through":"a4","tokens":60,"obs":"Date: Feb 12, 2026\n* 🔴 (14:30) User reported: search fails on \"C++\"\n* 🟡 (14:31) Agent read src/search.ts: search() builds a RegExp from the raw query\n","task":"Fix search for special characters","read":["src/search.ts"]}`, string(encode(*r.Record)))
	require.Equal(t, doNothing, plan(st, cfg, &tr, planEnv{Clock: now}).Do)
}

// Issue 19, item 7: while a background call is out, nothing plans a call on
// what it reads: not a settle, not a command, not pi's compaction.
func TestNothingIsSentTwiceWhileABackgroundCallIsOut(t *testing.T) {
	cfg := defaultConfig()
	s := newSession(feb12)
	for i := 0; i < 8; i++ {
		s.turn("turn", 4000)
	}
	tr := s.transcript()
	st := fold(nil, "", cfg)
	env := planEnv{Window: 200000, Clock: at(s.t)}
	require.Equal(t, doObserve, planCompaction(st, cfg, &tr, "e13", env).Do)
	require.Equal(t, doObserve, plan(st, cfg, &tr, planEnv{Window: 200000, Clock: at(s.t), Force: true}).Do)

	env.Out = true
	a := planCompaction(st, cfg, &tr, "e13", env)
	require.Equal(t, doNothing, a.Do)
	require.Contains(t, a.Why, "pi's own compaction runs rather than send it twice")
	a = plan(st, cfg, &tr, planEnv{Window: 200000, Clock: at(s.t), Force: true, Out: true})
	require.Equal(t, doNothing, a.Do)
	require.Equal(t, outWhy, a.Why)
}
