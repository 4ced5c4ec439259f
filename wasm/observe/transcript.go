package observe

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// What this store puts into a session, by name, so the transcript can leave
// it out: the observer must never read our own memory back as conversation
// (it would store it again, and a block the model saw as "memory" would come
// back as something the user said).
const (
	// CustomTypeContext is the customType of the message that carries the
	// observations into a request (seed 004's name).
	CustomTypeContext = "observational-memory-context"
	// customTypeContinuation is the customType of the continuation hint.
	customTypeContinuation = "observational-memory-continuation"
	// CustomTypeLedger is the customType of the session custom entries that
	// hold the thread-scope ledger (one record each; encode).
	CustomTypeLedger = "pi-memory-om"
	// markerStart and markerEnd enclose every block of text this store
	// injects; whatever carries it (a custom message, the newest user
	// message), the transcript drops the text between them.
	markerStart = "<!-- pi-memory:observations -->"
	markerEnd   = "<!-- /pi-memory:observations -->"
)

// ours lists the custom types the transcript never shows the observer: ours
// and seed 004's state entries (a session observed by that extension before).
var ours = []string{CustomTypeContext, customTypeContinuation, CustomTypeLedger, "observational-memory-state"}

// How much of one tool's output and of one argument the observer reads. The
// rest is replaced by a line that says how much was left out: a 200 KB file
// read once is not something to remember line by line, its first lines and
// its last (where errors are) are. The entry is still covered once, and its
// full size still counts towards every threshold.
const (
	resultHead = 4000
	resultTail = 1500
	argMax     = 600
	argHead    = 400
)

// Roles of entries, as the transcript names them.
const (
	roleUser       = "user"
	roleAssistant  = "assistant"
	roleToolResult = "toolResult"
	roleBash       = "bashExecution"
	roleCustom     = "custom"
	roleSummary    = "summary"    // a summary written by pi or another extension
	roleCompaction = "compaction" // the compaction entry itself
)

// entry is one session entry as the observer and the scheduler see it.
type entry struct {
	ID     string
	Time   int64  // Unix ms
	Role   string // a Role… constant; "" for entries that are not conversation (labels, model changes, custom data)
	Text   string // what the observer reads of it, redacted; "" when it reads nothing
	Tokens int    // estimated tokens it adds to the model's context (its full size, before any cut)
	CanCut bool   // pi accepts it as a compaction's first kept entry (not a tool result)
	Ours   bool   // a compaction or summary this store wrote, or a block it injected

	Read, Modified []string // files its tool calls read, and wrote or edited

	firstKept string // for a compaction entry: its firstKeptEntryId
	day       int64  // local day of Time
	result    bool   // a tool result (kept with the call before it when chunking)
}

// transcript is a session branch, oldest entry first.
type transcript struct {
	Entries        []entry
	LastCompaction int // index of the newest compaction entry, -1 when there is none

	r *reader // kept so that Append can read more entries
}

// index returns the position of the entry with id, or -1.
func (t *transcript) index(id string) int {
	if id == "" {
		return -1
	}
	for i := len(t.Entries) - 1; i >= 0; i-- {
		if t.Entries[i].ID == id {
			return i
		}
	}
	return -1
}

// readEntries reads pi session entries, oldest first: a JSON array (what
// sessionManager.getBranch() or an event's branchEntries give) or JSON Lines
// (a session file; its header line and lines that are not objects are
// skipped). zone is the local offset from UTC in minutes, for the times the
// observer reads. The text of every entry is redacted; our own blocks
// (Ours, the markers) and tool results whose call is not in the branch are
// not shown to the observer, though their tokens still count.
//
//	readEntries(`[{"type":"message","id":"a1","timestamp":"2026-02-12T14:30:00.000Z","message":{"role":"user","content":"Fix the login bug"}}]`, 0)
//	  => one entry: ID "a1", Role "user", Text "[14:30] User: Fix the login bug"
func readEntries(data []byte, zone int) transcript {
	t := transcript{LastCompaction: -1, r: &reader{zone: zone, calls: map[string]string{}, withheld: map[string]bool{}}}
	t.Append(data)
	return t
}

// Append reads the entries that follow those t holds, in the formats
// readEntries reads, so a long session is read and redacted once rather
// than at every turn. Entries t already holds (by id, at the start of data)
// are skipped. It reports false, and reads nothing, when data edits an
// entry t has already read (a context_edit): read the whole branch again
// with readEntries then.
func (t *transcript) Append(data []byte) bool {
	raw := entriesOf(data)
	if len(t.Entries) > 0 {
		// Entries t already holds (by id, at the start of data) are skipped.
		i := 0
		for i < len(raw) {
			if !raw[i].IsObject() {
				i++
				continue
			}
			if id := jsonr.Get(raw[i], "id").Str; id == "" || t.index(id) < 0 {
				break
			}
			i++
		}
		raw = raw[i:]
	}
	return t.AppendEntries(raw)
}

// AppendEntries reads entries that follow those t holds, as splitBranch
// gives them. It reports false, and reads nothing, when one of them edits
// an entry t has already read (a context_edit): read the whole branch again
// with readEntries then.
func (t *transcript) AppendEntries(raw []gjson.Result) bool {
	if t.r == nil {
		t.r = &reader{calls: map[string]string{}, withheld: map[string]bool{}}
		if len(t.Entries) == 0 {
			t.LastCompaction = -1
		}
	}
	// context_edit entries change an earlier entry's content for the model
	// (or omit it); the observer reads what the model reads.
	for _, v := range raw {
		if jsonr.Get(v, "type").Str == "context_edit" {
			target := jsonr.Get(v, "targetId").Str
			if t.index(target) >= 0 {
				return false
			}
			if t.r.edits == nil {
				t.r.edits = map[string]string{}
			}
			t.r.edits[strings.Clone(target)] = strings.Clone(jsonr.Get(v, "replacement").Raw)
		}
	}
	for _, v := range raw {
		if !v.IsObject() {
			continue
		}
		e, ok := t.r.entry(v)
		if !ok {
			continue
		}
		if e.Role == roleCompaction {
			t.LastCompaction = len(t.Entries)
		}
		t.Entries = append(t.Entries, e)
	}
	return true
}

// splitBranch splits a branch, a JSON array of entries or JSON Lines (a
// session file), into its entries, in one pass over the text.
func splitBranch(data string) []gjson.Result {
	var raw []gjson.Result
	trimmed := strings.TrimLeft(data, " \t\r\n")
	if strings.HasPrefix(trimmed, "[") {
		gjson.Parse(trimmed).ForEach(func(_, v gjson.Result) bool {
			raw = append(raw, v)
			return true
		})
		return raw
	}
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && jsonr.Valid(line) {
			raw = append(raw, gjson.Parse(line))
		}
	}
	return raw
}

// entriesOf splits a JSON array or JSON Lines into values.
func entriesOf(data []byte) []gjson.Result { return splitBranch(string(data)) }

type reader struct {
	zone  int
	calls map[string]string // tool call id → how its result names it
	// withheld are the calls whose output is a secret by what printed it
	// (redact.ReadsSecret: op read, vault kv get, echo $DB_PASSWORD).
	withheld map[string]bool
	// edits holds each context edit's replacement as raw JSON ("" or "null":
	// the entry is omitted). Not gjson.Result: a map of it makes TinyGo link
	// every method of gjson.Result, Get and its modifiers with them (~250 KB).
	edits map[string]string
}

func (r *reader) entry(v gjson.Result) (entry, bool) {
	typ := jsonr.Get(v, "type").Str
	// What an entry keeps of the event's text is a copy (the id here, the
	// files of its tool calls, the call ids): a substring would hold the
	// whole event (pi's branch, hundreds of kilobytes) in memory, and TinyGo's
	// collector walks back from a pointer into the middle of an object to its
	// start, block by block, at every collection.
	e := entry{ID: strings.Clone(jsonr.Get(v, "id").Str)}
	if t, ok := civil.Parse(jsonr.Get(v, "timestamp").Str); ok {
		e.Time = t
	}
	switch typ {
	case "session", "context_edit":
		return e, false
	case "message":
		r.message(&e, jsonr.Get(v, "message"), jsonr.Get(v, "id").Str)
	case "compaction":
		e.Role, e.firstKept = roleCompaction, strings.Clone(jsonr.Get(v, "firstKeptEntryId").Str)
		e.Ours = isOurs(v)
		e.Tokens = budget.EstimateTokens(jsonr.Get(v, "summary").Str)
		if !e.Ours {
			r.summary(&e, "Summary of the earlier conversation", jsonr.RawAt(v, "summary"))
		}
	case "branch_summary":
		e.Role, e.CanCut = roleSummary, true
		e.Ours = isOurs(v)
		e.Tokens = budget.EstimateTokens(jsonr.Get(v, "summary").Str)
		if !e.Ours {
			r.summary(&e, "Summary of a branch the user left", jsonr.RawAt(v, "summary"))
		}
	case "custom_message":
		e.CanCut = true
		r.custom(&e, v, jsonr.Get(v, "id").Str)
	case "":
		if jsonr.Get(v, "role").Exists() { // a bare message, as in a context event
			r.message(&e, v, "")
			break
		}
		return e, false
	}
	e.day = clock{Ms: e.Time, Zone: r.zone}.Day()
	return e, true
}

// isOurs reports a compaction or summary entry whose details this store wrote.
func isOurs(v gjson.Result) bool {
	return jsonr.Get(v, "details.store").Str == detailsStore
}

func (r *reader) stamp(e *entry) string {
	return "[" + formatMinute(clock{Ms: e.Time, Zone: r.zone}.minute()) + "] "
}

var knownRoles = []string{roleUser, roleAssistant, roleToolResult, roleBash, roleCustom, "compactionSummary", "branchSummary"}

// roleOf is a message's role as one of the Role constants, or a copy for
// a role this package does not know: a substring of the event would keep
// all of it in memory for as long as the transcript keeps the entry (pi's
// branch, hundreds of kilobytes, once per event that added an entry).
func roleOf(role string) string {
	for _, known := range knownRoles {
		if role == known {
			return known
		}
	}
	return strings.Clone(role)
}

func (r *reader) message(e *entry, m gjson.Result, id string) {
	if t := jsonr.Get(m, "timestamp"); t.Type == gjson.Number {
		e.Time = int64(t.Num)
	}
	role := roleOf(jsonr.Get(m, "role").Str)
	content := jsonr.RawAt(m, "content")
	if id != "" && r.edits != nil {
		if rep, ok := r.edits[id]; ok {
			if rep == "" || rep == "null" {
				e.Role = role
				return // omitted from the model's context: nothing to observe or count
			}
			content = jsonr.RawAt(gjson.Parse(rep), "content")
		}
	}
	e.Role = role
	e.CanCut = role != roleToolResult
	var b text.Builder
	switch role {
	case roleUser:
		text, n := r.contentText(content)
		e.Tokens = n
		if text = strings.TrimSpace(text); text != "" {
			b.WriteString(cat(r.stamp(e), "User: ", text))
		}
	case roleAssistant:
		gjson.Parse(content).ForEach(func(_, blk gjson.Result) bool {
			switch jsonr.Get(blk, "type").Str {
			case "text":
				s, size := store.BoundedRaw(jsonr.RawAt(blk, "text"))
				s = clean(stripOurs(s))
				e.Tokens += budget.BytesTokens(size)
				if s = strings.TrimSpace(s); s != "" {
					line(&b, r.stamp(e)+"Assistant: "+s)
				}
			case "thinking":
				// Counted, never read: providers return summaries of the real
				// reasoning, and it is the largest part of many turns.
				e.Tokens += budget.EstimateTokens(jsonr.Get(blk, "thinking").Str)
			case "toolCall":
				name := jsonr.Get(blk, "name").Str
				args := jsonr.Get(blk, "arguments")
				e.Tokens += budget.EstimateTokens(args.Raw) + budget.EstimateTokens(name)
				call := name + "(" + renderArgs(args, argMax) + ")"
				line(&b, r.stamp(e)+"Assistant calls "+call)
				r.calls[strings.Clone(jsonr.Get(blk, "id").Str)] = name + "(" + renderArgs(args, 120) + ")"
				if cmd, _ := store.BoundedRaw(jsonr.RawAt(args, "command")); redact.ReadsSecret(cmd) {
					r.withheld[strings.Clone(jsonr.Get(blk, "id").Str)] = true
				}
				fileOp(e, name, args)
			}
			return true
		})
		if sr := jsonr.Get(m, "stopReason").Str; sr == "error" || sr == "aborted" {
			msg, _ := store.BoundedRaw(jsonr.RawAt(m, "errorMessage"))
			msg = clean(collapse(msg))
			line(&b, r.stamp(e)+"Assistant stopped ("+sr+")"+prefixed(": ", text.Bytes(msg, argMax)))
		}
	case roleToolResult:
		e.result = true
		text, n := r.contentText(content)
		e.Tokens = n
		call, ok := r.calls[jsonr.Get(m, "toolCallId").Str]
		if !ok {
			return // its call is not in this branch: a result without a call means nothing
		}
		status := ""
		if jsonr.Get(m, "isError").Bool() {
			status = " (error)"
		}
		jsonr.Get(m, "nestedCalls.calls").ForEach(func(_, c gjson.Result) bool {
			fileOp(e, jsonr.Get(c, "name").Str, jsonr.Get(c, "arguments"))
			return true
		})
		b.WriteString(cat(r.stamp(e), "Result of ", call, status, ":"))
		if text = strings.TrimRight(text, " \t\r\n"); text != "" && r.withheld[jsonr.Get(m, "toolCallId").Str] {
			b.WriteString(" " + redact.Withheld)
		} else if text != "" {
			b.WriteString("\n" + shorten(text, resultHead, resultTail))
		} else {
			b.WriteString(" (no output)")
		}
	case roleBash:
		out, size := store.BoundedRaw(jsonr.RawAt(m, "output"))
		e.Tokens = budget.EstimateTokens(jsonr.Get(m, "command").Str) + budget.BytesTokens(size)
		if jsonr.Get(m, "excludeFromContext").Bool() {
			e.Tokens = 0
			return // the user hid it from the model; the observer does not see it either
		}
		status := ""
		switch ex := jsonr.Get(m, "exitCode"); {
		case jsonr.Get(m, "cancelled").Bool():
			status = " (cancelled)"
		case ex.Type == gjson.Number:
			status = " (exit " + itoa(int(ex.Num)) + ")"
		}
		// The command is redacted as written, then again as one line: a
		// heredoc's heading names the values below it only across its lines
		// (h-v94 c10), and the fold could join a label and a value.
		cmd, _ := store.BoundedRaw(jsonr.RawAt(m, "command"))
		b.WriteString(cat(r.stamp(e), "User ran `", clean(collapse(clean(cmd))), "`", status, ":"))
		if out = strings.TrimRight(clean(out), " \t\r\n"); out != "" && redact.ReadsSecret(cmd) {
			b.WriteString(" " + redact.Withheld)
		} else if out != "" {
			b.WriteString("\n" + shorten(out, resultHead, resultTail))
		}
	case roleCustom:
		r.custom(e, m, id)
		return
	case "compactionSummary":
		e.Role = roleSummary
		r.summary(e, "Summary of the earlier conversation", jsonr.RawAt(m, "summary"))
		return
	case "branchSummary":
		e.Role = roleSummary
		r.summary(e, "Summary of a branch the user left", jsonr.RawAt(m, "summary"))
		return
	default:
		e.Role = ""
		return
	}
	// Redacted again as a whole: pieces clean on their own can make a
	// secret together.
	// Each part was read as its ends; the parts together are read so too
	// (h-v94 a4: 200 blocks of 60 KB were redacted whole once joined, 5 s).
	e.Text = clean(store.Bounded(b.String()))
}

func (r *reader) custom(e *entry, v gjson.Result, id string) {
	e.Role = roleCustom
	ct := jsonr.Get(v, "customType").Str
	if ct == store.OutputType {
		// A command's output: the person's to read, never in a model request.
		e.Ours = true
		return
	}
	text, n := r.contentText(jsonr.RawAt(v, "content"))
	e.Tokens = n
	if has(ours, ct) {
		e.Ours = true
		return
	}
	if text = strings.TrimSpace(text); text != "" {
		e.Text = clean(r.stamp(e) + "Message from an extension (" + collapse(ct) + "): " + text)
	}
}

func (r *reader) summary(e *entry, what, raw string) {
	if e.Role == "" {
		e.Role = roleSummary
	}
	text, size := store.BoundedRaw(raw)
	e.Tokens = budget.BytesTokens(size)
	if text = strings.TrimSpace(clean(stripOurs(text))); text != "" {
		e.Text = r.stamp(e) + what + ":\n" + text
	}
}

// contentText is the text of a content field (a string, or blocks of text
// and images) with our blocks removed and redacted, and the tokens the
// field adds to the model's context.
func (r *reader) contentText(raw string) (string, int) {
	if strings.HasPrefix(raw, `"`) {
		s, size := store.BoundedRaw(raw)
		return clean(stripOurs(s)), budget.BytesTokens(size)
	}
	c := gjson.Parse(raw)
	var b text.Builder
	tokens := 0
	c.ForEach(func(_, blk gjson.Result) bool {
		switch jsonr.Get(blk, "type").Str {
		case "text":
			s, size := store.BoundedRaw(jsonr.RawAt(blk, "text"))
			tokens += budget.BytesTokens(size)
			if s = stripOurs(s); strings.TrimSpace(s) != "" {
				if b.Len() > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(s)
			}
		case "image":
			tokens += imageTokens
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(cat("[image ", clean(collapse(jsonr.Get(blk, "mimeType").Str)), "]"))
		}
		return true
	})
	return clean(store.Bounded(b.String())), tokens
}

// imageTokens is what an image is counted as (pi's own estimate: 4,800
// characters' worth).
const imageTokens = 1200

// stripOurs removes every injected block, this store's and every other's
// (wasm/marker): what memory put in is never observed as conversation.
func stripOurs(s string) string { return marker.Strip(s) }

// clean is what every text from the session and from a model goes through
// before this store keeps or shows it: control characters and escape
// sequences removed (sanitize: a tool's colours, a model's OSC 52 would
// otherwise reach the observer's prompt and /om view's unobserved part),
// then redacted.
//
//go:noinline
func clean(s string) string {
	out, _ := redact.String(sanitize(s))
	return out
}

//go:noinline
func line(b *text.Builder, s string) {
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(s)
}

//go:noinline
func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

// shorten keeps the head and the tail of a long text and says how much of
// the middle it left out.
//
//go:noinline
func shorten(s string, head, tail int) string {
	if len(s) <= head+tail+200 {
		return s
	}
	h, t := text.Bytes(s, head), tailRunes(s, tail)
	return h + "\n[… " + itoa(len(s)-len(h)-len(t)) + " characters of output not shown …]\n" + t
}

// renderArgs writes a tool call's arguments as key=value pairs, strings
// quoted, each value at most max bytes. Each pair is redacted whole, before
// it is cut: a value is a secret because of its key ("password=…"), and a
// secret cut in half would no longer be recognised.
//
//	renderArgs({"path":"a.go","limit":20}, 600) => `path="a.go", limit=20`
//
//go:noinline
func renderArgs(args gjson.Result, max int) string {
	if !args.IsObject() {
		return text.Bytes(clean(collapse(redact.JSONStrings(args.Raw))), max)
	}
	var b []byte
	args.ForEach(func(k, v gjson.Result) bool {
		if len(b) > 0 {
			b = append(b, ", "...)
		}
		var pair []byte
		pair = append(pair, k.Str...)
		pair = append(pair, '=')
		key := len(pair)
		// Each string read as it says, before JSON quotes it: a command's
		// "export TOKEN=\"V\"" hides V from the patterns (redact.JSONStrings).
		if v.Type == gjson.String {
			// Read as its ends past store.MaxRead: a model writing an 8 MB
			// file held pi while all of it was redacted (h-v94 a1). ForEach
			// has decoded it already: not read again from its JSON.
			pair = jsonw.String(pair, clean(store.Bounded(v.Str)))
		} else {
			pair = append(pair, collapse(redact.JSONStrings(v.Raw))...)
		}
		p := clean(string(pair))
		if len(p)-key > max {
			head := argHead
			if head > max {
				head = max
			}
			cut := text.Bytes(p, key+head)
			p = cut + "…[" + text.Plural(len(p)-len(cut), "more character", "more characters") + "]"
		}
		b = append(b, p...)
		return true
	})
	return string(b)
}

// fileOp records the files a read, write or edit call names (pi's own
// tools; args.path).
//
//go:noinline
func fileOp(e *entry, name string, args gjson.Result) {
	p := jsonr.Get(args, "path")
	if p.Type != gjson.String || p.Str == "" {
		return
	}
	path := strings.Clone(clean(p.Str))
	switch name {
	case "read":
		if !has(e.Read, path) {
			e.Read = append(e.Read, path)
		}
	case "write", "edit":
		if !has(e.Modified, path) {
			e.Modified = append(e.Modified, path)
		}
	}
}
