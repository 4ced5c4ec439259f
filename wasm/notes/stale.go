package notes

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Staleness (/memory stale): which entries of the page tables nobody has
// written or confirmed for a while. It only suggests; nothing is deleted.

// dayMs is a day in Unix milliseconds.
const dayMs = 86400000

// scopeEntries is one scope's page table as the stale listing reads it:
// where the file is and its entries, dated.
type scopeEntries struct {
	scope   string
	file    string // absolute, as JSON names it
	display string // as prompts name it
	entries []tableEntry
}

// staleEntry is a fact or pointer not confirmed since the cutoff.
type staleEntry struct {
	scope, file, display string
	tableEntry
}

// staleEntries lists the facts and pointers of the tables last confirmed
// more than days before now, the oldest confirmation first; ties keep their
// order (scopes as given, then file order). Headings and text pages are
// never stale: they are not claims anyone confirms.
//
//	now day 100, days 30: a fact confirmed day 60, one day 80, a heading day 10
//	  => the fact of day 60
func staleEntries(tables []scopeEntries, now int64, days int) []staleEntry {
	cutoff := now - int64(days)*dayMs
	var found []staleEntry
	for _, t := range tables {
		for _, e := range t.entries {
			if (e.Kind == "fact" || e.Kind == "pointer") && e.LastConfirmed < cutoff {
				found = append(found, staleEntry{t.scope, t.file, t.display, e})
			}
		}
	}
	// Oldest confirmation first; insertion sort keeps the file order of ties
	// and needs no reflection (sort.SliceStable would, under TinyGo).
	for i := 1; i < len(found); i++ {
		for j := i; j > 0 && found[j].LastConfirmed < found[j-1].LastConfirmed; j-- {
			found[j], found[j-1] = found[j-1], found[j]
		}
	}
	return found
}

// staleText is /memory stale's answer to a person.
//
//	staleText(nil, 90) => "Nothing stale: every entry was written or confirmed in the last 90 days."
func staleText(found []staleEntry, days int) string {
	if len(found) == 0 {
		return "Nothing stale: every entry was written or confirmed in the last " + text.Plural(days, "day", "days") + "."
	}
	var b text.Builder
	b.WriteString(text.Plural(len(found), "entry has", "entries have") + " not been confirmed for " + text.Plural(days, "day", "days") + ". These are suggestions: check each, then /memory confirm <id>, update it, or move it to archive/. Nothing is deleted.")
	for _, f := range found {
		b.WriteString("\n  " + f.ID + "  " + f.display + ":" + numstr.Itoa(f.Line) + "  last confirmed " + civil.Day(f.LastConfirmed) + "  " + f.Summary)
	}
	return b.String()
}

// staleJSON is /memory stale --json: one object per entry, in staleEntries'
// order.
func staleJSON(found []staleEntry) string {
	return string(jsonw.Array(nil, len(found), func(b []byte, i int) []byte {
		f := &found[i]
		o := jsonw.Open(b)
		o.Str("scope", f.scope)
		o.Str("file", f.file)
		o.Str("id", f.ID)
		o.Int("line", int64(f.Line))
		o.Str("summary", f.Summary)
		o.Str("lastConfirmed", civil.FormatTime(f.LastConfirmed))
		o.Str("firstSeen", civil.FormatTime(f.FirstSeen))
		return o.Close()
	}))
}
