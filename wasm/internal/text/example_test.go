package text_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

func ExampleRunes() {
	fmt.Println(text.Runes("Use PostgreSQL 16 for the primary database", 12))
	fmt.Println(text.Plural(2, "decision", "decisions"))
	// Output:
	// Use Postgre…
	// 2 decisions
}
