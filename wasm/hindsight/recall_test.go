package hindsight

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/tidwall/gjson"
)

var twoBanks = []bank{{bankProject, "p"}, {bankUser, "u"}}

func TestRecallsNameAProblemPerBankAndKeepTheOthersMemories(t *testing.T) {
	const goMemory = `{"status":200,"body":"{\"results\":[{\"text\":\"Uses Go\",\"type\":\"world\"}]}"}`
	tests := []struct {
		name  string
		value string
		want  []recalled
	}{
		{"both banks answer", `[` + goMemory + `,{"status":200,"body":"{\"results\":[]}"}]`, []recalled{
			{Bank: twoBanks[0], Memories: []memory{{"Uses Go", "world"}}},
			{Bank: twoBanks[1]},
		}},
		{"one bank timed out", `[` + goMemory + `,{"error":"timed out after 1500 ms"}]`, []recalled{
			{Bank: twoBanks[0], Memories: []memory{{"Uses Go", "world"}}},
			{Bank: twoBanks[1], Problem: "timed out after 1500 ms"},
		}},
		{"a server error and an answer that is not JSON", `[{"status":500,"body":"{}"},{"status":200,"body":"<html>"}]`, []recalled{
			{Bank: twoBanks[0], Problem: "HTTP 500"},
			{Bank: twoBanks[1], Problem: "the answer is not JSON"},
		}},
		{"an answer without a results list", `[{"status":200,"body":"{\"detail\":\"no bank\"}"},` + goMemory + `]`, []recalled{
			{Bank: twoBanks[0], Problem: "the answer has no results list"},
			{Bank: twoBanks[1], Memories: []memory{{"Uses Go", "world"}}},
		}},
		{"the host answered one request of two", `[` + goMemory + `]`, []recalled{
			{Bank: twoBanks[0], Memories: []memory{{"Uses Go", "world"}}},
			{Bank: twoBanks[1], Problem: "the host gave no answer"},
		}},
		{"the host's value is not a list", `{}`, []recalled{
			{Bank: twoBanks[0], Problem: "the host gave no answer"},
			{Bank: twoBanks[1], Problem: "the host gave no answer"},
		}},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, recalls(twoBanks, []byte(tc.value)), tc.name)
	}
	require.Equal(t, []recalled{}, recalls(nil, []byte(`[]`)))
}

func FuzzRecalls(f *testing.F) {
	f.Add(`[{"status":200,"body":"{\"results\":[{\"text\":\"a\"}]}"},{"error":"timed out"}]`)
	f.Add(`[{"status":503,"body":""},{"status":200,"body":"{\"results\":{}}"}]`)
	f.Add(`[{"status":"200"},7]`)
	f.Fuzz(func(t *testing.T, value string) {
		rs := recalls(twoBanks, []byte(value))
		if len(rs) != len(twoBanks) {
			t.Fatalf("%d outcomes for %d banks", len(rs), len(twoBanks))
		}
		for i, r := range rs {
			if r.Bank != twoBanks[i] {
				t.Fatalf("outcome %d is of bank %+v", i, r.Bank)
			}
			if r.Problem != "" && len(r.Memories) > 0 {
				t.Fatalf("bank %d failed (%s) yet has memories", i, r.Problem)
			}
			for _, m := range r.Memories {
				if strings.TrimSpace(m.Text) == "" {
					t.Fatal("an empty memory")
				}
			}
		}
	})
}

func TestTheNewestUserMessageIsTheOneRecalledFor(t *testing.T) {
	tests := []struct {
		name, messages string
		index          int
		ts             int64
		text           string
	}{
		{"no messages", `[]`, -1, 0, ""},
		{"no user message", `[{"role":"assistant","content":[{"type":"text","text":"hi"}]}]`, -1, 0, ""},
		{"the last of several", `[{"role":"user","content":"a","timestamp":1},{"role":"assistant"},{"role":"user","content":"b","timestamp":2},{"role":"toolResult"}]`, 2, 2, "b"},
		{"its text blocks, our block stripped", `[{"role":"user","content":[{"type":"text","text":"how?"},{"type":"image"},{"type":"text","text":"\n\n<pi-memory-recall>\nold\n</pi-memory-recall>"}],"timestamp":7}]`, 0, 7, "how?"},
		{"an empty newest one is still the newest", `[{"role":"user","content":"a","timestamp":1},{"role":"user","content":"  "}]`, 1, 0, ""},
		{"not a list", `{"role":"user","content":"a"}`, -1, 0, ""},
	}
	for _, tc := range tests {
		index, ts, text := newestUserMessage(gjson.Parse(tc.messages))
		require.Equal(t, tc.index, index, tc.name)
		require.Equal(t, tc.ts, ts, tc.name)
		require.Equal(t, tc.text, text, tc.name)
	}
}

func TestTheRecallKeyIsTheMessagesTimeAndText(t *testing.T) {
	k := recallKey(5, "how do we build?")
	require.True(t, strings.HasPrefix(k, "5:"), k)
	require.Equal(t, len("5:")+20, len(k))
	require.Equal(t, k, recallKey(5, "how do we build?"))
	require.True(t, k != recallKey(6, "how do we build?"))
	require.True(t, k != recallKey(5, "how do we test?"))
}

func TestTheCacheKeepsTheNewestBlocksAndForgetsTheOldest(t *testing.T) {
	var c blockCache
	_, ok := c.get("k0")
	require.False(t, ok)
	for i := 0; i < cacheSize; i++ {
		c.put("k"+strconv.Itoa(i), "b"+strconv.Itoa(i))
	}
	c.put("k0", "") // put again: kept in its place, with its new block
	b, ok := c.get("k0")
	require.True(t, ok)
	require.Equal(t, "", b)
	c.put("k"+strconv.Itoa(cacheSize), "new")
	_, ok = c.get("k0")
	require.False(t, ok, "the oldest is forgotten past cacheSize")
	b, ok = c.get("k1")
	require.True(t, ok)
	require.Equal(t, "b1", b)
	b, _ = c.get("k" + strconv.Itoa(cacheSize))
	require.Equal(t, "new", b)
	require.Equal(t, cacheSize, len(c.blocks))
	require.Equal(t, cacheSize, len(c.order))
}

func TestRecallRequestsAskEveryBankInOrder(t *testing.T) {
	reqs := recallRequests(on, twoBanks, "k", "q")
	require.Equal(t, []request{recallRequest(on, twoBanks[0], "k", "q"), recallRequest(on, twoBanks[1], "k", "q")}, reqs)
	require.Equal(t, 0, len(recallRequests(on, nil, "k", "q")))
}

func FuzzNewestUserMessage(f *testing.F) {
	f.Add(`[{"role":"user","content":"a","timestamp":1},{"role":"assistant"},{"role":"user","content":[{"type":"text","text":"b"}],"timestamp":2}]`)
	f.Add(`[{"role":"user","content":"<pi-memory-recall>\nx\n</pi-memory-recall>"}]`)
	f.Add(`{"a":{"role":"user","content":"a"}}`)
	f.Fuzz(func(t *testing.T, messages string) {
		m := gjson.Parse(messages)
		index, ts, text := newestUserMessage(m)
		if index < 0 {
			if ts != 0 || text != "" {
				t.Fatalf("no message, yet %d %q", ts, text)
			}
			return
		}
		n := 0
		m.ForEach(func(_, e gjson.Result) bool {
			if n > index && jsonr.Get(e, "role").Str == "user" {
				t.Fatalf("message %d is newer than %d", n, index)
			}
			n++
			return true
		})
		if index >= n || text != strings.TrimSpace(text) {
			t.Fatalf("index %d of %d, text %q", index, n, text)
		}
	})
}
