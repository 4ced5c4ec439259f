package decision

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// query is a parsed search: every term must match one of id, title, text,
// tags, reason or status (case-insensitively), and the filters must hold.
type query struct {
	Terms    []string
	Statuses []Status // status:active,draft — any of them
	Tags     []string // tag:db — all of them
	BadTerms []string // filters that named no known status, reported to the user
}

// parseQuery reads words like `postgres status:active tag:db`.
//
//	parseQuery("pg status:active,draft tag:DB") => Terms ["pg"], Statuses [active draft], Tags ["db"]
func parseQuery(words []string) query {
	var q query
	for _, w := range words {
		lw := strings.ToLower(w)
		switch {
		case strings.HasPrefix(lw, "status:"):
			bad := false
			for _, name := range strings.Split(lw[len("status:"):], ",") {
				if st := ParseStatus(name); st != statusNone {
					q.Statuses = append(q.Statuses, st)
				} else if name != "" {
					bad = true
				}
			}
			if bad && !slices.Contains(q.BadTerms, w) {
				q.BadTerms = append(q.BadTerms, w)
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
func (q *query) Match(d *decision) bool {
	return q.match(d.Status, d.Tags, d.ID, d.Title, d.Text, d.Reason)
}

func (q *query) match(st Status, tags []string, fields ...string) bool {
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
// A term of three or more ASCII characters first consults each decision's
// trigram signature (built on the first search, rebuilt for a decision when
// its text changes), so most decisions are skipped without reading their text.
func (s *state) Search(q query) hits {
	var filters []sig
	for _, term := range q.Terms {
		if t, ok := termSig(term); ok {
			filters = append(filters, t)
		}
	}
	for len(s.sigs) < s.recs.n {
		s.sigs = append(s.sigs, sigEntry{})
	}
	var out []int32
	var tagBuf [16]string
	for h := int32(0); h < int32(s.recs.n); h++ {
		r := s.recs.at(h)
		if r.removed {
			continue
		}
		if len(filters) > 0 {
			e := &s.sigs[h]
			if key := sigKey(r); e.key != key || e.key == 0 {
				e.key, e.sig = key, s.signature(r)
			}
			skip := false
			for _, f := range filters {
				if !e.sig.covers(&f) {
					skip = true
					break
				}
			}
			if skip {
				continue
			}
		}
		tags := tagBuf[:0]
		for _, ref := range s.strs.refs(r.tags) {
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

// sig is a 512-bit set of hashed trigrams (ASCII letters folded to lower
// case). A decision of ~300 characters sets about 44% of the bits, so a term
// of three trigrams lets ~8% of decisions through, one of eight ~0.1%.
type sig [8]uint64

func (g *sig) covers(f *sig) bool {
	for i := range g {
		if g[i]&f[i] != f[i] {
			return false
		}
	}
	return true
}

// sigEntry is a decision's signature and the fingerprint of the strings it
// was computed from: strings are never changed in place, so new text means
// new references and a new fingerprint.
type sigEntry struct {
	key uint64
	sig sig
}

func sigKey(r *rec) uint64 {
	return uint64(r.id)*0x9E3779B97F4A7C15 ^ uint64(r.title)*0xC2B2AE3D27D4EB4F ^ uint64(r.text)*0x165667B19E3779F9 ^
		uint64(r.reason)*0x27D4EB2F165667C5 ^ uint64(r.tags)*0xFF51AFD7ED558CCD | 1
}

func (s *state) signature(r *rec) sig {
	var g sig
	for _, f := range [...]ref{r.id, r.title, r.text, r.reason} {
		addTrigrams(&g, s.strs.get(f))
	}
	for _, t := range s.strs.refs(r.tags) {
		addTrigrams(&g, s.strs.get(t))
	}
	return g
}

func addTrigrams(g *sig, v string) {
	if len(v) < 3 {
		return
	}
	a, b := lower(v[0]), lower(v[1])
	for i := 2; i < len(v); i++ {
		c := lower(v[i])
		h := (uint32(a)*961 + uint32(b)*31 + uint32(c)) * 2654435761 >> 23
		g[h>>6] |= 1 << (h & 63)
		a, b = b, c
	}
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// termSig is the signature every match of term must contain; false when the
// signature cannot decide (short or non-ASCII terms, or a term that may match
// a status name, which is not part of the text).
func termSig(term string) (sig, bool) {
	var g sig
	if len(term) < 3 || !isASCII(term) {
		return g, false
	}
	for st := Active; st < numStatus; st++ {
		if containsFold(st.String(), term) {
			return g, false
		}
	}
	addTrigrams(&g, term)
	return g, true
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
