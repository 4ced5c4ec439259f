package budget_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/budget"
)

func ExampleAssemble() {
	text, receipts := budget.Assemble([]budget.Section{
		{Store: "notes", Text: "## Persistent memory\n- Use pnpm\n", Cap: 4096},
		{Store: "decisions", Text: "", Cap: 2200},
	})
	fmt.Printf("%q\n", text)
	for _, r := range receipts {
		fmt.Println(r.Store, r.Bytes, r.Tokens, r.Cut)
	}
	// Output:
	// "\n\n## Persistent memory\n- Use pnpm\n"
	// notes 32 8 false
	// decisions 0 0 false
}

func ExampleEstimateTokens() {
	fmt.Println(budget.EstimateTokens("## Notes\n"))
	// Output: 3
}
