package decision

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// namesID reports a synopsis placeholder that takes a decision id.
//
//	namesID("<id>") => true; namesID("<oldId>") => true; namesID("<text>") => false
func namesID(placeholder string) bool {
	p := strings.ToLower(strings.Trim(placeholder, "<>"))
	return p == "id" || strings.HasSuffix(p, "id") || (strings.HasPrefix(p, "id") && len(p) == 3)
}

// completeIDs are at most n of list's decisions (newest first) whose id
// begins or ends with prefix, active ones before the others, each with its
// status and text on one line.
//
//	completeIDs([D-…-0002 active "Use pnpm"], "02", 5) => [{D-…-0002, "active · Use pnpm"}]
func completeIDs(list hits, prefix string, n int) []store.Completion {
	prefix = strings.ToUpper(prefix)
	var active, other []store.Completion
	for i := 0; i < list.Len() && len(active) < n; i++ {
		x := list.At(i)
		if prefix != "" && !strings.HasPrefix(x.ID, prefix) && !strings.HasSuffix(x.ID, prefix) {
			continue
		}
		c := store.Completion{Value: x.ID, Description: x.Status.String() + " · " + text.Runes(text.OneLine(x.Text), 70)}
		if x.Status == Active {
			active = append(active, c)
		} else {
			other = append(other, c)
		}
	}
	all := append(active, other...)
	if len(all) > n {
		all = all[:n]
	}
	return all
}
