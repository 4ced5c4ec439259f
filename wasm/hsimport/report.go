package hsimport

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
)

// Progress counts an import as it goes.
type Progress struct {
	Total    int   // session files this run reads (len(Todo.Files))
	Sent     int   // sessions the server accepted
	Skipped  int   // refused, or nothing to send
	Failed   int   // the request failed; the file stays to do
	Messages int   // messages in the sessions sent
	Chars    int64 // characters of content sent
}

// Add counts a session the server accepted.
func (p *Progress) Add(s Session, it Item) {
	p.Sent++
	p.Messages += s.Messages
	p.Chars += int64(len(it.Content))
}

// Text is the progress line: pi shows it in the footer while the import
// runs, pimem prints it as it goes and at the end.
//
//	Progress{Total: 1000, Sent: 120, Messages: 4210}.Text()            => "imported 120/1000 sessions, 4,210 messages"
//	Progress{Total: 3, Sent: 1, Skipped: 1, Failed: 1, Messages: 1}.Text() => "imported 1/3 sessions, 1 message (1 skipped, 1 failed)"
func (p Progress) Text() string {
	s := "imported " + numstr.Itoa(p.Sent) + "/" + numstr.Itoa(p.Total) + " sessions, " + count(p.Messages, "message", "messages")
	if p.Skipped > 0 || p.Failed > 0 {
		s += " ("
		if p.Skipped > 0 {
			s += numstr.Itoa(p.Skipped) + " skipped"
		}
		if p.Failed > 0 {
			if p.Skipped > 0 {
				s += ", "
			}
			s += numstr.Itoa(p.Failed) + " failed"
		}
		s += ")"
	}
	return s
}

// DryRunLine says what one session would send, without sending it.
//
//	DryRunLine(f, s, item, "pimem-app-1a2b3c4d5e")
//	  => "would send /…/2026-11-20T09-00-00-000Z_s1.jsonl: 4 messages, 1,234 characters, to bank pimem-app-1a2b3c4d5e as pimem-import:s1 (2 secrets redacted)"
func DryRunLine(f File, s Session, it Item, bank string) string {
	line := "would send " + f.Path + ": " + count(s.Messages, "message", "messages") + ", " + count(len(it.Content), "character", "characters") +
		", to bank " + bank + " as " + it.DocumentID
	var notes []string
	if s.Redacted > 0 {
		notes = append(notes, count(s.Redacted, "secret", "secrets")+" redacted")
	}
	if len(s.Corrupt) > 0 {
		notes = append(notes, count(len(s.Corrupt), "corrupt line", "corrupt lines")+" skipped")
	}
	if s.Cut > 0 {
		notes = append(notes, numstr.Itoa(s.Cut)+" middle parts over the size limit left out")
	}
	if s.Broken {
		notes = append(notes, "its branch names a missing entry; sent from there")
	}
	for i, n := range notes {
		if i == 0 {
			line += " ("
		} else {
			line += ", "
		}
		line += n
	}
	if len(notes) > 0 {
		line += ")"
	}
	return line
}

// SkipLine says why a session file is not sent; why is Parse's error, or
// SkipEmpty.
//
//	SkipLine(f, "is empty: …") => "skipped /…/x.jsonl: is empty: …"
func SkipLine(f File, why string) string { return "skipped " + f.Path + ": " + why }

// Summary is the last line of a run. With dryRun it says that nothing was
// sent.
//
//	Summary(Todo{New: 2, Done: 1}, Progress{Total: 2, Sent: 2, Messages: 9, Chars: 2048}, true)
//	  => "dry run: 3 session files; 2 would be sent (9 messages, 2,048 characters), 1 already imported. Nothing was sent."
func Summary(t Todo, p Progress, dryRun bool) string {
	found := t.New + t.Changed + t.Done + t.Skipped
	verb, head := "sent", ""
	if dryRun {
		verb, head = "would be sent", "dry run: "
	}
	s := head + count(found, "session file", "session files") + "; " + grouped(p.Sent) + " " + verb +
		" (" + count(p.Messages, "message", "messages") + ", " + count(int(p.Chars), "character", "characters") + ")"
	if t.Changed > 0 {
		s += ", " + grouped(t.Changed) + " of them changed since they were imported"
	}
	if t.Done > 0 {
		s += ", " + grouped(t.Done) + " already imported"
	}
	if n := t.Skipped + p.Skipped; n > 0 {
		s += ", " + grouped(n) + " skipped"
	}
	if p.Failed > 0 {
		s += ", " + grouped(p.Failed) + " failed (run the import again to retry them)"
	}
	if dryRun {
		return s + ". Nothing was sent."
	}
	return s + "."
}

// count writes n with thousands separators and the word for one or many.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return grouped(n) + " " + many
}

// grouped writes n with a comma between groups of three digits.
//
//	grouped(4210) => "4,210"
func grouped(n int) string {
	s := numstr.Itoa(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}
