package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestBranchOfFollowsTheLastEntrysParents(t *testing.T) {
	tests := []struct {
		name, file string
		ids        []string
		err        string
	}{
		{"a straight session", "{\"type\":\"session\",\"id\":\"s\"}\n{\"id\":\"a\",\"parentId\":null}\n{\"id\":\"b\",\"parentId\":\"a\"}\n", []string{"a", "b"}, ""},
		{"a tree: the last entry's branch only", `{"id":"a","parentId":null}` + "\n" + `{"id":"b","parentId":"a"}` + "\n" + `{"id":"c","parentId":"a"}`, []string{"a", "c"}, ""},
		{"a parent outside the file starts the branch", `{"id":"b","parentId":"gone"}` + "\n\n" + `{"id":"c","parentId":"b"}` + "\r\n", []string{"b", "c"}, ""},
		{"a cycle ends", `{"id":"a","parentId":"b"}` + "\n" + `{"id":"b","parentId":"a"}`, []string{"a", "b"}, ""},
		{"empty", "", nil, ""},
		{"not JSON", "{\"id\":\"a\"}\nhello\n", nil, "line 2 is not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := branchOf([]byte(tt.file))
			if tt.err != "" {
				require.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			var got []struct{ ID string }
			require.NoError(t, json.Unmarshal(b, &got))
			var ids []string
			for _, e := range got {
				ids = append(ids, e.ID)
			}
			require.Equal(t, strings.Join(tt.ids, ","), strings.Join(ids, ","))
		})
	}
}

func FuzzBranchOf(f *testing.F) {
	f.Add([]byte("{\"type\":\"session\",\"id\":\"s\"}\n{\"id\":\"a\",\"parentId\":null}\n{\"id\":\"b\",\"parentId\":\"a\"}\n"))
	f.Add([]byte(`{"id":"a","parentId":"a"}`))
	f.Add([]byte("[1,2]\n\"x\"\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := branchOf(data)
		if err != nil {
			return
		}
		var v []json.RawMessage
		require.NoError(t, json.Unmarshal(b, &v), "the branch is a JSON array: %s", b)
	})
}
