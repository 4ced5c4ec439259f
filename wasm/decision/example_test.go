package decision_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/decision"
)

// The examples of what another package uses: writing events (host/cmd/gendata
// makes test logs with them). How the store reads and decides is table-tested
// inside the package.

func ExampleEncode() {
	line := decision.Encode(nil, decision.Event{V: 1, Time: "2026-02-27T06:00:00.000Z", Project: "ab", Code: decision.Add, ID: "D-2026-02-27-0001",
		Data: decision.Data{Has: decision.HasText | decision.HasStatus, Text: "Use PostgreSQL", Status: decision.Active}, Actor: "user"})
	fmt.Println(string(line))
	// Output: {"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use PostgreSQL","tg":[],"s":"active","sp":null,"c":[]},"u":"user"}
}

func ExampleParseStatus() {
	fmt.Println(decision.ParseStatus("superseded") == decision.Superseded)
	fmt.Printf("%q\n", decision.ParseStatus("open").String())
	// Output:
	// true
	// ""
}
