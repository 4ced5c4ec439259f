package lifecycle

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/tidwall/gjson"
)

// The redact export, with no session: every string of a JSON value (keys
// too) redacted, the value otherwise as it was; untouched when it holds no
// secret. pimem mcp writes every message through it.
func TestRedactExportRedactsEveryStringOfAJSONValue(t *testing.T) {
	e := New(nil)
	for _, tc := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"unknown tool \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\""}}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"unknown tool \"[REDACTED:github-token]\""}}`},
		{`{"error":{"code":-32002,"message":"Resource not found","data":{"uri":"pimem://x?token=hunter22x"}}}`,
			`{"error":{"code":-32002,"message":"Resource not found","data":{"uri":"pimem://x?token=[REDACTED:secret]"}}}`},
		{`{"args":{"password=hunter22x":1},"list":["AKIAABCDEFGHIJKLMNOP",2.50,null,true]}`,
			`{"args":{"password=[REDACTED:secret]":1},"list":["[REDACTED:aws-key]",2.50,null,true]}`},
		{`{"jsonrpc":"2.0","id":"a\u0062","result":{"content":[{"type":"text","text":"no secret here"}]}}`,
			`{"jsonrpc":"2.0","id":"a\u0062","result":{"content":[{"type":"text","text":"no secret here"}]}}`},
		// A string's escapes are not text to redact: the answer stays JSON
		// (h-v30: the whole text was redacted again, and a mark took a
		// backslash).
		{`{"result":{"content":[{"type":"text","text":"- password = os.environ[\"DB_PASSWORD\"]\n2. the password is now 6-digit\n\"q\""}]}}`,
			`{"result":{"content":[{"type":"text","text":"- password = os.environ[\"DB_PASSWORD\"]\n2. the password is now 6-digit\n\"q\""}]}}`},
		{`{"text":"pw = form[\"password\"]; token=hunter22x"}`, `{"text":"pw = form[\"password\"]; token=[REDACTED:secret]"}`},
	} {
		env := gjson.ParseBytes(e.Handle("redact", []byte(tc.in)))
		require.Equal(t, int64(0), jsonr.Get(env, "exit").Int(), env.Raw)
		require.Equal(t, tc.want, jsonr.Get(env, "effects.0.text").String())
	}
}
