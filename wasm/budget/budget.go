// Package budget assembles what every store injects into the system prompt:
// it owns the order of the stores' sections, the one token estimate every
// budget and receipt uses, and the enforcement of each section's hard cap.
// It does not own the contents: each store renders its own section within
// its cap, and Assemble checks it again, so a store's mistake can never break
// a budget.
package budget

import "strings"

// Order is the order of the stores' sections in the system prompt. Stable
// memory comes first so the prompt's prefix stays cacheable; a store not
// listed goes after these, in the order given.
var Order = []string{"notes", "decisions"}

// Section is one store's contribution to the system prompt.
type Section struct {
	Store string // a name in Order
	Text  string
	Cap   int    // bytes; the section is cut at a line boundary beyond it
	Limit string // the store's own cap as a person reads it: "2200 characters"
	Why   string // why the store injects nothing this turn ("" when it may inject)
}

// Receipt is what one section contributed, for /memory last and the traces.
type Receipt struct {
	Store  string
	Bytes  int
	Tokens int
	Cap    int
	Limit  string
	Why    string
	Cut    bool // the store overran its cap and Assemble cut it
	Text   string
}

// Sections are expected to end with a newline; fit keeps whole lines, so a
// cut section does too.

// Separator goes before the first section: the system prompt pi built ends
// with its own text, and memory starts on a fresh paragraph.
const Separator = "\n\n"

// Assemble joins the non-empty sections in Order, each cut to its cap at a
// line boundary, and returns the text to append to the system prompt with a
// receipt per section, in the same order. The same sections always give the
// same bytes.
//
//	Assemble([]Section{{"decisions", "", 8800, …}, {"notes", "## Persistent memory\n…", 16384, …}})
//	  => "\n\n## Persistent memory\n…", receipts for notes then decisions (0 bytes)
func Assemble(sections []Section) (string, []Receipt) {
	var b strings.Builder
	receipts := make([]Receipt, 0, len(sections))
	for _, s := range ordered(sections) {
		if s.Why != "" {
			s.Text = ""
		}
		text, cut := fit(s.Text, s.Cap)
		receipts = append(receipts, Receipt{Store: s.Store, Bytes: len(text), Tokens: EstimateTokens(text), Cap: s.Cap, Limit: s.Limit, Why: s.Why, Cut: cut, Text: text})
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

// ordered returns the sections in Order, the others after them as given.
func ordered(sections []Section) []Section {
	out := make([]Section, 0, len(sections))
	for _, name := range Order {
		for _, s := range sections {
			if s.Store == name {
				out = append(out, s)
			}
		}
	}
	for _, s := range sections {
		if rank(s.Store) < 0 {
			out = append(out, s)
		}
	}
	return out
}

func rank(store string) int {
	for i, name := range Order {
		if name == store {
			return i
		}
	}
	return -1
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

// Fit cuts text to at most max bytes, keeping whole lines, and reports
// whether it cut: the rule Assemble applies to every section, for a block
// that goes elsewhere than the system prompt (Hindsight's recalled
// memories, appended to a user message).
//
//	Fit("- a\n- b\n", 5) => "- a\n", true
func Fit(text string, max int) (string, bool) { return fit(text, max) }

// EstimateTokens is the token estimate of every budget and receipt: a quarter
// of the bytes, rounded up. Simple on purpose, and the same in every host, so
// a receipt can be checked by hand.
//
//	EstimateTokens("## Notes\n") => 3
func EstimateTokens(s string) int { return BytesTokens(len(s)) }

// BytesTokens is the estimate for text of n bytes, for a count of bytes
// whose text is not at hand (several sections together).
//
//	BytesTokens(10) => 3
func BytesTokens(n int) int { return (n + 3) / 4 }

// TokenBytes is the most bytes a cap of n estimated tokens holds: the
// inverse of EstimateTokens, for stores whose budget is set in tokens.
//
//	TokenBytes(4096) => 16384
func TokenBytes(n int) int { return n * 4 }
