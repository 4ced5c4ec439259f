package redact

import "sync"

// The prefilter: one pass over a text's bytes finds which patterns' triggers
// each line holds, and scan runs only those patterns, on those lines. Most
// text holds no secret and few trigger words, so most calls run no matcher
// at all, and the others run them on the few lines that need them. It is
// exact, not a heuristic: every match of a pattern contains one of its
// triggers (see pattern.triggers), and only a pattern marked multiline has
// matches that cross a newline. TestPrefilterNeverHidesAMatch and FuzzString
// check both against running every pattern over the whole text.

type trigger struct {
	lit  string // lowercase
	mask uint64
}

var (
	byFirst     [256][]trigger
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
			byFirst[t[0]] = append(byFirst[t[0]], trigger{t, bit})
			if up := upper(t[0]); up != t[0] {
				byFirst[up] = append(byFirst[up], trigger{t, bit})
			}
		}
	}
}

// hasPrefixFold reports whether s starts with lit (lowercase ASCII),
// ignoring ASCII case.
func hasPrefixFold(s, lit string) bool {
	if len(s) < len(lit) {
		return false
	}
	for i := 0; i < len(lit); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}
