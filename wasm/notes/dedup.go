package notes

import "github.com/pi-memory/pi-memory/wasm/similarity"

// Duplicate reports the first Fact or Pointer page among pages whose text
// duplicates text: the same after similarity.Normalize, or a near-duplicate by
// similarity.Compare (verdict Duplicate). It returns the page's index, or -1.
// Headings and text pages are never duplicates: a bullet that repeats a
// section title still says something the title does not. A text with no words
// duplicates nothing.
//
//	pages: 0 "## Build" (heading), 1 "- Run the tests with -race" (fact)
//	Duplicate("run the tests with -race!", pages) => 1 (same after Normalize)
//	Duplicate("Run tests with -race", pages)      => 1 (near-duplicate)
//	Duplicate("Build", pages)                     => -1 (only a heading says it)
//	Duplicate("Deploy on Fridays", pages)         => -1
func Duplicate(text string, pages []Page) int {
	f := similarity.Prepare(text)
	for i := range pages {
		if pages[i].Kind != Fact && pages[i].Kind != Pointer {
			continue
		}
		g := similarity.Prepare(pages[i].Text)
		if sameNote(&f, &g) {
			return i
		}
	}
	return -1
}

// sameNote is the one duplicate rule for notes. Compare answers Duplicate with
// score 1 for texts equal after Normalize (its documented first check), so the
// exact and the near case are both this one call; it answers Unrelated when
// either text has no words.
func sameNote(a, b *similarity.Features) bool {
	return similarity.Compare(a, b).Verdict == similarity.Duplicate
}
