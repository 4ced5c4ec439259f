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

func ExampleFields() {
	f := jsonr.Fields(gjson.Parse(`{"op":"clear","t":1770906600000}`), "t", "op", "v")
	fmt.Println(f[0].Int(), f[1].Str, f[2].Exists())
	// Output:
	// 1770906600000 clear false
}
