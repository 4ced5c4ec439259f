package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
)

// pimem hindsight flush sends the outbox's due jobs with net/http, and the
// server's answer is recorded: the job is done and not sent again.
func TestHindsightFlushSendsTheOutboxThroughNetHTTP(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization")+" "+string(b))
		mu.Unlock()
		io.WriteString(w, `{"success":true,"bank_id":"b","items_count":1,"async":true,"operation_id":"op-1"}`)
	}))
	defer srv.Close()
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			got = nil
			dir, agent := project(t), t.TempDir()
			box := filepath.Join(agent, "pi-memory/hindsight/outbox.jsonl")
			require.NoError(t, os.MkdirAll(filepath.Dir(box), 0o755))
			require.NoError(t, os.WriteFile(box, []byte(`{"v":1,"op":"job","id":"pimem:s1:5","bank":"pimem-b","at":1,"item":{"content":"uses make","document_id":"pimem:s1:5"}}`+"\n"), 0o644))
			env := []string{"HINDSIGHT_API_URL=" + srv.URL, "HINDSIGHT_API_KEY=k"}
			r := runBin(t, pimemBin, dir, env, "--wasm", m.Path(t), "--agent-dir", agent, "hindsight", "flush")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Equal(t, "Hindsight: 1 sent.\n", r.stdout)
			require.Equal(t, []string{`POST /v1/default/banks/pimem-b/memories Bearer k {"items":[{"content":"uses make","document_id":"pimem:s1:5"}],"async":true}`}, got)
			data, _ := os.ReadFile(box)
			require.Contains(t, string(data), `"op":"done","id":"pimem:s1:5","bank":"pimem-b"`)
			r = runBin(t, pimemBin, dir, env, "--wasm", m.Path(t), "--agent-dir", agent, "hindsight", "status")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "Hindsight is on: "+srv.URL)
			require.Contains(t, r.stdout, "0 waiting")
			require.Equal(t, 1, len(got))
			require.False(t, strings.Contains(r.stderr, "ignoring effect"), r.stderr)
		})
	}
}

// pimem hindsight import sends a long import through net/http: far more
// asks than the driver's loop bound (each batch prints its progress line),
// every session once, and a second run sends nothing.
func TestHindsightImportSendsEverySessionAndPrintsProgress(t *testing.T) {
	const n = 600 // 75 asks of 8
	var mu sync.Mutex
	docs := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		for _, part := range strings.Split(string(b), `"document_id":"`)[1:] {
			docs[part[:strings.IndexByte(part, '"')]]++
		}
		mu.Unlock()
		io.WriteString(w, `{"success":true,"bank_id":"b","items_count":1,"async":true,"operation_id":"op-1"}`)
	}))
	defer srv.Close()
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			docs = map[string]int{}
			dir, agent := project(t), t.TempDir()
			old := oldSessions(t, agent, n)
			env := []string{"HINDSIGHT_API_URL=" + srv.URL}
			r := runBin(t, pimemBin, dir, env, "--wasm", m.Path(t), "--agent-dir", agent, "hindsight", "import", old)
			require.Equal(t, 0, r.exit, r.stderr)
			require.Equal(t, n, len(docs))
			for id, k := range docs {
				require.Equal(t, 1, k, id)
			}
			require.Equal(t, n/8, strings.Count(r.stdout, "\nimported "), "a progress line per batch")
			require.Contains(t, r.stdout, "imported 8/600 sessions, 8 messages\n")
			require.True(t, strings.HasSuffix(r.stdout, "600 session files; 600 sent (600 messages, 9,600 characters).\n"), r.stdout)
			r = runBin(t, pimemBin, dir, env, "--wasm", m.Path(t), "--agent-dir", agent, "hindsight", "import", old)
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "0 sent (0 messages, 0 characters), 600 already imported.")
			require.Equal(t, n, len(docs))
		})
	}
}

// oldSessions writes n one-message sessions in a folder of their own.
func oldSessions(t *testing.T, agent string, n int) string {
	old := filepath.Join(agent, "old")
	require.NoError(t, os.MkdirAll(old, 0o755))
	for i := 0; i < n; i++ {
		id := "s" + strconv.Itoa(1000+i)
		data := `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/w/app"}` + "\n" +
			`{"type":"message","id":"a","parentId":null,"timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"user","content":"fact ` + id + `"}}` + "\n"
		require.NoError(t, os.WriteFile(filepath.Join(old, "2026-11-20T09-00-00-000Z_"+id+".jsonl"), []byte(data), 0o644))
	}
	return old
}

// Interrupted mid-import (the server hangs on the second batch), pimem
// sends nothing more and ends at once, not after the batch's 30 s or the
// rest of the sessions; the checkpoint holds the first batch, and the next
// run sends the rest and nothing the server took.
func TestAnInterruptedImportStopsSendingAndTheNextRunResumes(t *testing.T) {
	const n = 40
	var mu sync.Mutex
	docs := map[string]int{}
	hang := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		part := strings.Split(string(b), `"document_id":"`)[1]
		doc := part[:strings.IndexByte(part, '"')]
		docs[doc]++
		wait := hang && len(docs) > 8
		mu.Unlock()
		if wait {
			<-r.Context().Done()
			return
		}
		io.WriteString(w, `{"success":true,"bank_id":"b","items_count":1,"async":true}`)
	}))
	defer srv.Close()
	wasm := testmod.Cores[0].Path(t)
	dir, agent := project(t), t.TempDir()
	old := oldSessions(t, agent, n)
	cmd := exec.Command(pimemBin, "--wasm", wasm, "--agent-dir", agent, "hindsight", "import", old)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + sharedCache, "HINDSIGHT_API_URL=" + srv.URL}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	// The second batch's eight requests are all at the server (it holds
	// them) before the signal: they go out at once, but not in one instant.
	for sent := 0; sent < 16; {
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		sent = len(docs)
		mu.Unlock()
	}
	start := time.Now()
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	err := cmd.Wait()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "exits with a code: %v", err)
	require.Equal(t, 130, exit.ExitCode(), stderr.String())
	require.True(t, time.Since(start) < 10*time.Second, "ended %s after the signal", time.Since(start))
	require.Contains(t, stderr.String(), "Hindsight import stopped: it was asked to stop before the server answered. imported 8/40 sessions")
	mu.Lock()
	require.Equal(t, 16, len(docs), "the batch out when the signal came, and no other")
	hang = false
	docs = map[string]int{}
	mu.Unlock()
	r := runBin(t, pimemBin, dir, []string{"HINDSIGHT_API_URL=" + srv.URL}, "--wasm", wasm, "--agent-dir", agent, "hindsight", "import", old)
	require.Equal(t, 0, r.exit, r.stderr)
	require.Contains(t, r.stdout, "8 already imported")
	require.Equal(t, n-8, len(docs))
	require.Equal(t, 0, docs["pimem-import:s1000"], "taken before the signal: not sent again")
}
