package observe

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

var (
	d12 = civil.Days(2026, 2, 12)
	d13 = civil.Days(2026, 2, 13)
)

func item(p priority, minute int, text string, sub ...string) observation {
	return observation{Priority: p, Minute: minute, Text: text, Sub: sub}
}

func TestParseObservationsReadsTheObserverFormat(t *testing.T) {
	text := `Here are my observations:
<observations>
Date: Feb 12, 2026
* 🔴 (14:30) User stated the project uses Next.js 15
* (14:45) 🟡 Agent implemented fuzzy matching in src/utils/searchUtils.ts
  * -> added Levenshtein distance calculation
  * -> integrated with the SearchBar
    component
- 🟢 minor: the repo has a .nvmrc

### Date: Fri, Feb 13, 2026 (yesterday)
* 🔴️ (09:30) User found a bug: search fails on "C++"
  wrapped continuation
1. 🟡 numbered item
</observations>
<current-task>
Fix the search bug
</current-task>
<suggested-response>Reproduce with "C++" first</suggested-response>`
	p := parseObservations(text, 0)
	require.Equal(t, []group{
		{Day: d12, Items: []observation{
			item(high, 870, "User stated the project uses Next.js 15"),
			item(medium, 885, "Agent implemented fuzzy matching in src/utils/searchUtils.ts", "-> added Levenshtein distance calculation", "-> integrated with the SearchBar component"),
			item(low, -1, "minor: the repo has a .nvmrc"),
		}},
		{Day: d13, Items: []observation{
			item(high, 570, `User found a bug: search fails on "C++" wrapped continuation`),
			item(medium, -1, "numbered item"),
		}},
	}, p.groups)
	require.Equal(t, "Fix the search bug", p.task)
	require.Equal(t, `Reproduce with "C++" first`, p.response)
	require.True(t, p.hasTask && p.hasResponse)
	require.Equal(t, 0, p.stray, "text outside the observations tag is not read")
}

func TestParseObservationsConvertsOldPlainBullets(t *testing.T) {
	p := parseObservations("- User prefers tabs\n- Agent ran the tests\nsome prose", d13)
	require.Equal(t, []group{{Day: d13, Items: []observation{item(medium, -1, "User prefers tabs"), item(medium, -1, "Agent ran the tests")}}}, p.groups)
	require.Equal(t, 1, p.stray)
}

func TestParseObservationsJoinsDaysAndSortsThem(t *testing.T) {
	p := parseObservations("Date: Feb 13, 2026\n* b\nDate: Feb 12, 2026\n* a\nDate: Feb 13, 2026\n* c\nDate: Feb 14, 2026\n", 0)
	require.Equal(t, []group{{Day: d12, Items: []observation{item(medium, -1, "a")}}, {Day: d13, Items: []observation{item(medium, -1, "b"), item(medium, -1, "c")}}}, p.groups)
}

func TestRenderIsReadBackUnchanged(t *testing.T) {
	groups := []group{
		{Day: d12, Items: []observation{item(high, 870, "User prefers tabs", "-> said twice"), item(low, -1, "x")}},
		{Day: d13, Items: []observation{item(medium, 0, "midnight work")}},
	}
	text := render(groups)
	require.Equal(t, "Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n  * -> said twice\n* 🟢 x\n\nDate: Feb 13, 2026\n* 🟡 (00:00) midnight work\n", text)
	back, stray := readGroups(text, 0)
	require.Equal(t, groups, back)
	require.Equal(t, 0, stray)
}

func TestAppendGroupsSkipsWhatIsAlreadyObserved(t *testing.T) {
	old := []group{{Day: d12, Items: []observation{item(medium, 870, "User prefers tabs.")}}}
	add := []group{{Day: d12, Items: []observation{item(high, 900, "user prefers  TABS"), item(medium, 901, "new fact"), item(medium, 902, "new fact")}}, {Day: d13, Items: []observation{item(low, 60, "later")}}}
	got := appendGroups(old, add)
	require.Equal(t, []group{
		{Day: d12, Items: []observation{item(high, 870, "User prefers tabs."), item(medium, 901, "new fact")}},
		{Day: d13, Items: []observation{item(low, 60, "later")}},
	}, got)
	require.Equal(t, medium, old[0].Items[0].Priority, "the old state is not changed")
}

func TestDedupeKeepsTheNewestCopyWithTheHighestPriority(t *testing.T) {
	groups := []group{
		{Day: d12, Items: []observation{item(high, 1, "Uses Go 1.26", "-> go.mod"), item(medium, 2, "other"), item(medium, 3, "Agent ran the tests", "-> auth")}},
		{Day: d13, Items: []observation{item(low, 3, "uses go 1.26", "-> GO.MOD"), item(medium, 4, "Agent ran the tests", "-> billing")}},
	}
	require.Equal(t, []group{
		{Day: d12, Items: []observation{item(medium, 2, "other"), item(medium, 3, "Agent ran the tests", "-> auth")}},
		{Day: d13, Items: []observation{item(high, 3, "uses go 1.26", "-> GO.MOD"), item(medium, 4, "Agent ran the tests", "-> billing")}},
	}, dedupe(groups), "the same text with other nested steps is another observation")
}

func TestPruneDropsLowestPriorityOldestFirst(t *testing.T) {
	groups := []group{
		{Day: d12, Items: []observation{item(high, 1, "h1"), item(low, 2, "l1"), item(medium, 3, "m1")}},
		{Day: d13, Items: []observation{item(low, 4, "l2"), item(medium, 5, "m2"), item(high, 6, "h2"), item(low, 7, "l3")}},
	}
	texts := func(gs []group) (out []string) {
		for _, g := range gs {
			for _, it := range g.Items {
				out = append(out, it.Text)
			}
		}
		return out
	}
	for _, tt := range []struct {
		max  int
		want []string
	}{
		{7, []string{"h1", "l1", "m1", "l2", "m2", "h2", "l3"}},
		{6, []string{"h1", "m1", "l2", "m2", "h2", "l3"}},
		{5, []string{"h1", "m1", "m2", "h2", "l3"}},
		{4, []string{"h1", "m2", "h2", "l3"}},
		{2, []string{"h2", "l3"}},
		{1, []string{"l3"}},
		{0, []string{"l3"}},
	} {
		require.Equal(t, tt.want, texts(prune(groups, tt.max, 0)), "max %d (the newest item always stays)", tt.max)
	}
}

func TestPruneHoldsATokenCapExactly(t *testing.T) {
	var groups []group
	for d := int64(0); d < 20; d++ {
		g := group{Day: d12 + d}
		for i := 0; i < 10; i++ {
			g.Items = append(g.Items, item(priority(1+(i%3)), i, strings.Repeat("word ", 5+i)))
		}
		groups = append(groups, g)
	}
	for _, capTokens := range []int{50, 300, 1000, 2000} {
		out := prune(groups, 1000, capTokens)
		got := len(render(out))
		require.True(t, got <= capTokens*4, "cap %d tokens: %d bytes", capTokens, got)
		require.True(t, countItems(out) >= 1)
	}
}
