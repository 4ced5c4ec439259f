package lifecycle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// rig is one engine over a temp project and agent dir, with helpers to call
// exports and read what came back.
type rig struct {
	t       *testing.T
	e       *Engine
	h       *osHost
	project string
	agent   string
	last    gjson.Result
	state   string // the newest state effect's state, as a host keeps it
	yields  int    // foreground asks of no request answered (embeddings_test.go)
}

const day = 86400000

func newRig(t *testing.T, hasUI bool) *rig {
	t.Helper()
	base := t.TempDir()
	r := &rig{t: t, h: &osHost{now: 1772172000000}, project: filepath.Join(base, "proj"), agent: filepath.Join(base, "agent")}
	os.MkdirAll(filepath.Join(r.project, ".git"), 0o755)
	os.MkdirAll(r.agent, 0o755)
	r.e = New(r.h)
	r.start(hasUI, true)
	return r
}

func (r *rig) start(hasUI, trusted bool) gjson.Result {
	return r.call("session_start", map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": trusted, "hasUI": hasUI, "mode": "rpc", "reason": "startup"})
}

func (r *rig) call(export string, in map[string]any) gjson.Result {
	r.t.Helper()
	b := []byte("{")
	first := true
	for k, v := range in {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, '"', ':')
		b = appendAny(b, v)
	}
	b = append(b, '}')
	out := r.answerYields(r.e.Handle(export, b))
	if !gjson.ValidBytes(out) {
		r.t.Fatalf("%s returned invalid JSON: %s", export, out)
	}
	r.last = gjson.ParseBytes(out)
	if s := r.last.Get(`effects.#(t=="state").state`); s.Exists() {
		r.state = s.Raw
	}
	return r.last
}

// answerYields answers each yield out ends with (an http ask of no
// request: a search's next slice, decision 018) as pi's adapter does, and
// returns the envelope that ends without one.
func (r *rig) answerYields(out []byte) []byte {
	for range 10_000 {
		ask := gjson.GetBytes(out, `effects.#(t=="http")`)
		if !ask.Exists() || ask.Get("background").Bool() || len(ask.Get("requests").Array()) > 0 {
			return out
		}
		out = r.e.Handle("resume", []byte(`{"id":`+quote(ask.Get("id").String())+`,"value":[]}`))
	}
	r.t.Fatalf("a search that never ends: %s", out)
	return out
}

// raw is JSON put into a call's input as it is.
type raw string

func appendAny(b []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return append(b, quote(x)...)
	case bool:
		if x {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case nil:
		return append(b, "null"...)
	case raw:
		return append(b, x...)
	case []string:
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, quote(s)...)
		}
		return append(b, ']')
	}
	panic("unsupported")
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// cmd runs /decision with args (as pi sends them).
func (r *rig) cmd(args string) gjson.Result {
	return r.call("command", map[string]any{"name": "decision", "args": args})
}

// text joins the output and notify texts of the last envelope.
func (r *rig) text() string {
	var parts []string
	for _, e := range r.last.Get("effects").Array() {
		if t := e.Get("t").String(); t == "output" || t == "notify" {
			parts = append(parts, e.Get("text").String())
		}
	}
	return strings.Join(parts, "\n")
}

func (r *rig) dialog() gjson.Result {
	for _, e := range r.last.Get("effects").Array() {
		if e.Get("t").String() == "dialog" || e.Get("t").String() == "complete" {
			return e
		}
	}
	return gjson.Result{}
}

func (r *rig) answer(value any) gjson.Result {
	r.t.Helper()
	d := r.dialog()
	if !d.Exists() {
		r.t.Fatalf("no dialog to answer in %s", r.last.Raw)
	}
	return r.call("resume", map[string]any{"id": d.Get("id").String(), "value": value})
}

func (r *rig) injected(prompt string) string {
	r.call("before_agent_start", map[string]any{"prompt": prompt, "messageType": "user"})
	for _, e := range r.last.Get("effects").Array() {
		if e.Get("t").String() == "system_prompt_append" {
			return e.Get("text").String()
		}
	}
	return ""
}

func (r *rig) log() string {
	b, _ := os.ReadFile(filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl"))
	return string(b)
}

func (r *rig) exit() int64 { return r.last.Get("exit").Int() }

func (r *rig) contains(want string) {
	r.t.Helper()
	if !strings.Contains(r.text(), want) {
		r.t.Fatalf("output %q does not contain %q", r.text(), want)
	}
}
