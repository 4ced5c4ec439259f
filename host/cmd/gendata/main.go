// Command gendata writes a deterministic, realistic decision log for tests and
// benchmarks: every event kind (add, edit, status, supersede, remove) in
// proportions a long-lived project plausibly produces, with timestamps that
// move forward in irregular steps and ids that follow the day.
//
//	go run ./host/cmd/gendata -events 100000 -seed 1 > decisions.jsonl
//
// -adds-only writes add events only, so the log holds exactly -events live
// decisions (the search benchmark's corpus). The same flags always produce the
// same bytes.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"strings"

	"github.com/pi-memory/pi-memory/host/internal/evtime"
	"github.com/pi-memory/pi-memory/wasm/decision"
)

func main() {
	events := flag.Int("events", 1000, "number of events to write")
	seed := flag.Int64("seed", 1, "random seed")
	out := flag.String("o", "", "output file (default stdout)")
	addsOnly := flag.Bool("adds-only", false, "write only add events: every decision stays live")
	flag.Parse()
	w := os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	defer bw.Flush()
	g := newGen(*seed)
	g.addsOnly = *addsOnly
	for i := 0; i < *events; i++ {
		bw.Write(g.next())
		bw.WriteByte('\n')
	}
}

var (
	subjects = []string{"the primary database", "background jobs", "the public API", "authentication", "feature flags",
		"frontend state", "CSS", "end-to-end tests", "unit tests", "CI pipelines", "release notes", "error handling",
		"logging", "metrics", "configuration", "secrets", "the mobile app", "search", "caching", "file uploads",
		"database migrations", "code review", "branching", "dependency updates", "internationalisation", "the admin UI",
		"rate limiting", "webhooks", "email delivery", "payments", "analytics events", "the CLI", "documentation"}
	choices = []string{"PostgreSQL", "SQLite", "Redis", "Kafka", "NATS", "gRPC", "REST", "GraphQL", "OAuth2 with PKCE",
		"JWT access tokens", "LaunchDarkly", "Zustand", "Tailwind", "Playwright", "Vitest", "Go", "TypeScript", "Rust",
		"GitHub Actions", "conventional commits", "structured JSON logs", "OpenTelemetry", "Prometheus", "environment variables",
		"Vault", "React Native", "Meilisearch", "a write-through cache", "S3 presigned URLs", "Flyway", "squash merges",
		"trunk-based development", "Renovate", "ICU message format", "server-rendered pages", "a token bucket", "signed payloads",
		"Postmark", "Stripe", "Segment", "cobra", "Docusaurus"}
	verbs   = []string{"Use %s for %s", "Prefer %s for %s", "Standardise on %s for %s", "Adopt %s for %s", "Keep %s as the basis of %s"}
	reasons = []string{"Team already knows it well", "Cheaper to operate at our scale", "Better tooling and docs",
		"Avoids vendor lock-in", "Needed for compliance", "Measured faster in our benchmarks", "Simplifies onboarding",
		"Matches what the platform team supports", "Fewer moving parts in production", "Easier to test locally"}
	details = []string{"This applies to new code; existing modules migrate when they are next touched.",
		"Exceptions need a short note in the pull request explaining why.",
		"Revisit when traffic grows by an order of magnitude.",
		"Document any deviation in the architecture log and tag the owning team.",
		"The decision was taken after comparing three alternatives in a spike.",
		"Keep the integration behind an interface so it can be swapped later.",
		"Owners review the choice at the quarterly architecture sync.",
		"New services must follow this from their first commit."}
	tags     = []string{"db", "api", "auth", "frontend", "backend", "testing", "ci", "infra", "security", "observability", "process", "mobile", "performance", "docs"}
	statuses = []string{"draft", "rejected", "superseded", "active"}
)

type gen struct {
	r    *rand.Rand
	now  int64
	seq  map[string]int
	live []string // ids that can still be edited
	buf  []byte

	addsOnly bool // every event is an add
}

func newGen(seed int64) *gen {
	return &gen{r: rand.New(rand.NewSource(seed)), now: evtime.Ms("2024-01-02T09:00:00.000Z"), seq: map[string]int{}}
}

func (g *gen) pick(list []string) string { return list[g.r.Intn(len(list))] }

func (g *gen) text() string {
	s := fmt.Sprintf(g.pick(verbs), g.pick(choices), g.pick(subjects)) + "."
	for n := g.r.Intn(6); n > 0; n-- {
		s += " " + g.pick(details)
	}
	return s
}

func (g *gen) tagList() []string {
	n := g.r.Intn(4)
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		t := g.pick(tags)
		dup := false
		for _, x := range out {
			dup = dup || x == t
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out
}

func (g *gen) newID() string {
	day := evtime.Day(g.now)
	g.seq[day]++
	return fmt.Sprintf("D-%s-%04d", day, g.seq[day])
}

// next returns one event line. Mix: 42% add, 25% edit, 13% status,
// 10% supersede, 10% remove (falling back to add when nothing is live).
func (g *gen) next() []byte {
	g.now += int64(1000 + g.r.Intn(3*3600*1000))
	ev := decision.Event{V: 1, Time: evtime.Stamp(g.now), Project: "5f1c2a9be07d43aa", Actor: "user"}
	roll := g.r.Intn(100)
	if len(g.live) < 5 || g.addsOnly {
		roll = 0
	}
	switch {
	case roll < 42:
		ev.Code, ev.ID = decision.Add, g.newID()
		ev.Data = decision.Data{Text: g.text(), Tags: g.tagList(), Status: decision.Active}
		if g.r.Intn(3) == 0 {
			ev.Data.Has |= decision.HasTitle
			ev.Data.Title = strings.TrimSuffix(strings.SplitN(ev.Data.Text, ".", 2)[0], ".")
		}
		if g.r.Intn(2) == 0 {
			ev.Data.Has |= decision.HasReason
			ev.Data.Reason = g.pick(reasons)
		}
		if g.r.Intn(10) == 0 { // written by pi-decision-memory's auto-capture
			ev.Data.Has |= decision.HasSource | decision.HasConfidence | decision.HasCategory
			ev.Data.Source, ev.Data.Confidence, ev.Data.Category = "auto", float64(65+g.r.Intn(35))/100, g.pick(tags)
		}
		g.live = append(g.live, ev.ID)
	case roll < 67:
		ev.Code, ev.ID = decision.Edit, g.pick(g.live)
		ev.Data = decision.Data{Has: decision.HasText, Text: g.text()}
		if g.r.Intn(3) == 0 {
			ev.Data.Has |= decision.HasTags
			ev.Data.Tags = g.tagList()
		}
	case roll < 80:
		ev.Code, ev.ID = decision.SetStatus, g.pick(g.live)
		ev.Data = decision.Data{Has: decision.HasStatus | decision.HasReason, Status: decision.ParseStatus(g.pick(statuses)), Reason: g.pick(reasons)}
	case roll < 90:
		old := g.pick(g.live)
		ev.Code, ev.ID = decision.Supersede, old
		ev.Data = decision.Data{Has: decision.HasStatus | decision.HasSupersededBy, Status: decision.Superseded, SupersededBy: "D-" + evtime.Day(g.now) + "-9999"}
	default:
		i := g.r.Intn(len(g.live))
		ev.Code, ev.ID = decision.Remove, g.live[i]
		g.live[i] = g.live[len(g.live)-1]
		g.live = g.live[:len(g.live)-1]
	}
	g.buf = decision.Encode(g.buf[:0], ev)
	return g.buf
}
