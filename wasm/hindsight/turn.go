package hindsight

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	txt "github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// Caps of one part of a serialized turn: what a tool printed matters by its
// head and its end, a long argument by its start.
const (
	capUser      = 8000
	capAssistant = 6000
	capArgs      = 600
	capResult    = 2000
	capContext   = 300
)

// turn is what a retain keeps of one run: its text, the context line the
// server's model reads with it, and the time of the user message it
// answers (the document id's part).
type turn struct {
	Content, Context string
	UserMs           int64
}

// serializeTurn writes a run's messages (pi's agent_end event.messages:
// user, assistant, toolResult, custom…) as the text a retain keeps: user
// and assistant text, each tool call with its arguments and its result,
// each part capped and the whole cut to maxChars. Every injected block is
// stripped (recalled memory is never retained), custom messages (what
// extensions inject, ours included) are left out, and so is a
// hindsight_retain call with its result: what it keeps is a document of its
// own already (the server would extract its facts twice). Then the content
// and the context are redacted. Empty Content: nothing worth keeping.
//
//	serializeTurn(`[{"role":"user","content":"Use Go","timestamp":5}]`, "k", 16000)
//	=> turn{Content: "user: Use Go", Context: "pi session in k: Use Go", UserMs: 5}
func serializeTurn(messages string, repoKey string, maxChars int) turn {
	var t turn
	var b txt.Builder
	results := map[string]string{}
	arr := gjson.Parse(messages)
	arr.ForEach(func(_, m gjson.Result) bool {
		if jsonr.Get(m, "role").Str == "toolResult" {
			results[jsonr.Get(m, "toolCallId").Str] = contentText(jsonr.RawAt(m, "content"))
		}
		return true
	})
	first := ""
	arr.ForEach(func(_, m gjson.Result) bool {
		switch jsonr.Get(m, "role").Str {
		case "user":
			text := messageText(jsonr.RawAt(m, "content"))
			if t.UserMs == 0 {
				t.UserMs = jsonr.Get(m, "timestamp").Int()
			}
			if text != "" {
				if first == "" {
					first = text
				}
				line(&b, "user: ", txt.Whole(redacted(text), capUser))
			}
		case "assistant":
			jsonr.Get(m, "content").ForEach(func(_, blk gjson.Result) bool {
				switch jsonr.Get(blk, "type").Str {
				case "text":
					s, _ := store.BoundedRaw(jsonr.RawAt(blk, "text"))
					if s = strings.TrimSpace(marker.Strip(s)); s != "" {
						line(&b, "assistant: ", txt.Whole(redacted(s), capAssistant))
					}
				case "toolCall":
					if jsonr.Get(blk, "name").Str == retainTool {
						break
					}
					args := compact(redact.JSONStrings(jsonr.Get(blk, "arguments").Raw))
					res := strings.TrimSpace(marker.Strip(results[jsonr.Get(blk, "id").Str]))
					if res != "" && redact.ReadsSecret(jsonr.Get(blk, "arguments.command").Str) {
						res = redact.Withheld // op read, vault kv get: a bare value
					}
					line(&b, "tool "+jsonr.Get(blk, "name").Str+" ", txt.Whole(args, capArgs))
					if res != "" {
						line(&b, "result: ", headTail(res, capResult))
					}
				}
				return true
			})
		}
		return true
	})
	content := txt.Whole(b.String(), maxChars)
	t.Content = written(strings.TrimSpace(content))
	if t.Content != "" {
		ctx := "pi session in " + repoKey
		if f := strings.Join(strings.Fields(first), " "); f != "" {
			ctx += ": " + txt.Whole(f, capContext)
		}
		t.Context = written(ctx)
	}
	return t
}

// redacted is a part of a turn redacted on its own, before its prefix
// ("user: ") and its cap: a "## Passwords" at its start is a heading only
// there, and a secret cut by the cap is no longer seen (h-v94 c8, c4).
func redacted(s string) string {
	r, _ := redact.String(s)
	return r
}

// written is what goes to the server of s: its secrets marked, then what a
// terminal or a model would read as something else removed (marker.Plain;
// after the redaction, which reads a secret through it: "\x1bghp_…" is
// marked whole, not left as "hp_…"), so a secret inside a control string
// ("\x1bX…", invisible on a screen) goes with it.
func written(s string) string {
	r, _ := redact.String(s)
	return strings.TrimSpace(marker.Plain(r))
}

// toolTurn is what the hindsight_retain tool keeps of the model's content
// and context: our injected blocks stripped (what memory said is never
// retained again), the content cut to maxChars, the context to 1000 bytes
// (by default where it was stated), both redacted. Not ok when no content
// is left to keep. UserMs is the caller's: the time it is queued.
//
//	toolTurn("Deploys go through make release", "", "github.com/o/r", 16000)
//	=> turn{Content: "Deploys go through make release", Context: "stated in a pi session in github.com/o/r"}, true
func toolTurn(content, context, repoKey string, maxChars int) (turn, bool) {
	var t turn
	// Cut after: a cut never lands in what Plain removes.
	if t.Content = txt.Whole(written(marker.Strip(content)), maxChars); t.Content == "" {
		return turn{}, false
	}
	ctx := written(marker.Strip(context))
	if ctx == "" {
		ctx = written("stated in a pi session in " + repoKey)
	}
	t.Context = txt.Whole(ctx, 1000)
	return t, true
}

func line(b *txt.Builder, prefix, text string) {
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	b.WriteString(prefix + text)
}

// messageText is what a message's content says, our injected blocks removed:
// a recall's query and a retained turn's user and assistant text.
func messageText(content string) string {
	return strings.TrimSpace(marker.Strip(contentText(content)))
}

// contentText is the text of a message's content as it stands in JSON (a
// string, or blocks whose text blocks it joins with newlines), each text
// read as its ends past store.MaxRead: a pasted log is not decoded whole
// for the 8,000 bytes a turn keeps of it (h-v93 a1).
func contentText(raw string) string {
	if strings.HasPrefix(raw, `"`) {
		s, _ := store.BoundedRaw(raw)
		return s
	}
	var b txt.Builder
	gjson.Parse(raw).ForEach(func(_, blk gjson.Result) bool {
		if jsonr.Get(blk, "type").Str == "text" {
			s, _ := store.BoundedRaw(jsonr.RawAt(blk, "text"))
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(s)
		}
		return true
	})
	return store.Bounded(b.String()) // the blocks together read as their ends too (h-v94 a4)
}

// headTail keeps the first two thirds and the last third of n bytes of s,
// each redacted around its cut (redact.Ends).
func headTail(s string, n int) string {
	head, tail := redact.Ends(s, n)
	if tail == "" {
		return redacted(head)
	}
	return head + " […] " + tail
}

// compact is JSON without the spaces between tokens, so the same arguments
// give the same text whoever encoded them.
func compact(raw string) string {
	b := make([]byte, 0, len(raw))
	in := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case in:
			b = append(b, c)
			if c == '\\' && i+1 < len(raw) {
				i++
				b = append(b, raw[i])
			} else if c == '"' {
				in = false
			}
		case c == '"':
			in = true
			b = append(b, c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			b = append(b, c)
		}
	}
	return string(b)
}
