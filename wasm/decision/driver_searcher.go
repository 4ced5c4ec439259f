package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"path"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/search"
)

// Searches is what a search of the store reads (store.Searcher).
func (d *driver) Searches() string { return "decisions" }

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
	if long := d.st.longLines(); long != "" {
		cite := path.Join(decisionDirName, decisionLogName) + " " + long
		srcs = append(srcs, search.Source{Key: "decisions-long:" + d.log, Stamp: long,
			Load: func() []search.Doc { return search.Unreadable(cite) }})
	}
	return srcs
}

// bulkyLog is the size of a log whose search may hold a thread for long:
// its first search indexes every decision (100,000 in a 40 MB log took
// 2–3 s in TinyGo, in slices), and the index makes TinyGo's heap large
// enough for a collection to stop the module for 50 ms and more (decision
// 018). About 20,000 decisions.
const bulkyLog = 8 << 20

// Bulky says the log read at the start is bulkyLog or more (store.Bulky):
// pi then runs the core off its event loop, and the first search's index
// is built there, not on pi's thread. Nothing is read to say it.
func (d *driver) Bulky() bool {
	return d.loaded && d.cur.Offset >= bulkyLog
}

// longLines names the log's lines replay skipped for their length
// (tooLong), "" when none: "line 2 (over 8 MiB)", "lines 2, 9, 14 and 3 more
// (over 8 MiB)". Every answer says them, so the decisions they may hold are
// not taken for none.
func (s *state) longLines() string {
	var nums []string
	n := 0
	for _, p := range s.Problems {
		if p.Kind != tooLong {
			continue
		}
		if n++; len(nums) < 3 {
			nums = append(nums, numstr.Itoa(p.Line))
		}
	}
	if n == 0 {
		return ""
	}
	said := "line "
	if n > 1 {
		said = "lines "
	}
	said += strings.Join(nums, ", ")
	if n > len(nums) {
		said += " and " + numstr.Itoa(n-len(nums)) + " more"
	}
	return said + " (over " + numstr.Itoa(maxLine>>20) + " MiB)"
}

// source is the live decisions as one search source, stamped with the
// state's generation and size and the log's stamp.
func (s *state) source(key, stamp string) search.Source {
	return search.Source{Key: key, Stamp: strconv.FormatUint(s.Gen, 10) + "/" + numstr.Itoa(s.recs.n) + "/" + stamp, Load: s.searchDocs}
}

// searchDocs are the decisions as search entries, in log order: the live
// ones, and the removed ones as Gone (a forget by words that names one a
// moment after another process removed it is told it went, instead of
// taking the best of the rest; memory_restore takes its id).
func (s *state) searchDocs() []search.Doc {
	docs := make([]search.Doc, 0, s.live)
	p := &s.strs
	for h := int32(0); h < int32(s.recs.n); h++ {
		r := s.recs.at(h)
		id, title, text := p.get(r.id), p.get(r.title), p.get(r.text)
		if derived(title, text) {
			title = ""
		}
		if r.removed {
			docs = append(docs, search.Doc{Kind: search.Decision, Ref: id, Cite: id, Title: title, Text: text, Time: r.updatedAt, Gone: true})
			continue
		}
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
		docs = append(docs, search.Doc{
			Kind: search.Decision, Ref: id, Cite: id, Mark: mark,
			Title: title, Text: text, Extra: s.searchExtra(r), Time: r.updatedAt,
		})
	}
	return docs
}
