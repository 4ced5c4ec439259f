package jsonr_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/tidwall/gjson"
)

func ExampleGet() {
	root := gjson.Parse(`{"log":{"size":12},"span":[[3,9],[1]],"flags":{"no-memory":true}}`)
	fmt.Println(jsonr.Get(root, "log.size").Int())
	fmt.Println(jsonr.Get(root, "span.0.1").Int())
	fmt.Println(jsonr.Get(root, "flags.no-memory").Bool())
	fmt.Println(jsonr.Get(root, "log.lines").Exists())
	// Output:
	// 12
	// 9
	// true
	// false
}
