package observe

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/tidwall/gjson"
)

func TestSummaryHasTheSeedsSectionsAndMergesFileLists(t *testing.T) {
	st := &state{
		Groups:   []group{{Day: d12, Items: []observation{item(high, 870, "User prefers tabs")}}},
		Task:     "Convert the indentation",
		Response: "Run gofmt after the change",
		Read:     []string{"a.go", "z.go"},
		Modified: []string{"b.go"},
		Mark:     Mark{ID: "e9"},
	}
	prev := "## Observations\n…\n<read-files>\nold.go\nb.go\n</read-files>\n\n<modified-files>\nolder.go\n</modified-files>"
	summary, details, why := summaryOf(st, summaryInput{PreviousSummary: prev, Read: []string{"c.go"}, Modified: []string{"a.go"}})
	require.Equal(t, "", why)
	require.Equal(t, "## Observations\n"+summaryFrame+"\nDate: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n\n"+
		"## Open Threads\n- Convert the indentation\n\n"+
		"## Next Action Bias\n- Run gofmt after the change\n\n"+
		"<read-files>\nc.go\nold.go\nz.go\n</read-files>\n\n"+
		"<modified-files>\na.go\nb.go\nolder.go\n</modified-files>\n", summary)
	d := gjson.ParseBytes(details)
	require.Equal(t, int64(SchemaVersion), d.Get("schemaVersion").Int())
	require.Equal(t, detailsStore, d.Get("store").Str)
	require.Equal(t, "e9", d.Get("coversThrough").Str)
	require.Equal(t, int64(1), d.Get("byPriority.high").Int())
	require.Equal(t, `["a.go","b.go","older.go"]`, d.Get("modifiedFiles").Raw)

	// A summary is read back by the next compaction: its lists carry over.
	again, _, _ := summaryOf(&state{Groups: st.Groups}, summaryInput{PreviousSummary: summary})
	require.Contains(t, again, "<read-files>\nc.go\nold.go\nz.go\n</read-files>")
	require.Contains(t, again, "<modified-files>\na.go\nb.go\nolder.go\n</modified-files>")
	require.Contains(t, again, "## Open Threads\n- None recorded.")
}

func TestWithoutObservationsThereIsNoSummary(t *testing.T) {
	summary, details, why := summaryOf(&state{Task: "something"}, summaryInput{})
	require.Equal(t, "", summary)
	require.True(t, details == nil)
	require.Contains(t, why, "no observations yet; pi's own summary is used")
}

func TestOurSummaryIsNeverObservedAgain(t *testing.T) {
	st := &state{Groups: []group{{Day: d12, Items: []observation{item(high, 870, "User prefers tabs")}}}}
	summary, details, _ := summaryOf(st, summaryInput{})
	s := newSession(feb12)
	s.user("hi")
	s.add("compaction", func(o *objectAlias) {
		o.Str("summary", summary)
		o.Str("firstKeptEntryId", "e1")
		o.Raw("details", details)
	})
	s.add("branch_summary", func(o *objectAlias) {
		o.Str("summary", summary)
		o.Str("fromId", "e1")
		o.Raw("details", details)
	})
	tr := s.transcript()
	require.True(t, tr.Entries[1].Ours && tr.Entries[2].Ours)
	require.Equal(t, "", tr.Entries[1].Text+tr.Entries[2].Text)
}

func TestSummaryRendersTheObservationsAndMergesTheFileLists(t *testing.T) {
	st := fold([]Record{{Op: opObserve, Time: 1770907000000, Through: Mark{ID: "a4"},
		Obs: "Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n", Task: "Reindent src/", HasTask: true, Modified: []string{"src/a.go"}}}, "", defaultConfig())
	summary, details, _ := summaryOf(st, summaryInput{PreviousSummary: "…\n<read-files>\nREADME.md\n</read-files>"})
	require.Equal(t, `## Observations
`+summaryFrame+`
Date: Feb 12, 2026
* 🔴 (14:30) User prefers tabs

## Open Threads
- Reindent src/

## Next Action Bias
- Continue from the most recent observations.

<read-files>
README.md
</read-files>

<modified-files>
src/a.go
</modified-files>
`, summary)
	require.Equal(t, `{"schemaVersion":1,"store":"observations","coversThrough":"a4","observations":1,"byPriority":{"high":1,"medium":0,"low":0},"observationTokens":13,"readFiles":["README.md"],"modifiedFiles":["src/a.go"]}`, string(details))

	_, _, why := summaryOf(fold(nil, "", defaultConfig()), summaryInput{})
	require.Equal(t, "no observations yet; pi's own summary is used", why)
}
