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
	if len(q.Statuses) > 0 {
		ok := false
		for _, st := range q.Statuses {
			if d.Status == st {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, want := range q.Tags {
		ok := false
		for _, t := range d.Tags {
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
		if !matchesTerm(d, term) {
			return false
		}
	}
	return true
}

func matchesTerm(d *Decision, term string) bool {
	if containsFold(d.ID, term) || containsFold(d.Title, term) || containsFold(d.Text, term) ||
		containsFold(d.Reason, term) || containsFold(d.Status.String(), term) {
		return true
	}
	for _, t := range d.Tags {
		if containsFold(t, term) {
			return true
		}
	}
	return false
}

// Search returns the live decisions matching q, newest first.
func (s *State) Search(q Query) []*Decision {
	var out []*Decision
	if len(q.Tags) > 0 && len(q.Terms) == 0 {
		for _, d := range s.WithTag(q.Tags[0]) {
			if q.Match(d) {
				out = append(out, d)
			}
		}
		return out
	}
	s.each(func(d *Decision) {
		if q.Match(d) {
			out = append(out, d)
		}
	})
	sortNewest(out)
	return out
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
