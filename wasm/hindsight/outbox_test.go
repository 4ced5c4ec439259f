package hindsight

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/tidwall/gjson"
)

func TestATurnIsQueuedOnceForEachSelectedBankAsTheMessagesLiveDocument(t *testing.T) {
	tr := turn{Content: "user: hi", Context: "pi session in k: hi", UserMs: 1700}
	recs := jobRecords(twoBanks, tr, "k", "s1", sourcePi, 9)
	item := func(tags ...string) Item {
		return Item{Content: "user: hi", Context: "pi session in k: hi", At: 1700, DocumentID: "pimem:s1:1700", Tags: tags, Source: sourcePi, Session: "s1"}
	}
	require.Equal(t, string(JobRecord("p", item("project:k", "session:s1", "source:pi"), 9))+
		string(JobRecord("u", item("project:k", "session:s1", "source:pi", "scope:user"), 9)), string(recs))
	require.Equal(t, 0, len(jobRecords(nil, tr, "k", "s1", sourcePi, 9)))
	o := FoldOutbox(jobRecords(twoBanks[:1], turn{Content: "c", UserMs: 5}, "k", "s2", sourceTool, 9))
	require.Equal(t, 1, len(o.Pending))
	require.Equal(t, "pimem:s2:5", o.Pending[0].ID)
	require.Equal(t, "tool", gjson.Get(o.Pending[0].Item, "metadata.source").String())
}

func TestABackgroundFlushIsTakenAsLostAfterTenMinutes(t *testing.T) {
	tests := []struct {
		since, now int64
		lost       bool
	}{
		{1000, 1000, false},
		{1000, 1000 + lostMs - 1, false},
		{1000, 1000 + lostMs, true},
		{1000, 1000 + 2*lostMs, true},
		{5000, 1000, false}, // a clock that went back: still out
	}
	for _, tc := range tests {
		require.Equal(t, tc.lost, flushLost(tc.since, tc.now), tc)
	}
}

func TestAFlushsAnswersBecomeDonesFailuresAndDeadLetters(t *testing.T) {
	c := on
	c.MaxAttempts = 3
	p1, p2, u1 := Job{ID: "d1", Bank: "p"}, Job{ID: "d2", Bank: "p", Attempts: 2}, Job{ID: "d3", Bank: "u", Attempts: 1}
	batches := []flushBatch{{Bank: "p", Jobs: []Job{p1, p2}}, {Bank: "u", Jobs: []Job{u1}}}
	tests := []struct {
		name string
		rs   []response
		want flushed
	}{
		{"both taken", []response{{Status: 200, Body: tookBody}, {Status: 202, Body: tookBody}}, flushed{
			Outbox: concat(DoneRecord(p1, 7), DoneRecord(p2, 7), DoneRecord(u1, 7)), Sent: 3}},
		{"one bank down: a failure, and a dead letter at the third", []response{{Status: 503}, {Status: 200, Body: tookBody}}, flushed{
			Outbox: concat(failRecord(p1, 7, "HTTP 503"), DoneRecord(p2, 7), DoneRecord(u1, 7)),
			Dead:   deadRecord(p2, 7, "HTTP 503"), Sent: 1, Failed: 2, Problem: "p: HTTP 503"}},
		{"a 200 that is not Hindsight's is a failure that says what came back", []response{{Status: 200, Body: "<!doctype html><title>Welcome to nginx!</title>"}, {Status: 200, Body: tookBody}}, flushed{
			Outbox: concat(failRecord(p1, 7, nginx), DoneRecord(p2, 7), DoneRecord(u1, 7)),
			Dead:   deadRecord(p2, 7, nginx), Sent: 1, Failed: 2, Problem: "p: " + nginx}},
		{"both down: the last problem is named", []response{{Error: "refused"}, {Error: "timed out after 5000 ms"}}, flushed{
			Outbox: concat(failRecord(p1, 7, "refused"), DoneRecord(p2, 7), failRecord(u1, 7, "timed out after 5000 ms")),
			Dead:   deadRecord(p2, 7, "refused"), Failed: 3, Problem: "u: timed out after 5000 ms"}},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, settle(c, batches, tc.rs, 7), tc.name)
	}
	require.Equal(t, []request{{URL: "a"}, {URL: "b"}}, batchRequests([]flushBatch{{Req: request{URL: "a"}}, {Req: request{URL: "b"}}}))
}

// tookBody is how Hindsight 1.1.0 answers an async retain.
const tookBody = `{"success":true,"bank_id":"p","items_count":2,"async":true,"operation_id":"op-1"}`

const nginx = "the answer is not Hindsight's: an HTML page (Welcome to nginx!)"

func TestOnlyHindsightsOwnAnswerMarksARetainDone(t *testing.T) {
	tests := []struct {
		name string
		r    response
		want string
	}{
		{"an async retain's answer", response{Status: 200, Body: tookBody}, ""},
		{"a sync retain's answer", response{Status: 200, Body: `{"success":true,"bank_id":"b","items_count":1,"async":false,"usage":{"total_tokens":3}}`}, ""},
		{"a wrong URL's page", response{Status: 200, Body: "\n<!DOCTYPE html>\n<html><head><TITLE> Welcome to\n nginx!</TITLE>"}, nginx},
		{"a page without a title", response{Status: 200, Body: "<html><body>hi"}, "the answer is not Hindsight's: an HTML page"},
		{"broken JSON", response{Status: 200, Body: `{"success":tr`}, `the answer is not Hindsight's: not JSON: "{\"success\":tr"`},
		{"an empty body", response{Status: 204}, "the answer is not Hindsight's: an empty body"},
		{"another server's JSON", response{Status: 200, Body: `{"ok":true}`}, `the answer is not Hindsight's: JSON without success, bank_id and items_count: {"ok":true}`},
		{"a list", response{Status: 200, Body: `[1]`}, `the answer is not Hindsight's: JSON without success, bank_id and items_count: [1]`},
		{"a count that is not a number", response{Status: 200, Body: `{"success":true,"bank_id":"b","items_count":"1"}`}, `the answer is not Hindsight's: JSON without success, bank_id and items_count: {"success":true,"bank_id":"b","items_count":"1"}`},
		{"success false", response{Status: 200, Body: `{"success":false,"bank_id":"b","items_count":0}`}, `the server answered success false: {"success":false,"bank_id":"b","items_count":0}`},
		{"a 500 stays a 500", response{Status: 500, Body: tookBody}, "HTTP 500"},
		{"no answer", response{Error: "refused"}, "refused"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, retainProblem(tc.r), tc.name)
	}
}

func TestFailuresAndDeadLettersKeepNoURLSecret(t *testing.T) {
	j := Job{ID: "d1", Bank: "b"}
	const p = "Request cannot be constructed from a URL that includes credentials: http://me:hunter2@h:1/v1/x?token=s3cret"
	for _, r := range [][]byte{failRecord(j, 1, p), deadRecord(j, 1, p), []byte(flushed{Dead: deadRecord(j, 1, p), Problem: "b: " + p}.gaveUp(8, "d"))} {
		require.NotContains(t, string(r), "hunter2")
		require.NotContains(t, string(r), "s3cret")
		require.Contains(t, string(r), "http://***@h:1/v1/x?token=***")
	}
	o := FoldOutbox(concat(JobRecord("b", job("d1"), 1), failRecord(j, 1, p)))
	st := statusText(status{URL: "http://h:1", Mode: modeNormal, Outbox: "/o", Box: o, Now: 1})
	require.NotContains(t, st, "hunter2")
}

// A file read anew is folded a piece at a time: whatever the pieces, the
// fold is the whole file's.
func TestAnOutboxFoldedInPiecesIsTheWholeFilesFold(t *testing.T) {
	var data []byte
	for i := 0; i < 40; i++ {
		data = append(data, JobRecord("b", job("d"+strconv.Itoa(i)), 1)...)
		if i%3 == 0 {
			data = append(data, DoneRecord(Job{ID: "d" + strconv.Itoa(i), Bank: "b"}, 2)...)
		}
	}
	data = append(data, "not json\n"+`{"v":1,"op":"job","id":"t","bank":"b"`...)
	whole := FoldOutbox(data)
	for _, piece := range []int{1, 7, 100, 4096} {
		var f folder
		for at := 0; at < len(data); at += piece {
			f.add(data[at:min(at+piece, len(data))])
		}
		o := f.outbox()
		fillItems(o.Pending, data, 0)
		require.Equal(t, whole, o, "pieces of %d", piece)
	}
}

func TestALineOverMaxLineIsAProblemAndTheLinesAfterItStillFold(t *testing.T) {
	var f folder
	f.add(JobRecord("b", job("d1"), 1))
	long := []byte(strings.Repeat("x", 1<<20))
	for i := 0; i <= maxLine>>20; i++ {
		f.add(long)
	}
	require.Equal(t, []string{"line 2: torn (a write that did not finish), longer than 16 MiB"}, f.outbox().Problems)
	f.add([]byte("\n"))
	after := JobRecord("b", job("d2"), 1)
	f.add(after)
	o := f.outbox()
	require.Equal(t, []string{"line 2: longer than 16 MiB (not read)"}, o.Problems)
	require.Equal(t, 2, len(o.Pending))
	require.Equal(t, len(JobRecord("b", job("d1"), 1))+(maxLine>>20+1)<<20+1, o.Pending[1].Off)
	require.False(t, o.Torn)
}

func TestAClaimedJobIsNotDueToAnotherProcessUntilItsClaimEndsOrRunsOut(t *testing.T) {
	data := concat(JobRecord("b", job("d1"), 1), JobRecord("b", job("d2"), 1))
	o := FoldOutbox(data)
	data = append(data, claimRecords(o.Pending[:1], 5, 100, "pa/1")...)
	o = FoldOutbox(data)
	ids := func(js []Job) (out []string) {
		for _, j := range js {
			out = append(out, j.ID)
		}
		return out
	}
	require.Equal(t, []string{"d2"}, ids(o.due(50, "pb/2")))
	require.Equal(t, []string{"d1", "d2"}, ids(o.due(50, "pa/1")), "its own claim: a flush taken as lost, or the session's end")
	require.Equal(t, []string{"d2"}, ids(o.due(50, "")))
	require.Equal(t, []string{"d1", "d2"}, ids(o.due(100, "pb/2")), "a claim runs out")
	o = FoldOutbox(append(data, failRecord(o.Pending[0], 60, "HTTP 500")...))
	require.Equal(t, []string{"d1", "d2"}, ids(o.due(2060, "pb/2")), "a failure ends the claim")
}

func TestCompactRecordsKeepEveryJobAsItStands(t *testing.T) {
	var data []byte
	data = append(data, JobRecord("b", job("d1"), 1)...)
	data = append(data, JobRecord("b", job("d2"), 2)...)
	data = append(data, JobRecord("u", job("d3"), 3)...)
	data = append(data, DoneRecord(Job{ID: "d2", Bank: "b"}, 4)...)
	o := FoldOutbox(data)
	data = append(data, failRecord(o.Pending[1], 5, "HTTP 503")...)
	data = append(data, claimRecords(o.Pending[:1], 6, 99, "s/1")...)
	o = FoldOutbox(data)
	require.Equal(t, int64(99), o.Pending[0].Claimed)
	again := FoldOutbox(compactRecords(o.Pending))
	require.Equal(t, len(o.Pending), len(again.Pending))
	for i := range o.Pending {
		a, b := o.Pending[i], again.Pending[i]
		a.Off, a.Len, b.Off, b.Len = 0, 0, 0, 0
		require.Equal(t, a, b)
	}
	require.Equal(t, 0, len(again.Problems))
}

func TestGivingUpOnJobsSaysHowManyAndWhereTheyAreKept(t *testing.T) {
	require.Equal(t, "", flushed{Problem: "p: HTTP 503"}.gaveUp(8, "/a/dead.jsonl"))
	f := flushed{Dead: concat(deadRecord(Job{ID: "1"}, 1, "x"), deadRecord(Job{ID: "2"}, 1, "x")), Problem: "p: HTTP 503"}
	require.Equal(t, "pi-memory: Hindsight gave up on 2 retain jobs after 8 failures (p: HTTP 503); they are kept in /a/dead.jsonl.", f.gaveUp(8, "/a/dead.jsonl"))
}

func concat(bs ...[]byte) []byte {
	var out []byte
	for _, b := range bs {
		out = append(out, b...)
	}
	return out
}

// Every record is one line: gaveUp counts dead letters by their newlines.
func TestEveryRecordIsOneLine(t *testing.T) {
	j := Job{ID: "d1", Bank: "b", Item: `{"content":"a\nb"}`}
	for _, r := range [][]byte{JobRecord("b", job("d1"), 1), DoneRecord(j, 1), failRecord(j, 1, "x\ny"), deadRecord(j, 1, "x")} {
		require.Equal(t, 1, strings.Count(string(r), "\n"), string(r))
		require.True(t, strings.HasSuffix(string(r), "\n"))
	}
}

func FuzzRetainProblem(f *testing.F) {
	f.Add(200, tookBody)
	f.Add(200, "<html><title>x")
	f.Add(200, "<TITLE>\xff</title")
	f.Add(503, "")
	f.Fuzz(func(t *testing.T, status int, body string) {
		p := retainProblem(response{Status: status, Body: body})
		if p == "" && (status < 200 || status > 299 || !gjson.Valid(strings.TrimSpace(body)) || !gjson.Get(body, "success").Bool()) {
			t.Fatalf("taken: %d %q", status, body)
		}
		if len(p) > 400 {
			t.Fatalf("%d bytes of problem", len(p))
		}
	})
}

func FuzzHideURLSecrets(f *testing.F) {
	f.Add("http://me:pw@h:1/x?token=abc&b=2#f")
	f.Add("a://@?&=")
	f.Add("://://@@")
	f.Fuzz(func(t *testing.T, s string) {
		once := hideURLSecrets(s)
		if hideURLSecrets(once) != once {
			t.Fatalf("not stable: %q -> %q", s, once)
		}
		if u := "http://user:Secr3tPw@host/p?k=Secr3tQ"; strings.Contains(hideURLSecrets(s+" "+u), "Secr3t") && !strings.Contains(s, "Secr3t") {
			t.Fatalf("a secret kept after %q", s)
		}
	})
}
