package redact

import "github.com/pi-memory/pi-memory/wasm/internal/text"

// Format characters (text.FormatLen: zero-width spaces and joiners, the soft
// hyphen, tags, …) print as nothing, so a token with one inside reads, and
// pastes, as the token: "ghp_abc\u200bdef…". The patterns match the text
// without them (scan), and a finding covers the format characters inside
// it, so the mark replaces them too.

// cut is a run of format characters removed from a text: at is where it
// was in the text without them, n its length in bytes.
type cut struct{ at, n int }

// withoutFormat is s without its format characters, and where they were.
func withoutFormat(s string) (string, []cut) {
	var b []byte
	var cuts []cut
	last := 0
	for i := 0; i < len(s); {
		if s[i] < 0xC2 {
			i++
			continue
		}
		n := text.FormatLen(s, i)
		if n == 0 {
			i += runeLen(s, i)
			continue
		}
		b = append(b, s[last:i]...)
		if k := len(cuts) - 1; k >= 0 && cuts[k].at == len(b) {
			cuts[k].n += n
		} else {
			cuts = append(cuts, cut{len(b), n})
		}
		i += n
		last = i
	}
	return string(append(b, s[last:]...)), cuts
}

// original maps the findings in the text without format characters back to
// s: a finding's start stays after the format characters before it, its
// end before those after it, and it covers those inside it.
func original(found []Finding, cuts []cut) []Finding {
	for k := range found {
		f := &found[k]
		f.Start += shift(cuts, f.Start, true)
		f.End += shift(cuts, f.End, false)
	}
	return found
}

// shift is how many bytes were cut before position p (at p too when
// atStart).
func shift(cuts []cut, p int, atStart bool) int {
	total := 0
	for _, c := range cuts {
		if c.at > p || !atStart && c.at == p {
			break
		}
		total += c.n
	}
	return total
}
