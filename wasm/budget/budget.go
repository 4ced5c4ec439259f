// Package budget assembles what every store injects into the system prompt,
// in a fixed order, each section within its own hard cap (invariant 9). It
// owns the order and the caps' enforcement, not the contents: each store
// renders its own section within its cap, and Assemble checks it again, so
// a store's mistake can never break a budget.
package budget

import "strings"

// Section is one store's contribution to the system prompt.
type Section struct {
	Store string // "notes", "decisions"
	Text  string
	Cap   int // bytes; the section is cut at a line boundary beyond it
}

// Receipt is what one section contributed, for /memory last and the traces.
type Receipt struct {
	Store  string
	Bytes  int
	Tokens int
	Cap    int
	Cut    bool // the store overran its cap and Assemble cut it
	Text   string
}

// Sections are expected to end with a newline; fit keeps whole lines, so a
// cut section does too.

// Separator goes before the first section: the system prompt pi built ends
// with its own text, and memory starts on a fresh paragraph.
const Separator = "\n\n"

// Assemble joins the non-empty sections in the order given, each cut to its
// cap at a line boundary, and returns the text to append to the system
// prompt with a receipt per section. The same sections always give the same
// bytes.
//
//	Assemble([]Section{{"notes", "## Persistent memory\n…", 16384}, {"decisions", "", 2200}})
//	  => "\n\n## Persistent memory\n…", receipts for both (decisions with 0 bytes)
func Assemble(sections []Section) (string, []Receipt) {
	var b strings.Builder
	receipts := make([]Receipt, 0, len(sections))
	for _, s := range sections {
		text, cut := fit(s.Text, s.Cap)
		receipts = append(receipts, Receipt{Store: s.Store, Bytes: len(text), Tokens: EstimateTokens(text), Cap: s.Cap, Cut: cut, Text: text})
		if text == "" {
			continue
		}
		// One blank line before each section: pi's prompt ends with its own
		// text, and every section ends with a newline.
		if b.Len() == 0 {
			b.WriteString(Separator)
		} else {
			b.WriteString("\n")
		}
		b.WriteString(text)
	}
	return b.String(), receipts
}

// fit cuts text to at most max bytes, at the end of a line.
func fit(text string, max int) (string, bool) {
	if max < 0 {
		max = 0 // a store's bad cap must not panic the core: it keeps nothing
	}
	if len(text) <= max {
		return text, false
	}
	cut := text[:max]
	if i := strings.LastIndexByte(cut, '\n'); i >= 0 {
		return cut[:i+1], true
	}
	return "", true
}

// EstimateTokens is the token estimate of every budget and receipt: a quarter
// of the bytes, rounded up. Simple on purpose, and the same in every host, so
// a receipt can be checked by hand.
//
//	EstimateTokens("## Notes\n") => 3
func EstimateTokens(s string) int { return (len(s) + 3) / 4 }
