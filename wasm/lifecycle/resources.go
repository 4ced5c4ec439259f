package lifecycle

import (
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// resources is the stores' memory as whole texts a client of `pimem mcp`
// may attach (MCP resources), from every readable store.Resourcer, in store
// order:
//
//	{"op":"list"}                  => one output: [{"uri","name","description","mimeType"},…]
//	{"op":"read","uri":"pimem://…"} => one output: the text; an unknown URI fails (exit 1)
//
// Nothing is listed while memory is off for the session.
func (e *Engine) resources(out *store.Out, in gjson.Result) {
	var all []store.Resource
	if e.s.Switch == "" {
		for _, x := range readable[store.Resourcer](e, out) {
			all = append(all, x.Resources()...)
		}
	}
	switch op := jsonr.Get(in, "op").Str; op {
	case "list":
		out.Exact()
		out.Output(string(jsonw.Array(nil, len(all), func(b []byte, i int) []byte {
			o := jsonw.Open(b)
			o.Str("uri", all[i].URI)
			o.Str("name", all[i].Name)
			o.Str("description", all[i].Description)
			o.Str("mimeType", all[i].MIMEType)
			return o.Close()
		})))
	case "read":
		uri := jsonr.Get(in, "uri").Str
		for _, r := range all {
			if r.URI != uri {
				continue
			}
			text, err := r.Read()
			if err != nil {
				out.Fail(redacted("pi-memory: could not read " + uri + ": " + err.Error()))
				return
			}
			out.Output(text)
			return
		}
		out.Fail(redacted("pi-memory: no resource " + uri + " (the list names those this project has now)"))
	default:
		out.Usage(redacted(`pi-memory: resources takes {"op":"list"} or {"op":"read","uri":…}, got op ` + jsonr.Get(in, "op").Raw))
	}
}
