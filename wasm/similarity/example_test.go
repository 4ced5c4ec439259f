package similarity_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/similarity"
)

func ExampleCompare() {
	active := []similarity.Features{
		similarity.Prepare("Use PostgreSQL for the primary database"),
		similarity.Prepare("Always squash merge PRs"),
		similarity.Prepare("Use tabs in Go files"),
	}
	for _, text := range []string{
		"Use Postgres as the primary DB",
		"Use MySQL for the primary database",
		"Never squash merge pull requests",
		"Use tabs in Makefiles",
	} {
		in := similarity.Prepare(text)
		for i := range active {
			if r := similarity.Compare(&in, &active[i]); r.Verdict != similarity.Unrelated {
				fmt.Printf("%s: %s (%.2f) %s\n", text, r.Verdict, r.Score, r.Reason)
			}
		}
	}
	// Output:
	// Use Postgres as the primary DB: duplicate (1.00) near-duplicate (score 1.00)
	// Use MySQL for the primary database: conflict (1.00) MySQL vs PostgreSQL for primary database
	// Never squash merge pull requests: conflict (1.00) "Never" contradicts "Always squash merge PRs"
}

func ExampleNormalize() {
	fmt.Println(similarity.Normalize("  Don't use C++,  ever! "))
	// Output: dont use cpp ever
}

func ExampleEvaluate() {
	r := similarity.Evaluate([]similarity.Pair{
		{A: "Use tabs", B: "use tabs!", Label: similarity.Duplicate},
		{A: "Use Go for the CLI", B: "Use Rust for the CLI", Label: similarity.Conflict},
		{A: "Use tabs in Go files", B: "Use tabs in Makefiles", Label: similarity.Unrelated},
	})
	fmt.Println(r)
	// Output: 3 pairs  duplicate P 1.00 R 1.00 F1 1.00  conflict P 1.00 R 1.00 F1 1.00
}
