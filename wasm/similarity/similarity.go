// Package similarity owns the verdict on a new decision text against one
// active decision: Duplicate, Conflict or Unrelated, with a score and a short
// reason a person can act on. It takes strings and returns values; it never
// stores, looks up ids or asks the user — the decision package runs it over
// the active decisions and turns verdicts into prompts or exit codes.
//
// # Duplicates
//
// An exact match after Normalize is always a duplicate with score 1.
// Otherwise the score is a soft Dice coefficient over content words:
//
//	score = (Σ best(a→B) + Σ best(b→A)) / (|A| + |B|)
//
// where A and B are the content words (stop words, prepositions, negations
// and directive verbs such as "use" or "prefer" removed) in canonical form:
// lower case, lightly stemmed (plural, -ing, -ed) and with a small table of
// general abbreviations expanded (db, k8s, repo, config, env, postgres, …).
// best(w→X) is 1 for the same canonical word, 0.9 for a typo (one edit or
// transposition in words of five letters or more sharing their first two),
// 0.7 when one word is a prefix of the other (deploy/deployment), and 1 when
// w is a compound or an acronym of adjacent words of X (precommit/pre-commit,
// PR/pull request). Word order does not matter; missing or extra words do.
// The pair is a duplicate when score >= Threshold and both texts have the
// same polarity. docs/decisions/002-near-duplicate-measure.md says why this
// measure and this threshold, measured on testdata/similarity/pairs.jsonl.
//
// # Conflicts
//
// Prepare reads each text as a frame: a subject (what is decided: "primary
// database"), a choice ("PostgreSQL"), an optional rejected alternative
// ("instead of MySQL") and a polarity ("Never", "Do not", "Disable"). Two
// texts conflict when
//   - one chooses what the other rejects ("prefer X over Y" / "use Y"), and
//     their subjects, if both have one, agree at least half;
//   - their polarity differs, they score >= 0.6, and at least 80% of the
//     prohibition's words are among what the other prescribes ("Do not use
//     an ORM" / "Use ORMs");
//   - both prescribe, their second parts open with the same kind of
//     preposition (for/as, in/on/to, with/via/by, before/after…), their
//     subjects score >= 0.85 and each choice has a word found nowhere
//     in the other text ("Use PostgreSQL for the primary database" / "Use
//     MySQL for …").
//
// Same choice with a different subject ("Use tabs in Go files" / "Use tabs in
// Makefiles"), different kinds of modifiers ("Deploy with Helm" / "Deploy on
// Fridays"), a narrower prohibition ("Never squash merge PRs" / "Merge PRs
// with a merge commit") and two prohibitions ("Never deploy on Fridays" /
// "… Mondays") are not conflicts. Without subject words ("Use tabs" / "Use
// spaces") no conflict is found: knowing that tabs exclude spaces, or that
// TypeScript and React go together, needs world knowledge the core does not
// carry.
//
// The code runs under TinyGo: no reflection, no regexp, no allocation in
// Compare except for the reason of a Duplicate or Conflict verdict.
package similarity

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"slices"
	"strconv"
	"strings"
)

// Threshold is the near-duplicate score at and above which two texts of the
// same polarity are duplicates (see package doc and decision record 002).
const Threshold = 0.7

// subjectMatch is how closely two subjects must agree for a change of choice
// to be a conflict. A negation conflicts when the two texts score at least
// containFloor and the prohibition's words are at least negationRecall
// found in the other text.
const (
	subjectMatch   = 0.85
	containFloor   = 0.6
	negationRecall = 0.8
)

// Verdict is how a new decision text relates to an existing one.
type Verdict uint8

const (
	Unrelated Verdict = iota
	Duplicate
	Conflict
)

var verdictNames = [...]string{"unrelated", "duplicate", "conflict"}

// String names the verdict as it appears in the fixture and in messages.
//
//	Conflict.String() => "conflict"
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "unknown"
}

// MarshalText writes the verdict's name, so a Pair encodes as the fixture does.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads a verdict name.
//
//	"duplicate" => Duplicate
//	"dup"       => error: unknown verdict "dup" (want unrelated, duplicate or conflict)
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, n := range verdictNames {
		if string(b) == n {
			*v = Verdict(i)
			return nil
		}
	}
	return errors.New("unknown verdict " + strconv.Quote(string(b)) + " (want unrelated, duplicate or conflict)")
}

// Result is Compare's answer. Score is in [0,1]: the near-duplicate score
// for Duplicate and Unrelated (1 only for the same text after
// normalisation, at most maxUnlike otherwise), and for Conflict how surely both texts are
// about the same thing. Reason is short and meant for the person choosing
// what to do ("PostgreSQL vs MySQL for primary database").
type Result struct {
	Verdict Verdict
	Score   float64
	Reason  string
}

// Compare judges new decision a against existing decision b. The verdict
// does not depend on the order of a and b; the reason names a's words first.
//
//	Compare("Use Postgres for the primary DB", "Use PostgreSQL for the primary database")
//	  => Duplicate 0.99 "near-duplicate (score 0.99)"
//	Compare("Use PostgreSQL for the primary database", "Use MySQL for the primary database")
//	  => Conflict 1.00 "PostgreSQL vs MySQL for primary database"
//	Compare("Always squash merge PRs", "Never squash merge PRs")
//	  => Conflict 1.00 `"Never" contradicts "Always squash merge PRs"`
//	Compare("Use tabs in Go files", "Use tabs in Makefiles")
//	  => Unrelated 0.40 "below the duplicate threshold"
//
// (Texts stand for their Prepare'd Features.)
func Compare(a, b *Features) Result {
	if a == nil || b == nil || a.norm == "" || b.norm == "" {
		return Result{Reason: "no words to compare"}
	}
	if a.norm == b.norm {
		return Result{Verdict: Duplicate, Score: 1, Reason: "same text after normalisation"}
	}
	if a.sig&b.sig == 0 && a.acr&b.ini == 0 && b.acr&a.ini == 0 {
		return Result{Reason: "no shared words"}
	}
	m := newMatcher(a, b)
	s := m.sim(anyRole, anyRole)
	if s == 0 {
		return Result{Reason: "no shared words"}
	}

	if r, ok := m.crossed(s); ok {
		return r
	}
	if a.neg != b.neg {
		if r, ok := m.negated(); ok {
			return r
		}
		return Result{Score: unlike(s), Reason: "opposite polarity on different things"}
	}
	if !a.neg {
		if r, ok := m.swapped(); ok {
			return r
		}
	}
	if s >= Threshold && !sameNumbers(a.norm, b.norm) {
		// "retry 3 times" and "retry 5 times", "version 1.2.3" and
		// "1.2.4": the measure reads words, and one number changed is a
		// different fact, not the same one said again.
		return Result{Score: unlike(s), Reason: "the numbers differ"}
	}
	if s >= Threshold && Swapped(a, b) {
		// The same words, two of them swapped: the one says the other's
		// reverse ("… from main, … from release"; "-p 8080:3000").
		return Result{Verdict: Conflict, Score: unlike(s), Reason: "the same words with two of them swapped"}
	}
	if s >= Threshold {
		s = unlike(s)
		return Result{Verdict: Duplicate, Score: s, Reason: "near-duplicate (score " + strconv.FormatFloat(s, 'f', 2, 64) + ")"}
	}
	return Result{Score: s, Reason: "below the duplicate threshold"}
}

// NumbersDiffer reports whether a and b hold different numbers, each some:
// then Compare never calls them duplicates ("retry 3 times", "retry 5
// times"), and a caller that wants only that verdict need not compare
// them (an import of thousands of numbered facts compared every pair).
func NumbersDiffer(a, b *Features) bool {
	return a.nums != 0 && b.nums != 0 && a.nums != b.nums
}

// sameNumbers reports whether two normalised texts hold the same numbers
// (numbers), as many times each, none of them swapped with another after
// the same word; a text without one says nothing against the other's.
func sameNumbers(a, b string) bool {
	na, nb := numbers(a), numbers(b)
	if len(na) == 0 || len(nb) == 0 {
		return true // "two approvals" and "2 approvals": a number written as a word is not read
	}
	if !slices.Equal(sorted(na), sorted(nb)) {
		return false
	}
	// The same numbers after the same word in another order are swapped:
	// "map host port 8080 to container port 3000" and "… 3000 to … 8080",
	// "use Python 3.12 not 3.11" and "… 3.11 not 3.12". A list's numbers
	// ("ports 8080 and 9090") are one run in any order, and a number after
	// another word stays the same fact ("service 12 listens on port 8012",
	// "port 8012 for service 12").
	ga, gb := numberRuns(a), numberRuns(b)
	for _, x := range ga {
		for _, y := range gb {
			if x.after == y.after && !slices.Equal(x.nums, y.nums) {
				return false
			}
		}
	}
	return true
}

// Swapped reports whether two words that a and b both hold once have
// changed places: each stands after the two words the other stood after
// ("staging deploys from main, production from release" against "… from
// release, … from main"; "map host port 8080 to container port 3000"
// against "… 3000 … 8080"), or the two stand side by side in the other
// order, both holding a digit ("-p 8080:3000" against "-p 3000:8080"), or
// all of them stand in another order that is neither a clause moved whole
// nor a list's items ("cp a.json b.json" against "cp b.json a.json"). The
// measure reads words, not their places, so such a pair scores as a
// near-duplicate while it says the opposite: Compare calls it a conflict.
// A clause moved whole ("before pushing, run the tests") swaps nothing.
func Swapped(a, b *Features) bool {
	wa, wb := strings.Fields(a.norm), strings.Fields(b.norm)
	at := func(ws []string) map[string]int {
		m := map[string]int{}
		for i, w := range ws {
			if _, twice := m[w]; twice {
				m[w] = -1
			} else {
				m[w] = i
			}
		}
		return m
	}
	if len(wa) == len(wb) && !slices.Equal(wa, wb) && slices.Equal(sorted(wa), sorted(wb)) && !rotated(wa, wb) && !listReordered(wa, wb) {
		return true // the same words in another order, not a clause moved whole: cp a.json b.json, cp b.json a.json
	}
	pa, pb := at(wa), at(wb)
	before := func(ws []string, i int) [2]string {
		var c [2]string
		if i > 0 {
			c[1] = ws[i-1]
		}
		if i > 1 {
			c[0] = ws[i-2]
		}
		return c
	}
	var once []string // the words each holds once, in a's order
	for _, w := range wa {
		if j, ok := pb[w]; ok && j >= 0 && pa[w] >= 0 {
			once = append(once, w)
		}
	}
	for i, x := range once {
		for _, y := range once[i+1:] {
			ax, ay, bx, by := pa[x], pa[y], pb[x], pb[y]
			if (ay == ax+1 && bx == by+1 || ax == ay+1 && by == bx+1) && strings.ContainsAny(x, "0123456789") && strings.ContainsAny(y, "0123456789") {
				return true // two values side by side, the other way round (8080:3000; not "8080 are" and "are 8080")
			}
			if cx, cy := before(wa, ax), before(wa, ay); cx != cy && cx == before(wb, by) && cy == before(wb, bx) {
				return true
			}
		}
	}
	return false
}

// listReordered: a and b differ only where a says "X and Y" and b "Y and
// X" (or "or"): a list's items in another order say the same.
func listReordered(a, b []string) bool {
	i, j := 0, len(a)-1
	for i < len(a) && a[i] == b[i] {
		i++
	}
	for j > i && a[j] == b[j] {
		j--
	}
	wa, wb := a[i:j+1], b[i:j+1]
	for k, w := range wa {
		if joiner(w) && k > 0 && k < len(wa)-1 {
			x, y := wa[:k], wa[k+1:]
			if slices.Equal(wb[:len(y)], y) && wb[len(y)] == w && slices.Equal(wb[len(y)+1:], x) {
				return true
			}
		}
	}
	return false
}

// joiner: w joins a list's items.
func joiner(w string) bool { return w == "and" || w == "or" }

// rotated: b is a with its words from some place on moved to its front
// ("run the tests before pushing", "before pushing run the tests").
func rotated(a, b []string) bool {
	for k := 1; k < len(a); k++ {
		if slices.Equal(a[k:], b[:len(a)-k]) && slices.Equal(a[:k], b[len(a)-k:]) {
			return true
		}
	}
	return false
}

// sorted is a sorted copy of ns.
func sorted(ns []string) []string {
	c := slices.Clone(ns)
	slices.Sort(c)
	return c
}

// A numberRun is the numbers of s after one word, in their order, a list's
// sorted ("8080 and 9090").
type numberRun struct {
	after string
	nums  []string
}

// numberRuns are s's numbers (numbers) by the word before each, or before
// the list it is in: numbers joined by nothing but blanks, ",", "/", "&",
// "and" or "or" are one list. Runs after the same word are joined.
func numberRuns(s string) []numberRun {
	var runs []numberRun
	word, list := "", -1 // the last word; the run the list being read is in
	start := 0           // where that list starts in its run
	for i := 0; i < len(s); {
		if !isAlnum(s[i]) {
			if c := s[i]; c != ' ' && c != ',' && c != '/' && c != '&' && c != '\t' {
				list = -1
			}
			i++
			continue
		}
		j := i + 1
		if !isDigit(s[i]) {
			for j < len(s) && isAlnum(s[j]) {
				j++
			}
			if w := s[i:j]; !joiner(w) {
				word, list = w, -1
			}
			i = j
			continue
		}
		for j < len(s) && (isAlnum(s[j]) || s[j] == '.' && j+1 < len(s) && isDigit(s[j+1])) {
			j++
		}
		if list < 0 {
			list = slices.IndexFunc(runs, func(r numberRun) bool { return r.after == word })
			if list < 0 {
				runs = append(runs, numberRun{after: word})
				list = len(runs) - 1
			}
			start = len(runs[list].nums)
		}
		runs[list].nums = append(runs[list].nums, s[i:j])
		slices.Sort(runs[list].nums[start:])
		i = j
	}
	return runs
}

// numbers are the words of s that start with a digit, with the dots
// between digits: "3", "3h", "1.2.3"; not the 8 of "k8s", which is
// spelling.
func numbers(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !isAlnum(s[i]) {
			i++
			continue
		}
		j := i + 1
		if isDigit(s[i]) {
			for j < len(s) && (isAlnum(s[j]) || s[j] == '.' && j+1 < len(s) && isDigit(s[j+1])) {
				j++
			}
			out = append(out, s[i:j])
		} else {
			for j < len(s) && isAlnum(s[j]) {
				j++
			}
		}
		i = j
	}
	return out
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isAlnum: an ASCII letter or digit, or any byte of a character past ASCII.
func isAlnum(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'z' || c >= 0x80 }

// maxUnlike is the highest score of two texts that differ after
// normalisation. The measure reads canonical content words only, so texts
// that differ in spelling (Postgres/PostgreSQL, DB/database), in the words
// it leaves out or in word order can match word for word; a score of 1 is
// kept for the same text, so a person is never shown "100% similar" for two
// texts that differ.
const maxUnlike = 0.99

// unlike is the score s of two texts that are not the same text.
func unlike(s float64) float64 { return min(s, maxUnlike) }

// Role masks for matcher.sim.
const (
	anyRole    = 1<<roleSubject | 1<<roleChoice | 1<<roleRejected | 1<<roleOther
	mainRole   = 1<<roleSubject | 1<<roleChoice | 1<<roleRejected
	prescribed = 1<<roleSubject | 1<<roleChoice
)

// matcher is the word-by-word match of two texts for one Compare: word
// scores are computed when asked (most pairs share few words), compound and
// acronym links once. It is small and passed by value: under TinyGo a local
// whose address reaches a method may be moved to the heap.
type matcher struct {
	a, b  *Features
	nlink int
	links [8]link
}

type link struct{ i, j uint8 }

func newMatcher(a, b *Features) matcher {
	m := matcher{a: a, b: b}
	m = m.findLinks(a, b, false)
	return m.findLinks(b, a, true)
}

func (m matcher) score(i, j int) uint8 {
	x, y := &m.a.toks[i], &m.b.toks[j]
	if x.head != y.head {
		return 0
	}
	return wordScore(m.a.canon(x), m.b.canon(y))
}

// wordScore compares two canonical words, in tenths.
func wordScore(x, y string) uint8 {
	if x == y {
		return 10
	}
	if len(x) < 5 || len(y) < 5 || x[0] != y[0] || x[1] != y[1] {
		return 0
	}
	if len(x) > len(y) {
		x, y = y, x
	}
	if len(y)-len(x) <= 1 && !hasDigit(x) && !hasDigit(y) && oneEdit(x, y) {
		return 9
	}
	// A prefix is the same word cut short ("config" / "configuration"), but
	// not when a digit is in either: "number1" / "number10" and "v1" / "v12"
	// name other things, as "number1" / "number2" do.
	if y[:len(x)] == x && !hasDigit(y) {
		return 7
	}
	return 0
}

// oneEdit reports whether y is x with one letter inserted, deleted, replaced,
// or two neighbours swapped; len(y) is len(x) or len(x)+1.
func oneEdit(x, y string) bool {
	i := 0
	for i < len(x) && x[i] == y[i] {
		i++
	}
	if len(x) != len(y) {
		return x[i:] == y[i+1:]
	}
	if i == len(x) {
		return true
	}
	if x[i+1:] == y[i+1:] {
		return true
	}
	return i+1 < len(x) && x[i] == y[i+1] && x[i+1] == y[i] && x[i+2:] == y[i+2:]
}

// findLinks links words of x that are a compound of two adjacent words of
// y ("precommit" / "pre commit") or an acronym of adjacent words of y
// ("pr" / "pull request"). Links always point from a's word i to b's word j;
// a compound links its one word to both of the other's.
func (m matcher) findLinks(x, y *Features, swapped bool) matcher {
	for i := range x.toks {
		t := &x.toks[i]
		raw, can := x.raw(t), x.canon(t)
		if t.syn == 0 && len(raw) >= 5 {
			for j := 0; j+1 < len(y.toks); j++ {
				p, q := &y.toks[j], &y.toks[j+1]
				if p.head>>8 != t.head>>8 || !q.adj || p.syn != 0 || q.syn != 0 {
					continue
				}
				pr, qr := y.raw(p), y.raw(q)
				if concat(raw, pr, qr) || concat(can, pr, y.canon(q)) {
					m = m.link(i, j, swapped).link(i, j+1, swapped)
				}
			}
		}
		if n := len(can); n >= 2 && n <= 5 && isLetters(can) {
			for j := 0; j+n <= len(y.toks); j++ {
				ok := true
				for k := 0; k < n && ok; k++ {
					u := &y.toks[j+k]
					ok = y.raw(u)[0] == can[k] && len(y.raw(u)) > 1 && (k == 0 || u.adj)
				}
				for k := 0; ok && k < n; k++ {
					m = m.link(i, j+k, swapped)
				}
			}
		}
	}
	return m
}

// link records that a's word i and b's word j are the same thing; swapped
// when i is b's word and j a's.
func (m matcher) link(i, j int, swapped bool) matcher {
	if swapped {
		i, j = j, i
	}
	if m.nlink < len(m.links) {
		m.links[m.nlink] = link{uint8(i), uint8(j)}
		m.nlink++
	}
	return m
}

func concat(w, p, q string) bool {
	return len(w) == len(p)+len(q) && w[:len(p)] == p && w[len(p):] == q
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// bestA is the best match, in tenths, of a's word i among b's words whose
// role is in mask; bestB the same from b's side.
func (m matcher) bestA(i int, mask uint8) uint8 {
	best := uint8(0)
	for j := 0; j < len(m.b.toks) && best < 10; j++ {
		if mask&(1<<m.b.toks[j].role) != 0 {
			best = max(best, m.score(i, j))
		}
	}
	for _, l := range m.links[:m.nlink] {
		if int(l.i) == i && mask&(1<<m.b.toks[l.j].role) != 0 {
			best = 10
		}
	}
	return best
}

func (m matcher) bestB(j int, mask uint8) uint8 {
	best := uint8(0)
	for i := 0; i < len(m.a.toks) && best < 10; i++ {
		if mask&(1<<m.a.toks[i].role) != 0 {
			best = max(best, m.score(i, j))
		}
	}
	for _, l := range m.links[:m.nlink] {
		if int(l.j) == j && mask&(1<<m.a.toks[l.i].role) != 0 {
			best = 10
		}
	}
	return best
}

// sim is the soft Dice coefficient over a's words in roles maskA and b's
// words in roles maskB, each matched only against the other's masked words.
// It fills both sides' best matches in one pass over the pairs.
func (m matcher) sim(maskA, maskB uint8) float64 {
	var ba, bb [maxTokens]uint8
	ta, tb := m.a.toks, m.b.toks
	for i := range ta {
		x := &ta[i]
		if maskA&(1<<x.role) == 0 {
			continue
		}
		for j := range tb {
			y := &tb[j]
			if maskB&(1<<y.role) == 0 || x.head != y.head {
				continue
			}
			v := wordScore(m.a.canon(x), m.b.canon(y))
			ba[i], bb[j] = max(ba[i], v), max(bb[j], v)
		}
	}
	for _, l := range m.links[:m.nlink] {
		if maskA&(1<<ta[l.i].role) != 0 && maskB&(1<<tb[l.j].role) != 0 {
			ba[l.i], bb[l.j] = 10, 10
		}
	}
	sum, n := 0, 0
	for i := range ta {
		if maskA&(1<<ta[i].role) != 0 {
			sum += int(ba[i])
			n++
		}
	}
	for j := range tb {
		if maskB&(1<<tb[j].role) != 0 {
			sum += int(bb[j])
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(sum) / float64(10*n)
}

// count is how many of f's words have a role in mask.
func count(f *Features, mask uint8) int {
	n := 0
	for i := range f.toks {
		if mask&(1<<f.toks[i].role) != 0 {
			n++
		}
	}
	return n
}

// crossed finds one text choosing what the other rejects.
func (m matcher) crossed(s float64) (Result, bool) {
	hit := false
	for i := 0; i < len(m.a.toks) && !hit; i++ {
		ri := stance(m.a, i)
		if ri != roleChoice && ri != roleRejected {
			continue
		}
		want := uint8(roleRejected)
		if ri == roleRejected {
			want = roleChoice
		}
		for j := 0; j < len(m.b.toks); j++ {
			if stance(m.b, j) == want && m.score(i, j) >= 9 {
				hit = true
				break
			}
		}
	}
	if !hit {
		return Result{}, false
	}
	sa, sb := count(m.a, 1<<roleSubject), count(m.b, 1<<roleSubject)
	if sa > 0 && sb > 0 && m.sim(1<<roleSubject, 1<<roleSubject) < 0.5 {
		return Result{}, false
	}
	return Result{Verdict: Conflict, Score: clamp(s), Reason: choiceReason(m.a, m.b)}, true
}

// stance is a word's role for crossing: the choice of a prohibition ("Do not
// use MySQL for …") is neither chosen nor merely rejected in favour of
// something, so it takes no part (negated judges it).
func stance(f *Features, i int) uint8 {
	r := f.toks[i].role
	if f.neg && r == roleChoice {
		return roleOther
	}
	return r
}

// negated finds opposite polarity on the same thing: the prohibition's words
// are (nearly) all in the prescription, so what one prescribes falls under
// what the other forbids ("Do not use an ORM" / "Use ORMs for reporting").
// A prohibition with a word of its own forbids something else: "Never squash
// merge PRs" says nothing against "Merge PRs with a merge commit".
func (m matcher) negated() (Result, bool) {
	s := m.sim(mainRole, mainRole)
	if s < containFloor || m.recall(m.a.neg) < negationRecall {
		return Result{}, false
	}
	neg, pos := m.a, m.b
	if !neg.neg {
		neg, pos = pos, neg
	}
	cue := "not"
	if neg.cue.hi > neg.cue.lo {
		cue = neg.spell(neg.cue)
	}
	return Result{Verdict: Conflict, Score: clamp(s), Reason: strconv.Quote(cue) + " contradicts " + strconv.Quote(clip(pos.text, 80))}, true
}

// recall is how much of one side's main words (a's when fromA) the other
// side's subject and choice match; what the other side rejects does not
// count, so "Do not use MySQL" agrees with "Use PostgreSQL, not MySQL". The
// "enable" of a "disable" carries polarity only: "Disable strict mode"
// forbids what "Use strict mode" prescribes.
func (m matcher) recall(fromA bool) float64 {
	sum, n := 0, 0
	if fromA {
		for i := 0; i < len(m.a.toks); i++ {
			if t := &m.a.toks[i]; t.role != roleOther && !t.anti {
				sum += int(m.bestA(i, prescribed))
				n++
			}
		}
	} else {
		for j := 0; j < len(m.b.toks); j++ {
			if t := &m.b.toks[j]; t.role != roleOther && !t.anti {
				sum += int(m.bestB(j, prescribed))
				n++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(sum) / float64(10*n)
}

// swapped finds the same subject with a different choice: each choice has a
// word that appears nowhere in the other text.
func (m matcher) swapped() (Result, bool) {
	const subj, choice = 1 << roleSubject, 1 << roleChoice
	if count(m.a, subj) == 0 || count(m.b, subj) == 0 || count(m.a, choice) == 0 || count(m.b, choice) == 0 {
		return Result{}, false
	}
	if sa, sb := m.a.slot, m.b.slot; sa.mode == sb.mode && sa.prep != sb.prep {
		return Result{}, false
	}
	s := m.sim(subj, subj)
	if s < subjectMatch {
		return Result{}, false
	}
	newA, newB := false, false
	for i := 0; i < len(m.a.toks) && !newA; i++ {
		newA = m.a.toks[i].role == roleChoice && m.bestA(i, anyRole) == 0
	}
	for j := 0; j < len(m.b.toks) && !newB; j++ {
		newB = m.b.toks[j].role == roleChoice && m.bestB(j, anyRole) == 0
	}
	if !newA || !newB {
		return Result{}, false
	}
	return Result{Verdict: Conflict, Score: clamp(s), Reason: choiceReason(m.a, m.b)}, true
}

// choiceReason reads "PostgreSQL vs MySQL for primary database".
func choiceReason(a, b *Features) string {
	var sb text.Builder
	sb.WriteString(a.render(roleChoice))
	sb.WriteString(" vs ")
	sb.WriteString(b.render(roleChoice))
	subject := a.render(roleSubject)
	if subject == "" {
		subject = b.render(roleSubject)
	}
	if subject != "" {
		sb.WriteString(" for ")
		sb.WriteString(subject)
	}
	return clip(sb.String(), 120)
}

// render spells the words of one role as they appear in the text, runs of
// neighbouring words kept whole ("Fly.io", "4 spaces", "kebab-case").
func (f *Features) render(role uint8) string {
	var sb text.Builder
	for i := 0; i < len(f.toks); i++ {
		if f.toks[i].role != role {
			continue
		}
		j := i
		for j+1 < len(f.toks) && f.toks[j+1].role == role && f.toks[j+1].adj {
			j++
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(f.text[f.toks[i].o.lo:f.toks[j].o.hi])
		i = j
	}
	return sb.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

func clamp(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}
