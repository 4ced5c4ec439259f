package observe

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

func dayMs(y, m, d int) int64 { return civil.Days(y, m, d) * msPerDay }

func TestInjectAllStripsMinorMarkersAndAnnotatesTime(t *testing.T) {
	st := &state{
		Groups: []group{
			{Day: civil.Days(2026, 2, 1), Items: []observation{item(medium, 600, "Started the search feature")}},
			{Day: civil.Days(2026, 2, 12), Items: []observation{
				item(high, 870, "User   prefers tabs"),
				item(low, -1, "User will deploy on Friday (meaning Feb 13, 2026)", "-> check CI (meaning Feb 12)"),
			}},
			{Day: civil.Days(2026, 2, 13), Items: []observation{item(medium, 60, "User plans to demo (meaning Feb 20, 2026)")}},
		},
		Task:     "Ship the search feature",
		Response: "Ask about the demo",
	}
	inj := inject(st, defaultConfig(), injectInput{At: clock{Ms: dayMs(2026, 2, 15) + 3600000}})
	require.Equal(t, markerStart+"\n"+contextIntro+"\nRelative dates count from Sun Feb 15, 2026.\n\n<observations>\n"+
		"Date: Feb 1, 2026 (2 weeks ago)\n"+
		"* (10:00) Started the search feature\n"+
		"[1 week later]\n"+
		"Date: Feb 12, 2026 (3 days ago)\n"+
		"* 🔴 (14:30) User prefers tabs\n"+
		"* User will deploy on Friday (meaning Feb 13, 2026 - 2 days ago) (likely already happened)\n"+
		"  * -> check CI (meaning Feb 12 - 3 days ago)\n"+
		"Date: Feb 13, 2026 (2 days ago)\n"+
		"* (01:00) User plans to demo (meaning Feb 20, 2026 - in 5 days)\n"+
		"</observations>\n\n<current-task>\nShip the search feature\n</current-task>\n\n"+
		"<suggested-response>\nAsk about the demo\n</suggested-response>\n\n"+contextRules+"\n"+markerEnd, inj.Text)
	require.Equal(t, 4, inj.Items)
	require.Equal(t, "", inj.Hint)
	require.Contains(t, inj.Why, "all: 4 observations (~")
}

func TestInjectIsByteStableUntilMemoryChanges(t *testing.T) {
	st := reflectState(50)
	st.Changed = dayMs(2026, 2, 14) + 9*3600000
	morning := inject(st, defaultConfig(), injectInput{At: clock{Ms: dayMs(2026, 2, 14) + 60000}, Query: "file3"})
	evening := inject(st, defaultConfig(), injectInput{At: clock{Ms: dayMs(2026, 2, 14) + 22*3600000}, Query: "file3"})
	require.Equal(t, morning.Text, evening.Text)
	weekLater := inject(st, defaultConfig(), injectInput{At: clock{Ms: dayMs(2026, 2, 21) + 3600000}})
	require.Equal(t, morning.Text, weekLater.Text, "days passing without a change give the same bytes")
	require.Contains(t, weekLater.Text, "Relative dates count from Sat Feb 14, 2026, when this memory last changed.")

	st.Apply(Record{Op: opObserve, Time: dayMs(2026, 2, 21) + 3600000, Obs: "Date: Feb 21, 2026\n* 🔴 (01:00) User asked for a release\n"}, defaultConfig())
	changed := inject(st, defaultConfig(), injectInput{At: clock{Ms: dayMs(2026, 2, 21) + 2*3600000}})
	require.True(t, morning.Text != changed.Text, "a change gives a new block")
	require.Contains(t, changed.Text, "count from Sat Feb 21, 2026, when")
	require.Contains(t, changed.Text, "Date: Feb 21, 2026 (today)")
}

func TestRelativeDatesCountFromTheLastChange(t *testing.T) {
	feb13at10 := dayMs(2026, 2, 13) + 10*3600000
	tests := []struct {
		name    string
		changed int64
		at      clock
		want    int64
	}{
		{"the day memory last changed, not the render day", feb13at10, clock{Ms: dayMs(2026, 2, 20)}, civil.Days(2026, 2, 13)},
		{"in the render's time zone: 10:00 UTC is the next day at UTC+15", feb13at10, clock{Ms: dayMs(2026, 2, 20), Zone: 15 * 60}, civil.Days(2026, 2, 14)},
		{"and the day before west of UTC", dayMs(2026, 2, 13) + 3600000, clock{Ms: dayMs(2026, 2, 20), Zone: -3 * 60}, civil.Days(2026, 2, 12)},
		{"the render day when the state does not say when it changed", 0, clock{Ms: dayMs(2026, 2, 20) + 3600000}, civil.Days(2026, 2, 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, (&state{Changed: tt.changed}).AsOf(tt.at))
		})
	}
}

func TestThePastIntentIsJudgedAgainstTheDayOfTheLastChange(t *testing.T) {
	st := &state{Groups: []group{{Day: civil.Days(2026, 2, 12), Items: []observation{item(high, 600, "User will deploy (meaning Feb 14, 2026)")}}},
		Changed: dayMs(2026, 2, 12) + 11*3600000}
	later := inject(st, defaultConfig(), injectInput{At: clock{Ms: dayMs(2026, 2, 16)}})
	require.Contains(t, later.Text, "(meaning Feb 14, 2026 - in 2 days)", "as of the change, the plan was still ahead")
	require.NotContains(t, later.Text, "likely already happened")
	require.Contains(t, later.Text, "count from Thu Feb 12, 2026, when this memory last changed.", "and the block says which day that was")
	st.Apply(Record{Op: opObserve, Time: dayMs(2026, 2, 16) + 3600000, Obs: "Date: Feb 16, 2026\n* 🔴 (01:00) User is back\n"}, defaultConfig())
	require.Contains(t, inject(st, defaultConfig(), injectInput{At: clock{Ms: dayMs(2026, 2, 16) + 7200000}}).Text, "(meaning Feb 14, 2026 - 2 days ago) (likely already happened)")
}

func TestInjectCoreRelevantCapsCoreAndSelection(t *testing.T) {
	cfg := defaultConfig()
	cfg.MemoryInjectionMode = injectCoreRelevant
	cfg.CoreMemoryMaxTokens = 40
	cfg.RelevantObservationMaxItems = 2
	cfg.RelevantObservationMaxTokens = 1000
	st := &state{Groups: []group{{Day: d12, Items: []observation{
		item(high, 1, "User prefers tabs in Go files"),
		item(medium, 2, "The parser lives in wasm/notes/parse.go"),
		item(low, 3, "The parser has a fuzz target"),
		item(medium, 4, "Login uses OAuth"),
		item(high, 5, "Never push to main"),
		item(medium, 6, "The parser parses markdown pages", "-> see parse_test.go"),
		item(high, 7, strings.Repeat("A very long high priority note ", 20)),
	}}}}
	inj := inject(st, cfg, injectInput{Query: "Why does the parser fail on markdown pages?", At: clock{Ms: dayMs(2026, 2, 12)}})
	// Core: the 🔴 items that fit in 40 tokens, newest first (the long one does not fit).
	require.Contains(t, inj.Text, "Never push to main")
	require.Contains(t, inj.Text, "User prefers tabs")
	require.NotContains(t, inj.Text, "A very long")
	// Relevant: the two best matches, in date order.
	require.Contains(t, inj.Text, "* (00:06) The parser parses markdown pages\n  * -> see parse_test.go\n")
	require.Contains(t, inj.Text, "The parser")
	require.NotContains(t, inj.Text, "Login uses OAuth")
	require.Equal(t, 4, inj.Items)
	require.Contains(t, inj.Why, "core_relevant: 2 core and 2 relevant of 7 observations")
	// Without a query only the core goes in.
	inj = inject(st, cfg, injectInput{At: clock{Ms: dayMs(2026, 2, 12)}})
	require.Equal(t, 2, inj.Items)
}

func TestInjectAddsTheContinuationHintWhenTurnsWereDropped(t *testing.T) {
	st := reflectState(3)
	inj := inject(st, defaultConfig(), injectInput{Dropped: true})
	require.Equal(t, continuationHint, inj.Hint)
	require.True(t, strings.HasPrefix(inj.Hint, markerStart) && strings.HasSuffix(inj.Hint, markerEnd))
}

func TestInjectNothingWithoutObservationsOrWhenOff(t *testing.T) {
	require.Equal(t, injection{Mode: injectAll, Why: "no observations yet"}, inject(&state{}, defaultConfig(), injectInput{}))
	cfg := defaultConfig()
	cfg.Enabled = false
	require.Equal(t, "", inject(reflectState(3), cfg, injectInput{}).Text)
}

func TestInjectedBlocksAreNeverObservedAgain(t *testing.T) {
	st := reflectState(5)
	inj := inject(st, defaultConfig(), injectInput{Dropped: true})
	s := newSession(feb12)
	s.user("question " + inj.Text + "\n" + inj.Hint + " more")
	s.custom(CustomTypeContext, inj.Text)
	s.custom(customTypeContinuation, inj.Hint)
	tr := s.transcript()
	require.Equal(t, "[14:30] User: question \n more", tr.Entries[0].Text)
	require.Equal(t, "", tr.Entries[1].Text+tr.Entries[2].Text)
}

func TestReadContextFindsTheQueryAndOurBlock(t *testing.T) {
	tests := []struct {
		name, msgs string
		want       contextView
	}{
		{"a fresh session", `[{"role":"user","content":"fix the bug"}]`, contextView{Query: "fix the bug"}},
		{"after a compaction", `[{"role":"compactionSummary","summary":"…"},{"role":"user","content":[{"type":"text","text":"next"},{"type":"image"}]},{"role":"assistant","content":[]}]`, contextView{Query: "next", Dropped: true, At: 1}},
		{"after a compaction and a branch summary", `[{"role":"compactionSummary","summary":"…"},{"role":"branchSummary","summary":"…"},{"role":"user","content":"q"},{"role":"branchSummary","summary":"later"}]`, contextView{Query: "q", Dropped: true, At: 2}},
		{"already injected", `[{"role":"custom","customType":"` + CustomTypeContext + `","content":"x"},{"role":"user","content":"q"}]`, contextView{Query: "q", Injected: true}},
		{"injected into the prompt", `[{"role":"user","content":"q ` + markerStart + ` mem ` + markerEnd + `"}]`, contextView{Query: "q", Injected: true}},
		{"nothing", `[]`, contextView{}},
		{"garbage", `{]`, contextView{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, readContext(tt.msgs))
		})
	}
}

func TestInjectAThousandObservations(t *testing.T) {
	st := &state{}
	for d := 0; d < 40; d++ {
		g := group{Day: d12 + int64(d)}
		for i := 0; i < 30; i++ {
			g.Items = append(g.Items, item(priority(1+i%3), i*40, "observation "+strconv.Itoa(d*30+i)+" about src/pkg"+strconv.Itoa(i)+"/file.go and its tests"))
		}
		st.Groups = append(st.Groups, g)
	}
	for _, mode := range []string{injectAll, injectCoreRelevant} {
		cfg := defaultConfig()
		cfg.MemoryInjectionMode = mode
		inj := inject(st, cfg, injectInput{Query: "what about pkg7 tests", At: clock{Ms: dayMs(2026, 4, 1)}})
		require.True(t, inj.Items > 0)
		if mode == injectCoreRelevant {
			require.True(t, inj.Tokens < 500+1400+400, "%d tokens", inj.Tokens)
		} else {
			require.Equal(t, 1200, inj.Items)
		}
	}
}

func TestInjectSeesEveryChange(t *testing.T) {
	cfg := defaultConfig()
	st := fold(nil, "", cfg)
	st.Apply(Record{Op: opObserve, Time: feb12, Through: Mark{ID: "e1"}, Obs: "Date: Feb 12, 2026\n* 🔴 (14:30) first\n"}, cfg)
	in := injectInput{At: at(feb12)}
	first := inject(st, cfg, in)
	require.Equal(t, first, inject(st, cfg, in), "the same state gives the same block")
	st.Apply(Record{Op: opObserve, Time: feb12, Through: Mark{ID: "e2"}, Obs: "Date: Feb 12, 2026\n* 🔴 (14:31) second\n"}, cfg)
	second := inject(st, cfg, in)
	require.Contains(t, second.Text, "second")
	st.Apply(Record{Op: opObserve, Time: feb12, Through: Mark{ID: "e3"}, Obs: "", Task: "a task", HasTask: true}, cfg)
	require.Contains(t, inject(st, cfg, in).Text, "a task")
	require.True(t, inject(st, cfg, injectInput{At: at(feb12), Dropped: true}).Hint != "")
	cfg.MemoryInjectionMode = injectCoreRelevant
	require.Contains(t, inject(st, cfg, in).Why, "core_relevant")
	st.Groups = nil
	require.NotContains(t, inject(st, cfg, in).Text, "second")
}

func TestApplyRedactsAHandEditedLedger(t *testing.T) {
	cfg := defaultConfig()
	st := fold([]Record{{Op: opObserve, Time: feb12, Through: Mark{ID: "e1"}, Obs: "Date: Feb 12, 2026\n* 🔴 (14:30) the db password = hunter22x\n", Task: "use token=abcdef123456", HasTask: true}}, "", cfg)
	all := render(st.Groups) + st.Task + inject(st, cfg, injectInput{At: at(feb12)}).Text
	require.NotContains(t, all, "hunter22x")
	require.NotContains(t, all, "abcdef123456")
}

func TestInjectDatesRelativeToTheLastChangeSoTheBytesHold(t *testing.T) {
	st := fold([]Record{{Op: opObserve, Time: 1770907000000, Through: Mark{ID: "a4"},
		Obs: "Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n* 🟡 (14:45) Agent added fuzzy matching to src/search.ts\n"}}, "", defaultConfig())
	// Rendered on Feb 13: relative dates count from the day memory last
	// changed (Feb 12), so the bytes hold until it changes again.
	inj := inject(st, defaultConfig(), injectInput{At: clock{Ms: 1770990000000}})
	require.Equal(t, "all: 2 observations (~296 tokens)", inj.Why)
	start, end := strings.Index(inj.Text, "Relative"), strings.Index(inj.Text, "</observations>")
	require.Equal(t, `Relative dates count from Thu Feb 12, 2026, when this memory last changed.

<observations>
Date: Feb 12, 2026 (today)
* 🔴 (14:30) User prefers tabs
* (14:45) Agent added fuzzy matching to src/search.ts
`, inj.Text[start:end])
}

func TestReadContextFindsTheQueryAfterTheSummaries(t *testing.T) {
	v := readContext(`[{"role":"compactionSummary","summary":"…"},{"role":"user","content":"why does search fail?"}]`)
	require.Equal(t, contextView{Query: "why does search fail?", Dropped: true, Injected: false, At: 1}, v)
}
