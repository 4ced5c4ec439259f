package hindsight

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/tidwall/gjson"
)

const secret = "ghp_EXAMPLEexample0123456789EXAMPLEexamp"

var on = func() settings { c := defaultConfig(); c.URL = "http://h:1"; c.APIKey = "key"; return c }()

func TestRecallRequestFiltersTheProjectBankByItsRepoOnly(t *testing.T) {
	p := recallRequest(on, bank{bankProject, "pimem-r-1"}, "github.com/o/r", "how do we build?")
	require.Equal(t, "http://h:1/v1/default/banks/pimem-r-1/memories/recall", p.URL)
	require.Equal(t, `{"query":"how do we build?","budget":"mid","max_tokens":1024,"tags":["project:github.com/o/r"],"tags_match":"any"}`, p.Body)
	require.Equal(t, 1500, p.TimeoutMs)
	require.Equal(t, [][2]string{{"Content-Type", "application/json"}, {"Authorization", "Bearer key"}}, p.Headers)
	u := recallRequest(on, bank{bankUser, "my bank"}, "k", "q")
	require.Equal(t, "http://h:1/v1/default/banks/my%20bank/memories/recall", u.URL)
	require.NotContains(t, u.Body, "tags")
}

func TestParseRecallReadsTextsAndNamesABadAnswer(t *testing.T) {
	tests := []struct {
		body    string
		want    []memory
		problem string
	}{
		{`{"results":[{"text":"Uses Go","type":"world"},{"text":""},{"id":1}]}`, []memory{{"Uses Go", "world"}}, ""},
		{`{"results":[]}`, nil, ""},
		{`{"detail":"bank not found"}`, nil, "the answer has no results list"},
		{`<html>`, nil, "the answer is not JSON"},
	}
	for _, tc := range tests {
		got, problem := parseRecall(tc.body)
		require.Equal(t, tc.want, got, tc.body)
		require.Equal(t, tc.problem, problem, tc.body)
	}
}

func TestReadResponsesTurnsEveryMalformedAnswerIntoAFailure(t *testing.T) {
	got := readResponses([]byte(`[{"status":200,"body":"{}"},{"error":"timed out after 1500 ms"},{"status":"x"},7]`), 5)
	require.Equal(t, response{Status: 200, Body: "{}"}, got[0])
	require.Equal(t, "timed out after 1500 ms", got[1].problem())
	require.Equal(t, "the host gave no status", got[2].problem())
	require.Equal(t, "the host gave no answer", got[3].problem())
	require.Equal(t, "the host gave no answer", got[4].problem())
	require.Equal(t, "HTTP 500", response{Status: 500}.problem())
	require.Equal(t, "the host gave no answer", readResponses([]byte(`{}`), 1)[0].Error)
}

func TestAnAnswerTheHostCutOrOneOverTheCapIsRefusedBeforeParsing(t *testing.T) {
	big := strings.Repeat("x", maxAnswer+1)
	atCap := strings.Repeat("x", maxAnswer)
	value := `[{"status":200,"body":"{\"results\":[","truncated":true},{"status":200,"body":"` + big + `"},{"status":200,"body":"` + atCap + `"},{"status":200,"body":"` + strings.Repeat(`\"`, maxAnswer/2) + `"}]`
	got := readResponses([]byte(value), 4)
	require.Equal(t, "the answer is larger than 1 MiB (HTTP 200); not read", got[0].problem())
	require.Equal(t, "the answer is larger than 1 MiB (HTTP 200); not read", got[1].problem())
	require.Equal(t, "", got[2].problem())
	require.Equal(t, maxAnswer, len(got[2].Body))
	require.Equal(t, "", got[3].problem(), "escapes make the JSON longer, not the body")
	require.Contains(t, string(encode(nil, []request{{Method: "POST", URL: "u", TimeoutMs: 1}})), `"maxBytes":1048576`)
	rs := recalls([]bank{{bankProject, "p"}}, []byte(`[{"status":200,"body":"{\"results\":[{\"text\":\"a\"}","truncated":true}]`))
	require.Equal(t, "the answer is larger than 1 MiB (HTTP 200); not read", rs[0].Problem)
	require.Equal(t, 0, len(rs[0].Memories))
}

// A memory the server stored may hold what a person typed, a secret too:
// the block that goes into the model's request is redacted, as the
// hindsight_recall tool's result is.
func TestTheRecalledBlockIsRedacted(t *testing.T) {
	got := render([]recalled{{Bank: bank{bankProject, "p"}, Memories: []memory{
		{Text: "the db password is hunter2xyz"},
		{Text: "deploy with ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
		{Text: "postgres://admin:s3cr3tPassw0rd@db:5432/app"},
	}}}, 1024)
	for _, secret := range []string{"hunter2xyz", "ghp_abcdef", "s3cr3tPassw0rd"} {
		require.NotContains(t, got, secret)
	}
	require.Contains(t, got, "- the db password is [REDACTED:secret]\n")
}

func TestRenderGroupsByBankBetweenMarkersAndIsEmptyWithoutMemories(t *testing.T) {
	rs := []recalled{
		{Bank: bank{bankProject, "p"}, Memories: []memory{{Text: "Uses Go\nand make"}}},
		{Bank: bank{bankUser, "u"}, Problem: "HTTP 500"},
	}
	got := render(rs, 1024)
	require.Equal(t, "\n\n<pi-memory-recall>\n"+blockIntro+"\n[project bank p]\n- Uses Go and make\n</pi-memory-recall>", got)
	require.Equal(t, "", render(rs[1:], 1024))
	many := recalled{Bank: bank{bankProject, "p"}}
	for i := 0; i < 100; i++ {
		many.Memories = append(many.Memories, memory{Text: strings.Repeat("m", 36) + strconv.Itoa(i)})
	}
	capped := render([]recalled{many}, 100) // 400 bytes of memory lines
	require.Contains(t, capped, "- "+strings.Repeat("m", 36)+"0\n")
	require.NotContains(t, capped, strings.Repeat("m", 36)+"99")
	require.True(t, strings.HasSuffix(capped, "\n</pi-memory-recall>"))
	require.Equal(t, []string{"project (p): 1 memory", "user (u): HTTP 500"}, summary(rs))
}

// A memory's lines are read as stored before they become one line: a
// heading names the entries under it (h-v95 b6).
func TestRenderRedactsAMemoryAsStoredBeforeFoldingIt(t *testing.T) {
	got := render([]recalled{{Bank: bank{bankProject, "p"}, Memories: []memory{{Text: "## Passwords\n- grafana: Gr4fAdm1nPw\n- jenkins: Jk8!buildPw"}, {Text: "db:\n  user: app\n  password: >-\n    Zz9!foldedPw"}}}}, 1024)
	for _, v := range []string{"Gr4fAdm1nPw", "Jk8!buildPw", "Zz9!foldedPw"} {
		require.NotContains(t, got, v)
	}
}

func TestSerializeTurnKeepsTextAndToolsStripsRecallAndRedactsBothFields(t *testing.T) {
	msgs := `[
	 {"role":"user","content":[{"type":"text","text":"Deploy with ` + secret + `"},{"type":"text","text":"\n\n<pi-memory-recall>\nrecalled fact XYZ\n</pi-memory-recall>"}],"timestamp":1700},
	 {"role":"custom","customType":"observational-memory-context","content":"injected OBS"},
	 {"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"Running it."},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"env"}}]},
	 {"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"TOKEN=` + secret + `"}]},
	 {"role":"assistant","content":[{"type":"text","text":"Done."}]}
	]`
	tr := serializeTurn(msgs, "github.com/o/r", 16000)
	require.Equal(t, int64(1700), tr.UserMs)
	require.Equal(t, "user: Deploy with [REDACTED:github-token]\nassistant: Running it.\ntool bash {\"command\":\"env\"}\nresult: TOKEN=[REDACTED:github-token]\nassistant: Done.", tr.Content)
	require.Equal(t, "pi session in github.com/o/r: Deploy with [REDACTED:github-token]", tr.Context)
	for _, s := range []string{secret, "XYZ", "OBS", "hmm"} {
		require.NotContains(t, tr.Content+tr.Context, s)
	}
}

// A tool call's arguments are read as their strings say them (h-v93 c1).
func TestSerializeTurnRedactsWhatAnArgumentsStringSays(t *testing.T) {
	msgs := `[
	 {"role":"user","content":"set it up","timestamp":5},
	 {"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"export OPENAI_API_KEY=\"Wq8xR2pLa8abcdEFGHijkl\" && echo ok"}},
	  {"type":"toolCall","id":"c2","name":"write","arguments":{"path":"c.yml","content":"db:\n  POSTGRES_PASSWORD: \"Wr1teToolPw9\"\n"}}]},
	 {"role":"assistant","content":[{"type":"text","text":"Done."}]}
	]`
	tr := serializeTurn(msgs, "k", 16000)
	require.NotContains(t, tr.Content, "Wq8xR2pLa8abcdEFGHijkl")
	require.NotContains(t, tr.Content, "Wr1teToolPw9")
	require.Contains(t, tr.Content, `tool bash {"command":"export OPENAI_API_KEY=\"[REDACTED:secret]\" && echo ok"}`)
}

// The output of a command that prints a secret bare is withheld (h-v93 c5).
func TestSerializeTurnWithholdsWhatASecretReadingCommandPrints(t *testing.T) {
	msgs := `[
	 {"role":"user","content":"get the db password","timestamp":5},
	 {"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"vault kv get -field=password secret/db"}}]},
	 {"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"Xk9Lm2Qz7Wv4"}]},
	 {"role":"assistant","content":[{"type":"text","text":"Done."}]}
	]`
	tr := serializeTurn(msgs, "k", 16000)
	require.NotContains(t, tr.Content, "Xk9Lm2Qz7Wv4")
	require.Contains(t, tr.Content, "result: [REDACTED: the output of a command that reads a secret]")
}

func TestSerializeTurnLeavesOutWhatTheRetainToolKeptOnItsOwn(t *testing.T) {
	msgs := `[
	 {"role":"user","content":"Remember how we deploy","timestamp":5},
	 {"role":"assistant","content":[{"type":"toolCall","id":"r1","name":"hindsight_retain","arguments":{"content":"Deploys go through make release QQQ"}},{"type":"toolCall","id":"c2","name":"bash","arguments":{"command":"ls"}}]},
	 {"role":"toolResult","toolCallId":"r1","toolName":"hindsight_retain","content":[{"type":"text","text":"Retained. RRR"}]},
	 {"role":"toolResult","toolCallId":"c2","toolName":"bash","content":[{"type":"text","text":"Makefile"}]},
	 {"role":"assistant","content":[{"type":"text","text":"Kept."}]}
	]`
	tr := serializeTurn(msgs, "k", 16000)
	require.Equal(t, "user: Remember how we deploy\ntool bash {\"command\":\"ls\"}\nresult: Makefile\nassistant: Kept.", tr.Content)
}

func TestSerializeTurnCapsAndKeepsNothingFromAnEmptyRun(t *testing.T) {
	long := strings.Repeat("word ", 5000)
	tr := serializeTurn(`[{"role":"user","content":"`+long+`","timestamp":1}]`, "k", 1000)
	require.True(t, len(tr.Content) <= 1000, "%d", len(tr.Content))
	require.Equal(t, turn{}, serializeTurn(`[{"role":"assistant","content":[]}]`, "k", 1000))
}

// h-v93 a1: a pasted log in a retained turn is read as its ends (not
// decoded whole for the part a turn keeps); a tool's printed end still
// reaches the result's tail.
func TestSerializeTurnReadsAPastedLogAsItsEnds(t *testing.T) {
	log := strings.Repeat(`2026-11-20 INFO request status=200\n`, 60000)
	msgs := `[{"role":"user","content":[{"type":"text","text":"FIRST ` + log + `"}],"timestamp":1},
	 {"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"make"}}]},
	 {"role":"toolResult","toolCallId":"t1","content":[{"type":"text","text":"` + log + `make: *** [all] Error 2"}]}]`
	tr := serializeTurn(msgs, "k", 16000)
	require.True(t, strings.HasPrefix(tr.Content, "user: FIRST 2026-11-20 INFO"), "%.60q", tr.Content)
	require.Contains(t, tr.Content, "make: *** [all] Error 2")
	require.True(t, len(tr.Content) <= 16000, "%d", len(tr.Content))
}

// h-v94 c8: each part is redacted on its own before its prefix, so a
// list of passwords under a heading at the start of a prompt or of a
// tool's output is read as one.
func TestSerializeTurnReadsAHeadingAtAPartsStart(t *testing.T) {
	msgs := `[{"role":"user","content":"## Passwords\n- grafana: Gr4fAdm1nPw\n","timestamp":1},
	 {"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"cat notes.md"}}]},
	 {"role":"toolResult","toolCallId":"t1","content":[{"type":"text","text":"## Passwords\n- jenkins: Jk8sAdm1nPw\n"}]}]`
	tr := serializeTurn(msgs, "k", 16000)
	require.NotContains(t, tr.Content, "Gr4fAdm1nPw")
	require.NotContains(t, tr.Content, "Jk8sAdm1nPw")
}

// Each part is capped before the content is redacted: a token the cap went
// through was sent to the server, 33 of its 40 characters, unredacted.
func TestSerializeTurnCapsNeverSendPartOfASecret(t *testing.T) {
	pad := strings.Repeat("x ", 2990)
	msgs := `[{"role":"user","content":"` + pad + "a " + secret + ` tail","timestamp":1},
	 {"role":"assistant","content":[{"type":"text","text":"` + strings.Repeat("y ", 1980) + secret + `"},
	  {"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"` + strings.Repeat("z ", 280) + secret + ` x"}}]},
	 {"role":"toolResult","toolCallId":"t1","content":[{"type":"text","text":"` + strings.Repeat("r ", 660) + secret + " " + strings.Repeat("q ", 1000) + `"}]}]`
	for _, max := range []int{16000, 6000 + 7, 6000 + 3} {
		tr := serializeTurn(msgs, "k", max)
		require.True(t, !strings.Contains(tr.Content, secret[:12]), "part of a secret is sent: %q", tr.Content)
	}
}

func TestBackoffDoublesToFiveMinutes(t *testing.T) {
	for n, want := range map[int]int64{0: 2000, 1: 2000, 3: 8000, 8: 256000, 9: 300000, 16: 300000, 17: 300000, 20: 300000, 100: 300000} {
		require.Equal(t, want, backoff(n), n)
	}
}

func job(id string) Item {
	return Item{Content: "c " + id, Context: "x", At: 1, DocumentID: id, Tags: []string{"project:k"}, Source: sourcePi, Session: "s"}
}

func TestOutboxFoldsJobsFailuresAndDones(t *testing.T) {
	var data []byte
	data = append(data, JobRecord("b", job("d1"), 10)...)
	data = append(data, JobRecord("b", job("d2"), 11)...)
	data = append(data, JobRecord("u", job("d1"), 11)...)
	o := FoldOutbox(data)
	require.Equal(t, 3, len(o.Pending))
	data = append(data, failRecord(o.Pending[0], 20, "HTTP 500")...)
	data = append(data, DoneRecord(o.Pending[1], 21)...)
	o = FoldOutbox(data)
	require.Equal(t, 2, len(o.Pending))
	require.Equal(t, Job{ID: "d1", Bank: "b", At: 10, Item: string(itemJSON(job("d1"))), Len: len(JobRecord("b", job("d1"), 10)) - 1, Attempts: 1, Next: 2020, LastError: "HTTP 500"}, o.Pending[0])
	require.Equal(t, 1, len(o.due(2019, "")))
	require.Equal(t, 2, len(o.due(2020, "")))
	require.Equal(t, 0, len(o.Problems))
	require.False(t, o.Torn)
}

func TestOutboxKeepsGoingPastATornAndABadLine(t *testing.T) {
	data := append([]byte("not json\n"), JobRecord("b", job("d1"), 10)...)
	data = append(data, `{"v":1,"op":"job","id":"d2","bank":"b","at":1,"item":{"con`...)
	o := FoldOutbox(data)
	require.Equal(t, 1, len(o.Pending))
	require.True(t, o.Torn)
	require.Equal(t, []string{"line 1: not an outbox record", "line 3: torn (a write that did not finish)"}, o.Problems)
}

func TestAJobFailingMaxAttemptsTimesIsADeadLetter(t *testing.T) {
	c := on
	c.MaxAttempts = 3
	data := JobRecord("b", job("d1"), 0)
	var dead []byte
	for i := 0; i < 3; i++ {
		o := FoldOutbox(data)
		require.Equal(t, 1, len(o.Pending), "attempt %d", i)
		bs := flushBatches(c, o.Pending, 1000)
		more, d := outcome(c, bs[0], response{Status: 503}, int64(i))
		data, dead = append(data, more...), append(dead, d...)
	}
	require.Equal(t, 0, len(FoldOutbox(data).Pending))
	require.Equal(t, 1, strings.Count(string(dead), "\n"))
	r := gjson.Parse(string(dead))
	require.Equal(t, "dead", r.Get("op").String())
	require.Equal(t, int64(3), r.Get("n").Int())
	require.Equal(t, "HTTP 503", r.Get("error").String())
	require.Equal(t, "c d1", r.Get("item.content").String())
}

func TestFlushBatchesGroupByBankTwentyAtMost(t *testing.T) {
	var jobs []Job
	for i := 0; i < 45; i++ {
		jobs = append(jobs, Job{ID: strconv.Itoa(i), Bank: "p", Item: `{"content":"` + strconv.Itoa(i) + `"}`})
	}
	jobs = append(jobs, Job{ID: "u1", Bank: "u", Item: `{}`})
	bs := flushBatches(on, jobs, 5000)
	require.Equal(t, 4, len(bs))
	require.Equal(t, []int{20, 20, 5, 1}, []int{len(bs[0].Jobs), len(bs[1].Jobs), len(bs[2].Jobs), len(bs[3].Jobs)})
	require.Equal(t, "http://h:1/v1/default/banks/u/memories", bs[3].Req.URL)
	require.Equal(t, `{"items":[{}],"async":true}`, bs[3].Req.Body)
	require.True(t, gjson.Valid(bs[0].Req.Body))
	require.Equal(t, int64(20), gjson.Get(bs[0].Req.Body, "items.#").Int())
}

func TestModesDecideRecallAndRetain(t *testing.T) {
	off := defaultConfig()
	noRetain := on
	noRetain.RetainEnabled = false
	tests := []struct {
		c              settings
		mode           string
		optOut         bool
		recall, retain bool
	}{
		{on, modeNormal, false, true, true},
		{on, modeNormal, true, true, false},
		{on, modeReadOnly, false, true, false},
		{on, modeIgnored, false, false, false},
		{off, modeNormal, false, false, false},
		{noRetain, modeNormal, false, true, false},
	}
	for _, tc := range tests {
		require.Equal(t, tc.recall, recallRuns(tc.c, tc.mode), tc.mode)
		require.Equal(t, tc.retain, notRetained(tc.c, tc.mode, tc.optOut) == "", tc.mode)
	}
}

func FuzzParseRecall(f *testing.F) {
	f.Add(`{"results":[{"text":"a"}]}`)
	f.Add(`{"results":{}}`)
	f.Fuzz(func(t *testing.T, body string) {
		ms, _ := parseRecall(body)
		for _, m := range ms {
			if strings.TrimSpace(m.Text) == "" {
				t.Fatal("an empty memory")
			}
		}
		block := render([]recalled{{Bank: bank{bankProject, "p"}, Memories: ms}}, 1<<20)
		if block != "" && strings.Count(block, "\n- ") != len(ms) {
			t.Fatalf("%d memories, block %q", len(ms), block)
		}
		readResponses([]byte(body), 2)
	})
}

func FuzzFoldOutbox(f *testing.F) {
	f.Add(string(JobRecord("b", job("d1"), 10)) + `{"v":1,"op":"fail","id":"d1","bank":"b","n":2,"next":5}` + "\n")
	f.Add(`{"v":1,"op":"done","id":"x","bank":"b"}`)
	f.Fuzz(func(t *testing.T, data string) {
		o := FoldOutbox([]byte(data))
		seen := map[string]bool{}
		for _, j := range o.Pending {
			k := j.Bank + "\x00" + j.ID
			if seen[k] || !gjson.Valid(j.Item) {
				t.Fatalf("pending %+v", o.Pending)
			}
			seen[k] = true
		}
		// A done for every pending job empties it.
		var more []byte
		for _, j := range o.Pending {
			more = append(more, DoneRecord(j, 0)...)
		}
		if !o.Torn {
			if n := len(FoldOutbox(append([]byte(data), more...)).Pending); n != 0 {
				t.Fatalf("%d pending after their dones", n)
			}
		}
	})
}

func TestToolArgumentsReadTheSameHoweverTheyWereSpaced(t *testing.T) {
	require.Equal(t, `{"a":"x y\" z","b":[1,2]}`, compact("{ \"a\" : \"x y\\\" z\",\n \"b\": [1, 2] }"))
}

func TestQueriesLeaveTheMachineRedacted(t *testing.T) {
	for _, r := range []request{
		recallRequest(on, bank{bankProject, "p"}, "k", "deploy with "+secret),
		reflectRequest(on, bank{bankProject, "p"}, "deploy with "+secret, 1000),
	} {
		require.NotContains(t, r.Body, secret)
		require.Contains(t, r.Body, "deploy with [REDACTED:github-token]")
	}
}

// The folder's outbox after each append equals a fold of the whole file so
// far, whoever appended and wherever the appends cut the lines.
func TestTheFolderEqualsAFullFoldAfterEveryAppend(t *testing.T) {
	j1, j2 := JobRecord("b", job("d1"), 10), JobRecord("u", job("d2"), 11)
	pending := Job{ID: "d1", Bank: "b"}
	torn := `{"v":1,"op":"job","id":"d3","bank":"b","at":1,"item":{"con`
	whole := strings.TrimSuffix(string(JobRecord("b", job("d4"), 12)), "\n")
	cases := []struct {
		name    string
		appends []string
	}{
		{"own jobs, a fail, a done", []string{string(j1), string(j2), string(failRecord(pending, 20, "HTTP 500")), string(DoneRecord(pending, 21))}},
		{"a job queued again after its done", []string{string(j1), string(DoneRecord(pending, 21)), string(j1)}},
		{"a record cut mid-line by two writes", []string{string(j1[:17]), string(j1[17:40]), string(j1[40:]) + string(j2)}},
		{"a torn line, then a record sealed after it", []string{string(j1), torn, "\n" + string(j2)}},
		{"a whole record without its newline, then the next", []string{whole, "\n" + string(j1), string(DoneRecord(Job{ID: "d4", Bank: "b"}, 30))}},
		{"a torn line at the start, then foreign and own records", []string{torn, "\n", string(j2), string(j1)}},
		{"bad and blank lines between records", []string{"not json\n", "\n  \n", string(j1), `{"v":1,"op":"what","id":"x","bank":"b"}` + "\n", `{"v":1,"op":"job","id":"x","bank":"b"}` + "\n", string(j2)}},
		{"a lone newline and trailing spaces", []string{"\n", "   ", "\n" + string(j1)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var f folder
			var all []byte
			for i, a := range c.appends {
				f.add([]byte(a))
				all = append(all, a...)
				got := f.outbox()
				got.Pending = append(got.Pending[:0:0], got.Pending...) // fillItems fills in a copy, not the folder's
				for _, j := range got.Pending {
					require.Equal(t, "", j.Item, "a folder keeps no item")
				}
				require.True(t, fillItems(got.Pending, all, 0))
				require.Equal(t, FoldOutbox(all), got, "after append %d", i)
			}
		})
	}
}

func FuzzFolderEqualsFoldOutbox(f *testing.F) {
	f.Add(string(JobRecord("b", job("d1"), 10))+`{"v":1,"op":"done","id":"d1","bank":"b"}`+"\n"+`{"v":1,"op":"jo`, uint16(7), uint16(90))
	f.Add("not json\n\n"+string(JobRecord("u", job("d2"), 1)), uint16(0), uint16(3))
	f.Fuzz(func(t *testing.T, data string, a, b uint16) {
		i, j := int(a)%(len(data)+1), int(b)%(len(data)+1)
		if i > j {
			i, j = j, i
		}
		var fo folder
		for _, part := range []string{data[:i], data[i:j], data[j:]} {
			fo.add([]byte(part))
			fo.outbox() // reading a torn tail must not change what follows
		}
		want, got := FoldOutbox([]byte(data)), fo.outbox()
		// The items read back from where the folder says each record lies,
		// here from a span that starts at the first of them.
		if len(got.Pending) > 0 {
			lo := got.Pending[0].Off
			for _, j := range got.Pending {
				lo = min(lo, j.Off)
			}
			if !fillItems(got.Pending, []byte(data[lo:]), lo) {
				t.Fatalf("items not found where the folder says: %+v", got.Pending)
			}
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("cut at %d, %d:\nwant %+v\ngot  %+v", i, j, want, got)
		}
		// Each line ended that is a problem is where the folder says, whole
		// (a compaction moves it aside from there), and still unreadable.
		ended := len(got.Problems)
		if got.Torn {
			ended = len(fo.o.Problems)
		}
		if len(fo.bad) != ended {
			t.Fatalf("%d problems, %d bad spans", ended, len(fo.bad))
		}
		for _, sp := range fo.bad {
			line := data[sp.Off : sp.Off+sp.Len]
			if end := sp.Off + sp.Len; end < len(data) && data[end] != '\n' || !unreadable([]byte(line)) {
				t.Fatalf("bad span %+v is %q", sp, line)
			}
		}
	})
}

// The folder knows where each line it could not read lies, for a
// compaction to move it aside byte for byte (issue 19).
func TestTheFolderKnowsWhereEachUnreadableLineLies(t *testing.T) {
	rec := string(JobRecord("b", job("d1"), 10))
	tests := []struct {
		name, data string
		want       []span
	}{
		{"none", rec, nil},
		{"one between records", rec + "oops\n" + rec, []span{{len(rec), 4}}},
		{"an unknown op and a blank line", "\n" + `{"v":1,"op":"zap","id":"a","bank":"b"}` + "\n" + rec, []span{{1, 38}}},
		{"a torn last line is not one yet", rec + `{"v":1,"op":"jo`, nil},
		{"sealed, it is", rec + `{"v":1,"op":"jo` + "\n", []span{{len(rec), 15}}},
	}
	for _, tc := range tests {
		var fo folder
		fo.add([]byte(tc.data))
		require.Equal(t, tc.want, fo.bad, tc.name)
	}
}

func TestItemsAreReadOnlyFromTheJobsOwnRecord(t *testing.T) {
	data := append(JobRecord("b", job("d1"), 10), JobRecord("u", job("d2"), 11)...)
	o := FoldOutbox(data)
	require.Equal(t, string(itemJSON(job("d2"))), o.Pending[1].Item)
	for name, span := range map[string][]byte{
		"another job's record there": append(JobRecord("b", job("d9"), 10), JobRecord("u", job("d2"), 11)...),
		"another bank's":             append(JobRecord("x", job("d1"), 10), JobRecord("u", job("d2"), 11)...),
		"its done there":             append(DoneRecord(o.Pending[0], 12), data[len(DoneRecord(o.Pending[0], 12)):]...),
		"the file cut short":         data[:50],
		"the file emptied":           nil,
	} {
		jobs := append([]Job(nil), o.Pending...)
		require.False(t, fillItems(jobs, span, 0), name)
		require.Equal(t, "", jobs[0].Item, name)
	}
}

func TestBankPathEscapesAllButUnreservedBytesInCapitalHex(t *testing.T) {
	for id, want := range map[string]string{
		"pimem-r-1a2b": "/v1/default/banks/pimem-r-1a2b",
		"a b/é~_.":     "/v1/default/banks/a%20b%2F%C3%A9~_.",
		"?#%":          "/v1/default/banks/%3F%23%25",
	} {
		require.Equal(t, want, bankPath(id), id)
	}
}
