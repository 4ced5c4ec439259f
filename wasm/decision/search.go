package decision

import (
	"errors"
	"slices"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"github.com/pi-memory/pi-memory/wasm/search"
)

// query is a /decision search: the words and "quoted phrases" the search
// engine reads (search.Parse), so /decision search, /memory recall and
// memory_search agree on what matches, and the filters status: and tag:.
type query struct {
	search.Query
	Statuses []Status // status:active,draft — any of them
	Tags     []string // tag:db — all of them
	BadTerms []string // filters that named no known status, reported to the user
	// Span is since: and until: (search.SpanOf): only the decisions last
	// changed in it.
	Span search.When
}

// parseQuery reads the words of `/decision search postgres status:active
// tag:db since:2026-09`; a word holding a space (quoted in the command) is
// a phrase. Times count from now (Unix ms).
//
//	parseQuery(["pg", "status:active,draft", "tag:DB"], now) => Words ["postgresql"], Statuses [active draft], Tags ["db"]
//	parseQuery([`"build`], now) => error: unbalanced quote: …
func parseQuery(words []string, now int64) (query, error) {
	// Bounded as /memory recall bounds it, before it is read: 820 KB of
	// words held pi's thread for 18 s (h-v93 b1).
	if n := len(strings.Join(words, " ")); n > search.MaxQuery {
		return query{}, errors.New("query is " + numstr.Itoa(n) + " bytes, over the limit of 1,000: search for a few distinctive words instead")
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		if strings.ContainsAny(w, " \t\n") && !strings.Contains(w, `"`) {
			w = `"` + w + `"`
		}
		quoted[i] = w
	}
	parsed, err := search.Parse(strings.Join(quoted, " "), "status", "tag", "since", "until")
	if err != nil {
		return query{}, err
	}
	span, err := search.SpanOf(parsed.Filters, now)
	if err != nil {
		return query{}, err
	}
	q := query{Query: parsed, Span: span}
	for _, f := range parsed.Filters {
		switch f.Name {
		case "status":
			bad := false
			for _, name := range strings.Split(f.Value, ",") {
				if st := ParseStatus(name); st != statusNone {
					q.Statuses = append(q.Statuses, st)
				} else if name != "" {
					bad = true
				}
			}
			if w := "status:" + f.Said; bad && !slices.Contains(q.BadTerms, w) {
				q.BadTerms = append(q.BadTerms, w)
			}
		case "tag":
			if t := cleanTag(f.Value); t != "" {
				q.Tags = append(q.Tags, t)
			}
		}
	}
	return q, nil
}

// keeps reports whether decision r passes q's filters: one of its statuses,
// all of its tags, its time.
func (q *query) keeps(s *state, r *rec) bool {
	if q.Span.To > 0 && !q.Span.Has(r.updatedAt) {
		return false
	}
	if len(q.Statuses) > 0 {
		ok := false
		for _, want := range q.Statuses {
			ok = ok || r.status == want
		}
		if !ok {
			return false
		}
	}
	for _, want := range q.Tags {
		ok := false
		for _, t := range s.strs.refs(r.tags) {
			if strings.EqualFold(cleanTag(s.strs.get(t)), want) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// search is the live decisions matching q, newest first: those holding
// every word and phrase of q by the search engine's match, over x kept up to
// srcs (the decision log as memory_search indexes it: SearchSources), that
// pass its filters. A query of filters only lists every decision that
// passes them; one of stop words only finds none.
func (s *state) search(x *search.Index, srcs []search.Source, q query) hits {
	var out []int32
	if len(q.Words) == 0 && len(q.Phrases) == 0 {
		if q.Said > 0 {
			return s.hits(nil)
		}
		for h := int32(0); h < int32(s.recs.n); h++ {
			if r := s.recs.at(h); !r.removed && q.keeps(s, r) {
				out = append(out, h)
			}
		}
		return s.hits(out)
	}
	x.Plan(srcs)
	x.Build(nil, false)
	o := search.Options{Limit: max(x.Len(), 1), Every: true}
	if len(q.Statuses) > 0 || len(q.Tags) > 0 || q.Span.To > 0 {
		o.Keep = func(_, ref string) bool {
			h := s.lookup(ref)
			return h >= 0 && q.keeps(s, s.recs.at(h))
		}
	}
	r := x.Find(q.Query, o)
	r.Run(nil)
	r.Refs(func(ref string) {
		if h := s.lookup(ref); h >= 0 && !s.recs.at(h).removed {
			out = append(out, h)
		}
	})
	return s.hits(out)
}

// searchExtra is what a decision is searched by beside its title and text:
// its reason and its tags ("#db").
func (s *state) searchExtra(r *rec) string {
	refs := s.strs.refs(r.tags)
	if len(refs) == 0 {
		return s.strs.get(r.reason)
	}
	// Built once: a string grown by each tag was copied whole for each (a
	// hand-written decision of 30,000 tags took 9 s: h-v97 a1).
	var b strings.Builder
	b.WriteString(s.strs.get(r.reason))
	for _, t := range refs {
		b.WriteString(" #")
		b.WriteString(s.strs.get(t))
	}
	return b.String()
}
