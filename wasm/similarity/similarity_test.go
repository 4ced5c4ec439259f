package similarity

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func compare(a, b string) Result {
	x, y := Prepare(a), Prepare(b)
	return Compare(&x, &y)
}

type pairCase struct{ a, b string }

// expectVerdict checks each pair in both orders: the verdict must not depend
// on which text is the new one.
func expectVerdict(t *testing.T, want Verdict, cases []pairCase) {
	t.Helper()
	for _, c := range cases {
		for _, p := range [][2]string{{c.a, c.b}, {c.b, c.a}} {
			require.Equal(t, want, compare(p[0], p[1]).Verdict, "Compare(%q, %q)", p[0], p[1])
		}
	}
}

func TestNormalisedExactMatchIsDuplicateWithScoreOne(t *testing.T) {
	for _, c := range []pairCase{
		{"Use PostgreSQL as the primary database.", "use postgresql as the primary database"},
		{"  Use   tabs!! ", "use tabs"},
		{"Don't use ORMs", "dont use ORMs"},
		{"ÉCOLE", "école"},
	} {
		r := compare(c.a, c.b)
		require.True(t, r.Verdict == Duplicate && r.Score == 1, "Compare(%q, %q) = %v %.2f, want duplicate 1", c.a, c.b, r.Verdict, r.Score)
	}
}

func TestReorderedWordsAreDuplicates(t *testing.T) {
	expectVerdict(t, Duplicate, []pairCase{
		{"Use tabs for indentation", "Indentation uses tabs"},
		{"Use Redis for session storage", "For session storage, use Redis"},
		{"Tests run in parallel in CI", "In CI, tests run in parallel"},
		{"The primary database is PostgreSQL", "Use PostgreSQL for the primary database"},
	})
}

func TestAbbreviationsAndSynonymsAreDuplicates(t *testing.T) {
	expectVerdict(t, Duplicate, []pairCase{
		{"Use PostgreSQL for the primary database", "Use Postgres for the primary DB"},
		{"Deploy to Kubernetes with Helm charts", "Deploy on K8s using Helm charts"},
		{"Never commit secrets to the repository", "Do not commit secrets to the repo"},
		{"Read the configuration from environment variables", "Read the config from env vars"},
		{"Use TypeScript for the dashboard", "Use TS for the dashboard"},
		{"Use CI for every PR", "Use continuous integration for every pull request"},
	})
}

// One number changed is another fact, however alike the words; a number
// inside a word ("k8s") is spelling, and the same numbers in another order
// are the same fact.
func TestANumberChangedIsNotADuplicate(t *testing.T) {
	for _, c := range []pairCase{
		{"kiwi fact number 4", "kiwi fact number 1"},
		{"Pin the linter to version 1.2.3", "Pin the linter to version 1.2.4"}, // a conflict
		{"The build cache keeps 10 entries", "The build cache keeps 20 entries"},
		// A number inside a word, one a prefix of the other (the adversarial
		// pass: "new fact number1 about ostrich1" was refused as "already
		// remembered" beside "… number10 about ostrich10", and lost).
		{"new fact number1 about ostrich1", "new fact number10 about ostrich10"},
		{"Run the migration on node1 of shard1", "Run the migration on node12 of shard12"},
		// The same numbers swapped after the same word (h-v83 B2: the
		// correction was refused as "already remembered" and the fact it
		// corrects marked confirmed).
		{"Map host port 8080 to container port 3000", "Map host port 3000 to container port 8080"},
		{"Use Python 3.12 not 3.11", "Use Python 3.11 not 3.12"},
		{"Node 18 is for CI and Node 22 for local dev", "Node 22 is for CI and Node 18 for local dev"},
		{"client 1 fact 3 about figs", "client 3 fact 1 about figs"},
	} {
		r := compare(c.a, c.b)
		require.True(t, r.Verdict != Duplicate, "Compare(%q, %q) = duplicate", c.a, c.b)
	}
	expectVerdict(t, Duplicate, []pairCase{
		{"Deploy to K8s with Helm", "Deploy on Kubernetes using Helm"},
		{"Use Node.js 22 for the API", "Use Node 22 for the API"},
		{"Ports 8080 and 9090 are the staging ports", "The staging ports are 9090 and 8080"},
		{"Require two approvals before merging", "PRs need 2 approvals before merge"}, // a number word is not read
	})
	r := compare("kiwi fact number 4", "kiwi fact number 1")
	require.Equal(t, "the numbers differ", r.Reason)
}

func TestTyposPluralsAndArticlesAreDuplicates(t *testing.T) {
	expectVerdict(t, Duplicate, []pairCase{
		{"Use PostgreSQL for the primary databse", "Use PostgreSQL for the primary database"},
		{"Use Kuberentes for orchestration", "Use Kubernetes for orchestration"},
		{"Use a feature branch per ticket", "Use feature branches per ticket"},
		{"Use the repository pattern for data access", "Use repository pattern for data access"},
		{"Run the tests in a pre-commit hook", "Run tests in a precommit hook"},
	})
}

func TestTyposDoNotJoinDifferentNames(t *testing.T) {
	// One edit apart, but different products: digits and short names are
	// never typos of each other.
	expectVerdict(t, Conflict, []pairCase{
		{"Use MySQL for the primary database", "Use MSSQL for the primary database"},
		{"Use Python 3.12 for all scripts", "Use Python 3.10 for all scripts"},
	})
}

func TestChoiceSwapIsAConflict(t *testing.T) {
	expectVerdict(t, Conflict, []pairCase{
		{"Use PostgreSQL for the primary database", "Use MySQL for the primary database"},
		{"Use tabs for indentation", "Use spaces for indentation"},
		{"Write the CLI in Go", "Write the CLI in Rust"},
		{"The default branch is main", "The default branch is master"},
		{"Use 2 spaces for indentation", "Use 4 spaces for indentation"},
	})
}

func TestNegationIsAConflict(t *testing.T) {
	expectVerdict(t, Conflict, []pairCase{
		{"Always squash merge PRs", "Never squash merge PRs"},
		{"Use ORMs", "Do not use an ORM"},
		{"Enable TypeScript strict mode", "Disable TypeScript strict mode"},
		{"Tests must hit a real database", "Tests must not hit a real database"},
		{"Require signed commits", "Signed commits are optional"},
		{"Use TypeScript strict mode", "Disable TypeScript strict mode"},
		{"Use Kubernetes for deployment", "Do not use Kubernetes; deploy to plain VMs"},
	})
}

// A prohibition with words of its own forbids something else.
func TestNarrowerProhibitionIsNotAConflict(t *testing.T) {
	expectVerdict(t, Unrelated, []pairCase{
		{"Never squash merge PRs", "Merge pull requests with a merge commit"},
		{"Use mocks in unit tests", "Do not use mocks in integration tests"},
		{"Do not use MySQL for the primary database", "Use PostgreSQL for the primary database"},
	})
}

// "with Helm" (how) and "on Fridays" (when) fill different slots of a frame.
func TestModifiersOfDifferentKindsAreNotConflicts(t *testing.T) {
	expectVerdict(t, Unrelated, []pairCase{
		{"Deploy with blue-green deployments", "Deploy on Fridays"},
		{"Log in JSON format", "Log at info level in production"},
		{"Use Jest for unit tests", "Use mocks in unit tests"},
		{"Write docs for every public API", "Write docs in Markdown"},
	})
	expectVerdict(t, Conflict, []pairCase{
		{"Deploy the API on AWS Lambda", "Deploy the API to Fly.io"},
		{"Use pnpm as the package manager", "Use Yarn for the package manager"},
	})
}

func TestChoosingWhatTheOtherRejectsIsAConflict(t *testing.T) {
	expectVerdict(t, Conflict, []pairCase{
		{"Prefer composition over inheritance", "Prefer inheritance over composition"},
		{"Use tabs, not spaces", "Use spaces instead of tabs"},
		{"Use PostgreSQL, not MySQL, for the primary database", "Use MySQL for the primary database"},
		{"Migrate from MySQL to PostgreSQL", "Stay on MySQL for the main database"},
	})
	// Two texts that both turn MySQL down agree.
	expectVerdict(t, Unrelated, []pairCase{
		{"Do not use MySQL for the primary database", "Migrate from MySQL to PostgreSQL"},
		{"Do not use MySQL for the primary database", "Use PostgreSQL, not MySQL, for the primary database"},
	})
}

func TestSameChoiceDifferentSubjectIsNotAConflict(t *testing.T) {
	expectVerdict(t, Unrelated, []pairCase{
		{"Use tabs in Go files", "Use tabs in Makefiles"},
		{"Use Redis for caching", "Use Redis for rate limiting"},
		{"Write the CLI in Go", "Write the backend in Go"},
		{"Use spaces around operators", "Use spaces for indentation"},
	})
}

func TestCompatibleStatementsAreNotConflicts(t *testing.T) {
	expectVerdict(t, Unrelated, []pairCase{
		{"Use tabs for indentation", "Use spaces for alignment"},
		{"Never deploy on Fridays", "Never deploy on Mondays"},
		{"Use 2 spaces for indentation in YAML", "Use 4 spaces for indentation in Python"},
	})
}

func TestSharedWordsWithDifferentMeaningAreUnrelated(t *testing.T) {
	expectVerdict(t, Unrelated, []pairCase{
		{"Use Go for the CLI", "Go with Vue for the dashboard"},
		{"Keep the main branch deployable", "Keep main functions small"},
		{"Use PostgreSQL for the primary database", "Back up the primary database nightly"},
	})
}

func TestConflictReasonNamesTheChoices(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"Use PostgreSQL for the primary database", "Use MySQL for the primary database", "PostgreSQL vs MySQL for primary database"},
		{"Deploy the API on AWS Lambda", "Deploy the API on Fly.io", "AWS Lambda vs Fly.io for Deploy API"},
		{"Use kebab-case for file names", "Use snake_case for file names", "kebab-case vs snake_case for file names"},
		{"Prefer composition over inheritance", "Prefer inheritance over composition", "composition vs inheritance"},
		{"Always squash merge PRs", "Never squash merge PRs", `"Never" contradicts "Always squash merge PRs"`},
		{"Do not use an ORM", "Use ORMs", `"Do not" contradicts "Use ORMs"`},
	}
	for _, tt := range tests {
		r := compare(tt.a, tt.b)
		require.True(t, r.Verdict == Conflict && r.Reason == tt.want, "Compare(%q, %q) = %v %q, want conflict %q", tt.a, tt.b, r.Verdict, r.Reason, tt.want)
	}
}

func TestTextsWithoutWordsAreUnrelated(t *testing.T) {
	for _, c := range []pairCase{{"", ""}, {"!!!", "???"}, {"", "Use tabs"}} {
		r := compare(c.a, c.b)
		require.True(t, r.Verdict == Unrelated && r.Score == 0, "Compare(%q, %q) = %v %.2f, want unrelated 0", c.a, c.b, r.Verdict, r.Score)
	}
	require.Equal(t, Unrelated, Compare(nil, nil).Verdict, "Compare(nil, nil)")
}

func TestLongTextsStillMatchThemselves(t *testing.T) {
	long := strings.Repeat("Use PostgreSQL for the primary database and ", 300)
	r := compare(long, long+" ")
	require.True(t, r.Verdict == Duplicate && r.Score == 1, "long text vs itself = %v %.2f", r.Verdict, r.Score)
	require.Equal(t, Duplicate, compare(long, long+"but MySQL for tests").Verdict, "long texts differing after the read limit")
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  Use   PostgreSQL, always! ", "use postgresql always"},
		{"Don't use C++", "dont use cpp"},
		{"C# and F# vs C", "csharp and fsharp vs c"},
		{"snake_case or kebab-case?", "snake case or kebab case"},
		{"Node.js 20 (LTS)", "node js 20 lts"},
		{"ÉCOLE Straße", "école straße"},
		{"a+b #tag", "a b tag"},
		{"", ""},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, Normalize(tt.in), "Normalize(%q)", tt.in)
	}
}

func TestStemJoinsInflections(t *testing.T) {
	groups := [][]string{
		{"database", "databases"},
		{"merge", "merged", "merging", "merges"},
		{"dependency", "dependencies"},
		{"test", "tests", "testing", "tested"},
		{"run", "running", "runs"},
		{"branch", "branches"},
		{"name", "named", "naming", "names"},
	}
	for _, g := range groups {
		for _, w := range g[1:] {
			require.Equal(t, stem(g[0]), stem(w), "stem(%q) against stem(%q)", w, g[0])
		}
	}
	for _, w := range []string{"status", "redis", "process", "string", "use", "go"} {
		require.True(t, strings.HasPrefix(w, stem(w)) && len(stem(w)) >= 2, "stem(%q) = %q", w, stem(w))
	}
}

func TestVerdictNamesRoundTrip(t *testing.T) {
	for _, v := range []Verdict{Unrelated, Duplicate, Conflict} {
		b, _ := v.MarshalText()
		var back Verdict
		err := back.UnmarshalText(b)
		require.True(t, err == nil && back == v, "%v round-trips to %v (%v)", v, back, err)
	}
	var v Verdict
	err := v.UnmarshalText([]byte("dup"))
	require.True(t, err != nil && strings.Contains(err.Error(), `"dup"`), "UnmarshalText(dup) error = %v, want one naming the bad value", err)
}

func TestEvaluateCountsPrecisionAndRecall(t *testing.T) {
	// The last two are labelled wrongly on purpose, to count a miss each way.
	r := Evaluate([]Pair{
		{A: "Use tabs", B: "use tabs!", Label: Duplicate},
		{A: "Use Go for the CLI", B: "Use Rust for the CLI", Label: Conflict},
		{A: "Use tabs in Go files", B: "Use tabs in Makefiles", Label: Unrelated},
		{A: "Use Redis for caching", B: "Use Redis for rate limiting", Label: Conflict},
		{A: "Use PostgreSQL for the primary database", B: "Use MySQL for the primary database", Label: Unrelated},
	})
	want := Report{
		Pairs:     5,
		Duplicate: Metrics{TP: 1, Precision: 1, Recall: 1, F1: 1},
		Conflict:  Metrics{TP: 1, FP: 1, FN: 1, Precision: 0.5, Recall: 0.5, F1: 0.5},
	}
	require.True(t, r.Pairs == want.Pairs && r.Duplicate == want.Duplicate && r.Conflict == want.Conflict, "Evaluate = %+v\nwant %+v", r, want)
	require.True(t, len(r.Misses) == 2 && r.Misses[0].Pair == 3 && r.Misses[1].Pair == 4, "misses = %+v, want pairs 3 and 4", r.Misses)
	require.Equal(t, "5 pairs  duplicate P 1.00 R 1.00 F1 1.00  conflict P 0.50 R 0.50 F1 0.50", r.String(), "String")
}

// Issue 18: the near-duplicate dialog said "100% similar" for two texts
// that differ. 1 is the score of the same text only.
func TestTextsThatDifferNeverScoreOne(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"Use Postgres for the primary DB", "Use PostgreSQL for the primary database", 0.99},
		{"Use Go for the backend", "For the backend, use Go", 0.99},
		{"Use Go for the backend", "Use Go in the backend", 0.99},
		{"Use pre-commit hooks", "Use precommit hooks", 0.99},
		{"Use PostgreSQL as the primary database.", "use postgresql as the primary database", 1},
	}
	for _, tt := range tests {
		for _, p := range [][2]string{{tt.a, tt.b}, {tt.b, tt.a}} {
			r := compare(p[0], p[1])
			require.True(t, r.Verdict == Duplicate && r.Score == tt.want, "Compare(%q, %q) = %v %.3f, want duplicate %.2f", p[0], p[1], r.Verdict, r.Score, tt.want)
		}
	}
}

// NumbersDiffer says only what Compare says: two texts whose numbers
// differ are never duplicates, however close their words.
func TestNumbersDifferOnlyWhereCompareSeesNoDuplicate(t *testing.T) {
	texts := []string{
		"retry 3 times", "retry 5 times", "Retry 3 times!", "retry three times", "retry",
		"service 12 listens on port 8012", "service 13 listens on port 8013", "Service 12 listens on port 8012.",
		"use node 18", "use node 20", "use Node 18", "bump version 1.2.3", "bump version 1.2.4",
		"3 approvals before merge", "2 approvals before merge", "two approvals before merge",
		"port 8012 for service 12", "k8s clusters", "k8s clusters 2",
	}
	for _, a := range texts {
		for _, b := range texts {
			fa, fb := Prepare(a), Prepare(b)
			if NumbersDiffer(&fa, &fb) && Compare(&fa, &fb).Verdict == Duplicate {
				t.Errorf("%q and %q: the numbers differ, yet Compare calls them duplicates", a, b)
			}
		}
	}
	fa, fb := Prepare("retry 3 times"), Prepare("retry 5 times")
	require.True(t, NumbersDiffer(&fa, &fb))
	fa, fb = Prepare("service 12 listens on port 8012"), Prepare("port 8012 for service 12")
	require.False(t, NumbersDiffer(&fa, &fb), "the same numbers in another order")
	fa, fb = Prepare("retry 3 times"), Prepare("retry three times")
	require.False(t, NumbersDiffer(&fa, &fb), "a number written as a word is not read")
}

// Two words that changed places, after the same two words each or side by
// side; a clause moved whole, a word added or a number changed swaps
// nothing.
func TestSwappedFindsTwoWordsThatChangedPlaces(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"Map host port 8080 to container port 3000", "Map host port 3000 to container port 8080", true},
		{"Run docker with -p 8080:3000", "Run docker with -p 3000:8080", true},
		{"Staging deploys from main, production from release", "Staging deploys from release, production from main", true},
		{"The primary is db1 and the replica is db2", "The primary is db2 and the replica is db1", true},
		{"Run the tests with -race before pushing", "Before pushing, run the tests with -race", false},
		{"Run the tests with -race before pushing", "Run all the tests with -race before pushing", false},
		{"Use PostgreSQL for the primary database", "Use PostgreSQL for the primary database.", false},
		{"service 12 listens on port 8012", "port 8012 for service 12", false},
		{"cp config.prod.json config.json", "cp config.json config.prod.json", true},
		{"mv old.txt new.txt", "mv new.txt old.txt", true},
		{"Copy settings.local.json to settings.json", "Copy settings.json to settings.local.json", true},
		{"Ports 8080 and 9090 are the staging ports", "The staging ports are 9090 and 8080", false},
		{"Ports 8080 and 9090 are staging", "Ports 9090 and 8080 are staging", false},
		{"Use tabs or spaces", "Use spaces or tabs", false},
	} {
		for _, p := range [][2]string{{c.a, c.b}, {c.b, c.a}} {
			fa, fb := Prepare(p[0]), Prepare(p[1])
			require.Equal(t, c.want, Swapped(&fa, &fb), "Swapped(%q, %q)", p[0], p[1])
		}
	}
}
