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
	// Use Postgres as the primary DB: duplicate (0.99) near-duplicate (score 0.99)
	// Use MySQL for the primary database: conflict (1.00) MySQL vs PostgreSQL for primary database
	// Never squash merge pull requests: conflict (1.00) "Never" contradicts "Always squash merge PRs"
}

// The four pairs of Compare's doc comment.
func ExampleCompare_verdicts() {
	for _, p := range [][2]string{
		{"Use Postgres for the primary DB", "Use PostgreSQL for the primary database"},
		{"Use PostgreSQL for the primary database", "Use MySQL for the primary database"},
		{"Always squash merge PRs", "Never squash merge PRs"},
		{"Use tabs in Go files", "Use tabs in Makefiles"},
	} {
		a, b := similarity.Prepare(p[0]), similarity.Prepare(p[1])
		r := similarity.Compare(&a, &b)
		fmt.Printf("%s %.2f %q\n", r.Verdict, r.Score, r.Reason)
	}
	// Output:
	// duplicate 0.99 "near-duplicate (score 0.99)"
	// conflict 1.00 "PostgreSQL vs MySQL for primary database"
	// conflict 1.00 "\"Never\" contradicts \"Always squash merge PRs\""
	// unrelated 0.40 "below the duplicate threshold"
}

func ExampleNormalize() {
	fmt.Println(similarity.Normalize("  Use   PostgreSQL, always! "))
	fmt.Println(similarity.Normalize("Don't use C++"))
	fmt.Println(similarity.Normalize("snake_case or kebab-case?"))
	fmt.Println(similarity.Normalize("  Don't use C++,  ever! "))
	// Output:
	// use postgresql always
	// dont use cpp
	// snake case or kebab case
	// dont use cpp ever
}

func ExampleVerdict_String() {
	fmt.Println(similarity.Conflict.String())
	// Output: conflict
}

func ExampleVerdict_UnmarshalText() {
	for _, name := range []string{"duplicate", "dup"} {
		var v similarity.Verdict
		err := v.UnmarshalText([]byte(name))
		fmt.Println(v == similarity.Duplicate, err)
	}
	// Output:
	// true <nil>
	// false unknown verdict "dup" (want unrelated, duplicate or conflict)
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

func ExampleCanonical() {
	for _, w := range []string{"databases", "database", "db", "merging", "merged", "k8s"} {
		fmt.Println(w, similarity.Canonical(w))
	}
	// Output:
	// databases databas
	// database databas
	// db databas
	// merging merg
	// merged merg
	// k8s kubernet
}
