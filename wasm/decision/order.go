package decision

import "sort"

// byFuncs is sort.Interface over closures. sort.Slice does the same sort
// (both run the same pdqsort, so equal elements end in the same order) but
// links internal/reflectlite for its swapper, ~20 KB of the module.
type byFuncs struct {
	n    int
	less func(i, j int) bool
	swap func(i, j int)
}

func (b byFuncs) Len() int           { return b.n }
func (b byFuncs) Less(i, j int) bool { return b.less(i, j) }
func (b byFuncs) Swap(i, j int)      { b.swap(i, j) }

// sortBy sorts n elements by less, moving them with swap.
//
//go:noinline
func sortBy(n int, less func(i, j int) bool, swap func(i, j int)) {
	sort.Sort(byFuncs{n, less, swap})
}
