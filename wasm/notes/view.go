package notes

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/redact"
)

// The view: a memory file as every exit sees it — what is injected, what
// commands print, what memory_search indexes and quotes, what page tables
// and recovery records keep. A secret someone wrote into the file by hand
// stays in the file (it is theirs; /memory verify names the line) and goes
// nowhere else.
//
// One rule decides what the view hides: redaction (wasm/redact) of the file
// and of each page's lines read as one text, as search reads a page (its
// Text: the words of its lines joined). So a label at the end of a bullet's
// first line and its value on a continuation line are one secret, and a
// passphrase broken across lines goes whole. Each line a secret covers gets
// its mark after the line's markdown (indentation, a bullet's marker, a
// heading's hashes, a fence), and a line that held text still does: the
// view's pages are the file's, line for line, and an entry ends where it
// ends in the file.
//
//	- db password:        - db password:
//	  hunter2x9       =>    [REDACTED:secret]

// view returns the view of data and its pages, parsed into pages' array. A
// file without secrets is its own view (no copy); one with secrets is
// written into redacted's array, returned second to be kept for the next
// read (docs/decisions/003-tinygo-heap.md).
func (ps *parser) view(pages []page, scope string, data, redacted []byte) (view, kept []byte, out []page) {
	out = ps.parse(pages, scope, data)
	found := union(redact.Find(viewString(data)), ps.entrySecrets(out))
	view, kept = data, redacted
	for pass := 0; found != nil && pass < 4; pass++ {
		v, _ := redact.MarkLines(viewString(view), perLine(viewString(view), found))
		kept = append(kept[:0], v...)
		view = kept
		out = ps.parse(out, scope, view)
		found = ps.entrySecrets(out)
	}
	return view, kept, out
}

// readView is the view of a file a caller reads once (a search, a forget):
// its bytes and pages, none of them given an id of taken (parser.taken).
func readView(scope string, data []byte, taken []string) ([]byte, []page) {
	ps := parser{taken: taken}
	v, _, pages := ps.view(nil, scope, data, nil)
	return v, pages
}

// entrySecrets are the secrets of the pages whose text holds one, each page
// read as one line (its line ends, and the markdown that starts each of its
// lines, as blanks: a nested bullet's marker is not a word of the entry), as
// offsets into the file the pages cover. A page whose text holds a secret
// its lines read so do not show (their blanks and its words' differ) is one
// secret, whole.
//
//   - db password:        - db password:
//   - hunter2x9     =>    - [REDACTED:secret]
func (ps *parser) entrySecrets(pages []page) []redact.Finding {
	var found []redact.Finding
	off := 0
	for i := range pages {
		p := &pages[i]
		at := off
		off += len(p.Src)
		inText := redact.Contains(p.Text)
		if !inText && p.Lines < 2 {
			continue
		}
		ps.text = append(ps.text[:0], p.Src...)
		for ls := 0; ls < len(ps.text); {
			le := strings.IndexByte(p.Src[ls:], '\n')
			if le < 0 {
				le = len(p.Src)
			} else {
				le += ls
			}
			lead := mdLead(strings.TrimSuffix(p.Src[ls:le], "\r"), at == 0 && ls == 0)
			for k := ls; k < ls+lead; k++ {
				ps.text[k] = ' '
			}
			ls = le + 1
		}
		for k, c := range ps.text {
			if c == '\n' || c == '\r' {
				ps.text[k] = ' '
			}
		}
		fs := redact.Find(viewString(ps.text))
		if p.Lines > 1 {
			fs = union(fs, ps.brokenSecrets(p.Src))
		}
		if fs == nil && !inText {
			continue
		}
		if fs == nil {
			fs = []redact.Finding{{Kind: "secret", Start: 0, End: len(p.Src)}}
		}
		for _, f := range fs {
			found = append(found, redact.Finding{Kind: f.Kind, Start: at + f.Start, End: at + f.End})
		}
	}
	return found
}

// brokenSecrets are the tokens and keys of an entry (src, its lines read
// as one in ps.text) that a line break cuts in two: a token wrapped inside
// a word ("ghp_abcdefghij" and the rest on the next line) is one word
// where the break and the next line's markdown are closed up between two
// bytes of a token. Only a vendor's token or key across such a break
// counts: a label's or a sentence's value ("secret") is read word by word,
// and a break between words is a blank ("my password is" / "hunter2" is
// not "ishunter2").
func (ps *parser) brokenSecrets(src string) []redact.Finding {
	// Most entries have no such break: they are not copied to learn it (a
	// 3.7 MB entry was copied, with an index per byte, on every read).
	broken := false
	for i := strings.IndexByte(src, '\n'); i >= 0 && !broken; {
		_, _, broken = ps.breakAt(src, i)
		k := strings.IndexByte(src[i+1:], '\n')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	if !broken {
		return nil
	}
	ps.glued, ps.at = ps.glued[:0], ps.at[:0]
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			if prev, next, ok := ps.breakAt(src, i); ok {
				ps.glued, ps.at = ps.glued[:len(ps.glued)-(i-1-prev)], ps.at[:len(ps.at)-(i-1-prev)]
				i = next - 1
				continue
			}
		}
		ps.glued = append(ps.glued, ps.text[i])
		ps.at = append(ps.at, i)
	}
	var out []redact.Finding
	for _, f := range redact.Find(viewString(ps.glued)) {
		start, end := ps.at[f.Start], ps.at[f.End-1]+1
		if end-start != f.End-f.Start && f.Kind != "secret" {
			out = append(out, redact.Finding{Kind: f.Kind, Start: start, End: end})
		}
	}
	return out
}

// breakAt: the line end at src[i] cuts a token in two, in ps.text (src
// with its markdown blanked): a token byte ends the line, at prev (before
// its "\r"), and the next line's text starts with one, at next.
func (ps *parser) breakAt(src string, i int) (prev, next int, ok bool) {
	prev, next = i-1, i+1
	if prev >= 0 && src[prev] == '\r' {
		prev--
	}
	for next < len(src) && ps.text[next] == ' ' && src[next] != '\n' {
		next++
	}
	return prev, next, prev >= 0 && next < len(src) && isTokenByte(ps.text[prev]) && isTokenByte(ps.text[next])
}

// isTokenByte: a byte of a token's alphabet, [A-Za-z0-9_+/=-].
func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_+/=-", c) >= 0
}

// union merges two lists of findings, each in order and disjoint, into one:
// overlapping findings become one, named for the first.
func union(a, b []redact.Finding) []redact.Finding {
	if len(b) == 0 {
		return a
	}
	all := make([]redact.Finding, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		var f redact.Finding
		if len(b) == 0 || len(a) > 0 && a[0].Start <= b[0].Start {
			f, a = a[0], a[1:]
		} else {
			f, b = b[0], b[1:]
		}
		if n := len(all); n > 0 && f.Start < all[n-1].End {
			all[n-1].End = max(all[n-1].End, f.End)
			continue
		}
		all = append(all, f)
	}
	return all
}

// perLine cuts findings in s at line ends, each part starting after its
// line's markdown (mdLead), so marking them keeps every line what it is: a
// bullet, a heading, a fence, an indented continuation. A line is measured
// once for all the findings on it (a 256 KB bullet of thousands of
// secrets was measured once per secret, and held pi's thread for seconds).
func perLine(s string, found []redact.Finding) []redact.Finding {
	var out []redact.Finding
	ls, le, from0, to0 := -1, -1, 0, 0 // the line last measured: its start and end, where its text starts and ends
	for _, f := range found {
		for start := f.Start; start < f.End; {
			if start < ls || start > le {
				ls = strings.LastIndexByte(s[:start], '\n') + 1
				if le = strings.IndexByte(s[start:], '\n'); le < 0 {
					le = len(s)
				} else {
					le += start
				}
				body := strings.TrimSuffix(s[ls:le], "\r")
				from0, to0 = ls+mdLead(body, ls == 0), ls+len(strings.TrimRight(body, " \t"))
			}
			if from, to := max(start, from0), min(f.End, to0); from < to {
				out = append(out, redact.Finding{Kind: f.Kind, Start: from, End: to})
			}
			start = le + 1
		}
	}
	return out
}

// mdLead is how many bytes of a line (without its line end) are markdown,
// not text: a byte-order mark (on the file's first line), indentation, and a
// bullet's marker, a heading's hashes or a fence's run, with the blanks after
// them.
func mdLead(body string, first bool) int {
	n := 0
	if first && strings.HasPrefix(body, utf8BOM) {
		n = len(utf8BOM)
	}
	rest := strings.TrimLeft(body[n:], " \t")
	if _, content, ok := mdBullet(rest); ok {
		rest = content
	} else if _, _, ok := mdHeading(rest); ok {
		rest = strings.TrimLeft(rest, "#")
	} else if ch, _, _, ok := mdFence(rest); ok {
		rest = strings.TrimLeft(rest, string(ch))
	}
	return len(body) - len(strings.TrimLeft(rest, " \t"))
}
