// Package budget owns what reaches the model from every store: where each
// block goes and in which order (Blocks), every block's hard cap in one unit
// (estimated tokens), the one token estimate every budget and receipt uses,
// and the joining of the system prompt's sections, each cut to its cap. It
// does not own the contents: each store renders its own block within its
// cap, and Assemble (or Fit, for a block that goes elsewhere) checks it
// again, so a store's mistake can never break a budget.
//
// A store may have finer caps of its own, in the units its seed names
// (decisions' 2,200 characters, an index's lines and bytes): those are its
// rules, applied while it renders; the cap budget enforces on the block is
// in tokens.
package budget

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Place is where a block goes in what pi sends the model.
type Place uint8

const (
	// SystemPrompt blocks are appended to pi's system prompt, the same bytes
	// while memory is unchanged, so the provider's prompt cache keeps hitting.
	SystemPrompt Place = iota
	// Context blocks are a message of one model request, after the leading
	// compaction or branch summary.
	Context
	// UserMessage blocks are appended to the newest user message of one
	// model request: per-turn recall, never in the system prompt.
	UserMessage
)

// Block is one store's block: where it goes.
type Block struct {
	Store string
	Place Place
}

// Blocks are every block pi-memory puts in front of the model, by store, in
// the order they reach it. Stable memory comes first so the prompt's prefix
// stays cacheable.
var Blocks = []Block{
	{"notes", SystemPrompt},
	{"decisions", SystemPrompt},
	{"observations", Context},
	{"hindsight", UserMessage},
}

// Order is the order of the stores' sections in the system prompt (the
// SystemPrompt blocks of Blocks); a store not listed goes after these, in
// the order given.
var Order = placed(SystemPrompt)

func placed(p Place) []string {
	var names []string
	for _, b := range Blocks {
		if b.Place == p {
			names = append(names, b.Store)
		}
	}
	return names
}

// Section is one store's contribution to the system prompt.
type Section struct {
	Store string // a name in Order
	Text  string
	Cap   int    // estimated tokens; the section is cut at a line boundary beyond TokenBytes(Cap)
	Limit string // the store's own cap as a person reads it: "2200 characters"
	Why   string // why the store injects nothing this turn ("" when it may inject)
}

// Receipt is what one section contributed, for /memory last and the traces.
type Receipt struct {
	Store  string
	Bytes  int
	Tokens int
	Cap    int // estimated tokens, as Section.Cap
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
//	Assemble([]Section{{"decisions", "", 2200, …}, {"notes", "## Persistent memory\n…", 4096, …}})
//	  => "\n\n## Persistent memory\n…", receipts for notes then decisions (0 bytes)
func Assemble(sections []Section) (string, []Receipt) {
	var b text.Builder
	receipts := make([]Receipt, 0, len(sections))
	for _, s := range ordered(sections) {
		if s.Why != "" {
			s.Text = ""
		}
		text, cut := fit(s.Text, TokenBytes(s.Cap))
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

// Fit cuts text to at most capTokens estimated tokens, keeping whole lines,
// and reports whether it cut: the rule Assemble applies to every section,
// for a block that goes elsewhere than the system prompt (Hindsight's
// recalled memories, appended to a user message).
//
//	Fit("- a\n- b\n", 1) => "- a\n", true
func Fit(text string, capTokens int) (string, bool) { return fit(text, TokenBytes(capTokens)) }

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
