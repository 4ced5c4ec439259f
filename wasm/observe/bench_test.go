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

// longLivedLedger is a resource ledger of a long-lived project, runs lines
// long: observer runs of 10 observations, every fourth a reflection that
// carries every observation kept (1,200).
func longLivedLedger(runs int) []byte {
	var b strings.Builder
	n := 0
	for run := 0; run < runs; run++ {
		r := Record{Op: opObserve, Time: dayMs(2026, 2, 27), Session: "old", From: "x" + strconv.Itoa(run), Through: Mark{ID: "x" + strconv.Itoa(run)}, Tokens: 900}
		first, last := n, n+10
		if run%4 == 3 {
			r = Record{Op: opReflect, Time: r.Time, Session: "old"}
			first, last = max(0, n-1200), n
		} else {
			n += 10
		}
		obs := "Date: Feb 27, 2026\n"
		for k := first; k < last; k++ {
			obs += "* 🟡 (05:00) User keeps the old API number " + strconv.Itoa(k) + " for the billing client, since " + strings.Repeat("it is stable ", 6) + "\n"
		}
		r.Obs = obs
		b.Write(encode(r))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// Folding a long-lived project's ledger as a session reads it (1/8 of the
// 66 MiB one host/observe_ledger_test.go reads through the module): the
// driver's fold, which merges only the observations no later reflect
// replaces (folder), and record by record (Apply), what it did before.
func BenchmarkFoldLongLivedLedger(b *testing.B) {
	data := longLivedLedger(180)
	cfg := defaultConfig()
	read := func(off int64, dst []byte) (int, error) {
		if off >= int64(len(data)) {
			return 0, nil
		}
		return copy(dst, data[off:]), nil
	}
	piece := make([]byte, ledgerPiece)
	b.Run("folded", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			f := newFolder("s1", cfg)
			if _, err := readLedger(read, piece, func(r Record, _ []byte) { f.apply(r) }); err != nil {
				b.Fatal(err)
			}
			f.done()
		}
	})
	b.Run("record-by-record", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			st := &state{session: "s1"}
			if _, err := readLedger(read, piece, func(r Record, _ []byte) { st.Apply(r, cfg) }); err != nil {
				b.Fatal(err)
			}
		}
	})
}
