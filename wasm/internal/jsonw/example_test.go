package jsonw_test

import (
	"fmt"
	"math"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
)

func ExampleString() {
	fmt.Println(string(jsonw.String(nil, `say "hi"`)))
	fmt.Println(string(jsonw.String(nil, "tab\there, bad byte \xff")))
	// Output:
	// "say \"hi\""
	// "tab\there, bad byte \ufffd"
}

func ExampleFloat() {
	for _, f := range []float64{0.25, 1e21, math.NaN()} {
		fmt.Println(string(jsonw.Float(nil, f)))
	}
	// Output:
	// 0.25
	// 1e+21
	// null
}

func ExampleObject() {
	var o jsonw.Object
	o.Str("a", "x")
	o.Int("n", 2)
	fmt.Println(string(o.Close()))
	// Output: {"a":"x","n":2}
}

func ExampleArray() {
	out := jsonw.Array(nil, 2, func(b []byte, i int) []byte { return jsonw.Int(b, int64(i)) })
	fmt.Println(string(out))
	// Output: [0,1]
}
