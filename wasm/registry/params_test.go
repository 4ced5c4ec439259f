package registry

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func tool(t *testing.T, name string) *Tool {
	t.Helper()
	for i := range Tools {
		if Tools[i].Name == name {
			return &Tools[i]
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func TestCheckParamsHoldsACallToItsToolsSchema(t *testing.T) {
	tests := []struct{ tool, args, want string }{
		{"memory_search", `{"query":"pnpm"}`, ""},
		{"memory_search", `{"query":"pnpm","limit":3}`, ""},
		{"memory_search", `{"query":"pnpm","limit":3.0}`, ""},
		{"memory_status", ``, ""},
		{"memory_status", `null`, ""},
		{"memory_status", ` {} `, ""},
		{"memory_search", `{"query":5}`, `memory_search: "query" must be a string, got a number.`},
		{"memory_search", `{}`, `memory_search: "query" is missing (it takes query, limit, since, until).`},
		{"memory_search", `{"query":"x","limit":"3"}`, `memory_search: "limit" must be an integer, got a string.`},
		{"memory_search", `{"query":"x","limit":2.5}`, `memory_search: "limit" must be a whole number, got 2.5.`},
		{"memory_search", `{"query":"x","limit":50}`, `memory_search: "limit" must be from 1 to 20, got 50.`},
		{"memory_search", `{"query":"x","limit":0}`, `memory_search: "limit" must be from 1 to 20, got 0.`},
		{"memory_search", `{"query":"x","frob":1}`, `memory_search: unknown argument "frob" (it takes query, limit, since, until).`},
		{"memory_search", `{"query":null}`, `memory_search: "query" must be a string, got null.`},
		{"memory_search", `{"query":["a"]}`, `memory_search: "query" must be a string, got an array.`},
		{"memory_search", `["query"]`, `memory_search: its arguments must be an object, got an array.`},
		{"memory_search", `"query"`, `memory_search: its arguments must be an object, got a string.`},
		{"memory_search", `{"query":`, `memory_search: its arguments are not JSON.`},
		{"memory_remember", `{"text":"x","scope":"team"}`, `memory_remember: "scope" must be one of global, project, local, got "team".`},
		{"memory_status", `{"x":1}`, `memory_status: unknown argument "x" (it takes no arguments).`},
		{"memory_search", `{"query":"` + strings.Repeat("a", MaxParamsBytes) + `"}`, `memory_search: its arguments are 65548 bytes; at most 65536 are read.`},
		{"memory_search", `{"qu\"ery":"x"}`, `memory_search: unknown argument "qu\"ery" (it takes query, limit, since, until).`},
		{"memory_search", `{"query.x":"x","query":"y"}`, `memory_search: unknown argument "query.x" (it takes query, limit, since, until).`},
	}
	for _, tt := range tests {
		err := CheckParams(tool(t, tt.tool), tt.args)
		got := ""
		if err != nil {
			got = err.Error()
		}
		require.Equal(t, tt.want, got, "%s %.80s", tt.tool, tt.args)
	}
}

// Whatever arrives, CheckParams answers without panicking, and what it
// lets through is an object with the required arguments, each of its type.
func FuzzCheckParams(f *testing.F) {
	f.Add("memory_search", `{"query":"x","limit":3}`)
	f.Add("memory_remember", `{"text":"x","scope":"local"}`)
	f.Add("decision_list", `{"status":"all"}`)
	f.Add("memory_search", `{"query":"x","query":5}`)
	f.Add("memory_search", `{"query":"\u0000"}`)
	f.Fuzz(func(t *testing.T, name, args string) {
		var tl *Tool
		for i := range Tools {
			if strings.HasPrefix(Tools[i].Name, name) {
				tl = &Tools[i]
				break
			}
		}
		if tl == nil {
			tl = &Tools[0]
		}
		if err := CheckParams(tl, args); err == nil && strings.TrimSpace(args) != "" && strings.TrimSpace(args) != "null" {
			if !strings.HasPrefix(strings.TrimSpace(args), "{") {
				t.Fatalf("%s let %q through", tl.Name, args)
			}
		}
	})
}
