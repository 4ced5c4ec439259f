package host

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxHTTPBody bounds what one response may hold: a memory server's answer
// is kilobytes; a wrong URL must not fill the host's memory.
const maxHTTPBody = 8 << 20

// PerformHTTP performs an http effect's requests at once, each aborted after
// its timeoutMs, and returns the resume value: one {status, body} or {error}
// per request, in request order. A status is never interpreted: a 500 is
// {status: 500, body} (what it means is the core's rule).
func PerformHTTP(reqs []Request) json.RawMessage {
	out := make([]map[string]any, len(reqs))
	var wg sync.WaitGroup
	for i, r := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, body, err := do(r)
			if err != "" {
				out[i] = map[string]any{"error": err}
				return
			}
			out[i] = map[string]any{"status": status, "body": body}
		}()
	}
	wg.Wait()
	b, _ := json.Marshal(out)
	return b
}

func do(r Request) (int, string, string) {
	timeout := time.Duration(r.TimeoutMs) * time.Millisecond
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var body io.Reader
	if r.Body != "" {
		body = strings.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		return 0, "", err.Error()
	}
	for k, v := range r.Headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return 0, "", "timed out after " + strconv.Itoa(int(timeout/time.Millisecond)) + " ms"
		}
		return 0, "", err.Error()
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody))
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return 0, "", "timed out after " + strconv.Itoa(int(timeout/time.Millisecond)) + " ms"
		}
		return 0, "", "reading the answer: " + err.Error()
	}
	return resp.StatusCode, string(data), ""
}
