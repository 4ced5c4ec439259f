package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// How decisions look in command output. Everything a command prints passes
// through redact: a secret someone wrote into the log by hand is never shown
// (the log itself stays as they wrote it; doctor names the line).

// listLine is a decision in lists: id | status | text | #tags.
//
//	listLine(D-2026-03-01-0001 "Use Go" #lang) => "D-2026-03-01-0001 | active | Use Go | #lang"
func listLine(x *decision) string {
	s := x.ID + " | " + x.Status.String() + " | " + clean(text.OneLine(x.Short()))
	var tags []string
	for _, t := range x.Tags {
		if t = cleanTag(t); t != "" {
			tags = append(tags, "#"+t)
		}
	}
	if len(tags) > 0 {
		s += " | " + strings.Join(tags, " ")
	}
	return s
}

// showText is a decision in full, one field a line, as /decision show prints it.
func showText(x *decision) string {
	var sb text.Builder
	sb.WriteString(x.ID + " (" + x.Status.String() + ")")
	field := func(k, v string) {
		if v != "" {
			sb.WriteString("\n  " + k + ": " + clean(v))
		}
	}
	field("title", x.Title)
	field("text", x.Text)
	field("tags", strings.Join(x.Tags, ", "))
	field("reason", x.Reason)
	field("supersedes", x.Supersedes)
	field("superseded by", x.SupersededBy)
	field("conflicts with", strings.Join(x.Conflicts, ", "))
	field("conflict note", x.ConflictNote)
	by := x.CreatedBy
	if by == "" {
		by = "-"
	}
	field("created", x.Created()+" by "+by)
	field("updated", x.Updated())
	field("source", x.Source)
	field("category", x.Category)
	field("log lines", numstr.Itoa(x.AddLine)+"–"+numstr.Itoa(x.LastLine))
	return sb.String()
}

// appendJSON writes a decision in its readable runtime shape (the
// materialized view of docs/formats.md), redacted like every other output.
func appendJSON(b []byte, x *decision) []byte {
	w := jsonw.Open(b)
	w.Str("id", x.ID)
	w.Str("status", x.Status.String())
	w.Str("title", clean(x.Title))
	w.Str("text", clean(x.Text))
	w.Strs("tags", cleanAll(x.Tags))
	w.Str("reason", clean(x.Reason))
	if x.Supersedes == "" {
		w.Null("supersedes")
	} else {
		w.Str("supersedes", x.Supersedes)
	}
	if x.SupersededBy != "" {
		w.Str("supersededBy", x.SupersededBy)
	}
	w.Strs("conflictsWith", x.Conflicts)
	if x.ConflictNote != "" {
		w.Str("conflictNote", clean(x.ConflictNote))
	}
	w.Str("projectId", x.ProjectID)
	w.Str("createdAt", x.Created())
	w.Str("updatedAt", x.Updated())
	if x.CreatedBy != "" {
		w.Str("createdBy", x.CreatedBy)
	}
	if x.Source != "" {
		w.Str("source", x.Source)
	}
	if x.HasConf {
		w.Float("confidence", x.Confidence)
	}
	if x.Category != "" {
		w.Str("category", clean(x.Category))
	}
	return w.Close()
}

// likeness says how close a new text is to a match, for the person.
//
//	likeness(match of "Use Go", "use go!") => "same text"
func likeness(m match, text string) string {
	if normalize(text) == normalize(m.D.Short()) {
		return "same text"
	}
	return numstr.Itoa(int(m.Score*100+0.5)) + "% similar"
}

// oneLine collapses whitespace and redacts: a decision quoted in a message.
func oneLine(s string) string { return clean(text.OneLine(s)) }

//go:noinline
func clean(s string) string {
	out, _ := redact.String(s)
	return out
}

func cleanAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = clean(s)
	}
	return out
}
