package similarity

// Canonical is the form a lowercase word takes when decisions are compared:
// a general abbreviation expanded and the word lightly stemmed, so that
// plural, -ing and -ed forms meet. memory_search (wasm/search) indexes and
// queries words in this form, so search and duplicate detection agree on
// which words are the same.
//
//	Canonical("databases") => "databas"
//	Canonical("db")        => "databas"
//	Canonical("merging")   => "merg"
//	Canonical("k8s")       => "kubernet"
func Canonical(w string) string {
	tablesOnce.Do(buildTables)
	n, i := canonical(w)
	if i > 0 {
		return canonWords[i-1]
	}
	return w[:n]
}
