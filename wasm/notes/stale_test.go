package notes

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

// day is noon of day d of 2026's January, in Unix milliseconds.
func day(d int) int64 { return civil.Days(2026, 1, d)*dayMs + dayMs/2 }

func entry(id, kind string, line int, lastConfirmed int64) tableEntry {
	return tableEntry{ID: id, Kind: kind, Line: line, Summary: "- " + id, FirstSeen: day(1), LastConfirmed: lastConfirmed}
}

func TestStaleEntriesListsOldFactsAndPointersOldestFirst(t *testing.T) {
	project := scopeEntries{"project", "/p/.pi/memory/MEMORY.md", ".pi/memory/MEMORY.md", []tableEntry{
		entry("P-heading", "heading", 1, day(1)),
		entry("P-recent", "fact", 3, day(25)),
		entry("P-old", "fact", 4, day(5)),
		entry("P-text", "text", 6, day(1)),
		entry("P-link", "pointer", 8, day(2)),
		entry("P-tie", "fact", 9, day(5)),
	}}
	global := scopeEntries{"global", "/h/.pi/agent/memory/MEMORY.md", "~/.pi/agent/memory/MEMORY.md", []tableEntry{
		entry("P-global", "fact", 2, day(5)),
		entry("P-cutoff", "fact", 3, day(31)-10*dayMs), // exactly days old: not stale yet
	}}
	tests := []struct {
		name   string
		tables []scopeEntries
		days   int
		want   []string
	}{
		{"no table", nil, 10, nil},
		{"headings and text are never stale", []scopeEntries{project}, 10, []string{"P-link", "P-old", "P-tie"}},
		{"ties keep scope then file order", []scopeEntries{project, global}, 10, []string{"P-link", "P-old", "P-tie", "P-global"}},
		{"a longer window lists fewer", []scopeEntries{project, global}, 27, []string{"P-link"}},
		{"nothing is older than the window", []scopeEntries{project}, 30, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range staleEntries(tt.tables, day(31), tt.days) {
				got = append(got, f.ID)
			}
			require.Equal(t, tt.want, got, "staleEntries, %d days", tt.days)
		})
	}
	f := staleEntries([]scopeEntries{global}, day(31), 10)[0]
	require.True(t, f.scope == "global" && f.file == global.file && f.display == global.display && f.Line == 2, "a stale entry keeps its scope and file: %+v", f)
}

func TestStaleTextSuggestsAndNamesEachEntryWhereItIs(t *testing.T) {
	old := staleEntry{"project", "/p/.pi/memory/MEMORY.md", ".pi/memory/MEMORY.md", entry("P-0123456789", "fact", 4, day(5))}
	old.Summary = "- Use pnpm, not npm"
	tests := []struct {
		name  string
		found []staleEntry
		days  int
		want  string
	}{
		{"nothing stale", nil, 90, "Nothing stale: every entry was written or confirmed in the last 90 days."},
		{"one day", nil, 1, "Nothing stale: every entry was written or confirmed in the last 1 day."},
		{"one entry", []staleEntry{old}, 10, "1 entry has not been confirmed for 10 days. These are suggestions: check each, then /memory confirm <id>, update it, or move it to archive/. Nothing is deleted.\n" +
			"  P-0123456789  .pi/memory/MEMORY.md:4  last confirmed 2026-01-05  - Use pnpm, not npm"},
		{"two entries", []staleEntry{old, old}, 10, "2 entries have not been confirmed for 10 days. These are suggestions: check each, then /memory confirm <id>, update it, or move it to archive/. Nothing is deleted.\n" +
			"  P-0123456789  .pi/memory/MEMORY.md:4  last confirmed 2026-01-05  - Use pnpm, not npm\n" +
			"  P-0123456789  .pi/memory/MEMORY.md:4  last confirmed 2026-01-05  - Use pnpm, not npm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, staleText(tt.found, tt.days))
		})
	}
}

func TestStaleJSONNamesTheAbsoluteFileAndBothDates(t *testing.T) {
	old := staleEntry{"project", "/p/.pi/memory/MEMORY.md", ".pi/memory/MEMORY.md", entry("P-0123456789", "fact", 4, day(5))}
	require.Equal(t, "[]", staleJSON(nil))
	require.Equal(t, `[{"scope":"project","file":"/p/.pi/memory/MEMORY.md","id":"P-0123456789","line":4,"summary":"- P-0123456789","lastConfirmed":"2026-01-05T12:00:00.000Z","firstSeen":"2026-01-01T12:00:00.000Z"}]`, staleJSON([]staleEntry{old}))
}
