package store

import "github.com/pi-memory/pi-memory/wasm/search"

// Searcher is a store whose entries memory_search and /memory search rank
// (the orchestrator's, over every store at once). It hands its entries in
// as sources, each with a stamp; the orchestrator keeps one index
// (search.Index) across calls and asks a source's Load only when its stamp
// changed, so a search over unchanged memory reads nothing but stamps. The
// orchestrator asks only a store the gate lets read, after its Ready, and
// also when Ready failed: a file that is there but could not be read is a
// source whose Load gives search.Unreadable, which the answer names.
type Searcher interface {
	// SearchSources are the store's searchable sources as they are now:
	// its files or logs (a stamp each), without reading what did not
	// change. A Doc's Ref is a reference the store's Forgetter takes, when
	// the entry can be forgotten.
	SearchSources() []search.Source
	// Searches names what a search of the store reads, as an answer that
	// found nothing names what it searched ("decisions", "earlier sessions
	// of this project").
	Searches() string
}

// Bulky is a Searcher whose searches may hold a thread for long: it lists
// and reads many files (a project's earlier sessions, when there are
// a thousand or more, or a few very large ones). Bulky is asked at
// session_start and must be cheap (names counted, nothing read); when one says so, the core asks a host
// with an event loop to run it off that loop (Out.Worker).
type Bulky interface {
	Bulky() bool
}

// Ranker ranks the entries of other stores another way than by their
// words (the vectors of earlier sessions' messages, decision 019): a
// search by memory_search or /memory search fuses its ranking with the word
// ranking's (vectors.Fuse). Rank makes at most one foreground ask and hands
// then the Refs of the entries it ranks, best first (nil: none, the word
// ranking stands alone), and a sentence for the answer ("" for none):
// why it could not rank, or what it has not ranked yet.
type Ranker interface {
	Rank(out *Out, q string, then func(out *Out, refs []string, said string))
}
