package hsimport

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// DocumentPrefix starts every imported session's document id.
const DocumentPrefix = "pimem-import:"

// DocumentID is the document an imported session becomes: one per session,
// so importing it again (the file grew, or a second run after a lost
// checkpoint) replaces that document instead of adding a second one.
//
//	DocumentID("0195f3a2-7c1e-7d4b-9a55-2f8e1c0b6d11") => "pimem-import:0195f3a2-7c1e-7d4b-9a55-2f8e1c0b6d11"
func DocumentID(sessionID string) string { return DocumentPrefix + sessionID }

// Item is one retain item, the shape of Hindsight's POST …/memories items.
type Item struct {
	Content    string
	Context    string
	Timestamp  string // RFC 3339, the session's start; "" lets the server use the time it receives it
	DocumentID string
	Tags       []string
	Metadata   [][2]string // key, value (Hindsight's metadata is string to string); in this order
}

// NewItem is the retain item of a session that ran in the project whose repo
// key is repoKey (wasm/hindsight's identity; "" when the caller has none:
// the session's cwd stands in). One item per session: the server chunks a
// long content itself (3,000 characters a chunk, at paragraph breaks, which
// Content puts between turns), so a session is never split into several
// documents. Content, context, tags and metadata are redacted, the content
// whole and again: pieces clean on their own can make a secret together.
//
//	NewItem(s, "github.com/ada/app") => Item{DocumentID: "pimem-import:<s.ID>",
//	  Context: "pi session of 2026-11-20 in github.com/ada/app",
//	  Tags: ["project:github.com/ada/app", "session:<s.ID>", "source:import"], …}
func NewItem(s Session, repoKey string) Item {
	project := repoKey
	if project == "" {
		project = s.Cwd
	}
	project, _ = redact.String(project) // a key is normalized without credentials; a path or a configured one may hold one
	content, _ := redact.String(s.Content())
	ctx := "pi session"
	if s.Start > 0 {
		ctx += " of " + civil.FormatTime(s.Start)[:10]
	}
	if project != "" {
		ctx += " in " + project
	}
	ctx, _ = redact.String(ctx)
	it := Item{
		Content:    content,
		Context:    ctx,
		DocumentID: DocumentID(s.ID),
		Tags:       []string{"project:" + project, "session:" + s.ID, "source:import"},
	}
	if s.Start > 0 {
		it.Timestamp = civil.FormatTime(s.Start)
	}
	meta := func(k, v string) {
		if v != "" {
			v, _ = redact.String(v)
			it.Metadata = append(it.Metadata, [2]string{k, v})
		}
	}
	meta("source", "pi-memory import")
	meta("session_id", s.ID)
	meta("cwd", s.Cwd)
	meta("started", it.Timestamp)
	meta("messages", numstr.Itoa(s.Messages))
	meta("parent_session", s.Parent)
	if s.Cut > 0 {
		meta("not_sent", numstr.Itoa(s.Cut)+" middle parts (over the size limit)")
	}
	return it
}

// AppendJSON appends the item as Hindsight reads it. update_mode is
// "replace" (the server's default, written out so a server whose default
// changes still replaces).
func (it Item) AppendJSON(b []byte) []byte {
	o := jsonw.Open(b)
	o.Str("content", it.Content)
	o.Str("context", it.Context)
	if it.Timestamp != "" {
		o.Str("timestamp", it.Timestamp)
	}
	o.Str("document_id", it.DocumentID)
	o.Strs("tags", it.Tags)
	m := jsonw.Open(nil)
	for _, kv := range it.Metadata {
		m.Str(kv[0], kv[1])
	}
	o.Raw("metadata", m.Close())
	o.Str("update_mode", "replace")
	return o.Close()
}

// RequestBody is the body of POST {url}/v1/default/banks/{bank}/memories for
// items: `{"items":[…],"async":true}`. Async: the server answers once the
// items are queued, and extracts facts in the background; an import of a
// thousand sessions does not hold a request open per session's model calls.
func RequestBody(items []Item) []byte {
	b := append([]byte(nil), `{"items":`...)
	b = jsonw.Array(b, len(items), func(b []byte, i int) []byte { return items[i].AppendJSON(b) })
	return append(b, `,"async":true}`...)
}

// RequestPath is the path, after the server's URL, that a retain for bank
// goes to. The bank id is escaped for a URL path: ids derived by
// wasm/hindsight need no escaping, a configured one might.
//
//	RequestPath("pimem-app-1a2b3c4d5e") => "/v1/default/banks/pimem-app-1a2b3c4d5e/memories"
func RequestPath(bank string) string {
	return "/v1/default/banks/" + escapePath(bank) + "/memories"
}

func escapePath(s string) string {
	const hex = "0123456789ABCDEF"
	var b text.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
