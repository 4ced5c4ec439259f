package observe

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Benchmarks for the figures docs/benchmarks.md will report (native here;
// make bench measures the module). They never assert a speed.

func stateOf1200() *state {
	st := &state{Task: "Ship the search feature", Response: "Ask about the demo"}
	for d := 0; d < 40; d++ {
		g := group{Day: d12 + int64(d)}
		for i := 0; i < 30; i++ {
			g.Items = append(g.Items, item(priority(1+i%3), i*40, "observation "+strconv.Itoa(d*30+i)+" about src/pkg"+strconv.Itoa(i)+"/file.go and its tests", "-> ran go test ./pkg"+strconv.Itoa(i)))
		}
		st.Groups = append(st.Groups, g)
	}
	return st
}

func BenchmarkInject1200All(b *testing.B) {
	st, cfg := stateOf1200(), defaultConfig()
	in := injectInput{Query: "why do the pkg7 tests fail", At: clock{Ms: dayMs(2026, 4, 1)}}
	for i := 0; i < b.N; i++ {
		inject(st, cfg, in)
	}
}

func BenchmarkInject1200CoreRelevant(b *testing.B) {
	st, cfg := stateOf1200(), defaultConfig()
	cfg.MemoryInjectionMode = injectCoreRelevant
	in := injectInput{Query: "why do the pkg7 tests fail", At: clock{Ms: dayMs(2026, 4, 1)}}
	for i := 0; i < b.N; i++ {
		inject(st, cfg, in)
	}
}

// A covered compaction: the plan and the summary, no model call.
func BenchmarkCoveredCompaction(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(fixtureDir, "session-200.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	tr := readEntries(data, 0)
	st, cfg := stateOf1200(), defaultConfig()
	st.Mark = Mark{ID: tr.Entries[len(tr.Entries)-1].ID}
	keep := tr.Entries[len(tr.Entries)-20].ID
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if a := planCompaction(st, cfg, &tr, keep, planEnv{}); a.Do != doCompact {
			b.Fatal(a.Why)
		}
		summaryOf(st, summaryInput{})
	}
}

func BenchmarkReadTheScriptedSession(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(fixtureDir, "session-200.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		readEntries(data, 0)
	}
}

func BenchmarkPlanAfterATurn(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(fixtureDir, "session-200.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	tr := readEntries(data, 0)
	st, cfg := stateOf1200(), defaultConfig()
	st.Mark = Mark{ID: tr.Entries[len(tr.Entries)-30].ID}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		plan(st, cfg, &tr, planEnv{Window: 200000})
	}
}

// The first request after the memory changed: nothing cached.
func BenchmarkInject1200AfterAChange(b *testing.B) {
	st, cfg := stateOf1200(), defaultConfig()
	in := injectInput{Query: "why do the pkg7 tests fail", At: clock{Ms: dayMs(2026, 4, 1)}}
	for i := 0; i < b.N; i++ {
		st.inj = nil
		inject(st, cfg, in)
	}
}

// readContext over a conversation of 40 turns whose user messages are long
// and hold escapes, as pasted logs do: it runs before every model request.
func BenchmarkReadContext40LongTurns(b *testing.B) {
	turn := `{"role":"user","content":"` + strings.Repeat(`a pasted log line\n`, 200) + `"},{"role":"assistant","content":[{"type":"text","text":"` + strings.Repeat(`an answer\n`, 200) + `"}]}`
	msgs := "[" + strings.TrimSuffix(strings.Repeat(turn+",", 40), ",") + "]"
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		readContext(msgs)
	}
}
