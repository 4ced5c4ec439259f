package host

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// defaultMaxBytes is the most of a response body read when a request names
// no maxBytes (decision 001): a memory server's answer is kilobytes; a wrong
// URL's 50 MB must neither fill the host's memory nor go into the core.
const defaultMaxBytes = 1 << 20

// client never follows a redirect: a 3xx is an answer like a 500 (decision
// 001). Followed, a 307 would send the body (a session, a query) to whatever
// host the Location names, and a 302 would turn a POST into a GET whose 200
// reads as "the server took it" while nothing was kept.
var client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// PerformHTTP performs an http effect's requests at once, each aborted after
// its timeoutMs, and returns the resume value: one {status, body} or {error}
// per request, in request order. A status is never interpreted: a 500 is
// {status: 500, body} (what it means is the core's rule), and a redirect is
// not followed. A body longer than the request's maxBytes is not read
// further: {status, body: its first maxBytes bytes, truncated: true}. Once
// stop is done, a request still out is aborted and a later one is not sent:
// each answers {error: "aborted"}, as pi's adapter answers one it aborts.
func PerformHTTP(stop context.Context, reqs []Request) json.RawMessage {
	out := make([]map[string]any, len(reqs))
	var wg sync.WaitGroup
	for i, r := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, body, truncated, err := do(stop, r)
			if err != "" {
				out[i] = map[string]any{"error": err}
				return
			}
			out[i] = map[string]any{"status": status, "body": body}
			if truncated {
				out[i]["truncated"] = true
			}
		}()
	}
	wg.Wait()
	b, _ := json.Marshal(out)
	return b
}

func do(stop context.Context, r Request) (status int, body string, truncated bool, problem string) {
	timeout := time.Duration(r.TimeoutMs) * time.Millisecond
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	if stop.Err() != nil {
		return 0, "", false, "aborted"
	}
	ctx, cancel := context.WithTimeout(stop, timeout)
	defer cancel()
	var reqBody io.Reader
	if r.Body != "" {
		reqBody = strings.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, reqBody)
	if err != nil {
		return 0, "", false, err.Error()
	}
	for k, v := range r.Headers {
		req.Header.Set(k, v)
	}
	if r.BearerEnv != "" {
		if key := os.Getenv(r.BearerEnv); key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		if stop.Err() != nil {
			return 0, "", false, "aborted"
		}
		if ctx.Err() == context.DeadlineExceeded {
			return 0, "", false, "timed out after " + strconv.Itoa(int(timeout/time.Millisecond)) + " ms"
		}
		return 0, "", false, err.Error()
	}
	defer resp.Body.Close()
	limit := r.MaxBytes
	if limit <= 0 {
		limit = defaultMaxBytes
	}
	// One byte past the limit says whether there is more; the rest is not read.
	data, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		if stop.Err() != nil {
			return 0, "", false, "aborted"
		}
		if ctx.Err() == context.DeadlineExceeded {
			return 0, "", false, "timed out after " + strconv.Itoa(int(timeout/time.Millisecond)) + " ms"
		}
		return 0, "", false, "reading the answer: " + err.Error()
	}
	if len(data) > limit {
		return resp.StatusCode, string(data[:limit]), true, ""
	}
	return resp.StatusCode, string(data), false, ""
}
