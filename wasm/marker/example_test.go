package marker_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/marker"
)

func ExampleStrip() {
	msg := "Fix the build.\n\n" + marker.Wrap("recall", "- We build with make")
	fmt.Printf("%q\n", marker.Strip(msg))
	// Output:
	// "Fix the build."
}

func ExampleWrap() {
	fmt.Println(marker.Wrap("recall", "- a fact"))
	// Output:
	// <pi-memory-recall>
	// - a fact
	// </pi-memory-recall>
}
