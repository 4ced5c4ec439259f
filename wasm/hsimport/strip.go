package hsimport

import "strings"

// Marker pairs around every block pi-memory injects into a conversation.
// An imported session must never send them back: the server would store our
// own recalled memory as something the user said.
const (
	tagOpen = "<pi-memory-" // <pi-memory-recall> … </pi-memory-recall>, any name
	omOpen  = "<!-- pi-memory:observations -->"
	omClose = "<!-- /pi-memory:observations -->"
)

// strip removes every injected block from s: `<pi-memory-NAME>…</pi-memory-NAME>`
// for any NAME, and the observations block between its comment markers. A
// block that is never closed runs to the end of s: half a recalled block is
// still recalled text. Removing a block can join two pieces into a new
// opening tag ("<pi-memory-" + block + "recall>"), so it strips again
// until none is left.
//
//	strip("fix it\n\n<pi-memory-recall>\n- uses Go 1.26\n</pi-memory-recall>") => "fix it\n\n"
func strip(s string) string {
	for {
		if i, _ := nextBlock(s); i < 0 {
			return s
		}
		s = stripOnce(s)
	}
}

func stripOnce(s string) string {
	var b strings.Builder
	for {
		i, closer := nextBlock(s)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i:], closer)
		if j < 0 {
			return b.String()
		}
		s = s[i+j+len(closer):]
	}
}

// nextBlock finds the first injected block's start in s and the text that
// closes it; -1 when there is none.
func nextBlock(s string) (int, string) {
	from := 0
	for {
		i := strings.Index(s[from:], tagOpen)
		k := strings.Index(s, omOpen)
		if i >= 0 {
			i += from
		}
		if k >= 0 && (i < 0 || k < i) {
			return k, omClose
		}
		if i < 0 {
			return -1, ""
		}
		name := s[i+len(tagOpen):]
		end := 0
		for end < len(name) && isNameByte(name[end]) {
			end++
		}
		if end > 0 && end < len(name) && name[end] == '>' {
			return i, "</pi-memory-" + name[:end] + ">"
		}
		from = i + len(tagOpen) // "<pi-memory-" in prose, not a tag
	}
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
