package embeddings

import (
	"math"
	"path"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/config"
	"github.com/pi-memory/pi-memory/wasm/store"
)

func TestConfigIsOffUnlessAFileNamesAnEndpointAndAModel(t *testing.T) {
	tests := []struct {
		name, file string
		on         bool
		why        string
		want       settings
	}{
		{"absent", "", false, "", settings{TimeoutMs: 1000}},
		{"a local Ollama", `{"url":"http://localhost:11434/v1/embeddings","model":"all-minilm"}`, true, "",
			settings{URL: "http://localhost:11434/v1/embeddings", Model: "all-minilm", TimeoutMs: 1000}},
		{"every key", `{"url":"https://api.openai.com/v1/embeddings","model":"text-embedding-3-small","apiKeyEnv":"OPENAI_API_KEY","dimensions":256,"timeoutMs":2500}`, true, "",
			settings{URL: "https://api.openai.com/v1/embeddings", Model: "text-embedding-3-small", KeyEnv: "OPENAI_API_KEY", Dims: 256, TimeoutMs: 2500}},
		{"not JSON", `{"url":`, false, "not valid JSON", settings{}},
		{"no url", `{"model":"m"}`, false, `names no "url"`, settings{}},
		{"no model", `{"url":"http://h/v1/embeddings"}`, false, `names no "model"`, settings{}},
		{"not http", `{"url":"file:///etc/passwd","model":"m"}`, false, "must start with http", settings{}},
		{"a password in the URL", `{"url":"https://me:sk-abc@api.example.com/v1/embeddings","model":"m"}`, false, "must not hold a user", settings{}},
		{"no host", `{"url":"http://","model":"m"}`, false, `"url" names no host, e.g. "http://localhost:11434/v1/embeddings"`, settings{}},
		{"no host, https", `{"url":"https:///v1/embeddings","model":"m"}`, false, `"url" names no host`, settings{}},
		{"a port alone", `{"url":"http://:11434/v1/embeddings","model":"m"}`, false, `"url" names no host`, settings{}},
		{"only dots", `{"url":"http://./v1","model":"m"}`, false, `"url" names no host`, settings{}},
		{"no port after the colon", `{"url":"http://localhost:/v1","model":"m"}`, false, `"url" has a port that is not a number`, settings{}},
		{"a port out of range", `{"url":"http://localhost:70000/v1","model":"m"}`, false, `"url" has a port that is not a number`, settings{}},
		{"a host of other characters", `{"url":"http://local%20host/v1","model":"m"}`, false, `"url" has a host that is not a name or an address`, settings{}},
		{"a bracket not closed", `{"url":"http://[::1/v1","model":"m"}`, false, `"url" has a`, settings{}},
		{"IPv6 in brackets", `{"url":"http://[::1]:8080/v1/embeddings","model":"m"}`, true, "",
			settings{URL: "http://[::1]:8080/v1/embeddings", Model: "m", TimeoutMs: 1000}},
		{"an address and a port", `{"url":"http://127.0.0.1:8080/v1/embeddings","model":"m"}`, true, "",
			settings{URL: "http://127.0.0.1:8080/v1/embeddings", Model: "m", TimeoutMs: 1000}},
		{"a key where its variable's name goes", `{"url":"http://h/e","model":"m","apiKeyEnv":"sk-proj-abcdef0123456789"}`, false, "never the key itself", settings{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var data []byte
			if tc.file != "" {
				data = []byte(tc.file)
			}
			c := parseConfig(config.Parse("embeddings.json", data))
			require.Equal(t, tc.on, c.on())
			if tc.why != "" {
				require.True(t, strings.Contains(c.Why, tc.why), "why: %q", c.Why)
				require.True(t, strings.HasPrefix(c.Why, "embeddings.json"), "names the file: %q", c.Why)
				return
			}
			require.Equal(t, "", c.Why)
			c.Warnings = nil
			require.Equal(t, tc.want, c)
		})
	}
}

func TestABadOptionalValueIsAWarningAndItsDefault(t *testing.T) {
	c := parseConfig(config.Parse("e.json", []byte(`{"url":"http://h/e","model":"m","timeoutMs":5,"colour":1}`)))
	require.True(t, c.on(), "on")
	require.Equal(t, 100, c.TimeoutMs) // clamped to its least
	require.Equal(t, 2, len(c.Warnings))
}

func TestModelKeyIsAFileNameThatChangesWithTheEndpointModelAndDimensions(t *testing.T) {
	a := modelKey(settings{URL: "http://localhost:11434/v1/embeddings", Model: "nomic-embed-text:v1.5"})
	require.True(t, strings.HasPrefix(a, "nomic-embed-text-v1.5-") && len(a) == len("nomic-embed-text-v1.5-")+8, "key %q", a)
	for _, other := range []settings{
		{URL: "http://other:11434/v1/embeddings", Model: "nomic-embed-text:v1.5"},
		{URL: "http://localhost:11434/v1/embeddings", Model: "nomic-embed-text"},
		{URL: "http://localhost:11434/v1/embeddings", Model: "nomic-embed-text:v1.5", Dims: 256},
	} {
		require.True(t, modelKey(other) != a, "%+v has the key of another", other)
	}
	require.True(t, !strings.ContainsAny(modelKey(settings{URL: "u", Model: "../../etc/x"}), "/"), "a slash in a key")
}

func TestARecordIsOneLineReadBackAsWritten(t *testing.T) {
	for _, r := range []record{
		{File: "/home/ada/.pi/agent/sessions/--w--/a b.jsonl", Stamp: 0xfedcba9876543210, Line: 12, Vec: []int8{127, -128, 0, 5}},
		{File: "/s.jsonl", Stamp: 1, Line: 40},
	} {
		line := appendRecord(nil, r)
		require.True(t, strings.Count(string(line), "\n") == 1 && line[len(line)-1] == '\n', "one line: %q", line)
		got, err := parseRecord(line[:len(line)-1])
		require.NoError(t, err)
		require.Equal(t, r, got)
	}
	require.Equal(t, "0000000000000001 3 01ff /a/s.jsonl\n", string(appendRecord(nil, record{File: "/a/s.jsonl", Stamp: 1, Line: 3, Vec: []int8{1, -1}})))
}

func TestARecordThatCannotBeReadSaysWhy(t *testing.T) {
	for _, line := range []string{
		"",
		"0000000000000001 3 01ff",                // no file
		"000000000000001 3 01ff /a",              // a short stamp
		"000000000000000g 3 01ff /a",             // not hex
		"0000000000000001 x 01ff /a",             // no line
		"0000000000000001 3 01f /a",              // an odd vector
		"0000000000000001 3 01zz /a",             // not hex
		"0000000000000001 0 01ff /a",             // a vector of line 0
		"0000000000000001 3 01ff relative.jsonl", // not absolute
		"0000000000000001 3 01ff /a\x1b[2J",      // a control character
		"0000000000000001 3 " + strings.Repeat("00", maxDims+1) + " /a", // too many dimensions
	} {
		_, err := parseRecord([]byte(line))
		require.True(t, err != nil, "%q was read", line)
	}
}

func TestBlendAddsAThirdOfTheMessageBeforeAndKeepsUnitLength(t *testing.T) {
	v, ok := blend([]int8{127, 0}, []int8{0, 127}, 0)
	require.True(t, ok, "ok")
	require.Equal(t, []int8{122, 36}, v)
	first, _ := blend([]int8{127, 0, 0}, nil, 0)
	require.Equal(t, []int8{127, 0, 0}, first)
	cutTo, _ := blend([]int8{90, 90, 0, 0}, nil, 2)
	require.Equal(t, []int8{90, 90}, cutTo)
	_, ok = blend([]int8{0, 0}, nil, 0)
	require.True(t, !ok, "a vector of no length")
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	require.True(t, math.Abs(math.Sqrt(s)-127) < 2, "length %f", math.Sqrt(s))
}

func TestTheTableKeepsTheNewestStampAndSkipsOtherDimensions(t *testing.T) {
	all := func(string) bool { return true }
	var tb table
	tb.add(record{File: "/a", Stamp: 1, Line: 2, Vec: []int8{127, 0}}, all)
	tb.add(record{File: "/a", Stamp: 1, Line: 3, Vec: []int8{0, 127}}, all)
	tb.add(record{File: "/a", Stamp: 1, Line: 2}, all)
	require.True(t, tb.sessions["/a"].done, "closed")
	tb.add(record{File: "/a", Stamp: 2, Line: 5, Vec: []int8{127, 0}}, all) // the file changed
	require.Equal(t, []int32{5}, tb.sessions["/a"].lines)
	require.True(t, !tb.sessions["/a"].done, "a new stamp is not embedded whole")
	tb.add(record{File: "/b", Stamp: 1, Line: 2, Vec: []int8{1, 2, 3}}, all)
	require.Equal(t, 1, tb.bad)
	tb.add(record{File: "/other", Stamp: 1, Line: 2, Vec: []int8{1, 2}}, func(f string) bool { return f != "/other" })
	require.Equal(t, 1, tb.held)
}

func TestNearestIsBestFirstWithTiesInFileAndLineOrder(t *testing.T) {
	all := func(string) bool { return true }
	var tb table
	tb.add(record{File: "/b", Stamp: 1, Line: 2, Vec: []int8{127, 0}}, all)
	tb.add(record{File: "/a", Stamp: 1, Line: 9, Vec: []int8{90, 90}}, all)
	tb.add(record{File: "/a", Stamp: 1, Line: 4, Vec: []int8{127, 0}}, all)
	tb.add(record{File: "/a", Stamp: 1, Line: 4, Vec: []int8{127, 0}}, all) // embedded twice
	tb.add(record{File: "/c", Stamp: 1, Line: 1, Vec: []int8{0, 127}}, all)
	got := tb.nearest([]int8{127, 0}, 3)
	var said []string
	for _, s := range got {
		said = append(said, s.file+":"+itoa(int(s.line)))
	}
	require.Equal(t, []string{"/a:4", "/b:2", "/a:9"}, said)
	require.Equal(t, 0, len(tb.nearest([]int8{1, 2, 3}, 3)))
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}

func FuzzParseRecord(f *testing.F) {
	f.Add([]byte("0000000000000001 3 01ff /a/s.jsonl"))
	f.Add([]byte("fedcba9876543210 40 - /s.jsonl"))
	f.Add([]byte("0000000000000001 3 01ff"))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := parseRecord(line)
		if err != nil {
			return
		}
		// What is read is written back as it was read.
		back := appendRecord(nil, r)
		again, err := parseRecord(back[:len(back)-1])
		if err != nil {
			t.Fatalf("%q read as %+v, written as %q, not read again: %v", line, r, back, err)
		}
		if again.File != r.File || again.Stamp != r.Stamp || again.Line != r.Line || len(again.Vec) != len(r.Vec) {
			t.Fatalf("%q: %+v then %+v", line, r, again)
		}
		if r.Vec != nil && (len(r.Vec) > maxDims || r.Line == 0) {
			t.Fatalf("%q: a vector of %d dimensions at line %d", line, len(r.Vec), r.Line)
		}
	})
}

// fortyVectors is a table of 40 vectors in 10 sessions of 4, a query and
// its 7 nearest ranked at once.
func fortyVectors() (tb *table, q []int8, want []scored, all func(string) bool) {
	all = func(string) bool { return true }
	tb = &table{}
	for i := 0; i < 40; i++ {
		tb.add(record{File: "/s/" + itoa(i/4), Stamp: 1, Line: i%4 + 2, Vec: []int8{int8(i), int8(40 - i), 3}}, all)
	}
	q = []int8{90, 90, 0}
	return tb, q, tb.nearest(q, 7), all
}

func TestARankingInStepsIsTheRankingAtOnce(t *testing.T) {
	tb, q, want, all := fortyVectors()
	r := ranking{q: q, n: 7}
	steps := 0
	for !tb.rank(&r, 5) {
		steps++
		if steps == 3 {
			tb.add(record{File: "/s/new", Stamp: 1, Line: 2, Vec: []int8{0, 0, 127}}, all)
		}
	}
	require.True(t, steps >= 3, "in steps: %d", steps)
	require.Equal(t, want, r.top)
}

// Past maxHeld vectors the table holds the newest sessions' (by name: pi's
// start with their time), whatever order the cache has them in: sessions
// embedded newest first, then a newer session appended after the bound.
func TestPastTheVectorsHeldTheNewestSessionsAreHeld(t *testing.T) {
	all := func(string) bool { return true }
	session := func(day int) string { return "/s/2026-01-" + itoa(10+day) + "T00-00-00-000Z_s.jsonl" }
	per := maxHeld / 3
	tests := []struct {
		name      string
		days      []int // the sessions' order in the cache, per vectors each, a closing record after
		held      []int // the sessions holding vectors
		floor     int   // the newest session not held whole; -1: none
		embedNext []int // of days 0..9, those newer than the floor: worth embedding (if not done)
	}{
		{"under the bound", []int{5, 4, 3}, []int{5, 4, 3}, -1, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"newest first, then older", []int{5, 4, 3, 2}, []int{5, 4, 3}, 2, []int{3, 4, 5, 6, 7, 8, 9}},
		{"a newer one appended", []int{5, 4, 3, 6}, []int{5, 4, 6}, 3, []int{4, 5, 6, 7, 8, 9}},
		{"two newer ones appended", []int{5, 4, 3, 6, 7}, []int{5, 6, 7}, 4, []int{5, 6, 7, 8, 9}},
		{"oldest first", []int{1, 2, 3, 4}, []int{2, 3, 4}, 1, []int{2, 3, 4, 5, 6, 7, 8, 9}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tb table
			for _, day := range tc.days {
				for i := range per {
					tb.add(record{File: session(day), Stamp: 1, Line: i + 2, Vec: []int8{127, int8(day)}}, all)
				}
				tb.add(record{File: session(day), Stamp: 1, Line: per}, all)
			}
			var held []int
			for _, day := range tc.held {
				v := tb.sessions[session(day)]
				require.Equal(t, per, len(v.lines))
				held = append(held, day)
			}
			require.Equal(t, tc.held, held)
			require.True(t, tb.held <= maxHeld, "held %d", tb.held)
			require.Equal(t, per*len(tc.days)-tb.held, tb.over)
			var worth []int
			for day := range 10 {
				if path.Base(session(day)) > tb.floor {
					worth = append(worth, day)
				}
			}
			require.Equal(t, tc.embedNext, worth)
			if tc.floor >= 0 {
				require.Equal(t, path.Base(session(tc.floor)), tb.floor)
			}
		})
	}
}

// A session closed with messages but no vectors (a rewrite of the cache
// dropped them) is not held, and nothing older is worth embedding.
func TestAClosedSessionWithoutVectorsRaisesTheFloor(t *testing.T) {
	all := func(string) bool { return true }
	var tb table
	tb.add(record{File: "/s/b.jsonl", Stamp: 1, Line: 2, Vec: []int8{127, 0}}, all)
	tb.add(record{File: "/s/b.jsonl", Stamp: 1, Line: 1}, all)
	tb.add(record{File: "/s/e.jsonl", Stamp: 1, Line: 0}, all) // no messages
	require.Equal(t, "", tb.floor)
	tb.add(record{File: "/s/a.jsonl", Stamp: 1, Line: 7}, all)
	require.Equal(t, "a.jsonl", tb.floor)
}

// Many one-message sessions, oldest first (each evicts the oldest held):
// the newest maxHeld are held, in time linear in the records, not squared.
func TestOneVectorSessionsOldestFirstHoldTheNewest(t *testing.T) {
	all := func(string) bool { return true }
	var tb table
	name := func(i int) string { s := "00000" + itoa(i); return "/s/" + s[len(s)-6:] + ".jsonl" }
	for i := range maxHeld + 10000 {
		tb.add(record{File: name(i), Stamp: 1, Line: 2, Vec: []int8{127, 0}}, all)
	}
	require.Equal(t, maxHeld, tb.held)
	require.Equal(t, 10000, tb.over)
	require.Equal(t, 0, len(tb.sessions[name(9999)].lines))
	require.Equal(t, 1, len(tb.sessions[name(10000)].lines))
	require.Equal(t, path.Base(name(9999)), tb.floor)
}

// Off says the first of: no agent folder, a configuration that cannot be
// used, none, then what keeps earlier sessions from being read (history's).
func TestOffSaysTheAgentFolderThenTheConfigurationThenTheProject(t *testing.T) {
	on := settings{URL: "http://h/e", Model: "m"}
	tests := []struct {
		s    store.Session
		cfg  settings
		want string
	}{
		{store.Session{}, settings{Why: "bad"}, "No agent folder"},
		{store.Session{AgentDir: "/a"}, settings{Why: "bad"}, "Embeddings are off: bad."},
		{store.Session{AgentDir: "/a"}, settings{}, "Not configured (/a/pi-memory/embeddings.json)"},
		{store.Session{AgentDir: "/a"}, on, "No project"},
		{store.Session{AgentDir: "/a", ProjectRoot: "/p"}, on, "The project is not trusted"},
		{store.Session{AgentDir: "/a", ProjectRoot: "/p", Trusted: true}, on, ""},
	}
	for _, tc := range tests {
		d := Open(&store.Env{Session: &tc.s}).(*driver)
		d.cfg = tc.cfg
		got := d.Off()
		require.True(t, tc.want == "" && got == "" || tc.want != "" && strings.HasPrefix(got, tc.want), "%+v %+v: %q", tc.s, tc.cfg, got)
	}
}

// pi's background work appends records between a search's slices (its own
// answers, read back by the next step's catchUp): a ranking goes on over
// them, so a search ends while the background work goes on (it started
// again at every record, and a search waited for every earlier session to
// be embedded: 20.7 s in pi with 30,000 vectors held and 200 sessions
// pending). A session started again in place (a newer stamp) starts the
// ranking again: what it held of that session is gone.
func TestARankingGoesOnOverRecordsAppendedAndStartsAgainWhenASessionDoes(t *testing.T) {
	tb, q, want, all := fortyVectors()
	r := ranking{q: q, n: 7}
	steps := 0
	for !tb.rank(&r, 4) {
		steps++
		require.True(t, steps < 40, "a ranking that never ends")
		// Each step, the background work appends to a session ranked
		// already, to one not ranked yet, and a new one.
		tb.add(record{File: "/s/0", Stamp: 1, Line: 100 + steps, Vec: []int8{0, 0, 127}}, all)
		tb.add(record{File: "/s/9", Stamp: 1, Line: 100 + steps, Vec: []int8{0, 0, 127}}, all)
		tb.add(record{File: "/n/" + itoa(steps), Stamp: 1, Line: 2, Vec: []int8{0, 0, 127}}, all)
	}
	require.Equal(t, want, r.top)

	// /s/9 (the best of the first ranking) is started again at a newer
	// stamp while a ranking is under way: it starts again, and its old
	// vectors are not in it.
	r = ranking{q: q, n: 7}
	require.False(t, tb.rank(&r, 4))
	tb.add(record{File: "/s/9", Stamp: 2, Line: 50, Vec: []int8{-127, 0, 0}}, all)
	for !tb.rank(&r, 4) {
	}
	for _, s := range r.top {
		require.True(t, s.file != "/s/9" || s.line == 50, "a vector of /s/9's older stamp: %v", s)
	}

	// A table read again from the start (the cache shrank, another model)
	// is another table: a ranking begun on the one before starts again.
	r = ranking{q: q, n: 3}
	require.False(t, tb.rank(&r, 4))
	tb.reset()
	for i := 0; i < 3; i++ {
		tb.add(record{File: "/t/" + itoa(i), Stamp: 1, Line: 2, Vec: []int8{int8(i), 1, 0}}, all)
	}
	for !tb.rank(&r, 4) {
	}
	require.Equal(t, tb.nearest(q, 3), r.top)
}
