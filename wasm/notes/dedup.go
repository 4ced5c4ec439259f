package notes

import "github.com/pi-memory/pi-memory/wasm/similarity"

// duplicate reports the first fact or pointer page among pages whose text
// duplicates text: the same after similarity.Normalize, or a near-duplicate by
// similarity.Compare (verdict Duplicate). It returns the page's index, or -1.
// Headings and text pages are never duplicates: a bullet that repeats a
// section title still says something the title does not. A text with no words
// duplicates nothing.
//
//	pages: 0 "## Build" (heading), 1 "- Run the tests with -race" (fact)
//	duplicate("run the tests with -race!", pages) => 1 (same after Normalize)
//	duplicate("Run tests with -race", pages)      => 1 (near-duplicate)
//	duplicate("Build", pages)                     => -1 (only a heading says it)
//	duplicate("Deploy on Fridays", pages)         => -1
func duplicate(text string, pages []page) int {
	f := similarity.Prepare(text)
	for i := range pages {
		if pages[i].Kind != kindFact && pages[i].Kind != kindPointer {
			continue
		}
		g := similarity.Prepare(pages[i].Text)
		if sameNote(&f, &g) {
			return i
		}
	}
	return -1
}

// restated reports the first entry among pages (not a heading) in section
// that says text again: the same after similarity.Normalize, when more of
// them do than twins, how many stood beside the entry when it was
// forgotten. It returns the page's index, or -1. A restore refuses only
// that (the entry is back already, where a restore puts it): a
// near-duplicate of the entry, the same text in another section, or a twin
// that was there before it was forgotten may stand beside it, and refusing
// then would keep the entry lost.
//
//	pages: 0 "## A" (heading), 1 "- Fact 1 about subject1" (fact, in A)
//	restated("fact 1 about subject1!", "A", pages, 0)  => 1
//	restated("fact 1 about subject1!", "A", pages, 1)  => -1 (its twin, there before)
//	restated("Fact 19 about subject19", "A", pages, 0) => -1 (a near-duplicate, not the entry)
//	restated("Fact 1 about subject1", "B", pages, 0)   => -1 (another section's)
func restated(text, section string, pages []page, twins int) int {
	if first, n := saying(text, section, pages); n > twins {
		return first
	}
	return -1
}

// saying is the first entry among pages (not a heading) in section that
// says text, the same after similarity.Normalize (-1 for none), and how
// many do.
func saying(text, section string, pages []page) (first, n int) {
	want := similarity.Normalize(text)
	first = -1
	for i := range pages {
		if pages[i].Kind != kindHeading && pages[i].Section == section && want != "" && similarity.Normalize(pages[i].Text) == want {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	return first, n
}

// sameNote is the one duplicate rule for notes. Compare answers Duplicate with
// score 1 for texts equal after Normalize (its documented first check), so the
// exact and the near case are both this one call; it answers Unrelated when
// either text has no words. A near-duplicate in which two words swapped
// places is none (Compare calls it a conflict): a note refused as one is not
// written and the one it matched is confirmed (h-v86 B1: "staging from
// main, production from release" and "docker -p 8080:3000" refused beside
// their reverse).
func sameNote(a, b *similarity.Features) bool {
	return !similarity.NumbersDiffer(a, b) && similarity.Compare(a, b).Verdict == similarity.Duplicate
}
