package search

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

var benchVocab = strings.Fields(`database databases migration migrations schema index query postgres
tests test flaky ci pipeline build cache caching latency p95 deploy deploying production staging
auth token tokens expiry session sessions cookie rate limit limits feature flag flags rollout
frontend backend api endpoint handler error errors retry timeout queue worker job jobs cron
logging metrics tracing alert alerts dashboard incident review release version upgrade node`)

func benchDocs(n, words int) []Doc {
	r := rand.New(rand.NewSource(1))
	docs := make([]Doc, n)
	for i := range docs {
		ws := make([]string, words)
		for k := range ws {
			if r.Intn(6) == 0 {
				ws[k] = "w" + strconv.Itoa(r.Intn(20000))
			} else {
				ws[k] = benchVocab[r.Intn(len(benchVocab))]
			}
		}
		docs[i] = Doc{Kind: Decision, Ref: "D-" + strconv.Itoa(i), Text: strings.Join(ws, " "), Time: now - int64(i)*60000}
	}
	return docs
}

// BenchmarkBuild100k indexes 100k decision-sized entries (the first search
// of a large project).
func BenchmarkBuild100k(b *testing.B) {
	docs := benchDocs(100000, 40)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var x Index
		x.Update([]Source{{Key: "d", Stamp: strconv.Itoa(i), Load: func() []Doc { return docs }}})
	}
}

// BenchmarkSearch100k is one search over them, the index built.
func BenchmarkSearch100k(b *testing.B) {
	docs := benchDocs(100000, 40)
	var x Index
	x.Update([]Source{{Key: "d", Stamp: "1", Load: func() []Doc { return docs }}})
	qs := []string{"database migrations", "flaky tests on ci", "deploying to production", "cache latency"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Search(qs[i%len(qs)], DefaultLimit, now)
	}
}
