package host

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"hash/fnv"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
)

// fakeEmbeddings is an OpenAI-compatible /v1/embeddings endpoint of
// deterministic vectors: a bag of words' dimensions, where "beach" and
// "sea" are one dimension, so a paraphrase is near what it paraphrases.
func fakeEmbeddings(t *testing.T, dims int) (url string, asked func() []string) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Input []string `json:"input"`
		}
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &body); err != nil {
			w.WriteHeader(400)
			return
		}
		var data []map[string]any
		for i, in := range body.Input {
			v := make([]float64, dims)
			for _, w := range strings.Fields(strings.ToLower(in)) {
				w = strings.Trim(w, ".,?!:")
				if w == "beach" || w == "sea" {
					v[0]++
					continue
				}
				h := fnv.New32a()
				h.Write([]byte(w))
				v[1+h.Sum32()%uint32(dims-2)]++
			}
			v[dims-1] += 0.01
			data = append(data, map[string]any{"index": i, "embedding": v})
		}
		mu.Lock()
		got = append(got, r.Header.Get("Authorization")+" "+strings.Join(body.Input, " | "))
		mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1/embeddings", func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), got...) }
}

// The module under the Go host, on real folders and net/http: a session
// with an event loop (rpc) embeds the earlier session in the background
// asks that follow session_start, with the key its apiKeyEnv names; then a
// memory_search for a word no message holds finds the turn that
// paraphrases it, cited by its line.
func TestEmbeddingsFuseAParaphraseThroughNetHTTP(t *testing.T) {
	url, asked := fakeEmbeddings(t, 32)
	t.Setenv("PIMEM_TEST_EMBED_KEY", "sk-test-embed")
	eachCore(t, func(t *testing.T, rt *Runtime) {
		project, agent, sessions := embeddingsFolders(t, `{"url":"`+url+`","model":"fake","apiKeyEnv":"PIMEM_TEST_EMBED_KEY"}`)
		past := pastSession(t, project, sessions)
		d, errs := startedDriver(t, rt, project, agent, "rpc")
		require.Equal(t, "", errs.String())
		cache, _ := filepath.Glob(filepath.Join(agent, "pi-memory", "vectors", "*.vec"))
		require.Equal(t, 1, len(cache), "the cache is written")
		n := len(asked())
		require.True(t, n >= 1, "embedded")
		require.True(t, strings.HasPrefix(asked()[0], "Bearer sk-test-embed "), "the key its variable holds: %q", asked()[0])

		res, err := d.Run("tool", []byte(`{"name":"memory_search","params":{"query":"beach"}}`))
		require.NoError(t, err)
		require.Equal(t, 1, len(res.ToolResults))
		text := res.ToolResults[0].Text
		require.Contains(t, text, "the offsite is by the sea in Porto")
		require.Contains(t, text, past+":3")
		require.Equal(t, n+1, len(asked()), "one request for the query")
		require.NotContains(t, string(mustRead(t, cache[0])), "offsite")
	})
}

// embeddingsFolders are a project (a git checkout) and an agent folder
// whose pi-memory/embeddings.json is config, and the agent's sessions
// folder for the project, made.
func embeddingsFolders(t *testing.T, config string) (project, agent, sessions string) {
	base := t.TempDir()
	project, agent = filepath.Join(base, "app"), filepath.Join(base, "agent")
	require.NoError(t, os.MkdirAll(filepath.Join(project, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(agent, "pi-memory"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(agent, "pi-memory", "embeddings.json"), []byte(config), 0o644))
	sessions = filepath.Join(agent, "sessions", "--"+strings.ReplaceAll(strings.TrimPrefix(project, "/"), "/", "-")+"--")
	require.NoError(t, os.MkdirAll(sessions, 0o755))
	return project, agent, sessions
}

// pastSession is an earlier session of the project, of three messages
// (the second the assistant's, line 3: "the offsite is by the sea in
// Porto"), still for a day.
func pastSession(t *testing.T, project, sessions string) string {
	past := filepath.Join(sessions, "2026-02-20T09-00-00-000Z_s0.jsonl")
	lines := `{"type":"session","version":3,"id":"s0","timestamp":"2026-02-20T09:00:00.000Z","cwd":"` + project + `"}` + "\n"
	for i, m := range []string{"where is the offsite this year", "the offsite is by the sea in Porto", "kiwi harvest is in May"} {
		role := "user"
		if i == 1 {
			role = "assistant"
		}
		lines += `{"type":"message","id":"m` + string(rune('0'+i)) + `","parentId":null,"timestamp":"2026-02-20T09:00:01.000Z","message":{"role":"` + role + `","content":"` + m + `"}}` + "\n"
	}
	require.NoError(t, os.WriteFile(past, []byte(lines), 0o644))
	old := time.Now().Add(-24 * time.Hour)
	require.NoError(t, os.Chtimes(past, old, old))
	return past
}

// startedDriver is the module on real folders, its session started in mode
// ("rpc" embeds in the background asks that follow, "mcp" does not), and
// what it wrote to stderr.
func startedDriver(t *testing.T, rt *Runtime, project, agent, mode string) (*Driver, *bytes.Buffer) {
	var out, errs bytes.Buffer
	d := &Driver{Inst: newInstance(t, rt, Config{FS: fsys.NewOS()}), Stdout: &out, Stderr: &errs}
	start, _ := json.Marshal(map[string]any{"cwd": project, "agentDir": agent, "trusted": true, "hasUI": false, "mode": mode, "reason": "startup", "sessionId": "now"})
	_, err := d.Run("session_start", start)
	require.NoError(t, err)
	return d, &errs
}

func mustRead(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return b
}

// A warm memory_search with the most vectors the store holds (30,000 at
// 384 dimensions) in the cache: the query's vector is the session's
// (cached by its text), so what is timed is the core's own work, the word
// ranking, the cosine over every vector and the fusion. PIMEM_EMBED_BENCH=1
// runs it (decision 019's second addendum has the figures); a number of
// dimensions instead of 1 (256, 1536) runs it with vectors of as many.
func TestEmbeddingsWarmSearchTime(t *testing.T) {
	if os.Getenv("PIMEM_EMBED_BENCH") == "" {
		t.Skip("PIMEM_EMBED_BENCH=1 runs it")
	}
	dims, _ := strconv.Atoi(os.Getenv("PIMEM_EMBED_BENCH"))
	if dims < 2 || dims > 4096 {
		dims = 384
	}
	url, asked := fakeEmbeddings(t, dims)
	eachCore(t, func(t *testing.T, rt *Runtime) {
		before := len(asked())
		project, agent, sessions := embeddingsFolders(t, `{"url":"`+url+`","model":"fake"}`)
		require.NoError(t, os.MkdirAll(filepath.Join(agent, "pi-memory", "vectors"), 0o755))
		var cache bytes.Buffer
		seed := uint32(1)
		for i := 0; i < 30000; i++ {
			cache.WriteString("0000000000000001 " + strconv.Itoa(i%15+2) + " ")
			for d := 0; d < dims; d++ {
				seed = seed*1664525 + 1013904223
				cache.WriteString(strconv.FormatUint(uint64(0x100|(seed>>24)), 16)[1:])
			}
			cache.WriteString(" " + sessions + "/2026-01-01T00-00-00-000Z_" + strconv.Itoa(i/15) + ".jsonl\n")
		}
		// The cache's name: the model and 8 hex digits of the SHA-1 of the
		// URL, the model and the dimensions (wasm/embeddings' modelKey).
		sum := sha1.Sum([]byte(url + "\nfake\n0"))
		require.NoError(t, os.WriteFile(filepath.Join(agent, "pi-memory", "vectors", "fake-"+hex.EncodeToString(sum[:4])+".vec"), cache.Bytes(), 0o644))
		d, _ := startedDriver(t, rt, project, agent, "mcp")
		var times []time.Duration
		for i := 0; i < 12; i++ {
			t0 := time.Now()
			res, err := d.Run("tool", []byte(`{"name":"memory_search","params":{"query":"release checklist"}}`))
			times = append(times, time.Since(t0))
			require.NoError(t, err)
			require.Equal(t, 1, len(res.ToolResults))
		}
		require.Equal(t, before+1, len(asked()), "one query, its vector kept")
		t.Logf("first (reads the 30,000-record cache and asks the query): %v; warm: %v", times[0], times[2:])
	})
}
