package similarity

import "testing"

var benchTexts = []string{
	"Use PostgreSQL for the primary database",
	"Never squash merge pull requests into main",
	"Write end-to-end tests with Playwright in CI on every push",
	"The default branch is main",
	"Store session tokens in httpOnly cookies instead of localStorage",
}

func BenchmarkPrepare(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = Prepare(benchTexts[i%len(benchTexts)])
	}
}

// A new decision checked against unrelated active ones: the common case.
func BenchmarkCompareUnrelated(b *testing.B) {
	x := Prepare("Use PostgreSQL for the primary database")
	y := Prepare("Write end-to-end tests with Playwright in CI on every push")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = Compare(&x, &y)
	}
}

// Every fixture pair in turn: a realistic mix of verdicts, reasons included.
func BenchmarkCompareFixture(b *testing.B) {
	pairs := loadPairs(b)
	fs := make([][2]Features, len(pairs))
	for i, p := range pairs {
		fs[i] = [2]Features{Prepare(p.A), Prepare(p.B)}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := &fs[i%len(fs)]
		_ = Compare(&f[0], &f[1])
	}
}

// One new decision against every text of the fixture, as an add does
// against the active decisions; ns/op is per comparison.
func BenchmarkCompareOneAgainstMany(b *testing.B) {
	pairs := loadPairs(b)
	active := make([]Features, 0, 2*len(pairs))
	for _, p := range pairs {
		active = append(active, Prepare(p.A), Prepare(p.B))
	}
	x := Prepare("Use MySQL for the primary database")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = Compare(&x, &active[i%len(active)])
	}
}
