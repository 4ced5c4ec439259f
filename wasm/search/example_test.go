package search_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/search"
)

func ExampleIndex_Search() {
	var x search.Index
	x.Update([]search.Source{{Key: "example", Stamp: "1", Load: func() []search.Doc {
		return []search.Doc{
			{Kind: search.Decision, Ref: "D-2026-02-10-0001", Mark: "active", Text: "Use PostgreSQL for the primary database"},
			{Kind: search.Note, Ref: "/w/app/.pi/memory/MEMORY.md:4", Text: "Migrations run with goose"},
			{Kind: search.Note, Ref: "/w/app/.pi/memory/MEMORY.md:5", Text: "Run tests with -race"},
		}
	}}})
	fmt.Println(search.ForModel("which db", x.Search("which db", 5, 0), nil))
	// Output:
	// 1 match for "which db", best first (a decision's or a note's id is what memory_forget takes):
	// 1. decision D-2026-02-10-0001 (active): Use PostgreSQL for the primary database
}
