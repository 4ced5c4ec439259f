package observe

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestFirstLinesKeepsNLinesAndCountsTheRest(t *testing.T) {
	tests := []struct {
		text string
		n    int
		want string
	}{
		{"a\nb\nc", 0, "a\nb\nc\n"},
		{"a\nb\nc\n\n\n", 0, "a\nb\nc\n"},
		{"a\nb\nc", 2, "a\nb\n(1 more line)\n"},
		{"a\nb\nc", 3, "a\nb\nc\n"},
		{"a\nb\nc", 9, "a\nb\nc\n"},
		{"a\n\nc\n", 1, "a\n(2 more lines)\n"},
		{"", 1, "\n"},
		{"x", -1, "x\n"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, firstLines(tt.text, tt.n), "firstLines(%q, %d)", tt.text, tt.n)
	}
}

func TestViewPageShowsTheSelectedPartsCutToTheirLines(t *testing.T) {
	s := newSession(feb12)
	s.turn("first", 100)
	tr := s.transcript()
	st := &state{Groups: []group{{Day: d12, Items: []observation{item(high, 870, "a"), item(low, 871, "b")}}}}
	empty := &state{}
	_, tokens := empty.Pending(&tr)
	pending := "--- not yet observed: ~" + itoa(tokens) + " tokens ---\n"
	tests := []struct {
		name string
		st   *state
		sel  viewSel
		want string
	}{
		{"the observations", st, viewSel{obs: true}, "--- observations ---\nDate: Feb 12, 2026\n* 🔴 (14:30) a\n* 🟢 (14:31) b"},
		{"cut to a line", st, viewSel{obs: true, limit: 1}, "--- observations ---\nDate: Feb 12, 2026\n(2 more lines)"},
		{"none yet", empty, viewSel{obs: true}, "--- observations ---\n(none yet)"},
		{"the conversation not yet observed", empty, viewSel{raw: true, limit: 1}, pending + "--- Thu Feb 12, 2026 ---\n(2 more lines)"},
		{"both, a blank line between", empty, viewSel{obs: true, raw: true, limit: 1}, "--- observations ---\n(none yet)\n\n" + pending + "--- Thu Feb 12, 2026 ---\n(2 more lines)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, viewPage(tt.st, &tr, tt.sel))
		})
	}
	covered := &state{Mark: Mark{ID: tr.Entries[len(tr.Entries)-1].ID}}
	require.Equal(t, "--- not yet observed: ~0 tokens ---\n(nothing)", viewPage(covered, &tr, viewSel{raw: true}))
}

func TestCommandRepliesSayWhatChanged(t *testing.T) {
	ses := newSession(feb12)
	for i := 0; i < 3; i++ {
		ses.turn("hello", 100)
	}
	ses.user("one more")
	ses.assistant("done", call{"c1", "read", `{"path":"a.go"}`})
	tr := ses.transcript()
	now := at(feb12)
	st := &state{Groups: []group{{Day: d12, Items: []observation{item(high, 870, "a"), item(low, 871, "b")}}}, Mark: Mark{ID: "e6"}, Reflected: 2}
	thread, resource := &omScope{}, &omScope{resource: true, file: "/a/pi-memory/observations/h.jsonl"}
	eff := defaultConfig()
	tests := []struct{ name, got, want string }{
		{"observed", observedText(st, &tr, now, 2, "ignored"), "Observed in 2 calls: 2 observations (~" + itoa(st.Tokens()) + " tokens), covered through turn 3 of 4 (the reply at 14:35)."},
		{"nothing to observe, and why", observedText(st, &tr, now, 0, "~54 unobserved tokens"), "Nothing new to observe. (~54 unobserved tokens)"},
		{"nothing to observe", observedText(st, &tr, now, 0, ""), "Nothing new to observe."},
		{"cleared", clearedText(1), "Cleared 1 observation with the current task and response. The ledger keeps the earlier records; what they covered is not observed again."},
		{"the mode", modeText(eff), "Mode: buffered (buffered: observe between turns; blocking: only when pi compacts or on /om observe)."},
		{"the mode set, in thread scope", modeSetText("blocking", thread), "Mode: blocking (kept in this session)."},
		{"the mode set, in resource scope", modeSetText("blocking", resource), "Mode: blocking (kept for every session of this project)."},
		{"auto-compact shown", autoCompactText(eff, 200000, nil), "Auto-compact on, buffered mode; observer at 30000 tokens, compaction at 38000; reflector at 40000, retain 8000."},
		{"auto-compact set", autoCompactText(eff, 200000, resource), "Kept for every session of this project. Auto-compact on, buffered mode; observer at 30000 tokens, compaction at 38000; reflector at 40000, retain 8000."},
		{"auto-compact on a small model", autoCompactText(eff, 32000, nil), "Auto-compact on, buffered mode; observer at 6400 tokens, compaction at 15616 (on this model's 32000-token window; configured: 30000 and 38000); reflector at 40000, retain 8000."},
		{"auto-compact, the window unknown", autoCompactText(eff, 0, nil), "Auto-compact on, buffered mode; observer at 25600 tokens, compaction at 38000 (the model's window is not known, 128000 tokens assumed; configured: 30000 and 38000); reflector at 40000, retain 8000."},
		{"rebuilt from the branch", rebuiltText(st, &tr, now, 3, thread), "Rebuilt from 3 ledger entries of this branch: 2 observations, covered through turn 3 of 4 (the reply at 14:35)."},
		{"rebuilt from the file, nothing covered", rebuiltText(&state{}, &tr, now, 1, resource), "Rebuilt from 1 ledger entry of /a/pi-memory/observations/h.jsonl: 0 observations, covered nothing yet."},
		{"no dump in the branch", dumpPage(nil, false, thread), "No observational-memory entries in this branch."},
		{"no dump in the file", dumpPage(nil, false, resource), "No observational-memory entries in /a/pi-memory/observations/h.jsonl."},
		{"no dump as JSON", dumpPage(nil, true, thread), ""},
		{"a dump is the records' lines", dumpPage([]string{string(encode(Record{Op: opClear, Time: 1})), string(encode(Record{Op: opClear, Time: 2}))}, true, thread), `{"v":1,"op":"clear","t":1}` + "\n" + `{"v":1,"op":"clear","t":2}`},
		{"pi only, in pimem", piOnly("cli", "clear"), "/om clear changes the observations, which live in the pi session: run it in pi. pimem reads a session (--session FILE) but never writes to it."},
		{"pi only, in pi", piOnly("tui", "clear"), ""},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, tt.got, tt.name)
	}

	msg, ok := reflectedText(st, 2, 99, "the answer was empty")
	require.False(t, ok)
	require.Equal(t, "The reflection was not applied; the observations are kept as they are (the answer was empty).", msg)
	msg, ok = reflectedText(st, 1, 99, "")
	require.True(t, ok)
	require.Equal(t, "Reflected: ~99 → ~"+itoa(st.Tokens())+" tokens, 2 observations.", msg)
}

func TestObservationsPageIsTheCanonicalText(t *testing.T) {
	st := &state{Groups: []group{{Day: d12, Items: []observation{item(high, 870, "a")}}}, Task: "t", Response: `say "hi"`}
	require.Equal(t, "Date: Feb 12, 2026\n* 🔴 (14:30) a\n\n<current-task>\nt\n</current-task>\n\n<suggested-response>\nsay \"hi\"\n</suggested-response>", observationsPage(st, false))
	require.Equal(t, `{"observations":"Date: Feb 12, 2026\n* 🔴 (14:30) a\n\n<current-task>\nt\n</current-task>\n\n<suggested-response>\nsay \"hi\"\n</suggested-response>\n","task":"t","response":"say \"hi\""}`, observationsPage(st, true))
	require.Equal(t, "No observations yet.", observationsPage(&state{}, false))
	require.Equal(t, `{"observations":"","task":"","response":""}`, observationsPage(&state{}, true))
}

func TestProblemsTextNamesEveryEntryOrLineSkipped(t *testing.T) {
	probs := []Problem{{Line: 3, Msg: "not valid JSON"}, {Line: 9, Msg: `"op" must be …`}}
	require.Equal(t, "pi-memory: 2 observational-memory entries of this branch could not be read and are skipped (/om dump shows the others):\n  branch line 3: not valid JSON\n  branch line 9: \"op\" must be …",
		problemsText(probs, &omScope{}))
	require.Equal(t, "pi-memory: 1 observational-memory lines of /l.jsonl could not be read and are skipped (/om dump shows the others):\n  /l.jsonl: line 3: not valid JSON",
		problemsText(probs[:1], &omScope{resource: true, file: "/l.jsonl"}))
}

func TestReceiptPartSaysWhatTheNewestRequestGotOrWhyNothing(t *testing.T) {
	inj := injection{Text: "<obs>\n", Hint: "hint\n", Tokens: 7, Why: "all: 1 observations (~7 tokens)"}
	tests := []struct {
		name   string
		inj    injection
		injWhy string
		text   string
		json   string
	}{
		{"the block and its hint", inj, "", "\n\n--- observations (in the newest request): 11 bytes ≈ 7 tokens ---\nall: 1 observations (~7 tokens)\n<obs>\nhint",
			`{"store":"observations","where":"context","bytes":11,"tokens":7,"why":"all: 1 observations (~7 tokens)","text":"<obs>\nhint\n"}`},
		{"nothing to inject", injection{Why: "no observations yet"}, "", "\n\n--- observations (in the newest request): 0 bytes ≈ 0 tokens ---\n(nothing: no observations yet)",
			`{"store":"observations","where":"context","bytes":0,"tokens":0,"why":"no observations yet","text":""}`},
		{"the gate said no", inj, "Memory is off", "\n\n--- observations (in the newest request): 0 bytes ≈ 0 tokens ---\n(nothing: Memory is off)",
			`{"store":"observations","where":"context","bytes":0,"tokens":0,"why":"Memory is off","text":""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := receiptPart(tt.inj, tt.injWhy)
			require.Equal(t, "context", r.Key)
			require.Equal(t, tt.text, r.Text)
			require.Equal(t, tt.json, string(r.JSON))
		})
	}
}

// /om observe said "covered through entry 7e791069", an id nothing shows a
// person: it names the turn, what the entry is and when it was written.
func TestCoveredNamesTheTurnAndTheTimeNeverTheEntryID(t *testing.T) {
	ses := newSession(feb12)
	ses.turn("fix the bug", 100)                                 // e1 14:30, e2 14:31
	ses.user("and the tests")                                    // e3 14:32
	ses.assistant("reading", call{"c1", "read", `{"path":"a"}`}) // e4 14:33
	ses.result("c1", "read", "package a", false)                 // e5 14:34
	tr := ses.transcript()
	today, later := at(feb12), at(feb12+2*msPerDay)
	for _, tc := range []struct {
		name string
		mark Mark
		t    *transcript
		now  clock
		want string
	}{
		{"nothing observed", Mark{}, &tr, today, "nothing yet"},
		{"the user's message", Mark{ID: "e1"}, &tr, today, "through turn 1 of 2 (your message at 14:30)"},
		{"the reply", Mark{ID: "e2"}, &tr, today, "through turn 1 of 2 (the reply at 14:31)"},
		{"a tool's result", Mark{ID: "e5"}, &tr, today, "through turn 2 of 2 (a tool's result at 14:34)"},
		{"part of an entry", Mark{ID: "e4", Off: 10}, &tr, today, "through part of turn 2 of 2 (the reply at 14:33)"},
		{"another day", Mark{ID: "e2"}, &tr, later, "through turn 1 of 2 (the reply at Feb 12, 2026, 14:31)"},
		{"not on this branch", Mark{ID: "x9"}, &tr, today, "through an entry that is not on this branch"},
	} {
		got := covered(&state{Mark: tc.mark}, tc.t, tc.now)
		require.Equal(t, tc.want, got, tc.name)
		require.NotContains(t, got, tc.mark.ID+")")
	}
}
