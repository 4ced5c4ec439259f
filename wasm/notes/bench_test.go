package notes

import (
	"strconv"
	"strings"
	"testing"
)

// bigIndex is a memory index of n lines shaped like the benchmark's
// (ts/bench/probe.ts): sections of eight bullets, every fifth a pointer.
func bigIndex(n int) []byte {
	topics := []string{"build", "deploy", "testing", "style", "database", "api", "security", "release", "ci", "observability"}
	out := []string{"# Project memory", ""}
	k := 0
	for len(out) < n {
		t := topics[k%len(topics)]
		out = append(out, "## "+strings.ToUpper(t[:1])+t[1:]+" "+strconv.Itoa(k/len(topics)+1))
		for i := 0; i < 8 && len(out) < n-1; i, k = i+1, k+1 {
			if k%5 == 0 {
				out = append(out, "- ["+t+" notes "+strconv.Itoa(k)+"](topic-"+strconv.Itoa(k%50)+".md) — the "+t+" details for case "+strconv.Itoa(k)+", read when touching it")
			} else {
				out = append(out, "- Fact "+strconv.Itoa(k)+" about "+t+": run `make "+t+"` before pushing; it checks item "+strconv.Itoa(k)+" and its "+strconv.Itoa(i)+" neighbours")
			}
		}
		out = append(out, "")
	}
	return []byte(strings.Join(out[:n], "\n") + "\n")
}

// BenchmarkRebuild is what /memory verify does to a 5,000-line index once
// it is read: parse it again, read the old table's dates, write the new table.
func BenchmarkRebuild(b *testing.B) {
	src := bigIndex(5000)
	var ps parser
	var d dates
	pages := ps.parse(nil, "project", src)
	table := appendPageTable(nil, 1<<30, "project", "/p/MEMORY.md", "MEMORY.md", int64(len(src)), "ab", pages, nil, 1)
	buf := append([]byte(nil), table...)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pages = ps.parse(pages, "project", src)
		if _, err := d.decode(buf); err != nil {
			b.Fatal(err)
		}
		buf = appendPageTable(buf[:0], 1<<30, "project", "/p/MEMORY.md", "MEMORY.md", int64(len(src)), "ab", pages, &d, 2)
	}
}

func BenchmarkParse(b *testing.B) {
	src := bigIndex(5000)
	var ps parser
	pages := ps.parse(nil, "project", src)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pages = ps.parse(pages, "project", src)
	}
}

func BenchmarkDecodeDates(b *testing.B) {
	src := bigIndex(5000)
	table := appendPageTable(nil, 1<<30, "project", "/p/MEMORY.md", "MEMORY.md", int64(len(src)), "ab", parse("project", src), nil, 1)
	var d dates
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := d.decode(table); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendPageTable(b *testing.B) {
	src := bigIndex(5000)
	pages := parse("project", src)
	buf := appendPageTable(nil, 1<<30, "project", "/p/MEMORY.md", "MEMORY.md", int64(len(src)), "ab", pages, nil, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = appendPageTable(buf[:0], 1<<30, "project", "/p/MEMORY.md", "MEMORY.md", int64(len(src)), "ab", pages, nil, 2)
	}
}
