package decision

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/registry"
)

// conflictLog has two active decisions marked as conflicting (the "Keep both
// and mark the conflict" answer) and one unrelated.
const conflictLog = `{"v":1,"t":"2026-03-01T09:00:00.000Z","p":"p1","e":"a","i":"D-2026-03-01-0001","d":{"tx":"Use PostgreSQL for the primary database","tg":["db"],"s":"active","sp":null,"c":[]},"u":"user"}
{"v":1,"t":"2026-03-01T09:01:00.000Z","p":"p1","e":"a","i":"D-2026-03-01-0002","d":{"tx":"Keep functions under 60 lines","s":"active","sp":null,"c":[]},"u":"user"}
{"v":1,"t":"2026-03-01T09:02:00.000Z","p":"p1","e":"a","i":"D-2026-03-01-0003","d":{"tx":"Use MySQL for the primary database","s":"active","sp":null,"c":["D-2026-03-01-0001"]},"u":"user"}
{"v":1,"t":"2026-03-01T09:02:00.000Z","p":"p1","e":"ed","i":"D-2026-03-01-0001","d":{"c":["D-2026-03-01-0003"]},"u":"user"}
`

func pairIDs(pairs []conflictPair) []string {
	var out []string
	for _, p := range pairs {
		out = append(out, p.Old.ID+"<>"+p.New.ID)
	}
	return out
}

func TestAConflictStaysUnresolvedUntilOneSideIsSettled(t *testing.T) {
	tests := []struct {
		name  string
		after string
		want  []string
	}{
		{"marked on both sides", "", []string{"D-2026-03-01-0001<>D-2026-03-01-0003"}},
		{"marked on one side only (a hand edit)", ev("2026-03-01T09:03:00.000Z", "ed", "D-2026-03-01-0001", `{"c":[]}`),
			[]string{"D-2026-03-01-0001<>D-2026-03-01-0003"}},
		{"resolved: marks cleared on both sides", ev("2026-03-01T09:03:00.000Z", "st", "D-2026-03-01-0003", `{"s":"rejected","c":[]}`) +
			ev("2026-03-01T09:03:00.000Z", "ed", "D-2026-03-01-0001", `{"c":[]}`), nil},
		{"one side rejected, marks kept", ev("2026-03-01T09:03:00.000Z", "st", "D-2026-03-01-0003", `{"s":"rejected"}`), nil},
		{"one side superseded", ev("2026-03-01T09:03:00.000Z", "su", "D-2026-03-01-0001", `{"s":"superseded","sb":"D-2026-03-01-0009"}`), nil},
		{"one side removed", ev("2026-03-01T09:03:00.000Z", "rm", "D-2026-03-01-0003", `{}`), nil},
		{"the removed side restored", ev("2026-03-01T09:03:00.000Z", "rm", "D-2026-03-01-0003", `{}`) +
			ev("2026-03-01T09:04:00.000Z", "a", "D-2026-03-01-0003", `{"tx":"Use MySQL for the primary database","s":"active","sp":null,"c":["D-2026-03-01-0001"]}`),
			[]string{"D-2026-03-01-0001<>D-2026-03-01-0003"}},
		{"a second pair, in the order of its newer side", ev("2026-03-01T09:05:00.000Z", "ed", "D-2026-03-01-0002", `{"c":["D-2026-03-01-0001"]}`),
			[]string{"D-2026-03-01-0001<>D-2026-03-01-0002", "D-2026-03-01-0001<>D-2026-03-01-0003"}},
		{"a mark towards itself or an unknown id", ev("2026-03-01T09:05:00.000Z", "ed", "D-2026-03-01-0002", `{"c":["D-2026-03-01-0002","D-2026-09-09-0001"]}`),
			[]string{"D-2026-03-01-0001<>D-2026-03-01-0003"}},
	}
	for _, tt := range tests {
		st, _ := replay(t, conflictLog+tt.after)
		require.Equal(t, tt.want, pairIDs(st.Conflicts()), tt.name)
	}
}

func TestTheSectionAsksAboutAConflictInsteadOfGivingTwoOrders(t *testing.T) {
	st, _ := replay(t, conflictLog)
	got := st.Section(20)
	require.Equal(t, sectionHeader+
		"D-2026-03-01-0002 | Keep functions under 60 lines\n"+conflictsHeader+
		"D-2026-03-01-0001 | Use PostgreSQL for the primary database <-> D-2026-03-01-0003 | Use MySQL for the primary database\n", got)
	require.Contains(t, got, "ask the user which holds")

	resolved, _ := replay(t, conflictLog+ev("2026-03-01T09:03:00.000Z", "st", "D-2026-03-01-0003", `{"s":"rejected","c":[]}`)+
		ev("2026-03-01T09:03:00.000Z", "ed", "D-2026-03-01-0001", `{"c":[]}`))
	require.Equal(t, sectionHeader+
		"D-2026-03-01-0001 | Use PostgreSQL for the primary database | #db\n"+
		"D-2026-03-01-0002 | Keep functions under 60 lines\n", resolved.Section(20))
}

func TestManyConflictsAreCountedAndTheSectionStaysUnderItsCap(t *testing.T) {
	var log strings.Builder
	long := strings.Repeat("word ", 60)
	for i := 1; i <= 40; i += 2 {
		a, b := "D-2026-03-01-"+pad4(i), "D-2026-03-01-"+pad4(i+1)
		log.WriteString(ev("2026-03-01T09:00:00.000Z", "a", a, `{"tx":"Use A`+long+`","s":"active","sp":null,"c":[]}`))
		log.WriteString(ev("2026-03-01T09:00:00.000Z", "a", b, `{"tx":"Use B`+long+`","s":"active","sp":null,"c":["`+a+`"]}`))
	}
	st, _ := replay(t, log.String())
	require.Equal(t, 20, len(st.Conflicts()))
	got := st.Section(20)
	require.True(t, len([]rune(got)) <= maxSectionChars, "section of %d characters", len([]rune(got)))
	require.Equal(t, maxConflictLines, strings.Count(got, " <-> "))
	require.Contains(t, got, "(+15 more unresolved conflicts; /decision doctor lists them)\n")
}

func pad4(i int) string {
	s := "000" + string(rune('0'+i/10%10)) + string(rune('0'+i%10))
	return s[len(s)-4:]
}

func TestAListMarksDecisionsInAnUnresolvedConflict(t *testing.T) {
	st, _ := replay(t, conflictLog)
	require.Equal(t, "3 active decisions (newest first):"+
		"\nD-2026-03-01-0003 | active | Use MySQL for the primary database | ⚠ conflicts with D-2026-03-01-0001"+
		"\nD-2026-03-01-0001 | active | Use PostgreSQL for the primary database | #db | ⚠ conflicts with D-2026-03-01-0003"+
		"\nD-2026-03-01-0002 | active | Keep functions under 60 lines"+
		"\n⚠ Unresolved conflicts: the model is told to ask which holds. Settle one with"+
		"\n  /decision resolve <id> rejected (or active), or /decision supersede.", listText(st.WithStatus(Active), "active decisions", 50))
	require.Equal(t, "1 matching decision (newest first):"+
		"\nD-2026-03-01-0003 | active | Use MySQL for the primary database | ⚠ conflicts with D-2026-03-01-0001"+
		"\n⚠ Unresolved conflicts: the model is told to ask which holds. Settle one with"+
		"\n  /decision resolve <id> rejected (or active), or /decision supersede.", listText(searchOf(t, st, "mysql"), "matching decisions", 50))
}

func TestDoctorReportsAnUnresolvedConflictUntilItIsSettled(t *testing.T) {
	st, _ := replay(t, conflictLog)
	rep := st.Diagnose()
	require.False(t, rep.Clean(), "an unresolved conflict is a problem")
	require.Equal(t, []string{"unresolved conflict: D-2026-03-01-0003 ↔ D-2026-03-01-0001 (marked by you). Settle it: " +
		"/decision resolve D-2026-03-01-0001 rejected (D-2026-03-01-0003 holds), /decision resolve D-2026-03-01-0003 rejected (D-2026-03-01-0001 holds), " +
		"or /decision supersede <id> <text> --reason R."}, rep.Pairs)
	require.NotContains(t, rep.Text(), "No problems found.")

	settled, _ := replay(t, conflictLog+ev("2026-03-01T09:03:00.000Z", "st", "D-2026-03-01-0003", `{"s":"rejected","c":[]}`)+
		ev("2026-03-01T09:03:00.000Z", "ed", "D-2026-03-01-0001", `{"c":[]}`))
	rep = settled.Diagnose()
	require.True(t, rep.Clean(), "settled: %v", rep.Pairs)
}

// doctor said "or resolve D-…" without the status to give it: each way to
// settle a conflict it names is a whole command the registry accepts.
func TestSettleNamesWholeCommands(t *testing.T) {
	c, _ := registry.Lookup("decision")
	text := settle("D-2026-03-01-0001", "D-2026-03-01-0003")
	for _, cmd := range strings.Split(strings.TrimSuffix(text, "."), ", ") {
		cmd = strings.TrimPrefix(cmd, "or ")
		if i := strings.Index(cmd, " ("); i >= 0 {
			cmd = cmd[:i]
		}
		words := strings.Fields(strings.TrimPrefix(cmd, "/decision "))
		_, err := registry.Parse(c, words)
		require.NoError(t, err, "%q", cmd)
	}
}

// A log edited by hand (or merged) may name as a superseded or conflicting
// decision an id that is a secret: doctor says the line holds a secret and
// never says it back.
func TestDoctorSaysNoSecretANameInTheLogHolds(t *testing.T) {
	const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	st, _ := replay(t, ev("2026-03-01T09:00:00.000Z", "a", "D-2026-03-01-0001", `{"tx":"Use Redis for the cache","tg":[],"s":"active","sp":"`+secret+`","c":["`+secret+`"]}`))
	rep := st.Diagnose()
	require.False(t, rep.Clean())
	require.Contains(t, rep.Text(), "supersedes [REDACTED:github-token], which was never added")
	require.NotContains(t, rep.Text(), secret)
	require.NotContains(t, string(rep.AppendJSON(nil, "log")), secret)
}

// A log edited by hand or merged may make decisions supersede themselves,
// or each other in a circle, or mark a conflict with themselves: doctor
// names each, a circle once (h-v89 B6).
func TestDoctorNamesSupersedesInACircleAndAConflictWithItself(t *testing.T) {
	const at = "2026-11-02T09:00:00.000Z"
	st, _ := replay(t, ev(at, "a", "D-2026-11-02-0001", `{"tx":"Use Redis","s":"superseded","sp":"D-2026-11-02-0002","c":[]}`)+
		ev(at, "a", "D-2026-11-02-0002", `{"tx":"Use Memcached","s":"superseded","sp":"D-2026-11-02-0001","c":[]}`)+
		ev(at, "a", "D-2026-11-02-0003", `{"tx":"Use tabs","s":"active","sp":"D-2026-11-02-0003","c":["D-2026-11-02-0003"]}`))
	rep := st.Diagnose()
	require.False(t, rep.Clean())
	text := rep.Text()
	require.Contains(t, text, "D-2026-11-02-0001 is superseded in a circle: D-2026-11-02-0001 → D-2026-11-02-0002 → D-2026-11-02-0001")
	require.Equal(t, 1, strings.Count(text, "in a circle"))
	require.Contains(t, text, "D-2026-11-02-0003 supersedes itself")
	require.Contains(t, text, "D-2026-11-02-0003 is marked as conflicting with itself")

	// The back links too (an su event's "sb"), and a circle of any length,
	// each said once (h-v91 B13: 65 and more were not).
	st, _ = replay(t, ev(at, "a", "D-2026-11-02-0001", `{"tx":"Use Redis","s":"active","c":[]}`)+
		ev(at, "su", "D-2026-11-02-0001", `{"s":"superseded","sb":"D-2026-11-02-0001"}`))
	self := st.Diagnose()
	require.Contains(t, self.Text(), "D-2026-11-02-0001 is marked as superseded by itself")
	var b strings.Builder
	const n = 1000
	for i := 1; i <= n; i++ {
		b.WriteString(ev(at, "a", fmt.Sprintf("D-2026-11-02-%04d", i), fmt.Sprintf(`{"tx":"Decision %d","s":"superseded","sp":"D-2026-11-02-%04d","c":[]}`, i, i%n+1)))
	}
	st, _ = replay(t, b.String())
	long := st.Diagnose()
	text = long.Text()
	require.Equal(t, 1, strings.Count(text, "in a circle"), "%s", text)
	require.Contains(t, text, "D-2026-11-02-0001 is superseded in a circle: D-2026-11-02-0001 → D-2026-11-02-0002 → D-2026-11-02-0003 → D-2026-11-02-0004 → D-2026-11-02-0005 → … (1000 decisions) → D-2026-11-02-0001")
}

// A decision with two of its words swapped says the reverse: a conflict, not
// a 99% duplicate whose --update would overwrite the one with its reverse
// (h-v88 B2).
func TestASwappedDecisionIsAConflictNotADuplicate(t *testing.T) {
	st, _ := replay(t, `{"v":1,"t":"2026-03-01T09:00:00.000Z","p":"p1","e":"a","i":"D-2026-03-01-0001","d":{"tx":"Run the app with docker -p 8080:3000","s":"active","sp":null,"c":[]},"u":"user"}
{"v":1,"t":"2026-03-01T09:01:00.000Z","p":"p1","e":"a","i":"D-2026-03-01-0002","d":{"tx":"Rename settings.local.json to settings.json","s":"active","sp":null,"c":[]},"u":"user"}
`)
	for _, text := range []string{"Run the app with docker -p 3000:8080", "Rename settings.json to settings.local.json"} {
		dups, conflicts := st.Check(text)
		require.Equal(t, 0, len(dups), "%q: %v", text, dups)
		require.Equal(t, 1, len(conflicts), "%q", text)
		require.Contains(t, conflicts[0].Reason, "swapped")
	}
	dups, _ := st.Check("Run the app with docker -p 8080:3000")
	require.Equal(t, 1, len(dups))
}
