package observe

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestLedgerRecordsAreTheBranchsOwnCustomEntries(t *testing.T) {
	rec := func(op string, t int) string { return `{"v":1,"op":"` + op + `","t":` + itoa(t) + `}` }
	tests := []struct {
		name   string
		branch string
		ops    []string
		probs  []string
	}{
		{"none in a plain branch", `[{"type":"message","id":"a","message":{"role":"user","content":"hi"}}]`, nil, nil},
		{"ours, in branch order", `[{"type":"custom","id":"e1","customType":"pi-memory-om","data":` + rec("set", 1) + `},{"type":"message","id":"a"},{"type":"custom","id":"e2","customType":"pi-memory-om","data":` + rec("clear", 2) + `}]`,
			[]string{"set", "clear"}, nil},
		{"other extensions' custom entries are not ours", `[{"type":"custom","id":"e1","customType":"observational-memory-state","data":` + rec("clear", 1) + `},{"type":"custom_message","customType":"pi-memory-om","content":"x"}]`, nil, nil},
		{"a bad record is named and the rest load", `[{"type":"custom","id":"e1","customType":"pi-memory-om","data":{"v":1,"op":"explode","t":1}},{"type":"custom","id":"e2","customType":"pi-memory-om","data":` + rec("clear", 2) + `}]`,
			[]string{"clear"}, []string{`line 1: entry "e1": "op" must be`}},
		{"a newer format is kept aside", `[{"type":"custom","id":"e1","customType":"pi-memory-om","data":{"v":9,"op":"clear","t":1}}]`, nil, []string{"newer than this build reads"}},
		{"a session file's lines", "{\"type\":\"session\",\"id\":\"s\"}\n{\"type\":\"custom\",\"id\":\"e1\",\"customType\":\"pi-memory-om\",\"data\":" + rec("clear", 3) + "}\n", []string{"clear"}, nil},
		{"garbage", `{]`, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, probs := ledgerRecords([]byte(tt.branch))
			var ops []string
			for _, r := range recs {
				ops = append(ops, r.Op)
			}
			require.Equal(t, tt.ops, ops)
			require.Equal(t, len(tt.probs), len(probs))
			for i, p := range tt.probs {
				require.Contains(t, probs[i].String(), p)
			}
		})
	}
}

func TestEntryIDsKeepTheBranchOrder(t *testing.T) {
	require.Equal(t, []string{"a", "", "c"}, entryIDs([]byte(`[{"id":"a"},{"type":"x"},{"id":"c"}]`)))
	require.Equal(t, []string{"s", "a"}, entryIDs([]byte("{\"id\":\"s\"}\n{\"id\":\"a\"}\n")))
}

func FuzzLedgerRecords(f *testing.F) {
	f.Add([]byte(`[{"type":"custom","id":"e1","customType":"pi-memory-om","data":{"v":1,"op":"observe","t":1,"through":"a","obs":"Date: Feb 12, 2026\n* x"}}]`))
	f.Add([]byte("{\"type\":\"custom\",\"customType\":\"pi-memory-om\",\"data\":[1,2]}\n{\"type\":\"custom\",\"customType\":\"pi-memory-om\"}\n"))
	f.Add([]byte(`[{"type":"custom","customType":"pi-memory-om","data":"{\"v\":1}"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, probs := ledgerRecords(data)
		for _, r := range recs {
			back, err := decode(encode(r))
			require.NoError(t, err)
			require.Equal(t, string(encode(r)), string(encode(back)), "a record read from a branch encodes stably")
		}
		for _, p := range probs {
			require.True(t, p.Line > 0 && strings.HasPrefix(p.Msg, "entry "))
		}
		requireSameFold(t, recs, "", "the fuzzed branch")
	})
}

func TestABranchContinuesTheLastOneWhileItsIdsMatch(t *testing.T) {
	tests := []struct {
		name   string
		ids    []string
		branch string
		same   int
	}{
		{"nothing read yet", nil, `[{"id":"a"}]`, 0},
		{"the same branch", []string{"a", "b"}, `[{"id":"a"},{"id":"b"}]`, 2},
		{"a branch that grew", []string{"a", "b"}, `[{"id":"a"},{"id":"b"},{"id":"c"}]`, 2},
		{"a fork", []string{"a", "b"}, `[{"id":"a"},{"id":"x"},{"id":"c"}]`, 1},
		{"another branch", []string{"a", "b"}, `[{"id":"z"}]`, 0},
		{"a shorter branch", []string{"a", "b", "c"}, `[{"id":"a"},{"id":"b"}]`, 2},
		{"entries without ids", []string{""}, `[{"type":"x"}]`, 1},
	}
	for _, tt := range tests {
		require.Equal(t, tt.same, continues(tt.ids, splitBranch(tt.branch)), tt.name)
	}
}
