package registry

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/tidwall/gjson"
)

// MaxParamsBytes bounds a tool call's arguments: every tool takes a few
// short strings, and a bigger call (a 10 MB argument from an MCP client) is
// refused before any store reads it.
const MaxParamsBytes = 64 << 10

// CheckParams holds a call's arguments (raw JSON; "" for none) to the
// tool's schema, the part of JSON schema the registry's tools use: an
// object whose properties are strings (enum), integers (minimum, maximum)
// or booleans, some required, no others. pi checks its model's calls
// against the schema before the adapter sees them; an MCP client's calls
// arrive as they were sent, so the core checks every call the same way. The
// error says what is wrong in a sentence the caller can act on.
//
//	CheckParams(memory_search, `{"query":5}`) => `memory_search: "query" must be a string, got a number`
func CheckParams(t *Tool, raw string) error {
	if len(raw) > MaxParamsBytes {
		return paramsError(t, "its arguments are "+numstr.Itoa(len(raw))+" bytes; at most "+numstr.Itoa(MaxParamsBytes)+" are read")
	}
	if strings.TrimSpace(raw) == "" || strings.TrimSpace(raw) == "null" {
		raw = "{}"
	}
	if !jsonr.Valid(raw) {
		return paramsError(t, "its arguments are not JSON")
	}
	args := gjson.Parse(raw)
	if !args.IsObject() {
		return paramsError(t, "its arguments must be an object, got "+kindOf(args))
	}
	schema := gjson.Parse(t.Parameters)
	props := fields(jsonr.Get(schema, "properties"))
	var problem string
	given := map[string]bool{}
	args.ForEach(func(k, v gjson.Result) bool {
		given[k.Str] = true
		p, ok := props[k.Str]
		if !ok {
			problem = "unknown argument " + strconv.Quote(k.Str) + " (" + takes(schema) + ")"
			return false
		}
		problem = checkValue(k.Str, p, v)
		return problem == ""
	})
	if problem != "" {
		return paramsError(t, problem)
	}
	for _, r := range jsonr.Get(schema, "required").Array() {
		if !given[r.Str] {
			return paramsError(t, strconv.Quote(r.Str)+" is missing ("+takes(schema)+")")
		}
	}
	return nil
}

// fields are an object's members by key (gjson's Get would read a key
// with a dot as a path).
func fields(obj gjson.Result) map[string]gjson.Result {
	m := map[string]gjson.Result{}
	obj.ForEach(func(k, v gjson.Result) bool {
		m[k.Str] = v
		return true
	})
	return m
}

// checkValue: "" when v is a value of the property p, else why not.
func checkValue(name string, p, v gjson.Result) string {
	q := strconv.Quote(name)
	switch typ := jsonr.Get(p, "type").Str; typ {
	case "string":
		if v.Type != gjson.String {
			return q + " must be a string, got " + kindOf(v)
		}
		if enum := jsonr.Get(p, "enum"); enum.IsArray() {
			var names []string
			for _, e := range enum.Array() {
				if e.Str == v.Str {
					return ""
				}
				names = append(names, e.Str)
			}
			return q + " must be one of " + strings.Join(names, ", ") + ", got " + strconv.Quote(v.Str)
		}
	case "integer", "number":
		if v.Type != gjson.Number {
			return q + " must be " + map[string]string{"integer": "an integer", "number": "a number"}[typ] + ", got " + kindOf(v)
		}
		n := v.Float()
		if typ == "integer" && n != float64(int64(n)) {
			return q + " must be a whole number, got " + v.Raw
		}
		lo, hi := jsonr.Get(p, "minimum"), jsonr.Get(p, "maximum")
		if lo.Exists() && n < lo.Float() || hi.Exists() && n > hi.Float() {
			return q + " must be from " + lo.Raw + " to " + hi.Raw + ", got " + v.Raw
		}
	case "boolean":
		if v.Type != gjson.True && v.Type != gjson.False {
			return q + " must be true or false, got " + kindOf(v)
		}
	}
	return ""
}

// kindOf names a JSON value's kind for an error.
func kindOf(v gjson.Result) string {
	switch {
	case v.Type == gjson.String:
		return "a string"
	case v.Type == gjson.Number:
		return "a number"
	case v.Type == gjson.True || v.Type == gjson.False:
		return "a boolean"
	case v.Type == gjson.Null:
		return "null"
	case v.IsArray():
		return "an array"
	case v.IsObject():
		return "an object"
	}
	return "nothing"
}

// takes lists a schema's arguments, in the schema's order.
func takes(schema gjson.Result) string {
	var names []string
	jsonr.Get(schema, "properties").ForEach(func(k, _ gjson.Result) bool {
		names = append(names, k.Str)
		return true
	})
	if len(names) == 0 {
		return "it takes no arguments"
	}
	return "it takes " + strings.Join(names, ", ")
}

func paramsError(t *Tool, problem string) error {
	return paramsErr(t.Name + ": " + problem + ".")
}

type paramsErr string

func (e paramsErr) Error() string { return string(e) }
