package similarity

import (
	txt "github.com/pi-memory/pi-memory/wasm/internal/text"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Limits that keep Features small and their offsets in 16 bits. Decisions are
// a sentence or two; a longer text still gets an exact-match check over all of
// it, but only its first maxText bytes are read for words.
const (
	maxText   = 4096
	maxWords  = 96
	maxTokens = 32
	maxWord   = 64
)

// Features is what Compare needs from one decision text. Prepare computes it
// once; it holds the text, its normalised form and 14 bytes per content word,
// so keeping one per active decision is cheap.
type Features struct {
	text string  // as given; spans point into it for reasons
	norm string  // Normalize(text)
	toks []token // content words in text order
	sig  uint64  // a bit per canonical word's first two letters
	ini  uint32  // a bit per word's first letter (a–z)
	acr  uint32  // a bit per first letter of a word short enough to be an acronym
	nums uint64  // a hash of its numbers, in order (numbers, sorted); 0 with none
	neg  bool    // the text forbids rather than prescribes
	cue  span    // the words that negate ("Do not", "Never", "Disable")
	slot slot    // how the frame's second part is introduced
}

// slot is the frame kind and the class of the preposition that opens its
// second part: "Use X for Y" (select, purpose), "Deploy X on Y" (action,
// place). Two changes of choice conflict only in the same kind of slot:
// "Deploy with Helm" and "Deploy on Fridays" fill different ones.
type slot struct{ mode, prep uint8 }

type span struct{ lo, hi uint16 }

// token is one content word. Its canonical form is either a prefix of its
// lowercase spelling in norm (stemming only ever cuts) or, for abbreviations
// and phrases, an entry of canonWords.
type token struct {
	o    span   // spelling in text
	n0   uint16 // lowercase spelling: norm[n0 : n0+nl]
	nl   uint8
	cl   uint8 // canonical form norm[n0 : n0+cl] when syn == 0
	syn  uint8 // 1 + index into canonWords
	role uint8
	adj  bool   // follows the previous token with no other word between
	anti bool   // "disable" read as a negated "enable": polarity, not content
	head uint16 // first two bytes of the canonical form: words that differ here never match
}

// Roles of a content word in the decision's frame.
const (
	roleSubject  uint8 = iota // what the decision is about ("primary database")
	roleChoice                // what it settles on ("PostgreSQL")
	roleRejected              // what it turns down ("…instead of MySQL")
	roleOther                 // a further clause, kept for similarity only
)

func (f *Features) raw(t *token) string { return f.norm[t.n0 : int(t.n0)+int(t.nl)] }

func (f *Features) canon(t *token) string {
	if t.syn != 0 {
		return canonWords[t.syn-1]
	}
	return f.norm[t.n0 : int(t.n0)+int(t.cl)]
}

func (f *Features) spell(s span) string { return f.text[s.lo:s.hi] }

// Separators seen before a word, strongest wins.
const (
	sepSpace  uint8 = iota
	sepDot          // a lone "." inside a name: "Node.js"
	sepColon        // ":" or "=": what follows is the choice
	sepClause       // , ; ( ) ! ? " - ". : a new clause or an aside
)

type word struct {
	o0, o1 uint16 // span in the text
	n0, n1 uint16 // span in the normalised text
	sep    uint8
}

// Normalize is the exact-match form of a decision text: Unicode lower case,
// punctuation and symbols removed, whitespace collapsed. An apostrophe inside
// a word is dropped rather than split, and the "++" and "#" of language names
// are spelled out, so C++ and C# do not both become "c".
//
//	Normalize("  Use   PostgreSQL, always! ") => "use postgresql always"
//	Normalize("Don't use C++")               => "dont use cpp"
//	Normalize("snake_case or kebab-case?")   => "snake case or kebab case"
func Normalize(text string) string {
	var b txt.Builder
	b.Grow(len(text))
	scan(text, &b, nil)
	return b.String()
}

// scan writes the normalised text to b and, when words is not nil, the
// words of the first maxText bytes with their spans and the separator before
// each. It returns how many words it filled in. (An array pointer rather than
// a slice keeps the caller's buffer on the stack under TinyGo.)
func scan(text string, b *txt.Builder, words *[maxWords]word) int {
	n := 0
	inWord := false
	sep := sepSpace
	var cur word
	for i := 0; i <= len(text); {
		var r rune
		size := 1
		if i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || (inWord && unicode.IsMark(r)):
				if !inWord {
					if b.Len() > 0 {
						b.WriteByte(' ')
					}
					cur = word{o0: uint16(min(i, maxText)), n0: uint16(min(b.Len(), 0xffff)), sep: sep}
					inWord = true
				}
				b.WriteRune(unicode.ToLower(r))
				i += size
				continue
			case inWord && (r == '\'' || r == '’') && nextIsLetter(text, i+size):
				i += size
				continue
			case inWord && (r == '+' || r == '#'):
				j := i
				for j < len(text) && rune(text[j]) == r {
					j++
				}
				if !nextIsLetterOrDigit(text, j) && (r == '+' || j == i+1) {
					for k := i; k < j; k++ {
						if r == '+' {
							b.WriteByte('p')
						} else {
							b.WriteString("sharp")
						}
					}
					i = j
					continue
				}
			}
		}
		if inWord {
			if words != nil && i <= maxText && n < maxWords {
				cur.o1, cur.n1 = uint16(i), uint16(min(b.Len(), 0xffff))
				words[n] = cur
				n++
			}
			inWord = false
			sep = sepSpace
		}
		if i < len(text) {
			sep = max(sep, separator(text, i, r, size))
		}
		i += size
	}
	return n
}

func separator(text string, i int, r rune, size int) uint8 {
	switch r {
	case ',', ';', '(', ')', '!', '?', '—', '–':
		return sepClause
	case ':', '=':
		return sepColon
	case '.':
		if nextIsLetterOrDigit(text, i+size) {
			return sepDot
		}
		return sepClause
	case '-':
		if i > 0 && text[i-1] == ' ' && i+1 < len(text) && text[i+1] == ' ' {
			return sepClause
		}
	}
	return sepSpace
}

func nextIsLetter(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return unicode.IsLetter(r)
}

func nextIsLetterOrDigit(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Frame modes while reading a decision left to right.
const (
	modeNone   uint8 = iota // nothing read yet in this clause
	modeLead                // a leading "For the primary database, …"
	modeSelect              // "Use X for Y": choice first, then subject
	modeAction              // "Write the CLI in Go": subject first, then choice
	modeCopula              // "The primary database is PostgreSQL"
	modeDone                // a later clause: words count, roles do not
)

// Prepare reads a decision text once: its normalised form, its content words
// (canonicalised: lower case, light stem, abbreviations expanded) and its
// frame (subject, choice, rejected alternative, polarity).
//
//	Prepare("Use Postgres for the primary DB")
//	  => words postgresql (choice), primar databas (subject)
//	Prepare("Never squash merge PRs")
//	  => negated by "Never"; words squash merg pr (subject)
func Prepare(text string) Features {
	tablesOnce.Do(buildTables)
	var b txt.Builder
	b.Grow(len(text))
	var wbuf [maxWords]word
	nw := scan(text, &b, &wbuf)
	words := &wbuf
	f := Features{text: text, norm: b.String()}
	if nums := numbers(f.norm); len(nums) > 0 {
		slices.Sort(nums)
		f.nums = 14695981039346656037
		for _, n := range nums {
			for i := 0; i <= len(n); i++ {
				c := byte(' ')
				if i < len(n) {
					c = n[i]
				}
				f.nums = (f.nums ^ uint64(c)) * 1099511628211
			}
		}
	}

	var toks [maxTokens]token
	nt := 0
	mode, role := modeNone, roleSubject
	content := false  // a content word was read in this clause
	choice := false   // a choice word was read (selector frames)
	boundary := false // a clause separator since the last content word
	conj := false     // "and"/"but" since the last content word
	prefer := false   // the selector was prefer-like: "over" rejects
	prevTok := -2     // index in words of the previous token
	prevCop := false  // the last word read was a copula: "are optional"
	for k := 0; k < nw; k++ {
		w := words[k]
		if w.sep == sepClause {
			boundary = true
			if mode == modeLead {
				mode, role, content = modeNone, roleSubject, false
			}
		}
		if w.sep == sepColon && content && mode != modeSelect && mode != modeDone {
			mode, role = modeCopula, roleChoice
		}
		lw := f.norm[w.n0:w.n1]

		// Phrases first: "end to end" is one token, not a preposition inside.
		if n, idx := phraseAt(f.norm, words, nw, k); n > 0 {
			last := words[k+n-1]
			if mode == modeNone {
				mode = modeAction
			}
			if nt < maxTokens {
				toks[nt] = token{
					o: span{uint16(w.o0), uint16(last.o1)}, n0: uint16(w.n0),
					nl: uint8(min(last.n1-w.n0, 255)), syn: idx + 1, role: role,
					adj: prevTok == k-1 && w.sep <= sepDot,
				}
				nt++
			}
			content, boundary, conj = true, false, false
			prevTok = k + n - 1
			k += n - 1
			continue
		}

		class, listed := wordClass[lw]
		if !listed {
			class = kContent
		}
		// ".js" after a name is part of the name: Node.js is Node.
		if lw == "js" && w.sep == sepDot {
			class = kStop
		}
		// "using" after the subject is a preposition: "Deploy using Helm".
		if lw == "using" && mode != modeNone && mode != modeLead {
			class = kPrep
		}
		switch class {
		case kStop:
			continue
		case kConj:
			conj = true
			continue
		case kNeg:
			if content && (boundary || conj) && mode != modeDone {
				role, boundary, conj = roleRejected, false, false
				continue
			}
			if content && mode == modeDone {
				continue
			}
			f.neg = !f.neg
			f.setCue(words, k)
			continue
		case kOptional:
			if prevCop {
				f.neg = !f.neg
				f.setCue(words, k)
				continue
			}
			class = kContent
		case kRej:
			if mode != modeDone {
				role, boundary, conj = roleRejected, false, false
			}
			continue
		case kCop:
			if content && mode != modeSelect && mode != modeDone {
				mode, role = modeCopula, roleChoice
			}
			prevCop = true
			continue
		case kSel:
			if boundary && content && mode != modeLead {
				mode, role = modeDone, roleOther
				continue
			}
			switch {
			case mode == modeNone || mode == modeLead:
				mode, role = modeSelect, roleChoice
			case mode == modeAction && role == roleSubject:
				mode, role = modeSelect, roleChoice
			}
			prefer = prefer || preferVerbs[lw]
			continue
		case kPrep:
			// A preposition after a comma continues the frame:
			// "Use PostgreSQL, not MySQL, for the primary database".
			prevCop, boundary = false, false
			switch mode {
			case modeNone:
				mode, role = modeLead, roleSubject
			case modeSelect:
				switch {
				case !choice && lw == "from":
					role = roleRejected
				case !choice:
					role = roleChoice
				case role == roleRejected && (lw == "of" || lw == "to"):
					if lw == "to" {
						role = roleChoice
					}
				case prefer && lw == "over":
					role = roleRejected
				default:
					if role != roleSubject {
						f.slot = slot{modeSelect, prepClass[lw]}
					}
					role = roleSubject
				}
			case modeAction:
				if role == roleSubject {
					role = roleChoice
					f.slot = slot{modeAction, prepClass[lw]}
				}
			}
			continue
		}
		// A content word (or an antonym verb such as "disable").
		if class == kAnti {
			f.neg = !f.neg
			f.setCue(words, k)
		}
		if boundary && content && mode != modeLead && mode != modeNone {
			mode, role = modeDone, roleOther
		}
		if mode == modeNone {
			mode, role = modeAction, roleSubject
		}
		// Passive voice: in "Server state is managed with React Query" the
		// participle is the verb and the choice comes after a preposition.
		if mode == modeCopula && prevCop && participle(lw) {
			mode, role = modeAction, roleSubject
		}
		if len(lw) <= maxWord && nt < maxTokens {
			t := token{
				o: span{uint16(w.o0), uint16(w.o1)}, n0: uint16(w.n0), nl: uint8(len(lw)),
				role: role, adj: prevTok == k-1 && w.sep <= sepDot,
			}
			cl, syn := canonical(lw)
			if class == kAnti {
				cl, syn, t.anti = 0, enableIndex+1, true
			}
			t.cl, t.syn = uint8(cl), syn
			toks[nt] = t
			nt++
		}
		choice = choice || role == roleChoice
		content, boundary, conj, prevCop = true, false, false, false
		prevTok = k
	}
	if nt > 0 {
		f.toks = make([]token, nt)
		copy(f.toks, toks[:nt])
	}
	f.signature()
	return f
}

// signature sets each word's head and the bits Compare uses to skip pairs
// that cannot share a word: every match wordScore, a compound or an acronym
// can find needs a shared bit (a one-letter word turns the shortcut off).
func (f *Features) signature() {
	for i := range f.toks {
		t := &f.toks[i]
		c := f.canon(t)
		t.head = uint16(c[0]) << 8
		if len(c) > 1 {
			t.head |= uint16(c[1])
		}
	}
	for i := range f.toks {
		t := &f.toks[i]
		c, raw := f.canon(t), f.raw(t)
		if len(c) < 2 || len(raw) < 2 {
			f.sig = ^uint64(0)
			f.ini, f.acr = ^uint32(0), ^uint32(0)
			return
		}
		f.sig |= 1 << ((uint(c[0])*31 + uint(c[1])) & 63)
		f.ini |= letterBit(raw[0])
		if len(c) <= 5 {
			f.acr |= letterBit(c[0])
		}
	}
}

func letterBit(c byte) uint32 {
	if c >= 'a' && c <= 'z' {
		return 1 << (c - 'a')
	}
	return 1 << 31
}

// setCue records the first negating words for reasons, with an auxiliary
// right before them ("Do not", "must not").
func (f *Features) setCue(words *[maxWords]word, k int) {
	if f.cue.hi != 0 {
		return
	}
	lo := words[k].o0
	if k > 0 && auxiliaries[f.norm[words[k-1].n0:words[k-1].n1]] {
		lo = words[k-1].o0
	}
	f.cue = span{uint16(lo), uint16(words[k].o1)}
}

// phraseAt reports how many words starting at k form a known phrase.
func phraseAt(norm string, words *[maxWords]word, nw, k int) (int, uint8) {
	if !phraseStarts[norm[words[k].n0:words[k].n1]] {
		return 0, 0
	}
	for n := 3; n >= 2; n-- {
		if k+n > nw {
			continue
		}
		ok := true
		for j := k + 1; j < k+n; j++ {
			if words[j].sep != sepSpace {
				ok = false
			}
		}
		if !ok {
			continue
		}
		if idx, found := phraseIndex[norm[words[k].n0:words[k+n-1].n1]]; found {
			return n, idx
		}
	}
	return 0, 0
}

// canonical returns the canonical form of a lowercase word as a prefix length
// of the word, or as 1 + an index into canonWords.
func canonical(w string) (int, uint8) {
	if i, ok := synIndex[w]; ok {
		return 0, i + 1
	}
	if hasDigit(w) {
		return len(w), 0
	}
	s := stem(w)
	if i, ok := synIndex[s]; ok {
		return 0, i + 1
	}
	return len(s), 0
}

// participle reports a past participle: regular -ed, or an irregular one
// that decisions use ("written", "built", "run").
func participle(w string) bool {
	if len(w) > 4 && hasSuffix(w, "ed") {
		return true
	}
	switch w {
	case "written", "built", "run", "kept", "made", "done", "held", "set", "put", "sent", "shown", "driven", "given", "taken":
		return true
	}
	return false
}
