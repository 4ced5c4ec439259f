package config_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/config"
)

func ExampleNormalize() {
	out, err := config.Normalize([]byte(`{"enabled": true, "staleDays": 9, "enabled": false}`))
	fmt.Println(string(out), err)

	_, err = config.Normalize([]byte("{\n  \"enabled\": false,\n}\n"))
	fmt.Println(err)
	// Output:
	// {"staleDays": 9, "enabled": false} <nil>
	// line 2, column 19: trailing comma; delete the ',' before '}'
}

func ExampleFile_Switch() {
	for _, text := range []string{
		`{"enabled": false}`,
		`{"enabled": "false"}`,
		`{"enabled": false, // off`,
	} {
		f := config.Parse("config.json", []byte(text))
		on, set, unclear := f.Switch("enabled")
		fmt.Printf("on=%v set=%v unclear=%q\n", on, set, unclear)
	}
	// Output:
	// on=false set=true unclear=""
	// on=false set=false unclear="config.json: \"enabled\" must be true or false without quotes (got \"false\")"
	// on=false set=false unclear="config.json is not valid JSON: line 1, column 20: comments are not JSON; delete the comment"
}

func ExampleFile_Int() {
	f := config.Parse("config.json", []byte(`{"maxInjectLines": 5000}`))
	n, _ := f.Int("maxInjectLines", 200, 1, 2000)
	fmt.Println(n, f.Warnings)
	// Output:
	// 2000 [config.json: "maxInjectLines" is above 2000 (got 5000); using 2000]
}

func ExampleSetTopLevel() {
	out, err := config.SetTopLevel("config.json", []byte("{\n  \"enabled\": true,\n  \"staleDays\": 9,\n  \"enabled\": true\n}\n"), "enabled", "false")
	fmt.Print(string(out), err, "\n")

	_, err = config.SetTopLevel("config.json", []byte(`{"enabled": true,}`), "enabled", "false")
	fmt.Println(err)
	// Output:
	// {
	//   "staleDays": 9,
	//   "enabled": false
	// }
	// <nil>
	// config.json is not valid JSON: line 1, column 17: trailing comma; delete the ',' before '}'
}
