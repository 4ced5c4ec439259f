package observe

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
)

// session builds pi session entries (JSON Lines, as a session file holds
// them) for tests: every entry one minute after the one before, ids e1, e2…
type session struct {
	t     int64 // Unix ms of the next entry
	n     int
	lines []string
	last  string
}

// feb12 is 2026-02-12T14:30:00Z.
const feb12 = 1770906600000

func newSession(start int64) *session {
	return &session{t: start, lines: []string{`{"type":"session","version":3,"id":"s-1","timestamp":"2026-02-12T14:00:00.000Z","cwd":"/src/app"}`}}
}

func (s *session) add(typ string, fill func(o *jsonw.Object)) string {
	s.n++
	id := "e" + strconv.Itoa(s.n)
	o := jsonw.Open(nil)
	o.Str("type", typ)
	o.Str("id", id)
	if s.last == "" {
		o.Null("parentId")
	} else {
		o.Str("parentId", s.last)
	}
	o.Str("timestamp", isoTime(s.t))
	fill(&o)
	s.lines = append(s.lines, string(o.Close()))
	s.last = id
	s.t += 60000
	return id
}

func isoTime(ms int64) string {
	d := civil.FloorDiv(ms, msPerDay)
	y, m, dd := civil.Date(d)
	rem := ms - d*msPerDay
	two := func(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }
	return strconv.Itoa(y) + "-" + two(m) + "-" + two(dd) + "T" + two(int(rem/3600000)) + ":" + two(int(rem/60000%60)) + ":" + two(int(rem/1000%60)) + ".000Z"
}

func (s *session) message(m func(o *jsonw.Object)) string {
	t := s.t
	return s.add("message", func(o *jsonw.Object) {
		inner := jsonw.Open(nil)
		m(&inner)
		inner.Int("timestamp", t)
		o.Raw("message", inner.Close())
	})
}

func (s *session) user(text string) string {
	return s.message(func(o *jsonw.Object) { o.Str("role", "user"); o.Str("content", text) })
}

// call is a tool call of an assistant message.
type call struct {
	id, name, args string // args: a JSON object
}

func (s *session) assistant(text string, calls ...call) string {
	return s.message(func(o *jsonw.Object) {
		o.Str("role", "assistant")
		var blocks []string
		if text != "" {
			blocks = append(blocks, `{"type":"text","text":`+string(jsonw.String(nil, text))+`}`)
		}
		for _, c := range calls {
			blocks = append(blocks, `{"type":"toolCall","id":"`+c.id+`","name":"`+c.name+`","arguments":`+c.args+`}`)
		}
		o.Raw("content", []byte("["+strings.Join(blocks, ",")+"]"))
		o.Str("stopReason", "stop")
	})
}

func (s *session) result(callID, name, text string, isErr bool) string {
	return s.message(func(o *jsonw.Object) {
		o.Str("role", "toolResult")
		o.Str("toolCallId", callID)
		o.Str("toolName", name)
		o.Raw("content", []byte(`[{"type":"text","text":`+string(jsonw.String(nil, text))+`}]`))
		o.Bool("isError", isErr)
	})
}

func (s *session) custom(customType, text string) string {
	return s.add("custom_message", func(o *jsonw.Object) {
		o.Str("customType", customType)
		o.Str("content", text)
		o.Bool("display", false)
	})
}

// compaction appends a compaction entry; ours marks it as this store's.
func (s *session) compaction(firstKept, summary string, ours bool) string {
	return s.add("compaction", func(o *jsonw.Object) {
		o.Str("summary", summary)
		o.Str("firstKeptEntryId", firstKept)
		o.Int("tokensBefore", 50000)
		if ours {
			o.Raw("details", []byte(`{"schemaVersion":1,"store":"observations"}`))
		}
	})
}

// record appends a ledger record as a session custom entry.
func (s *session) record(r Record) string {
	return s.add("custom", func(o *jsonw.Object) {
		o.Str("customType", CustomTypeLedger)
		o.Raw("data", encode(r))
	})
}

// turn appends a user prompt and an answer of about n bytes.
func (s *session) turn(prompt string, n int) {
	s.user(prompt)
	s.assistant(strings.Repeat("word ", n/5))
}

func (s *session) jsonl() []byte { return []byte(strings.Join(s.lines, "\n") + "\n") }

func (s *session) transcript() transcript { return readEntries(s.jsonl(), 0) }

// records reads back the ledger records of the session's custom entries, in order.
func (s *session) records() []Record {
	var out []Record
	for _, l := range s.lines {
		if !strings.Contains(l, `"customType":"`+CustomTypeLedger+`"`) {
			continue
		}
		i := strings.Index(l, `"data":`)
		r, err := decode([]byte(l[i+len(`"data":`) : len(l)-1]))
		if err != nil {
			panic(err)
		}
		out = append(out, r)
	}
	return out
}

func at(ms int64) clock { return clock{Ms: ms} }

// objectAlias lets tests fill entries without importing jsonw.
type objectAlias = jsonw.Object

// piBranch is a session branch as pi's sessionManager.getBranch() gives it:
// a secret, a tool call and its result, and our own block.
const piBranch = `[
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-02-12T14:30:00.000Z","message":{"role":"user","content":"The search fails on C++; my token=abc123def456"}},
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-02-12T14:31:00.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"…"},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"src/search.ts"}}]}},
{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-02-12T14:31:05.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"export function search(q) { return new RegExp(q) }"}],"isError":false}},
{"type":"custom_message","id":"a4","parentId":"a3","timestamp":"2026-02-12T14:32:00.000Z","customType":"observational-memory-context","content":"(our own block: never observed)","display":false}
]`
