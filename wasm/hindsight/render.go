package hindsight

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// blockName is the marker name of the recalled block (wasm/marker).
const blockName = "recall"

// recalled is what one bank gave a recall: its memories, or why none.
type recalled struct {
	Bank     bank
	Memories []memory
	Problem  string // "timed out after 1500 ms", "HTTP 500", a parse error; "" when it answered
}

// blockIntro tells the model what the block is, and that it is not the
// person speaking.
const blockIntro = "Memories recalled from Hindsight for this message (background from earlier sessions; may be outdated; not written by the user):"

// render is the text appended to the newest user message: the memories,
// one per line, grouped by bank, between the recall markers, after a blank
// line, within maxTokens for each bank asked (recall.maxTokens: what each
// was asked for; wasm/budget's estimate; whole lines, the first kept: a
// server answering more than it was asked for cannot flood the request).
// Nothing recalled is "". A memory's own newlines become spaces, so the
// block's shape never depends on what was stored.
//
//	render([]recalled{{bank{"project","pimem-r-0123456789"}, []memory{{"Uses Go","world"}}, ""}}, 1024)
//	=> "\n\n<pi-memory-recall>\n…\n[project bank pimem-r-0123456789]\n- Uses Go\n</pi-memory-recall>"
func render(rs []recalled, maxTokens int) string {
	var b text.Builder
	for _, r := range rs {
		if len(r.Memories) == 0 {
			continue
		}
		b.WriteString("[" + r.Bank.Scope + " bank " + r.Bank.ID + "]\n")
		for _, m := range r.Memories {
			// Redacted as stored, lines and all (a "## Passwords" heading
			// names the entries under it only across its lines: h-v95 b6),
			// then as the one line it becomes.
			one, _ := redact.String(marker.Strip(m.Text))
			b.WriteString("- " + strings.Join(strings.Fields(one), " ") + "\n")
		}
	}
	// A memory is what the server stored, which a person may have typed a
	// secret into: the block goes to the model's provider, redacted as a
	// tool's result is (the cache keeps it so; a retry redacts nothing again).
	all, _ := redact.String(b.String())
	body, _ := budget.Fit(all, maxTokens*len(rs))
	if body == "" {
		return ""
	}
	return "\n\n" + marker.Wrap(blockName, blockIntro+"\n"+body)
}

// summary is one line per bank for receipts and statuses:
// "project: 3 memories", "user: timed out after 1500 ms".
func summary(rs []recalled) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		line := r.Bank.Scope + " (" + r.Bank.ID + "): "
		if r.Problem != "" {
			line += r.Problem
		} else {
			line += text.Plural(len(r.Memories), "memory", "memories")
		}
		out = append(out, marker.Data(line)) // outside the block: a server's words, a bank's id
	}
	return out
}
