package redact

import (
	"sync"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// The prefilter: one pass over a text's bytes finds which patterns' triggers
// each line holds, and scan runs only those patterns, on those lines. Most
// text holds no secret and few trigger words, so most calls run no matcher
// at all, and the others run them on the few lines that need them. It is
// exact, not a heuristic: every match of a pattern contains one of its
// triggers (see pattern.triggers), and only a pattern marked multiline has
// matches that cross a newline. TestPrefilterNeverHidesAMatch and FuzzString
// check both against running every pattern over the whole text.

type trigger struct {
	lit    string // lowercase; one byte ("@") only where a match holds a byte after it
	second byte   // lit[1] | 0x20, compared before the whole literal
	mask   uint64
}

var (
	byFirst [256][]trigger
	// pairs has bit c0<<8 | c1 set when a trigger starts with the byte c0
	// and then a byte that | 0x20 makes c1: one test that most bytes of a
	// text fail (prose is full of letters that start a trigger, few of the
	// pairs do), before the comparisons of c0's triggers.
	pairs       [1 << 16 / 64]uint64
	allPatterns uint64
	multiline   uint64 // patterns whose matches may span lines
	setupOnce   sync.Once
)

// setup builds the pattern table and the trigger index.
func setup() {
	patterns = newPatterns()
	for i, p := range patterns {
		bit := uint64(1) << uint(i)
		allPatterns |= bit
		if p.multiline {
			multiline |= bit
		}
		for _, t := range p.triggers {
			index(t[0], t, bit)
			if up := upper(t[0]); up != t[0] {
				index(up, t, bit)
			}
		}
	}
}

// index files trigger t of the pattern bit under its first byte c; patterns
// that share a trigger ("secret") share its one comparison.
func index(c byte, t string, bit uint64) {
	for i := range byFirst[c] {
		if byFirst[c][i].lit == t {
			byFirst[c][i].mask |= bit
			return
		}
	}
	if len(t) == 1 { // any byte may follow it
		byFirst[c] = append(byFirst[c], trigger{t, 0, bit})
		for c1 := range 256 {
			k := pair(c, byte(c1))
			pairs[k>>6] |= 1 << (k & 63)
		}
		return
	}
	byFirst[c] = append(byFirst[c], trigger{t, t[1] | 0x20, bit})
	k := pair(c, t[1])
	pairs[k>>6] |= 1 << (k & 63)
}

// pair is the index in pairs of a trigger's first two bytes, or of a text's
// two bytes that might start one.
func pair(c0, c1 byte) uint { return uint(c0)<<8 | uint(c1|0x20) }

// mayStartTrigger: some trigger starts with s[i] and a byte that folds as
// s[i+1] does (a trigger of one byte is followed by one in every match).
func mayStartTrigger(s string, i int) bool {
	if i+1 >= len(s) {
		return false
	}
	k := pair(s[i], s[i+1])
	return pairs[k>>6]&(1<<(k&63)) != 0
}

// startsWith reports whether s[i:] starts with t's literal, ignoring ASCII
// case. Most bytes that share a trigger's first byte do not share its second:
// comparing that one first (folded with | 0x20, so equal bytes stay equal
// and no match is missed) halves the prefilter's cost.
func (t *trigger) startsWith(s string, i int) bool {
	return i+1 < len(s) && (len(t.lit) == 1 || s[i+1]|0x20 == t.second && text.HasFoldPrefix(s[i:], t.lit))
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}
