package decision_test

import (
	"fmt"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/decision"
)

// stateOf replays log lines (one event each) into a new state.
func stateOf(lines ...string) *decision.State {
	st := decision.NewState()
	log := strings.Join(lines, "\n") + "\n"
	var r decision.Reader
	if _, err := r.Replay(st, func(off int64, dst []byte) (int, error) { return copy(dst, log[off:]), nil }, decision.Cursor{}, int64(len(log))); err != nil {
		panic(err)
	}
	return st
}

func ExampleCandidates() {
	for _, c := range decision.Candidates("Decision: Use pnpm\nFrom now on we run tests before pushing.") {
		fmt.Printf("%q %.1f %v\n", c.Text, c.Score, c.Explicit)
	}
	// Output:
	// "Use pnpm" 1.0 true
	// "From now on we run tests before pushing." 0.8 false
}

func ExampleScore() {
	fmt.Println(decision.Score("From now on we squash-merge every PR."))
	fmt.Println(decision.Score("Can you fix the login bug?"))
	// Output:
	// 0.8
	// 0
}

func ExampleDecode() {
	ev, err := decision.Decode([]byte(`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use PostgreSQL","s":"active"},"u":"user"}`), nil)
	fmt.Println(err)
	fmt.Println(ev.V, ev.Code, ev.ID, ev.Data.Text, ev.Data.Status)
	// Output:
	// <nil>
	// 1 a D-2026-02-27-0001 Use PostgreSQL active
}

func ExampleEncode() {
	line := decision.Encode(nil, decision.Event{V: 1, Time: "2026-02-27T06:00:00.000Z", Project: "ab", Code: decision.Add, ID: "D-2026-02-27-0001",
		Data: decision.Data{Has: decision.HasText | decision.HasStatus, Text: "Use PostgreSQL", Status: decision.Active}, Actor: "user"})
	fmt.Println(string(line))
	// Output: {"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use PostgreSQL","tg":[],"s":"active","sp":null,"c":[]},"u":"user"}
}

func ExampleState_NextID() {
	st := stateOf(`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use PostgreSQL","s":"active"},"u":"user"}`)
	fmt.Println(st.NextID(1772186400000)) // 2026-02-27T10:00:00.000Z
	fmt.Println(st.NextID(1772272800000)) // 2026-02-28T10:00:00.000Z
	// Output:
	// D-2026-02-27-0002
	// D-2026-02-28-0001
}

func ExampleState_Section() {
	st := stateOf(`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use PostgreSQL","tg":["db"],"s":"active"},"u":"user"}`)
	fmt.Print(st.Section(20))
	// Output:
	// ## Project decisions
	// Active decisions for this project, newest first. Follow them; to change one, propose superseding it rather than silently deviating.
	// D-2026-02-27-0001 | Use PostgreSQL | #db
}

func ExampleState_PurgeCandidates() {
	st := stateOf(
		`{"v":1,"t":"2026-01-01T00:00:00.000Z","p":"ab","e":"a","i":"D-2026-01-01-0001","d":{"tx":"Maybe use Bazel","s":"draft"},"u":"user"}`,
		`{"v":1,"t":"2026-01-01T00:00:00.000Z","p":"ab","e":"a","i":"D-2026-01-01-0002","d":{"tx":"Use Make","s":"active"},"u":"user"}`,
	)
	retention := decision.DefaultConfig().RetentionDays // drafts: 30 days
	now := int64(1770681600000)                         // 2026-02-10T00:00:00.000Z
	for _, d := range st.PurgeCandidates(now, retention) {
		fmt.Println(d.ID, d.Status, d.Text)
	}
	// Output: D-2026-01-01-0001 draft Maybe use Bazel
}

func ExampleParseQuery() {
	q := decision.ParseQuery(strings.Fields("pg status:active,draft tag:DB"))
	fmt.Println(q.Terms, q.Statuses, q.Tags)
	// Output: [pg] [active draft] [db]
}
