package similarity

import (
	"strings"
	"sync"
)

// Word classes. Only content words become tokens; the other classes steer
// the frame (which words are the subject, which the choice) and the polarity.
const (
	kContent  uint8 = iota
	kStop           // articles, pronouns, modals, fillers: carry no subject
	kPrep           // prepositions: split a frame into its parts
	kConj           // and, but, or: a negation right after one rejects, not negates
	kNeg            // not, never, avoid…: flip polarity (or reject, see kConj)
	kAnti           // disable…: a content word (enable) with its polarity flipped
	kSel            // use, prefer, adopt…: the choice follows the verb
	kCop            // is, are, be: the choice follows the copula
	kRej            // instead, rather, versus: what follows is rejected
	kOptional       // optional: negates a requirement, after a copula only
)

// wordClass maps lowercase words to their class; a word not listed is content.
// Negations are written without apostrophes because Normalize joins "don't".
var wordClass = map[string]uint8{}

var classLists = [...]struct {
	class uint8
	words string // separated by spaces: one string, not a header per word
}{
	{kStop, `a an the we our ours us you your i me my it its they them their this that
		these those there here all any each every some always only just also should
		must shall will would can could may might need needs have has had do does did
		please let lets decide decided decision going forward now then so too very
		than ensure allow allows allowed permit permits permitted whenever yes ok`},
	{kPrep, `for in on at as with within across throughout via through into onto over under
		per when if unless during inside outside to from by between behind against
		after before about around of toward towards upon except where while`},
	{kConj, `and but or nor`},
	{kNeg, `not no never dont doesnt didnt isnt arent shouldnt mustnt cant cannot wont
		avoid avoids avoided forbid forbids forbidden prohibit prohibits prohibited
		ban bans banned disallow disallows disallowed`},
	{kAnti, `disable disables disabled disabling`},
	{kSel, `use uses used using prefer prefers preferred adopt adopts choose chooses pick
		picks select standardize standardise stick switch migrate rely opt favor
		favour stay require requires required enforce enforces`},
	{kCop, `is are be was were been being`},
	{kRej, `instead rather versus vs`},
	{kOptional, `optional`},
}

// prepClass groups prepositions by the slot they open, so that a change of
// preposition alone ("Deploy on …" / "Deploy to …") still fills the same slot
// while a different kind of slot ("Deploy with Helm" / "Deploy on Fridays")
// does not. A preposition not listed is a class of its own.
var prepClass = map[string]uint8{}

var prepClasses = [...]string{
	1: "for as",
	2: "in on to into onto within inside across throughout",
	3: "with using via through by",
	4: "before after during when while",
}

// preferVerbs are the selectors after which "over" introduces the rejected
// alternative ("prefer composition over inheritance") instead of a place.

// auxiliaries that belong to a following negation in a reason ("Do not").

// synonyms maps abbreviations and spelling variants to one word, as
// "word:canonical" pairs in one string (a table of string pairs costs the
// module two string headers a pair). It is kept small and general on
// purpose: it must hold for any software project, and a project-specific
// vocabulary belongs to the user, not to the core.
const synonyms = "db:database dbs:database postgres:postgresql pg:postgresql mongo:mongodb " +
	"js:javascript ts:typescript py:python golang:go k8s:kubernetes kube:kubernetes " +
	"repo:repository config:configuration cfg:configuration conf:configuration " +
	"env:environment dev:development prod:production dep:dependency doc:documentation " +
	"msg:message lib:library pkg:package app:application infra:infrastructure " +
	"perf:performance authn:authentication authz:authorization var:variable " +
	"arg:argument param:parameter func:function fn:function " +
	"prs:pr mr:pr mrs:pr ids:id vms:vm " +
	"zero:0 one:1 two:2 three:3 four:4 five:5 six:6 seven:7 eight:8 nine:9 ten:10"

// phrases are multi-word spellings of one token.
var phrases = [...][2]string{
	{"end to end", "e2e"},
	{"semantic versioning", "semver"},
	{"infrastructure as code", "iac"},
}

// canonWords holds the canonical (stemmed) forms; synIndex and phraseIndex
// point into it, so a token stores one byte instead of a string.
var (
	canonWords   []string
	synIndex     = map[string]uint8{}
	phraseIndex  = map[string]uint8{}
	phraseStarts = map[string]bool{} // first words of phrases, to skip most lookups
	enableIndex  uint8               // "disable" is a negated "enable"
)

var (
	preferVerbs map[string]bool
	auxiliaries map[string]bool
	tablesOnce  sync.Once
)

// buildTables fills the lookup tables on first use rather than at module
// start: under TinyGo every map insert allocates, and most sessions never
// compare two decisions.
func buildTables() {
	preferVerbs = map[string]bool{
		"prefer": true, "prefers": true, "preferred": true, "favor": true, "favour": true,
		"choose": true, "chooses": true, "pick": true, "picks": true, "select": true,
	}
	auxiliaries = map[string]bool{
		"do": true, "does": true, "should": true, "must": true, "shall": true,
		"will": true, "can": true, "we": true,
	}
	for _, l := range classLists {
		for _, w := range strings.Fields(l.words) {
			wordClass[w] = l.class
		}
	}
	index := func(target string) uint8 {
		c := target
		if !hasDigit(c) {
			c = stem(c)
		}
		for i, w := range canonWords {
			if w == c {
				return uint8(i)
			}
		}
		canonWords = append(canonWords, c)
		return uint8(len(canonWords) - 1)
	}
	for _, s := range strings.Fields(synonyms) {
		i := strings.IndexByte(s, ':')
		synIndex[s[:i]] = index(s[i+1:])
	}
	for _, p := range phrases {
		phraseIndex[p[0]] = index(p[1])
		phraseStarts[p[0][:strings.IndexByte(p[0], ' ')]] = true
	}
	enableIndex = index("enable")
	// Every preposition gets a class of its own, then the groups share one.
	n := uint8(len(prepClasses))
	for _, l := range classLists {
		for _, w := range strings.Fields(l.words) {
			if l.class == kPrep {
				n++
				prepClass[w] = n
			}
		}
	}
	for c, ws := range prepClasses {
		for _, w := range strings.Fields(ws) {
			prepClass[w] = uint8(c)
		}
	}
}

// stem strips English inflections so that plural, -ing and -ed forms meet:
// "databases" and "database" both give "databas", "merging" and "merged"
// give "merg". The result is always a prefix of the word, so a token can
// point into the normalised text instead of holding a new string. It is a
// light stemmer on purpose: derivational suffixes (-tion, -ment) are left to
// the prefix match in Compare.
func stem(w string) string {
	n := len(w)
	if n <= 3 {
		return w
	}
	switch {
	case hasSuffix(w, "sses"):
		w = w[:n-2]
	case hasSuffix(w, "ies") && n > 4:
		w = w[:n-3]
	case hasSuffix(w, "ss"), hasSuffix(w, "us"), hasSuffix(w, "is"):
	case w[n-1] == 's':
		w = w[:n-1]
	}
	n = len(w)
	switch {
	case hasSuffix(w, "ing") && n-3 >= 3 && hasVowel(w[:n-3]):
		w = undouble(w[:n-3])
	case hasSuffix(w, "ed") && !hasSuffix(w, "eed") && n-2 >= 3 && hasVowel(w[:n-2]):
		w = undouble(w[:n-2])
	}
	n = len(w)
	if n > 4 && w[n-1] == 'y' && !isVowel(w[n-2]) {
		w = w[:n-1]
	}
	n = len(w)
	if n > 3 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return w
}

// undouble turns "runn" (from "running") back into "run", but keeps the
// doubled l, s and z of "install", "pass" and "buzz".
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !isVowel(w[n-1]) && w[n-1] != 'l' && w[n-1] != 's' && w[n-1] != 'z' {
		return w[:n-1]
	}
	return w
}

func hasSuffix(s, suf string) bool {
	return len(s) >= len(suf) && s[len(s)-len(suf):] == suf
}

func isVowel(c byte) bool {
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'
}

func hasVowel(s string) bool {
	for i := 0; i < len(s); i++ {
		if isVowel(s[i]) || s[i] == 'y' {
			return true
		}
	}
	return false
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}
