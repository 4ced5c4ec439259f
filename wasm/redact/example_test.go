package redact_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/redact"
)

func ExampleString() {
	out, kinds := redact.String("mysql://root:p@ss@db/app and aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
	fmt.Println(out)
	fmt.Println(kinds)
	// Output:
	// mysql://root:[REDACTED:url-password]@db/app and aws_secret_access_key = [REDACTED:aws-secret-key]
	// [aws-secret-key url-password]
}

func ExampleFind() {
	s := "# staging\nDB_PASSWORD=hunter22x\n"
	for _, f := range redact.Find(s) {
		fmt.Println(f.Kind, f.Start, f.End)
	}
	// Output:
	// secret 22 31
}

func ExampleContains() {
	fmt.Println(redact.Contains("password_min_length: 8"))
	fmt.Println(redact.Contains("password: hunter22x"))
	// Output:
	// false
	// true
}
