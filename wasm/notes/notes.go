// Package notes owns markdown memory (docs/decisions/005-markdown-memory.md).
//
// Its rules are pure: typed pages parsed from MEMORY.md and topic files, their
// fidelity forms, the resident-set policy that fits them into a budget, the
// writeback validation, the scope words of a remember and its answer, which
// entry a forget reference names and the recovery records that restore it,
// the page-table, journal and trace formats, and
// what the commands decide and say (the status report, the stale listing, the
// Claude Code import plan, the .gitignore check, the count flags). They take
// bytes and values and return values, and never do I/O.
//
// It exports only what other packages call: Open, and the journal and trace
// readers lifecycle's tests check the sidecars with.
//
// Its driver (driver*.go; Open) is the store the orchestrator (wasm/lifecycle)
// lists: it reads and writes the memory files and their machine-local
// sidecars, only through the guarded host it is handed (store.Env's FS), and
// runs the /memory commands. The orchestrator decides when it runs and
// whether it may act.
package notes

// kind is what a page is.
type kind uint8

const (
	kindHeading kind = iota // a "#"…"######" line
	kindFact                // a bullet item with its continuation lines
	kindPointer             // a bullet whose text starts with a link to a local .md file
	kindText                // anything else: paragraphs, fenced code, tables, HTML
)

var kindNames = [...]string{"heading", "fact", "pointer", "text"}

func (k kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// fidelity is the form a page is shown in; a higher value shows more.
type fidelity uint8

const (
	formDropped fidelity = iota // not resident: recorded as a fault
	formPointer                 // a stub naming where the page is
	formSummary                 // one line of at most summaryMax characters
	formFull                    // the page's source, as written
)

var fidelityNames = [...]string{"dropped", "pointer", "summary", "full"}

func (f fidelity) String() string {
	if int(f) < len(fidelityNames) {
		return fidelityNames[f]
	}
	return "unknown"
}

// summaryMax is the longest summary line, in characters (runes), "…" included.
const summaryMax = 120

// page is one typed unit of a markdown file. The pages of a file cover it
// exactly: concatenating their Src gives the file back byte for byte.
type page struct {
	ID    string // "P-" + 10 hex digits; "-2", "-3"… for repeats in one file
	Kind  kind
	Line  int    // 1-based line of the page's first line
	Lines int    // lines in Src, trailing blank lines included
	Src   string // exact source, from the start of its first line to the start of the next page

	// Text is the page's content without markdown markers (bullet, heading
	// hashes), whitespace collapsed to single spaces: what ids, duplicates and
	// recall compare.
	Text    string
	Level   int    // heading level (1–6) for kindHeading, else 0
	Section string // Text of the nearest "##"-or-deeper heading above ("" when none)
	Link    string // target of a kindPointer ("build.md"), else ""
	Hash    string // hex SHA-1 of Kind and Text: a page's identity across edits elsewhere
}
