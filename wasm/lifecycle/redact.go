package lifecycle

import (
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
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
	if jsonr.Valid(in.Raw) { // iterative: gjson's validator ran the stack out at 950 levels (h-v99 a2)
		// Each string alone: redacting the JSON text would read its
		// escapes as text, and a mark could take a backslash with it
		// (os.environ[\"PW\"] gave a line that was no JSON).
		out.Exact()
	}
	out.Output(in.Raw)
}
