package lifecycle

import (
	"encoding/json"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/tidwall/gjson"
)

// fakeConcepts are the words the fake embedder knows to mean one thing:
// each group is one dimension, so "beach" and "sea" are near while sharing
// no word. Every other word is hashed to one of the other dimensions.
var fakeConcepts = [][]string{
	{"beach", "sea", "seaside", "coast", "shore", "ocean"},
	{"favorite", "favourite", "top", "pick", "preferred"},
	{"dog", "pup", "puppy", "hound"},
}

const fakeDims = 64

// fakeEmbed is a deterministic embedding of text: a bag of its words'
// dimensions.
func fakeEmbed(text string) []float64 {
	v := make([]float64, fakeDims)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		dim := -1
		for i, g := range fakeConcepts {
			for _, c := range g {
				if c == w {
					dim = i
				}
			}
		}
		if dim < 0 {
			h := fnv.New32a()
			h.Write([]byte(w))
			dim = len(fakeConcepts) + int(h.Sum32()%uint32(fakeDims-len(fakeConcepts)))
		}
		v[dim]++
	}
	v[fakeDims-1] += 0.01 // never all zero
	return v
}

// fakeEndpoint answers one request of an http ask as an OpenAI-compatible
// endpoint would, counting the texts it embedded.
func fakeEndpoint(t *testing.T, req gjson.Result, texts *[]string) map[string]any {
	var body struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	require.NoError(t, json.Unmarshal([]byte(req.Get("body").String()), &body))
	var data []map[string]any
	for i, in := range body.Input {
		data = append(data, map[string]any{"index": i, "embedding": fakeEmbed(in)})
		*texts = append(*texts, in)
	}
	b, _ := json.Marshal(map[string]any{"data": data, "model": body.Model})
	return map[string]any{"status": 200, "body": string(b)}
}

// embedRig is a rig whose http asks are answered by answer (nil: the fake
// endpoint), background or not, until none is left; it returns the last
// envelope's effects, the asks' left out.
func (r *rig) answerHTTP(out []byte, answer func(req gjson.Result) map[string]any) []gjson.Result {
	r.t.Helper()
	var kept []gjson.Result
	queue := []gjson.Result{gjson.ParseBytes(out)}
	for n := 0; len(queue) > 0; n++ {
		require.True(r.t, n < 1000, "asks that never end")
		env := queue[0]
		queue = queue[1:]
		for _, e := range env.Get("effects").Array() {
			if e.Get("t").String() != "http" {
				kept = append(kept, e)
				continue
			}
			var answers []any
			if len(e.Get("requests").Array()) == 0 && !e.Get("background").Bool() {
				r.yields++
			}
			for _, req := range e.Get("requests").Array() {
				answers = append(answers, answer(req))
			}
			if answers == nil {
				answers = []any{}
			}
			b, _ := json.Marshal(map[string]any{"id": e.Get("id").String(), "value": answers})
			queue = append(queue, gjson.ParseBytes(r.e.Handle("resume", b)))
		}
	}
	return kept
}

// embeddingsRig is a rig with an endpoint configured and an earlier
// session of three exchanges, still for a day.
func embeddingsRig(t *testing.T, config string) (*rig, string) {
	r := newRig(t, false)
	require.NoError(t, os.MkdirAll(filepath.Join(r.agent, "pi-memory"), 0o755))
	if config != "" {
		require.NoError(t, os.WriteFile(filepath.Join(r.agent, "pi-memory", "embeddings.json"), []byte(config), 0o644))
	}
	past := filepath.Join(r.sessionsDir(), "2026-02-20T09-00-00-000Z_s0.jsonl")
	require.NoError(t, os.WriteFile(past, []byte(sessionJSONL("s0", r.project,
		"where is the team offsite this year",
		"the offsite is by the sea in Porto",
		"kiwi harvest is in May",
		"deploys go through Helm charts",
		"password=hunter2hunter2 is the staging login",
	)), 0o644))
	at := time.UnixMilli(r.h.now - day)
	require.NoError(t, os.Chtimes(past, at, at))
	return r, past
}

const localOllama = `{"url":"http://127.0.0.1:11434/v1/embeddings","model":"fake"}`

func (r *rig) startEmbedding(texts *[]string) []gjson.Result {
	b, _ := json.Marshal(map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "hasUI": false, "mode": "rpc", "reason": "startup", "sessionId": "now"})
	return r.answerHTTP(r.e.Handle("session_start", b), func(req gjson.Result) map[string]any { return fakeEndpoint(r.t, req, texts) })
}

// startAgain starts another session of the same process (pi's /new), the
// fake endpoint answering what it embeds.
func (r *rig) startAgain(texts *[]string) {
	b, _ := json.Marshal(map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "mode": "rpc", "sessionId": "now2"})
	r.answerHTTP(r.e.Handle("session_start", b), func(req gjson.Result) map[string]any { return fakeEndpoint(r.t, req, texts) })
}

// settleEmbedding is pi idle after a run: the background work embeds more.
func (r *rig) settleEmbedding(texts *[]string) {
	r.answerHTTP(r.e.Handle("agent_settled", []byte(`{}`)), func(req gjson.Result) map[string]any { return fakeEndpoint(r.t, req, texts) })
}

// search is a memory_search for q, the fake endpoint answering, counting
// the texts it embeds in texts.
func (r *rig) search(q string, texts *[]string) string {
	r.t.Helper()
	return r.searchWith(q, func(req gjson.Result) map[string]any { return fakeEndpoint(r.t, req, texts) })
}

// findsTheParaphrase searches "beach", which no message holds, and finds
// the earlier session's turn that paraphrases it, cited by its line.
func (r *rig) findsTheParaphrase(texts *[]string, past string) string {
	r.t.Helper()
	got := r.search("beach", texts)
	require.Contains(r.t, got, "the offsite is by the sea in Porto")
	require.Contains(r.t, got, past+":3")
	return got
}

// embedEarlier starts the session, which embeds the earlier session's five
// messages, and is the cache they are written to.
func (r *rig) embedEarlier(texts *[]string) string {
	r.t.Helper()
	r.startEmbedding(texts)
	require.Equal(r.t, 5, len(*texts))
	return r.cacheFile()
}

// sessionRecords adds a session's records to a cache being written: n
// vectors, all alike, of its lines 2 to n+1, then its closing record when
// closed (n messages).
func sessionRecords(b *strings.Builder, file string, n int, closed bool) {
	for line := 2; line < n+2; line++ {
		b.WriteString("0000000000000001 " + strconv.Itoa(line) + " " + strings.Repeat("0a", fakeDims-1) + "01 " + file + "\n")
	}
	if closed {
		b.WriteString("0000000000000001 " + strconv.Itoa(n) + " - " + file + "\n")
	}
}

// cacheFile is the one cache file the embedding wrote.
func (r *rig) cacheFile() string {
	r.t.Helper()
	cache, err := filepath.Glob(filepath.Join(r.agent, "pi-memory", "vectors", "*.vec"))
	require.NoError(r.t, err)
	require.Equal(r.t, 1, len(cache))
	return cache[0]
}

func (r *rig) searchWith(q string, answer func(req gjson.Result) map[string]any) string {
	r.t.Helper()
	for _, e := range r.answerHTTP(r.e.Handle("tool", []byte(`{"name":"memory_search","params":{"query":`+quote(q)+`}}`)), answer) {
		if e.Get("t").String() == "tool_result" {
			return e.Get("text").String()
		}
	}
	r.t.Fatalf("no tool_result")
	return ""
}

func TestWithoutEmbeddingsJSONSearchAsksForNothing(t *testing.T) {
	r, _ := embeddingsRig(t, "")
	var texts []string
	r.startEmbedding(&texts)
	asked := 0
	got := r.searchWith("beach", func(gjson.Result) map[string]any { asked++; return nil })
	require.Equal(t, 0, asked)
	require.Equal(t, 0, len(texts))
	require.NotContains(t, got, "offsite")
	require.NotContains(t, got, "Embeddings")
	_, err := os.Stat(filepath.Join(r.agent, "pi-memory", "vectors"))
	require.True(t, os.IsNotExist(err), "no cache without a configuration")
}

func TestAParaphraseFindsTheTurnThatSharesNoWordWithIt(t *testing.T) {
	r, past := embeddingsRig(t, localOllama)
	var texts []string
	r.startEmbedding(&texts)
	require.Equal(t, 5, len(texts), "every message embedded at session start, in the background: %q", texts)
	require.Contains(t, strings.Join(texts, "\n"), "[REDACTED", "redacted before it is sent")
	require.NotContains(t, strings.Join(texts, "\n"), "hunter2")
	cache, err := filepath.Glob(filepath.Join(r.agent, "pi-memory", "vectors", "fake-*.vec"))
	require.NoError(t, err)
	require.Equal(t, 1, len(cache))
	data, _ := os.ReadFile(cache[0])
	require.Equal(t, 6, strings.Count(string(data), "\n"), "five vectors and the session's close: %s", data)
	require.NotContains(t, string(data), "offsite")

	queries := 0
	got := r.searchWith("beach", func(req gjson.Result) map[string]any {
		queries++
		require.Equal(t, int64(1000), req.Get("timeoutMs").Int())
		return fakeEndpoint(t, req, &texts)
	})
	require.Equal(t, 1, queries)
	require.Contains(t, got, "the offsite is by the sea in Porto")
	require.Contains(t, got, past+":3", "a fused hit cites its line")

	// The next settle embeds nothing more: the session is embedded whole.
	before := len(texts)
	r.settleEmbedding(&texts)
	require.Equal(t, before, len(texts))
}

func TestAnEndpointThatFailsAtSearchLeavesTheWordRanking(t *testing.T) {
	r, _ := embeddingsRig(t, localOllama)
	var texts []string
	r.startEmbedding(&texts)
	for _, answer := range []map[string]any{
		{"error": "timed out after 1000 ms"},
		{"status": 500, "body": `{"error":{"message":"model not found"}}`},
		{"status": 200, "body": `{"data":[]}`},
	} {
		got := r.searchWith("kiwi", func(gjson.Result) map[string]any { return answer })
		require.Contains(t, got, "kiwi harvest is in May")
		require.Contains(t, got, "Embeddings unavailable (")
		require.Contains(t, got, "ranked by words alone")
	}
}

func TestMessagesNotEmbeddedYetAreCountedAndACorruptCacheIsSkipped(t *testing.T) {
	r, _ := embeddingsRig(t, localOllama)
	var texts []string
	// The endpoint is down while the session starts: nothing is embedded.
	r.answerHTTP(r.e.Handle("session_start", []byte(`{"cwd":`+quote(r.project)+`,"agentDir":`+quote(r.agent)+`,"trusted":true,"mode":"rpc","sessionId":"now"}`)),
		func(gjson.Result) map[string]any { return map[string]any{"error": "connection refused"} })
	got := r.search("kiwi", &texts)
	require.Contains(t, got, "kiwi harvest is in May")
	require.Contains(t, got, "not embedded yet")
	require.Equal(t, 0, len(texts), "no query is sent while nothing is embedded")

	// A cache with a torn and a foreign line is read past them.
	dir := filepath.Join(r.agent, "pi-memory", "vectors")
	r.startEmbedding(&texts)
	cache, _ := filepath.Glob(filepath.Join(dir, "*.vec"))
	require.Equal(t, 1, len(cache))
	data, _ := os.ReadFile(cache[0])
	require.NoError(t, os.WriteFile(cache[0], append([]byte("not a record\n0000000000000001 3 zz /x\n"), data...), 0o644))
	r.start(false, true)
	got = r.search("beach", &texts)
	require.Contains(t, got, "the offsite is by the sea in Porto")
	require.Contains(t, got, "Embeddings: 2 records of "+cache[0]+" could not be read, skipped")
}

// A session whose file changed is embedded again, whole, once it is still;
// /memory search fuses as memory_search does.
func TestASessionThatChangedIsEmbeddedAgain(t *testing.T) {
	r, past := embeddingsRig(t, localOllama)
	var texts []string
	r.startEmbedding(&texts)
	require.Equal(t, 5, len(texts))
	f, err := os.OpenFile(past, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	f.WriteString(`{"type":"message","id":"m9","parentId":null,"timestamp":"2026-02-20T09:30:00.000Z","message":{"role":"user","content":"the seaside hotel is booked"}}` + "\n")
	f.Close()
	at := time.UnixMilli(r.h.now - 60_000)
	require.NoError(t, os.Chtimes(past, at, at))
	r.settleEmbedding(&texts)
	require.Equal(t, 11, len(texts), "the six messages again: %q", texts[5:])
	r.search("beach", &texts)
	r.mem("search beach")
	require.Contains(t, r.text(), "the offsite is by the sea in Porto")
}

func TestAnInvalidConfigurationIsSaidAndTurnsOnlyEmbeddingsOff(t *testing.T) {
	r, _ := embeddingsRig(t, `{"url":"http://127.0.0.1:11434/v1/embeddings","model":"m","apiKeyEnv":"sk-proj-abcdefghijklmnop0123456789"}`)
	var texts []string
	effects := r.startEmbedding(&texts)
	said := ""
	for _, e := range effects {
		said += e.Get("text").String() + "\n"
	}
	require.Contains(t, said, "embeddings are off")
	require.Contains(t, said, "never the key itself")
	require.NotContains(t, said, "sk-proj-abcdefghijklmnop0123456789")
	require.Equal(t, 0, len(texts))
	got := r.searchWith("kiwi", func(gjson.Result) map[string]any { t.Fatal("asked"); return nil })
	require.Contains(t, got, "kiwi harvest is in May")
}

func TestTheKeyIsNamedForTheHostNeverHeld(t *testing.T) {
	r, _ := embeddingsRig(t, `{"url":"https://api.example.com/v1/embeddings","model":"m","apiKeyEnv":"EXAMPLE_KEY","dimensions":32}`)
	var texts []string
	b, _ := json.Marshal(map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "mode": "rpc", "sessionId": "now"})
	seen := 0
	r.answerHTTP(r.e.Handle("session_start", b), func(req gjson.Result) map[string]any {
		seen++
		require.Equal(t, "EXAMPLE_KEY", req.Get("bearerEnv").String())
		require.False(t, req.Get("headers.Authorization").Exists(), "no key in the request")
		require.Equal(t, int64(32), gjson.Get(req.Get("body").String(), "dimensions").Int())
		return fakeEndpoint(t, req, &texts)
	})
	require.True(t, seen > 0, "asked")
}

func TestNoMemoryEmbedsNothing(t *testing.T) {
	r, _ := embeddingsRig(t, localOllama)
	b, _ := json.Marshal(map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "mode": "rpc", "sessionId": "now", "flags": map[string]any{"no-memory": true}})
	r.answerHTTP(r.e.Handle("session_start", b), func(gjson.Result) map[string]any { t.Fatal("asked"); return nil })
	_, err := os.Stat(filepath.Join(r.agent, "pi-memory", "vectors"))
	require.True(t, os.IsNotExist(err), "no write")
}

// A cache of megabytes is read in slices, pi's loop running between them
// (decision 018), and so is the cosine over what it holds: the search still
// finds the paraphrase.
func TestALargeCacheIsReadAndRankedInSlices(t *testing.T) {
	r, past := embeddingsRig(t, localOllama)
	var texts []string
	cache := r.embedEarlier(&texts)
	f, err := os.OpenFile(cache, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	var b strings.Builder
	for i := 0; i < 12000; i++ {
		sessionRecords(&b, filepath.Join(r.sessionsDir(), "2025-01-01T00-00-00-000Z_x"+strconv.Itoa(i)+".jsonl"), 1, false)
	}
	_, err = f.WriteString(b.String())
	require.NoError(t, err)
	f.Close()
	r.yields = 0
	r.startAgain(&texts)
	r.yields = 0
	r.findsTheParaphrase(&texts, past)
	require.True(t, r.yields >= 2, "the cosine over 12,005 vectors in slices: %d yields", r.yields)
}

// A cache whose last record is cut off (a writer killed mid-line, or one
// appending now) is read up to it: the search ends, with the vectors read.
func TestACacheWithATornLastRecordIsSearched(t *testing.T) {
	for _, tail := range []string{"0000000000000001 2 0a", strings.Repeat("\x00", 9000), "0000000000000001 2 " + strings.Repeat("0a", 5000)} {
		r, past := embeddingsRig(t, localOllama)
		var texts []string
		cache := r.embedEarlier(&texts)
		f, err := os.OpenFile(cache, os.O_APPEND|os.O_WRONLY, 0)
		require.NoError(t, err)
		f.WriteString(tail)
		f.Close()
		r.start(false, true)
		got := r.search("beach", &texts)
		require.Contains(t, got, past+":3")
	}
}

// A cache past its bound (a sparse gigabyte) is read up to the bound, said,
// and the search ends.
func TestACacheOfAGigabyteIsReadToItsBound(t *testing.T) {
	r, _ := embeddingsRig(t, localOllama)
	var texts []string
	cache := r.embedEarlier(&texts)
	require.NoError(t, os.Truncate(cache, 1<<30))
	r.start(false, true)
	got := r.search("beach", &texts)
	require.Contains(t, got, "the offsite is by the sea in Porto")
	require.Contains(t, got, "reached its bound") // read to its bound, not to its end (no timing: tests never assert on speed)
}

// A cache file that is not one (a folder, a FIFO, a link to /dev/zero or
// elsewhere) or holds what no record is (a 10 MB line, NUL bytes, a path
// through "..") leaves the word ranking as it is, and the search says the
// cache cannot be used or what was skipped, and how to rebuild it.
func TestABadCacheFileIsSaidAndTheWordsStand(t *testing.T) {
	for _, name := range []string{"10MBline", "nul", "dotdot", "devzero", "fifo", "dir", "elsewhere", "notafolder"} {
		t.Run(name, func(t *testing.T) {
			r, past := embeddingsRig(t, localOllama)
			var texts []string
			cache := r.embedEarlier(&texts)
			data, _ := os.ReadFile(cache)
			switch name {
			case "10MBline":
				os.WriteFile(cache, append([]byte(strings.Repeat("x", 10<<20)+"\n"), data...), 0o644)
			case "nul":
				os.WriteFile(cache, append([]byte("0000000000000001 2 0a0a /a\x00b\n\x00\x00\x00\n"), data...), 0o644)
			case "dotdot":
				lines := strings.ReplaceAll(string(data), past, filepath.Join(filepath.Dir(past), "..", filepath.Base(filepath.Dir(past)), filepath.Base(past)))
				os.WriteFile(cache, []byte(lines), 0o644)
			case "devzero":
				os.Remove(cache)
				os.Symlink("/dev/zero", cache)
			case "fifo":
				os.Remove(cache)
				syscall.Mkfifo(cache, 0o644)
			case "dir":
				os.Remove(cache)
				os.Mkdir(cache, 0o755)
			case "notafolder":
				os.RemoveAll(filepath.Dir(cache))
				os.WriteFile(filepath.Dir(cache), nil, 0o644)
			case "elsewhere":
				other := filepath.Join(t.TempDir(), "x.vec")
				os.WriteFile(other, data, 0o644)
				os.Remove(cache)
				os.Symlink(other, cache)
			}
			r.start(false, true)
			got := r.search("beach kiwi", &texts)
			_ = past
			require.Contains(t, got, "kiwi harvest")
			if name == "devzero" || name == "fifo" || name == "dir" || name == "notafolder" {
				require.Contains(t, got, "): it is derived, delete it to rebuild it.")
			}
		})
	}
}

// A query's vector of other dimensions than the cache's (another model at
// the endpoint) is said, not a silent ranking by words; an answer past its
// bound (a query's: 128 KB) is said as that, not parsed.
func TestAQueryVectorOfOtherDimensionsOrTooLargeIsSaid(t *testing.T) {
	r, _ := embeddingsRig(t, localOllama)
	var texts []string
	r.startEmbedding(&texts)
	got := r.searchWith("kiwi one", func(req gjson.Result) map[string]any {
		return map[string]any{"status": 200, "body": `{"data":[{"index":0,"embedding":[1]}]}`}
	})
	require.Contains(t, got, "kiwi harvest is in May")
	require.Contains(t, got, "the endpoint's vectors have 1 dimensions, those of ")
	got = r.searchWith("kiwi two", func(req gjson.Result) map[string]any {
		require.Equal(t, int64(128<<10), req.Get("maxBytes").Int())
		return map[string]any{"status": 200, "body": `{"data":[{"index":0,"embedding":[1,`, "truncated": true}
	})
	require.Contains(t, got, "kiwi harvest is in May")
	require.Contains(t, got, "Embeddings unavailable (the answer is larger than 128 KB)")
}

// A cache holding the most vectors a session holds (30,000) before a
// session's: that session, once embedded, is closed like any other, not
// embedded again and again (the same texts sent until the cache reached its
// bound); the vectors not held are said.
func TestASessionPastTheVectorsHeldIsEmbeddedOnce(t *testing.T) {
	r, past := embeddingsRig(t, localOllama)
	var texts []string
	cache := r.embedEarlier(&texts)
	var b strings.Builder
	for i := 0; i < 30000; i++ {
		sessionRecords(&b, filepath.Join(r.sessionsDir(), "2025-01-01T00-00-00-000Z_x"+strconv.Itoa(i)+".jsonl"), 1, false)
	}
	require.NoError(t, os.WriteFile(cache, []byte(b.String()), 0o644))
	r.startAgain(&texts)
	require.Equal(t, 10, len(texts), "embedded once more, not again and again")
	r.settleEmbedding(&texts)
	require.Equal(t, 10, len(texts))
	got := r.search("kiwi", &texts)
	require.Contains(t, got, "5 vectors of the oldest sessions are not searched: the newest 30000 are held.")
	_ = past
}

// A cache at its byte bound, of older sessions than one not embedded yet:
// the cache is rewritten with the newest sessions' records, in half its
// bound, and the newer session is embedded and searched; the older ones,
// closed, are not embedded again.
func TestACacheAtItsBoundMakesRoomForANewerSession(t *testing.T) {
	r, past := embeddingsRig(t, localOllama)
	var texts []string
	cache := r.embedEarlier(&texts)
	var b strings.Builder
	for i := 9999; b.Len() <= 48<<20; i-- {
		file := filepath.Join(r.sessionsDir(), "2025-01-01T00-00-00-000Z_x"+strconv.Itoa(i)+".jsonl")
		sessionRecords(&b, file, 200, true)
	}
	require.NoError(t, os.WriteFile(cache, []byte(b.String()), 0o644))
	r.startAgain(&texts)
	require.Equal(t, 10, len(texts), "the newer session embedded at the bound")
	info, err := os.Stat(cache)
	require.NoError(t, err)
	require.True(t, info.Size() < 48<<20/2+1<<20, "rewritten to half its bound: %d bytes", info.Size())
	data, _ := os.ReadFile(cache)
	for _, x := range []string{"x9999", "x9700"} {
		closed := "0000000000000001 200 - " + filepath.Join(r.sessionsDir(), "2025-01-01T00-00-00-000Z_"+x+".jsonl") + "\n"
		require.True(t, strings.Contains(string(data), closed), "%s closed", x)
	}
	vectorOf := func(x string) string {
		return "01 " + filepath.Join(r.sessionsDir(), "2025-01-01T00-00-00-000Z_"+x+".jsonl") + "\n"
	}
	require.True(t, strings.Contains(string(data), vectorOf("x9999")), "the newest sessions' vectors kept")
	require.True(t, !strings.Contains(string(data), vectorOf("x9700")), "the oldest sessions' vectors dropped")
	r.settleEmbedding(&texts)
	require.Equal(t, 10, len(texts), "nothing embedded again")
	got := r.findsTheParaphrase(&texts, past)
	require.NotContains(t, got, "reached its bound")
}

// A cache at its byte bound of newer sessions than the one waiting (the end
// of a first build, newest first) is not rewritten for it: it would be the
// first dropped.
func TestACacheAtItsBoundOfNewerSessionsStaysAsItIs(t *testing.T) {
	r, _ := embeddingsRig(t, localOllama)
	var texts []string
	cache := r.embedEarlier(&texts)
	var b strings.Builder
	for i := 0; b.Len() <= 48<<20; i++ {
		// Long names: the bound in bytes is reached before the vectors held.
		file := filepath.Join(r.sessionsDir(), "2027-01-01T00-00-00-000Z_x"+strconv.Itoa(i)+strings.Repeat("-", 2000)+".jsonl")
		sessionRecords(&b, file, 1, true)
	}
	require.NoError(t, os.WriteFile(cache, []byte(b.String()), 0o644))
	r.startAgain(&texts)
	r.settleEmbedding(&texts)
	require.Equal(t, 5, len(texts), "nothing embedded")
	data, err := os.ReadFile(cache)
	require.NoError(t, err)
	require.True(t, string(data) == b.String(), "the cache as it was")
	require.Contains(t, r.search("kiwi", &texts), "reached its bound")
}

// A cache deleted and written again by another process, longer than this
// one had read of it, is read again from its start: not from the old
// offset, in the middle of a record of the new file, mixing the two.
func TestACacheReplacedByALongerOneIsReadFromItsStart(t *testing.T) {
	r, past := embeddingsRig(t, localOllama)
	var texts []string
	cache := r.embedEarlier(&texts)
	got := r.search("beach", &texts)
	require.Contains(t, got, past+":3")
	require.NotContains(t, got, "could not be read")
	mine, err := os.ReadFile(cache)
	require.NoError(t, err)
	var b strings.Builder
	for i := 0; b.Len() < 3*len(mine); i++ {
		sessionRecords(&b, filepath.Join(r.sessionsDir(), "2025-01-01T00-00-00-000Z_"+strconv.Itoa(i)+"-other.jsonl"), 1, false)
	}
	b.Write(mine)
	require.NoError(t, os.Remove(cache))
	require.NoError(t, os.WriteFile(cache, []byte(b.String()), 0o644))
	got = r.search("beach", &texts)
	require.Contains(t, got, past+":3")
	require.NotContains(t, got, "could not be read")
}

// Two pi processes started together (two terminals on one project) embed
// the same earlier sessions into one cache, their asks out at once. Each
// message's vector is kept once, each session closed once, and the process
// that found the other embedding the same session takes the sessions from
// the oldest, so the two meet once: live, two pi over 40 sessions of 64
// messages asked the endpoint 143 times for 80 requests' work, and the
// cache held 1,993 of the 2,560 messages twice and 72 closing records for
// the 40 sessions.
func TestTwoProcessesEmbeddingAtOnceKeepEachVectorOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		// sizes are the messages of the sessions written besides the rig's
		// (5 messages, the oldest), oldest first.
		sizes []int
		// extra is how many texts more than the messages may be asked:
		// the ask both sent before either was answered, and the one
		// where they meet.
		extra int
		// killed: the first process is killed after this many asks
		// answered (0: never); the second takes up what it left after
		// its next turn.
		killed int
	}{
		{"a session of two asks", []int{100}, 64 + 5, 0},
		{"sessions of one ask each", []int{5, 5, 5, 5, 5, 5, 5, 5, 5}, 5 + 5, 0},
		{"the first killed in the session the second left to it", []int{200}, 64 + 5, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := embeddingsRig(t, localOllama)
			total := 5
			for s, n := range tc.sizes {
				var msgs []string
				for i := 0; i < n; i++ {
					msgs = append(msgs, "message "+strconv.Itoa(i)+" of session "+strconv.Itoa(s)+" about plums")
				}
				total += n
				id := "t" + strconv.Itoa(s)
				file := filepath.Join(a.sessionsDir(), "2026-02-2"+strconv.Itoa(s)+"T09-00-00-000Z_"+id+".jsonl")
				require.NoError(t, os.WriteFile(file, []byte(sessionJSONL(id, a.project, msgs...)), 0o644))
				at := time.UnixMilli(a.h.now - day)
				require.NoError(t, os.Chtimes(file, at, at))
			}
			texts := embedTogether(t, a, tc.killed)
			cache, _ := filepath.Glob(filepath.Join(a.agent, "pi-memory", "vectors", "*.vec"))
			require.Equal(t, 1, len(cache))
			seen, closed := map[string]int{}, map[string]int{}
			for _, l := range strings.Split(strings.TrimSuffix(string(mustReadFile(t, cache[0])), "\n"), "\n") {
				f := strings.SplitN(l, " ", 4)
				require.Equal(t, 4, len(f), l)
				if f[2] == "-" {
					closed[f[3]]++
				} else {
					seen[f[3]+":"+f[1]]++
				}
			}
			require.Equal(t, total, len(seen), "every message embedded")
			for k, n := range seen {
				require.Equal(t, 1, n, "%s held %d times", k, n)
			}
			require.Equal(t, len(tc.sizes)+1, len(closed))
			for k, n := range closed {
				require.Equal(t, 1, n, "%s closed %d times", k, n)
			}
			require.True(t, len(texts) <= total+tc.extra, "asked for %d texts, of %d", len(texts), total)
		})
	}
}

// embedTogether starts a second process on a's project and agent folder,
// and a's and its session starts both, then answers their http asks in
// turn, a's first, until neither sends more; it returns the texts asked.
func embedTogether(t *testing.T, a *rig, killed int) []string {
	b := &rig{t: t, h: &osHost{now: a.h.now}, project: a.project, agent: a.agent}
	b.e = New(b.h)
	var texts []string
	asks := func(out []byte) (http []gjson.Result) {
		for _, e := range gjson.ParseBytes(out).Get("effects").Array() {
			if e.Get("t").String() == "http" {
				http = append(http, e)
			}
		}
		return http
	}
	start := func(r *rig, id string) []gjson.Result {
		in, _ := json.Marshal(map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "hasUI": false, "mode": "rpc", "reason": "startup", "sessionId": id})
		return asks(r.e.Handle("session_start", in))
	}
	queues := [][]gjson.Result{start(a, "a"), start(b, "b")}
	rigs := []*rig{a, b}
	answered := 0
	for n := 0; len(queues[0])+len(queues[1]) > 0; n++ {
		require.True(t, n < 1000, "asks that never end")
		i := n % 2
		if i == 0 && killed > 0 && answered == killed {
			queues[0] = nil
		}
		if len(queues[i]) == 0 {
			continue
		}
		if i == 0 {
			answered++
		}
		e := queues[i][0]
		queues[i] = queues[i][1:]
		answers := []any{}
		for _, req := range e.Get("requests").Array() {
			answers = append(answers, fakeEndpoint(t, req, &texts))
		}
		v, _ := json.Marshal(map[string]any{"id": e.Get("id").String(), "value": answers})
		queues[i] = append(queues[i], asks(rigs[i].e.Handle("resume", v))...)
	}
	// The second's next turn.
	b.answerHTTP(b.e.Handle("agent_settled", []byte(`{}`)), func(req gjson.Result) map[string]any { return fakeEndpoint(t, req, &texts) })
	return texts
}

func mustReadFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return b
}

// A background request the host gave up (pi exiting: "aborted") is no
// failure of the endpoint's: nothing is said, and the messages are left for
// the next session; a request that failed is said.
func TestABackgroundRequestTheHostGaveUpIsNotAFailure(t *testing.T) {
	for _, c := range []struct {
		answer map[string]any
		said   bool
	}{
		{map[string]any{"error": "aborted"}, false},
		{map[string]any{"error": "timed out after 30000 ms"}, true},
	} {
		r, _ := embeddingsRig(t, localOllama)
		b, _ := json.Marshal(map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "hasUI": false, "mode": "rpc", "reason": "startup", "sessionId": "now"})
		kept := r.answerHTTP(r.e.Handle("session_start", b), func(gjson.Result) map[string]any { return c.answer })
		var all strings.Builder
		for _, e := range kept {
			all.WriteString(e.Raw)
		}
		require.Equal(t, c.said, strings.Contains(all.String(), "failed: "), "%v: %s", c.answer, all.String())
		var texts []string
		r.settleEmbedding(&texts)
		require.Equal(t, 5, len(texts), "the messages are embedded later")
	}
}

// A large cache (read, ranked and, at its bound, rewritten in steps that can
// be long) makes pi run the core off its event loop; a small one does not.
func TestALargeCacheRunsTheCoreOffPisLoop(t *testing.T) {
	for _, c := range []struct {
		size   int
		worker bool
	}{{1 << 20, false}, {20 << 20, true}} {
		r, _ := embeddingsRig(t, localOllama)
		var texts []string
		cache := r.embedEarlier(&texts)
		var b strings.Builder
		for i := 9999; b.Len() <= c.size; i-- {
			sessionRecords(&b, filepath.Join(r.sessionsDir(), "2025-01-01T00-00-00-000Z_x"+strconv.Itoa(i)+".jsonl"), 200, true)
		}
		require.NoError(t, os.WriteFile(cache, []byte(b.String()), 0o644))
		in, _ := json.Marshal(map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "mode": "rpc", "sessionId": "now2"})
		out := gjson.ParseBytes(r.e.Handle("session_start", in))
		require.Equal(t, c.worker, out.Get(`effects.#(t=="worker")`).Exists(), "a cache of %d bytes", b.Len())
	}
}
