package lifecycle

import (
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// redactExport is the redact export, which needs no session: a JSON value
// in, one output out, the same value with every string in it (object keys
// too) redacted by wasm/redact, byte for byte the input when nothing is.
// It is how a host sends text it did not get from the core under the
// core's one rule: pimem mcp passes every message it writes through it (a
// protocol error its SDK makes quotes a tool's name, an argument, a URI the
// client sent), so no host grows secret patterns of its own. Text that is
// not JSON comes back redacted as text.
//
//	{"error":{"message":"unknown tool \"ghp_…\""}} => {"error":{"message":"unknown tool \"[REDACTED:github-token]\""}}
func redactExport(out *store.Out, in gjson.Result) {
	if !gjson.Valid(in.Raw) {
		s, _ := redact.String(in.Raw)
		out.Output(s)
		return
	}
	b, changed := redactValue(nil, in)
	if !changed {
		out.Output(in.Raw)
		return
	}
	out.Output(string(b))
}

// redactValue appends v to dst with its strings redacted, and says whether
// one was.
func redactValue(dst []byte, v gjson.Result) ([]byte, bool) {
	switch {
	case v.Type == gjson.String:
		s, kinds := redact.String(v.Str)
		return jsonw.String(dst, s), kinds != nil
	case v.IsObject(), v.IsArray():
		obj := v.IsObject()
		open, end := byte('['), byte(']')
		if obj {
			open, end = '{', '}'
		}
		dst = append(dst, open)
		changed, n := false, 0
		v.ForEach(func(k, e gjson.Result) bool {
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			var c bool
			if obj {
				dst, c = redactValue(dst, k)
				changed = changed || c
				dst = append(dst, ':')
			}
			dst, c = redactValue(dst, e)
			changed = changed || c
			return true
		})
		return append(dst, end), changed
	}
	return append(dst, v.Raw...), false
}
