package search

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// ToolTokens caps memory_search's result: enough for the default eight hits
// with their snippets, small beside a model's context.
const ToolTokens = 1000

// Width is the column the text a person reads wraps at.
const Width = text.Width

// ForModel is memory_search's result: one hit a line, best first, each with
// its kind, its full citation (Ref: what memory_forget takes for a decision
// or a note), its status and date, and its snippet; within ToolTokens,
// saying how many hits did not fit.
//
//  1. decision D-20261120-0001 (superseded, 2026-11-20): Use MySQL for the primary database
//  2. note /w/app/.pi/memory/MEMORY.md:3: Run tests with -race
//
// searched names what was searched, as a result without hits says it.
func ForModel(q string, hits []Hit, searched []string) string {
	if len(hits) == 0 {
		return "No memory matches " + said(q) + " (" + strings.Join(searched, ", ") + "). " +
			"Search matches words, not meanings: try other words for the same thing (a synonym, the name of a file, command or tool), or fewer words."
	}
	var b text.Builder
	head := countHits(len(hits)) + " for " + said(q) + ", best first (a decision's or a note's id is what memory_forget takes):"
	b.WriteString(head)
	capBytes := budget.TokenBytes(ToolTokens)
	for i := range hits {
		h := &hits[i]
		line := "\n" + numstr.Itoa(i+1) + ". " + h.Doc.Kind.String() + " " + h.Doc.Ref
		if m := meta(&h.Doc); m != "" {
			line += " (" + m + ")"
		}
		line += ": " + h.Snippet
		if t := h.Turn; t != nil {
			line += "\n   " + turnOf(h) + ": " + t.Snippet
		}
		if b.Len()+len(line) > capBytes-200 {
			b.WriteString("\n(" + numstr.Itoa(len(hits)-i) + " more not shown: the result is capped at " + numstr.Itoa(ToolTokens) + " tokens; search for fewer words or a lower limit.)")
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// ForPerson is /memory search's output at Width columns: each hit is its
// citation as a person opens it (Cite), its kind, status and date, then its
// snippet wrapped and indented.
//
//	2 matches for "database":
//	  D-20261120-0001  decision · superseded · 2026-11-20
//	    Use MySQL for the primary database
func ForPerson(q string, hits []Hit, searched []string) string {
	if len(hits) == 0 {
		return "Nothing matches " + said(q) + " in " + text.Series(searched, "or") + "."
	}
	var b text.Builder
	b.WriteString(countHits(len(hits)) + " for " + said(q) + ":")
	for i := range hits {
		h := &hits[i]
		what := h.Doc.Kind.String()
		if h.Doc.Kind == Message {
			what = "earlier session"
		}
		if m := meta(&h.Doc); m != "" {
			what += " · " + strings.ReplaceAll(m, ", ", " · ")
		}
		if cite := h.Doc.Cite; utf8.RuneCountInString(cite)+2+2+utf8.RuneCountInString(what) <= Width {
			b.WriteString("\n  " + cite + "  " + what)
		} else {
			b.WriteString("\n  " + cite + "\n    " + what)
		}
		// Made data before it is wrapped: a marker split over two lines
		// would be read by no exit's Data, and by a model (h-v64).
		lines := text.Wrap(marker.Data(h.Snippet), Width-4)
		if t := h.Turn; t != nil {
			lines = append(lines, text.Wrap(marker.Data(turnOf(h)+": "+t.Snippet), Width-4)...)
		}
		for _, l := range lines {
			b.WriteString("\n    " + l)
		}
	}
	return b.String()
}

// turnOf names the other half of h's exchange (Hit.Turn) and cites it: by
// its line when it is in h's file.
//
//	turnOf(hit /s.jsonl:40 with turn /s.jsonl:41) => "answered at line 41"
func turnOf(h *Hit) string {
	ref, at := h.Turn.Doc.Ref, "answered at "
	if strings.HasPrefix(h.Turn.Doc.Text, asker) {
		at = "in answer to "
	}
	if i := strings.LastIndexByte(ref, ':'); i > 0 && strings.HasPrefix(h.Doc.Ref, ref[:i+1]) {
		ref = "line " + ref[i+1:]
	}
	return at + ref
}

// said is a query quoted to be said back: redacted, as every entry shown
// is (a person or a model may paste a secret into a search).
func said(q string) string {
	q, _ = redact.String(q)
	return strconv.Quote(q)
}

func countHits(n int) string { return text.Plural(n, "match", "matches") }

// meta is a hit's status and day, as much as it has of them.
func meta(d *Doc) string {
	var parts []string
	if d.Mark != "" {
		parts = append(parts, d.Mark)
	}
	if d.Time > 0 {
		parts = append(parts, civil.Day(d.Time))
	}
	return strings.Join(parts, ", ")
}

// ParseLimit reads /memory search's --limit: DefaultLimit when not given,
// else a whole number from 1 to MaxLimit.
//
//	ParseLimit("") => DefaultLimit; ParseLimit("3") => 3; ParseLimit("0") => error
func ParseLimit(v string) (int, error) {
	if v == "" {
		return DefaultLimit, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxLimit {
		return 0, errors.New("/memory search: --limit must be a whole number from 1 to " + numstr.Itoa(MaxLimit))
	}
	return n, nil
}

// JSON is /memory search --json: every hit with its kind, Ref, Cite, mark
// and time when it has them, snippet and score (to three places).
func JSON(hits []Hit) []byte {
	return jsonw.Array(nil, len(hits), func(b []byte, i int) []byte {
		h := &hits[i]
		o := jsonw.Open(b)
		o.Str("kind", h.Doc.Kind.String())
		o.Str("ref", h.Doc.Ref)
		o.Str("cite", h.Doc.Cite)
		if h.Doc.Mark != "" {
			o.Str("mark", h.Doc.Mark)
		}
		if h.Doc.Time > 0 {
			o.Int("time", h.Doc.Time)
		}
		o.Str("snippet", h.Snippet)
		if t := h.Turn; t != nil {
			to := jsonw.Open(nil)
			to.Str("ref", t.Doc.Ref)
			to.Str("cite", t.Doc.Cite)
			to.Str("snippet", t.Snippet)
			o.Raw("turn", to.Close())
		}
		o.Float("score", float64(int(h.Score*1000+0.5))/1000)
		return o.Close()
	})
}

// Candidates is what a forget by words that is not clear answers: the
// entries to choose from, each with the id to give.
func Candidates(q string, hits []Hit) string {
	var b text.Builder
	switch {
	case number(q):
		// A number alone is listed, never forgotten at once (ToForget).
		b.WriteString(numstr.Itoa(len(hits)) + " " + plural(len(hits), "entry matches", "entries match") + " the number " + said(q) + "; a number alone forgets nothing. Forget " + plural(len(hits), "it", "one") + " by its id:")
	case len(hits) == 1:
		b.WriteString("1 entry matches " + said(q) + " only in part; nothing was forgotten. Forget it by its id if it is the one:")
	default:
		b.WriteString(numstr.Itoa(len(hits)) + " entries match " + said(q) + " and none clearly best; nothing was forgotten. Forget one by its id:")
	}
	for i, h := range hits {
		b.WriteString("\n" + numstr.Itoa(i+1) + ". " + h.Doc.Ref + ": " + h.Snippet)
	}
	return b.String()
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
