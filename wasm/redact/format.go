package redact

import (
	"sort"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"
)

// A secret can be spelled so that it reads, and pastes, as itself while its
// bytes differ: with a format character inside it (text.FormatLen: zero-width
// spaces and joiners, the soft hyphen, tags, …), "ghp_abc\u200bdef…"; in
// full-width letters, as an East Asian keyboard types them, "ｐａｓｓｗｏｒｄ";
// percent-encoded, as in a URL, "ghp%5Fabc…"; or as a JSON or JavaScript
// escape, "\u0067hp_abc…". The patterns match the plain text (scan): format
// characters removed, each other spelling folded to the ASCII character it
// stands for; a finding covers the spellings inside it, so the mark replaces
// them too. What every exit removes before anyone reads the text (a control
// character, an escape sequence whole: marker.Plain) is looked through as a
// format character is, "AKIA\x01…" or "\x1b[32mAKIA…": the text shown has
// the secret whole.

// cut is a run of bytes of the text that the plain text does not hold: at
// is where in the plain text, n how many bytes. A fold's bytes are those of
// a spelling the plain text holds as the one byte before at; a format run's
// are gone.
type cut struct {
	at, n int
	fold  bool
}

// hidden is the length of a spelling at s[i] (0 when there is none) and the
// byte it stands for (0 for format characters, which stand for nothing). A
// control sequence is read no further than lim, where a mark starts (or
// len(s)): see the control case.
func hidden(s string, i, lim int, bare bool) (n int, b byte) {
	n, b = spelling(s, i, lim, bare)
	if !bare && (b == '"' || b == '\'') && s[i] != 0xEF {
		// To a screen a quote spelled as an escape is a value's character,
		// not its end ("Ab9\u0022xK7q!" is one string); a program reads it
		// as a quote (twoWays). A full-width quote shows as one: "＂…＂".
		return 0, 0
	}
	return n, b
}

// spelling is hidden's reading of the spelling at s[i], a quote included:
// text.Spelling's, the program's reading of a backslash (bare), and what
// prints as nothing or a screen removes.
func spelling(s string, i, lim int, bare bool) (n int, b byte) {
	switch c := s[i]; {
	case c == '\\':
		if j := escapedAt(s, i); bare && j > 0 {
			return j + 1 - i, s[j]
		}
		if n := continuation(s, i); bare && n > 0 {
			return n, 0
		}
		return text.Spelling(s, i)
	case c == '%', c == '&':
		return text.Spelling(s, i)
	case c == 0xEF:
		if n, b := text.Spelling(s, i); n > 0 {
			return n, b
		}
		return text.FormatLen(s, i), 0
	case c < 0x20 || c == 0x7f || c == 0xC2 && i+1 < len(s) && s[i+1] < 0xA0:
		// An escape sequence ends where a mark starts: "\x1b[REDACTED:…]"
		// is ESC and a mark (redaction stays idempotent), not a CSI
		// sequence that eats the mark's "[R". Read no further than lim,
		// the next mark (plain): a C1 string left open (U+009D…) runs to
		// the line's end, and one before each mark of a line read it again
		// from each.
		n := marker.Removes(s[:lim], i)
		if k := gluedAt(s, i, n); bare && k > 0 {
			return k, 0 // the sequence but its last byte (twoWays)
		}
		if k := strings.Index(s[i+1:min(len(s), i+n+len(markOpen))], markOpen); k >= 0 && 1+k < n {
			n = 1 + k
		}
		return n, 0
	case c >= 0xC2:
		return text.FormatLen(s, i), 0
	}
	return 0, 0
}

// plain is s with its format characters removed and its other spellings
// folded, and where the bytes it does not hold were. With bare set, the
// program's reading (twoWays).
func plain(s string, bare bool) (string, []cut) {
	var b []byte
	var cuts []cut
	last, mark := 0, -1 // mark: where the next mark after i starts, len(s) for none
	for i := 0; i < len(s); {
		if mark <= i {
			if k := strings.Index(s[i+1:], markOpen); k >= 0 {
				mark = i + 1 + k
			} else {
				mark = len(s)
			}
		}
		n, c := hidden(s, i, mark, bare)
		if n == 0 {
			i += runeLen(s, i)
			continue
		}
		b = append(b, s[last:i]...)
		switch k := len(cuts) - 1; {
		case c != 0:
			b = append(b, c)
			cuts = append(cuts, cut{len(b), n - 1, true})
		case k >= 0 && cuts[k].at == len(b) && !cuts[k].fold:
			cuts[k].n += n
		default:
			cuts = append(cuts, cut{len(b), n, false})
		}
		i += n
		last = i
	}
	return string(append(b, s[last:]...)), cuts
}

// A text is read as a screen shows it (plain) and, where the two differ
// (twoWays), as a program that decodes it reads its bytes (plain with bare
// set); a secret either reading holds is marked. They differ where a
// control character is glued to a letter or digit and a word ("\x1bghp_…"
// is ESC g and "hp_…" on a screen, ESC and a GitHub token to a model), and
// where a string inside a string escapes its quotes (what "aws
// secretsmanager get-secret-value" prints, "{\"password\":\"…\"}") or
// JSON its slashes ("postgres:\/\/app:…@db"): the screen's reading keeps
// "\"" (a value's own quote, "p@ss\"word"), the program's reads '"'.
func twoWays(s string) bool {
	for _, c := range [...]byte{'\\', 0x1b, 0xC2, '%', '&'} {
		for i, k := 0, strings.IndexByte(s, c); k >= 0; k = strings.IndexByte(s[i:], c) {
			i += k
			n := 1
			switch c {
			case 0x1b, 0xC2:
				if n = max(1, marker.Removes(s, i)); gluedAt(s, i, n) > 0 {
					return true
				}
			default:
				if _, b := spelling(s, i, len(s), false); b == '"' || b == '\'' {
					return true // a spelled quote: \u0022, %22, &#34;
				}
				if c == '\\' {
					if escapedAt(s, i) > 0 || continuation(s, i) > 0 {
						return true
					}
					n = runEnd(s, i, func(b byte) bool { return b == '\\' }) - i
				}
			}
			i += n // past a run of backslashes or a sequence whole: "\u009d" runs to the line's end
		}
	}
	return false
}

// gluedAt: the control sequence of n bytes at s[i] is its control
// character (and a CSI's '[') and one letter or digit, glued to a word
// ("\x1bghp_…", "\x1b[ghp_…", "\u009bghp_…"); then the length of the
// sequence but that letter, else 0. One with parameters ("\x1b[32mINFO")
// is a terminal's and read one way.
func gluedAt(s string, i, n int) int {
	k := i + runeLen(s, i)
	if hasAt(s, k, "[") && s[i] == 0x1b {
		k++
	}
	if e := i + n; e == k+1 && e < len(s) && isAlnum(s[k]) && isWord(s[e]) {
		return k - i
	}
	return 0
}

// escapedAt: where the quote or slash is that the run of backslashes
// starting at s[i] escapes, at any depth of strings inside strings
// ("\\\"" in a log line holding JSON that holds JSON); 0 when there is
// none. A program decoding every level reads the quote alone.
func escapedAt(s string, i int) int {
	if i > 0 && s[i-1] == '\\' {
		return 0
	}
	j := runEnd(s, i, func(b byte) bool { return b == '\\' })
	if j < len(s) && (s[j] == '"' || s[j] == '/') {
		return j
	}
	return 0
}

// continuation is the length of a shell's line continuation at s[i] (a
// backslash that no backslash escapes, then the line's end), which a
// shell reads as nothing: "sshpass -p \\\n  PW" gives PW to -p (h-v93 c6).
// 0 for none.
func continuation(s string, i int) int {
	if i > 0 && s[i-1] == '\\' {
		return 0
	}
	switch {
	case hasAt(s, i, "\\\n"):
		return 2
	case hasAt(s, i, "\\\r\n"):
		return 3
	}
	return 0
}

// original maps the findings in the plain text back to s: a finding's start
// stays after the format characters before it, its end before those after
// it, and it covers the spellings inside it. The bytes cut before each
// position are summed once (sums), and each finding finds its cuts by
// binary search: a text of many spellings and many findings (a line of
// "密码：123456" again and again) took time quadratic in its length.
func original(found []Finding, cuts []cut) []Finding {
	sums := make([]int, len(cuts)+1)
	for k, c := range cuts {
		sums[k+1] = sums[k] + c.n
	}
	for k := range found {
		f := &found[k]
		f.Start += sums[cutsBefore(cuts, f.Start, true)]
		f.End += sums[cutsBefore(cuts, f.End, false)]
	}
	return found
}

// cutsBefore is how many of cuts (in the order plain made them) the plain
// text does not hold before its position p: a fold's when p is past the
// byte it stands for, a format run's when it lies before p (at p too when
// atStart). At one position a fold comes before a format run, so those
// counted are the first ones.
func cutsBefore(cuts []cut, p int, atStart bool) int {
	return sort.Search(len(cuts), func(k int) bool {
		c := cuts[k]
		return c.at > p || !atStart && c.at == p && !c.fold
	})
}

// hiddenAt reports whether a spelling the plain text would not hold starts
// at s[i].
func hiddenAt(s string, i int) bool {
	n, _ := hidden(s, i, len(s), false)
	return n > 0
}
