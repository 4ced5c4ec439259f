package hindsight

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

var twoBanks = []Bank{{BankProject, "p"}, {BankUser, "u"}}

func TestRecallsNameAProblemPerBankAndKeepTheOthersMemories(t *testing.T) {
	const goMemory = `{"status":200,"body":"{\"results\":[{\"text\":\"Uses Go\",\"type\":\"world\"}]}"}`
	tests := []struct {
		name  string
		value string
		want  []Recalled
	}{
		{"both banks answer", `[` + goMemory + `,{"status":200,"body":"{\"results\":[]}"}]`, []Recalled{
			{Bank: twoBanks[0], Memories: []Memory{{"Uses Go", "world"}}},
			{Bank: twoBanks[1]},
		}},
		{"one bank timed out", `[` + goMemory + `,{"error":"timed out after 1500 ms"}]`, []Recalled{
			{Bank: twoBanks[0], Memories: []Memory{{"Uses Go", "world"}}},
			{Bank: twoBanks[1], Problem: "timed out after 1500 ms"},
		}},
		{"a server error and an answer that is not JSON", `[{"status":500,"body":"{}"},{"status":200,"body":"<html>"}]`, []Recalled{
			{Bank: twoBanks[0], Problem: "HTTP 500"},
			{Bank: twoBanks[1], Problem: "the answer is not JSON"},
		}},
		{"an answer without a results list", `[{"status":200,"body":"{\"detail\":\"no bank\"}"},` + goMemory + `]`, []Recalled{
			{Bank: twoBanks[0], Problem: "the answer has no results list"},
			{Bank: twoBanks[1], Memories: []Memory{{"Uses Go", "world"}}},
		}},
		{"the host answered one request of two", `[` + goMemory + `]`, []Recalled{
			{Bank: twoBanks[0], Memories: []Memory{{"Uses Go", "world"}}},
			{Bank: twoBanks[1], Problem: "the host gave no answer"},
		}},
		{"the host's value is not a list", `{}`, []Recalled{
			{Bank: twoBanks[0], Problem: "the host gave no answer"},
			{Bank: twoBanks[1], Problem: "the host gave no answer"},
		}},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, recalls(twoBanks, []byte(tc.value)), tc.name)
	}
	require.Equal(t, []Recalled{}, recalls(nil, []byte(`[]`)))
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
