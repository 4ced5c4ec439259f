package civil_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

func ExampleFormatTime() {
	fmt.Println(civil.FormatTime(1772172000000))
	fmt.Println(civil.ParseTime("2026-02-27T07:00:00+01:00"))
	// Output:
	// 2026-02-27T06:00:00.000Z
	// 1772172000000
}
