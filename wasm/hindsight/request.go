package hindsight

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/tidwall/gjson"
)

// maxAnswer bounds the body of any answer the core reads (decision 001's
// http row, maxBytes): Hindsight answers a recall, a reflect or a retain in
// kilobytes (recall.maxTokens is at most 16384 tokens), and a 50 MB answer
// from a wrong or broken server held a turn for minutes while it was
// copied into the module and parsed. The host stops reading past it.
const maxAnswer = 1 << 20

// request is one HTTP request for the host to perform (an http effect
// holds several, performed at once).
type request struct {
	Method, URL string
	Headers     [][2]string
	Body        string
	TimeoutMs   int
}

// response is the host's answer to one request: a status and the body's
// text, or an error (timed out, refused, over maxAnswer) with Status 0.
type response struct {
	Status int
	Body   string
	Error  string
}

// ok reports a 2xx answer.
func (r response) ok() bool { return r.Status >= 200 && r.Status < 300 }

// problem says what went wrong in words for a status line: "timed out after
// 1500 ms", "HTTP 500", "" when it went well.
func (r response) problem() string {
	switch {
	case r.Error != "":
		return r.Error
	case !r.ok():
		return "HTTP " + numstr.Itoa(r.Status)
	}
	return ""
}

// retainProblem says why a retain's answer does not show the server took
// the items, "" when it does: besides a failed request, a 2xx answer that is
// not Hindsight's (an HTML page from a wrong URL, broken JSON, an object
// without what a retain answer holds) is a failed send, and the words say
// what came back. Hindsight 1.1.0 answers a retain with
// {"success":true,"bank_id":…,"items_count":N,"async":…,…} (its RetainResponse).
//
//	retainProblem(response{Status: 200, Body: `{"success":true,"bank_id":"b","items_count":1,"async":true}`}) => ""
//	retainProblem(response{Status: 200, Body: "<html><title>Welcome</title>"}) => "the answer is not Hindsight's: an HTML page (Welcome)"
func retainProblem(r response) string {
	if p := r.problem(); p != "" {
		return p
	}
	const not = "the answer is not Hindsight's: "
	body := strings.TrimSpace(r.Body)
	if !jsonr.Valid(body) {
		if strings.HasPrefix(body, "<") {
			return not + "an HTML page" + htmlTitle(body)
		}
		if body == "" {
			return not + "an empty body"
		}
		return not + "not JSON: " + strconv.Quote(text.Bytes(body, 60))
	}
	v := gjson.Parse(body)
	switch {
	case !v.IsObject() || jsonr.Get(v, "success").Type != gjson.True && jsonr.Get(v, "success").Type != gjson.False ||
		jsonr.Get(v, "bank_id").Type != gjson.String || jsonr.Get(v, "items_count").Type != gjson.Number:
		return not + "JSON without success, bank_id and items_count: " + text.Bytes(body, 60)
	case !jsonr.Get(v, "success").Bool():
		return "the server answered success false: " + text.Bytes(body, 60)
	}
	return ""
}

// htmlTitle is " (the page's title)", "" when it has none.
func htmlTitle(page string) string {
	page = text.Bytes(page, 4096)
	i := indexFold(page, "<title>")
	if i < 0 {
		return ""
	}
	rest := page[i+len("<title>"):]
	if j := indexFold(rest, "</title>"); j >= 0 {
		rest = rest[:j]
	}
	if t := strings.Join(strings.Fields(rest), " "); t != "" {
		return " (" + text.Bytes(t, 60) + ")"
	}
	return ""
}

// indexFold is strings.Index of an ASCII lower-case tag, in any case: byte
// for byte, so the index is s's.
func indexFold(s, tag string) int {
	for i := 0; i+len(tag) <= len(s); i++ {
		k := 0
		for ; k < len(tag) && (s[i+k]|0x20) == tag[k]; k++ {
		}
		if k == len(tag) {
			return i
		}
	}
	return -1
}

// readResponses reads the resume value of an http effect: one answer per
// request, in order. Anything missing or malformed is an error answer, so a
// host's mistake reads as a failed request, never as success; so is a body
// the host cut (truncated) or one over maxAnswer (a host that did not cut
// it), refused before anything parses it.
func readResponses(value []byte, n int) []response {
	out := make([]response, n)
	arr := gjson.ParseBytes(value)
	for i := range out {
		v := jsonr.Get(arr, numstr.Itoa(i))
		switch {
		case !arr.IsArray() || !v.IsObject():
			out[i].Error = "the host gave no answer"
		case jsonr.Get(v, "error").Exists():
			out[i].Error = jsonr.Get(v, "error").String()
			if out[i].Error == "" {
				out[i].Error = "request failed"
			}
		default:
			st := jsonr.Get(v, "status")
			if st.Type != gjson.Number || st.Int() < 100 || st.Int() > 599 {
				out[i].Error = "the host gave no status"
				continue
			}
			body := jsonr.Get(v, "body")
			if jsonr.Get(v, "truncated").Bool() || len(body.Raw) > maxAnswer+2 && len(body.String()) > maxAnswer {
				out[i].Error = "the answer is larger than 1 MiB (HTTP " + numstr.Itoa(int(st.Int())) + "); not read"
				continue
			}
			out[i].Status, out[i].Body = int(st.Int()), body.String()
		}
	}
	return out
}

// encode writes requests as the http effect's "requests" list.
func encode(dst []byte, reqs []request) []byte {
	return jsonw.Array(dst, len(reqs), func(b []byte, i int) []byte {
		r := &reqs[i]
		o := jsonw.Open(b)
		o.Str("method", r.Method)
		o.Str("url", r.URL)
		if len(r.Headers) > 0 {
			h := jsonw.Open(nil)
			for _, kv := range r.Headers {
				h.Str(kv[0], kv[1])
			}
			o.Raw("headers", h.Close())
		}
		if r.Body != "" {
			o.Str("body", r.Body)
		}
		o.Int("timeoutMs", int64(r.TimeoutMs))
		o.Int("maxBytes", maxAnswer)
		return o.Close()
	})
}

// post is a POST of a JSON body to path on the configured server, with the
// API key when one is set.
func post(c settings, path string, body []byte, timeoutMs int) request {
	h := [][2]string{{"Content-Type", "application/json"}}
	if c.APIKey != "" {
		h = append(h, [2]string{"Authorization", "Bearer " + c.APIKey})
	}
	return request{Method: "POST", URL: c.URL + path, Headers: h, Body: string(body), TimeoutMs: timeoutMs}
}

// bankPath is the API path of a bank, its id escaped for a URL path.
func bankPath(id string) string {
	var b text.Builder
	b.WriteString("/v1/default/banks/")
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
	return b.String()
}

// maxQuery bounds a recall or reflect query: the newest user message can be
// a pasted file, and the server embeds the query.
const maxQuery = 4000

// recallRequest asks bank b for memories about query, with the project
// bank's repo tag (tags_match any) and the user bank unfiltered. The query
// is redacted: it reaches the server and its embedding model.
func recallRequest(c settings, b bank, repoKey, query string) request {
	w := jsonw.Open(nil)
	w.Str("query", safeQuery(query))
	w.Str("budget", c.RecallBudget)
	w.Int("max_tokens", int64(c.RecallMaxTokens))
	if tags := recallTags(b, repoKey); len(tags) > 0 {
		w.Strs("tags", tags)
		w.Str("tags_match", "any")
	}
	return post(c, bankPath(b.ID)+"/memories/recall", w.Close(), c.RecallTimeoutMs)
}

// reflectRequest asks bank b to answer query (redacted) from its memories.
func reflectRequest(c settings, b bank, query string, timeoutMs int) request {
	w := jsonw.Open(nil)
	w.Str("query", safeQuery(query))
	w.Str("budget", c.RecallBudget)
	w.Int("max_tokens", int64(c.RecallMaxTokens))
	return post(c, bankPath(b.ID)+"/reflect", w.Close(), timeoutMs)
}

// safeQuery is a query as it may leave the machine: redacted, then cut.
func safeQuery(q string) string {
	q, _ = redact.String(q)
	return text.Bytes(q, maxQuery)
}

// memory is one recalled memory.
type memory struct {
	Text, Type string
}

// parseRecall reads a recall answer's body: {"results":[{"text","type",…}]}.
// Results without text are skipped; a body that is not such an object is an
// error naming what it holds.
//
//	parseRecall(`{"results":[{"text":"Uses Go","type":"world"}]}`) => [{Uses Go world}], ""
func parseRecall(body string) ([]memory, string) {
	if !jsonr.Valid(body) {
		return nil, "the answer is not JSON"
	}
	r := gjson.Parse(body)
	res := jsonr.Get(r, "results")
	if !r.IsObject() || !res.IsArray() {
		return nil, "the answer has no results list"
	}
	var out []memory
	res.ForEach(func(_, m gjson.Result) bool {
		t := jsonr.Get(m, "text")
		if t.Type == gjson.String && strings.TrimSpace(t.Str) != "" {
			out = append(out, memory{Text: t.Str, Type: jsonr.Get(m, "type").String()})
		}
		return true
	})
	return out, ""
}

// parseReflect reads a reflect answer's text.
func parseReflect(body string) (string, string) {
	if !jsonr.Valid(body) {
		return "", "the answer is not JSON"
	}
	t := jsonr.Get(gjson.Parse(body), "text")
	if t.Type != gjson.String {
		return "", "the answer has no text"
	}
	return t.Str, ""
}
