package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

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
		io.WriteString(w, `{"success":true}`)
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
