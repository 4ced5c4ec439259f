package redact

import (
	"strings"
)

// Ends is what a reader keeps of a text longer than n bytes: its first two
// thirds of n and its last third, each cut at a space, and redacted with
// what stood around its cut first (Window bytes past it): a cut inside
// "password: V" would leave V without its label (h-v93 c4), and a secret cut
// in half is no longer seen. A text of n bytes or less is s itself, unread,
// and tail is "". The work is bounded by n, not by s: a pasted 8 MB log is
// read as its ends (h-v93 a1).
//
//	Ends("short", 100) => "short", ""
//	Ends(strings.Repeat("a ", 99)+"password: hunter22x "+strings.Repeat("b ", 99), 120) => "a a … a", "[REDACTED:secret] b b … b"
func Ends(s string, n int) (head, tail string) {
	if len(s) <= n {
		return s, ""
	}
	t := max(0, len(s)-n/3-Window)
	return EndsOf(s[:min(len(s), n*2/3+Window)], s[t:], n, Heads(s[:aboveEnd(s, t, "\n")], "\n", nil))
}

// aboveEnd is where the line that holds s[t] ends (its nl), within maxHead
// bytes; t itself at a line's start or past that. What heads a tail cut at
// t is read to there: a heading the cut falls in ("## Service pass|words")
// is read whole (h-v97 b2).
func aboveEnd(s string, t int, nl string) int {
	if t == 0 || t >= len(s) || strings.HasSuffix(s[:t], nl) {
		return t
	}
	k := strings.Index(s[t:min(len(s), t+maxHead)], nl)
	if k < 0 {
		return t
	}
	// A table's header the read point falls in: its separator, the next
	// line, too (h-v98 b1).
	if ls := strings.LastIndex(s[:t], nl) + len(nl); strings.HasPrefix(strings.TrimLeft(s[ls:t], " "), "|") {
		n := t + k + len(nl)
		if j := strings.Index(s[n:min(len(s), n+maxHead)], nl); j >= 0 && separatorRow(strings.TrimSuffix(s[n:n+j], "\r")) {
			return n + j
		}
	}
	return t + k
}

// EndsOf is Ends for a text read only in part: first holds at least its
// first n*2/3+Window bytes, last at least its last n/3+Window (a JSON
// string's ends, jsonr.Ends), and heads what heads last from the text
// above it (Heads): the tail is redacted after it, as the whole text would
// be (h-v94 c3: items under a "## Passwords" in the cut-away middle).
func EndsOf(first, last string, n int, heads string) (head, tail string) {
	head = Head(first, n*2/3)
	// heads is far from the tail's start (last has Window bytes more),
	// and goes before last's first whole line: a table's header then heads
	// its rows, not the end of one cut short.
	if i := strings.IndexByte(last[:min(len(last), Window)], '\n'); heads != "" && i >= 0 {
		last = last[i+1:]
	}
	// The tail is its last n/3 bytes as written, not as redacted: redaction
	// that shortens last by more than Window (private keys) would move it onto
	// last's raw start, where a label was cut from its value (h-v95 b2). A
	// secret the cut falls in is left out whole.
	src := heads + last
	found := Find(src)
	cut := max(0, len(src)-n/3)
	for _, f := range found {
		if f.Start < cut && cut < f.End {
			cut = f.End
		}
	}
	tail = applyIn(src, found, cut, len(src))
	// The tail starts after a blank too: its first word may be a secret's end.
	if i := strings.IndexAny(tail, " \t\n\r"); i >= 0 {
		tail = tail[i+1:]
	} else {
		tail = ""
	}
	return head, tail
}

// Head is what a reader keeps of the start of s, which holds at least n
// bytes and Window more when it was cut: its first n bytes as written
// (not as redacted: a redaction that shortened them would bring the end
// of what was read, where a label was cut from its value, into what is
// kept; h-v95 b2, h-v94 c5), ending at a blank (cut mid-word, a token
// would no longer match its pattern and go out in part: h-v94 b1) and
// outside every secret, redacted with all of s around them.
//
//	Head("a password: hunter22x b", 14) => "a password:"
func Head(s string, n int) string {
	if len(s) <= n {
		out, _ := String(s)
		return out
	}
	found := Find(s)
	cut := n
	for moved := true; moved; {
		moved = false
		for _, f := range found {
			if f.Start < cut && cut < f.End {
				cut, moved = f.Start, true
			}
		}
		// At a word's end, the blank before it when mid-word; a secret's
		// match may end past that blank: again.
		if cut < len(s) && cut > 0 && !isSpace(s[cut]) {
			cut, moved = max(0, strings.LastIndexAny(s[:cut], " \t\r\n")), true
		}
	}
	return applyIn(s, found, 0, len(strings.TrimRight(s[:cut], " \t\r\n")))
}

// applyIn is s[from:to] with the findings of s that lie within it marked
// (a cut outside every one of them).
func applyIn(s string, found []Finding, from, to int) string {
	var kept []Finding
	for _, f := range found {
		if f.Start >= from && f.End <= to {
			kept = append(kept, Finding{f.Kind, f.Start - from, f.End - from})
		}
	}
	out, _ := apply(s[from:to], kept)
	return out
}

// Window is how far past a cut Ends reads for a secret: longer than any
// secret the patterns know (an 8192-bit RSA key is about 6.5 KB: h-v94 c7,
// one straddling a cut lost its BEGIN line to a 4 KiB window).
const Window = 8192
