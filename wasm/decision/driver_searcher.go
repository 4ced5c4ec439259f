package decision

import (
	"path"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/search"
)

// SearchSources is the decision log as memory_search reads it
// (store.Searcher): one source, every live decision of any status, stamped
// with the state's generation and the log's size and mtime (a rewrite read
// into a new state may start from the same generation), so the index is
// rebuilt only after a decision changed. Each entry's Ref is its id, which the decision store's
// Forgetter takes; its Mark is its status, or "conflict" while a conflict
// is unresolved; its tags are searched with its reason (searchExtra). The
// strings are the state's own: only a decision with tags has one made.
//
// A log that is there but could not be read (a FIFO, a link, a read that
// failed) is said in the answer (search.Unreadable), beside what was read
// of it: the model must not take the decisions it lacks for none.
func (d *driver) SearchSources() []search.Source {
	if !d.loaded || d.st == nil {
		return nil
	}
	srcs := []search.Source{d.st.source("decisions:"+d.log, files.Stamp(d.h, d.log))}
	if d.loadErr != nil {
		srcs = append(srcs, search.Source{Key: "decisions-unread:" + d.log, Stamp: "unreadable",
			Load: func() []search.Doc { return search.Unreadable(path.Join(decisionDirName, decisionLogName)) }})
	}
	return srcs
}

// source is the live decisions as one search source, stamped with the
// state's generation and size and the log's stamp.
func (s *state) source(key, stamp string) search.Source {
	return search.Source{Key: key, Stamp: strconv.FormatUint(s.Gen, 10) + "/" + strconv.Itoa(s.recs.n) + "/" + stamp, Load: s.searchDocs}
}

// searchDocs are the live decisions as search entries, in log order.
func (s *state) searchDocs() []search.Doc {
	docs := make([]search.Doc, 0, s.live)
	p := &s.strs
	for h := int32(0); h < int32(s.recs.n); h++ {
		r := s.recs.at(h)
		if r.removed {
			continue
		}
		id := p.get(r.id)
		mark := r.status.String()
		if r.conflicts.size() > 0 && r.status == Active {
			mark = "conflict"
		}
		// A hit names the decision that replaced it, or the one it replaced.
		if by := p.get(r.supersededBy); by != "" && r.status == Superseded {
			mark += " by " + by
		} else if was := p.get(r.supersedes); was != "" {
			mark += ", supersedes " + was
		}
		title, text := p.get(r.title), p.get(r.text)
		if derived(title, text) {
			title = ""
		}
		docs = append(docs, search.Doc{
			Kind: search.Decision, Ref: id, Cite: id, Mark: mark,
			Title: title, Text: text, Extra: s.searchExtra(r), Time: r.updatedAt,
		})
	}
	return docs
}
