package cmdline_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/internal/cmdline"
)

func ExampleSplit() {
	fmt.Printf("%q\n", must(cmdline.Split(`add "Use PostgreSQL" --tag db`)))
	fmt.Printf("%q\n", must(cmdline.Split(`add don't panic`)))
	_, err := cmdline.Split(`add 'open`)
	fmt.Println(err)
	// Output:
	// ["add" "Use PostgreSQL" "--tag" "db"]
	// ["add" "don't" "panic"]
	// unterminated ' quote
}

func ExampleParse() {
	a, err := cmdline.Parse([]string{"D-1", "new", "text", "--reason", "cheaper"}, cmdline.Spec{Values: []string{"reason"}})
	fmt.Println(err)
	fmt.Printf("%q %q\n", a.Words, a.Value("reason"))
	// Output:
	// <nil>
	// ["D-1" "new" "text"] "cheaper"
}

func must(words []string, err error) []string {
	if err != nil {
		panic(err)
	}
	return words
}
