package store

import "github.com/pi-memory/pi-memory/wasm/search"

// Searcher is a store whose entries memory_search and /memory search rank
// (the orchestrator's, over every store at once). It hands its entries in
// as sources, each with a stamp; the orchestrator keeps one index
// (search.Index) across calls and asks a source's Load only when its stamp
// changed, so a search over unchanged memory reads nothing but stamps. The
// orchestrator asks only a store the gate lets read, after its Ready.
type Searcher interface {
	// SearchSources are the store's searchable sources as they are now:
	// its files or logs (a stamp each), without reading what did not
	// change. A Doc's Ref is a reference the store's Forgetter takes, when
	// the entry can be forgotten.
	SearchSources() []search.Source
}

// Lister is a Searcher whose sources are listed from folders that may hold
// thousands of files (earlier sessions). ListsAfresh says its next
// SearchSources lists them again (a folder changed, or none was listed
// yet): one host call and a source per file, work no slice bounds. A search
// begun by the call then yields first, movable (Out.Yield), so a host that
// can move the core off its event loop does so before it (decision 001,
// addendum 3 of 2026-11-29).
type Lister interface {
	ListsAfresh() bool
}
