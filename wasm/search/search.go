// Package search ranks the entries of every local store against a query,
// for the model's memory_search tool and /memory search: decisions, notes,
// observations and the messages of a project's earlier pi sessions, in one
// list, best first, each with a citation a person can open.
//
// It owns the rules of search and nothing else: how text becomes words
// (words.go: lower case, general abbreviations expanded and light stemming
// through similarity.Canonical, so "databases" finds "database" and "db"),
// the in-memory index kept from one search to the next and rebuilt per
// source only when that source's stamp changed (index.go), the ranking
// (rank.go: BM25 over every source at once, times a coordination, a kind, a
// status and a recency factor, the best candidates reranked with
// similarity.Compare), the snippet of each hit (snippet.go) and the text a
// person or the model reads, redacted and within a token cap (render.go).
//
// It never does I/O and never reads a clock: the stores hand their entries
// in as Sources (store.Searcher), the orchestrator passes the time. The
// index is derived, machine-local and never canonical: it lives in the
// module's memory and is rebuilt from the stores' files.
package search

// Kind is what a searched entry is; it decides its weight and how it is
// cited.
type Kind uint8

const (
	Decision    Kind = iota + 1 // a decision of the project's log, any status
	Note                        // a page of a MEMORY.md or a topic file
	Observation                 // an observation of this session or an earlier one
	Message                     // a user or assistant message of an earlier pi session
)

var kindNames = [...]string{"", "decision", "note", "observation", "session"}

// String is the kind's name as results show it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return ""
}

// Doc is one searchable entry, as its store hands it in.
type Doc struct {
	Kind Kind
	// Ref is the full citation: a decision's id, a note's
	// "<absolute file>:<line>#<page id>", a session file's absolute path and
	// line; for an entry that is Gone, what restores it.
	// memory_forget takes the Ref of a decision or a note.
	Ref string
	// Cite is the citation a person reads at 80 columns: the id, the file
	// relative to the project or home (".pi/memory/MEMORY.md:12"); "" for
	// the Ref with the home folder as ~ (the orchestrator writes it in).
	Cite string
	// Mark is the status worth showing beside the citation ("active",
	// "superseded by D-20261121-0002", "conflict"), "" for none.
	Mark string
	// Title and Text are searched and shown; Extra (a decision's reason, a
	// note's section heading) is searched only. A Message's Text starts
	// with its role, "User: " or "Assistant: ".
	Title, Text, Extra string
	// Time is when the entry was written or last changed (Unix ms), 0 when
	// unknown.
	Time int64
	// Gone: an entry forgotten and not restored, whose Ref is what restores
	// it. A search leaves it out; a forget by words finds it, so one that
	// names an entry forgotten already (by another process, a moment ago)
	// says so rather than forget another entry the words also match.
	Gone bool
}

// Unreadable is what Load gives for a file that is there but could not be
// read (too large, not a regular file, no permission): no entry, and every
// answer says it was not searched (Unread.Failed), by cite, as the person
// knows it, so an empty answer is not taken for "nothing remembered".
func Unreadable(cite string) []Doc { return []Doc{{Cite: cite}} }

// Forgettable reports whether memory_forget can remove the entry: a
// decision or a note; observations and past sessions are history.
func (d *Doc) Forgettable() bool { return (d.Kind == Decision || d.Kind == Note) && !d.Gone }

// Source is one unit the index rebuilds at once: a file, a log, a session.
type Source struct {
	// Key names the source among every store's ("notes:/w/app/.pi/memory/MEMORY.md").
	Key string
	// Stamp changes whenever the source's entries may have changed (a
	// file's size and mtime, a log's generation).
	Stamp string
	// Load returns the source's entries, in a slice of its own: the index
	// lays them out in its part and clears them as it goes. It calls Load
	// only when the Stamp differs from the one it indexed. A source it
	// could not read gives Unreadable.
	Load func() []Doc
	// Stat and Open, in place of Stamp and Load, are a source among many
	// that may be large (an earlier session): the index looks at it only
	// when it comes to it, within the search's budget (Stat: its stamp, a
	// number that changes whenever the source may have, or skip when it is
	// not to be read at all), and reads it in steps (Open). Both are given
	// the Key, so thousands of sources share two functions, and a stamp is
	// no string: a search of 20,000 sources allocates none.
	Stat func(key string) (stamp uint64, skip bool)
	Open func(key string) Step
}

// Step reads on in a source for about n bytes, handing each entry to add;
// it says how many bytes it read, whether the source is done, and whether
// it was read only in part (its entries reached their bound, or a part of it
// was too long to read).
type Step func(n int, add func(Doc)) (read int, done, cut bool)

// Hit is one ranked result.
type Hit struct {
	Doc     Doc
	Score   float64
	Snippet string // the best part of the text, one line, redacted
	// Turn is the other half of an earlier session's exchange the hit is
	// a message of: the answer after a question, the question before an
	// answer (its Score 0); nil for none.
	Turn *Hit
}
