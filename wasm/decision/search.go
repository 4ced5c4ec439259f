package decision

import (
	"strings"
	"unicode/utf8"
)

// Query is a parsed search: every term must match one of id, title, text,
// tags, reason or status (case-insensitively), and the filters must hold.
type Query struct {
	Terms    []string
	Statuses []Status // status:active,draft — any of them
	Tags     []string // tag:db — all of them
	BadTerms []string // filters that named no known status, reported to the user
}

// ParseQuery reads words like `postgres status:active tag:db`.
//
//	ParseQuery("pg status:active,draft tag:DB") => Terms ["pg"], Statuses [active draft], Tags ["db"]
func ParseQuery(words []string) Query {
	var q Query
	for _, w := range words {
		lw := strings.ToLower(w)
		switch {
		case strings.HasPrefix(lw, "status:"):
			for _, name := range strings.Split(lw[len("status:"):], ",") {
				if st := ParseStatus(name); st != StatusNone {
					q.Statuses = append(q.Statuses, st)
				} else if name != "" {
					q.BadTerms = append(q.BadTerms, w)
				}
			}
		case strings.HasPrefix(lw, "tag:"):
			if t := cleanTag(lw[len("tag:"):]); t != "" {
				q.Tags = append(q.Tags, t)
			}
		case lw != "":
			q.Terms = append(q.Terms, lw)
		}
	}
	return q
}

// Match reports whether d satisfies q.
func (q *Query) Match(d *Decision) bool {
	return q.match(d.Status, d.Tags, d.ID, d.Title, d.Text, d.Reason)
}

func (q *Query) match(st Status, tags []string, fields ...string) bool {
	if len(q.Statuses) > 0 {
		ok := false
		for _, want := range q.Statuses {
			ok = ok || st == want
		}
		if !ok {
			return false
		}
	}
	for _, want := range q.Tags {
		ok := false
		for _, t := range tags {
			if strings.EqualFold(cleanTag(t), want) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, term := range q.Terms {
		if !matchesTerm(term, st, tags, fields) {
			return false
		}
	}
	return true
}

func matchesTerm(term string, st Status, tags []string, fields []string) bool {
	for _, f := range fields {
		if containsFold(f, term) {
			return true
		}
	}
	if containsFold(st.String(), term) {
		return true
	}
	for _, t := range tags {
		if containsFold(t, term) {
			return true
		}
	}
	return false
}

// Search returns the live decisions matching q, newest first. It reads the
// stored strings in place; only the decisions a caller shows are materialized.
func (s *State) Search(q Query) Hits {
	var out []int32
	var tagBuf [16]string
	for h := int32(0); h < int32(s.recs.n); h++ {
		r := s.recs.at(h)
		if r.removed {
			continue
		}
		tags := tagBuf[:0]
		for _, ref := range s.strs.lists[r.tags.start() : r.tags.start()+r.tags.size()] {
			if len(tags) == len(tagBuf) {
				break
			}
			tags = append(tags, s.strs.get(ref))
		}
		if q.match(r.status, tags, s.strs.get(r.id), s.strs.get(r.title), s.strs.get(r.text), s.strs.get(r.reason)) {
			out = append(out, h)
		}
	}
	return s.hits(out)
}

// containsFold reports whether s contains the lower-case needle, ignoring
// case. An ASCII needle is compared byte by byte without allocating, which is
// exact even inside UTF-8 text (multi-byte sequences never hold ASCII bytes)
// and keeps search over 100k decisions fast; other needles fall back to
// Unicode lower-casing.
func containsFold(s, needle string) bool {
	if needle == "" {
		return true
	}
	if len(s) < len(needle) {
		return false
	}
	if !isASCII(needle) {
		return strings.Contains(strings.ToLower(s), needle)
	}
	first := needle[0]
	upper := first
	if first >= 'a' && first <= 'z' {
		upper = first - ('a' - 'A')
	}
	last := len(s) - len(needle)
	for i := 0; i <= last; i++ {
		c := s[i]
		if c != first && c != upper {
			continue
		}
		j := 1
		for ; j < len(needle); j++ {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != needle[j] {
				break
			}
		}
		if j == len(needle) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
