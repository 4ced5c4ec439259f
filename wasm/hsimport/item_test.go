package hsimport

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/tidwall/gjson"
)

func TestNewItemIsOneDocumentPerSessionWithTheBaseTags(t *testing.T) {
	s := mustParse(t, fixture(t, "0195f3a2"))
	it := NewItem(s, "github.com/ada/app")
	require.Equal(t, "pimem-import:0195f3a2-7c1e-7d4b-9a55-2f8e1c0b6d11", it.DocumentID)
	require.Equal(t, []string{"project:github.com/ada/app", "session:0195f3a2-7c1e-7d4b-9a55-2f8e1c0b6d11", "source:import"}, it.Tags)
	require.Equal(t, "2026-11-20T09:00:00.000Z", it.Timestamp)
	require.Equal(t, "pi session of 2026-11-20 in github.com/ada/app", it.Context)
	require.Equal(t, s.Content(), it.Content)
	require.Equal(t, [][2]string{
		{"source", "pi-memory import"},
		{"session_id", "0195f3a2-7c1e-7d4b-9a55-2f8e1c0b6d11"},
		{"cwd", "/w/app"},
		{"started", "2026-11-20T09:00:00.000Z"},
		{"messages", "6"},
	}, it.Metadata)
}

func TestNewItemWithoutARepoKeyNamesTheSessionsFolder(t *testing.T) {
	s := mustParse(t, fixture(t, "0195f3ec"))
	it := NewItem(s, "")
	require.Equal(t, "project:/w/lib", it.Tags[0])
	require.Equal(t, "pi session of 2026-11-23 in /w/lib", it.Context)
}

func TestNewItemWithoutAStartTimeLeavesTheTimestampToTheServer(t *testing.T) {
	s := mustParse(t, session(`{"type":"session","version":3,"id":"s","cwd":"/w"}`, `{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"hi"}}`))
	it := NewItem(s, "k")
	require.Equal(t, "", it.Timestamp)
	require.Equal(t, "pi session in k", it.Context)
	require.False(t, jsonr.Get(gjson.Parse(string(it.AppendJSON(nil))), "timestamp").Exists())
}

func TestNewItemRedactsContentContextAndMetadata(t *testing.T) {
	s := mustParse(t, session(
		`{"type":"session","version":3,"id":"s","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/w/password=hunter22x"}`,
		userEntry("a", "", "the key is"),
		assistantEntry("b", "a", "AKIAIOSFODNN7EXAMPLE"),
	))
	it := NewItem(s, "https://ci:tok3nEXAMPLEvalue@git.example.com/o/r")
	body := string(RequestBody([]Item{it}))
	for _, secret := range []string{"hunter22x", "tok3nEXAMPLEvalue", "AKIAIOSFODNN7EXAMPLE"} {
		require.NotContains(t, body, secret)
	}
	require.Contains(t, it.Context, "[REDACTED:")
}

func TestNewItemRedactsEvenTurnsItWasGivenUnredacted(t *testing.T) {
	s := Session{ID: "s", Turns: []Turn{{Role: RoleUser, Text: "db password = hunter22x"}}}
	require.NotContains(t, NewItem(s, "k").Content, "hunter22x")
}

func TestRequestBodyIsWhatHindsightReads(t *testing.T) {
	a := NewItem(mustParse(t, fixture(t, "0195f3a2")), "github.com/ada/app")
	b := NewItem(mustParse(t, fixture(t, "0195f3ec")), "github.com/ada/lib")
	body := string(RequestBody([]Item{a, b}))
	require.True(t, gjson.Valid(body), body)
	v := gjson.Parse(body)
	require.True(t, jsonr.Get(v, "async").Bool())
	items := jsonr.Get(v, "items").Array()
	require.Equal(t, 2, len(items))
	first := items[0]
	require.Equal(t, a.Content, jsonr.Get(first, "content").Str)
	require.Equal(t, a.Context, jsonr.Get(first, "context").Str)
	require.Equal(t, a.Timestamp, jsonr.Get(first, "timestamp").Str)
	require.Equal(t, a.DocumentID, jsonr.Get(first, "document_id").Str)
	require.Equal(t, "replace", jsonr.Get(first, "update_mode").Str)
	require.Equal(t, "source:import", jsonr.Get(first, "tags.2").Str)
	require.Equal(t, "6", jsonr.Get(first, "metadata.messages").Str)
	require.Equal(t, "pimem-import:0195f3ec-4444-7000-8111-000000000005", jsonr.Get(items[1], "document_id").Str)
	require.Equal(t, `{"items":[],"async":true}`, string(RequestBody(nil)))
}

func TestRequestPathEscapesTheBank(t *testing.T) {
	tests := []struct{ bank, want string }{
		{"pimem-app-1a2b3c4d5e", "/v1/default/banks/pimem-app-1a2b3c4d5e/memories"},
		{"team bank/2", "/v1/default/banks/team%20bank%2F2/memories"},
		{"ü~_.", "/v1/default/banks/%C3%BC~_./memories"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, RequestPath(tc.bank))
	}
	require.True(t, strings.HasPrefix(DocumentID("x"), DocumentPrefix))
}
