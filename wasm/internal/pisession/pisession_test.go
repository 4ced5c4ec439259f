package pisession

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/tidwall/gjson"
)

func ids(f File) string {
	branch, _ := f.Branch()
	var out []string
	for _, e := range branch {
		out = append(out, jsonr.Get(e, "id").Str)
	}
	return strings.Join(out, ",")
}

const header = `{"type":"session","version":3,"id":"s","cwd":"/w"}` + "\n"

func TestTheBranchFollowsTheLastEntrysParents(t *testing.T) {
	tests := []struct {
		name, file string
		ids        string
		broken     bool
	}{
		{"a straight session", header + `{"type":"message","id":"a","parentId":null}` + "\n" + `{"type":"message","id":"b","parentId":"a"}` + "\n", "a,b", false},
		{"a tree: the last entry's branch only", header + `{"type":"m","id":"a","parentId":null}` + "\n" + `{"type":"m","id":"b","parentId":"a"}` + "\n" + `{"type":"m","id":"c","parentId":"a"}`, "a,c", false},
		{"a parent outside the file starts the branch", header + `{"type":"m","id":"b","parentId":"gone"}` + "\n\n" + `{"type":"m","id":"c","parentId":"b"}` + "\r\n", "b,c", true},
		{"a loop ends", header + `{"type":"m","id":"a","parentId":"b"}` + "\n" + `{"type":"m","id":"b","parentId":"a"}`, "a,b", true},
		{"version 1: every entry in order", `{"type":"session","id":"s"}` + "\n" + `{"type":"message"}` + "\n" + `{"type":"message"}`, ",", false},
		{"a byte-order mark and blank lines", "\uFEFF\n" + header + "\n" + `{"type":"m","id":"a","parentId":null}`, "a", false},
		{"a corrupt line is left out", header + `{"type":"m","id":"a","parentId":null}` + "\nhello\n" + `{"type":"m","id":"b","parentId":"a"}`, "a,b", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Read([]byte(tt.file))
			require.Equal(t, tt.ids, ids(f))
			_, broken := f.Branch()
			require.Equal(t, tt.broken, broken)
		})
	}
}

func TestReadTellsAHeaderFromAnEntryAndCountsCorruptLines(t *testing.T) {
	f := Read([]byte("\n" + header + "[1,2]\n{\"id\":\"x\"}\n" + `{"type":"m","id":"a"}`))
	require.True(t, f.Header.Exists(), "the header")
	require.Equal(t, 2, f.HeaderLine)
	require.Equal(t, 3, f.Version)
	require.Equal(t, []int{3, 4}, f.Corrupt)
	require.Equal(t, 1, len(f.Entries))

	g := Read([]byte(`{"type":"message","id":"a"}`))
	require.False(t, g.Header.Exists(), "no header: the first line is an entry")
	require.Equal(t, 1, len(g.Entries))
}

func FuzzBranchJSON(f *testing.F) {
	f.Add([]byte(header + `{"type":"m","id":"a","parentId":null}` + "\n" + `{"type":"m","id":"b","parentId":"a"}` + "\n"))
	f.Add([]byte(`{"type":"m","id":"a","parentId":"a"}`))
	f.Add([]byte("[1,2]\n\"x\"\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := Read(data)
		b := file.BranchJSON()
		var v []json.RawMessage
		require.NoError(t, json.Unmarshal(b, &v), "the branch is a JSON array: %s", b)
		branch, _ := file.Branch()
		require.Equal(t, len(branch), len(v))
		require.True(t, len(v) <= len(file.Entries), "the branch holds entries of the file only")
	})
}

func TestContentText(t *testing.T) {
	tests := []struct{ content, sep, want string }{
		{`"plain"`, "\n", "plain"},
		{`[{"type":"text","text":"a"},{"type":"image","data":"x"},{"type":"text","text":"b"}]`, "\n", "a\nb"},
		{`[{"type":"text","text":"a"},{"type":"toolCall","name":"read"},{"type":"text","text":"b"}]`, "\n\n", "a\n\nb"},
		{`[{"type":"thinking","thinking":"hm"}]`, "\n", ""},
		{`null`, "\n", ""},
	}
	for _, tt := range tests {
		if got := ContentText(gjson.Parse(tt.content), tt.sep); got != tt.want {
			t.Errorf("ContentText(%s) = %q, want %q", tt.content, got, tt.want)
		}
	}
}
