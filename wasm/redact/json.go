package redact

import "github.com/pi-memory/pi-memory/wasm/marker"

// JSONStrings is JSON text raw with each string's secrets marked as the
// string says them, decoded: a tool call's arguments quote a command or a
// file whole ({"command":"export TOKEN=\"V\""}), where the escaped quotes
// and "\n" hide a value from the patterns, which read text, not its JSON
// spelling. A string with nothing to mark keeps its bytes; the text is read
// once, without recursion, whatever its depth. Keys and values alike: a
// caller still redacts the whole text, which reads "password":"V".
//
//	JSONStrings(`{"command":"export TOKEN=\"hunter2xyz\""}`) => `{"command":"export TOKEN=\"[REDACTED:secret]\""}`
//	JSONStrings(`{"n":1,"path":"a.go"}`)                      => `{"n":1,"path":"a.go"}`
func JSONStrings(raw string) string {
	return marker.MapJSONStrings(raw, func(s string) string {
		out, _ := String(s)
		return out
	})
}
