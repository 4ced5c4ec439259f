package hsimport

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/tidwall/gjson"
)

// Limits caps what one session sends. A zero field takes its default.
type Limits struct {
	// TextChars caps one user or assistant text (default 8,000): a pasted
	// log is not a fact to keep line by line.
	TextChars int
	// ArgChars caps one tool call's arguments (default 300): the call's
	// name and target matter, a whole file written through it does not.
	ArgChars int
	// ResultChars caps one tool result or shell output (default 1,000):
	// its head and its tail, where errors are.
	ResultChars int
	// SessionChars caps the whole conversation (default 400,000, about 130
	// of the server's 3,000-character extraction chunks): past it the
	// middle turns are left out and a line says how many.
	SessionChars int
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.TextChars, 8000)
	def(&l.ArgChars, 300)
	def(&l.ResultChars, 1000)
	def(&l.SessionChars, 400000)
	return l
}

// storeObservations is the details.store of the summaries our
// observational memory writes (wasm/observe.DetailsStore): observations are
// our memory of the conversation, not the conversation.
const storeObservations = "observations"

type renderer struct {
	lim   Limits
	s     *Session
	calls map[string]string // tool call id → tool name
	// withheld are the calls whose output is a secret by what printed it
	// (redact.ReadsSecret).
	withheld map[string]bool
	edits    map[string]string // entry id → raw replacement ("null": omitted)
}

func (r *renderer) entry(e gjson.Result) {
	switch jsonr.Get(e, "type").Str {
	case "message":
		r.message(jsonr.Get(e, "message"), jsonr.Get(e, "id").Str)
	case "branch_summary":
		if jsonr.Get(e, "details.store").Str == storeObservations {
			r.s.Omitted++
			return
		}
		if t := r.clean(jsonr.Get(e, "summary").Str, r.lim.TextChars); t != "" {
			r.add(RoleSummary, t, false)
		}
	case "custom_message":
		// Extensions' messages (ours among them) are not the conversation:
		// the extension that wrote one writes it again when it applies.
		r.s.Omitted++
	}
	// compaction: a digest of the entries before it, which the branch holds
	// in full. custom, model_change, label, session_info, context_edit and
	// the rest carry no conversation.
}

func (r *renderer) message(m gjson.Result, id string) {
	role := jsonr.Get(m, "role").Str
	content := jsonr.Get(m, "content")
	if rep, ok := r.edits[id]; ok && id != "" {
		if rep == "" || rep == "null" {
			r.s.Omitted++
			return
		}
		content = jsonr.Get(gjson.Parse(rep), "content")
	}
	switch role {
	case "user":
		if t := r.clean(r.contentText(content), r.lim.TextChars); t != "" {
			r.add(RoleUser, t, true)
			return
		}
	case "assistant":
		first := true
		content.ForEach(func(_, blk gjson.Result) bool {
			switch jsonr.Get(blk, "type").Str {
			case "text":
				if t := r.clean(jsonr.Get(blk, "text").Str, r.lim.TextChars); t != "" {
					r.add(RoleAssistant, t, first)
					first = false
				}
			case "toolCall":
				name := oneLine(jsonr.Get(blk, "name").Str)
				r.calls[jsonr.Get(blk, "id").Str] = name
				if redact.ReadsSecret(jsonr.Get(blk, "arguments.command").Str) {
					r.withheld[jsonr.Get(blk, "id").Str] = true
				}
				r.add(RoleToolCall, name+" "+r.clean(oneLine(redact.JSONStrings(jsonr.Get(blk, "arguments").Raw)), r.lim.ArgChars), first)
				first = false
			}
			// thinking: providers return summaries of the real reasoning;
			// the text and the calls say what was done.
			return true
		})
		if !first {
			return
		}
	case "toolResult":
		name, ok := r.calls[jsonr.Get(m, "toolCallId").Str]
		if !ok {
			name = oneLine(jsonr.Get(m, "toolName").Str)
		}
		if jsonr.Get(m, "isError").Bool() {
			name += " (error)"
		}
		t := r.clean(r.contentText(content), r.lim.ResultChars)
		if t == "" {
			t = "(no output)"
		} else if r.withheld[jsonr.Get(m, "toolCallId").Str] {
			t = redact.Withheld
		}
		r.add(RoleToolResult, name+": "+t, true)
		return
	case "bashExecution":
		if jsonr.Get(m, "excludeFromContext").Bool() {
			break // the user kept it from the model (!!cmd); it is not sent either
		}
		status := ""
		switch ex := jsonr.Get(m, "exitCode"); {
		case jsonr.Get(m, "cancelled").Bool():
			status = " (cancelled)"
		case ex.Type == gjson.Number:
			status = " (exit " + numstr.Itoa(int(ex.Num)) + ")"
		}
		// Redacted as written, then again as one line: a heredoc's heading
		// names the values below it only across its lines (h-v94 c10).
		t := "`" + r.redact(oneLine(r.clean(jsonr.Get(m, "command").Str, r.lim.ArgChars))) + "`" + status
		if out := r.clean(jsonr.Get(m, "output").Str, r.lim.ResultChars); out != "" && redact.ReadsSecret(jsonr.Get(m, "command").Str) {
			t += "\n" + redact.Withheld
		} else if out != "" {
			t += "\n" + out
		}
		r.add(RoleShell, t, true)
		return
	}
	// custom (hookMessage before version 3): an extension's; anything
	// else, or a message with nothing left to send.
	r.s.Omitted++
}

func (r *renderer) add(role, text string, message bool) {
	r.s.Turns = append(r.s.Turns, Turn{Role: role, Text: text, first: message})
	if message {
		r.s.Messages++
	}
}

// contentText is the text of a content field: a string, or blocks of text
// and images (an image is named, never sent).
func (r *renderer) contentText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var b text.Builder
	c.ForEach(func(_, blk gjson.Result) bool {
		var s string
		switch jsonr.Get(blk, "type").Str {
		case "text":
			s = jsonr.Get(blk, "text").Str
		case "image":
			s = "[image]"
		default:
			return true
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
		return true
	})
	return b.String()
}

// clean strips our blocks from s, redacts it and cuts it to max bytes. What
// is kept of a long text is its ends as every store reads them (redact.Ends:
// each redacted with what stood around its cut and what heads the tail; a
// text of 40 KB is not scanned whole to keep 1 KB of it).
func (r *renderer) clean(s string, max int) string {
	s = strings.TrimSpace(marker.Strip(s))
	if s == "" {
		return ""
	}
	if len(s) <= max+2*redact.Window {
		return shorten(r.redact(s), max)
	}
	h, t := redact.Ends(s, max)
	// Counted in what Ends read, whether or not its cut kept the mark.
	r.s.Redacted += len(redact.Find(s[:max*2/3+redact.Window])) + len(redact.Find(s[len(s)-max/3-redact.Window:]))
	return h + gap(len(s)-len(h)-len(t)) + t
}

func (r *renderer) redact(s string) string {
	if found := redact.Find(s); len(found) > 0 {
		r.s.Redacted += len(found)
		s, _ = redact.String(s)
	}
	return s
}

// shorten keeps the first two thirds of max bytes of s and the last third,
// and says how much of the middle it left out. Cuts fall between runes.
//
//	shorten("a long … text", 10) => "a lon\n[… 123 characters not sent …]\n text"
func shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	h, t := cutHead(s, max*2/3), cutTail(s, max/3)
	return h + gap(len(s)-len(h)-len(t)) + t
}

// cutHead is at most n bytes from the start of s, ending between runes.
func cutHead(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// cutTail is at most n bytes from the end of s, starting on a rune.
func cutTail(s string, n int) string {
	if n >= len(s) {
		return s
	}
	from := len(s) - n
	for from < len(s) && !utf8.RuneStart(s[from]) {
		from++
	}
	return s[from:]
}

func gap(n int) string {
	return "\n[… " + text.Plural(n, "character", "characters") + " not sent …]\n"
}

// oneLine folds line breaks and tabs into spaces: a name or a command on
// one line of the content.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// trim leaves out middle turns until the content fits max bytes, keeping as
// many turns from the start as from the end, and puts one turn in their
// place that says what was left out.
func (s *Session) trim(max int) {
	total := 0
	for i, t := range s.Turns {
		total += len(t.Role) + 2 + len(t.Text)
		if i > 0 {
			total += 2
		}
	}
	if total <= max {
		return
	}
	half := max / 2
	size := func(t Turn) int { return len(t.Role) + 4 + len(t.Text) }
	head, used := 0, 0
	for head < len(s.Turns) && used+size(s.Turns[head]) <= half {
		used += size(s.Turns[head])
		head++
	}
	tail, used := len(s.Turns), 0
	for tail > head && used+size(s.Turns[tail-1]) <= half {
		used += size(s.Turns[tail-1])
		tail--
	}
	gone, chars := 0, 0
	for _, t := range s.Turns[head:tail] {
		if t.first {
			gone++
		}
		chars += len(t.Text)
	}
	s.Messages -= gone
	s.Omitted += gone
	note := Turn{Role: RoleGap, Text: text.Plural(tail-head, "part", "parts") + " of the conversation (" + text.Plural(gone, "message", "messages") + ", " + text.Plural(chars, "character", "characters") + ") in the middle of this session"}
	s.Turns = append(append(s.Turns[:head:head], note), s.Turns[tail:]...)
	s.Cut = tail - head
}
