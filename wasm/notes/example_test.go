package notes_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/notes"
)

func ExampleDecodeJournal() {
	journal := `{"v":1,"t":1772172000000,"op":"stage","id":"W-0000abcd","scope":"project","section":"Build","text":"Run make test before pushing","source":"remember"}
{"v":1,"t":1772172000000,"op":"stage","id":"W-0000abce","scope":"local","section":"Notes","text":"My review checklist is in ~/notes/review.md","source":"remember"}
{"v":1,"t":1772172060000,"op":"commit","id":"W-0000abcd","file":"/src/app/.pi/memory/MEMORY.md","line":4,"page":"P-0123456789"}
{"v":1,"op":"stage"}
`
	j := notes.DecodeJournal([]byte(journal))
	for _, op := range j.Ops {
		fmt.Println(op.Op, op.ID, op.Scope, op.Line)
	}
	for _, op := range j.Pending {
		fmt.Printf("pending %s: %q\n", op.ID, op.Text)
	}
	fmt.Println(j.Problems)
	// Output:
	// stage W-0000abcd project 0
	// stage W-0000abce local 0
	// commit W-0000abcd  4
	// pending W-0000abce: "My review checklist is in ~/notes/review.md"
	// [line 4: no "id"]
}

func ExampleDecodeTraces() {
	traces := `{"v":1,"id":"T-862db063","t":1772172000000,"kind":"inject","stores":[{"store":"notes","bytes":1521,"tokens":381,"cap":16384,"scopes":[{"scope":"project","file":".pi/memory/MEMORY.md","bytes":93,"lines":6,"pages":[{"id":"P-0123456789","line":3,"form":"full"}]}]}]}
not json
{"v":1,"id":"T-0baea2c6","t":1772172060000,"kind":"flush","ops":[{"v":1,"t":1772172060000,"op":"reject","id":"W-0000abce","reason":"duplicate","detail":"memory already says it"}]}
`
	ts, problems := notes.DecodeTraces([]byte(traces))
	for _, t := range ts {
		fmt.Println(t.ID, t.Kind, len(t.Stores), len(t.Ops))
	}
	fmt.Println(ts[0].Stores[0].Scopes[0].Pages[0].Form, ts[1].Ops[0].Reason)
	fmt.Println(problems)
	// Output:
	// T-862db063 inject 1 0
	// T-0baea2c6 flush 0 1
	// full duplicate
	// [line 2: not valid JSON]
}
