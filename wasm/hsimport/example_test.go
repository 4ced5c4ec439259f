package hsimport_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/hsimport"
)

// A session in which the user went back with /tree: the branch they left
// ("Use MySQL") is not sent, the recalled block in their message is
// stripped, and the secret in the tool result is redacted.
const sessionFile = `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/w/app"}
{"type":"message","id":"a","parentId":null,"timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"user","content":"Which database?\n\n<pi-memory-recall>\n- [project] an old memory\n</pi-memory-recall>"}}
{"type":"message","id":"b","parentId":"a","timestamp":"2026-11-20T09:00:02.000Z","message":{"role":"user","content":"Use MySQL"}}
{"type":"message","id":"c","parentId":"a","timestamp":"2026-11-20T09:00:03.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"read","arguments":{"path":".env"}}]}}
{"type":"message","id":"d","parentId":"c","timestamp":"2026-11-20T09:00:04.000Z","message":{"role":"toolResult","toolCallId":"t1","toolName":"read","content":[{"type":"text","text":"DB_PASSWORD=hunter22x"}],"isError":false}}
{"type":"message","id":"e","parentId":"d","timestamp":"2026-11-20T09:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"PostgreSQL is configured."}]}}
`

func ExampleParse() {
	s, err := hsimport.Parse([]byte(sessionFile), hsimport.Limits{})
	if err != nil {
		fmt.Println("refused:", err)
		return
	}
	fmt.Println(s.ID, s.Cwd, s.Messages, "messages")
	fmt.Println(s.Content())
	// Output:
	// s1 /w/app 4 messages
	// User: Which database?
	//
	// Tool call: read {"path":".env"}
	//
	// Tool result: read: DB_PASSWORD=[REDACTED:secret]
	//
	// Assistant: PostgreSQL is configured.
}

func ExampleParse_refused() {
	_, err := hsimport.Parse([]byte(`{"type":"message","id":"a"}`), hsimport.Limits{})
	fmt.Println("refused:", err)
	// Output:
	// refused: line 1 is not a session header (its type is "message", not "session"), so this is not a pi session file; nothing imported
}

func ExampleNewItem() {
	s, _ := hsimport.Parse([]byte(sessionFile), hsimport.Limits{})
	it := hsimport.NewItem(s, "github.com/ada/app")
	fmt.Println(it.DocumentID)
	fmt.Println(it.Context)
	fmt.Println(it.Timestamp, it.Tags)
	fmt.Println(hsimport.RequestPath("pimem-app-1a2b3c4d5e"))
	// Output:
	// pimem-import:s1
	// pi session of 2026-11-20 in github.com/ada/app
	// 2026-11-20T09:00:00.000Z [project:github.com/ada/app session:s1 source:import]
	// /v1/default/banks/pimem-app-1a2b3c4d5e/memories
}

func ExamplePlan() {
	cp := hsimport.DecodeCheckpoint([]byte(
		`{"v":1,"op":"done","path":"/s/a.jsonl","size":10,"mtime":5,"doc":"pimem-import:a","bank":"b","messages":4,"at":9}` + "\n" +
			`{"v":1,"op":"done","path":"/s/b.jsonl","size":20,"mtime":6,"doc":"pimem-import:b","bank":"b","messages":2,"at":9}` + "\n"))
	todo := hsimport.Plan(cp, []hsimport.File{
		{Path: "/s/a.jsonl", Size: 10, Mtime: 5}, // imported, unchanged
		{Path: "/s/b.jsonl", Size: 35, Mtime: 8}, // imported, then the session went on
		{Path: "/s/c.jsonl", Size: 12, Mtime: 7}, // new
	})
	for _, f := range todo.Files {
		fmt.Println(f.Path)
	}
	fmt.Printf("new %d, changed %d, done %d, resuming after %s\n", todo.New, todo.Changed, todo.Done, todo.Resume)
	// Output:
	// /s/b.jsonl
	// /s/c.jsonl
	// new 1, changed 1, done 1, resuming after /s/b.jsonl
}

func ExampleProgress_Text() {
	p := hsimport.Progress{Total: 1000, Sent: 120, Messages: 4210}
	fmt.Println(p.Text())
	// Output:
	// imported 120/1000 sessions, 4,210 messages
}
