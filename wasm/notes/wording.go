package notes

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// The words the /memory commands use for scopes, faults and traces, so that
// every listing says them the same way.

// scopeTitle names a scope in headings.
func scopeTitle(name string) string {
	switch name {
	case scopeGlobal:
		return "Global"
	case scopeProject:
		return "Project"
	default:
		return "Personal notes"
	}
}

// scopeNoun names a scope in sentences.
func scopeNoun(scope string) string {
	if scope == scopeLocal {
		return "your personal project notes"
	}
	return scope + " memory"
}

// faultReason says in words why a page could not stay in the prompt
// (a fault's Reason: the cap that forced it out).
func faultReason(r string) string {
	switch r {
	case "scope_lines":
		return "over the scope's maxInjectLines"
	case "scope_bytes":
		return "over the scope's maxInjectBytes"
	case "tokens":
		return "over maxMemoryTokens"
	}
	return r
}

// traceLine is a trace in one line, after its id and time: what each
// store injected, or what a flush wrote and refused.
func traceLine(t *Trace) string {
	switch t.Kind {
	case "inject":
		var parts []string
		for _, s := range t.Stores {
			parts = append(parts, s.Store+" "+numstr.Itoa(s.Bytes)+" B ≈ "+numstr.Itoa(s.Tokens)+" tok")
		}
		line := "inject  " + strings.Join(parts, ", ")
		if n := len(t.Faults) + t.MoreFaults; n > 0 {
			line += "; " + text.Plural(n, "fault", "faults")
		}
		return line
	case "flush":
		written, refused := 0, 0
		for _, o := range t.Ops {
			if o.Op == "commit" {
				written++
			} else {
				refused++
			}
		}
		return "flush   " + numstr.Itoa(written) + " written, " + numstr.Itoa(refused) + " refused"
	}
	return t.Kind
}

// padRight pads s with spaces to n bytes, for a column; it never cuts.
func padRight(s string, n int) string {
	for len(s) < n {
		s += " "
	}
	return s
}
