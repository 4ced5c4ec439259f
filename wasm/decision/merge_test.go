package decision

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// Events of one day, 2026-11-23, as pimem writes them.
const day = "D-2026-11-23-"

func at(hhmm string) string { return "2026-11-23T" + hhmm + ":00.000Z" }

func add(hhmm, num, text string) string {
	return strings.TrimSuffix(ev(at(hhmm), "a", day+num, `{"tx":"`+text+`","tg":[],"s":"active","sp":null,"c":[]}`), "\n")
}

func event(hhmm, code, num, data string) string {
	return strings.TrimSuffix(ev(at(hhmm), code, day+num, data), "\n")
}

// logOf is a log of lines, each ending with a newline.
func logOf(lines ...string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

func merged(t *testing.T, o, a, b string) mergeResult {
	t.Helper()
	res, err := merge([]byte(o), []byte(a), []byte(b))
	require.NoError(t, err)
	return res
}

func TestMergeKeepsEveryNewLineOfBothSidesOnceInTimeOrder(t *testing.T) {
	base := add("09:00", "0001", "Use Go")
	tests := []struct {
		name    string
		o, a, b []string
		want    []string
	}{
		{"each side appended one line",
			[]string{base},
			[]string{base, event("10:00", "ed", "0001", `{"tg":["lang"]}`)},
			[]string{base, event("09:30", "ed", "0001", `{"r":"one toolchain"}`)},
			[]string{base, event("09:30", "ed", "0001", `{"r":"one toolchain"}`), event("10:00", "ed", "0001", `{"tg":["lang"]}`)}},
		{"a line both sides added (a cherry-pick) is kept once",
			[]string{base},
			[]string{base, event("10:00", "st", "0001", `{"s":"draft"}`)},
			[]string{base, event("10:00", "st", "0001", `{"s":"draft"}`)},
			[]string{base, event("10:00", "st", "0001", `{"s":"draft"}`)}},
		{"equal times: ours first",
			[]string{base},
			[]string{base, event("10:00", "ed", "0001", `{"r":"ours"}`)},
			[]string{base, event("10:00", "ed", "0001", `{"r":"theirs"}`)},
			[]string{base, event("10:00", "ed", "0001", `{"r":"ours"}`), event("10:00", "ed", "0001", `{"r":"theirs"}`)}},
		{"neither side is reordered, even when its own times go backwards",
			nil,
			[]string{event("11:00", "ed", "0001", `{"r":"a1"}`), event("09:00", "ed", "0001", `{"r":"a2"}`)},
			[]string{event("10:00", "ed", "0001", `{"r":"b1"}`)},
			[]string{event("10:00", "ed", "0001", `{"r":"b1"}`), event("11:00", "ed", "0001", `{"r":"a1"}`), event("09:00", "ed", "0001", `{"r":"a2"}`)}},
		{"a line of theirs stamped before a line it followed stays after it (a clock behind: h-v100 d3)",
			[]string{add("11:00", "0001", "Use MySQL")},
			[]string{add("11:00", "0001", "Use MySQL"), add("10:30", "0002", "Use Redis")},
			[]string{add("11:00", "0001", "Use MySQL"), event("10:00", "rm", "0001", `{}`)},
			[]string{add("11:00", "0001", "Use MySQL"), event("10:00", "rm", "0001", `{}`), add("10:30", "0002", "Use Redis")}},
		{"a file both sides created",
			nil,
			[]string{add("10:00", "0001", "Use Go")},
			[]string{add("10:00", "0001", "Use Go")},
			[]string{add("10:00", "0001", "Use Go")}},
		{"ours empty: theirs",
			nil, nil,
			[]string{base},
			[]string{base}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := merged(t, logOf(tt.o...), logOf(tt.a...), logOf(tt.b...))
			require.Equal(t, logOf(tt.want...), string(res.Out), "merged log")
			require.Equal(t, 0, len(res.Renumbered), "renumbered")
		})
	}
}

// A line without a time stays after the line it followed in its own file.
func TestMergeKeepsUntimedLinesAfterTheirNeighbour(t *testing.T) {
	base := add("09:00", "0001", "Use Go")
	a1 := event("10:00", "ed", "0001", `{"r":"a"}`)
	b1 := event("09:30", "ed", "0001", `{"r":"b"}`)
	b2 := event("11:00", "ed", "0001", `{"r":"b2"}`)
	badTime := strings.Replace(event("00:00", "ed", "0001", `{"r":"when?"}`), at("00:00"), "yesterday", 1)
	tests := []struct {
		name string
		a, b []string
		want []string
	}{
		{"a corrupt line of theirs", []string{base, a1}, []string{base, b1, "not json", b2}, []string{base, b1, "not json", a1, b2}},
		{"a corrupt line of ours", []string{base, a1, "not json"}, []string{base, b1, b2}, []string{base, b1, a1, "not json", b2}},
		{"an event whose time does not parse", []string{base, a1}, []string{base, b1, badTime, b2}, []string{base, b1, badTime, a1, b2}},
		{"a blank line", []string{base, a1}, []string{base, b1, "", b2}, []string{base, b1, "", a1, b2}},
		{"lines before any time stay first", []string{"# not json", base, a1}, []string{"# not json", base, b1}, []string{"# not json", base, b1, a1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := merged(t, logOf(base), logOf(tt.a...), logOf(tt.b...))
			require.Equal(t, logOf(tt.want...), string(res.Out), "merged log")
		})
	}
}

// Two branches that each add decisions on the same day give them the same
// ids: theirs get the day's next free numbers, and every reference theirs'
// new lines make to them follows.
func TestMergeRenumbersTheirsCollidingIdsAndTheirReferences(t *testing.T) {
	base := add("08:00", "0001", "Use PostgreSQL")
	ours := []string{base,
		add("09:00", "0002", "Use gRPC between services"),
		strings.Replace(add("09:10", "0003", "Use PostgreSQL 16"), `"sp":null`, `"sp":"`+day+`0001"`, 1),
		event("09:10", "su", "0001", `{"s":"superseded","sb":"`+day+`0003"}`),
	}
	theirs := []string{base,
		add("09:05", "0002", "Deploy with Docker Compose"),
		add("09:20", "0003", "Tag releases with semver"),
		strings.Replace(add("09:30", "0004", "Deploy with Kubernetes"), `"sp":null`, `"sp":"`+day+`0002"`, 1),
		event("09:30", "su", "0002", `{"s":"superseded","sb":"`+day+`0004"}`),
		event("09:40", "ed", "0001", `{"c":["`+day+`0003","`+day+`0004"]}`),
		event("09:50", "rm", "0003", `{}`),
	}
	res := merged(t, logOf(base), logOf(ours...), logOf(theirs...))
	require.Equal(t, []renumbering{
		{Side: "theirs", Old: day + "0002", New: day + "0005", Line: 2, Text: "Deploy with Docker Compose"},
		{Side: "theirs", Old: day + "0003", New: day + "0006", Line: 3, Text: "Tag releases with semver"},
	}, res.Renumbered, "renumbered")
	require.Equal(t, 6, res.Rewritten, "lines rewritten")
	r := func(s string) string {
		return strings.NewReplacer(`"`+day+`0002"`, `"`+day+`0005"`, `"`+day+`0003"`, `"`+day+`0006"`).Replace(s)
	}
	require.Equal(t, logOf(base, ours[1], r(theirs[1]), ours[2], ours[3], r(theirs[2]), r(theirs[3]), r(theirs[4]), r(theirs[5]), r(theirs[6])), string(res.Out), "merged log")

	st, _ := replay(t, string(res.Out))
	require.Equal(t, 0, len(st.Problems), "replay problems")
	require.Equal(t, "Use gRPC between services", st.Get(day+"0002").Text, "ours keeps 0002")
	require.Equal(t, "Deploy with Docker Compose", st.Get(day+"0005").Text, "theirs' 0002")
	require.Equal(t, day+"0004", st.Get(day+"0005").SupersededBy, "theirs' supersede chain")
	require.Equal(t, day+"0005", st.Get(day+"0004").Supersedes, "theirs' supersede chain, back")
	require.Equal(t, day+"0003", st.Get(day+"0001").SupersededBy, "ours' supersede chain")
	require.Equal(t, []string{day + "0006", day + "0004"}, st.Get(day+"0001").Conflicts, "theirs' conflict list")
	require.Equal(t, true, st.Get(day+"0006") == nil && st.WasRemoved(day+"0006"), "theirs' removal follows its decision")
	require.Equal(t, "Use PostgreSQL 16", st.Get(day+"0003").Text, "ours' 0003 untouched")
}

// Theirs' colliding adds get new numbers in the order they were added, and
// no number any of the three files uses (a torn line's id included).
func TestMergeTakesTheNextFreeNumbersInTimeOrder(t *testing.T) {
	torn := `{"v":1,"t":"` + at("07:00") + `","p":"p1","e":"a","i":"` + day + `0009","d":{"tx":"cut sh`
	tests := []struct {
		name    string
		o, a, b []string
		want    []renumbering
	}{
		{"in the time order of theirs' adds, not their numbers",
			nil,
			[]string{add("09:00", "0001", "A1"), add("09:01", "0002", "A2")},
			[]string{add("10:00", "0002", "B2"), add("09:30", "0001", "B1")},
			[]renumbering{{Side: "theirs", Old: day + "0001", New: day + "0003", Line: 2, Text: "B1"}, {Side: "theirs", Old: day + "0002", New: day + "0004", Line: 1, Text: "B2"}}},
		{"past theirs' own higher numbers",
			nil,
			[]string{add("09:00", "0001", "A1")},
			[]string{add("09:30", "0001", "B1"), add("09:31", "0002", "B2")},
			[]renumbering{{Side: "theirs", Old: day + "0001", New: day + "0003", Line: 1, Text: "B1"}}},
		{"past a torn line's id",
			[]string{torn},
			[]string{torn, add("09:00", "0001", "A1")},
			[]string{torn, add("09:30", "0001", "B1")},
			[]renumbering{{Side: "theirs", Old: day + "0001", New: day + "0010", Line: 2, Text: "B1"}}},
		{"another day's ids do not count",
			nil,
			[]string{add("09:00", "0001", "A1"), strings.Replace(add("09:01", "0007", "A7"), "2026-11-23-0007", "2026-11-24-0007", 1)},
			[]string{add("09:30", "0001", "B1")},
			[]renumbering{{Side: "theirs", Old: day + "0001", New: day + "0002", Line: 1, Text: "B1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := merged(t, logOf(tt.o...), logOf(tt.a...), logOf(tt.b...))
			require.Equal(t, tt.want, res.Renumbered, "renumbered")
		})
	}
}

// A renumbered line changes only in its ids: keys pi-memory does not know,
// spacing and key order stay as written.
func TestMergeRewritesOnlyTheIds(t *testing.T) {
	a := add("09:00", "0001", "A1")
	b := `{ "zz": {"i":"` + day + `0001"}, "i" : "` + day + `0001", "v":1,"t":"` + at("09:30") + `","e":"a","d":{"tx":"B1","x":["` + day + `0001"],"c":[ "` + day + `0001" , 7 ]},"u":"user"}`
	res := merged(t, "", logOf(a), logOf(b))
	want := `{ "zz": {"i":"` + day + `0001"}, "i" : "` + day + `0002", "v":1,"t":"` + at("09:30") + `","e":"a","d":{"tx":"B1","x":["` + day + `0001"],"c":[ "` + day + `0002" , 7 ]},"u":"user"}`
	require.Equal(t, logOf(a, want), string(res.Out), "merged log")
}

func TestMergeKeepsBadLinesAndReportsThem(t *testing.T) {
	base := add("08:00", "0001", "Use Go")
	torn := `{"v":1,"t":"` + at("09:00") + `","p":"p1","e":"a","i":"` + day + `0002","d":{"tx":"cut sh`
	later := event("10:00", "ed", "0001", `{"r":"r"}`)
	ours := logOf(base, add("09:00", "0002", "A2"), "<<<<<<< HEAD", later)
	theirs := logOf(base, `{"v":2,"t":"`+at("09:30")+`","e":"zz","i":"x"}`) + torn
	res := merged(t, logOf(base), ours, theirs)
	require.Equal(t, logOf(base, add("09:00", "0002", "A2"), "<<<<<<< HEAD", `{"v":2,"t":"`+at("09:30")+`","e":"zz","i":"x"}`, torn, later), string(res.Out), "merged log")
	require.Equal(t, 3, len(res.Bad), "bad lines")
	require.Equal(t, []int{3, 3}, []int{res.Bad[0].Line, res.Bad[0].At}, "ours' conflict marker")
	require.Equal(t, "theirs theirs", res.Bad[1].Side+" "+res.Bad[2].Side, "sides")
	require.Equal(t, true, res.Bad[2].Sealed, "theirs' torn line gets a newline once it is not last")

	// A torn last line that stays last keeps its bytes, without a newline.
	res = merged(t, logOf(base), logOf(base)+torn, logOf(base))
	require.Equal(t, logOf(base)+torn, string(res.Out), "torn line still last")
	require.Equal(t, false, res.Bad[0].Sealed, "not sealed")
}

// A log that one side repaired (doctor --fix) or a person edited by hand
// keeps that change: the ancestor's line the other side never touched stays
// deleted, and the other side's new lines follow the renumbering.
func TestMergeKeepsWhatOneSideDeletedFromTheAncestor(t *testing.T) {
	torn := `{"v":1,"t":"` + at("08:30") + `","e":"a","i":"` + day + `0002","d":{"tx":"cut sh`
	base := add("08:00", "0001", "Use Go")
	res := merged(t, logOf(base, torn), logOf(base, add("08:30", "0002", "Cut short no more")), logOf(base, torn, event("09:00", "ed", "0001", `{"r":"r"}`)))
	require.Equal(t, logOf(base, add("08:30", "0002", "Cut short no more"), event("09:00", "ed", "0001", `{"r":"r"}`)), string(res.Out), "merged log")
	require.Equal(t, 1, res.Dropped, "dropped")
	require.Equal(t, 0, len(res.Bad), "the repaired line is not reported")
}

// A rebase replays theirs' commits one at a time: the first one's decision
// was renumbered; the next commit's lines still use its old id.
func TestMergeFollowsARenumberingTheOtherSideAlreadyMade(t *testing.T) {
	main := add("08:00", "0001", "Use PostgreSQL")
	feat := add("08:30", "0001", "Use Redis for caching")
	featRenumbered := add("08:30", "0002", "Use Redis for caching")
	next := strings.Replace(add("09:00", "0002", "Use Memcached"), `"sp":null`, `"sp":"`+day+`0001"`, 1)
	su := event("09:00", "su", "0001", `{"s":"superseded","sb":"`+day+`0002"}`)
	res := merged(t, logOf(feat), logOf(main, featRenumbered), logOf(feat, next, su))
	require.Equal(t, []renumbering{{Side: "theirs", Old: day + "0002", New: day + "0003", Line: 2, Text: "Use Memcached"}}, res.Renumbered, "renumbered")
	require.Equal(t, []renumbering{{Side: "theirs", Old: day + "0001", New: day + "0002"}}, res.Followed, "followed")
	st, _ := replay(t, string(res.Out))
	require.Equal(t, 0, len(st.Problems), "replay problems")
	require.Equal(t, Active, st.Get(day+"0001").Status, "main's decision is not superseded")
	require.Equal(t, day+"0003", st.Get(day+"0002").SupersededBy, "the rebased decision is")
	require.Equal(t, day+"0002", st.Get(day+"0003").Supersedes, "by the renumbered one")
}

// Both sides gave 0003 to a decision and both removed it with the same
// line (the same millisecond, or a cherry-pick of the remove); theirs then
// restored its own. The shared remove meant ours' 0003 on ours and theirs'
// on theirs: kept once, it left theirs' renumbered decision added twice
// while live (FuzzMergeLogs, testdata/fuzz 8fc031d8ea767466). The result
// folds to what applying both sides does.
func TestMergeKeepsASharedLineOnceForEachSidesDecision(t *testing.T) {
	rm := event("09:04", "rm", "0003", `{}`)
	tests := []struct {
		name       string
		a, b, want []string
		removed    []string // ids removed in the result
		live       map[string]string
	}{
		{"a shared remove, then theirs restores its decision",
			[]string{add("09:00", "0003", "A"), rm},
			[]string{add("09:03", "0003", "B"), rm, add("09:05", "0003", "B")},
			[]string{add("09:00", "0003", "A"), add("09:03", "0004", "B"), rm, event("09:04", "rm", "0004", `{}`), add("09:05", "0004", "B")},
			[]string{day + "0003"}, map[string]string{day + "0004": "B"}},
		{"a shared remove, then ours restores its decision",
			[]string{add("09:00", "0003", "A"), rm, add("09:05", "0003", "A")},
			[]string{add("09:03", "0003", "B"), rm},
			[]string{add("09:00", "0003", "A"), add("09:03", "0004", "B"), rm, event("09:04", "rm", "0004", `{}`), add("09:05", "0003", "A")},
			[]string{day + "0004"}, map[string]string{day + "0003": "A"}},
		{"a shared edit names each side's decision",
			[]string{add("09:00", "0003", "A"), event("09:04", "ed", "0003", `{"tg":["x"]}`)},
			[]string{add("09:03", "0003", "B"), event("09:04", "ed", "0003", `{"tg":["x"]}`)},
			[]string{add("09:00", "0003", "A"), add("09:03", "0004", "B"), event("09:04", "ed", "0003", `{"tg":["x"]}`), event("09:04", "ed", "0004", `{"tg":["x"]}`)},
			nil, map[string]string{day + "0003": "A", day + "0004": "B"}},
		{"a shared line before theirs' add of the id keeps its meaning and is kept once",
			[]string{event("08:30", "ed", "0001", `{"r":"r"}`), add("09:00", "0003", "A")},
			[]string{event("08:30", "ed", "0001", `{"r":"r"}`), add("09:03", "0003", "B")},
			[]string{event("08:30", "ed", "0001", `{"r":"r"}`), add("09:00", "0003", "A"), add("09:03", "0004", "B")},
			nil, map[string]string{day + "0003": "A", day + "0004": "B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := merged(t, "", logOf(tt.a...), logOf(tt.b...))
			require.Equal(t, logOf(tt.want...), string(res.Out), "merged log")
			st, _ := replay(t, string(res.Out))
			require.Equal(t, 0, dupAdds(t, string(res.Out)), "two adds of one id")
			for _, id := range tt.removed {
				require.Equal(t, true, st.Get(id) == nil && st.WasRemoved(id), id+" removed")
			}
			for id, text := range tt.live {
				require.Equal(t, true, st.Get(id) != nil, id+" live")
				require.Equal(t, text, st.Get(id).Text, id+"'s text")
			}
		})
	}
}

func TestMergeIsIdempotent(t *testing.T) {
	base := add("08:00", "0001", "Use Go")
	logs := []string{
		"",
		logOf(base),
		logOf(base, add("09:00", "0002", "A2")) + `{"v":1,"t":"` + at("10:00"),
		"\xEF\xBB\xBF" + base + "\r\n" + add("09:00", "0002", "A2") + "\r\n\r\n",
		logOf(add("09:00", "0002", "A2"), base, "", "not json", base),
		base,
	}
	for _, r := range logs {
		for _, o := range []string{"", logOf(base), logOf("not json", add("07:00", "0003", "gone"))} {
			res := merged(t, o, r, r)
			require.Equal(t, r, string(res.Out), "merge(o, r, r)")
		}
	}
}

func TestMergeRefusesAFileThatIsNotALog(t *testing.T) {
	log := logOf(add("08:00", "0001", "Use Go"))
	for _, tt := range []struct{ a, b, side string }{
		{"<html>\n<body>\n", log, "ours"},
		{log, "\x00\x01binary", "theirs"},
	} {
		_, err := merge([]byte(log), []byte(tt.a), []byte(tt.b))
		var nl *notALogError
		if !errors.As(err, &nl) || nl.Side != tt.side {
			t.Fatalf("Merge = %v, want %s refused", err, tt.side)
		}
	}
	// Empty and blank files are logs with nothing in them yet.
	_, err := merge(nil, []byte("\n\n"), nil)
	require.NoError(t, err)
}

// FuzzMerge: any three files merge without a panic or are refused as not a
// log; every line a side added since the ancestor is in the result (an event
// perhaps with other ids); a bad line byte for byte; merging the result with
// itself gives it back.
func FuzzMerge(f *testing.F) {
	base := add("08:00", "0001", "Use Go")
	f.Add([]byte(logOf(base)), []byte(logOf(base, add("09:00", "0002", "A"))), []byte(logOf(base, add("09:30", "0002", "B"), event("09:40", "su", "0002", `{"sb":"`+day+`0003"}`))))
	f.Add([]byte(""), []byte("x\r\n\n"+base), []byte("\xEF\xBB\xBF"+base+"\nnot json"))
	f.Add([]byte(logOf(base, base)), []byte(logOf(base)), []byte(logOf(base, base, base)))
	f.Fuzz(func(t *testing.T, o, a, b []byte) {
		res, err := merge(o, a, b)
		if err != nil {
			var nl *notALogError
			if !errors.As(err, &nl) {
				t.Fatalf("Merge error %v is not a notALogError", err)
			}
			return
		}
		got := map[string]int{}
		out, _ := splitLog(res.Out)
		for i := range out {
			got[out[i].key]++
			if out[i].ok {
				got[idFree(out[i].raw)]++
			}
		}
		lo, _ := splitLog(o)
		inO := map[string]int{}
		for i := range lo {
			inO[lo[i].key]++
		}
		for _, side := range [][]byte{a, b} {
			lines, _ := splitLog(side)
			seen := map[string]int{}
			for i := range lines {
				l := &lines[i]
				seen[l.key]++
				if seen[l.key] <= inO[l.key] || l.blank() {
					continue // the ancestor's copy, which a side may have deleted
				}
				if got[l.key] == 0 && !(l.ok && got[idFree(l.raw)] > 0) {
					t.Fatalf("line %q of a side is missing from the result %q", l.raw, res.Out)
				}
			}
		}
		again, err := merge(o, res.Out, res.Out)
		if err != nil || !bytes.Equal(again.Out, res.Out) {
			t.Fatalf("merge(o, r, r) = %q, %v; want r = %q", again.Out, err, res.Out)
		}
	})
}

// idFree is an event line with every id it holds blanked: the same line
// renumbered or not.
func idFree(raw []byte) string {
	out, _ := rewriteIDs(raw, func(string) (string, bool) { return "", true })
	return "\x00" + string(trimCR(out))
}

// FuzzMergeLogs merges logs made of real events (FuzzMerge's random bytes
// rarely are): each byte of spec is one line — an add, edit, supersede or
// remove of one of four ids, a bad line or a blank one — the ancestor's
// lines, then ours' and theirs' (0xFF bytes separate the three). Beyond
// FuzzMerge's promises: when no file holds two adds of one live id, each
// side's new adds use ids of its own, the result holds none either (an
// event both sides added alike included: testdata/fuzz 8fc031d8ea767466).
func FuzzMergeLogs(f *testing.F) {
	f.Add([]byte{0x00, 0xFF, 0x00, 0x08, 0x0D, 0xFF, 0x01, 0x09, 0x0E})
	f.Add([]byte{0x00, 0x0E, 0xFF, 0x0B, 0x07, 0xFF, 0x03, 0x2C, 0x17})
	f.Fuzz(func(t *testing.T, spec []byte) {
		if len(spec) > 90 {
			return // a few dozen lines find what longer logs would
		}
		parts := bytes.SplitN(spec, []byte{0xFF}, 3)
		for len(parts) < 3 {
			parts = append(parts, nil)
		}
		o := specLines(parts[0], 0)
		a := append(append([]string(nil), o...), specLines(parts[1], len(o))...)
		b := append(append([]string(nil), o...), specLines(parts[2], len(o))...)
		res, err := merge([]byte(logOf(o...)), []byte(logOf(a...)), []byte(logOf(b...)))
		if err != nil {
			return // a side of bad lines only: not a log
		}
		again := merged(t, logOf(o...), string(res.Out), string(res.Out))
		if !bytes.Equal(again.Out, res.Out) {
			t.Fatalf("merge(o, r, r) changed r")
		}
		out, _ := splitLog(res.Out)
		got := map[string]bool{}
		for i := range out {
			got[out[i].key] = true
			got[idFree(out[i].raw)] = true
		}
		for _, l := range append(a[len(o):], b[len(o):]...) {
			if l != "" && !got[l] && !got[idFree([]byte(l))] {
				t.Fatalf("line %q is missing from the result", l)
			}
		}
		if dupAdds(t, logOf(o...)) == 0 && dupAdds(t, logOf(a...)) == 0 && dupAdds(t, logOf(b...)) == 0 &&
			ownIDs(o, a[len(o):]) && ownIDs(o, b[len(o):]) && dupAdds(t, string(res.Out)) > 0 {
			t.Fatalf("the merge made two adds of one id:\n%s", res.Out)
		}
	})
}

// specLines turns fuzz bytes into log lines, the n-th line at minute n.
func specLines(spec []byte, n int) []string {
	var out []string
	for _, c := range spec {
		num := "000" + string(rune('1'+(c>>3)%4))
		other := day + "000" + string(rune('1'+(c>>5)%4))
		hhmm := "09:" + string(rune('0'+n/10%6)) + string(rune('0'+n%10))
		n++
		switch c % 8 {
		case 0, 1, 2, 3:
			out = append(out, add(hhmm, num, "T"+string(rune('a'+c%26))+string(rune('a'+c/26))))
		case 4:
			out = append(out, event(hhmm, "ed", num, `{"c":["`+other+`"]}`))
		case 5:
			out = append(out, event(hhmm, "su", num, `{"s":"superseded","sb":"`+other+`"}`))
		case 6:
			out = append(out, event(hhmm, "rm", num, `{}`))
		default:
			if c&0x40 != 0 {
				out = append(out, "")
			} else {
				out = append(out, "not json "+string(rune('a'+c%26)))
			}
		}
	}
	return out
}

func dupAdds(t *testing.T, log string) int {
	st, _ := replay(t, log)
	n := 0
	for _, p := range st.Problems {
		if p.Kind == duplicateAdd {
			n++
		}
	}
	return n
}

// ownIDs reports whether the lines a side added use only ids the ancestor
// never added, as NextID guarantees.
func ownIDs(o, added []string) bool {
	old := map[string]bool{}
	for _, l := range o {
		if e, err := decode([]byte(l), nil); err == nil && e.Code == Add {
			old[e.ID] = true
		}
	}
	for _, l := range added {
		if e, err := decode([]byte(l), nil); err == nil && e.Code == Add && old[e.ID] {
			return false
		}
	}
	return true
}

// A merge can leave a log with no event in it (ours deleted the ancestor's
// only event, theirs added a bad line); merging that result with itself
// gives it back instead of refusing it (found by FuzzMerge).
func TestMergeOfTwoIdenticalSidesIsThatSideEvenWithoutAnEvent(t *testing.T) {
	o := []byte(`{"v":10`)
	res, err := merge(o, nil, []byte("{\"v\":10\n0"))
	require.NoError(t, err)
	require.Equal(t, "0", string(res.Out))
	again, err := merge(o, res.Out, res.Out)
	require.NoError(t, err)
	require.Equal(t, "0", string(again.Out))
	_, err = merge(o, []byte("0"), []byte("1"))
	var nl *notALogError
	require.True(t, errors.As(err, &nl), "two different sides without an event are still refused: %v", err)
}
