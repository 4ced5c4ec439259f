package observe

import (
	"errors"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func intp(n int) *int       { return &n }
func strp(s string) *string { return &s }
func boolp(b bool) *bool    { return &b }

var sampleRecords = []Record{
	{Op: opObserve, Time: feb12, From: "e1", Through: Mark{ID: "e7"}, Tokens: 31000,
		Obs: "Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n", Task: "Indent", HasTask: true, Read: []string{"a.go"}, Modified: []string{"b.go"}},
	{Op: opObserve, Time: feb12 + 1, Session: "s-2", From: "e8", Through: Mark{ID: "e9", Off: 4000}, Tokens: 25600, Obs: ""},
	{Op: opReflect, Time: feb12 + 2, Obs: "Date: Feb 12, 2026\n* 🔴 (14:30) merged\n", Response: "", HasResponse: true, Aggressive: true},
	{Op: opClear, Time: feb12 + 3},
	{Op: opSet, Time: feb12 + 4, Settings: settings{Mode: strp(modeBlocking), AutoCompact: boolp(false), ObserverTokens: intp(20000), ReflectorTokens: intp(50000), RetainTokens: intp(0)}},
}

func TestLedgerRecordsReadBackAsWritten(t *testing.T) {
	for _, r := range sampleRecords {
		line := encode(r)
		require.False(t, strings.Contains(string(line), "\n"))
		back, err := decode(line)
		require.NoError(t, err, string(line))
		require.Equal(t, r, back, string(line))
		require.Equal(t, string(line), string(encode(back)))
	}
	require.Equal(t, `{"v":1,"op":"clear","t":1770906600003}`, string(encode(sampleRecords[3])))
	require.Equal(t, `{"v":1,"op":"observe","t":1770906600001,"session":"s-2","from":"e8","through":"e9","off":4000,"tokens":25600,"obs":""}`, string(encode(sampleRecords[1])))
}

func TestDecodeSaysWhatIsWrong(t *testing.T) {
	tests := []struct{ line, want string }{
		{`{"v":1,"op":"observe","t":1,"obs":""}`, `needs "through"`},
		{`{"v":1,"op":"drop","t":1}`, `"op" must be observe, reflect, clear or set (got "drop")`},
		{`{"op":"clear","t":1}`, `no "v" key`},
		{`{"v":"1","op":"clear","t":1}`, `"v" must be a positive whole number`},
		{`{"v":1,"op":"clear"}`, `no "t" key`},
		{`{"v":1,"op":"clear","t":-5}`, `"t" must be a whole number from 0`},
		{`{"v":1,"op":"observe","t":1,"through":"e1","obs":7}`, `"obs" must be a string`},
		{`{"v":1,"op":"observe","t":1,"through":"e1","read":["a",1]}`, `"read" must be a list of strings`},
		{`{"v":1,"op":"set","t":1,"mode":"eager"}`, `"mode" must be "buffered" or "blocking"`},
		{`{"v":1,"op":"set","t":1,"observerTokens":2e9}`, `"observerTokens" must be a whole number of tokens`},
		{`[1]`, `not a JSON object`},
		{`{"v":1,`, `not valid JSON`},
		{"{\"v\":1,\"op\":\"clear\",\"t\":1,\"x\":\"\xff\"}", `not valid UTF-8`},
	}
	for _, tt := range tests {
		_, err := decode([]byte(tt.line))
		require.Error(t, err, tt.line)
		require.Contains(t, err.Error(), tt.want, tt.line)
	}
	// What a wrong field holds is said back redacted, and at most a line of
	// it (the closing check of issue 25: a token came back whole, and 20 MB
	// in "op" made a 20 MB warning).
	tok := "sk-ant-api03-" + strings.Repeat("Ab9_", 20)
	for _, line := range []string{
		`{"v":1,"op":"` + tok + `","t":1}`,
		`{"v":1,"op":"set","t":1,"mode":"password=` + tok + `"}`,
		`{"v":1,"op":"clear","t":"` + tok + `"}`,
		`{"v":1,"op":"observe","t":1,"through":"e1","obs":{"k":"` + tok + `"}}`,
		`{"v":1,"op":"` + strings.Repeat("x", 20<<20) + `","t":1}`,
	} {
		_, err := decode([]byte(line))
		require.Error(t, err)
		require.NotContains(t, err.Error(), "Ab9_Ab9_")
		require.True(t, len(err.Error()) < 200, "a line at most:", len(err.Error()))
	}
	_, err := decode([]byte(`{"v":2,"op":"compact","t":1}`))
	require.True(t, errors.Is(err, errNewer))
	require.Contains(t, err.Error(), "format version 2 is newer than this build reads (1); the record is kept and skipped")
}

func TestDecodeLedgerKeepsGoingPastBadLines(t *testing.T) {
	var b strings.Builder
	b.Write(encode(sampleRecords[0]))
	b.WriteString("\r\n\n   \nnot json\n")
	b.Write(encode(sampleRecords[3]))
	b.WriteString("\n{\"v\":2,\"op\":\"x\",\"t\":1}\n")
	b.Write(encode(sampleRecords[4]))
	b.WriteString("\n{\"v\":1,\"op\":\"obs")
	recs, probs := DecodeLedger([]byte(b.String()))
	require.Equal(t, 3, len(recs))
	require.Equal(t, []int{1, 5, 7}, []int{recs[0].Line, recs[1].Line, recs[2].Line})
	require.Equal(t, 3, len(probs))
	require.Equal(t, "line 4: not valid JSON", probs[0].String())
	require.Equal(t, 6, probs[1].Line)
	require.Contains(t, probs[1].Msg, "newer than this build")
	require.Equal(t, 8, probs[2].Line)
	require.Contains(t, probs[2].Msg, "torn last line")
}

func TestFoldRebuildsTheStateInBranchOrder(t *testing.T) {
	cfg := defaultConfig()
	st := fold(sampleRecords, "", cfg)
	require.Equal(t, 0, len(st.Groups), "the clear came last")
	require.Equal(t, Mark{ID: "e7"}, st.Mark, "records of another session do not move the watermark; clear keeps it")
	require.Equal(t, "", st.Task, "clear empties the task too")
	require.Equal(t, modeBlocking, cfg.With(st.Settings).Mode)
	require.Equal(t, 20000, cfg.With(st.Settings).ObserverTokens)
	require.Equal(t, []string{"a.go"}, st.Read)
	require.Equal(t, 2, st.Observed)
	require.Equal(t, 1, st.Empty)
	require.Equal(t, 1, st.Reflected)
	// Without the clear.
	st = fold(sampleRecords[:3], "", cfg)
	require.Equal(t, "Date: Feb 12, 2026\n* 🔴 (14:30) merged\n", render(st.Groups))
	require.Equal(t, "Indent", st.Task, "a reflection without a task keeps it")
	require.Equal(t, int64(feb12+2), st.Changed)
}

func TestAForkHasItsOwnBranchesObservations(t *testing.T) {
	cfg := defaultConfig()
	obs := func(text, through string) Record {
		return Record{Op: opObserve, Time: feb12, Through: Mark{ID: through}, Obs: "Date: Feb 12, 2026\n* 🟡 " + text + "\n"}
	}
	// A session: e1 … a record … e3, then two branches from e3.
	s := newSession(feb12)
	s.user("shared start")
	s.record(obs("shared", "e1"))
	s.user("branch point")
	s.user("left branch")
	s.record(obs("left only", "e4"))
	left := s.records()
	// The right branch is what getBranch() gives after a fork at e3: the
	// shared record, then its own.
	right := []Record{left[0], obs("right only", "e6")}
	l, r := fold(left, "", cfg), fold(right, "", cfg)
	require.Contains(t, render(l.Groups), "left only")
	require.NotContains(t, render(l.Groups), "right only")
	require.Contains(t, render(r.Groups), "right only")
	require.NotContains(t, render(r.Groups), "left only")
	require.Contains(t, render(r.Groups), "shared")
	require.Equal(t, Mark{ID: "e6"}, r.Mark)
}

func TestResourceScopeKeepsEverySessionsObservations(t *testing.T) {
	cfg := defaultConfig()
	recs := []Record{
		{Op: opObserve, Time: feb12, Session: "s-1", Through: Mark{ID: "a9"}, Obs: "Date: Feb 12, 2026\n* 🔴 first session\n"},
		{Op: opObserve, Time: feb12 + msPerDay, Session: "s-2", Through: Mark{ID: "b3"}, Obs: "Date: Feb 13, 2026\n* 🔴 second session\n"},
	}
	st := fold(recs, "s-2", cfg)
	require.Equal(t, 2, countItems(st.Groups))
	require.Equal(t, Mark{ID: "b3"}, st.Mark)
	st = fold(recs, "s-3", cfg)
	require.Equal(t, Mark{}, st.Mark, "a new session starts unobserved")
	// Records made in a session carry its name.
	st.Task = ""
	s := newSession(feb12)
	s.turn("hi", 100)
	tr := s.transcript()
	a := plan(st, cfg, &tr, planEnv{Force: true, Clock: at(feb12)})
	res := st.Answer(a, echo(a), cfg, at(feb12))
	require.Equal(t, "s-3", res.Record.Session)
	require.Equal(t, Mark{ID: "e2"}, st.Mark)
}

func TestFoldAppliesTheItemCap(t *testing.T) {
	cfg := defaultConfig()
	cfg.MaxObservationItems = minItems
	var b strings.Builder
	b.WriteString("Date: Feb 12, 2026\n")
	for i := 0; i < 80; i++ {
		b.WriteString("* 🟢 note " + string(rune('A'+i%26)) + string(rune('a'+i/26)) + "\n")
	}
	st := fold([]Record{{Op: opObserve, Time: feb12, Through: Mark{ID: "e1"}, Obs: b.String()}}, "", cfg)
	require.Equal(t, minItems, countItems(st.Groups))
}
