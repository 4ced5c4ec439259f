package decision

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// A list of decisions as /decision list and search print it: the --limit
// rule, the text and the JSON.

// listLimit is how many decisions a list shows as text without --limit.
const listLimit = 50

// moreHint ends a list cut at its limit: how to see the rest (decision_list
// says it its own way).
const moreHint = "use --limit N (0 for all)"

var errLimit = errors.New("--limit must be a whole number (0 = no limit)")

// parseLimit reads --limit (value is "" when it is not given): how many
// decisions a list shows, 0 for all. Text is cut at listLimit by default;
// JSON is complete unless --limit is given, so a script never gets a silently
// cut list.
//
//	parseLimit("", false)   => 50
//	parseLimit("", true)    => 0
//	parseLimit("5", true)   => 5
//	parseLimit("-1", false) => error: --limit must be a whole number (0 = no limit)
func parseLimit(value string, asJSON bool) (int, error) {
	if value == "" {
		if asJSON {
			return 0, nil
		}
		return listLimit, nil
	}
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 {
		return 0, errLimit
	}
	return n, nil
}

// shownOf is how many of total decisions a list shows under limit (0: all).
func shownOf(total, limit int) int {
	if limit > 0 && total > limit {
		return limit
	}
	return total
}

// listJSON is the first limit decisions of list (all when limit is 0) as a
// JSON array of what `show --json` prints.
func listJSON(list hits, limit int) []byte {
	return jsonw.Array(nil, shownOf(list.Len(), limit), func(b []byte, i int) []byte { return appendJSON(b, list.At(i)) })
}

// listText is a list as a person reads it: how many decisions there are,
// then the first limit of them (all when limit is 0), one listLine each, and
// how many more there are. title is plural ("active decisions").
//
//	listText([D-2026-03-01-0002, D-2026-03-01-0001], "active decisions", 1) =>
//	  2 active decisions (newest first):
//	  D-2026-03-01-0002 | active | Use Go
//	  … 1 more; use --limit N (0 for all).
//
// A decision in an unresolved conflict ends with "| ⚠ conflicts with <id>",
// and a last line says how to settle it.
func listText(list hits, title string, limit int) string {
	total := list.Len()
	if total == 0 {
		return "No " + title + "."
	}
	shown := shownOf(total, limit)
	pairs := list.s.Conflicts()
	marked := false
	var sb text.Builder
	sb.WriteString(text.Plural(total, strings.TrimSuffix(title, "s"), title))
	sb.WriteString(" (newest first):")
	for i := 0; i < shown; i++ {
		x := list.At(i)
		sb.WriteString("\n")
		sb.WriteString(listLine(x))
		if ids := conflictsWith(x, pairs); len(ids) > 0 {
			sb.WriteString(" | ⚠ conflicts with " + strings.Join(ids, ", "))
			marked = true
		}
	}
	if total > shown {
		sb.WriteString("\n… " + numstr.Itoa(total-shown) + " more; " + moreHint + ".")
	}
	if marked {
		sb.WriteString("\n⚠ Unresolved conflicts: the model is told to ask which holds. Settle one with\n  /decision resolve <id> rejected (or active), or /decision supersede.")
	}
	return sb.String()
}
