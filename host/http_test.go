package host

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestPerformHTTPAnswersEveryRequestInOrderWithoutInterpretingStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/slow":
			time.Sleep(2 * time.Second)
		case "/fail":
			w.WriteHeader(500)
		}
		io.WriteString(w, r.Method+" "+r.Header.Get("Authorization")+" "+string(body))
	}))
	defer srv.Close()
	raw := PerformHTTP(context.Background(), []Request{
		{Method: "POST", URL: srv.URL + "/ok", Headers: map[string]string{"Authorization": "Bearer k"}, Body: "{}", TimeoutMs: 1000},
		{Method: "GET", URL: srv.URL + "/slow", TimeoutMs: 200},
		{Method: "POST", URL: srv.URL + "/fail", TimeoutMs: 1000},
		{Method: "GET", URL: "http://127.0.0.1:1/", TimeoutMs: 1000},
	})
	var got []map[string]any
	require.NoError(t, json.Unmarshal(raw, &got))
	require.Equal(t, 4, len(got))
	require.Equal(t, map[string]any{"status": float64(200), "body": "POST Bearer k {}"}, got[0])
	require.Equal(t, map[string]any{"error": "timed out after 200 ms"}, got[1])
	require.Equal(t, float64(500), got[2]["status"])
	require.Contains(t, got[3]["error"].(string), "refused")
}

// Requests are performed at once: each of these answers only once the other
// has arrived, so performed one after the other the first would time out.
func TestPerformHTTPSendsTheRequestsConcurrently(t *testing.T) {
	arrived := make(chan struct{}, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		for len(arrived) < 2 {
			time.Sleep(time.Millisecond)
		}
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	var got []map[string]any
	require.NoError(t, json.Unmarshal(PerformHTTP(context.Background(), []Request{{Method: "GET", URL: srv.URL, TimeoutMs: 20000}, {Method: "GET", URL: srv.URL, TimeoutMs: 20000}}), &got))
	require.Equal(t, []map[string]any{{"status": float64(200), "body": "ok"}, {"status": float64(200), "body": "ok"}}, got)
}

// A body past maxBytes is cut and marked, and the rest is not read: a 50 MB
// answer costs the first MiB, not a turn.
func TestPerformHTTPCutsABodyPastMaxBytes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := strings.Repeat("x", 1<<20)
		for i := 0; i < 50; i++ {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	start := time.Now()
	var got []map[string]any
	require.NoError(t, json.Unmarshal(PerformHTTP(context.Background(), []Request{
		{Method: "GET", URL: srv.URL, TimeoutMs: 20000, MaxBytes: 10},
		{Method: "GET", URL: srv.URL, TimeoutMs: 20000},
	}), &got))
	require.Equal(t, map[string]any{"status": float64(200), "body": "xxxxxxxxxx", "truncated": true}, got[0])
	require.Equal(t, defaultMaxBytes, len(got[1]["body"].(string)))
	require.Equal(t, true, got[1]["truncated"])
	require.True(t, time.Since(start) < 10*time.Second, "%s", time.Since(start))
}

// A redirect is an answer, never followed: a 307 would send the body (a
// whole session) to another server, and a 302 turns the POST into a GET
// whose 200 reads as "the server took it" while nothing was kept.
func TestPerformHTTPNeverFollowsARedirect(t *testing.T) {
	var elsewhere int
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere++
		io.WriteString(w, `{"success":true,"bank_id":"b","items_count":1}`)
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.URL.Path[1:])
		http.Redirect(w, r, other.URL+"/v1", code)
	}))
	defer srv.Close()
	var got []map[string]any
	require.NoError(t, json.Unmarshal(PerformHTTP(context.Background(), []Request{
		{Method: "POST", URL: srv.URL + "/307", Body: `{"items":[]}`, TimeoutMs: 5000},
		{Method: "POST", URL: srv.URL + "/302", Body: `{"items":[]}`, TimeoutMs: 5000},
	}), &got))
	require.Equal(t, float64(307), got[0]["status"])
	require.Equal(t, float64(302), got[1]["status"])
	require.Equal(t, 0, elsewhere)
}

// Once stop is done, a request still out answers "aborted" at once (not
// after its timeout) and a later one is not sent.
func TestPerformHTTPAbortsEveryRequestOnceStopped(t *testing.T) {
	var arrived atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Add(1)
		<-r.Context().Done()
	}))
	defer srv.Close()
	stop, cancel := context.WithCancel(context.Background())
	go func() {
		for arrived.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	var got []map[string]any
	require.NoError(t, json.Unmarshal(PerformHTTP(stop, []Request{{Method: "POST", URL: srv.URL, TimeoutMs: 20000}}), &got))
	require.Equal(t, []map[string]any{{"error": "aborted"}}, got)
	require.True(t, time.Since(start) < 10*time.Second, "%s", time.Since(start))
	require.NoError(t, json.Unmarshal(PerformHTTP(stop, []Request{{Method: "POST", URL: srv.URL, TimeoutMs: 20000}}), &got))
	require.Equal(t, []map[string]any{{"error": "aborted"}}, got)
	require.Equal(t, int32(1), arrived.Load())
}

// A request's bearerEnv names a variable the host reads when it sends the
// request: the key goes to the server, never through the core; an unset
// variable sends no Authorization.
func TestPerformHTTPSendsTheKeyItsBearerEnvNames(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Header.Get("Authorization"))
	}))
	defer srv.Close()
	t.Setenv("PIMEM_TEST_EMBED_KEY", "sk-test-123")
	raw := PerformHTTP(context.Background(), []Request{
		{Method: "POST", URL: srv.URL, BearerEnv: "PIMEM_TEST_EMBED_KEY", TimeoutMs: 1000},
		{Method: "POST", URL: srv.URL, BearerEnv: "PIMEM_TEST_UNSET_VARIABLE", TimeoutMs: 1000},
	})
	var got []map[string]any
	require.NoError(t, json.Unmarshal(raw, &got))
	require.Equal(t, "Bearer sk-test-123", got[0]["body"])
	require.Equal(t, "", got[1]["body"])
}
