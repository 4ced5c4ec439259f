package history_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/history"
)

func ExampleRead() {
	s, err := history.Read([]byte(`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/w/app"}
{"type":"message","id":"a","parentId":null,"timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"user","content":"Use tabs"}}
{"type":"message","id":"b","parentId":"a","timestamp":"2026-11-20T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Done."}]}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range s.Entries {
		fmt.Println(e.Line, e.Role, e.Text)
	}
	// Output:
	// 2 User Use tabs
	// 3 Assistant Done.
}
