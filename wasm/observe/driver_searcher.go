package observe

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/search"
)

// Searches is what a search of the store reads (store.Searcher).
func (o *driver) Searches() string { return "observations" }

// SearchSources is this session's observations as memory_search reads them
// (store.Searcher): one source, the observations as folded now (in resource
// scope, the project's, which every session shares), stamped with what
// changes whenever they do. Each item is an entry, its nested lines part of
// its text, its time the observer's date and time. Observations cannot be
// forgotten one by one (/om clear empties them), so their Ref is only a
// citation.
func (o *driver) SearchSources() []search.Source {
	st := o.st
	items := st.Items()
	cite := "this session"
	if o.scope.resource {
		cite = "this project's observations"
	}
	return []search.Source{{
		Key: "observations:" + o.sessionID + ":" + o.scope.file,
		Stamp: strconv.FormatInt(st.Changed, 10) + "/" + numstr.Itoa(st.Observed) + "/" + numstr.Itoa(st.Reflected) +
			"/" + numstr.Itoa(items[0]) + "/" + numstr.Itoa(o.applied.n),
		Load: func() []search.Doc { return observationDocs(st.Groups, cite, o.zone) },
	}}
}

// observationDocs are the items of groups as search entries; zone is the
// local time's minutes east of UTC, which the observer's dates and times
// are in.
func observationDocs(groups []group, cite string, zone int) []search.Doc {
	var docs []search.Doc
	for _, g := range groups {
		for _, it := range g.Items {
			minute := int64(it.Minute)
			if minute < 0 {
				minute = 0
			}
			text := it.Text
			if len(it.Sub) > 0 {
				text += " " + strings.Join(it.Sub, " ")
			}
			docs = append(docs, search.Doc{
				Kind: search.Observation, Ref: cite, Cite: cite, Text: text,
				Time: ((g.Day*1440 + minute) - int64(zone)) * 60000,
			})
		}
	}
	return docs
}
