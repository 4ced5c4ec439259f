package decision

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func sp(line, old string) string {
	return strings.Replace(line, `"sp":null`, `"sp":"`+day+old+`"`, 1)
}

func withProject(line, p string) string { return strings.Replace(line, `"p":"p1"`, `"p":"`+p+`"`, 1) }

// What git's merge=union leaves when two branches each added decisions on
// the same day: the ancestor's lines, ours' new lines, then theirs'.
func unionMerged() []string {
	return []string{
		add("08:00", "0001", "Use PostgreSQL"),
		// ours
		add("09:00", "0002", "Use gRPC between services"),
		sp(add("09:10", "0003", "Use PostgreSQL 16"), "0001"),
		event("09:10", "su", "0001", `{"s":"superseded","sb":"`+day+`0003"}`),
		// theirs
		add("09:05", "0002", "Deploy with Docker Compose"),
		add("09:20", "0003", "Tag releases with semver"),
		sp(add("09:30", "0004", "Deploy with Kubernetes"), "0002"),
		event("09:30", "su", "0002", `{"s":"superseded","sb":"`+day+`0004"}`),
		event("09:40", "ed", "0003", `{"tg":["release"]}`),
	}
}

func TestRepairGivesTheSecondDecisionOfAnIdTheNextFreeNumber(t *testing.T) {
	log := logOf(unionMerged()...)
	before, _ := replay(t, log)
	require.Equal(t, 2, dupAdds(t, log), "duplicate adds before")
	require.Equal(t, "Use gRPC between services", before.Get(day+"0002").Text, "replay keeps the first")

	rep := planRepair([]byte(log))
	require.Equal(t, []renumbering{
		{Old: day + "0002", New: day + "0005", Line: 5, First: 2, Text: "Deploy with Docker Compose"},
		{Old: day + "0003", New: day + "0006", Line: 6, First: 3, Text: "Tag releases with semver"},
	}, rep.Renumbered, "renumbered")
	require.Equal(t, 5, rep.Rewritten, "lines rewritten")
	require.Equal(t, 3, rep.Unsure(), "lines only their place decided")

	st, _ := replay(t, string(rep.Out))
	require.Equal(t, 0, len(st.Problems), "problems after the repair")
	require.Equal(t, 6, st.Len(), "decisions")
	require.Equal(t, "Deploy with Docker Compose", st.Get(day+"0005").Text, "theirs' 0002")
	require.Equal(t, day+"0004", st.Get(day+"0005").SupersededBy, "theirs' chain")
	require.Equal(t, day+"0005", st.Get(day+"0004").Supersedes, "theirs' chain, back")
	require.Equal(t, []string{"release"}, st.Get(day+"0006").Tags, "theirs' later edit")
	require.Equal(t, day+"0003", st.Get(day+"0001").SupersededBy, "ours' chain")
	require.Equal(t, []string{}, st.Get(day+"0003").Tags, "ours' 0003 untouched")

	again := planRepair(rep.Out)
	require.Equal(t, false, again.Needed(), "a repaired log needs nothing")
	require.Equal(t, string(rep.Out), string(again.Out), "and stays as it is")
}

// Which of two decisions under one id a later line means, rule by rule.
func TestRepairAttributesEachLaterLine(t *testing.T) {
	first, second := add("09:00", "0001", "Use Go"), add("10:00", "0001", "Use Rust")
	tests := []struct {
		name  string
		lines []string
		to    string
		how   string
		sure  bool
	}{
		{"older than the second add: the first",
			[]string{first, second, event("09:30", "ed", "0001", `{"r":"r"}`)}, "0001", "time", true},
		{"older than both adds: the first keeps it, unsure",
			[]string{first, second, event("08:00", "ed", "0001", `{"r":"r"}`)}, "0001", "older than every add: left with the first", false},
		{"younger than only the second add (theirs came first in time)",
			[]string{add("11:00", "0001", "Use Go"), second, event("10:30", "ed", "0001", `{"r":"r"}`)}, "0002", "time", true},
		{"written with the second add",
			[]string{first, second, event("10:00", "ed", "0001", `{"r":"r"}`)}, "0002", "same write as its add", true},
		{"its project id is the second add's",
			[]string{withProject(first, "aaaa"), withProject(second, "bbbb"), withProject(event("11:00", "ed", "0001", `{"r":"r"}`), "bbbb")}, "0002", "project id", true},
		{"its project id is the first add's",
			[]string{withProject(first, "aaaa"), withProject(second, "bbbb"), withProject(event("11:00", "ed", "0001", `{"r":"r"}`), "aaaa")}, "0001", "project id", true},
		{"nothing tells: the latest add before it",
			[]string{first, second, event("11:00", "ed", "0001", `{"r":"r"}`)}, "0002", "position", false},
		{"a reference in another event's data",
			[]string{first, second, strings.Replace(event("11:00", "ed", "0001", `{"c":["`+day+`0001"]}`), `"i":"`+day+`0001"`, `"i":"D-2026-11-22-0007"`, 1)}, "0002", "position", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := planRepair([]byte(logOf(tt.lines...)))
			require.Equal(t, 1, len(rep.References), "references")
			r := rep.References[0]
			require.Equal(t, []any{day + tt.to, tt.how, tt.sure}, []any{r.To, r.How, r.Sure}, "attribution")
		})
	}
}

// A removal given to the first decision ends that id's life: a later add of
// it is a new decision (an id reused after a remove), not a collision.
func TestRepairFollowsRemovals(t *testing.T) {
	log := logOf(add("09:00", "0001", "Use Go"), add("10:00", "0001", "Use Rust"), event("09:30", "rm", "0001", `{}`), add("11:00", "0001", "Use Zig"))
	rep := planRepair([]byte(log))
	require.Equal(t, 1, len(rep.Renumbered), "renumbered")
	require.Equal(t, "Use Rust", rep.Renumbered[0].Text, "the collision")
	st, _ := replay(t, string(rep.Out))
	require.Equal(t, "Use Zig", st.Get(day+"0001").Text, "the reuse after the remove")
	require.Equal(t, "Use Rust", st.Get(day+"0002").Text, "the renumbered one")
}

func TestRepairKeepsEveryOtherLineByteForByte(t *testing.T) {
	first := add("09:00", "0001", "Use Go")
	tests := []struct {
		name string
		log  string
	}{
		{"a healthy log", logOf(first, event("09:10", "ed", "0001", `{"r":"r"}`))},
		{"a repeated add of the same text is a plain duplicate", logOf(first, add("10:00", "0001", "Use Go"))},
		{"bad lines, a byte-order mark, CRLF, a torn tail",
			"\xEF\xBB\xBF" + first + "\r\nnot json\r\n\r\n" + `{"v":2,"t":"x","e":"zz","i":"y"}` + "\n" + `{"v":1,"t":"` + at("10:00") + `","e":"a","i":"` + day + `0002","d":{"tx":"cut`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := planRepair([]byte(tt.log))
			require.Equal(t, false, rep.Needed(), "needed")
			require.Equal(t, tt.log, string(rep.Out), "log")
		})
	}
	// A repair keeps the bad lines around what it rewrites.
	log := "\xEF\xBB\xBF" + first + "\r\nnot json\r\n" + add("10:00", "0001", "Use Rust") + "\r\n" + `{"v":1,"t":"` + at("10:00")
	rep := planRepair([]byte(log))
	want := "\xEF\xBB\xBF" + first + "\r\nnot json\r\n" + add("10:00", "0002", "Use Rust") + "\r\n" + `{"v":1,"t":"` + at("10:00")
	require.Equal(t, want, string(rep.Out), "repaired log")
}

func TestDoctorNamesCollisionsAmongDuplicateAdds(t *testing.T) {
	log := logOf(add("09:00", "0001", "Use Go"), add("09:30", "0001", "Use Go"), add("10:00", "0001", "Use Rust"))
	st, _ := replay(t, log)
	rep := st.Diagnose()
	fix := planRepair([]byte(log))
	rep.MarkCollisions(&fix)
	require.Equal(t, []string{"duplicate-add", "id-collision"}, []string{rep.Findings[0].Kind, rep.Findings[1].Kind}, "kinds")
	require.Equal(t, 3, rep.Findings[1].Line, "line")
	if !strings.Contains(rep.Findings[1].Msg, "first added at line 1") || !strings.Contains(rep.Findings[1].Msg, "--fix gives this one "+day+"0002") {
		t.Fatalf("message %q", rep.Findings[1].Msg)
	}
}

// FuzzRepair: any log repairs without a panic; the repaired log has as many
// lines, each the same but for its ids (bad lines byte for byte); a second
// repair finds nothing to do.
func FuzzRepair(f *testing.F) {
	f.Add([]byte(logOf(unionMerged()...)))
	f.Add([]byte("\xEF\xBB\xBF" + add("09:00", "0001", "a") + "\r\nx\n" + add("08:00", "0001", "b")))
	f.Fuzz(func(t *testing.T, log []byte) {
		checkRepair(t, log)
	})
}

// FuzzRepairLogs repairs logs of real events (see FuzzMergeLogs), where
// collisions, removals and references are common.
func FuzzRepairLogs(f *testing.F) {
	f.Add([]byte{0x00, 0x01, 0x08, 0x0D, 0x0C, 0x2E})
	f.Add([]byte("ABC&00000A"))
	f.Fuzz(func(t *testing.T, spec []byte) {
		if len(spec) > 60 {
			return // a few dozen lines find what longer logs would
		}
		checkRepair(t, []byte(logOf(specLines(spec, 0)...)))
	})
}

func checkRepair(t *testing.T, log []byte) repair {
	rep := planRepair(log)
	in, _ := splitLog(log)
	out, _ := splitLog(rep.Out)
	if len(in) != len(out) {
		t.Fatalf("%d lines became %d", len(in), len(out))
	}
	for i := range in {
		same := bytes.Equal(in[i].raw, out[i].raw)
		if !same && (!in[i].ok || idFree(in[i].raw) != idFree(out[i].raw)) {
			t.Fatalf("line %d changed beyond its ids: %q -> %q", i+1, in[i].raw, out[i].raw)
		}
	}
	if again := planRepair(rep.Out); again.Needed() {
		t.Fatalf("a second repair renumbers %v", again.Renumbered)
	}
	return rep
}
